"""``pegboard game new | do | show``: a whole match from a terminal or a script.

Every accepted command is committed to the journal (``pegboard/journal.py``) before its effect
is printed, so a script can trust each ``ok`` line. ``do`` takes one command per argument and
stops at the first one the game refuses: the commands before it stay applied, and the error
names which one failed. ``cut`` with no cards cuts at random (``random.Random``) and is
journalled as the cards drawn, so replaying gives the same game.

The text speaks ``--lang`` (``cli.lang``): the lines, the events and what the game expects next
(the engine's ``GameView.prompt`` in English, said again here from the state in another
language). The commands themselves (``play 5H``, ``go``, ``next``) and ``ok`` stay as they
are typed, in every language: they are the syntax a script writes and reads.

The module imports only what the parser needs; each handler imports the journal and the game
when it runs, so that ``pegboard score`` does not load them.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, language_of, value_words, words_of
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import DEFAULT_NAMES, Variant
from pegboard.errors import PegboardError, quote
from pegboard.i18n import NC_, Language, Translator, translator

if TYPE_CHECKING:
    from pegboard.engine.events import Event
    from pegboard.engine.game import GameState
    from pegboard.engine.scoring import ScoreItem
    from pegboard.journal import Journal

__all__ = ["describe_event", "register"]


class GameCommandError(PegboardError):
    """A command of ``pegboard game do`` failed; the message names which one."""


def register(subparsers: Any) -> None:
    """Add ``game new|do|show`` to the ``pegboard`` command line's subparsers."""
    fmt = DefaultsFormatter
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
        help="side names, comma-separated, one printable word each (default "
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
    add_db(p)
    add_lang(p)
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
    add_db(p)
    add_lang(p)
    p.set_defaults(handler=cmd_do)

    p = sub.add_parser(
        "show",
        help="print the current match",
        description="Print the read-only view of the current match.",
        formatter_class=fmt,
    )
    p.add_argument("--json", action="store_true", help="print the GameView as JSON")
    add_db(p)
    add_lang(p)
    p.set_defaults(handler=cmd_show)

    p = sub.add_parser(
        "repair",
        help="end each match that cannot be replayed at its last good entry",
        description="End each match whose journal cannot be replayed (a damaged entry, or one "
        "written by a later version) at its last entry that replays: the entries after it are "
        "deleted, after a copy of the whole journal is written beside it "
        "(NAME.before-repair-TIME). A journal with nothing to repair is left untouched.",
        formatter_class=fmt,
    )
    add_db(p)
    p.set_defaults(handler=cmd_repair)


def add_db(p: argparse.ArgumentParser, *, only_read: bool = False) -> None:
    """Add ``--db``, the journal at its default path, to a command that keeps or reads one.

    *only_read* says in the help that the command never writes the journal.
    """
    p.add_argument(
        "--db",
        type=Path,
        default=None,
        help=(
            "journal database (default: $PEGBOARD_DB, else $STATE_DIRECTORY/pegboard.db, "
            "else ~/.local/share/pegboard/pegboard.db)" + ("; only read" if only_read else "")
        ),
    )


def _open(args: argparse.Namespace, *, readonly: bool = False, create: bool = False) -> Journal:
    """The journal named by ``--db`` (or the default); a reader creates and changes nothing,
    and only *create* (``game new``) makes a journal that is not there yet.

    Raises:
        JournalError: no journal at the path (and not *create*), or it cannot be opened.
    """
    from pegboard.errors import JournalError
    from pegboard.journal import Journal, default_db_path
    from pegboard.journal.paths import PathKind, path_kind

    path = args.db if args.db is not None else default_db_path()
    if not create and path_kind(path, JournalError) is PathKind.MISSING:
        # a command refused on a journal that is not there must leave nothing behind
        raise JournalError(
            f"no journal at {str(path)!r}: start one with 'pegboard game new --db {path}'"
        )
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
    from pegboard.engine.game import GameState
    from pegboard.engine.names import check_new_names
    from pegboard.engine.rules import Rules
    from pegboard.engine.view import render_view

    rules = Rules.for_variant(
        args.variant,
        muggins=args.muggins,
        muggins_in_play=args.muggins_in_play,
        starter_counts_in_play=args.starter_counts_in_play,
    )
    names = [n.strip() for n in args.players.split(",")] if args.players else None
    if names is not None:
        check_new_names(names)  # a name is shown on the OLED, the pub page and the sheet
    fmt = MatchFormat.parse(args.match) if args.match else None
    # every refusal comes before the journal is opened: a refused command creates no file
    GameState.new(rules, names, fmt)
    tr = words_of(args)
    with _open(args, create=True) as store:
        state = store.new_match(rules, names, fmt)
        view = render_view(state)
        extras = [
            tr.gettext(", muggins") if rules.muggins else "",
            tr.gettext(", muggins in the play") if rules.muggins_in_play else "",
            tr.gettext(", starter counts in play") if rules.starter_counts_in_play else "",
        ]
        said = tr.gettext("new match: {variant}, {sides}, {format}{extras} (journal {path})")
        print(
            said.format(
                variant=value_words(tr, rules.variant.value),
                sides=_sides(tr, state.names),
                format=value_words(tr, view.match.format.value),
                extras="".join(extras),
                path=repr(str(store.path)),
            ),
            file=out,
        )
        print(prompt_of(state, tr), file=out)
    return 0


