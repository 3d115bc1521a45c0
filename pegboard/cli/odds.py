"""``pegboard odds``: each side's chance to win at the start of a deal, from the shipped tables.

``pegboard odds [--variant NAME] [--json] DEALER_SCORE PONE_SCORE`` gives the chance of the side
about to deal and of the other side; ``pegboard odds --table [--variant NAME] --json`` prints the
whole start-of-deal table, ``dealer_wins[dealer][pone]``. Two against one has a table per dealer
seat (``--dealer-seat``: 0 and 1 are the pair, 2 the solo). Three separate players are not
computed: asking says so in one line.

The tables load on first use, inside the handler: the parser itself imports nothing heavy.
"""

from __future__ import annotations

import argparse
import json
import re
from collections.abc import Sequence
from typing import Any, TextIO

from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, value_words, words_of
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import PegboardError, quote
from pegboard.i18n import N_, Translator
from pegboard.i18n.numbers import percent

__all__ = ["OddsCommandError", "register"]

_SOLO_SEAT = 2
_WHOLE = re.compile(r"[+-]?[0-9]+")
_DIGITS = 6


class OddsCommandError(PegboardError, ValueError):
    """Arguments of ``pegboard odds`` that name no position (a score that is not a number).

    Raised by the command line only, so its message is already in the user's language (the
    engine's own errors, ``OddsError``, are said again by ``cli.lang.error_text``).
    """


