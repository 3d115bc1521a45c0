"""``--help``'s width is worked out as ``shutil`` would, without loading ``shutil``."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

import pytest

from pegboard.cli.helpformat import DefaultsFormatter, OwnDefaultsFormatter, terminal_columns
from pegboard.cli.main import build_parser


@pytest.mark.parametrize("columns", ["", "0", "-3", "abc", "1", "57", "200"])
def test_the_width_is_the_one_shutil_gives(columns: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


def test_without_columns_the_width_is_shutil_s(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    assert terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("columns", ["40", "100"])
def test_help_wraps_exactly_as_argparse_s_own_formatter(
    columns: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", columns)
    for command in ("run", "score", "serve", "history"):
        ours = build_parser(command)
        theirs = build_parser(command)
        for parser in (theirs, *_subparsers(theirs)):
            own = parser.formatter_class is OwnDefaultsFormatter
            assert parser.formatter_class in (DefaultsFormatter, OwnDefaultsFormatter)
            parser.formatter_class = _shutil_width(own)
        assert _helps(ours) == _helps(theirs)


def test_the_width_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "40")
    narrow = build_parser("run").format_help()
    monkeypatch.setenv("COLUMNS", "120")
    assert build_parser("run").format_help() != narrow
    assert max(len(line) for line in narrow.splitlines()) < 60


def test_the_command_line_loads_no_shutil_to_parse() -> None:
    code = (
        "import sys\n"
        "from pegboard.cli.main import build_parser\n"
        "build_parser('run').parse_args(['run', '--simulate'])\n"
        "print('shutil' in sys.modules)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "COLUMNS"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.strip() == "False", done.stderr


def _shutil_width(own: bool) -> type[argparse.HelpFormatter]:
    """Our formatter with argparse's own width (from ``shutil``)."""
    ours = OwnDefaultsFormatter if own else DefaultsFormatter

    class Theirs(ours):  # type: ignore[valid-type,misc]
        def __init__(self, prog: str) -> None:
            argparse.HelpFormatter.__init__(self, prog)

    return Theirs


def _subparsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found += [sub, *_subparsers(sub)]
    return found


def _helps(parser: argparse.ArgumentParser) -> list[str]:
    return [p.format_help() for p in (parser, *_subparsers(parser))]


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["tourney", "result", "1", "2", "Ann", "abc"],
         "pegboard tourney result: error: argument SCORE: invalid int value: 'abc' "
         "(see 'pegboard tourney result --help')"),
        (["score"], "pegboard score: error: the following arguments are required: CARD "
         "(see 'pegboard score --help')"),
        (["score", "5H", "--bogus"],
         "pegboard: error: unrecognized arguments: --bogus (see 'pegboard --help')"),
        (["game", "new", "--match", "best-of-nine"],
         "pegboard game new: error: argument --match: invalid choice: 'best-of-nine' (choose "
         "from 'best-of-three', 'first-to-two', 'single', 'first-to-three') "
         "(see 'pegboard game new --help')"),
    ],
)  # fmt: skip
def test_a_command_line_argparse_cannot_take_is_one_line(
    argv: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from pegboard.cli.main import main

    with pytest.raises(SystemExit) as exited:
        main(argv)
    captured = capsys.readouterr()
    assert (exited.value.code, captured.out, captured.err) == (2, "", line + "\n")
