"""A short, real demonstration of the engine: one deal of six-card cribbage, start to finish.

Two computer players take the best discard from the exact advice, the play is pegged by the
engine (each picks the legal card that pegs most now), and the show is counted in the players'
words. It is what ``make run`` shows until the table simulator exists. It speaks the
``--lang`` it is given: German says the calls in the German rules document's words.
"""

from __future__ import annotations

import random
from typing import TextIO

from pegboard.engine import Card, Rules, format_cards, shuffled_deck
from pegboard.engine.advice import advise
from pegboard.engine.play import PlayState, score_play
from pegboard.engine.scoring import (
    ScoreItem,
    play_called,
    play_words,
    score_hand,
    score_heels,
    show_calls,
)
from pegboard.i18n import N_, Language, translator
from pegboard.i18n.numbers import decimal

__all__ = ["run_demo"]

NAMES = (N_("North"), N_("South"))


def _choose(state: PlayState) -> Card:
    """The legal card that pegs most right now; ties go to the higher card (keep low ones)."""
    legal = state.legal_cards() or ()
    base = state.count - sum(c.pips for c in state.series)
    return max(legal, key=lambda c: (score_play((*state.series, c), base_count=base).total, c))


def _play_words(item: ScoreItem, language: Language) -> str:
    if language is Language.ENGLISH:
        return play_words(item)
    from pegboard.i18n.calls import play_call

    return play_call(item.kind, item.points, len(item.cards), language)


def _show_words(shown: tuple[Card, ...], starter: Card, crib: bool, language: Language) -> str:
    breakdown = score_hand(shown, starter, crib=crib)
    if language is Language.ENGLISH:
        return ", ".join(show_calls(breakdown)) or "nineteen"
    from pegboard.i18n.calls import show_calls_in, spoken

    calls = show_calls_in(breakdown, language)
    return spoken(calls, language) if calls else translator(language).gettext("nineteen")


def run_demo(out: TextIO, *, seed: int | None = None, language: Language = Language.ENGLISH) -> int:
    """Deal, advise, play and count one hand, writing what happens to *out* in *language*."""
    tr = translator(language)
    t = tr.gettext
    names = [t(name) for name in NAMES]
    rules = Rules.six_card()
    rng = random.Random(seed)
    deck = shuffled_deck(rng)
    dealer = 0
    dealt = [deck[0:12:2], deck[1:12:2]]
    scores = [0, 0]
    out.write(t("pegboard demo: six-card cribbage, {name} deals").format(name=names[dealer]))
    out.write("\n\n")

    hands: list[tuple[Card, ...]] = []
    crib: list[Card] = []
    for seat, cards in enumerate(dealt):
        options = advise(cards, rules=rules, dealer=seat == dealer)
        best = options[0]
        dealt_words = t("{name} is dealt {cards}")
        out.write(dealt_words.format(name=names[seat], cards=format_cards(sorted(cards))) + "\n")
        best_words = t("best discard {cards} (hand {hand} {sign} crib {crib} = {net})")
        sign = "+" if seat == dealer else "-"
        hand, crib_ev, net = (
            decimal(ev, 2, tr) for ev in (best.hand_ev, best.crib_ev, best.net_ev)
        )
        discard = format_cards(best.discard)
        out.write(
            "  " + best_words.format(cards=discard, hand=hand, sign=sign, crib=crib_ev, net=net)
        )
        out.write("\n")
        hands.append(best.keep)
        crib.extend(best.discard)

    starter = deck[12]
    out.write("\n" + t("starter {card}").format(card=starter) + "\n")
    heels = score_heels(starter)
    if heels.total:
        scores[dealer] += heels.total
        out.write("  " + t("{name}: two for his heels").format(name=names[dealer]) + "\n")

    out.write("\n" + t("the play") + "\n")
    state = PlayState.start(rules, dealer, starter=starter, hands=hands)
    while not state.is_over:
        actor = state.turn
        assert actor is not None  # the play is not over, so somebody is to act
        if state.legal_cards():
            card = _choose(state)
            state, pegs = state.play(card)
            counted = t("count {count}").format(count=f"{state.count:2}")
            out.write(f"  {names[actor]:<6} {card!s:>3}  {counted}\n")
        else:
            state, pegs = state.go()
            out.write(f"  {names[actor]:<6}  {tr.pgettext('play', 'go')}\n")
        for peg in pegs:
            scores[peg.seat] += peg.breakdown.total
            said = ", ".join(_play_words(i, language) for i in play_called(peg.breakdown))
            pegged = t("{name} pegs {points} ({calls})")
            out.write("         ")
            out.write(pegged.format(name=names[peg.seat], points=peg.breakdown.total, calls=said))
            out.write("\n")

    out.write("\n" + t("the show") + "\n")
    # the show goes from the dealer's left round to the dealer, then the crib
    order = [(1 - dealer, hands[1 - dealer], False), (dealer, hands[dealer], False)]
    order.append((dealer, tuple(crib), True))
    for owner, shown, is_crib in order:
        breakdown = score_hand(shown, starter, crib=is_crib)
        scores[owner] += breakdown.total
        label = t("{name}'s crib").format(name=names[owner]) if is_crib else names[owner]
        calls = _show_words(shown, starter, is_crib, language)
        out.write(f"  {label:<13} {format_cards(shown)} + {starter}: {calls} ({breakdown.total})\n")

    after = t("after one deal: {first} {first_score}, {second} {second_score}")
    out.write(
        "\n"
        + after.format(
            first=names[0], first_score=scores[0], second=names[1], second_score=scores[1]
        )
        + "\n"
    )
    return 0
