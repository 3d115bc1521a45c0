"""The players' figures for the pub page between games: each side's record and their head to head.

Theory of operation
-------------------
The figures are ``engine.players.standings`` over every match of the current match's variant.
They are read from the journal's stored totals (``journal.summaries``: a ``Book`` per variant
over the final matches, kept up to date in the transaction that makes a match final) merged
with the latest match's, which alone is replayed (``journal.reader.HistoryCache``): a look costs
the same after ten games or ten thousand. A journal that keeps no summaries (an older version,
until a writer opens it) is replayed once, then only its latest match.

On the table the history is read by the journal's ``HistoryReader`` in its own thread, and the
figures are made there too (``snapshot_figures``, called back with each new snapshot), so the
controller's thread never replays or tallies anything. ``pegboard serve`` (``PlayerFigures``)
reads in its feed's thread, which owns no keys.

The figures are for the current match's variant (points a deal in five-card and six-card are
not the same game), of the current match's sides by name (a partnership's own record under its
side's name), and ``None`` for a side that has not finished a game of it yet.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any

from pegboard.engine.players import Book, PlayerStats, RoleFigures
from pegboard.journal.reader import HistoryCache, HistorySnapshot

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory
    from pegboard.journal import Journal

__all__ = ["PlayerFigures", "book_figures", "figures_payload", "snapshot_figures"]


class PlayerFigures:
    """What the page shows of the history (``HistoryCache``: the stored totals, the latest
    match replayed), read in the caller's thread (``pegboard serve``'s feed)."""

    def __init__(self) -> None:
        self._cache = HistoryCache()

    @property
    def replayed(self) -> int:
        """Matches replayed so far (the tests and the benchmark read it)."""
        return self._cache.replayed

    def read(self, journal: Journal) -> HistorySnapshot:
        """The history in *journal* now: the stored totals, the latest match replayed.

        Raises:
            JournalError: the database cannot be read, or a stored summary cannot be.
        """
        return self._cache.read(journal)

    def forget(self) -> None:
        """Read the final matches' totals again next time (``HistoryCache.forget``)."""
        self._cache.forget()

    def payload(self, journal: Journal) -> dict[str, Any] | None:
        """The figures of the latest match's sides (``figures_payload``), None with no match.

        Raises:
            JournalError: the database cannot be read, or a stored summary cannot be.
        """
        return snapshot_figures(self._cache.read(journal))


def snapshot_figures(snapshot: HistorySnapshot) -> dict[str, Any] | None:
    """The figures of *snapshot*'s current match's sides (``figures_payload``), None without
    one."""
    current = snapshot.current
    if current is None:
        return None
    return book_figures(snapshot.book(current.variant), current)


def figures_payload(matches: list[MatchHistory], current: MatchHistory) -> dict[str, Any]:
    """*current*'s sides' records over *matches* (its variant only) and their head to head
    (``book_figures`` over a book of those matches).
    """
    book = Book()
    for match in matches:
        if match.variant is current.variant:
            book.add_match(match)
    return book_figures(book, current)


def book_figures(book: Book, current: MatchHistory) -> dict[str, Any]:
    """*current*'s sides' records in *book* (of its variant's matches) and their head to head.

    ``{"variant", "games", "sides": [record or None, ...], "head_to_head": [...]}``: a record
    is ``{"name", "games_played", "games_won", "matches_played", "matches_won", "game_points",
    "lurches_given", "lurches_taken", "double_skunks_given", "double_skunks_taken", "dealer",
    "pone", "best_hand"}`` with ``dealer``/``pone`` as ``{"deals", "average"}`` (everything
    pegged in the deals of that role, per deal; None with no deal) and ``best_hand`` as
    ``{"points", "cards", "starter", "crib"}`` or None. Each pair of sides that met gives
    ``{"sides": [i, j], "names", "games", "games_won", "matches", "matches_won",
    "game_points"}``, the lists in the order of ``sides``.
    """
    table = book.standings()
    names = current.names
    head_to_head = []
    for i, j in itertools.combinations(range(len(names)), 2):
        pair = table.between(names[i], names[j])
        if pair is None or not pair.games:
            continue
        head_to_head.append(
            {
                "sides": [i, j],
                "names": [names[i], names[j]],
                "games": pair.games,
                "games_won": list(pair.games_won),
                "matches": pair.matches,
                "matches_won": list(pair.matches_won),
                "game_points": list(pair.game_points),
            }
        )
    return {
        "variant": current.variant.value,
        "games": book.games,
        "sides": [_record(table.player(name)) for name in names],
        "head_to_head": head_to_head,
    }


def _record(stats: PlayerStats | None) -> dict[str, Any] | None:
    if stats is None or not stats.games_played:
        return None
    best = stats.best_hands[0] if stats.best_hands else None
    return {
        "name": stats.name,
        "games_played": stats.games_played,
        "games_won": stats.games_won,
        "matches_played": stats.matches_played,
        "matches_won": stats.matches_won,
        "game_points": stats.game_points,
        "lurches_given": stats.lurches_given,
        "lurches_taken": stats.lurches_taken,
        "double_skunks_given": stats.double_skunks_given,
        "double_skunks_taken": stats.double_skunks_taken,
        "dealer": _role(stats.dealer),
        "pone": _role(stats.pone),
        "best_hand": None
        if best is None
        else {
            "points": best.points,
            "cards": best.cards or None,
            "starter": best.starter or None,
            "crib": best.is_crib,
        },
    }


def _role(role: RoleFigures) -> dict[str, Any]:
    average = role.average
    return {"deals": role.deals, "average": None if average is None else round(average, 2)}
