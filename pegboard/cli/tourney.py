"""``pegboard tourney``: the director's commands for a tournament night, on the hub.

Every command names the night's database with ``--db`` (default ``tourney.db``). The commands
that change the night (``new``, ``enter``, ``import``, ``drop``, ``games``, ``boards``,
``seat``, ``result``, ``correct``, ``bracket``, ``move``, ``advance``) check the input on the
night as it stands and store one step, or print one line saying what was wrong and store
nothing. The ones that only look (``show``, ``standings``, ``card``, ``cut``, ``pots``,
``refused``, ``export``, ``print``, and ``bracket`` once it is drawn: ``cli.tourney_playoff``)
open the database read-only and write nothing to it (``export`` and ``print`` write only the
file they are asked for).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import random
from pathlib import Path
from typing import Any, TextIO

from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, words_of
from pegboard.cli.nightdb import now, open_night, read_night, step
from pegboard.cli.tourney_playoff import add_commands
from pegboard.errors import quote
from pegboard.i18n import NC_

__all__ = ["register"]

DEFAULT_DB = Path("tourney.db")

_HEADS = (
    NC_("tourney", "player"),
    NC_("tourney", "P"),
    NC_("tourney", "W"),
    NC_("tourney", "L"),
    NC_("tourney", "GP"),
    NC_("tourney", "spread"),
    NC_("tourney", "plus"),
)
"""The standings' column heads: games played, won, lost, game points, net spread, plus."""
_STEPS = (
    NC_("tiebreak", "games won"),
    NC_("tiebreak", "spread"),
    NC_("tiebreak", "plus points"),
    NC_("tiebreak", "head to head"),
    NC_("tiebreak", "playoff"),
)
"""The tie-break steps a line may be placed by (``tourney.standings.STEPS``), translated."""


def register(subparsers: Any) -> None:
    """Add ``tourney`` and its commands to the command line's subparsers."""
    fmt = DefaultsFormatter
    p = subparsers.add_parser(
        "tourney",
        help="run a tournament night: players, seating, results, standings, playoff",
        description="A club's tournament night (2 game points a win, 3 a skunk; ties broken by "
        "games won, net spread, plus points, head to head, then a one-game playoff).",
        formatter_class=fmt,
    )
    sub = p.add_subparsers(dest="tourney_command", required=True, metavar="COMMAND")

    def command(name: str, help_text: str) -> argparse.ArgumentParser:
        c: argparse.ArgumentParser = sub.add_parser(
            name, help=help_text, description=help_text, formatter_class=fmt
        )
        c.add_argument("--db", type=Path, default=DEFAULT_DB, help="the night's database")
        c.set_defaults(usage_error=c.error)
        return c

    c = command("new", "start a new night in a new database")
    c.add_argument("name", help="the night's name, e.g. 'Red Lion, 27 November'")
    c.add_argument("--games", type=int, required=True, help="games each player plays (1-30)")
    c.add_argument("--bye-spread", type=int, default=0, help="the spread a bye scores")
    c.set_defaults(handler=_cmd_new)
    c = command("enter", "enter players (before the next round is seated)")
    c.add_argument("names", nargs="+", metavar="NAME", help="one word each, e.g. Ann or Ann_B")
    c.set_defaults(handler=_cmd_enter)
    c = command(
        "import", "enter the players listed in a file (one a line, or a CSV's first column)"
    )
    c.add_argument("file", type=Path, help="the list; lines starting with # are skipped")
    c.set_defaults(handler=_cmd_import)
    c = command("drop", "take a player out of the rounds not seated yet")
    c.add_argument("name")
    c.set_defaults(handler=_cmd_drop)
    c = command("games", "change how many games the night has")
    c.add_argument("games", type=int)
    c.set_defaults(handler=_cmd_games)
    c = command("boards", "the boards that play tables 1, 2, ... (venue/board, as the league)")
    c.add_argument("boards", nargs="*", metavar="BOARD", help="e.g. red-lion/table-1")
    c.set_defaults(handler=_cmd_boards)
    c = command("seat", "seat the next round and print it")
    c.add_argument("--movement", action="store_true", help="the pub movement, not a draw")
    c.add_argument("--seed", type=int, default=None, help="the draw's seed (for a re-run)")
    c.set_defaults(handler=_cmd_seat)
    c = command("show", "print a round's seating and what is still playing (read-only)")
    c.add_argument("--round", type=int, default=None, help="the round (default: the last)")
    c.set_defaults(handler=_cmd_show)
    for name, helped in (
        ("result", "enter a table's result from a paper card"),
        ("correct", "change a table's result (recorded: who, when, why)"),
    ):
        c = command(name, helped)
        c.add_argument("round", type=int)
        c.add_argument("table", type=int)
        c.add_argument("winner", help="the winner's name (121)")
        c.add_argument("loser_score", type=int, metavar="SCORE", help="the loser's score")
        if name == "correct":
            c.add_argument("--who", required=True, help="who corrects it")
            c.add_argument("--why", required=True, help="why")
        c.set_defaults(handler=_cmd_result)
    c = command("standings", "print the standings (read-only)")
    c.add_argument("--json", action="store_true", help="print JSON")
    add_lang(c)
    c.set_defaults(handler=_cmd_standings)
    c = command("card", "print a player's scorecard (read-only)")
    c.add_argument("name")
    c.set_defaults(handler=_cmd_card)
    c = command("pots", "print the side pots: skunks, 24/28/29 hands, four of a kind (read-only)")
    c.set_defaults(handler=_cmd_pots)
    c = command("cut", "print the qualifiers (a quarter of the field) and the byes (read-only)")
    c.set_defaults(handler=_cmd_cut)
    add_commands(command)  # bracket, move, advance: the playoff (cli.tourney_playoff)
    c = command("print", "write the results and every scorecard (or one player's) as a PDF")
    c.add_argument("--out", type=Path, required=True, help="the PDF to write")
    c.add_argument(
        "--player",
        action="append",
        default=None,
        metavar="NAME",
        help="only this player's scorecard (again for more)",
    )
    c.add_argument("--paper", default="a4", choices=("a4", "letter"), help="the paper")
    add_lang(c)
    c.set_defaults(handler=_cmd_print)
    c = command("lock", "the tournament lock: every board shows no advice, odds or hints")
    c.add_argument("switch", choices=("on", "off"))
    c.set_defaults(handler=_cmd_lock)
    c = command("refused", "print what the boards sent that the night refused (read-only)")
    c.set_defaults(handler=_cmd_refused)
    c = command("export", "write the night as JSON, or the standings or games as CSV")
    c.add_argument("what", choices=("json", "standings", "games", "pots"), help="what to write")
    c.add_argument("--out", default="-", help="the file to write ('-': print it)")
    c.set_defaults(handler=_cmd_export)


