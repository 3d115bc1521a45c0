"""``pegboard history`` and ``pegboard stats players``: the journal's finished games and figures.

Both commands only read: the journal is opened with ``readonly=True``, so they create, write
and rename nothing (no ``-wal``/``-shm`` beside it either). The figures come from
``Journal.history()`` (every match replayed from its journalled commands) and
``pegboard.engine.players.standings``; this module only filters and formats them as text,
JSON or CSV. The text speaks ``--lang``; JSON and CSV are the same in every language.

The module imports only what the parser needs; the handlers import the journal when they run.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from datetime import date, datetime, time
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.game import add_db
from pegboard.cli.lang import add_lang, value_words, words_of
from pegboard.engine.rules import Variant
from pegboard.errors import PegboardError, quote
from pegboard.i18n import NC_, Translator
from pegboard.i18n.numbers import decimal

if TYPE_CHECKING:
    from pegboard.engine.history import GameHistory, MatchHistory
    from pegboard.engine.players import ByHand, HeadToHead, PartFigures, PlayerStats, Standings
    from pegboard.journal import Journal

__all__ = ["HistoryCommandError", "parse_since", "register", "register_stats"]


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
        "Reads the journal only.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
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
    add_db(p, only_read=True)
    _add_format(p)
    p.set_defaults(handler=cmd_history)


def register_stats(stats: Any) -> None:
    """Add ``players`` to ``pegboard stats``'s subparsers."""
    p = stats.add_parser(
        "players",
        help="each player's record and points per deal, from the journal",
        description="Per player and per partnership: games and matches played and won, game "
        "points, lurches and double skunks given and taken, points per deal as dealer and as "
        "pone split into pegging, hand and crib (averaged over the deals where that part was "
        "counted on the device), best hands, 29s and 28s, and head to head. Reads the journal "
        "only; counts finished games.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    p.add_argument(
        "--variant",
        default=None,
        choices=[v.value for v in Variant],
        help="only games of this variant (default: all)",
    )
    add_db(p, only_read=True)
    _add_format(p)
    p.set_defaults(handler=cmd_stats_players)


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
    from pegboard.engine.history import filter_matches

    if args.player is not None:  # an undecodable byte would match no one, silently
        check_text(args.player, "--player", HistoryCommandError)
    since = parse_since(args.since) if args.since is not None else None
    with _open(args) as store:
        matches = store.history()
    start = None if since is None else datetime.combine(since, time()).astimezone()
    chosen = filter_matches(matches, player=args.player, since=start)
    chosen = sorted(chosen, key=lambda m: m.match_id, reverse=True)
    if args.json:
        out.write(json.dumps([_match_json(m, since) for m in chosen]) + "\n")
    elif args.csv:
        out.write(_history_csv(chosen, since))
    else:
        _print_history(chosen, since, out, words_of(args), player=args.player)
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
        "deals": len(game.deals),
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


# --- pegboard stats players --------------------------------------------------------------------


