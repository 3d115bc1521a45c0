"""The players' figures for the pub page between games: each side's record and their head to head.

Theory of operation
-------------------
The figures are ``engine.players.standings`` over the journal's history (``Journal.history``),
which replays every match from its commands: about 3.5 ms a finished game here, so a journal of
200 games takes ~0.7 s, several seconds on a Pi. ``PlayerFigures`` therefore keeps every match
but the latest: only the latest match ever takes new commands (a new match makes the older one
final, decided or abandoned), so each later look replays just the matches after the ones kept
(``history(after=...)``), usually only the current one (``journal.reader.HistoryCache``).

On the table the history is read by the journal's ``HistoryReader`` in its own thread, and the
figures are made there too (``snapshot_figures``, called back with each new snapshot), so the
controller's thread never replays or tallies anything; the first read after a start replays
everything once. ``pegboard serve`` (``PlayerFigures``) reads in its feed's thread, which owns
no keys.

The figures are for the current match's variant (points a deal in five-card and six-card are
not the same game), of the current match's sides by name (a partnership's own record under its
side's name), and ``None`` for a side that has not finished a game of it yet.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from pegboard.engine.players import PlayerStats, RoleFigures, Standings, standings
from pegboard.journal.reader import HistoryCache

if TYPE_CHECKING:
    from pegboard.engine.history import MatchHistory
    from pegboard.journal import Journal

__all__ = ["PlayerFigures", "figures_payload", "snapshot_figures"]


class PlayerFigures:
    """The journal's history, kept match by match (``HistoryCache``), and the figures the page
    shows from it, read in the caller's thread (``pegboard serve``'s feed)."""

    def __init__(self) -> None:
        self._cache = HistoryCache()

    @property
    def replayed(self) -> int:
        """Matches replayed so far (the tests and the benchmark read it)."""
        return self._cache.replayed

    def history(self, journal: Journal) -> list[MatchHistory]:
        """Every match in *journal*: the ones kept and those after them, replayed now.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
        """
        return list(self._cache.read(journal))

    def payload(self, journal: Journal) -> dict[str, Any] | None:
        """The figures of the latest match's sides (``figures_payload``), None with no match.

        Raises:
            JournalError: a stored command cannot be replayed, or the database cannot be read.
        """
        return snapshot_figures(self._cache.read(journal))


def snapshot_figures(matches: Sequence[MatchHistory]) -> dict[str, Any] | None:
    """The figures of the latest of *matches*' sides (``figures_payload``), None with none."""
    if not matches:
        return None
    return figures_payload(list(matches), matches[-1])


def figures_payload(matches: list[MatchHistory], current: MatchHistory) -> dict[str, Any]:
    """*current*'s sides' records over *matches* (its variant only) and their head to head.

    ``{"variant", "games", "sides": [record or None, ...], "head_to_head": [...]}``: a record
    is ``{"name", "games_played", "games_won", "matches_played", "matches_won", "game_points",
    "lurches_given", "lurches_taken", "double_skunks_given", "double_skunks_taken", "dealer",
    "pone", "best_hand"}`` with ``dealer``/``pone`` as ``{"deals", "average"}`` (everything
    pegged in the deals of that role, per deal; None with no deal) and ``best_hand`` as
    ``{"points", "cards", "starter", "crib"}`` or None. Each pair of sides that met gives
    ``{"sides": [i, j], "names", "games", "games_won", "matches", "matches_won",
    "game_points"}``, the lists in the order of ``sides``.
    """
    table: Standings = standings(matches, variant=current.variant)
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
    games = sum(len(m.games) for m in matches if m.variant is current.variant)
    return {
        "variant": current.variant.value,
        "games": games,
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