def _cmd_new(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: a bad name, games or bye spread; the file exists."""
    from pegboard.league.tourney_store import TourneyStore

    store = TourneyStore.create(
        args.db, args.name, args.games, bye_spread=args.bye_spread, at=now()
    )
    store.close()
    print(f"new night {args.name!r}: {args.games} games, in {args.db}", file=out)
    return 0


def _cmd_enter(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: a name refused (those before it are entered)."""
    return _enter(args, args.names, out)


def _enter(args: argparse.Namespace, names: list[str], out: TextIO) -> int:
    from pegboard.tourney.night import TourneyError

    store = open_night(args)
    try:
        seen = set()
        for name in names:  # checked all first: one bad name enters nobody
            if name in seen:
                raise TourneyError(f"cannot enter {quote(name)}: named twice")
            seen.add(name)
        tourney = store.tourney
        from pegboard.tourney.steps import apply_step

        for name in names:
            tourney = apply_step(tourney, "enter", {"name": name})
        for name in names:
            store.add("enter", {"name": name}, at=now(), by="director")
        present = tourney.night.present(tourney.night.next_round)
    finally:
        store.close()
    print(f"entered {len(names)}; {len(present)} in the draw for the next round", file=out)
    return 0


def _cmd_import(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the file unreadable, or a name refused (nobody is entered)."""
    from pegboard.tourney.night import TourneyError

    try:
        text = args.file.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as e:
        raise TourneyError(f"cannot read {quote(str(args.file))}: not UTF-8 text") from e
    names = []
    for row in csv.reader(io.StringIO(text)):
        if row and row[0].strip() and not row[0].lstrip().startswith("#"):
            names.append(row[0].strip())
    if not names:
        raise TourneyError(f"no names in {quote(str(args.file))} (one a line, e.g. Ann)")
    return _enter(args, names, out)


def _cmd_drop(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no such player still in."""
    step(args, "drop", {"name": args.name})
    print(f"{args.name} is out of the rounds still to be seated", file=out)
    return 0


def _cmd_games(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: fewer than the rounds seated, or over 30."""
    step(args, "games", {"games": args.games})
    print(f"the night has {args.games} games", file=out)
    return 0


def _cmd_boards(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: a board twice, or not venue/board."""
    step(args, "boards", {"boards": list(args.boards)})
    for table, board in enumerate(args.boards, start=1):
        print(f"table {table}: {board}", file=out)
    return 0


def _cmd_seat(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the round before still playing, all games seated, too few."""
    from pegboard.tourney.night import seat
    from pegboard.tourney.steps import seating_payload

    store = open_night(args)
    try:
        night = seat(store.night, random.Random(args.seed), by_movement=args.movement)
        tourney = store.add("seat", seating_payload(night.rounds[-1]), at=now(), by="director")
    finally:
        store.close()
    number = len(tourney.night.rounds)
    _print_round(tourney.night, number, out)
    if args.movement and number == 1:
        print("the movement moves from round 1's drawn seats, from round 2 on", file=out)
    elif args.movement and not tourney.night.rounds[-1].movement:
        print(
            f"the movement cannot seat round {number} (it follows round 1's seats: the same "
            "players, every round since by the movement, until nobody has a new opponent): "
            "drawn instead",
            file=out,
        )
    return 0


def _print_round(night: Any, number: int, out: TextIO) -> None:
    seating = night.rounds[number - 1]
    how = "by the movement" if seating.movement else "drawn"
    print(f"round {number} of {night.games} ({how}):", file=out)
    for p in seating.pairings:
        result = night.final(number, p.table)
        board = f"  [{p.board}]" if p.board else ""
        done = f"  {result.winner} won, {result.loser_score}" if result else ""
        print(f"  table {p.table}: {p.first} v {p.second}, {p.first} cuts{board}{done}", file=out)
    if seating.bye is not None:
        print(f"  bye: {seating.bye}", file=out)
    if seating.repeats:
        print(f"  ({seating.repeats} pair(s) met before: no other seating was possible)", file=out)


def _cmd_show(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no such round, or the database."""
    from pegboard.tourney.night import TourneyError

    tourney = read_night(args)
    night = tourney.night
    number = len(night.rounds) if args.round is None else args.round
    if args.round is not None and not 1 <= number <= len(night.rounds):
        raise TourneyError(f"no round {number}: rounds 1 to {len(night.rounds)} are seated")
    print(f"{night.name}: {len(night.rounds)} of {night.games} rounds seated", file=out)
    if not night.rounds and args.round is None:
        present = night.present(1)
        print(f"{len(present)} entered: {', '.join(present)}", file=out)
        return 0
    _print_round(night, number, out)
    playing = night.playing(number)
    print(f"still playing: {', '.join(str(p.table) for p in playing) or 'none'}", file=out)
    return 0


def _cmd_result(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no such pairing, a name not at that table, a bad score, a
    duplicate (use correct), no who or why."""
    from pegboard.tourney.night import Result, TourneyError
    from pegboard.tourney.steps import correction_payload, result_payload

    store = open_night(args)
    try:
        pairing = store.night.pairing(args.round, args.table)
        if pairing is None or args.winner not in pairing.players:
            loser = ""
        else:
            loser = pairing.second if args.winner == pairing.first else pairing.first
        if pairing is not None and not loser:
            raise TourneyError(
                f"{quote(args.winner)} is not at round {args.round} table {args.table} "
                f"({pairing.first} v {pairing.second})"
            )
        result = Result(args.round, args.table, args.winner, loser, 121, args.loser_score)
        if args.handler is _cmd_result and args.tourney_command == "correct":
            from pegboard.tourney.night import Correction

            fix = Correction(result, args.who, now(), args.why)
            store.add("correct", correction_payload(fix), at=now(), by=args.who)
            said = "corrected"
        else:
            store.add("report", result_payload(result), at=now(), by="director")
            said = "recorded"
    finally:
        store.close()
    print(
        f"{said}: round {args.round} table {args.table}, {args.winner} 121-{args.loser_score}",
        file=out,
    )
    return 0


def _cmd_standings(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database."""
    from pegboard.tourney.standings import standings

    night = read_night(args).night
    lines = standings(night)
    if args.json:
        print(json.dumps([line.to_payload() for line in lines]), file=out)
        return 0
    tr = words_of(args)
    player, played, won, lost, points, spread, plus = (tr.pgettext("tourney", h) for h in _HEADS)
    width = max([len(x.name) for x in lines] + [len(player)])
    print(
        f"{'#':>4}  {player:<{width}}  {played:>3} {won:>3} {lost:>3} {points:>4} "
        f"{spread:>7} {plus:>5}",
        file=out,
    )
    for x in lines:
        place = f"{x.place}=" if x.playoff else f"{x.place} "
        mark = " *" if x.corrected else ""
        settled = f"  ({tr.pgettext('tiebreak', x.decided_by)})" if x.decided_by else ""
        print(
            f"{place:>4}  {x.name:<{width}}  {x.played:>3} {x.won:>3} {x.lost:>3} "
            f"{x.game_points:>4} {x.spread:>+7} {x.plus:>5}{mark}{settled}",
            file=out,
        )
    if not lines:
        print(tr.gettext("no games yet"), file=out)
    elif any(x.corrected for x in lines):
        print(
            tr.gettext("* a result on this card was corrected (see: pegboard tourney card)"),
            file=out,
        )
    return 0


def _cmd_card(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no such player, or the database."""
    from pegboard.tourney.night import TourneyError
    from pegboard.tourney.standings import scorecards

    cards = scorecards(read_night(args).night)
    card = cards.get(args.name)
    if card is None:
        raise TourneyError(f"no player {quote(args.name)} in the night")
    print(f"{card.name}: {card.game_points} game points, spread {card.spread:+}", file=out)
    print(" rnd tbl  opponent          score   GP  spread  total", file=out)
    for x in card.lines:
        if x.opponent is None:
            print(
                f"{x.round:>4}   -  bye{'':<30}{x.game_points:>2}  {x.spread:>+6}  "
                f"{x.total_points:>3} {x.total_spread:>+5}",
                file=out,
            )
            continue
        score = f"{x.score}-{x.against}"
        print(
            f"{x.round:>4} {x.table:>3}  {x.opponent:<16} {score:>7}  {x.game_points:>3}  "
            f"{x.spread:>+6}  {x.total_points:>3} {x.total_spread:>+5}  ({x.source})",
            file=out,
        )
        for c in x.corrections:
            print(f"          corrected by {c.who} at {c.when}: {c.why}", file=out)
    return 0


def _cmd_pots(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database."""
    from pegboard.tourney.pots import POTS, side_pots

    tourney = read_night(args)
    entries = side_pots(tourney.night, tourney.shown)
    for pot in POTS:
        won = [e for e in entries if e.pot == pot]
        print(f"{pot}: {len(won) or 'none'}", file=out)
        for e in won:
            when = f", {e.when}" if e.when else ""  # a result from paper has no board's time
            print(f"  {e.player}, round {e.round} table {e.table}{when}: {e.detail}", file=out)
    return 0


def _cmd_cut(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database."""
    from pegboard.tourney.bracket import byes_for, cut
    from pegboard.tourney.standings import standings

    night = read_night(args).night
    the_cut = cut(standings(night))
    q = len(the_cut.qualifiers)
    print(f"field {the_cut.field}: {q} qualify, {byes_for(q) if q else 0} bye(s)", file=out)
    for seed, name in enumerate(the_cut.qualifiers, start=1):
        bye = "  (bye)" if seed <= byes_for(q) else ""
        print(f"{seed:>4}  {name}{bye}", file=out)
    if the_cut.playoff:
        print(
            f"the cut needs a one-game playoff: {', '.join(the_cut.playoff)} "
            "(then: pegboard tourney bracket --order ...)",
            file=out,
        )
    return 0


def _cmd_print(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no such player, or the database; OSError: the file."""
    from pegboard.cli.lang import language_of
    from pegboard.tourney.night import TourneyError
    from pegboard.ui.sheet import Paper
    from pegboard.ui.sheetfiles import render_pdf_pages
    from pegboard.ui.tourneysheet import night_pages

    tourney = read_night(args)
    if args.player:
        known = {e.name for e in tourney.night.entrants}
        for name in args.player:
            if name not in known:
                raise TourneyError(f"no player {quote(name)} in the night")
    pages = night_pages(
        tourney,
        args.player,
        results=not args.player,
        paper=Paper.parse(args.paper),
        language=language_of(args),
    )
    if not pages:
        raise TourneyError("nothing to print yet: no player has a game or a bye")
    args.out.write_bytes(render_pdf_pages(pages))
    print(f"{args.out}: {len(pages)} page(s)", file=out)
    return 0


def _cmd_lock(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database."""
    step(args, "lock", {"on": args.switch == "on"})
    print(f"the tournament lock is {args.switch}", file=out)
    return 0


def _cmd_refused(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database."""
    store = open_night(args, readonly=True)
    try:
        refusals = store.refused()
    finally:
        store.close()
    for r in refusals:
        print(f"{r.at}  {r.source}: {r.reason}", file=out)
    if not refusals:
        print("nothing refused", file=out)
    return 0


def _cmd_export(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: the database; OSError: the file cannot be written."""
    from pegboard.tourney.export import (
        GAME_COLUMNS,
        POT_COLUMNS,
        STANDING_COLUMNS,
        game_rows,
        night_payload,
        pot_rows,
        standing_rows,
    )

    tourney = read_night(args)
    if args.what == "json":
        text = json.dumps(night_payload(tourney), indent=1, ensure_ascii=False) + "\n"
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        if args.what == "standings":
            writer.writerow(STANDING_COLUMNS)
            writer.writerows(standing_rows(tourney))
        elif args.what == "pots":
            writer.writerow(POT_COLUMNS)
            writer.writerows(pot_rows(tourney))
        else:
            writer.writerow(GAME_COLUMNS)
            writer.writerows(game_rows(tourney))
        text = buffer.getvalue()
    if args.out == "-":
        out.write(text)
    else:
        Path(args.out).write_text(text, encoding="utf-8")
    return 0
