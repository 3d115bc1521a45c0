"""A brute-force play advisor for the tests: cards with their suits, every holding one by one.

Another code path from ``pegboard.engine.playadvice``: it enumerates the opponent's holdings as
sets of cards, keeps those for which the whole play so far is legal with known hands (so a go
the opponent said rules out holdings with a card that fitted), and plays every holding through
``PlayState`` with ``selfplay.choose_card`` as the opponent. At the player's turns the holdings
still possible share one choice (the player cannot tell them apart: they laid the same ranks and
said the same goes): the best card's total.
Exact fractions throughout.

With ``weighted=True`` each holding is weighted as ``playbelief.Belief.DISCARDS`` defines it,
found the long way: every deal of the opponent's (its cards laid, the holding, and discards
from the other unseen cards) is asked of ``advice.advise`` itself, and counts 1/k for the
holding when the holding and the cards laid are among the k keeps tied on the best net.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from pegboard.engine.advice import advise
from pegboard.engine.cards import DECK, Card
from pegboard.engine.play import PlayState
from pegboard.engine.rules import Rules
from pegboard.engine.selfplay import choose_card
from pegboard.errors import IllegalPlayError


def holdings(
    rules: Rules,
    dealer: bool,
    held: Sequence[Card],
    laid: Sequence[Card | None],
    starter: Card,
    seen: Sequence[Card],
    weighted: bool = False,
    reads: bool = False,
) -> list[tuple[PlayState, Fraction]]:
    """Every opponent holding consistent with the play so far, as a state with known hands, and
    its weight (1, or its share of the deals the discard advice keeps it from). *reads*: only
    the holdings from which ``choose_card`` lays the opponent's cards laid (by rank), unless
    none does."""
    me = 1 if dealer else 0
    # who laid each card: replay with unknown hands (the turn order is the rules')
    state = PlayState.start(rules, 1, starter=starter, excluded=seen)
    mine_laid, theirs_laid = [], []
    for action in laid:
        seat = state.turn
        if action is None:
            state, _ = state.go()
        else:
            (mine_laid if seat == me else theirs_laid).append(action)
            state, _ = state.play(action)
    out_of_pool = {*held, *seen, starter, *mine_laid, *theirs_laid}
    pool = [card for card in DECK if card not in out_of_pool]
    need = rules.hand_size - len(theirs_laid)
    states = []
    chose = []
    for rest in itertools.combinations(pool, need):
        hands = [(), ()]
        hands[me] = (*mine_laid, *held)
        hands[1 - me] = (*theirs_laid, *rest)
        try:
            state = PlayState.start(rules, 1, starter=starter, hands=hands)
            greedy = True
            for action in laid:
                if action is not None and state.turn != me:
                    picked = choose_card(state)
                    greedy = greedy and picked is not None and picked.rank == action.rank
                state, _ = state.go() if action is None else state.play(action)
        except IllegalPlayError:
            continue  # this holding could not have said a go it said
        weight = Fraction(1)
        if weighted:
            weight = _kept_share(rules, not dealer, (*theirs_laid, *rest), pool)
            if not weight:
                continue
        states.append((state, weight))
        chose.append(greedy)
    if reads and any(chose):
        states = [item for item, greedy in zip(states, chose, strict=True) if greedy]
    return states


def _kept_share(rules: Rules, dealer: bool, kept: tuple[Card, ...], pool: list[Card]) -> Fraction:
    """The deals whose best keeps (by advise's net) include *kept*, each 1/(keeps tied)."""
    total = Fraction(0)
    others = [card for card in pool if card not in kept]
    for discard in itertools.combinations(others, rules.discards):
        options = advise([*kept, *discard], rules=rules, dealer=dealer)
        best = [o.keep for o in options if o.net_ev == options[0].net_ev]
        if tuple(sorted(kept)) in best:
            total += Fraction(1, len(best))
    return total


def net_of(states: list[tuple[PlayState, Fraction]], me: int) -> Fraction:
    """The player's best weighted total net pegging over the *states* (one holding each)."""
    live = [(s, w) for s, w in states if not s.is_over]
    if not live:
        return Fraction(0)
    turn = live[0][0].turn
    assert all(s.turn == turn for s, _ in live), "holdings apart in the public play"
    if turn == me:
        legal = live[0][0].legal_cards()
        assert legal is not None
        if not legal:
            return _step(live, me, lambda s: None)
        return max(_step(live, me, lambda s, c=card: c) for card in legal)
    # the player sees the rank laid (or the go); which suit of a rank the policy picks among
    # equal cards is no information in the model
    groups: dict[object, list[tuple[PlayState, Fraction]]] = {}
    for s, w in live:
        card = choose_card(s)
        groups.setdefault(None if card is None else card.rank, []).append((s, w))
    return sum((_step(group, me, choose_card) for group in groups.values()), Fraction(0))


def _step(states: list[tuple[PlayState, Fraction]], me: int, pick: object) -> Fraction:
    total = Fraction(0)
    moved = []
    for s, w in states:
        card = pick(s)  # type: ignore[operator]
        s2, scores = s.go() if card is None else s.play(card)
        for score in scores:
            total += w * (score.points if score.seat == me else -score.points)
        moved.append((s2, w))
    return total + net_of(moved, me)


def brute_figures(
    rules: Rules,
    dealer: bool,
    held: Sequence[Card],
    laid: Sequence[Card | None],
    starter: Card,
    seen: Sequence[Card],
    weighted: bool = False,
    reads: bool = False,
) -> dict[Card | None, Fraction]:
    """Each legal card's (None: go's) exact expected net pegging for the rest of the play."""
    me = 1 if dealer else 0
    states = holdings(rules, dealer, held, laid, starter, seen, weighted, reads)
    legal = states[0][0].legal_cards()
    assert legal is not None
    n = sum(w for _, w in states)
    if not legal:
        return {None: _step(states, me, lambda s: None) / n}
    return {card: _step(states, me, lambda s, c=card: c) / n for card in legal}
