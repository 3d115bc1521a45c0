"""``pegboard sheet``: a game's paper score sheet as PDF, PNG or SVG.

``pegboard sheet [--db PATH] [GAME] --out FILE.pdf|.png|.svg [--venue TEXT] [--paper a4|letter]
[--force] [--lang en|de]``. GAME is the last finished game by default (else the running one), a
game number of the latest match, or ``MATCH:GAME`` as ``pegboard history`` lists them. The
journal is only read; the sheet is written to a new file (``--force`` to replace one), whole or
not at all. In German the sheet is the German document's "Cribbage Zählbogen".

The module imports only what the parser needs: the journal and Pillow load in the handler.
"""

from __future__ import annotations

import argparse
import os
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.game import add_db
from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, language_of
from pegboard.errors import PegboardError, quote

if TYPE_CHECKING:
    from pegboard.engine.history import GameHistory, MatchHistory
    from pegboard.journal import Journal

__all__ = ["SheetCommandError", "check_venue", "pick_game", "register"]

FORMATS = (".pdf", ".png", ".svg")


class SheetCommandError(PegboardError, ValueError):
    """A ``pegboard sheet`` argument that names no game or no file the sheet can be written to."""


def register(subparsers: Any) -> None:
    """Add ``sheet`` to the ``pegboard`` command line's subparsers."""
    p = subparsers.add_parser(
        "sheet",
        help="a game's score sheet as PDF, PNG or SVG",
        description="The score sheet of a finished (or running) game, laid out like a paper "
        "cribbage score sheet: venue and date, the players, a column of holes in fives to the "
        "target with each side's score after every deal, the deals and their pegs, the totals, "
        "the winner, game points and lurch. Reads the journal only.",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument(
        "game",
        nargs="?",
        default=None,
        metavar="GAME",
        help="N (game N of the latest match) or MATCH:GAME (default: the last finished game, "
        "else the running one)",
    )
    p.add_argument(
        "--out",
        type=Path,
        required=True,
        metavar="FILE",
        help="the sheet to write: FILE.pdf, FILE.png or FILE.svg",
    )
    p.add_argument("--venue", default="", help="tournament or venue (default: a line to fill in)")
    p.add_argument("--paper", default="a4", choices=["a4", "letter"], help="paper size")
    p.add_argument("--force", action="store_true", help="replace FILE if it exists")
    add_db(p, only_read=True)
    add_lang(p)
    p.set_defaults(handler=cmd_sheet)


def pick_game(matches: list[MatchHistory], spec: str | None) -> tuple[MatchHistory, GameHistory]:
    """The game *spec* names among *matches* (oldest match first), with its match.

    None: the last finished game of the journal, else the running game. ``N``: game N of the
    latest match (finished or running). ``M:N``: game N of match M.

    Raises:
        SheetCommandError: *spec* is not N or M:N, or names no game in the journal.
    """
    if not matches:
        raise SheetCommandError("no games in the journal yet (start one with 'pegboard game new')")
    if spec is None:
        for match in reversed(matches):
            if match.games:
                return match, match.games[-1]
        for match in reversed(matches):
            if match.current is not None:
                return match, match.current
        raise SheetCommandError("no game in the journal has started yet (no cut was made)")
    text = spec.strip()
    match_text, _, game_text = text.rpartition(":")
    if not game_text.isdigit() or (match_text and not match_text.isdigit()) or len(text) > 20:
        raise SheetCommandError(
            f"game {quote(spec)} is not a game (expected N for game N of the latest match, or "
            "MATCH:GAME as 'pegboard history' lists them, e.g. 3:2)"
        )
    chosen = matches[-1]
    if match_text:
        found = [m for m in matches if m.match_id == int(match_text)]
        if not found:
            known = ", ".join(str(m.match_id) for m in matches[-5:])
            raise SheetCommandError(f"no match {int(match_text)} in the journal (latest: {known})")
        chosen = found[0]
    number = int(game_text)
    games = [*chosen.games, *(() if chosen.current is None else (chosen.current,))]
    for game in games:
        if game.game == number:
            return chosen, game
    have = ", ".join(str(g.game) for g in games) or "none started"
    raise SheetCommandError(f"no game {number} in match {chosen.match_id} (games: {have})")


def _matches_for(store: Journal, spec: str | None) -> list[MatchHistory]:
    """The few matches *spec* may name, oldest first, each replayed alone (never the whole
    journal): the latest match, and for the default the newest final match with a finished
    game; for ``M:N`` match M (the last five when there is none, for the message).

    Raises:
        SheetCommandError: the match the sheet needs cannot be replayed.
        JournalError: the journal cannot be read.
    """
    from pegboard.cli.history import warn_left_out
    from pegboard.journal import LeftOut

    def replayed(match_id: int | None) -> MatchHistory | None:
        match = store.match_history(match_id)
        if isinstance(match, LeftOut):
            raise SheetCommandError(str(match))
        return match

    latest = store.match_history(None)
    if isinstance(latest, LeftOut):
        warn_left_out([latest])
        latest = None
    if latest is None and spec is not None and ":" not in spec:
        latest = replayed(None)  # game N of the latest match: its own message
    wanted: list[int | None] = []
    match_text = (spec or "").strip().rpartition(":")[0]
    if spec is None and (latest is None or not latest.games):
        wanted.append(store.last_final_with_games())
    elif (
        match_text.isdigit()
        and len(match_text) <= 18
        and (latest is None or int(match_text) != latest.match_id)
    ):
        found = replayed(int(match_text))
        if found is not None:
            return [found] if latest is None else [found, latest]
        ids = store.latest_match_ids(5)
        wanted += [i for i in ids if latest is None or i != latest.match_id]
    chosen = [m for i in wanted if i is not None and (m := replayed(i)) is not None]
    return sorted([*chosen, *([] if latest is None else [latest])], key=lambda m: m.match_id)


def check_venue(text: str) -> str:
    """*text* itself, if it is one line of printable UTF-8 text for the sheet's header.

    Raises:
        SheetCommandError: *text* is not valid UTF-8, too long, or has a control character (a
            newline, a tab, U+0001) or another character that cannot be printed.

    >>> check_venue("The Red Lion")
    'The Red Lion'
    >>> check_venue("Red\\nLion")
    Traceback (most recent call last):
    ...
    pegboard.cli.sheet.SheetCommandError: --venue 'Red\\nLion' cannot be printed: U+000A at character 4 is a control character (expected one line of printable text, e.g. 'The Red Lion')
    """  # noqa: E501
    from pegboard.engine.cards import check_text

    check_text(text, "--venue", SheetCommandError)
    for at, ch in enumerate(text, 1):
        kind = unicodedata.category(ch)
        # control characters and line breaks cannot be drawn, and most are not even XML;
        # U+FFFE and U+FFFF are not characters at all
        if kind in ("Cc", "Zl", "Zp") or ch in "\ufffe\uffff":
            what = "a control character" if kind == "Cc" else "not printable"
            raise SheetCommandError(
                f"--venue {quote(text)} cannot be printed: U+{ord(ch):04X} at character {at} is "
                f"{what} (expected one line of printable text, e.g. 'The Red Lion')"
            )
    return text


def _check_out(path: Path, force: bool) -> str:
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise SheetCommandError(
            f"--out {quote(str(path))} has no known suffix (expected FILE.pdf, FILE.png or "
            "FILE.svg)"
        )
    from pegboard.journal.paths import PathKind, path_kind

    # asked once whole: a name too long, or a file where a folder should be, is one line
    kind = path_kind(path, SheetCommandError, what="--out ")
    if kind is PathKind.OTHER and path.is_dir():
        raise SheetCommandError(f"--out {quote(str(path))} is a folder (expected a file name)")
    if kind is not PathKind.MISSING and not force:
        raise SheetCommandError(
            f"--out {quote(str(path))} exists; it was left as it is (add --force to replace it)"
        )
    if not path.parent.is_dir():
        raise SheetCommandError(f"--out {quote(str(path))}: no folder {quote(str(path.parent))}")
    return suffix


def cmd_sheet(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard sheet``.

    Raises:
        SheetCommandError: a bad GAME, an --out with an unknown suffix or that exists, a
            --venue that cannot be printed.
        JournalError: no journal at the path, or not a pegboard journal.
    """
    from pegboard.i18n import translator
    from pegboard.journal import Journal, default_db_path, read_steadily
    from pegboard.ui.sheet import Paper, layout_sheet
    from pegboard.ui.sheetfiles import render_pdf, render_png, render_svg

    path: Path = args.out
    venue = check_venue(args.venue)
    suffix = _check_out(path, args.force)
    db = args.db if args.db is not None else default_db_path()
    matches = read_steadily(
        lambda: Journal(db, readonly=True), lambda store: _matches_for(store, args.game)
    )
    match, game = pick_game(matches, args.game)
    language = language_of(args)
    paper = Paper.parse(args.paper)
    drawing = layout_sheet(game, venue=venue, paper=paper, match=match, language=language)
    if suffix == ".svg":
        data = render_svg(drawing).encode("utf-8")
    elif suffix == ".png":
        data = render_png(drawing)
    else:
        data = render_pdf(drawing)
    _write_whole(path, data, force=args.force)
    tr = translator(language)
    state = tr.gettext("finished") if game.result is not None else tr.gettext("in progress")
    said = tr.ngettext(
        "wrote {path}: match {match} game {game} ({state}), {sides}, {deals} deal",
        "wrote {path}: match {match} game {game} ({state}), {sides}, {deals} deals",
        len(game.deals),
    )
    out.write(
        said.format(
            path=repr(str(path)),
            match=game.match_id,
            game=game.game,
            state=state,
            sides=tr.pgettext("sides", " v ").join(game.names),
            deals=len(game.deals),
        )
        + "\n"
    )
    return 0


def _write_whole(path: Path, data: bytes, *, force: bool) -> None:
    """Write *data* to *path* whole: a hidden draft beside it, then linked (or, with *force*,
    renamed) into place, so a failure never leaves half a sheet nor harms an existing file.

    Raises:
        SheetCommandError: the file cannot be written, or appeared meanwhile without *force*.
    """
    draft = path.with_name(f".{path.name}.new-{os.getpid()}")
    shown = quote(str(path))
    try:
        draft.write_bytes(data)
        if force:
            os.replace(draft, path)
        else:
            try:
                os.link(draft, path)
            except FileExistsError:
                raise SheetCommandError(
                    f"--out {shown} appeared meanwhile; it was left as it is"
                ) from None
            except OSError:  # no hard links (e.g. FAT): rename, having checked just now
                if path.exists():
                    raise SheetCommandError(
                        f"--out {shown} appeared meanwhile; it was left as it is"
                    ) from None
                os.rename(draft, path)
    except OSError as e:
        raise SheetCommandError(f"cannot write {shown}: {e.strerror or e}") from e
    finally:
        draft.unlink(missing_ok=True)
