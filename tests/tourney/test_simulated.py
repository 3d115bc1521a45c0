"""A thousand simulated nights (8 to 60 players, 7 to 12 games, late arrivals, drop-outs,
byes, the movement, duplicates and corrections), each checked against the rules:

- every round seats exactly the players present, with one bye for an odd number;
- nobody meets an opponent again while that could be avoided, and the bye goes to a player
  with the fewest byes unless every such choice would seat more repeats (checked by an
  independent search: every matching of the players who have not met, or, when the field is
  large enough that Dirac's theorem promises a repeat-free round, by that alone);
- every game is on exactly two cards, one won and one lost, and a bye on one card;
- the cards' totals are the standings', the standings are in the chain's order, and every
  correction shows on both cards and both standings lines;
- the cut is a quarter of the field rounded up, the byes go to the top seeds and the bracket
  plays out to one champion.
"""

from __future__ import annotations

import functools
import random
from collections import Counter

import pytest

from pegboard.tourney.bracket import Bracket, byes_for, cut, cut_size
from pegboard.tourney.night import (
    Correction,
    Night,
    Result,
    TourneyError,
    correct,
    drop,
    enter,
    report,
    seat,
)
from pegboard.tourney.seating import Seating
from pegboard.tourney.standings import game_points, scorecards, standings

NIGHTS = 1000


def most_new_pairs(players: frozenset[str], met: dict[str, set[str]]) -> int:
    """The most pairs of *players* who have not met that can sit at once (every matching)."""

    @functools.cache
    def best(free: frozenset[str]) -> int:
        if len(free) < 2:
            return 0
        v = min(free)
        rest = free - {v}
        return max(
            [best(rest)] + [1 + best(rest - {u}) for u in rest if u not in met.get(v, set())]
        )

    return best(players)


def fewest_repeats(players: list[str], met: dict[str, set[str]], rounds_before: int) -> int:
    """The fewest repeats any seating of *players* (even in number) can have."""
    if len(players) >= 2 * rounds_before + 2:
        return 0  # each has met at most rounds_before: Dirac's theorem gives a perfect match
    return len(players) // 2 - most_new_pairs(frozenset(players), met)


def check_round(before: Night, seating: Seating) -> None:
    present = before.present(before.next_round)
    seated = [n for p in seating.pairings for n in p.players]
    assert len(seated) == len(set(seated))
    assert sorted(seated + ([seating.bye] if seating.bye else [])) == sorted(present)
    assert (seating.bye is not None) == (len(present) % 2 == 1)
    met = before.met()
    repeats = sum(1 for p in seating.pairings if p.second in met.get(p.first, set()))
    assert repeats == seating.repeats
    k = len(before.rounds)
    if seating.movement:
        assert repeats == 0
        return
    # with a bye: a largest matching of everyone leaves someone out, who takes the bye
    best = (
        fewest_repeats(present, met, k)
        if len(present) % 2 == 0
        else (
            0
            if len(present) >= 2 * k + 3
            else len(present) // 2 - most_new_pairs(frozenset(present), met)
        )
    )
    assert repeats == best, "a repeat that could have been avoided"
    if seating.bye is not None:
        byes = before.byes()
        fewest = min(byes.get(n, 0) for n in present)
        if byes.get(seating.bye, 0) != fewest:
            fair = [n for n in present if byes.get(n, 0) == fewest]
            assert all(
                fewest_repeats([n for n in present if n != b], met, k) > repeats for b in fair
            ), "a second bye where a fair one seats no more repeats"


