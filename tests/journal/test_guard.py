"""A file that is not a pegboard journal is never touched; readers create nothing.

Every kind of file a user might name by mistake goes through each command that opens a journal
(``game show``, ``game new``, ``game do``) and the daemon's start: each is refused with one line
and stays byte for byte as it was. Only a damaged pegboard journal is moved aside, and only by a
command that writes.
"""

from __future__ import annotations

import io
import json
import logging
import random
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from pegboard.cli.main import main
from pegboard.config.settings import parse_config
from pegboard.devices.oled import RecordingDisplay
from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.errors import JournalError
from pegboard.journal import Journal
from pegboard.table.daemon import run_daemon
from pegboard.table.wiring import sim_ports
from pegboard.ui.screens import render_error


def _text(path: Path) -> None:
    path.write_text("milk\neggs\nflour for the pancakes\n")


def _toml(path: Path) -> None:
    path.write_text('[game]\nvariant = "six-card"\nnames = ["Ann", "Bob"]\n')


def _png(path: Path) -> None:
    buffer = io.BytesIO()
    Image.new("RGB", (8, 8), (200, 30, 30)).save(buffer, "PNG")
    path.write_bytes(buffer.getvalue())


def _foreign_sqlite(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT, minutes INTEGER)")
    conn.execute("INSERT INTO recipes VALUES ('pancakes', 20)")
    conn.commit()
    conn.close()


def _lookalike_sqlite(path: Path) -> None:
    """Another program's database whose tables happen to be called matches and journal."""
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE matches (home TEXT, away TEXT)")
    conn.execute("CREATE TABLE journal (entry TEXT)")
    conn.commit()
    conn.close()


def _empty(path: Path) -> None:
    path.write_bytes(b"")


NOT_OURS: dict[str, tuple[Callable[[Path], None], str]] = {
    "text": (_text, "it is not a SQLite database"),
    "toml": (_toml, "it is not a SQLite database"),
    "png": (_png, "it is not a SQLite database"),
    "foreign-sqlite": (_foreign_sqlite, "a SQLite database without pegboard's tables"),
    "lookalike-sqlite": (_lookalike_sqlite, "a SQLite database without pegboard's tables"),
    "empty": (_empty, "it is empty"),
}


def _journal(path: Path) -> None:
    with Journal(path) as store:
        state = store.new_match(Rules.six_card(), ("Ann", "Bob"))
        for text in ("cut 9C 3D", "starter 5C"):
            state, _ = store.do(parse_command(text, state.names))


def _scramble(path: Path) -> None:
    """A real journal whose pages after the first are overwritten with noise."""
    _journal(path)
    data = bytearray(path.read_bytes())
    noise = random.Random(7).randbytes(len(data) - 4096)
    data[4096:] = noise
    path.write_bytes(bytes(data))


def _folder_listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


GAME_COMMANDS = {
    "game-show": ("game", "show"),
    "game-new": ("game", "new"),
    "game-do": ("game", "do", "cut 9C 3D"),
}


@pytest.mark.parametrize("kind", list(NOT_OURS))
@pytest.mark.parametrize("command", list(GAME_COMMANDS))
def test_a_file_that_is_not_a_journal_is_refused_and_left_byte_for_byte(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], kind: str, command: str
) -> None:
    make, why = NOT_OURS[kind]
    path = tmp_path / "notes.txt"
    make(path)
    before = path.read_bytes()
    status, out, err = _cli(capsys, *GAME_COMMANDS[command], "--db", str(path))
    assert status == 1 and out == ""
    assert err == (
        f"pegboard: error: {str(path)!r} is not a pegboard journal ({why}); it was left as it"
        + (
            " is (expected a journal made by pegboard, or a path that does not exist yet)\n"
            if not kind.endswith("sqlite")
            else " is\n"
        )
    )
    assert path.read_bytes() == before
    assert _folder_listing(tmp_path) == ["notes.txt"]


