"""A reader without a writer opens the journal in place (immutable): no copy in memory, so its
memory does not grow with the journal, and nothing is made beside the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.journal import Journal, readonly

from .games import listing, scripted_journal


def test_a_reader_without_a_writer_never_copies_the_file_into_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = scripted_journal(tmp_path / "p.db")
    before = listing(tmp_path)

    def no_copy(*args: object, **kwargs: object) -> None:
        raise AssertionError("the journal was copied into memory")

    monkeypatch.setattr(readonly, "_in_memory", no_copy)
    monkeypatch.setattr(Path, "read_bytes", no_copy)
    with Journal(db, readonly=True) as store:
        assert not store.live
        assert store.load() is not None
        assert len(store.history()) == 1
        assert sorted(p.name for p in tmp_path.iterdir()) == ["p.db"]  # no -wal, no -shm
    monkeypatch.undo()
    assert listing(tmp_path) == before


def test_a_reader_in_place_starts_again_when_a_writer_changed_the_file_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = scripted_journal(tmp_path / "p.db")
    marks = iter([((1, 2, 3, 4), None, None)])  # the first look finds another file there
    real = readonly.file_marks
    monkeypatch.setattr(readonly, "file_marks", lambda *a: next(marks, None) or real(*a))
    with Journal(db, readonly=True) as store:
        assert store.load() is not None