def check_night(night: Night) -> None:
    cards = scorecards(night)
    lines = standings(night)
    at: Counter[tuple[int, int]] = Counter()
    for card in cards.values():
        for line in card.lines:
            if line.opponent is None:
                assert night.rounds[line.round - 1].bye == card.name
                continue
            at[(line.round, line.table)] += 1
            result = night.final(line.round, line.table)
            assert result is not None
            assert line.won == (result.winner == card.name)
            assert line.opponent == (result.loser if line.won else result.winner)
            fixed = [
                c
                for c in night.corrections
                if (c.result.round, c.result.table) == (line.round, line.table)
            ]
            assert list(line.corrections) == fixed
    games = [
        (number, p.table)
        for number, s in enumerate(night.rounds, start=1)
        for p in s.pairings
        if night.final(number, p.table) is not None
    ]
    assert sorted(at) == sorted(games) and set(at.values()) <= {2}
    byes = sum(s.bye is not None for s in night.rounds)
    assert sum(x.spread for x in lines) == byes * night.bye_spread
    points = sum(game_points(r) for r in (night.final(*g) for g in games) if r is not None)
    assert sum(x.game_points for x in lines) == points + 2 * byes
    for line in lines:
        card = cards[line.name]
        assert (line.game_points, line.won, line.spread, line.plus, line.played, line.byes) == (
            card.game_points,
            card.won,
            card.spread,
            card.plus,
            card.played,
            card.byes,
        )
        assert card.lines[-1].total_points == card.game_points
        assert card.lines[-1].total_spread == card.spread
        assert line.corrected == any(x.corrections for x in card.lines)
    keys = [(x.game_points, x.won, x.spread, x.plus) for x in lines]
    assert keys == sorted(keys, reverse=True)
    assert [x.place for x in lines] == sorted(x.place for x in lines)
    the_cut = cut(lines)
    assert len(the_cut.qualifiers) == cut_size(len(lines))
    bracket = Bracket.seeded(the_cut.qualifiers)
    q = len(the_cut.qualifiers)
    got_bye = {m.high for m in bracket.matches if m.is_bye}
    assert got_bye == set(the_cut.qualifiers[: byes_for(q)])  # the top seeds
    second = [m for m in bracket.matches if m.round == 2]
    played = [m for m in bracket.matches if m.round == 1 and not m.is_bye]
    assert q < 3 or 2 * len(second) == len(got_bye) + len(played)  # a full second round
    rng = random.Random(q)
    while bracket.champion is None:
        m = next(x for x in bracket.matches if x.winner is None and x.high and x.low)
        bracket = bracket.advance(m.round, m.slot, rng.choice([str(m.high), str(m.low)]))
    assert bracket.champion in the_cut.qualifiers


def simulate(seed: int) -> Night:
    rng = random.Random(seed)
    games = rng.randint(7, 12)
    boards = tuple(f"club/b{i}" for i in range(1, rng.randint(0, 18) + 1))
    night = Night(f"night {seed}", games, boards=boards, bye_spread=rng.choice([0, 0, 15]))
    names = iter(f"P{i}" for i in range(1, 100))
    for _ in range(rng.randint(8, 60)):
        night = enter(night, next(names))
    by_movement = rng.random() < 0.2
    for number in range(1, games + 1):
        if number > 1 and rng.random() < 0.3:
            for _ in range(rng.randint(1, 3)):
                night = enter(night, next(names))
        if number > 1 and rng.random() < 0.3 and len(night.present(number)) > 6:
            night = drop(night, rng.choice(night.present(number)))
        before = night
        night = seat(night, rng, by_movement=by_movement)
        check_round(before, night.rounds[-1])
        for p in night.rounds[-1].pairings:
            winner, loser = (p.first, p.second) if rng.random() < 0.5 else (p.second, p.first)
            board = p.board
            game_id = f"g{seed}-{number}-{p.table}" if board else ""
            result = Result(
                number, p.table, winner, loser, 121, rng.randint(40, 120), board, game_id
            )
            night = report(night, result)
            if rng.random() < 0.05:
                with pytest.raises(TourneyError, match=r"^duplicate"):
                    report(night, result)
            if rng.random() < 0.05:
                fix = Result(number, p.table, loser, winner, 121, rng.randint(40, 120))
                night = correct(night, Correction(fix, "director", f"{number}:00", "card misread"))
    return night


@pytest.mark.slow
@pytest.mark.timeout(1200)
@pytest.mark.parametrize("part", range(10))
def test_a_thousand_simulated_nights_keep_the_rules(part: int) -> None:
    seen: Counter[str] = Counter()
    for seed in range(part * NIGHTS // 10, (part + 1) * NIGHTS // 10):
        night = simulate(seed)
        check_night(night)
        seen["bye"] += sum(s.bye is not None for s in night.rounds)
        seen["movement"] += sum(s.movement for s in night.rounds)
        seen["correction"] += len(night.corrections)
        seen["late"] += sum(e.joined > 1 for e in night.entrants)
        seen["drop"] += sum(e.left is not None for e in night.entrants)
    # each part of the simulation meets every kind of event, so no check above is idle
    assert min(seen[k] for k in ("bye", "movement", "correction", "late", "drop")) > 0, seen
