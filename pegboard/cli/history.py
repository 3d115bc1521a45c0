"""``pegboard history``: the journal's matches and finished games (``stats players``: ``stats.py``).

Both commands only read: the journal is opened with ``readonly=True``, so they create, write
and rename nothing (no ``-wal``/``-shm`` beside it either). They read the journal's stored
summaries of its final matches (``journal.summaries``) and replay only the latest match, so
their cost does not grow with the history; ``stats players`` merges the stored totals with the
latest match's. A match that cannot be replayed is named once on stderr and left out. This
module only filters and formats the figures as text, JSON or CSV. The text speaks ``--lang``;
JSON and CSV are the same in every language.

``history`` lists the newest matches first: the text the newest ``--limit`` (20) and a last line
saying how many older ones there are; ``--all`` lists every one. JSON and CSV are exports:
every match unless ``--limit`` is given.

The module imports only what the parser needs; the handlers import the journal when they run.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from datetime import UTC, date, datetime, time
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.game import add_db
from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, value_words, words_of
from pegboard.errors import PegboardError, quote
from pegboard.i18n import Translator

if TYPE_CHECKING:
    from pegboard.engine.listing import GameListing as GameHistory
    from pegboard.engine.listing import MatchListing as MatchHistory
    from pegboard.journal import Journal

__all__ = ["HistoryCommandError", "parse_since", "register", "warn_left_out"]


class HistoryCommandError(PegboardError, ValueError):
    """An option of ``pegboard history`` or ``stats players`` that means nothing (a bad date)."""


def _add_format(p: argparse.ArgumentParser) -> None:
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON")
    form.add_argument("--csv", action="store_true", help="print CSV (one row a game / player)")
    add_lang(p)


def register(subparsers: Any) -> None:
    """Add ``history`` to the ``pegboard`` command line's subparsers."""
    p = subparsers.add_parser(
        "history",
        help="finished matches and games from the journal",
        description="Matches and games from the journal, newest first: date, variant, sides, "
        "final scores, winner, game points, lurch or double skunk, and the match result. "
        "The text lists the newest 20 matches (--limit) and says how many older ones there "
        "are; --all lists every one. --json and --csv list every match unless --limit is "
        "given. Reads the journal only.",
        formatter_class=DefaultsFormatter,
    )
    p.add_argument(
        "--player",
        default=None,
        metavar="NAME",
        help="only matches with this side, or a partnership with this member (Ann+Cat)",
    )
    p.add_argument(
        "--since",
        default=None,
        metavar="YYYY-MM-DD",
        help="only games finished on or after this day (local time)",
    )
    many = p.add_mutually_exclusive_group()
    many.add_argument(
        "--limit",
        type=_positive,
        default=None,
        metavar="N",
        help="only the newest N matches (default: 20 in the text, every match in JSON and CSV)",
    )
    many.add_argument("--all", action="store_true", help="every match, however many")
    add_db(p, only_read=True)
    _add_format(p)
    p.set_defaults(handler=cmd_history)


TEXT_LIMIT = 20
"""How many matches ``pegboard history``'s text lists unless told (newest first)."""


def _positive(text: str) -> int:
    """``--limit``'s number.

    Raises:
        argparse.ArgumentTypeError: not a whole number of at least 1.
    """
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(
            f"{quote(text)} is not a number of matches (expected 1 or more)"
        )
    return int(text)


def warn_left_out(left_out: list[Any], err: TextIO | None = None) -> None:
    """Name each match left out (it cannot be replayed) once, on stderr."""
    err = err if err is not None else sys.stderr
    for item in left_out:
        print(f"pegboard: warning: {item}", file=err)


def parse_since(text: str) -> date:
    """The day ``--since`` names.

    Raises:
        HistoryCommandError: not a date written YYYY-MM-DD.

    >>> parse_since("2025-03-02")
    datetime.date(2025, 3, 2)
    """
    try:
        if len(text) != 10:
            raise ValueError(text)
        return date.fromisoformat(text)
    except ValueError:
        raise HistoryCommandError(
            f"--since {quote(text)} is not a date (expected YYYY-MM-DD, e.g. 2025-03-02)"
        ) from None


def _open(args: argparse.Namespace) -> Journal:
    from pegboard.journal import Journal, default_db_path

    path = args.db if args.db is not None else default_db_path()
    return Journal(path, readonly=True)


def _local(stamp: str | None) -> datetime | None:
    return None if stamp is None else datetime.fromisoformat(stamp).astimezone()


