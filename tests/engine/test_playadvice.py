"""Play advice: exact figures against a brute force with suits, and the model's properties."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.cli.lay import parse_laid
from pegboard.engine.cards import DECK, Card, Suit, parse_cards
from pegboard.engine.play import PlayState
from pegboard.engine.playadvice import PlayAdviceError, advise_play
from pegboard.engine.rules import Rules
from pegboard.errors import IllegalPlayError, InvalidHandError

from .play_brute import brute_figures

VARIANTS = [Rules.six_card(), Rules.five_card(), Rules.two_in_the_crib(),
            Rules.six_card(starter_counts_in_play=True)]  # fmt: skip


@dataclass
class Spot:
    """A position for the player to act, with a small pool of unseen cards."""

    rules: Rules
    dealer: bool
    held: tuple[Card, ...]
    laid: tuple[Card | None, ...]
    starter: Card
    seen: tuple[Card, ...]
    kind: str


def _kind(state: PlayState) -> str:
    if not state.series:
        return "lead"
    if state.said_go:
        return "after a go"
    if state.count >= 22:
        return "near 31"
    return "middle"


def spots(seed: int, per_kind: int, extra: tuple[int, int] = (0, 3)) -> Iterator[Spot]:
    """Random positions of real deals, *per_kind* of each kind, the pool cut to the opponent's
    cards and *extra* (low, high) more unseen cards."""
    rng = random.Random(seed)
    wanted = {"lead": per_kind, "after a go": per_kind, "near 31": per_kind, "middle": per_kind}
    while any(wanted.values()):
        rules = rng.choice(VARIANTS)
        deck = list(DECK)
        rng.shuffle(deck)
        size = rules.hand_size
        hands = [deck[:size], deck[size : 2 * size]]
        starter = deck[2 * size]
        state = PlayState.start(rules, 1, starter=starter, hands=hands)
        laid: list[Card | None] = []
        stop = rng.randrange(0, 2 * size)
        while not state.is_over and len([c for c in laid if c is not None]) < stop:
            legal = state.legal_cards()
            assert legal is not None
            if legal:
                card = rng.choice(legal)
                laid.append(card)
                state, _ = state.play(card)
            else:
                laid.append(None)
                state, _ = state.go()
        if state.is_over:
            continue
        kind = _kind(state)
        if not wanted[kind]:
            continue
        me = state.turn
        assert me is not None and state.hands is not None
        held = state.hands[me]
        theirs = state.hands[1 - me]
        # the player's own discards and other cards seen: all but a few unseen cards
        out = {starter, *held, *theirs, *(c for c in laid if c is not None)}
        pool = [c for c in DECK if c not in out]
        rng.shuffle(pool)
        keep = rng.randint(*extra)
        yield Spot(rules, me == 1, tuple(held), tuple(laid), starter, tuple(pool[keep:]), kind)
        wanted[kind] -= 1


SPOTS = list(spots(2026, 52))
WIDE = list(spots(25, 3, extra=(6, 8)))
"""Fewer positions with wider beliefs: six to eight unseen cards beside the opponent's."""


@pytest.mark.parametrize(
    "spot",
    [*SPOTS, *WIDE],
    ids=[f"{i}-{s.kind}" for i, s in enumerate(SPOTS)]
    + [f"wide-{i}-{s.kind}" for i, s in enumerate(WIDE)],
)
def test_figures_equal_the_brute_force(spot: Spot) -> None:
    advice = advise_play(spot.held, spot.laid, spot.starter, dealer=spot.dealer,
                         rules=spot.rules, seen=spot.seen)  # fmt: skip
    brute = brute_figures(spot.rules, spot.dealer, spot.held, spot.laid, spot.starter, spot.seen)
    by_rank = {None if o.card is None else o.card.rank: o.net_ev for o in advice.options}
    assert len(by_rank) == len(advice.options)
    for card, value in brute.items():
        assert by_rank[None if card is None else card.rank] == pytest.approx(float(value), abs=1e-9)
    assert {None if c is None else c.rank for c in brute} == set(by_rank)


READ = [spot for spot in SPOTS if len([c for c in spot.laid if c is not None]) >= 2]


@pytest.mark.parametrize("spot", READ, ids=[f"{i}-{s.kind}" for i, s in enumerate(READ)])
def test_figures_reading_the_greedy_choices_equal_the_brute_force(spot: Spot) -> None:
    advice = advise_play(spot.held, spot.laid, spot.starter, dealer=spot.dealer,
                         rules=spot.rules, seen=spot.seen, reads=True)  # fmt: skip
    brute = brute_figures(spot.rules, spot.dealer, spot.held, spot.laid, spot.starter, spot.seen,
                          reads=True)  # fmt: skip
    by_rank = {None if o.card is None else o.card.rank: o.net_ev for o in advice.options}
    for card, value in brute.items():
        assert by_rank[None if card is None else card.rank] == pytest.approx(float(value), abs=1e-9)
    assert {None if c is None else c.rank for c in brute} == set(by_rank)


def test_reading_narrows_the_belief_and_says_so() -> None:
    # the pone led KS and the greedy dealer answered 4C: it held no 5 (fifteen for 2), no
    # king (a pair), and no card over 4 (it lays its highest when nothing scores)
    held = parse_cards("KH QD 9C")
    laid = parse_cards("KS 4C")
    plain = advise_play(held, laid, Card.parse("2D"), dealer=False, seen=parse_cards("8H 8D"))
    read = advise_play(held, laid, Card.parse("2D"), dealer=False, seen=parse_cards("8H 8D"),
                       reads=True)  # fmt: skip
    assert not plain.reads and read.reads
    assert "only those from which greedy would have laid its cards" in read.model
    assert [o.net_ev for o in read.options] != [o.net_ev for o in plain.options]


