"""The night as the club keeps it: JSON (everything) and CSV (the standings, the games, the
side pots).

Pure: values in, JSON values and rows out. The command line writes them to files
(``pegboard tourney export``); the projector page reads the same JSON.
"""

from __future__ import annotations

from typing import Any

from .bracket import cut
from .playoff import games, match_boards
from .pots import side_pots, skunks
from .standings import game_points, scorecards, standings
from .steps import Tourney, correction_payload, result_payload, seating_payload

__all__ = [
    "GAME_COLUMNS",
    "POT_COLUMNS",
    "STANDING_COLUMNS",
    "game_rows",
    "night_payload",
    "pot_rows",
    "standing_rows",
]

STANDING_COLUMNS = (
    "place",
    "name",
    "played",
    "won",
    "lost",
    "byes",
    "game_points",
    "spread",
    "plus",
    "skunks",
    "decided_by",
    "playoff",
    "corrected",
)
GAME_COLUMNS = (
    "round",
    "table",
    "board",
    "winner",
    "loser",
    "winner_score",
    "loser_score",
    "game_points",
    "spread",
    "source",
    "corrected_by",
    "corrected_at",
    "corrected_why",
)

POT_COLUMNS = ("pot", "player", "round", "table", "when", "detail")


def standing_rows(tourney: Tourney) -> list[list[object]]:
    """The standings as CSV rows (``STANDING_COLUMNS``), best first."""
    rows = []
    for line in standings(tourney.night):
        values = line.to_payload()
        rows.append([values[c] for c in STANDING_COLUMNS])
    return rows


def game_rows(tourney: Tourney) -> list[list[object]]:
    """Every game that has a result as CSV rows (``GAME_COLUMNS``), in round and table order;
    a corrected game shows its last correction's who, when and why."""
    night = tourney.night
    rows: list[list[object]] = []
    for number, seating in enumerate(night.rounds, start=1):
        for p in seating.pairings:
            result = night.final(number, p.table)
            if result is None:
                continue
            fixes = [
                c
                for c in night.corrections
                if (c.result.round, c.result.table) == (number, p.table)
            ]
            last = fixes[-1] if fixes else None
            rows.append(
                [
                    number,
                    p.table,
                    p.board,
                    result.winner,
                    result.loser,
                    result.winner_score,
                    result.loser_score,
                    game_points(result),
                    result.winner_score - result.loser_score,
                    result.source,
                    last.who if last else "",
                    last.when if last else "",
                    last.why if last else "",
                ]
            )
    return rows


def pot_rows(tourney: Tourney) -> list[list[object]]:
    """The side pots' entries as CSV rows (``POT_COLUMNS``): the skunks, then the hands."""
    entries = side_pots(tourney.night, tourney.shown)
    return [[e.to_payload()[c] for c in POT_COLUMNS] for e in entries]


def night_payload(tourney: Tourney) -> dict[str, Any]:
    """The whole night as JSON values: its settings, entrants, rounds, results,
    corrections, standings, every card, the cut, the bracket (each match's board, games and
    corrections), the skunks, every side pot's
    entries (``pots``: the skunks, the 24/28/29 hands, four of a kind) and the lock."""
    night = tourney.night
    lines = standings(night)
    the_cut = cut(lines)
    bracket = None
    if tourney.bracket is not None:
        boards = match_boards(tourney)
        bracket = [
            {
                "round": m.round,
                "match": m.slot + 1,
                "high": m.high,
                "low": m.low,
                "best_of": m.best_of,
                "winner": m.winner,
                "board": boards.get((m.round, m.slot)),
                "games": [
                    {
                        "winner": g.winner,
                        "loser_score": g.loser_score,
                        "board": g.board,
                        "game_id": g.game_id,
                    }
                    for g in games(tourney, m.round, m.slot)
                ],
                "corrections": [
                    {"winner": f.winner, "who": f.who, "when": f.when, "why": f.why}
                    for f in tourney.fixes
                    if (f.round, f.slot) == (m.round, m.slot)
                ],
            }
            for m in tourney.bracket.matches
        ]
    return {
        "name": night.name,
        "games": night.games,
        "bye_spread": night.bye_spread,
        "boards": list(night.boards),
        "locked": tourney.locked,
        "entrants": [{"name": e.name, "joined": e.joined, "left": e.left} for e in night.entrants],
        "rounds": [seating_payload(s) for s in night.rounds],
        "results": [result_payload(r) for r in night.results],
        "corrections": [correction_payload(c) for c in night.corrections],
        "standings": [line.to_payload() for line in lines],
        "cards": {
            name: [line.to_payload() for line in card.lines]
            for name, card in scorecards(night).items()
        },
        "cut": {
            "field": the_cut.field,
            "qualifiers": list(the_cut.qualifiers),
            "playoff": list(the_cut.playoff),
        },
        "bracket": bracket,
        "skunks": [e.to_payload() for e in skunks(night)],
        "pots": [e.to_payload() for e in side_pots(night, tourney.shown)],
    }