def _day(stamp: str | None) -> str:
    when = _local(stamp)
    return "" if when is None else when.strftime("%Y-%m-%d")


def _minute(stamp: str | None) -> str:
    when = _local(stamp)
    return "" if when is None else when.strftime("%Y-%m-%d %H:%M")


# --- pegboard history ------------------------------------------------------------------------


def cmd_history(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard history``.

    Raises:
        HistoryCommandError: a bad ``--since``, or a ``--player`` that is not UTF-8 text.
        JournalError: no journal at the path, or not a pegboard journal.
    """
    from pegboard.engine.cards import check_text
    from pegboard.engine.history import MatchHistory as Replayed
    from pegboard.engine.history import filter_matches
    from pegboard.engine.listing import MatchListing
    from pegboard.journal import read_steadily

    if args.player is not None:  # an undecodable byte would match no one, silently
        check_text(args.player, "--player", HistoryCommandError)
    since = parse_since(args.since) if args.since is not None else None
    start = None if since is None else datetime.combine(since, time()).astimezone()
    stamp = None if start is None else start.astimezone(UTC).isoformat(timespec="milliseconds")
    text = not (args.json or args.csv)
    limit = None if args.all else args.limit if args.limit is not None or not text else TEXT_LIMIT

    def read(store: Journal) -> tuple[Any, Any]:
        return store.final_listings(limit=limit, player=args.player, since=stamp), (
            store.latest_match()
        )

    (finals, count, left_out), latest = read_steadily(lambda: _open(args), read)
    chosen = list(finals)
    if isinstance(latest, Replayed):
        if filter_matches([latest], player=args.player, since=start):
            chosen.insert(0, MatchListing.of(latest))
            count += 1
    elif latest is not None:
        left_out.append(latest)
    warn_left_out(left_out)
    shown = chosen if limit is None else chosen[:limit]
    if args.json:
        out.write(json.dumps([_match_json(m, since) for m in shown]) + "\n")
    elif args.csv:
        out.write(_history_csv(shown, since))
    else:
        _print_history(shown, since, out, words_of(args), player=args.player)
        if count > len(shown):
            said = words_of(args).ngettext(
                "... and {n} older match (--all lists every match, --limit N the newest N)",
                "... and {n} older matches (--all lists every match, --limit N the newest N)",
                count - len(shown),
            )
            out.write(said.format(n=count - len(shown)) + "\n")
    return 0


def _games(match: MatchHistory, since: date | None) -> list[GameHistory]:
    """The match's finished games newest first (those finished since *since*)."""
    games = [g for g in match.games if since is None or _game_day(g) >= since]
    return sorted(games, key=lambda g: g.game, reverse=True)


def _game_day(game: GameHistory) -> date:
    when = _local(game.finished)
    assert when is not None, "a finished game has its time"
    return when.date()


def _lurch_words(game: GameHistory, tr: Translator | None = None) -> str:
    """Who was lurched in *game*: "Bob double-skunked" (CSV: always English)."""
    result = game.result
    assert result is not None
    tr = tr or Translator()
    words = [
        f"{game.names[side]} {value_words(tr, lurch.value)}"
        for side, lurch in enumerate(result.lurches)
        if lurch.value != "none"
    ]
    return ", ".join(words)


def _match_result(match: MatchHistory, tr: Translator) -> str:
    """The match's result in words: who won it and how, or that it is open."""
    t = tr.gettext
    if match.winner is not None:
        won = t("{name} won the match").format(name=match.names[match.winner])
    elif match.abandoned:
        won = t("not finished (a newer match was started)")
    else:
        won = t("in progress")
    games = "-".join(str(n) for n in match.games_won)
    if match.game_points is None:
        return t("{result}, games {games}").format(result=won, games=games)
    points = "-".join(str(n) for n in match.game_points)
    said = t("{result}, games {games}, game points {points}")
    return said.format(result=won, games=games, points=points)


def _no_games(tr: Translator, player: str | None, since: date | None) -> str:
    """There are no games to show: naming the filters that chose none (--player, --since)."""
    t = tr.gettext
    if player is not None and since is not None:
        said = t("no games of {player} in the journal since {day}")
    elif player is not None:
        said = t("no games of {player} in the journal")
    elif since is not None:
        said = t("no games in the journal since {day}")
    else:
        said = t("no games in the journal")
    return said.format(player=quote(player or ""), day=since.isoformat() if since else "")


def _print_history(
    matches: list[MatchHistory],
    since: date | None,
    out: TextIO,
    tr: Translator,
    *,
    player: str | None = None,
) -> None:
    t = tr.gettext
    if not matches:
        out.write(_no_games(tr, player, since) + "\n")
        return
    for match in matches:
        said = t("match {match}  {date}  {variant}  {format}  {sides}: {result}")
        line = said.format(
            match=match.match_id,
            date=_day(match.created),
            variant=value_words(tr, match.variant.value),
            format=value_words(tr, match.format.value),
            sides=tr.pgettext("sides", " v ").join(match.names),
            result=_match_result(match, tr),
        )
        out.write(line + "\n")
        current = match.current
        if current is not None and since is None:
            scores = "  ".join(
                f"{name} {score}" for name, score in zip(current.names, current.scores, strict=True)
            )
            running = t("game {game}  in progress          {scores}")
            out.write("  " + running.format(game=current.game, scores=scores) + "\n")
        for game in _games(match, since):
            result = game.result
            assert result is not None
            scores = "  ".join(
                f"{name} {score}" for name, score in zip(game.names, result.scores, strict=True)
            )
            worth = "" if result.game_points is None else t(" for {points}")
            lurch = _lurch_words(game, tr)
            said = t("game {game}  {time}  {scores}  {name} won{worth}{lurch}")
            line = said.format(
                game=game.game,
                time=_minute(game.finished),
                scores=scores,
                name=game.names[result.winner],
                worth=worth.format(points=result.game_points),
                lurch=f" ({lurch})" if lurch else "",
            )
            out.write("  " + line + "\n")


def _game_json(game: GameHistory) -> dict[str, Any]:
    result = game.result
    assert result is not None
    return {
        "game": game.game,
        "finished": game.finished,
        "date": _day(game.finished),
        "variant": game.variant.value,
        "sides": list(game.names),
        "scores": list(result.scores),
        "winner": game.names[result.winner],
        "game_points": result.game_points,
        "lurches": {
            name: lurch.value
            for name, lurch in zip(game.names, result.lurches, strict=True)
            if lurch.value != "none"
        },
        "deals": game.deals,
    }


def _match_json(match: MatchHistory, since: date | None) -> dict[str, Any]:
    current = match.current
    return {
        "match": match.match_id,
        "created": match.created,
        "date": _day(match.created),
        "variant": match.variant.value,
        "format": match.format.value,
        "sides": list(match.names),
        "winner": None if match.winner is None else match.names[match.winner],
        "finished": match.winner is not None,
        "abandoned": match.abandoned,
        "games_won": list(match.games_won),
        "game_points": None if match.game_points is None else list(match.game_points),
        "games": [_game_json(g) for g in _games(match, since)],
        "in_progress": None
        if current is None
        else {"game": current.game, "scores": list(current.scores)},
    }


_HISTORY_COLUMNS = (
    "match",
    "game",
    "finished",
    "variant",
    "format",
    "sides",
    "scores",
    "winner",
    "game_points",
    "lurches",
    "match_winner",
    "match_games_won",
    "match_game_points",
    "status",
)
"""The CSV's columns: one row a game, "status" last ("finished" or "in progress") so that the
columns before it keep their places."""


def _history_csv(matches: list[MatchHistory], since: date | None) -> str:
    """The games as CSV: the same games as the text, a game still in progress included (its
    current scores; no finish, winner or lurch yet)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_HISTORY_COLUMNS)
    for match in matches:
        match_columns = [
            "" if match.winner is None else match.names[match.winner],
            " ".join(str(n) for n in match.games_won),
            "" if match.game_points is None else " ".join(map(str, match.game_points)),
        ]
        current = match.current
        if current is not None and since is None:  # as the text: --since asks for finished days
            writer.writerow(
                [
                    match.match_id,
                    current.game,
                    "",
                    match.variant.value,
                    match.format.value,
                    " ".join(current.names),
                    " ".join(str(s) for s in current.scores),
                    "",
                    "",
                    "",
                    *match_columns,
                    "in progress",
                ]
            )
        for game in _games(match, since):
            result = game.result
            assert result is not None
            writer.writerow(
                [
                    match.match_id,
                    game.game,
                    _minute(game.finished),
                    match.variant.value,
                    match.format.value,
                    " ".join(game.names),
                    " ".join(str(s) for s in result.scores),
                    game.names[result.winner],
                    "" if result.game_points is None else result.game_points,
                    _lurch_words(game),
                    *match_columns,
                    "finished",
                ]
            )
    return buffer.getvalue()