def test_the_positions_cover_every_kind_and_variant() -> None:
    assert len(SPOTS) >= 200
    kinds = {s.kind for s in SPOTS}
    assert kinds == {"lead", "after a go", "near 31", "middle"}
    assert {s.rules for s in SPOTS} == set(VARIANTS)
    assert any(None in s.laid for s in SPOTS)
    # the wide ones: beside the opponent's cards, six to eight more unseen (the unseen are
    # 51 - seen - held - laid; the opponent's cards left, 2 x hand size - held - laid)
    assert all(6 <= 51 - len(s.seen) - 2 * s.rules.hand_size <= 8 for s in WIDE)
    assert "lead" in {s.kind for s in WIDE}


# --- properties ------------------------------------------------------------------------------

_SUITS = list(Suit)


def _relabel(cards: tuple[Card | None, ...], perm: list[int]) -> tuple[Card | None, ...]:
    return tuple(
        None if c is None else Card(c.rank, _SUITS[perm[_SUITS.index(c.suit)]]) for c in cards
    )


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.permutations(range(4)))
def test_relabelling_suits_changes_no_figure(seed: int, perm: list[int]) -> None:
    spot = next(spots(seed, 1))
    before = advise_play(spot.held, spot.laid, spot.starter, dealer=spot.dealer,
                         rules=spot.rules, seen=spot.seen)  # fmt: skip
    (starter,) = _relabel((spot.starter,), perm)
    assert starter is not None
    after = advise_play(
        [c for c in _relabel(spot.held, perm) if c is not None],
        _relabel(spot.laid, perm),
        starter,
        dealer=spot.dealer,
        rules=spot.rules,
        seen=[c for c in _relabel(spot.seen, perm) if c is not None],
    )
    assert [(o.card and o.card.rank, o.net_ev) for o in before.options] == [
        (o.card and o.card.rank, o.net_ev) for o in after.options
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.sampled_from(["six-card", "five-card"]))
def test_a_card_that_scores_and_leaves_nothing_is_never_worth_less(seed: int, name: str) -> None:
    # The pone holds one card at 21, the dealer one; the dealer's last card was a ten-card.
    # Every ten-card the pone might hold makes 31, which closes the series: what follows (the
    # dealer's last card pegs one for last, or in five-card the play is over) is the same
    # whichever it is, so the figures differ by exactly the points pegged at once, and one that
    # pegs more (a pair, a run) is never valued below one that pegs less.
    rng = random.Random(seed)
    rules = Rules.for_variant(name)
    small = [card for card in DECK if card.pips <= 6]
    tens = [card for card in DECK if card.pips == 10]
    before = 2 * rules.hand_size - 3  # the cards laid before the dealer's ten-card
    while True:
        lows = rng.sample(small, before)
        if sum(card.pips for card in lows) == 11:
            break
    last = rng.choice(tens)
    starter = rng.choice([card for card in DECK if card not in (*lows, last)])
    laid: list[Card | None] = [*lows, last]
    figures = []
    for card in tens:
        if card not in (*lows, last, starter):
            (option,) = advise_play([card], laid, starter, dealer=False, rules=rules).options
            assert option.card == card
            figures.append((option.points, option.net_ev))
    after = 0 if rules.single_series else -1  # what follows the 31, the same for every card
    for points, net in figures:
        assert net == pytest.approx(points + after, abs=1e-9)
    for scorer, scorer_net in figures:
        for blank, blank_net in figures:
            if scorer > blank:
                assert scorer_net >= blank_net + (scorer - blank) - 1e-9
    # a pair of the dealer's ten-card is always there to compare with one that does not pair
    assert len({points for points, _ in figures}) > 1


# --- bad input -------------------------------------------------------------------------------


def test_three_players_are_not_covered() -> None:
    with pytest.raises(PlayAdviceError, match="two-player variants only"):
        advise_play(parse_cards("5H 6H 7H"), [], Card.parse("KC"), dealer=False,
                    rules=Rules.three_handed())  # fmt: skip


def test_not_your_turn() -> None:
    with pytest.raises(PlayAdviceError, match="opponent's turn"):
        advise_play(parse_cards("5H 6H 7H 8H"), [], Card.parse("KC"), dealer=True)


def test_a_card_named_twice() -> None:
    with pytest.raises(InvalidHandError, match="5H is named twice"):
        advise_play(parse_cards("5H 6H 7H 8H"), [], Card.parse("5H"), dealer=False)


def test_the_hand_does_not_add_up() -> None:
    with pytest.raises(InvalidHandError, match="leave you 4 to lay"):
        advise_play(parse_cards("5H 6H 7H"), [], Card.parse("KC"), dealer=False)


def test_an_impossible_go() -> None:
    with pytest.raises(IllegalPlayError, match="cannot say go"):
        advise_play(parse_cards("5H 6H 7H"), [Card.parse("KS"), None], Card.parse("KC"),
                    dealer=True)  # fmt: skip


def test_the_opponent_cannot_lay_later_a_card_that_fitted_at_its_go() -> None:
    # the dealer says go at 25 (nothing of 6 or under), then leads the 6D after the pone's 2C
    laid = parse_laid("10H KS 5C go 2C go 6D")
    with pytest.raises(IllegalPlayError, match=r"^the opponent said go at 25 but later laid "
                       r"6D, which fitted then$"):  # fmt: skip
        advise_play(parse_cards("9H"), laid, Card.parse("KH"), dealer=False)
    # a card that did not fit at the go is fine
    laid[-1] = Card.parse("7D")
    assert advise_play(parse_cards("9H"), laid, Card.parse("KH"), dealer=False).options