def cmd_stats_players(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard stats players``.

    Raises:
        JournalError: no journal at the path, or not a pegboard journal.
    """
    from pegboard.engine.players import standings

    variant = Variant(args.variant) if args.variant is not None else None
    with _open(args) as store:
        matches = store.history()
    table = standings(matches, variant=variant)
    if args.json:
        out.write(json.dumps(table.to_dict()) + "\n")
    elif args.csv:
        out.write(_players_csv(table))
    else:
        _print_players(table, out, words_of(args), variant)
    return 0


def _average(points: int, deals: int, tr: Translator) -> str:
    if deals == 0:
        return "-"
    return decimal(points / deals, 2, tr)


_BY_HAND_PARTS = {
    "pegging": NC_("pegged by hand", "pegging"),
    "hands": NC_("pegged by hand", "hands"),
    "crib": NC_("pegged by hand", "crib"),
    "heels": NC_("pegged by hand", "heels"),
    "other": NC_("pegged by hand", "other"),
}
"""The parts a peg by hand counts in (``history.PegMark.part``), as a text says them."""


def _by_hand_words(why: ByHand, tr: Translator) -> str:
    """Where and why points were pegged by hand, in *tr*'s language; the players' own reason
    as they typed it. English is ``str(why)``, the JSON's key."""
    part = why.part
    if part in _BY_HAND_PARTS:
        part = tr.pgettext("pegged by hand", _BY_HAND_PARTS[part])
    if why.reason:
        return tr.pgettext("pegged by hand", "{part}: {reason}").format(
            part=part, reason=why.reason
        )
    if why.told:
        return tr.pgettext("pegged by hand", "{part} (told)").format(part=part)
    return tr.pgettext("pegged by hand", "{part} (no reason)").format(part=part)


def _part_cell(part: PartFigures | None, deals: int, tr: Translator) -> str:
    """A part's cell: its average over the deals that counted it, and how many of *deals*;
    empty, as the pone's crib is, when no deal counted it (the table pegged it by hand)."""
    if part is None or part.deals == 0:
        return ""
    said = tr.gettext("{average} ({n} of {deals})")
    return said.format(average=_average(part.points, part.deals, tr), n=part.deals, deals=deals)


def _print_player(player: PlayerStats, out: TextIO, tr: Translator) -> None:
    t = tr.gettext
    kind = ""
    if player.members:
        kind = t(" (partnership of {members})").format(members=", ".join(player.members))
    elif player.kind == "partnership":
        kind = t(" (partnership)")
    said = t(
        "{name}{kind}: games {games_won} of {games} won, matches {matches_won} of {matches} "
        "won, game points {points}"
    )
    out.write(
        said.format(
            name=player.name,
            kind=kind,
            games_won=player.games_won,
            games=player.games_played,
            matches_won=player.matches_won,
            matches=player.matches_played,
            points=player.game_points,
        )
        + "\n"
    )
    said = t(
        "lurches given {lurches_given}, taken {lurches_taken}; double skunks given "
        "{skunks_given}, taken {skunks_taken}"
    )
    out.write(
        "  "
        + said.format(
            lurches_given=player.lurches_given,
            lurches_taken=player.lurches_taken,
            skunks_given=player.double_skunks_given,
            skunks_taken=player.double_skunks_taken,
        )
        + "\n"
    )
    if player.dealer.deals or player.pone.deals:
        rows = [[t("a deal"), t("deals"), t("all"), t("pegging"), t("hand"), t("crib")]]
        for label, role in ((t("as dealer"), player.dealer), (t("as pone"), player.pone)):
            parts = (role.pegging, role.hand, role.crib)
            rows.append(
                [label, str(role.deals), _average(role.points, role.deals, tr)]
                + [_part_cell(part, role.deals, tr) for part in parts]
            )
        for line in _deal_table(rows):
            out.write(f"  {line}\n")
    if player.by_hand:
        pegs = ", ".join(f"{_by_hand_words(why, tr)} {points}" for why, points in player.by_hand)
        out.write("  " + t("pegged by hand: {pegs}").format(pegs=pegs) + "\n")
    said = t("29s {nines}, 28s {eights}")
    out.write("  " + said.format(nines=player.twenty_nines, eights=player.twenty_eights) + "\n")
    best: list[str] = []
    for hand_of in player.best_hands:
        if len(best) == 3:
            break
        what = t("crib") if hand_of.is_crib else t("hand")
        if hand_of.cards:
            cards = t("{cards} starter {card}").format(cards=hand_of.cards, card=hand_of.starter)
        else:
            cards = t("(cards not entered)")
        said = t("best {what} {points}: {cards}, game {match}:{game}")
        line = said.format(
            what=what,
            points=f"{hand_of.points:>2}",
            cards=cards,
            match=hand_of.match_id,
            game=hand_of.game,
        )
        if line not in best:  # the same hand in the same game (another deal) is listed once
            best.append(line)
    for line in best:
        out.write("  " + line + "\n")


def _deal_table(rows: list[list[str]]) -> list[str]:
    """The points-a-deal table's lines: each column as wide as its widest cell, and always at
    least two spaces between columns (German "4,00 (20 von 20)" is 16 characters).

    The label column is left-aligned, the deals and the average right-aligned, the parts
    left-aligned; a table of short cells keeps the widths it always had (10, 6, 8, 16, 16).
    """

    def room(i: int) -> int:  # a cell and two spaces, unless nothing follows it on its row
        return max(len(row[i]) + (2 if any(row[i + 1 :]) else 0) for row in rows)

    deals = max(6, *(len(row[1]) for row in rows))
    # the label's padding and the deals' together make at least two spaces on every row
    label = max(10, *(len(row[0]) + 2 + len(row[1]) - deals for row in rows))
    widths = (label, deals, max(8, room(2)), max(16, room(3)), max(16, room(4)))
    return [
        (
            f"{row[0]:<{widths[0]}}{row[1]:>{widths[1]}}{row[2]:>{widths[2]}}  "
            f"{row[3]:<{widths[3]}}{row[4]:<{widths[4]}}{row[5]}"
        ).rstrip()
        for row in rows
    ]


def _print_h2h(pair: HeadToHead, out: TextIO, tr: Translator) -> None:
    t = tr.gettext
    a, b = pair.names
    sides = tr.pgettext("sides", " v ").join((a, b))
    games = f"{pair.games_won[0]}-{pair.games_won[1]}"
    line = t("{sides}: games {won} of {games}").format(sides=sides, won=games, games=pair.games)
    if pair.matches:
        won = f"{pair.matches_won[0]}-{pair.matches_won[1]}"
        line += t(", matches {won} of {matches}").format(won=won, matches=pair.matches)
    points = f"{pair.game_points[0]}-{pair.game_points[1]}"
    line += t(", game points {points}").format(points=points)
    out.write("  " + line + "\n")


def _print_players(
    table: Standings, out: TextIO, tr: Translator, variant: Variant | None = None
) -> None:
    t = tr.gettext
    if not table.players:
        # naming the filter that chose none, as the history does
        if variant is not None:
            said = t("no finished {variant} games in the journal")
            out.write(said.format(variant=value_words(tr, variant.value)) + "\n")
        else:
            out.write(t("no finished games in the journal") + "\n")
        return
    out.write(
        t(
            "points a deal: all = everything pegged; pegging, hand, crib = averaged over the "
            "deals where that part was counted on the device (N of M deals)"
        )
        + "\n"
    )
    for player in table.players:
        _print_player(player, out, tr)
    if table.head_to_head:
        out.write(t("head to head") + "\n")
        for pair in table.head_to_head:
            _print_h2h(pair, out, tr)


_PLAYER_COLUMNS = (
    "name",
    "kind",
    "games_played",
    "games_won",
    "matches_played",
    "matches_won",
    "game_points",
    "lurches_given",
    "lurches_taken",
    "double_skunks_given",
    "double_skunks_taken",
    "dealer_deals",
    "dealer_points",
    "dealer_pegging_deals",
    "dealer_pegging_points",
    "dealer_hand_deals",
    "dealer_hand_points",
    "dealer_crib_deals",
    "dealer_crib_points",
    "pone_deals",
    "pone_points",
    "pone_pegging_deals",
    "pone_pegging_points",
    "pone_hand_deals",
    "pone_hand_points",
    "twenty_nines",
    "twenty_eights",
    "best_hand",
    "best_hand_cards",  # added last, so the columns before keep their places
    "best_hand_starter",
)


def _players_csv(table: Standings) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(_PLAYER_COLUMNS)
    for p in table.players:
        roles: list[object] = []
        for role in (p.dealer, p.pone):
            roles += [role.deals, role.points]
            for part in (role.pegging, role.hand, role.crib):
                if part is not None:
                    roles += [part.deals, part.points]
        best = p.best_hands[0] if p.best_hands else None
        # the cards only where the table entered them (a hand told by its points has none)
        cards = (best.cards, best.starter) if best is not None and best.cards else ("", "")
        writer.writerow(
            [
                p.name,
                p.kind,
                p.games_played,
                p.games_won,
                p.matches_played,
                p.matches_won,
                p.game_points,
                p.lurches_given,
                p.lurches_taken,
                p.double_skunks_given,
                p.double_skunks_taken,
                *roles,
                p.twenty_nines,
                p.twenty_eights,
                "" if best is None else best.points,
                *cards,
            ]
        )
    return buffer.getvalue()