def register(subparsers: Any) -> None:
    """Add ``odds`` to the ``pegboard`` command line's subparsers."""
    p = subparsers.add_parser(
        "odds",
        help="each side's chance to win from a score",
        description="The chance that the dealer's side and the other side win, at the start of "
        "a deal, between equal players who follow pegboard's strategy (exact dynamic "
        "programme over deals measured by self-play).",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument("scores", nargs="*", metavar="SCORE", help="DEALER_SCORE PONE_SCORE")
    p.add_argument(
        "--variant",
        default=Variant.SIX_CARD.value,
        choices=[v.value for v in Variant],
        help="the way of playing (three-handed is not computed)",
    )
    p.add_argument(
        "--dealer-seat",
        type=int,
        default=0,
        choices=range(3),
        help="two-against-one only: who deals (0, 1: the pair; 2: the solo)",
    )
    p.add_argument("--table", action="store_true", help="the whole start-of-deal table")
    p.add_argument("--json", action="store_true", help="print JSON")
    add_lang(p)
    p.set_defaults(handler=_cmd_odds)


def _score(text: str, who: str, most: int, tr: Translator) -> int:
    """*text* as a score; *who* is ``dealer`` or ``pone``, said in *tr*'s language; *most* is
    the highest score a table has (the engine checks the range of a short number).

    Raises:
        OddsCommandError: *text* is not a whole number, or has more digits than any score.
    """
    if _WHOLE.fullmatch(text) is None:  # ASCII digits only: int() also takes '1_0' and '٣'
        said = tr.gettext("{who} score {text} is not a number (expected a whole number of points)")
        raise OddsCommandError(said.format(who=tr.gettext(who), text=quote(text)))
    if len(text.lstrip("+-")) > _DIGITS:  # int() refuses over 4,300 digits; no score has 7
        said = tr.gettext("{who} score {text} is out of range (expected 0 to {most})")
        raise OddsCommandError(said.format(who=tr.gettext(who), text=quote(text), most=most))
    return int(text)


def _check_solo(variant: Variant, position: int, dealer: int, pone: int, tr: Translator) -> None:
    """Two against one: the solo's score, which starts on 60, is never below it.

    Raises:
        OddsCommandError: the solo's score below 60.
    """
    if variant is not Variant.TWO_AGAINST_ONE:
        return
    start = Rules.for_variant(variant).start_score(1)  # the solo's side
    who, score = (N_("dealer"), dealer) if position == _SOLO_SEAT else (N_("pone"), pone)
    if score < start:
        said = tr.gettext(
            "{who} score {score} is the solo's, below {start} (expected {start} or more: in "
            "two-against-one the solo starts on {start})"
        )
        raise OddsCommandError(said.format(who=tr.gettext(who), score=score, start=start))


def _position(variant: Variant, seat: int, tr: Translator) -> int:
    """The table's dealer position of --dealer-seat *seat*.

    Raises:
        OddsCommandError: a seat other than 0 for a variant without dealer seats.
    """
    if variant is Variant.TWO_AGAINST_ONE:
        return seat
    if seat:
        said = tr.gettext("--dealer-seat {seat} is for two-against-one only (got {variant})")
        raise OddsCommandError(said.format(seat=seat, variant=quote(variant.value)))
    return 0


def _cmd_odds(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.engine import odds

    tr = words_of(args)  # the errors raised here are said in the user's language at once
    variant = Variant(args.variant)
    target, tables = odds.load_table(variant)  # three separate players: OddsError
    position = _position(variant, args.dealer_seat, tr)
    extra: dict[str, Any] = {"dealer_seat": position} if variant is Variant.TWO_AGAINST_ONE else {}
    if args.table:
        if args.scores:
            said = tr.gettext("--table takes no scores, got {scores}")
            raise OddsCommandError(said.format(scores=quote(" ".join(args.scores))))
        rows: list[list[float | None]] = [
            [round(v / odds.SCALE, 5) for v in tables[position][d * target : (d + 1) * target]]
            for d in range(target)
        ]
        if variant is Variant.TWO_AGAINST_ONE:  # the solo starts on 60: below it, no position
            start = Rules.for_variant(variant).start_score(1)
            solo_deals = position == _SOLO_SEAT
            for d, row in enumerate(rows):
                for p in range(target):
                    if (d if solo_deals else p) < start:
                        row[p] = None
        if args.json:
            payload: dict[str, Any] = {"variant": variant.value, "target": target, **extra}
            payload["dealer_wins"] = rows
            out.write(json.dumps(payload, separators=(",", ":")) + "\n")
        else:
            _print_table(out, variant, position, rows, target, tr)
        return 0
    if len(args.scores) != 2:
        said = tr.gettext("expected two scores, DEALER_SCORE PONE_SCORE, got {n}: {scores}")
        raise OddsCommandError(said.format(n=len(args.scores), scores=quote(" ".join(args.scores))))
    dealer = _score(args.scores[0], N_("dealer"), target - 1, tr)
    pone = _score(args.scores[1], N_("pone"), target - 1, tr)
    _check_solo(variant, position, dealer, pone, tr)
    dealer_wins, pone_wins = odds.chances(variant, dealer, pone, position=position)
    if args.json:
        payload = {
            "variant": variant.value,
            **extra,
            "dealer": dealer,
            "pone": pone,
            "dealer_wins": dealer_wins,
            "pone_wins": pone_wins,
        }
        out.write(json.dumps(payload) + "\n")
        return 0
    dealing, other = _who(variant, position, tr)
    said = tr.gettext(
        "{variant}: {dealing} {dealer} (to deal), {other} {pone}: "
        "{dealing} wins {dealer_wins}, {other} wins {pone_wins}"
    )
    out.write(
        said.format(
            variant=value_words(tr, variant.value),
            dealing=dealing,
            dealer=dealer,
            other=other,
            pone=pone,
            dealer_wins=percent(dealer_wins, 1, tr),
            pone_wins=percent(pone_wins, 1, tr),
        )
        + "\n"
    )
    return 0


def _who(variant: Variant, position: int, tr: Translator) -> tuple[str, str]:
    t = tr.gettext
    if variant is not Variant.TWO_AGAINST_ONE:
        return t("dealer"), t("pone")
    if position == _SOLO_SEAT:
        return t("the solo"), t("the pair")
    return t("the pair (seat {position})").format(position=position), t("the solo")


def _print_table(
    out: TextIO,
    variant: Variant,
    position: int,
    rows: Sequence[Sequence[float | None]],
    target: int,
    tr: Translator,
) -> None:
    """Every tenth hole of the table in percent (the JSON has every one); "-" where there is
    no position (two against one: the solo below 60)."""
    step = 10
    marks = list(range(0, target, step))
    if variant is Variant.TWO_AGAINST_ONE:
        dealing, other = _who(variant, position, tr)
        said = tr.gettext(
            "{variant}, {dealing} to deal: the chance of {dealing} (%), {dealing}'s score down, "
            "{other}'s across; - where the solo would be below {start}"
        )
        start = Rules.for_variant(variant).start_score(1)
        line = said.format(
            variant=value_words(tr, variant.value), dealing=dealing, other=other, start=start
        )
    else:
        said = tr.gettext("{variant}: the dealer's chance (%), dealer's score down, pone's across")
        line = said.format(variant=value_words(tr, variant.value))
    out.write(line + "\n")
    out.write("      " + "".join(f"{p:>5}" for p in marks) + "\n")
    for d in marks:
        cells = (rows[d][p] for p in marks)
        shown = ("    -" if v is None else f"{v * 100:5.0f}" for v in cells)
        out.write(f"{d:>5} " + "".join(shown) + "\n")
