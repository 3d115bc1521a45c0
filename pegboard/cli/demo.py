"""A short, real demonstration of the engine: one deal of six-card cribbage, start to finish.

Two computer players take the best discard from the exact advice, the play is pegged by the
engine (each picks the legal card that pegs most now), and the show is counted in the players'
words. It is what ``make run`` shows until the table simulator exists.
"""

from __future__ import annotations

import random
from typing import TextIO

from pegboard.engine import Card, Rules, format_cards, shuffled_deck
from pegboard.engine.advice import advise
from pegboard.engine.play import PlayState, score_play
from pegboard.engine.scoring import score_hand, score_heels, show_calls

__all__ = ["run_demo"]

NAMES = ("North", "South")


def _choose(state: PlayState) -> Card:
    """The legal card that pegs most right now; ties go to the higher card (keep low ones)."""
    legal = state.legal_cards() or ()
    base = state.count - sum(c.pips for c in state.series)
    return max(legal, key=lambda c: (score_play((*state.series, c), base_count=base).total, c))


def run_demo(out: TextIO, *, seed: int | None = None) -> int:
    """Deal, advise, play and count one hand, writing what happens to *out*."""
    rules = Rules.six_card()
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    dealer = 0
    dealt = [deck[0:12:2], deck[1:12:2]]
    scores = [0, 0]
    out.write(f"pegboard demo: six-card cribbage, {NAMES[dealer]} deals\n\n")

    hands: list[tuple[Card, ...]] = []
    crib: list[Card] = []
    for seat, cards in enumerate(dealt):
        options = advise(cards, rules=rules, dealer=seat == dealer)
        best = options[0]
        out.write(f"{NAMES[seat]} is dealt {format_cards(sorted(cards))}\n")
        out.write(
            f"  best discard {format_cards(best.discard)} (hand {best.hand_ev:.2f} "
            f"{'+' if seat == dealer else '-'} crib {best.crib_ev:.2f} = {best.net_ev:.2f})\n"
        )
        hands.append(best.keep)
        crib.extend(best.discard)

    starter = deck[12]
    out.write(f"\nstarter {starter}\n")
    heels = score_heels(starter)
    if heels.total:
        scores[dealer] += heels.total
        out.write(f"  {NAMES[dealer]}: two for his heels\n")

    out.write("\nthe play\n")
    state = PlayState.start(rules, dealer, starter=starter, hands=hands)
    while not state.is_over:
        actor = state.turn
        assert actor is not None  # the play is not over, so somebody is to act
        if state.legal_cards():
            card = _choose(state)
            state, pegs = state.play(card)
            out.write(f"  {NAMES[actor]:<6} {card!s:>3}  count {state.count:2}\n")
        else:
            state, pegs = state.go()
            out.write(f"  {NAMES[actor]:<6}  go\n")
        for peg in pegs:
            scores[peg.seat] += peg.breakdown.total
            said = ", ".join(f"{i.kind.value} {i.points}" for i in peg.breakdown.items)
            out.write(f"         {NAMES[peg.seat]} pegs {peg.breakdown.total} ({said})\n")

    out.write("\nthe show\n")
    # the show goes from the dealer's left round to the dealer, then the crib
    order = [(1 - dealer, hands[1 - dealer], False), (dealer, hands[dealer], False)]
    order.append((dealer, tuple(crib), True))
    for owner, shown, is_crib in order:
        breakdown = score_hand(shown, starter, crib=is_crib)
        scores[owner] += breakdown.total
        label = f"{NAMES[owner]}'s crib" if is_crib else NAMES[owner]
        calls = ", ".join(show_calls(breakdown)) or "nineteen"
        out.write(f"  {label:<13} {format_cards(shown)} + {starter}: {calls} ({breakdown.total})\n")

    out.write(f"\nafter one deal: {NAMES[0]} {scores[0]}, {NAMES[1]} {scores[1]}\n")
    return 0
