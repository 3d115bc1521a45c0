"""A command-line reader reads again while a writer changes the file under it
(``journal.read_steadily``): a short writer's commit and checkpoint during an immutable read is
never shown as stale figures or as a damaged journal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.cli.main import main
from pegboard.errors import JournalError
from pegboard.journal import READS, Journal, read_steadily

from .games import SCRIPT, cli


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "p.db"
    cli("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", path)
    cli("game", "do", "--db", path, *SCRIPT)
    return path


def moves(monkeypatch: pytest.MonkeyPatch, answers: list[bool]) -> list[bool]:
    """``Journal.moved`` answers *answers* in turn, then False; returns the answers given."""
    given: list[bool] = []
    left: Iterator[bool] = iter(answers)

    def moved(self: Journal) -> bool:
        given.append(next(left, False))
        return given[-1]

    monkeypatch.setattr(Journal, "moved", moved)
    return given


def test_a_read_a_writer_changed_is_read_again(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    given = moves(monkeypatch, [True])
    reads: list[int] = []

    def read(store: Journal) -> int | None:
        reads.append(1)
        return store.match_id if store.load() is not None else None

    assert read_steadily(lambda: Journal(db, readonly=True), read) == 1
    assert (len(reads), given) == (2, [True, False])


def test_a_read_that_looked_damaged_under_a_writer_is_read_again(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves(monkeypatch, [True])
    reads: list[int] = []

    def read(store: Journal) -> str:
        reads.append(1)
        if len(reads) == 1:
            raise JournalError("database disk image is malformed")
        return "whole"

    assert read_steadily(lambda: Journal(db, readonly=True), read) == "whole"
    assert len(reads) == 2


def test_a_damaged_journal_no_writer_touched_is_said_at_once(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    given = moves(monkeypatch, [])

    def read(store: Journal) -> None:
        raise JournalError("database disk image is malformed")

    with pytest.raises(JournalError, match="malformed"):
        read_steadily(lambda: Journal(db, readonly=True), read)
    assert given == [False]


def test_a_writer_that_never_stops_is_said_plainly(
    db: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moves(monkeypatch, [True] * READS)
    with pytest.raises(JournalError, match=f"during each of {READS} reads; try again"):
        read_steadily(lambda: Journal(db, readonly=True), lambda store: store.load())


@pytest.mark.parametrize(
    "command",
    [["history"], ["stats", "players"], ["game", "show"]],
    ids=lambda c: " ".join(c),
)
def test_the_command_line_readers_read_again(
    db: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: list[str],
) -> None:
    assert main([*command, "--db", str(db)]) == 0
    steady = capsys.readouterr().out
    given = moves(monkeypatch, [True])
    assert main([*command, "--db", str(db)]) == 0
    assert capsys.readouterr().out == steady
    assert given[:2] == [True, False]  # read, found moved, read again
