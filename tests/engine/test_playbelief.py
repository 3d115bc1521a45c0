"""The discard belief of the play advice: exact figures against a brute force that asks
``advise`` about every deal of the opponent's, and ``best_keeps`` against ``advise``."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from pegboard.engine.advice import advise, best_keeps
from pegboard.engine.cards import DECK, Card
from pegboard.engine.play import PlayState
from pegboard.engine.playadvice import Belief, PlayAdviceError, advise_play
from pegboard.engine.playbelief import discard_weights
from pegboard.engine.rules import Rules

from .play_brute import brute_figures

VARIANTS = [Rules.six_card(), Rules.five_card(), Rules.two_in_the_crib()]


@pytest.mark.parametrize("seed", range(6))
def test_best_keeps_are_the_keeps_advise_ranks_first_on_net(seed: int) -> None:
    rng = random.Random(seed)
    ties = 0
    for _ in range(60):
        rules = rng.choice(VARIANTS)
        dealt = rng.sample(DECK, rules.dealt)
        dealer = rng.random() < 0.5
        options = advise(dealt, rules=rules, dealer=dealer)
        want = {o.keep for o in options if o.net_ev == options[0].net_ev}
        assert set(best_keeps(dealt, rules, dealer)) == want
        ties += len(want) > 1
    # tied keeps are common (two cards of a rank, either discarded)
    assert seed or ties


@dataclass
class Spot:
    rules: Rules
    dealer: bool
    held: tuple[Card, ...]
    laid: tuple[Card | None, ...]
    starter: Card
    seen: tuple[Card, ...]


def spots(seed: int, count: int) -> Iterator[Spot]:
    """Positions of deals in which both players kept the discard advice's first choice; the
    player has seen all but the opponent's cards, its discards and a few more."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        rules = rng.choice(VARIANTS)
        deck = list(DECK)
        rng.shuffle(deck)
        dealt = [deck[: rules.dealt], deck[rules.dealt : 2 * rules.dealt]]
        starter = deck[2 * rules.dealt]
        # seat 0 is the pone, seat 1 deals
        kept = [advise(dealt[seat], rules=rules, dealer=seat == 1)[0] for seat in (0, 1)]
        state = PlayState.start(rules, 1, starter=starter, hands=[k.keep for k in kept])
        laid: list[Card | None] = []
        stop = rng.randrange(0, 2 * rules.hand_size - 1)
        while not state.is_over and len([c for c in laid if c is not None]) < stop:
            legal = state.legal_cards()
            assert legal is not None
            action = rng.choice(legal) if legal else None
            laid.append(action)
            state, _ = state.go() if action is None else state.play(action)
        if state.is_over:
            continue
        me = state.turn
        assert me is not None and state.hands is not None
        theirs = [*state.hands[1 - me], *kept[1 - me].discard]
        out = {starter, *dealt[me], *theirs, *(c for c in laid if c is not None)}
        pool = [c for c in DECK if c not in out]
        rng.shuffle(pool)
        extra = rng.randrange(0, 4)
        seen = (*kept[me].discard, *pool[extra:])
        yield Spot(rules, me == 1, tuple(state.hands[me]), tuple(laid), starter, seen)
        made += 1


SPOTS = list(spots(25, 48))


@pytest.mark.parametrize(
    "spot", SPOTS, ids=[f"{i}-{s.rules.variant.value}" for i, s in enumerate(SPOTS)]
)
def test_discard_figures_equal_the_brute_force(spot: Spot) -> None:
    advice = advise_play(spot.held, spot.laid, spot.starter, dealer=spot.dealer,
                         rules=spot.rules, seen=spot.seen, belief=Belief.DISCARDS)  # fmt: skip
    brute = brute_figures(spot.rules, spot.dealer, spot.held, spot.laid, spot.starter,
                          spot.seen, weighted=True)  # fmt: skip
    by_rank = {None if o.card is None else o.card.rank: o.net_ev for o in advice.options}
    assert {None if c is None else c.rank for c in brute} == set(by_rank)
    for card, value in brute.items():
        assert by_rank[None if card is None else card.rank] == pytest.approx(float(value), abs=1e-9)
    assert advice.belief is Belief.DISCARDS
    assert "discard advice" in advice.model


def test_the_positions_cover_the_variants_seats_and_goes() -> None:
    assert {s.rules for s in SPOTS} == set(VARIANTS)
    assert {s.dealer for s in SPOTS} == {True, False}
    assert any(None in s.laid for s in SPOTS)
    assert any(not s.laid for s in SPOTS)


def test_the_discard_belief_differs_from_the_uniform_one() -> None:
    differ = 0
    for spot in SPOTS[:12]:
        figures = []
        for belief in Belief:
            advice = advise_play(spot.held, spot.laid, spot.starter, dealer=spot.dealer,
                                 rules=spot.rules, seen=spot.seen, belief=belief)  # fmt: skip
            figures.append([o.net_ev for o in advice.options])
        differ += figures[0] != figures[1]
    assert differ


@pytest.mark.parametrize(("seed", "dealer", "laid"), [(7, True, 0), (8, False, 0), (9, True, 1),
                                                     (10, False, 1), (11, True, 2)])  # fmt: skip
def test_both_ways_of_counting_deals_are_used_and_agree(seed: int, dealer: bool, laid: int) -> None:
    # 13 cards of three ranks and a few others, so that pairs are dealt and split: some rank
    # sets are sure on ranks alone, others are dealt out card by card; the weights must equal
    # counting every deal card by card (limit -1: no go said)
    rng = random.Random(seed)
    rules = Rules.six_card()
    ranks = rng.sample(range(1, 14), 5)
    cards = [c for c in DECK if c.rank.value in ranks]
    pool = rng.sample(cards[:12], 10) + rng.sample(cards[12:], 3)
    gone = pool[:laid]
    pool = pool[laid:]
    found = discard_weights(pool, gone, 4 - laid, -1, rules, dealer=dealer)
    assert found.dealt_out > 0 and found.sure > 0
    want: dict[tuple[int, ...], int] = {}
    for rest in itertools.combinations(pool, 6 - laid):
        keeps = best_keeps((*gone, *rest), rules, dealer)
        for keep in keeps:
            if set(gone) <= set(keep):
                key = tuple(sorted(card.rank.value for card in keep if card not in gone))
                want[key] = want.get(key, 0) + found.share // len(keeps)
    assert {k: v for k, v in found.weights.items() if v} == want
    assert found.deals == pytest.approx(sum(want.values()) / found.share)


def test_no_deal_keeps_what_the_opponent_laid() -> None:
    # the opponent (the pone) led a king though the only cards it can have been dealt with it
    # are the four fives and the jack of hearts: the advice keeps the fives, never the king, so
    # the discard belief has nothing to weigh (the uniform one does)
    unseen = {Card.parse(c) for c in ["5H", "5D", "5C", "5S", "JH"]}
    held = [Card.parse(c) for c in ["2C", "3C", "4C", "6C"]]
    starter, king = Card.parse("9D"), Card.parse("KS")
    seen = [c for c in DECK if c not in unseen and c not in held and c not in (starter, king)]
    assert advise_play(held, [king], starter, dealer=True, seen=seen).options
    with pytest.raises(PlayAdviceError, match="discard advice"):
        advise_play(held, [king], starter, dealer=True, seen=seen, belief=Belief.DISCARDS)
