"""No traceback from any byte a user can send: the real ``pegboard`` in a child process.

Each test runs under two locales. ``C.UTF-8`` reads stdin with ``surrogateescape``; a strict
UTF-8 locale (Raspberry Pi OS's default ``en_GB.UTF-8``) reads it with ``strict``, so one bad
byte used to end the whole run in ``UnicodeDecodeError``. ``PYTHONIOENCODING=utf-8`` (with
``PYTHONUTF8=0``) gives that strict reading on any machine, installed locales or not.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from pegboard.engine.cards import MAX_TEXT_BYTES

ROOT = Path(__file__).resolve().parents[2]

C_UTF8 = {"LC_ALL": "C.UTF-8"}
STRICT_UTF8 = {"LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8", "PYTHONUTF8": "0"}
ENVIRONMENTS = [
    pytest.param(C_UTF8, id="C.UTF-8"),
    pytest.param(STRICT_UTF8, id="strict-utf-8"),
]

HAND = b"5H 5D 5S JC 5C\n"  # 29
OTHER = b"3C 3D 6H 6S 9C\n"  # 14


# runs a module as ``python -m`` would, then writes the process's own peak memory (VmHWM,
# which starts afresh at exec; getrusage's ru_maxrss keeps the peak of the forking parent)
_MEASURED = """
import runpy, sys
module, sys.argv = sys.argv[1], sys.argv[1:]
try:
    runpy.run_module(module, run_name="__main__", alter_sys=True)
finally:
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(__peak_file__, "w") as out:
        out.write(peak)
"""


@dataclass(frozen=True)
class Run:
    """What one child process did."""

    status: int
    out: bytes
    err: bytes
    peak: int
    """The child's peak resident memory, in bytes."""


def pegboard(tmp_path: Path, env: dict[str, str], *args: str | bytes, stdin: bytes = b"") -> Run:
    """Run the ``pegboard`` command line in a child process with *env* and *stdin*."""
    clean = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("LC_", "LANG", "PYTHONIOENCODING", "PYTHONUTF8"))
    }
    clean.pop("PEGBOARD_DB", None)
    clean["HOME"] = str(tmp_path)  # no stray user journal or config
    clean.update(env)
    (tmp_path / "stdin").write_bytes(stdin)
    peak_file = tmp_path / "peak"
    code = _MEASURED.replace("__peak_file__", repr(str(peak_file)))
    with open(tmp_path / "stdin", "rb") as given:
        done = subprocess.run(
            [sys.executable, "-c", code, "pegboard", *args],
            stdin=given,
            capture_output=True,
            cwd=ROOT,
            env=clean,
            timeout=60,
            check=False,
        )
    return Run(done.returncode, done.stdout, done.stderr, int(peak_file.read_text()) * 1024)


