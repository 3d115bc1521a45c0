"""Nights made by hand for the tests: rounds of (winner, loser, loser's score) games."""

from __future__ import annotations

from pegboard.tourney.night import Entrant, Night, Result
from pegboard.tourney.seating import Pairing, Seating

Game = tuple[str, str, int]
"""(winner, loser, the loser's score): the winner scored 121."""


def night_of(
    rounds: list[list[Game]], byes: list[str | None] | None = None, bye_spread: int = 0
) -> Night:
    """A night whose round *i* seated the games in ``rounds[i]`` (the winner cutting first),
    with ``byes[i]`` sitting out, every game reported by the director."""
    names: list[str] = []
    seatings = []
    results = []
    for number, games in enumerate(rounds, start=1):
        bye = byes[number - 1] if byes else None
        pairings = []
        for table, (winner, loser, score) in enumerate(games, start=1):
            pairings.append(Pairing(table, winner, loser))
            results.append(Result(number, table, winner, loser, 121, score))
            names += [n for n in (winner, loser) if n not in names]
        if bye is not None and bye not in names:
            names.append(bye)
        seatings.append(Seating(tuple(pairings), bye))
    return Night(
        "test",
        max(1, len(rounds)),
        tuple(Entrant(n) for n in names),
        tuple(seatings),
        tuple(results),
        bye_spread=bye_spread,
    )
