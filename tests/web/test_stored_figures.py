"""The pub page's figures, its evening and the head-to-head page come from the journal's stored
summaries: a first read replays the latest match only, and shows what a replay of every match
shows (an older journal, kept without summaries, is still replayed whole)."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.journal import Journal
from pegboard.journal.reader import RECENT_GAMES, HistoryCache, HistoryReader
from pegboard.table.headtohead import RecordPage
from pegboard.ui.results import head_to_head_view
from pegboard.web.players import PlayerFigures, figures_payload, snapshot_figures
from pegboard.web.publisher import _listed_games, _recent_games, finish_times

# (variant, names, the pegs that end the first game): 1 Bob double skunked; 2 nobody behind;
# 3 Zed and Bob double skunked; 4 Ann lurched; 5 the latest match, still open (best of three)
MATCHES = [
    (Variant.SIX_CARD, ("Ann", "Bob"), ["peg Ann 61", "peg Ann 60"]),
    (Variant.SIX_CARD, ("Bob", "Ann"), ["peg Ann 50", "peg Ann 45", "peg Bob 61", "peg Bob 60"]),
    (Variant.THREE_HANDED, ("Ann", "Zed", "Bob"), ["peg Ann 61", "peg Ann 60"]),
    (Variant.SIX_CARD, ("Cat", "Ann"), ["peg Ann 50", "peg Ann 30", "peg Cat 61", "peg Cat 60"]),
    (Variant.SIX_CARD, ("Ann", "Bob"), ["peg Bob 40", "peg Ann 61", "peg Ann 60"]),
]


def play(store: Journal, variant: Variant, names: tuple[str, ...], pegs: list[str]) -> None:
    """A match of *variant* whose first game is won by *pegs* (after a cut and a starter)."""
    rules = Rules.for_variant(variant)
    fmt = MatchFormat.SINGLE if variant is not Variant.SIX_CARD else MatchFormat.BEST_OF_THREE
    store.new_match(rules, names, fmt)
    cut = " ".join(["9H", "3C", "5D"][: rules.sides])
    for text in [f"cut {cut}", "starter 5C", *pegs]:
        assert store.state is not None
        store.do(parse_command(text, store.state.names))


def journal(folder: Path, *, summaries: bool = True) -> Path:
    """``MATCHES`` played; with *summaries* False, the journal as an older version kept it."""
    db = folder / "p.db"
    with Journal(db) as store:
        for variant, names, pegs in MATCHES:
            play(store, variant, names, pegs)
    if not summaries:
        with sqlite3.connect(db) as conn:
            conn.execute("PRAGMA user_version = 0")
    return db


@pytest.mark.parametrize("summaries", [True, False], ids=["summarised", "older-version"])
def test_the_first_read_shows_what_replaying_every_match_shows(
    tmp_path: Path, summaries: bool
) -> None:
    db = journal(tmp_path, summaries=summaries)
    with Journal(db, readonly=True) as store:
        matches = store.history()
        finished = store.finished_games()
        lurches = store.lurches()
        cache = HistoryCache()
        snapshot = cache.read(store)
        # a summarised journal: only the latest match replayed; an older one: every match once
        assert cache.replayed == (1 if summaries else len(MATCHES))
        assert snapshot.current == matches[-1]
        assert snapshot_figures(snapshot) == figures_payload(matches, matches[-1])
        # the evening: the same items, lurches (by name: Bob before Zed) and finish times
        old = _recent_games(finished, lurches, finish_times(matches))
        assert _listed_games(snapshot.recent) == old
        assert len(old) == len(MATCHES) <= RECENT_GAMES
        three = next(item for _, item in old if item["variant"] == "three-handed")
        assert [b["name"] for b in three["lurch"]] == ["Bob", "Zed"]
        for a, b in (("Ann", "Bob"), ("ann", "CAT"), ("Zed", "Bob"), ("Ann", "Nobody")):
            page = RecordPage(store).record(a, b)
            assert page == head_to_head_view(matches, a, b)
        assert RecordPage(store).record("Ann", "Bob").lurches == (3, 0)  # 1, 3 and 5
        again = cache.read(store)  # nothing new: the latest match alone, the finals kept
        assert cache.replayed == (2 if summaries else len(MATCHES) + 1)
        assert again.book().standings() == snapshot.book().standings()


def test_the_readers_first_read_replays_only_the_latest_match(tmp_path: Path) -> None:
    """The daemon's reader and ``pegboard serve``'s figures, on a summarised journal."""
    db = journal(tmp_path)
    reader = HistoryReader(db)
    try:
        snapshot = reader.read_now()
    finally:
        reader.close()
    assert reader.replayed == 1
    assert snapshot.current is not None and snapshot.current.match_id == len(MATCHES)
    figures = PlayerFigures()
    with Journal(db, readonly=True) as store:
        assert figures.payload(store) is not None
    assert figures.replayed == 1


def test_a_new_match_reads_the_stored_totals_again(tmp_path: Path) -> None:
    db = journal(tmp_path)
    with Journal(db) as store:
        cache = HistoryCache()
        cache.read(store)
        cache.read(store)
        assert cache.finals_read == 1  # the same latest match: the totals kept
        play(store, Variant.SIX_CARD, ("Dee", "Ann"), ["peg Dee 61", "peg Dee 60"])
        snapshot = cache.read(store)
        assert cache.finals_read == 2 and cache.replayed == 3
        matches = store.history()
        assert snapshot_figures(snapshot) == figures_payload(matches, matches[-1])


def forge(db: Path) -> None:
    """Match 2 given an entry it refuses (``tests/cli/test_repair.py``'s way), and summarised
    again as the writer would (left out)."""
    with sqlite3.connect(db) as conn:
        conn.execute(
            "INSERT INTO journal (match_id, command, at) VALUES (2, 'starter 9H', "
            "'2025-03-01T20:00:00.000+00:00')"
        )
        for table in ("match_summaries", "summary_games", "standings_books"):
            conn.execute(f"DELETE FROM {table}")
        conn.execute("PRAGMA user_version = 0")  # the next writer summarises every match again
    Journal(db).close()


def test_a_match_that_cannot_be_replayed_is_named_once_and_left_out(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = journal(tmp_path)
    forge(db)
    with Journal(db, readonly=True) as store:
        good = [m for m in store.replayed_after(0) if not hasattr(m, "reason")]
        assert [m.match_id for m in good] == [1, 3, 4, 5]  # match 2 cannot be replayed
        figures = PlayerFigures()
        with caplog.at_level(logging.WARNING, logger="pegboard"):
            first = figures.read(store)
            figures.read(store)
        assert caplog.text.count("match 2 left out") == 1
        assert [m.match_id for m in first.left_out] == [2]
        matches = good  # the page's figures: every other match's
        assert snapshot_figures(first) == figures_payload(matches, matches[-1])  # type: ignore[arg-type]
        page = RecordPage(store).record("Ann", "Bob")
        assert page == head_to_head_view(matches, "Ann", "Bob")  # type: ignore[arg-type]
        assert [item["match_id"] for _, item in _listed_games(first.recent)] == [1, 3, 4, 5]