def _sides(tr: Translator, names: tuple[str, ...]) -> str:
    """The sides as one line: "Ann v Bob" ("Ann gegen Bob")."""
    return tr.pgettext("sides", " v ").join(names)


def cmd_do(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game do COMMAND...``: each command is committed before it is reported.

    Raises:
        GameCommandError: a command was refused (those before it stay applied).
    """
    from pegboard.engine.commands import Cut, parse_command, random_cut
    from pegboard.engine.game import Phase

    rng = random.Random()
    language = language_of(args)
    tr = translator(language)
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
                line = describe_event(state, event, language)
                if line:
                    print(f"  {line}", file=out)
        print(prompt_of(state, tr), file=out)
    return 0


def cmd_repair(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game repair``.

    Raises:
        JournalError: no journal at the path, or it cannot be read, copied or written.
    """
    with _open(args) as store:
        copy, repaired, hopeless = store.repair()
    for bad in repaired:
        print(f"match {bad.match_id}: ended before journal entry {bad.seq} {bad.entry!r}", file=out)
    for bad in hopeless:
        print(f"pegboard: warning: {bad}", file=sys.stderr)
    if copy is None:
        print(f"nothing to repair in {str(store.path)!r}; it was left as it is", file=out)
    else:
        print(f"the journal before the repair was kept as {str(copy)!r}", file=out)
    return 0


def cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard game show [--json]``.

    Raises:
        GameCommandError: no match in the database.
    """
    from pegboard.engine.cards import format_cards
    from pegboard.engine.view import render_view
    from pegboard.journal import read_steadily

    # the match and the tournament lock that holds (a league board's journal: journal.marks)
    state, lock = read_steadily(
        lambda: _open(args, readonly=True), lambda store: (_current(store), store.locked())
    )
    view = render_view(state)
    if args.json:
        from pegboard.engine.odds import win_probability

        chances = None if lock is not None else win_probability(state)  # none under the lock
        payload = view.to_dict() | {"win_probability": None if chances is None else list(chances)}
        print(json.dumps(payload | {"locked": lock is not None}), file=out)
        return 0
    tr = words_of(args)
    t = tr.gettext
    names = view.names
    head = [value_words(tr, view.variant), t("game {game}").format(game=view.game)]
    if view.deal:
        head.append(t("deal {deal}, {name} deals").format(deal=view.deal, name=view.dealer_name))
    if len(names) == 2 and view.match.format is not MatchFormat.SINGLE:
        # the match so far, named so that it does not read as the game's score: best of three
        # counts game points, first to two the games won (as the score sheet says it)
        match = view.match
        if match.format in (MatchFormat.FIRST_TO_TWO, MatchFormat.FIRST_TO_THREE):
            said, counts = t("{format}: games won {standing}"), match.games_won
        else:
            said, counts = t("{format}: game points {standing}"), match.game_points
        standing = ", ".join(f"{n} {c}" for n, c in zip(names, counts, strict=True))
        head.append(said.format(format=value_words(tr, match.format.value), standing=standing))
    print(" · ".join(head), file=out)
    width = max(len(n) for n in names)
    for side in view.sides:
        mark = "*" if side.is_dealer else " "
        lurch = ""
        if side.lurch not in (None, "none"):
            lurch = f" ({value_words(tr, side.lurch)})"
        rear = t("rear {score}").format(score=f"{side.rear:>3}")
        print(f"{mark} {side.name:<{width}} {side.score:>3}  {rear}{lurch}", file=out)
    details = []
    if view.starter is not None:
        details.append(t("starter {card}").format(card=view.starter))
    if view.turn_name is not None:
        details.append(t("count {count}").format(count=view.count))
        if view.series:
            details.append(t("series {cards}").format(cards=format_cards(view.series)))
    if view.claim is not None:
        details.append(t("claim {points}").format(points=view.claim))
    if details:
        print("  " + " · ".join(details), file=out)
    if view.last is not None:
        from pegboard.i18n.calls import peg_calls

        last = view.last
        said = t("last: {name} pegged {points} ({source}): {calls}").format(
            name=last.name,
            points=last.points,
            source=tr.pgettext("source", _SOURCES.get(last.source, last.source)),
            calls=", ".join(peg_calls(last, tr.language)),
        )
        print(f"  {said}", file=out)
    if lock is not None:
        since = datetime.fromisoformat(lock.at).astimezone().strftime("%H:%M")
        print(t("tournament lock on since {time} ({night})").format(time=since, night=lock.text),
              file=out)  # fmt: skip
    print(prompt_of(state, tr), file=out)
    return 0


_SOURCES = {
    "heels": NC_("source", "heels"),
    "play": NC_("source", "play"),
    "hand": NC_("source", "hand"),
    "crib": NC_("source", "crib"),
    "muggins": NC_("source", "muggins"),
    "three for last": NC_("source", "three for last"),
    "peg": NC_("source", "peg"),
}
"""Where a peg's points came from (``Source``'s values), as a line says it."""


def prompt_of(state: GameState, tr: Translator) -> str:
    """What the game expects next, in *tr*'s language: English is the view's own prompt."""
    from pegboard.engine.game import Phase, show_order
    from pegboard.engine.view import render_view

    if tr.language is Language.ENGLISH:
        return render_view(state).prompt
    t = tr.gettext
    rules, table, names = state.rules, state.table, state.names
    dealer = state.seat_name(table.dealer) if table.dealer is not None else ""
    match table.phase:
        case Phase.CUT:
            again = t("a tie: cut again") if table.cut else t("cut for the first deal")
            words = t("{again}: one card per side ({names}), e.g. cut 9H 3C")
            return words.format(again=again, names=", ".join(names))
        case Phase.STARTER:
            words = t(
                "deal {deal}: {name} deals; enter the starter (starter 5H), or next to skip it"
            )
            return words.format(deal=table.deal, name=dealer)
        case Phase.PLAY:
            if table.play is None or table.play.turn is None:
                words = t("the play: peg by hand (peg {side} 2); next ends the play")
                return words.format(side=names[0])
            words = t(
                "the play: {name} to lay, count {count} (play 5H, go, peg {side} 2); "
                "next ends the play"
            )
            who = state.seat_name(table.play.turn)
            return words.format(name=who, count=table.play.count, side=names[0])
        case Phase.SHOW:
            assert table.dealer is not None
            seat = show_order(rules, table.dealer)[table.show_step]
            if seat is None:
                words = t("the show: count {name}'s crib (crib 5H 5D 5S JC), or next to skip it")
                return words.format(name=dealer)
            claim = "claim 8, " if rules.muggins and table.claim is None else ""
            words = t(
                "the show: count {name}'s hand ({claim}show, show 5H 5D 5S JC), or next to skip"
            )
            return words.format(name=state.seat_name(seat), claim=claim)
        case Phase.GAME_OVER:
            result = table.finished[-1].result
            worth = result.game_points
            points = ""
            if worth is not None:
                points = tr.ngettext(" ({n} game point)", " ({n} game points)", worth)
                points = points.format(n=worth)
            words = t("game over: {name} won{points}; next starts game {game}")
            return words.format(name=names[result.winner], points=points, game=table.game + 1)
        case Phase.MATCH_OVER:
            winner = table.match.winner
            assert winner is not None
            return t("match over: {name} won the match").format(name=names[winner])
    return render_view(state).prompt


def describe_event(
    state: GameState, event: Event, language: Language = Language.ENGLISH
) -> str | None:
    """One event in words for the terminal, in *language*; None for events not worth a line."""
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
    from pegboard.engine.scoring import play_called

    tr = translator(language)
    t = tr.gettext
    names = state.names

    def whose(seat: int | None) -> str:
        if seat is None:
            return tr.pgettext("whose", "the crib")
        return tr.pgettext("whose", "{name}'s hand").format(name=state.seat_name(seat))

    match event:
        case Pegged(side=side, points=points, score=score, source=source, reason=reason):
            name = names[side]
            if source is Source.PLAY and event.seat is not None:
                items = ", ".join(_play_item(i, language) for i in play_called(event.breakdown))
                words = t("{name} pegs {points} for {items} by {seat} -> {score}")
                seat = state.seat_name(event.seat)
                return words.format(name=name, points=points, items=items, seat=seat, score=score)
            if source is Source.HEELS:  # the document's words: "zwei für die Hacken"
                return t("{name} pegs two for his heels -> {score}").format(name=name, score=score)
            if source is Source.HAND and event.seat is not None:
                why = whose(event.seat)
            else:
                why = reason or tr.pgettext("source", _SOURCES.get(source.value, source.value))
            words = t("{name} pegs {points} for {why} -> {score}")
            return words.format(name=name, points=points, why=why, score=score)
        case CutMade(cards=cards, dealer=dealer):
            if dealer is None:
                return t("cut {cards}: a tie, cut again").format(cards=format_cards(cards))
            words = t("cut {cards}: {name} deals first")
            return words.format(cards=format_cards(cards), name=state.seat_name(dealer))
        case GameStarted(game=game, dealer=dealer):
            words = t("game {game}: {name} deals first")
            return words.format(game=game, name=state.seat_name(dealer))
        case DealStarted(deal=deal, dealer=dealer):
            return t("deal {deal}: {name} deals").format(deal=deal, name=state.seat_name(dealer))
        case StarterTurned(card=card):
            return t("starter {card}").format(card=card)
        case CardPlayed(seat=seat, card=card, count=count):
            words = t("{name} plays {card}: {count}")
            return words.format(name=state.seat_name(seat), card=card, count=count)
        case SaidGo(seat=seat):
            return t("{name} says go").format(name=state.seat_name(seat))
        case PlayEnded():
            return t("the play is over")
        case Claimed(seat=seat, points=points):
            if state.phase is Phase.PLAY and seat is not None:
                words = t("claim {points} for {name}'s next card")
                return words.format(points=points, name=state.seat_name(seat))
            return t("claim {points} for {whose}").format(points=points, whose=whose(seat))
        case HandCounted(seat=seat, cards=cards, breakdown=breakdown):
            if cards:
                words = t("{whose} {cards} is worth {total}")
                return words.format(whose=whose(seat), cards=format_cards(cards),
                                    total=breakdown.total)  # fmt: skip
            # no cards: told by its points
            return t("{whose} is worth {total}").format(whose=whose(seat), total=breakdown.total)
        case HandSkipped(seat=seat):
            return t("{whose} is not counted").format(whose=whose(seat))
        case GameWon(game=game, result=result):
            worth = ""
            if result.game_points is not None:
                worth = t(" for {points}").format(points=result.game_points)
            scores = "-".join(str(s) for s in result.scores)
            words = t("game {game} won by {name}{worth} ({scores})")
            return words.format(game=game, name=names[result.winner], worth=worth, scores=scores)
        case MatchWon(side=side):
            return t("the match is won by {name}").format(name=names[side])
        case Undone(command=command):
            return t("undone: {what}").format(what=state.command_text(command))
        case Redone(command=command):
            return t("redone: {what}").format(what=state.command_text(command))
    return None


def _play_item(item: ScoreItem, language: Language) -> str:
    """One called item of the play as an event's line names it: its name ("pair royal"), or in
    another language the call ("6 für Drilling")."""
    if language is Language.ENGLISH:
        from pegboard.engine.scoring import play_name

        return play_name(item)
    from pegboard.i18n.calls import play_call

    return play_call(item.kind, item.points, len(item.cards), language)