@pytest.mark.parametrize(
    ("env", "errors"),
    [
        pytest.param(C_UTF8, "surrogateescape", id="C.UTF-8"),
        pytest.param(STRICT_UTF8, "strict", id="strict-utf-8"),
    ],
)
def test_the_two_environments_read_stdin_as_the_pi_does(
    tmp_path: Path, env: dict[str, str], errors: str
) -> None:
    code = "import sys; print(sys.stdin.encoding, sys.stdin.errors)"
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG", "PYTHON"))}
    done = subprocess.run(
        [sys.executable, "-c", code], env={**clean, **env}, capture_output=True, check=True
    )
    assert done.stdout.decode() == f"utf-8 {errors}\n"


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_an_undecodable_line_on_stdin_answers_one_error_and_the_rest_go_on(
    tmp_path: Path, env: dict[str, str]
) -> None:
    done = pegboard(
        tmp_path, env, "score", "--json", "-", stdin=HAND + b"5H 5D \xff JC 5C\n" + OTHER
    )
    answers = [json.loads(line) for line in done.out.splitlines()]
    message = (
        r"hand and starter is not valid UTF-8: '5H 5D \udcff JC 5C' (byte 0xFF at character 7 "
        "cannot be decoded; expected UTF-8 text)"
    )
    assert done.status == 1
    assert [a.get("total") for a in answers] == [29, None, 14]  # one answer per line
    assert answers[1] == {"line": 2, "error": message}
    assert done.err.decode("ascii") == f"pegboard: error: line 2: {message}\n"


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_an_undecodable_line_in_plain_text_mode_is_one_error_line(
    tmp_path: Path, env: dict[str, str]
) -> None:
    done = pegboard(tmp_path, env, "score", "-", stdin=b"\xff\xfe\n" + OTHER + b"\xc3\n")
    lines = done.out.decode("ascii").splitlines()
    assert done.status == 1 and b"Traceback" not in done.err
    assert lines[0].startswith(r"error: line 1: hand and starter is not valid UTF-8: '\udcff")
    assert lines[1:4] == [
        "hand 3C 3D 6H 6S  starter 9C",
        "fifteen 2, fifteen 4, fifteen 6, fifteen 8, fifteen 10, and a pair is 12, "
        "and another pair is 14",
        "total 14",
    ]
    # a last line without its newline is a line too
    assert lines[4].startswith(r"error: line 3: hand and starter is not valid UTF-8: '\udcc3'")
    assert len(lines) == 5 and done.err.count(b"\n") == 2


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_a_ten_megabyte_line_is_refused_at_once_in_bounded_memory(
    tmp_path: Path, env: dict[str, str]
) -> None:
    started = time.monotonic()
    baseline = pegboard(tmp_path, env, "score", "--json", "-", stdin=HAND + OTHER)
    baseline_seconds = time.monotonic() - started
    huge = b"5H " * 3_500_000 + b"\n"  # 10.5 MB of cards on one line
    started = time.monotonic()
    done = pegboard(tmp_path, env, "score", "--json", "-", stdin=HAND + huge + OTHER)
    seconds = time.monotonic() - started
    answers = [json.loads(line) for line in done.out.splitlines()]
    message = f"line too long: over {MAX_TEXT_BYTES} bytes (expected one hand and starter per line)"
    assert done.status == 1
    assert [a.get("total") for a in answers] == [29, None, 14]
    assert answers[1] == {"line": 2, "error": message}
    assert done.err.decode() == f"pegboard: error: line 2: {message}\n"
    # the line is never held: not even one copy of it (10.5 MB) adds to the peak
    assert done.peak - baseline.peak < 4_000_000
    assert done.peak < 100_000_000
    assert seconds < baseline_seconds + 2.0  # it was 19 s and 500 MB on a Pi Zero 2 W


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_a_line_of_exactly_the_bound_is_read_and_one_byte_more_is_refused(
    tmp_path: Path, env: dict[str, str]
) -> None:
    longest = b"5H 5D 5S JC 5C".ljust(MAX_TEXT_BYTES) + b"\n"  # trailing blanks count
    done = pegboard(
        tmp_path, env, "score", "--json", "-", stdin=longest + b" " + longest + longest[:-1]
    )
    answers = [json.loads(line) for line in done.out.splitlines()]
    assert [a.get("total") for a in answers] == [29, None, 29]
    assert answers[1]["error"].startswith(f"line too long: over {MAX_TEXT_BYTES} bytes")


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_an_undecodable_byte_in_a_peg_reason_is_one_error_line(
    tmp_path: Path, env: dict[str, str]
) -> None:
    db = str(tmp_path / "p.db")
    assert pegboard(tmp_path, env, "game", "new", "--db", db).status == 0
    done = pegboard(tmp_path, env, "game", "do", "--db", db, "cut 9C 3D", b"peg A 2 \xff")
    assert done.status == 1
    assert done.out.decode().startswith("ok cut 9C 3D\n")
    assert done.err.decode("ascii") == (
        r"pegboard: error: command 2 'peg A 2 \udcff' failed: command is not valid UTF-8: "
        r"'peg A 2 \udcff' (byte 0xFF at character 9 cannot be decoded; expected UTF-8 text); "
        "the 1 before it stay applied\n"
    )
    shown = pegboard(tmp_path, env, "game", "show", "--db", db, "--json")
    assert json.loads(shown.out)["sides"][0]["score"] == 0


@pytest.mark.parametrize("env", ENVIRONMENTS)
def test_an_undecodable_side_name_is_one_error_line(tmp_path: Path, env: dict[str, str]) -> None:
    done = pegboard(
        tmp_path, env, "game", "new", "--db", str(tmp_path / "p.db"), "--players", b"\xff,B"
    )
    assert done.status == 1 and done.out == b""
    assert done.err.decode("ascii").startswith(
        r"pegboard: error: side name is not valid UTF-8: '\udcff'"
    )
    assert done.err.count(b"\n") == 1
