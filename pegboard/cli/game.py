"""``pegboard game new | do | show``: a whole match from a terminal or a script.

Every accepted command is committed to the journal (``pegboard/journal.py``) before its effect
is printed, so a script can trust each ``ok`` line. ``do`` takes one command per argument and
stops at the first one the game refuses: the commands before it stay applied, and the error
names which one failed. ``cut`` with no cards cuts at random (``random.Random``) and is
journalled as the cards drawn, so replaying gives the same game.

The module imports only what the parser needs; each handler imports the journal and the game
when it runs, so that ``pegboard score`` does not load them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import DEFAULT_NAMES, Variant
from pegboard.errors import PegboardError, quote

if TYPE_CHECKING:
    from pegboard.engine.events import Event
    from pegboard.engine.game import GameState
    from pegboard.journal import Journal

__all__ = ["describe_event", "register"]


class GameCommandError(PegboardError):
    """A command of ``pegboard game do`` failed; the message names which one."""


def register(subparsers: Any) -> None:
    """Add ``game new|do|show`` to the ``pegboard`` command line's subparsers."""
    fmt = argparse.ArgumentDefaultsHelpFormatter
    game = subparsers.add_parser(
        "game",
        help="keep a whole game and match, journalled",
        description="Play and check a whole match from a terminal: every accepted command is "
        "stored in a SQLite journal before its effect is shown.",
        formatter_class=fmt,
    )
    sub = game.add_subparsers(dest="game_command", required=True, metavar="ACTION")

    p = sub.add_parser(
        "new", help="start a new match", description="Start a new match.", formatter_class=fmt
    )
    p.add_argument(
        "--variant",
        default=Variant.SIX_CARD.value,
        choices=[v.value for v in Variant],
        help="the way of playing",
    )
    p.add_argument(
        "--players",
        default=None,
        metavar="Ann,Bob",
        help="side names, comma-separated, one word each (default "
        f"{','.join(DEFAULT_NAMES[:2])}, or {','.join(DEFAULT_NAMES)} for three sides)",
    )
    p.add_argument("--muggins", action="store_true", help="play muggins in the show")
    p.add_argument(
        "--muggins-in-play",
        action="store_true",
        help="muggins in the play too: 'claim N' before a card",
    )
    p.add_argument(
        "--starter-counts-in-play",
        action="store_true",
        help="optional rule: the starter's pips open the count of the first series",
    )
    p.add_argument(
        "--match",
        default=None,
        choices=[f.value for f in MatchFormat],
        help="match format (default: best-of-three for two sides, single for three players)",
    )
    _add_db(p)
    p.set_defaults(handler=cmd_new)

    p = sub.add_parser(
        "do",
        help="apply commands to the current match",
        description="Apply commands, one per argument, e.g. 'starter 5H' 'play JC' go "
        "'show 5H 5D 5S JC' 'peg B 2' undo. Syntax: cut [CARDS], starter CARD, play CARD, go, "
        "peg SIDE N [REASON], claim N, show [CARDS], crib CARDS, next (done), deal, undo, redo.",
        formatter_class=fmt,
    )
    p.add_argument("commands", nargs="+", metavar="COMMAND")
    _add_db(p)
    p.set_defaults(handler=cmd_do)

    p = sub.add_parser(
        "show",
        help="print the current match",
        description="Print the read-only view of the current match.",
        formatter_class=fmt,
    )
    p.add_argument("--json", action="store_true", help="print the GameView as JSON")
    _add_db(p)
    p.set_defaults(handler=cmd_show)


def _add_db(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        type=Path,
        default=None,
        help=(
            "journal database (default: $PEGBOARD_DB, else $STATE_DIRECTORY/pegboard.db, "
            "else ~/.local/share/pegboard/pegboard.db)"
        ),
    )


def _open(args: argparse.Namespace, *, readonly: bool = False) -> Journal:
    """The journal named by ``--db`` (or the default); a reader creates and changes nothing."""
    from pegboard.journal import Journal, default_db_path

    path = args.db if args.db is not None else default_db_path()
    store = Journal(path, readonly=readonly)
    if store.notice:
        print(f"pegboard: notice: {store.notice}", file=sys.stderr)
    return store


def _current(store: Journal) -> GameState:
    state = store.load()
    if state is None:
        raise GameCommandError(
            f"no match in {str(store.path)!r}: start one with 'pegboard game new'"
        )
    return state


