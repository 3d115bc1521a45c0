"""The open's look at a journal: a header read half-way through a writer's checkpoint is looked
at again, never taken for a torn file (which a writer would move aside)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pegboard.journal import Journal, probe

from .games import SCRIPT, cli


def test_a_header_read_during_a_writers_last_checkpoint_is_looked_at_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "p.db"
    cli("game", "new", "--players", "Ann,Bob", "--db", db)
    cli("game", "do", "--db", db, *SCRIPT)
    wal = Path(f"{db}-wal")
    wal.write_bytes(b"")  # a writer is closing: its log is still there when the look starts
    real = probe.read_header
    calls: list[int] = []

    def mid_checkpoint(path: Path, size: int) -> bytes | None:
        header = real(path, size)
        calls.append(1)
        if header is None or len(calls) > 1:
            return header
        # the checkpoint has written page 1 with the new page count, not yet the pages that
        # make the file longer, and then removes its log
        wal.unlink()
        pages = int.from_bytes(header[28:32], "big") + 10
        return header[:28] + pages.to_bytes(4, "big") + header[32:]

    monkeypatch.setattr(probe, "read_header", mid_checkpoint)
    with Journal(db) as store:  # a writer: a file it took for torn it would move aside
        assert store.notice is None
        assert store.load() is not None
    assert len(calls) == 2  # looked at again
    assert [p.name for p in tmp_path.iterdir() if "corrupt" in p.name] == []
