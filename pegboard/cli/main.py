"""The ``pegboard`` command line.

Every command prints plain text by default and JSON with ``--json``. Exit status: 0 ok, 1 bad
input (one line ``pegboard: error: <message>`` on stderr), 2 bad usage (argparse).
``--debug`` shows the traceback of an unexpected error instead of the one-line message.

``--lang en|de`` (before the command or after it) is the language of the text output: the
calls, labels and headings (``pegboard score --lang de 5H 5D JS KC 8C`` counts "Fünfzehn – zwei,
..."). Without it, the locale's (German when ``LC_ALL``, ``LC_MESSAGES`` or ``LANG`` starts with
"de"). JSON is the same in every language. ``pegboard run`` speaks ``--lang`` too (the OLED,
the keypad's hints, the news), else the config's ``[game] language`` (a key file's
``language`` header wins over the config); ``selftest`` is a hardware check in English.

A command imports what it needs when it runs: a process that scores one hand loads the cards,
the rules and the scorer, not the game, the journal or the devices.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, BinaryIO, TextIO

from pegboard import __version__
from pegboard.cli.helpformat import DefaultsFormatter, Parser
from pegboard.cli.lang import add_lang as _add_lang
from pegboard.cli.lang import error_text, language_of
from pegboard.engine.cards import MAX_TEXT_BYTES, Card, parse_cards
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.scoring import (
    Breakdown,
    ScoreItem,
    ScoreKind,
    play_called,
    play_words,
    score_hand,
    show_calls,
)
from pegboard.errors import InvalidHandError, PegboardError, quote
from pegboard.i18n import Language, translator
from pegboard.i18n.numbers import decimal, percent

__all__ = ["main"]

Handler = Callable[[argparse.Namespace, TextIO], int]

_VARIANTS = [v.value for v in Variant]


def item_to_json(item: ScoreItem) -> dict[str, Any]:
    """One score item as JSON: kind, cards in the notation, points."""
    return {"kind": item.kind.value, "cards": [str(c) for c in item.cards], "points": item.points}


def breakdown_to_json(breakdown: Breakdown) -> list[dict[str, Any]]:
    """Every item of a breakdown as JSON."""
    return [item_to_json(item) for item in breakdown.items]


# --- pegboard score ----------------------------------------------------------------------------


def _scored(
    words: str | Sequence[str], *, crib: bool, rules: Rules
) -> tuple[tuple[Card, ...], Card, Breakdown]:
    """The hand, the starter (the last card) and the breakdown of one line's card words.

    Raises:
        InvalidCardError, InvalidHandError: the cards are not a hand and a starter.
    """
    size = rules.crib_size if crib else rules.hand_size
    what = "crib and starter" if crib else "hand and starter"
    cards = parse_cards(words, count=size + 1, what=what)
    hand, starter = cards[:-1], cards[-1]
    return hand, starter, score_hand(hand, starter, crib=crib, rules=rules)


def _score_line(words: str | Sequence[str], *, crib: bool, rules: Rules) -> dict[str, Any]:
    """Score one hand given as card words (or one line of them), the last being the starter.

    Raises:
        InvalidCardError, InvalidHandError: the cards are not a hand and a starter.
    """
    hand, starter, breakdown = _scored(words, crib=crib, rules=rules)
    return {
        "hand": [str(c) for c in hand],
        "starter": str(starter),
        "crib": crib,
        "total": breakdown.total,
        "items": breakdown_to_json(breakdown),
        "calls": show_calls(breakdown),
    }


def _score_json(words: str, *, crib: bool, rules: Rules) -> str:
    """``json.dumps(_score_line(words, ...))`` and a newline, written out directly.

    The stdin loop's hot path: building ``_score_line``'s dicts and encoding them took 8 µs of
    a line's 20. Every string goes through ``json``'s own string encoder (the one
    ``json.dumps`` uses), so the text is exactly ``json.dumps``'s.

    Raises:
        InvalidCardError, InvalidHandError: the cards are not a hand and a starter.
    """
    hand, starter, breakdown = _scored(words, crib=crib, rules=rules)
    quote = json.encoder.encode_basestring_ascii
    items = ", ".join(
        [
            f'{{"kind": {quote(item.kind.value)}, '
            f'"cards": [{", ".join(map(quote, map(str, item.cards)))}], '
            f'"points": {item.points}}}'
            for item in breakdown.items
        ]
    )
    return (
        f'{{"hand": [{", ".join(map(quote, map(str, hand)))}], "starter": {quote(str(starter))}, '
        f'"crib": {"true" if crib else "false"}, "total": {breakdown.total}, '
        f'"items": [{items}], "calls": [{", ".join(map(quote, show_calls(breakdown)))}]}}\n'
    )


def _print_score(result: dict[str, Any], out: TextIO, language: Language) -> None:
    if language is not Language.ENGLISH:
        _print_score_in(result, out, language)
        return
    label = "crib" if result["crib"] else "hand"
    out.write(f"{label} {' '.join(result['hand'])}  starter {result['starter']}\n")
    calls = result["calls"]
    out.write((", ".join(calls) if calls else "nineteen (no score)") + "\n")
    out.write(f"total {result['total']}\n")


def _print_score_in(result: dict[str, Any], out: TextIO, language: Language) -> None:
    """``_print_score`` in another language: the calls rendered again from the items."""
    from pegboard.i18n.calls import show_calls_in, spoken

    tr = translator(language)
    items = tuple(
        ScoreItem(ScoreKind(i["kind"]), tuple(map(Card.parse, i["cards"])), i["points"])
        for i in result["items"]
    )
    calls = show_calls_in(Breakdown(items), language)
    label = tr.gettext("crib") if result["crib"] else tr.gettext("hand")
    starter = tr.gettext("starter {card}").format(card=result["starter"])
    out.write(f"{label} {' '.join(result['hand'])}  {starter}\n")
    out.write((spoken(calls, language) if calls else tr.gettext("nineteen (no score)")) + "\n")
    out.write(tr.gettext("total {points}").format(points=result["total"]) + "\n")


_SKIP_CHUNK = 64 * 1024  # how much of an over-long line is read (and dropped) at a time


def _read_lines(stream: BinaryIO) -> Iterator[bytes | None]:
    """Each line of *stream* as bytes, without its newline; None for a line too long.

    A line is at most ``MAX_TEXT_BYTES`` bytes. A longer one is read past in chunks and
    never held whole, so a 10 MB line costs no more memory than a short one, and it still
    gives exactly one item: the answers pair one-to-one with the lines.
    """
    while line := stream.readline(MAX_TEXT_BYTES + 1):
        if line.endswith(b"\n"):
            yield line[:-1]
        elif len(line) <= MAX_TEXT_BYTES:  # the last line, without a newline
            yield line
        else:
            while (rest := stream.readline(_SKIP_CHUNK)) and not rest.endswith(b"\n"):
                pass
            yield None


def _cmd_score(args: argparse.Namespace, out: TextIO) -> int:
    rules = Rules.for_variant(args.variant)
    language = language_of(args)
    if args.cards != ["-"]:
        result = _score_line(args.cards, crib=args.crib, rules=rules)
        if args.json:
            out.write(json.dumps(result) + "\n")
        else:
            _print_score(result, out, language)
        return 0
    # one hand per line from stdin; a bad line answers an error and the rest go on. stdin is
    # read as bytes whatever the locale: a strict UTF-8 locale would otherwise end the whole
    # run at the first undecodable byte, before answering a single line
    status = 0
    what = "crib and starter" if args.crib else "hand and starter"
    for number, line in enumerate(_read_lines(sys.stdin.buffer), start=1):
        # every line gets one answer (a blank one an error), so answers pair with the lines
        try:
            if line is None:
                raise InvalidHandError(
                    f"line too long: over {MAX_TEXT_BYTES} bytes (expected one {what} per line)"
                )
            # an undecodable byte becomes a lone surrogate, which parse_cards names and refuses;
            # the line as parse_cards reads one string: spaces, commas or semicolons between
            text = line.decode("utf-8", "surrogateescape").strip()
            if args.json:
                answer = _score_json(text, crib=args.crib, rules=rules)
            else:
                result = _score_line(text, crib=args.crib, rules=rules)
        except PegboardError as e:
            status = 1
            message = error_text(f"line {number}: {e}", language)
            if args.json:
                out.write(json.dumps({"line": number, "error": str(e)}) + "\n")
            else:
                out.write(_error_line(message, language, prefix="") + "\n")
            print(_error_line(message, language), file=sys.stderr)
            continue
        if args.json:
            out.write(answer)
        else:
            _print_score(result, out, language)
    return status


# --- pegboard peg ------------------------------------------------------------------------------


def _cmd_peg(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.engine.play import score_play

    cards = parse_cards(args.cards, what="series")
    results = [score_play(cards[: i + 1]) for i in range(len(cards))]
    count = sum(c.pips for c in cards)
    if args.json:
        payload = {
            "cards": [str(c) for c in cards],
            "points": [b.total for b in results],
            "count": count,
            "items": [breakdown_to_json(b) for b in results],
        }
        out.write(json.dumps(payload) + "\n")
        return 0
    language = language_of(args)
    tr = translator(language)
    running = 0
    for card, breakdown in zip(cards, results, strict=True):
        running += card.pips
        said = ", ".join(_peg_words(item, language) for item in play_called(breakdown))
        counted = tr.gettext("count {count}").format(count=f"{running:2}")
        out.write(f"{card!s:>3}  {counted}  {breakdown.total:2}  {said}\n".rstrip() + "\n")
    pegged = sum(b.total for b in results)
    out.write(tr.gettext("count {count}, pegged {points}").format(count=count, points=pegged))
    out.write("\n")
    return 0


def _peg_words(item: ScoreItem, language: Language) -> str:
    """One item of the play as ``pegboard peg`` prints it: "fifteen 2", "fünfzehn – zwei"."""
    if language is Language.ENGLISH:
        return play_words(item)
    from pegboard.i18n.calls import play_call

    return play_call(item.kind, item.points, len(item.cards), language)


# --- pegboard advise ---------------------------------------------------------------------------


def _cmd_advise(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.engine.advice import advise

    rules = Rules.for_variant(args.variant)
    dealt = parse_cards(args.cards, count=rules.dealt, what=f"{rules.variant.value} deal")
    dealer = not args.pone
    options = advise(dealt, rules=rules, dealer=dealer)
    if args.json:
        payload = {
            "dealt": [str(c) for c in dealt],
            "dealer": dealer,
            "variant": rules.variant.value,
            "options": [
                {
                    "discard": [str(c) for c in o.discard],
                    "keep": [str(c) for c in o.keep],
                    "hand_ev": o.hand_ev,
                    "crib_ev": o.crib_ev,
                    "net_ev": o.net_ev,
                }
                for o in options
            ],
        }
        out.write(json.dumps(payload) + "\n")
        return 0
    sign = "+" if dealer else "-"
    tr = translator(language_of(args))
    discard, keep, hand, crib, net = (
        tr.gettext("discard"),
        tr.gettext("keep"),
        tr.gettext("hand"),
        tr.gettext("crib"),
        tr.gettext("net"),
    )
    out.write(
        f"{discard:<12}{keep:<16}{hand:>7}{crib:>7}{net:>8}   ({net} = {hand} {sign} {crib})\n"
    )
    for o in options:
        discard = " ".join(str(c) for c in o.discard)
        keep = " ".join(str(c) for c in o.keep)
        hand, crib, net = (decimal(ev, 2, tr) for ev in (o.hand_ev, o.crib_ev, o.net_ev))
        out.write(f"{discard:<12}{keep:<16}{hand:>7}{crib:>7}{net:>8}\n")
    return 0


# --- pegboard stats ----------------------------------------------------------------------------


def _cmd_stats_distribution(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.engine.stats import show_distribution

    rules = Rules.for_variant(args.variant)
    hand_size = 4 if args.crib else rules.hand_size
    dist = show_distribution(crib=args.crib, hand_size=hand_size, rules=rules)
    if args.json:
        payload = {
            "variant": rules.variant.value,
            "crib": args.crib,
            "combinations": dist.combinations,
            "counts": {str(score): n for score, n in enumerate(dist.counts)},
            "mean": round(dist.mean, 6),
        }
        out.write(json.dumps(payload) + "\n")
        return 0
    tr = translator(language_of(args))
    if args.crib:
        every = tr.gettext("every crib with every starter: {n} combinations")
    else:
        every = tr.gettext("every {size}-card hand with every starter: {n} combinations")
    out.write(every.format(size=rules.hand_size, n=decimal(dist.combinations, 0, tr)) + "\n")
    shares = [percent(n / dist.combinations, 5, tr) for n in dist.counts]
    wide = max(9, *(len(share) for share in shares))  # German "7,76471 %" has a space
    for score, (n, share) in enumerate(zip(dist.counts, shares, strict=True)):
        out.write(f"{score:3}  {decimal(n, 0, tr):>10}  {share:>{wide}}\n")
    out.write(tr.gettext("mean {mean}").format(mean=decimal(dist.mean, 6, tr)) + "\n")
    return 0


# --- pegboard demo -----------------------------------------------------------------------------


def _cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from pegboard.cli.demo import run_demo

    return run_demo(out, seed=args.seed, language=language_of(args))


# --- the parser --------------------------------------------------------------------------------


def _add_variant(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default=Variant.SIX_CARD.value,
        choices=_VARIANTS,
        help="the variant whose hand and deal sizes apply",
    )


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``pegboard`` argument parser: with *command* (a command's name, see
    ``command_named``) only that command's part of it, which parses that command's arguments
    exactly as the whole parser does; without it, every command (for ``--help``, a misspelt
    command's list of choices, and the tests)."""
    fmt = DefaultsFormatter
    parser = Parser(
        prog="pegboard",
        description="A cribbage pegboard companion: scores hands, pegs the play, keeps the game.",
        formatter_class=fmt,
    )
    parser.add_argument("--version", action="version", version=f"pegboard {__version__}")
    parser.add_argument("--debug", action="store_true", help="show tracebacks of errors")
    _add_lang(parser, top=True)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, register in _COMMANDS.items():
        if command is None or command == name:
            register(sub)
    return parser


