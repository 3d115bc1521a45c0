"""``pegboard lay``: which card to lay in the play, each with its exact expected net pegging.

``pegboard lay HELD... --starter CARD (--dealer | --pone) [--laid "5H 10D go 6C"]
[--seen "QC 9D"] [--count N] [--variant NAME] [--belief uniform|discards] [--json]`` prints
every legal card (or go, when none fits) with the points it pegs at once and its exact
expected net pegging points for the rest of the play (yours minus the opponent's), best first,
and the model the figures are exact under (``engine/playadvice.py``). ``--laid`` is every
action of the play so far from the lead, both players', in order (``go`` for a go); ``--seen``
the other cards you have seen (your discards). ``--count``, when given, is checked against the
count the cards laid make. ``--belief`` says how likely each holding of the opponent's is
(``engine/playbelief.py``): all equally (``uniform``, the default) or as often as its possible
deals lead to it by the exact discard advice (``discards``: slower, seconds to minutes before
the opponent has laid two cards).
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, value_words, words_of
from pegboard.engine.cards import Card, check_text, parse_cards
from pegboard.engine.playbelief import Belief
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import InvalidCardError, PegboardError, quote
from pegboard.i18n import Translator
from pegboard.i18n.numbers import decimal

if TYPE_CHECKING:
    from pegboard.engine.playadvice import PlayAdvice

__all__ = ["LayCommandError", "parse_laid", "register"]

_GO = "go"


class LayCommandError(PegboardError, ValueError):
    """Arguments of ``pegboard lay`` that disagree (a count the cards laid do not make).

    Raised by the command line only, so its message is already in the user's language.
    """


def register(subparsers: Any) -> None:
    """Add ``lay`` to the ``pegboard`` command line's subparsers."""
    p = subparsers.add_parser(
        "lay",
        help="which card to lay in the play: exact expected net pegging of each",
        description="Every card you may lay now with its exact expected net pegging points "
        "for the rest of the play (yours minus your opponent's), best first. Exact against a "
        "stated model: the opponent holds any of its possible holdings (equally likely, or "
        "as its discards by the exact discard advice leave them: --belief discards) and plays "
        "pegboard's greedy self-play; you play on as well as possible. Two-player variants "
        "only (six-card, five-card, two-in-the-crib).",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="the cards you still hold")
    p.add_argument("--starter", required=True, metavar="CARD", help="the starter")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--dealer", action="store_true", help="you dealt")
    who.add_argument("--pone", action="store_true", help="your opponent dealt")
    p.add_argument(
        "--laid",
        default="",
        metavar="ACTIONS",
        help="every card laid so far by both of you, in order from the lead, 'go' for a go",
    )
    p.add_argument(
        "--seen", default="", metavar="CARDS", help="other cards you have seen (your discards)"
    )
    p.add_argument("--count", type=int, default=None, help="the count now (checked)")
    p.add_argument(
        "--variant",
        default=Variant.SIX_CARD.value,
        choices=[v.value for v in Variant],
        help="the way of playing (two-player variants only)",
    )
    p.add_argument(
        "--belief",
        default=Belief.UNIFORM.value,
        choices=[b.value for b in Belief],
        help="how likely each holding of the opponent's is: all equally (uniform), or each as "
        "often as its possible deals keep it by the exact discard advice (discards; slow "
        "before the opponent has laid two cards)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")
    add_lang(p)
    p.set_defaults(handler=_cmd_lay)


def parse_laid(text: str) -> list[Card | None]:
    """The actions of ``--laid``: cards, and None for each ``go``.

    Raises:
        InvalidCardError: a word that is neither a card nor ``go``.
    """
    check_text(text, "the cards laid", InvalidCardError)
    out: list[Card | None] = []
    for word in text.replace(",", " ").split():
        if word.lower() == _GO:
            out.append(None)
            continue
        try:
            out.append(Card.parse(word))
        except InvalidCardError:
            raise InvalidCardError(
                f"invalid word in the cards laid: {quote(word)} (expected a card, e.g. '5H', or go)"
            ) from None
    return out


