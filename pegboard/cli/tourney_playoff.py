"""``pegboard tourney bracket``, ``move`` and ``advance``: the playoff, played on the boards.

``bracket`` draws the bracket from the cut (or ``--order``) with the boards the playoff is
played on (``--boards``, default: the night's boards in order; ``tourney.playoff`` says which
match goes to which board), and once it is drawn prints it read-only: every match, its board,
the games the boards counted so far, its winner and any correction. ``move`` puts a match on
another of the night's boards (a board that broke, a table wanted free). ``advance`` enters a
match's winner by hand (a match played on paper, or decided otherwise), stored as the
director's step with when, like every step of the night; a match that has its winner (from
its board's games or by hand) is changed only with ``--who`` and ``--why``: a recorded
correction, refused once the next match has a game counted or a winner.
"""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from pegboard.cli.nightdb import now, open_night, read_night, step
from pegboard.errors import quote

__all__ = ["add_commands"]


def add_commands(command: Any) -> None:
    """Add ``bracket``, ``move`` and ``advance`` through *command* (name, help) -> parser."""
    c = command(
        "bracket",
        "draw the playoff bracket from the qualifiers; once drawn, print it with its games",
    )
    c.add_argument(
        "--best-of", type=int, default=None, choices=(3, 5), help="games a match (default 3)"
    )
    c.add_argument(
        "--order",
        default=None,
        metavar="NAME,NAME,...",
        help="the qualifiers in order, after a playoff at the cut (default: the standings)",
    )
    c.add_argument(
        "--boards",
        default=None,
        metavar="BOARD,BOARD,...",
        help="the boards the matches are played on, in order ('' for none: played on paper; "
        "default: the night's boards)",
    )
    c.set_defaults(handler=_cmd_bracket)
    c = command("move", "play a playoff match on another of the night's boards")
    c.add_argument("round", type=int)
    c.add_argument("match", type=int)
    c.add_argument("board", help="e.g. club/b7")
    c.set_defaults(handler=_cmd_move)
    c = command(
        "advance",
        "enter a playoff match's winner by hand, or change it (with --who and --why: recorded)",
    )
    c.add_argument("round", type=int)
    c.add_argument("match", type=int)
    c.add_argument("winner")
    c.add_argument("--who", default=None, help="who corrects a match that has its winner")
    c.add_argument("--why", default=None, help="why")
    c.set_defaults(handler=_cmd_advance)


def _cmd_bracket(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: a playoff at the cut unsettled, --order not the qualifiers,
    --boards not the night's, or the bracket drawn already."""
    from pegboard.tourney.bracket import cut, cut_size
    from pegboard.tourney.night import TourneyError
    from pegboard.tourney.standings import standings
    from pegboard.tourney.steps import night_boards

    drawing = (args.best_of, args.order, args.boards) != (None, None, None)
    tourney = read_night(args)
    if tourney.bracket is not None:
        if drawing:
            raise TourneyError(
                "the playoff bracket is drawn already (move a match with 'pegboard tourney "
                "move', enter a winner with 'pegboard tourney advance')"
            )
        print_bracket(tourney, out)
        return 0
    store = open_night(args)
    try:
        night = store.night
        lines = standings(night)
        the_cut = cut(lines)
        if args.order is not None:
            order = [n.strip() for n in args.order.split(",") if n.strip()]
            known = {e.name for e in night.entrants}
            wrong = [n for n in order if n not in known]
            if wrong or len(order) != cut_size(len(lines)) or len(set(order)) != len(order):
                raise TourneyError(
                    f"--order must name the {cut_size(len(lines))} qualifier(s), each once, got "
                    f"{quote(args.order)}" + (f" ({', '.join(wrong)} not in it)" if wrong else "")
                )
        elif the_cut.playoff:
            raise TourneyError(
                f"the cut needs a one-game playoff between {', '.join(the_cut.playoff)} first; "
                "then give the qualifiers in order with --order"
            )
        else:
            order = list(the_cut.qualifiers)
        if args.boards is None:
            boards = night_boards(night)
        else:
            boards = [b.strip() for b in args.boards.split(",") if b.strip()]
        payload = {"qualifiers": order, "best_of": args.best_of or 3, "boards": boards}
        tourney = store.add("bracket", payload, at=now(), by="director")
    finally:
        store.close()
    print_bracket(tourney, out)
    return 0


def print_bracket(tourney: Any, out: TextIO) -> None:
    """Every match of *tourney*'s bracket: its players, length, board, games and winner."""
    from pegboard.tourney.playoff import match_boards, score

    boards = match_boards(tourney)
    for m in tourney.bracket.matches:
        high, low = m.high or "?", m.low or ("bye" if m.is_bye else "?")
        board = boards.get((m.round, m.slot))
        on = f" on {board}" if board and not m.is_bye else ""
        games = score(tourney, m)
        played = f": {games}" if games else ""
        won = f"  -> {m.winner}" if m.winner else ""
        print(
            f"round {m.round} match {m.slot + 1}: {high} v {low} (best of {m.best_of}){on}"
            f"{played}{won}",
            file=out,
        )
        for fix in tourney.fixes:
            if (fix.round, fix.slot) == (m.round, m.slot):
                print(
                    f"  corrected to {fix.winner} by {fix.who} at {fix.when}: {fix.why}", file=out
                )
    if tourney.bracket.champion:
        print(f"champion: {tourney.bracket.champion}", file=out)


def _cmd_move(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no bracket, no such match, decided, a board not the night's."""
    payload = {"round": args.round, "slot": args.match - 1, "board": args.board}
    tourney = step(args, "playoff_board", payload)
    print_bracket(tourney, out)
    return 0


def _cmd_advance(args: argparse.Namespace, out: TextIO) -> int:
    """Raises: PegboardError: no bracket, no such match, a winner not in it; a correction
    without who or why, or of a match whose next one has started."""
    from pegboard.tourney.night import TourneyError

    store = open_night(args)
    try:
        payload = {"round": args.round, "slot": args.match - 1, "winner": args.winner}
        bracket = store.tourney.bracket
        match = None if bracket is None else bracket.match(args.round, args.match - 1)
        if args.who is None and args.why is None:
            if match is not None and match.winner is not None and not match.is_bye:
                raise TourneyError(
                    f"playoff round {args.round} match {args.match} was won by {match.winner} "
                    "already (change it with --who and --why: a recorded correction)"
                )
            tourney = store.add("advance", payload, at=now(), by="director")
        else:
            when = now()
            fix = payload | {"who": args.who or "", "why": args.why or "", "when": when}
            tourney = store.add("playoff_correct", fix, at=when, by=args.who or "director")
    finally:
        store.close()
    print_bracket(tourney, out)
    return 0