def command_named(argv: Sequence[str]) -> str | None:
    """The command *argv* runs: its first word after the top-level ``--debug`` and ``--lang``,
    when that word is a command's name; else None (no command, ``--help``, ``--version``, a
    misspelt command, an abbreviated option), for which the whole parser is built."""
    words = iter(argv)
    for word in words:
        if word == "--lang":
            next(words, None)  # its value
        elif word != "--debug" and not word.startswith("--lang="):
            return word if word in _COMMANDS else None
    return None


def _add_score(sub: Any) -> None:
    fmt = DefaultsFormatter
    p = sub.add_parser(
        "score",
        help="count a hand or crib in the show",
        description="Count a hand (or crib) with the starter, item by item. The LAST card is "
        "the starter. With '-' instead of cards, read one hand per line from stdin.",
        formatter_class=fmt,
    )
    p.add_argument("cards", nargs="+", metavar="CARD", help="cards like 5H 10D JC, then starter")
    p.add_argument("--crib", action="store_true", help="count as the crib (flush only all five)")
    _add_variant(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_lang(p)
    p.set_defaults(handler=_cmd_score)


def _add_peg(sub: Any) -> None:
    p = sub.add_parser(
        "peg",
        help="points for cards laid in one series of the play",
        description="Points pegged for each card laid, in order, in one series (count <= 31).",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument("cards", nargs="+", metavar="CARD")
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_lang(p)
    p.set_defaults(handler=_cmd_peg)


def _add_advise(sub: Any) -> None:
    p = sub.add_parser(
        "advise",
        help="exact expected points of every discard",
        description="Every possible discard of a dealt hand with its exact expected hand and "
        "crib points, best first.",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument("cards", nargs="+", metavar="CARD")
    who = p.add_mutually_exclusive_group()
    who.add_argument("--dealer", action="store_true", help="the crib is yours (default)")
    who.add_argument("--pone", action="store_true", help="the crib is your opponent's")
    _add_variant(p)
    p.add_argument("--json", action="store_true", help="print JSON")
    _add_lang(p)
    p.set_defaults(handler=_cmd_advise)


def _add_stats(sub: Any) -> None:
    """``stats distribution`` here, ``stats players`` from ``cli.stats``."""
    from pegboard.cli import stats as stats_players

    fmt = DefaultsFormatter
    p = sub.add_parser("stats", help="exact statistics over every deal", formatter_class=fmt)
    stats = p.add_subparsers(dest="stats_command", required=True, metavar="STAT")
    q = stats.add_parser(
        "distribution",
        help="exact distribution of show scores",
        description="The exact number of (hand, starter) combinations giving each score 0..29.",
        formatter_class=fmt,
    )
    q.add_argument("--crib", action="store_true", help="count as cribs (crib flush rule)")
    _add_variant(q)
    q.add_argument("--json", action="store_true", help="print JSON")
    _add_lang(q)
    q.set_defaults(handler=_cmd_stats_distribution)
    stats_players.register_stats(stats)


def _add_demo(sub: Any) -> None:
    p = sub.add_parser(
        "demo",
        help="deal, advise, play and count one hand with the engine",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument("--seed", type=int, default=None, help="seed for a repeatable deal")
    _add_lang(p)
    p.set_defaults(handler=_cmd_demo)


def _registered_by(module: str, function: str = "register") -> Callable[[Any], None]:
    """A command that lives in its own module: ``pegboard.cli.<module>``'s *function* adds it
    (the module is imported only when that command is added): the game, the device (run,
    selftest), the history, the score sheet, the pub page (serve), the league, the odds."""

    def register(sub: Any) -> None:
        getattr(importlib.import_module(f"pegboard.cli.{module}"), function)(sub)

    return register


_COMMANDS: dict[str, Callable[[Any], None]] = {
    "score": _add_score,
    "peg": _add_peg,
    "advise": _add_advise,
    "stats": _add_stats,
    "demo": _add_demo,
    "game": _registered_by("game"),
    "odds": _registered_by("odds"),
    "lay": _registered_by("lay"),
    "run": _registered_by("run"),
    "selftest": _registered_by("run", "register_selftest"),
    "history": _registered_by("history"),
    "sheet": _registered_by("sheet"),
    "serve": _registered_by("serve"),
    "league": _registered_by("league"),
    "tourney": _registered_by("tourney"),
}
"""Each command and what adds it to the parser, in the order ``--help`` lists them."""


def _error_line(message: str, language: Language, *, prefix: str = "pegboard: ") -> str:
    """``pegboard: error: <message>`` (German: ``pegboard: Fehler: ...``); *message* is already
    in *language*."""
    if language is Language.ENGLISH:
        return f"{prefix}error: {message}"
    return prefix + translator(language).gettext("error: {message}").format(message=message)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    argv = sys.argv[1:] if argv is None else argv
    # only the command that runs is built: the others' modules stay unimported
    parser = build_parser(command_named(argv))
    args = parser.parse_args(argv)
    handler: Handler = args.handler
    try:
        return handler(args, sys.stdout)
    except PegboardError as e:
        if args.debug:
            raise
        language = language_of(args)
        print(_error_line(error_text(str(e), language), language), file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except OSError as e:
        # a path the user gave that the file system refuses (a name too long, a file where a
        # folder should be, no permission) is bad input: one line naming it, not a traceback
        if args.debug or e.filename is None:
            raise
        language = language_of(args)
        message = f"cannot open {quote(str(e.filename))}: {e.strerror or e}"
        print(_error_line(error_text(message, language), language), file=sys.stderr)
        return 1