def cmd_new(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game new``.

    Raises:
        PegboardError: bad names, variant or format; the database cannot be written.
    """
    from pegboard.engine.rules import Rules
    from pegboard.engine.view import render_view

    rules = Rules.for_variant(
        args.variant,
        muggins=args.muggins,
        muggins_in_play=args.muggins_in_play,
        starter_counts_in_play=args.starter_counts_in_play,
    )
    names = [n.strip() for n in args.players.split(",")] if args.players else None
    fmt = MatchFormat.parse(args.match) if args.match else None
    with _open(args) as store:
        state = store.new_match(rules, names, fmt)
        view = render_view(state)
        print(
            f"new match: {rules.variant.value}, {' v '.join(state.names)}, "
            f"{view.match.format.value}{', muggins' if rules.muggins else ''}"
            f"{', muggins in the play' if rules.muggins_in_play else ''}"
            f"{', starter counts in play' if rules.starter_counts_in_play else ''} "
            f"(journal {str(store.path)!r})",
            file=out,
        )
        print(view.prompt, file=out)
    return 0


def cmd_do(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game do COMMAND...``: each command is committed before it is reported.

    Raises:
        GameCommandError: a command was refused (those before it stay applied).
    """
    from pegboard.engine.commands import Cut, parse_command, random_cut
    from pegboard.engine.game import Phase
    from pegboard.engine.view import render_view

    rng = random.Random()
    with _open(args) as store:
        state = _current(store)
        for number, text in enumerate(args.commands, start=1):
            try:
                command = parse_command(text, state.names)
                if command == Cut(()) and state.phase is Phase.CUT:
                    # a random cut: drawn here, journalled as the concrete cards
                    command = random_cut(rng, state.rules.sides)
                state, events = store.do(command)
            except PegboardError as e:
                done = f"; the {number - 1} before it stay applied" if number > 1 else ""
                raise GameCommandError(f"command {number} {quote(text)} failed: {e}{done}") from e
            print(f"ok {state.command_text(command)}", file=out)
            for event in events:
                line = describe_event(state, event)
                if line:
                    print(f"  {line}", file=out)
        print(render_view(state).prompt, file=out)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game show [--json]``.

    Raises:
        GameCommandError: no match in the database.
    """
    from pegboard.engine.cards import format_cards
    from pegboard.engine.view import render_view

    with _open(args, readonly=True) as store:
        state = _current(store)
    view = render_view(state)
    if args.json:
        from pegboard.engine.odds import win_probability

        chances = win_probability(state)
        payload = view.to_dict() | {"win_probability": None if chances is None else list(chances)}
        print(json.dumps(payload), file=out)
        return 0
    names = view.names
    head = [view.variant, f"game {view.game}"]
    if view.deal:
        head.append(f"deal {view.deal}, {view.dealer_name} deals")
    if len(names) == 2 and view.match.format is not MatchFormat.SINGLE:
        points = " ".join(f"{n} {p}" for n, p in zip(names, view.match.game_points, strict=True))
        head.append(f"{view.match.format.value}: {points}")
    print(" · ".join(head), file=out)
    width = max(len(n) for n in names)
    for side in view.sides:
        mark = "*" if side.is_dealer else " "
        lurch = f" ({side.lurch})" if side.lurch not in (None, "none") else ""
        print(f"{mark} {side.name:<{width}} {side.score:>3}  rear {side.rear:>3}{lurch}", file=out)
    details = []
    if view.starter is not None:
        details.append(f"starter {view.starter}")
    if view.turn_name is not None:
        details.append(f"count {view.count}")
        if view.series:
            details.append(f"series {format_cards(view.series)}")
    if view.claim is not None:
        details.append(f"claim {view.claim}")
    if details:
        print("  " + " · ".join(details), file=out)
    if view.last is not None:
        calls = ", ".join(view.last.calls)
        print(
            f"  last: {view.last.name} pegged {view.last.points} ({view.last.source}): {calls}",
            file=out,
        )
    print(view.prompt, file=out)
    return 0


def describe_event(state: GameState, event: Event) -> str | None:
    """One event in words for the terminal; None for events not worth a line."""
    from pegboard.engine.cards import format_cards
    from pegboard.engine.events import (
        CardPlayed,
        Claimed,
        CutMade,
        DealStarted,
        GameStarted,
        GameWon,
        HandCounted,
        HandSkipped,
        MatchWon,
        Pegged,
        PlayEnded,
        Redone,
        SaidGo,
        Source,
        StarterTurned,
        Undone,
    )
    from pegboard.engine.game import Phase

    names = state.names
    match event:
        case Pegged(side=side, points=points, score=score, source=source, reason=reason):
            why = reason or source.value
            if source is Source.HAND and event.seat is not None:
                why = f"{state.seat_name(event.seat)}'s hand"
            elif source is Source.PLAY and event.seat is not None:
                items = ", ".join(i.kind.value for i in event.breakdown.items)
                why = f"{items} by {state.seat_name(event.seat)}"
            return f"{names[side]} pegs {points} for {why} -> {score}"
        case CutMade(cards=cards, dealer=dealer):
            if dealer is None:
                return f"cut {format_cards(cards)}: a tie, cut again"
            return f"cut {format_cards(cards)}: {state.seat_name(dealer)} deals first"
        case GameStarted(game=game, dealer=dealer):
            return f"game {game}: {state.seat_name(dealer)} deals first"
        case DealStarted(deal=deal, dealer=dealer):
            return f"deal {deal}: {state.seat_name(dealer)} deals"
        case StarterTurned(card=card):
            return f"starter {card}"
        case CardPlayed(seat=seat, card=card, count=count):
            return f"{state.seat_name(seat)} plays {card}: {count}"
        case SaidGo(seat=seat):
            return f"{state.seat_name(seat)} says go"
        case PlayEnded():
            return "the play is over"
        case Claimed(seat=seat, points=points):
            if state.phase is Phase.PLAY and seat is not None:
                return f"claim {points} for {state.seat_name(seat)}'s next card"
            whose = "the crib" if seat is None else f"{state.seat_name(seat)}'s hand"
            return f"claim {points} for {whose}"
        case HandCounted(seat=seat, cards=cards, breakdown=breakdown):
            whose = "the crib" if seat is None else f"{state.seat_name(seat)}'s hand"
            told = f"{whose} {format_cards(cards)}" if cards else whose  # no cards: by points
            return f"{told} is worth {breakdown.total}"
        case HandSkipped(seat=seat):
            whose = "the crib" if seat is None else f"{state.seat_name(seat)}'s hand"
            return f"{whose} is not counted"
        case GameWon(game=game, result=result):
            worth = "" if result.game_points is None else f" for {result.game_points}"
            scores = "-".join(str(s) for s in result.scores)
            return f"game {game} won by {names[result.winner]}{worth} ({scores})"
        case MatchWon(side=side):
            return f"the match is won by {names[side]}"
        case Undone(command=command):
            return f"undone: {state.command_text(command)}"
        case Redone(command=command):
            return f"redone: {state.command_text(command)}"
    return None
