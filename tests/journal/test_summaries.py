"""Stored summaries: written when a match becomes final, migrated once, read without replay."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from pegboard.engine import history
from pegboard.engine.history import MatchHistory, replay_match
from pegboard.engine.listing import MatchListing
from pegboard.engine.players import Book, standings
from pegboard.journal import Journal, summaries

from .games import SCRIPT, cli


def evening(db: Path, matches: int = 3) -> Path:
    """*matches* finished single games of Ann v Bob (the script's), then Cy v Di begun."""
    for _ in range(matches):
        cli("game", "new", "--players", "Ann,Bob", "--match", "single", "--db", db)
        cli("game", "do", "--db", db, *SCRIPT)
    cli("game", "new", "--players", "Cy,Di", "--db", db)
    cli("game", "do", "--db", db, "cut 9H 3C")
    return db


def _version(db: Path) -> int:
    with sqlite3.connect(db) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


def test_final_matches_are_listed_and_totalled_as_a_replay_of_everything_gives(
    tmp_path: Path,
) -> None:
    db = evening(tmp_path / "p.db")
    assert _version(db) == 1
    with Journal(db, readonly=True) as store:
        everything = store.history()
        listings, count, left_out = store.final_listings()
        latest = store.latest_match()
        book = store.final_book()
    assert (count, left_out) == (3, [])
    assert listings == [MatchListing.of(m) for m in reversed(everything[:-1])]
    assert isinstance(latest, MatchHistory) and latest == everything[-1]
    latest_book = Book()
    latest_book.add_match(latest)
    assert book.merged(latest_book).standings() == standings(everything)


def test_an_older_journal_is_summarised_by_the_first_writer_and_read_by_replay_before(
    tmp_path: Path,
) -> None:
    db = evening(tmp_path / "p.db")
    with sqlite3.connect(db) as conn:  # as a journal of the version before summaries
        for table in ("match_summaries", "summary_games", "standings_books"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("PRAGMA user_version = 0")
    with Journal(db, readonly=True) as store:  # a reader replays, and writes nothing
        old = store.final_listings(), store.final_book().standings()
        assert not store.summarised()
    assert _version(db) == 0
    Journal(db).close()  # the first writer
    assert _version(db) == 1
    with Journal(db, readonly=True) as store:
        assert store.summarised()
        assert (store.final_listings(), store.final_book().standings()) == old


def test_a_migration_cut_short_goes_on_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = evening(tmp_path / "p.db", matches=5)
    with sqlite3.connect(db) as conn:  # as a journal of the version before summaries
        for table in ("match_summaries", "summary_games", "standings_books"):
            conn.execute(f"DROP TABLE {table}")
        conn.execute("PRAGMA user_version = 0")
    with Journal(db, readonly=True) as store:
        everything = store.final_listings(), store.final_book().standings()
    monkeypatch.setattr(summaries, "MIGRATE_BATCH", 2)
    summarise = summaries.SummaryTables._summarise
    calls: list[int] = []

    def stopped_on_the_third(self: summaries.SummaryTables, match_id: int, **kw: Any) -> None:
        calls.append(match_id)
        if len(calls) == 3:  # systemd's start timeout, a power cut: the writer is gone
            raise KeyboardInterrupt
        summarise(self, match_id, **kw)

    monkeypatch.setattr(summaries.SummaryTables, "_summarise", stopped_on_the_third)
    with pytest.raises(KeyboardInterrupt):
        Journal(db)
    assert _version(db) == 0
    with sqlite3.connect(db) as conn:  # the first batch stayed, the second rolled back
        kept = [i for (i,) in conn.execute("SELECT match_id FROM match_summaries ORDER BY 1")]
    assert kept == [1, 2]
    calls.clear()
    monkeypatch.setattr(summaries.SummaryTables, "_summarise", _counting(summarise, calls))
    Journal(db).close()  # the next start goes on after match 2
    assert calls == [3, 4, 5]
    assert _version(db) == 1
    with Journal(db, readonly=True) as store:
        assert (store.final_listings(), store.final_book().standings()) == everything


def test_matches_an_older_pegboard_added_are_summarised_by_the_next_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = evening(tmp_path / "p.db", matches=2)
    with monkeypatch.context() as older:  # a downgrade: it starts matches and summarises none
        older.setattr(summaries.SummaryTables, "_finalise_latest", lambda self: None)
        older.setattr(summaries.SummaryTables, "_unsummarised", lambda self: False)
        evening(db, matches=2)
    with Journal(db, readonly=True) as store:
        assert store.summarised()  # the version says so, but two final matches have none
        listed = store.final_listings()[1]
    Journal(db).close()  # the next writer sees the gap and fills it
    with Journal(db, readonly=True) as store:
        everything = store.history()
        listings, count, _ = store.final_listings()
        latest = store.latest_match()
        book = store.final_book()
    assert (listed, count) == (2, 5)  # 5 final matches: 2 summarised before, 3 after
    assert listings == [MatchListing.of(m) for m in reversed(everything[:-1])]
    assert isinstance(latest, MatchHistory)
    latest_book = Book()
    latest_book.add_match(latest)
    assert book.merged(latest_book).standings() == standings(everything)


def _counting(summarise: Any, calls: list[int]) -> Any:
    def counted(self: summaries.SummaryTables, match_id: int, **kw: Any) -> None:
        calls.append(match_id)
        summarise(self, match_id, **kw)

    return counted


def test_reading_the_summaries_replays_only_the_latest_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = evening(tmp_path / "p.db")
    replayed: list[int] = []

    def counting(*args: Any, **kwargs: Any) -> MatchHistory:
        replayed.append(kwargs["match_id"])
        return replay_match(*args, **kwargs)

    monkeypatch.setattr(history, "replay_match", counting)  # summaries imports it when it replays
    with Journal(db, readonly=True) as store:
        store.final_listings()
        store.final_book()
        latest = store.latest_match()
    assert isinstance(latest, MatchHistory)
    assert replayed == [4]
