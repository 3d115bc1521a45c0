"""``pegboard stats players``: each player's record and points per deal, from the journal.

It only reads: the journal is opened with ``readonly=True``. The figures are the stored
standings' totals of the final matches (``journal.summaries``) merged with the latest match's,
the only one replayed (``engine.players.Book``); a match that cannot be replayed is named once on
stderr, and in the JSON's ``left_out``. The text speaks ``--lang``; JSON and CSV are the same in
every language.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
from typing import TYPE_CHECKING, Any, TextIO

from pegboard.cli.game import add_db
from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.history import _add_format, _open, warn_left_out
from pegboard.cli.lang import value_words, words_of
from pegboard.engine.rules import Variant
from pegboard.i18n import NC_, Translator
from pegboard.i18n.numbers import decimal

if TYPE_CHECKING:
    from pegboard.engine.players import ByHand, HeadToHead, PartFigures, PlayerStats, Standings

__all__ = ["register_stats"]


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
        formatter_class=DefaultsFormatter,
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


# --- pegboard stats players --------------------------------------------------------------------


def cmd_stats_players(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard stats players``.

    Raises:
        JournalError: no journal at the path, or not a pegboard journal.
    """
    from pegboard.engine.history import MatchHistory as Replayed
    from pegboard.engine.players import Book
    from pegboard.journal import Journal, read_steadily

    variant = Variant(args.variant) if args.variant is not None else None

    def read(store: Journal) -> tuple[Book, Any, list[Any]]:
        # the stored totals, and only the latest match replayed
        return store.final_book(variant), store.latest_match(), store.left_out_matches()

    book, latest, left_out = read_steadily(lambda: _open(args), read)
    if isinstance(latest, Replayed):
        if variant is None or latest.variant is variant:
            mine = Book()
            mine.add_match(latest)
            book = book.merged(mine)
    elif latest is not None:
        left_out.append(latest)
    warn_left_out(left_out)
    table = book.standings()
    if args.json:
        payload = table.to_dict() | {"left_out": [item.to_payload() for item in left_out]}
        out.write(json.dumps(payload) + "\n")
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
