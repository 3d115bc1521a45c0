"""What the projector shows: the standings, the round's tables, the latest results.

A pure view of the night (``projector_view``), JSON values the projector page
(``league/projector_static``) draws. The round shown is the last one seated: its tables with
the ones still playing marked, and its bye, so the room sees who plays whom at which table as
soon as the director seats it, and which tables are still going while it is played.
"""

from __future__ import annotations

from typing import Any

from .bracket import cut_size
from .standings import standings
from .steps import Tourney

__all__ = ["RECENT", "projector_view"]

RECENT = 8
"""How many of the latest results the projector lists."""


def projector_view(tourney: Tourney, language: str = "en") -> dict[str, Any]:
    """The projector's fields: ``name``, ``round`` and ``games``, ``locked``, ``standings``
    (every line: place, name, played, won, lost, game points, spread, playoff, corrected),
    ``tables`` (the last round's: table, both players, board, whether still playing, the
    winner), ``bye``, ``recent`` (the latest results, newest first), ``cut`` (how many
    qualify) and ``language``."""
    night = tourney.night
    lines = standings(night)
    number = len(night.rounds)
    tables = []
    bye = None
    if number:
        seating = night.rounds[-1]
        bye = seating.bye
        for p in seating.pairings:
            result = night.final(number, p.table)
            tables.append(
                {
                    "table": p.table,
                    "first": p.first,
                    "second": p.second,
                    "board": p.board,
                    "playing": result is None,
                    "winner": result.winner if result else None,
                }
            )
    recent = []
    done = [r for r in night.results]
    for c in night.corrections:
        done.append(c.result)
    seen: set[tuple[int, int]] = set()
    for r in reversed(done):
        key = (r.round, r.table)
        if key in seen:
            continue
        seen.add(key)
        final = night.final(r.round, r.table)
        if final is None:
            continue
        recent.append(
            {
                "round": final.round,
                "table": final.table,
                "winner": final.winner,
                "loser": final.loser,
                "loser_score": final.loser_score,
                "corrected": final != r
                or any((c.result.round, c.result.table) == key for c in night.corrections),
            }
        )
        if len(recent) == RECENT:
            break
    return {
        "name": night.name,
        "round": number,
        "games": night.games,
        "locked": tourney.locked,
        "standings": [
            {
                "place": x.place,
                "name": x.name,
                "played": x.played + x.byes,
                "won": x.won,
                "lost": x.lost,
                "game_points": x.game_points,
                "spread": x.spread,
                "playoff": x.playoff,
                "corrected": x.corrected,
            }
            for x in lines
        ],
        "tables": tables,
        "bye": bye,
        "recent": recent,
        "cut": cut_size(len(lines)),
        "language": language,
    }