@pytest.mark.parametrize("kind", list(NOT_OURS))
def test_the_daemon_refuses_a_file_that_is_not_a_journal_on_its_screen(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    make, why = NOT_OURS[kind]
    path = tmp_path / "notes.txt"
    make(path)
    before = path.read_bytes()
    config = parse_config(f'[game]\ndatabase = "{path}"')
    display = RecordingDisplay((128, 64))
    ports = replace(sim_ports(config), display=display)
    with (
        caplog.at_level(logging.ERROR, logger="pegboard"),
        pytest.raises(JournalError, match="is not a pegboard journal"),
    ):
        run_daemon(config, ports, install_signals=False)
    assert f"({why})" in caplog.text and "journal: " in caplog.text
    assert path.read_bytes() == before
    assert _folder_listing(tmp_path) == ["notes.txt"]
    assert len(display.shown) == 1  # the refusal is on the screen, with the file's name
    expected = render_error("'notes.txt' is not a pegboard journal", (128, 64), "1")
    assert display.shown[0].tobytes() == expected.tobytes()


@pytest.mark.parametrize("command", list(GAME_COMMANDS))
def test_a_damaged_journal_is_moved_aside_only_by_a_command_that_writes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    path = tmp_path / "p.db"
    _scramble(path)
    before = path.read_bytes()
    status, out, err = _cli(capsys, *GAME_COMMANDS[command], "--db", str(path))
    if command == "game-show":
        assert status == 1 and out == ""
        assert err.startswith(f"pegboard: error: {str(path)!r} is a damaged pegboard journal (")
        assert err.count("\n") == 1
        assert path.read_bytes() == before and _folder_listing(tmp_path) == ["p.db"]
        return
    assert err.startswith(f"pegboard: notice: the database {str(path)!r} could not be read (")
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == before
    if command == "game-new":
        assert status == 0 and "new match" in out
    else:  # the fresh journal has no match for 'do' to act on
        assert status == 1 and "no match in" in err


def test_the_daemon_moves_a_damaged_journal_aside_and_starts_afresh(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "p.db"
    _scramble(path)
    before = path.read_bytes()
    config = parse_config(f'[game]\ndatabase = "{path}"')
    stop = threading.Event()
    with caplog.at_level(logging.WARNING, logger="pegboard"):
        result = run_daemon(
            config, sim_ports(config), stop=stop, install_signals=False,
            on_ready=lambda controller: stop.set(),
        )  # fmt: skip
    assert result.ready_after is not None
    assert "could not be read" in caplog.text
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes() == before
    with Journal(path, readonly=True) as store:
        assert store.load() is not None  # the daemon started a fresh match


def test_a_reader_on_a_missing_path_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "nothing-here" / "p.db"
    status, out, err = _cli(capsys, "game", "show", "--db", str(path))
    assert (status, out) == (1, "")
    assert err == (
        f"pegboard: error: no journal at {str(path)!r}: start one with "
        f"'pegboard game new --db {path}'\n"
    )
    assert _folder_listing(tmp_path) == []


def test_a_reader_leaves_no_files_beside_the_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "p.db"
    assert _cli(capsys, "game", "new", "--db", str(path))[0] == 0
    assert _cli(capsys, "game", "do", "--db", str(path), "cut 9C 3D")[0] == 0
    before = path.read_bytes()
    status, out, _ = _cli(capsys, "game", "show", "--db", str(path), "--json")
    assert status == 0 and json.loads(out)["phase"] in ("discard", "starter")
    assert _folder_listing(tmp_path) == ["p.db"]  # no -wal or -shm left behind
    assert path.read_bytes() == before


def test_a_reader_sees_what_a_writer_has_not_yet_checkpointed(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    with Journal(path) as writer:
        state = writer.new_match(Rules.six_card(), ("Ann", "Bob"))
        writer.do(parse_command("cut 9C 3D", state.names))
        assert (tmp_path / "p.db-wal").exists()
        with Journal(path, readonly=True) as reader:
            assert reader.load() == writer.state
            assert reader.commands() == ["cut 9C 3D"]
            with pytest.raises(JournalError, match="opened read-only"):
                reader.do(parse_command("starter 5C", state.names))


def test_a_reader_cannot_write(tmp_path: Path) -> None:
    path = tmp_path / "p.db"
    _journal(path)
    before = path.read_bytes()
    with (
        Journal(path, readonly=True) as reader,
        pytest.raises(JournalError, match="opened read-only: nothing is written"),
    ):
        reader.new_match(Rules.six_card())
    assert path.read_bytes() == before


def test_a_new_journal_appears_whole_and_leaves_no_draft(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "p.db"
    with Journal(path) as store:
        assert store.notice is None
    assert _folder_listing(path.parent) == ["p.db"]
    with Journal(path, readonly=True) as reader:
        assert reader.load() is None  # a journal with pegboard's tables and no match yet
