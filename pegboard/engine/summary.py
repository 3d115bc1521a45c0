"""A finished game as plain data: what a board tells the league (``league/``) about it.

The summary holds only JSON values (str, int, None, lists and dicts), so the journal can store
it and the league can read it without pegboard's classes. Sides are named as on the board
(a partnership by its side name, with its players' seat names); each side's ``lurch`` is the
board's own verdict under the rules it played (five-card has its own lurch line), so the
league never has to know every variant's lines.

>>> from pegboard.engine.commands import parse_command
>>> from pegboard.engine.game import GameState, apply
>>> from pegboard.engine.rules import Rules
>>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
>>> for text in ("cut 9C 3D", "starter 5C", "peg Bob 50", "peg Ann 60", "peg Ann 61"):
...     state, _ = apply(state, parse_command(text, state.names))
>>> summary = game_summary(state, state.table.finished[-1])
>>> [(s["name"], s["score"], s["won"], s["lurch"]) for s in summary["sides"]]
[('Ann', 121, True, 'none'), ('Bob', 50, False, 'double-skunked')]
>>> summary["target"], summary["game_points"], summary["deals"][0]["points"]
(121, 3, [121, 50])
"""

from __future__ import annotations

from typing import Any

from .game import GameState
from .records import GameRecord

__all__ = ["game_summary"]


def game_summary(state: GameState, record: GameRecord) -> dict[str, Any]:
    """*record* (a game of *state*'s match) as plain data: variant, target, the sides (name,
    players, score, won, lurch), the winner's name, game points and the points of each deal.
    """
    rules, names, result = state.rules, state.names, record.result
    sides = [
        {
            "name": name,
            "players": [state.seat_name(seat) for seat in rules.teams[side]],
            "score": result.scores[side],
            "won": side == result.winner,
            "lurch": result.lurches[side].value,
        }
        for side, name in enumerate(names)
    ]
    deals = [
        {
            "number": deal.number,
            "dealer": state.seat_name(deal.dealer),
            "starter": str(deal.starter) if deal.starter is not None else None,
            "points": [deal.total(side) for side in range(len(names))],
        }
        for deal in record.deals
    ]
    return {
        "game": record.game,
        "variant": rules.variant.value,
        "target": rules.target,
        "sides": sides,
        "winner": names[result.winner],
        "game_points": result.game_points,
        "deals": deals,
    }
