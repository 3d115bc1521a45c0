"""The standings' running book: stored totals of older matches merged with the latest give what
``standings`` gives over every match, and a book survives its JSON."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.history import MatchHistory, replay_matches
from pegboard.engine.match import MatchFormat
from pegboard.engine.players import Book, standings
from pegboard.engine.rules import Rules
from pegboard.errors import PegboardError

SETUPS = [
    (Rules.six_card(), ("Ann", "Bob")),
    (Rules.six_card(), ("bob", "Cy")),
    (Rules.five_card(), ("Ann", "Cy")),
    (Rules.three_handed(), ("Ann", "Bob", "Cy")),
    (Rules.four_handed(), ("Ann+Cat", "Bob+Dan")),
]
CARDS = ["5C", "5D", "5H", "JS", "9H", "3C", "2D", "KH"]


def _commands(
    rng: random.Random, rules: Rules, names: tuple[str, ...], fmt: MatchFormat
) -> list[str]:
    """A random legal journal: candidates tried one by one, those the game refuses dropped."""
    state = GameState.new(rules, names, fmt)
    kept: list[str] = []
    for _ in range(rng.randrange(0, 160)):
        name = rng.choice(names)
        text = rng.choice(
            [
                rng.choice(
                    ["cut 9H 3C", "cut 3C 9H", "cut 2D KH 5C"][: 2 if len(names) < 3 else 3]
                ),
                f"starter {rng.choice(CARDS)}",
                f"peg {name} {rng.randrange(1, 70)}",
                f"peg {name} {rng.randrange(1, 30)} {rng.choice(['catch up', 'muggins'])}",
                f"show {rng.choice([0, 8, 12, 28, 29])}",
                f"crib {rng.choice([0, 4, 29])}",
                "next",
                "undo",
            ]
        )
        try:
            state, _ = apply(state, parse_command(text, state.names))
        except PegboardError:
            continue
        kept.append(text)
    return kept


def _matches(seed: int, count: int) -> list[MatchHistory]:
    rng = random.Random(seed)
    heads, rows = [], []
    for match_id in range(1, count + 1):
        rules, names = rng.choice(SETUPS)
        fmt = (
            rng.choice([MatchFormat.SINGLE, MatchFormat.BEST_OF_THREE])
            if rules.sides == 2
            else (MatchFormat.SINGLE)
        )
        heads.append(
            (match_id, f"2025-03-{match_id % 28 + 1:02d}T20:00:00+00:00", rules, names, fmt)
        )
        rows += [
            (match_id, text, "2025-03-01T20:00:00+00:00")
            for text in _commands(rng, rules, names, fmt)
        ]
    return replay_matches(heads, rows)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 8), st.integers(0, 8))
def test_stored_totals_merged_with_the_latest_match_are_the_standings(
    seed: int, count: int, cut: int
) -> None:
    matches = _matches(seed, count)
    older, newer = Book(), Book()
    for match in matches[: min(cut, count)]:
        older.add_match(match)
    for match in matches[min(cut, count) :]:
        newer.add_match(match)
    stored = Book.from_json(older.to_json())
    assert stored.merged(newer).standings() == standings(matches)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32), st.integers(1, 6))
def test_a_book_round_trips_through_its_json(seed: int, count: int) -> None:
    book = Book()
    for match in _matches(seed, count):
        book.add_match(match)
    again = Book.from_json(book.to_json())
    assert again.to_json() == book.to_json()
    assert again.standings() == book.standings()