def _cmd_lay(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.engine.playadvice import advise_play

    tr = words_of(args)
    rules = Rules.for_variant(args.variant)
    held = parse_cards(args.cards)
    starter = Card.parse(args.starter)
    laid = parse_laid(args.laid)
    seen = parse_cards(args.seen) if args.seen.strip() else ()
    dealer = bool(args.dealer)
    belief = Belief(args.belief)
    if args.count is not None:  # checked before the search (the discard belief takes seconds)
        count = _count_of(laid, starter, rules)
        if args.count != count:
            said = tr.gettext("--count {given} is not the count of the cards laid ({count})")
            raise LayCommandError(said.format(given=quote(str(args.count)), count=count))
    advice = advise_play(held, laid, starter, dealer=dealer, rules=rules, seen=seen, belief=belief)
    if args.json:
        payload = {
            "variant": rules.variant.value,
            "dealer": dealer,
            "held": [str(c) for c in held],
            "starter": str(starter),
            "laid": [_GO if c is None else str(c) for c in laid],
            "seen": [str(c) for c in seen],
            "count": advice.count,
            "opponent": advice.opponent.value,
            "holdings": advice.holdings,
            "belief": belief.value,
            "deals": advice.deals if belief is Belief.DISCARDS else None,
            "model": advice.model,
            "options": [
                {
                    "card": _GO if o.card is None else str(o.card),
                    "points": o.points,
                    "net_ev": o.net_ev,
                }
                for o in advice.options
            ],
        }
        out.write(json.dumps(payload) + "\n")
        return 0
    _print(out, advice, rules, dealer, starter, tr)
    return 0


def _count_of(laid: list[Card | None], starter: Card, rules: Rules) -> int:
    """The count the cards *laid* (None: a go) leave on the table.

    Raises:
        IllegalPlayError: the actions cannot happen under the rules.
    """
    from pegboard.engine.play import PlayState

    state = PlayState.start(rules, 1, starter=starter)
    for action in laid:
        state = (state.go() if action is None else state.play(action))[0]
    return state.count


def _print(
    out: TextIO, advice: PlayAdvice, rules: Rules, dealer: bool, starter: Card, tr: Translator
) -> None:
    said = tr.gettext("{variant}, you are {who}; starter {starter}, count {count}")
    who = tr.gettext("dealer") if dealer else tr.gettext("pone")
    head = said.format(
        variant=value_words(tr, rules.variant.value), who=who, starter=starter, count=advice.count
    )
    out.write(head + "\n")
    lay, now, net = tr.gettext("lay"), tr.gettext("now"), tr.gettext("net")
    out.write(f"{lay:<7}{now:>7}{net:>9}\n")
    for o in advice.options:
        card = tr.pgettext("play", "go") if o.card is None else str(o.card)
        value = decimal(o.net_ev, 2, tr)
        sign = "+" if o.net_ev >= 0 and not value.startswith("-") else ""
        out.write(f"{card:<7}{o.points:>7}{sign + value:>9}\n")
    if advice.belief is Belief.DISCARDS:
        model = tr.gettext(
            "model: the opponent holds {cards} of the {unseen} cards you have not seen "
            "({holdings} holdings consistent with the cards seen and its goes, each as often "
            "as its possible deals keep it by the exact discard advice, ties shared: {deals} "
            "deals) and plays greedy (the card that pegs most at once, then one not leaving "
            "the count on 5 or 21, then the highest); you play on as well as possible, seeing "
            "the ranks it lays and its goes"
        )
    else:
        model = tr.gettext(
            "model: the opponent holds {cards} of the {unseen} cards you have not seen "
            "({holdings} holdings consistent with the cards seen and its goes, equally likely) "
            "and plays greedy (the card that pegs most at once, then one not leaving the count "
            "on 5 or 21, then the highest); you play on as well as possible, seeing the ranks "
            "it lays and its goes"
        )
    deals = decimal(advice.deals, 0 if advice.deals == int(advice.deals) else 2, tr)
    out.write(
        model.format(
            cards=advice.opponent_cards,
            unseen=advice.unseen,
            holdings=decimal(advice.holdings, 0, tr),
            deals=deals,
        )
        + "\n"
    )
