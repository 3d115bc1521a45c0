"""A tournament night on paper: each player's scorecard and the night's results, as pages of
the score sheet's shapes (``sheet.Drawing``), drawn to PDF by ``sheetfiles.render_pdf_pages``.

Pure, as ``sheet.layout_sheet``: values in, pages of shapes out, text measured with the fonts'
metrics and shrunk (then cut) to its place. A scorecard is the paper card a club's players
keep: every round's opponent, the scores, the game points and spread with running totals, a
bye as a line of its own, and under a corrected game every correction (who, when, why), so no
change is silent. The results are the standings (place, games, game points, spread, plus
points, what placed each player, the playoff and correction marks), every game of the night
by round, with its source (the board and game, or the director) and its corrections, and the
side pots (``tourney.pots``: skunks, 24/28/29 hands, four of a kind, with who and when) when
the night has any.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from pegboard.i18n import NC_, Language, translator
from pegboard.tourney.pots import POTS, Shown, side_pots
from pegboard.tourney.standings import Line as Standing
from pegboard.tourney.standings import Scorecard, scorecards, standings
from pegboard.tourney.steps import Tourney

from .sheet import Drawing, Measure, Paper, _Page
from .sheetshapes import BLACK, LIGHT, MID

__all__ = ["layout_card", "layout_results", "night_pages"]

MARGIN = 36.0
_POT_NAMES = {"skunk": NC_("pot", "skunk"), "four of a kind": NC_("pot", "four of a kind")}
"""The pots with a name to translate (the others are the hand's count: 24, 28, 29)."""
_POT_STOPS = (0, 75, 160, 195, 230, 290)
"""Where the side pots' columns start, from the left margin: pot, player, round, table, when,
the hand."""


def _measure(measure: Measure | None) -> Measure:
    if measure is not None:
        return measure
    from .sheetfiles import text_width  # the fonts' metrics live with the fonts

    return text_width


def _header(page: _Page, paper: Paper, title: str, night: str, sub: str) -> float:
    width, _ = paper.size
    left, right = MARGIN, width - MARGIN
    y = MARGIN + 20
    page.text(left, y, *page.shrink(title, 18, right - left - 80, 10), bold=True)
    page.text(right, y, "pegboard", 9, align="r", grey=MID)
    y += 12
    page.line(left, y, right, y, width=1.2)
    y += 16
    page.text(left, y, *page.shrink(night, 11, right - left, 8))
    if sub:
        y += 14
        page.text(left, y, *page.shrink(sub, 10, right - left, 7), grey=MID)
    return y + 16


def layout_card(
    card: Scorecard,
    line: Standing | None,
    night_name: str,
    *,
    paper: Paper = Paper.A4,
    language: Language = Language.ENGLISH,
    measure: Measure | None = None,
) -> Drawing:
    """*card*'s page: its games and running totals, its corrections, its place (*line*)."""
    t = translator(language).gettext
    page = _Page(_measure(measure))
    width, _ = paper.size
    left, right = MARGIN, width - MARGIN
    y = _header(page, paper, t("Tournament scorecard"), night_name, "")
    page.text(left, y + 8, *page.shrink(card.name, 22, right - left, 12), bold=True)
    y += 30
    # round, table, opponent, score, result, game points, spread, total points, total spread
    heads = [
        t("Round"),
        t("Table"),
        t("Opponent"),
        t("Score"),
        t("Result"),
        t("GP"),
        t("Spread"),
        t("Total GP"),
        t("Total spread"),
    ]
    # where each column starts: round, table, opponent, score, result, GP, spread, totals
    stops = [left + x for x in (0, 36, 72, 210, 270, 325, 360, 415, 462)]
    page.rect(left, y, right - left, 16, fill=235, outline=None)
    ends = [*stops[1:], right + 6]  # the opponent's column reads left, the rest right
    for i, head in enumerate(heads):
        limit = ends[i] - stops[i] - 8
        if i == 2:
            page.text(stops[i] + 4, y + 11, *page.shrink(head, 8, limit, 5), bold=True)
        else:
            page.text(ends[i] - 10, y + 11, *page.shrink(head, 8, limit, 5), align="r", bold=True)
    y += 16
    for row in card.lines:
        y += 15
        won = t("won") if row.won else t("lost")
        cells = [
            str(row.round),
            str(row.table) if row.opponent is not None else "",
            row.opponent if row.opponent is not None else t("bye"),
            f"{row.score}-{row.against}" if row.opponent is not None else "",
            won,
            str(row.game_points),
            f"{row.spread:+d}",
            str(row.total_points),
            f"{row.total_spread:+d}",
        ]
        for i, cell in enumerate(cells):
            if i == 2:
                page.text(stops[i] + 4, y, *page.shrink(cell, 10, ends[i] - stops[i] - 8, 7))
            else:
                page.text(ends[i] - 10, y, cell, 10, align="r", bold=i == 5)
        for c in row.corrections:
            y += 12
            note = t("corrected by {who} at {when}: {why}").format(
                who=c.who, when=c.when, why=c.why
            )
            page.text(stops[2] + 4, y, *page.shrink(note, 8, right - stops[2] - 8, 6), grey=MID)
        page.line(left, y + 5, right, y + 5, grey=LIGHT, width=0.4)
    y += 30
    if line is not None:
        place = f"{line.place}{'=' if line.playoff else ''}"
        summary = t(
            "Place {place} · game points {points} · won {won} of {games} · spread {spread} · "
            "plus points {plus}"
        ).format(
            place=place,
            points=line.game_points,
            won=line.won,
            games=line.played + line.byes,
            spread=f"{line.spread:+d}",
            plus=line.plus,
        )
        page.text(left, y, *page.shrink(summary, 11, right - left, 7), bold=True)
        y += 40
    page.line(left, y, left + 200, y, grey=BLACK)
    page.line(right - 200, y, right, y, grey=BLACK)
    page.text(left, y + 10, t("player"), 7, grey=MID)
    page.text(right - 200, y + 10, t("director"), 7, grey=MID)
    return Drawing(paper, tuple(page.shapes), f"{night_name}: {card.name}", tuple(page.cut))


def layout_results(
    tourney: Tourney,
    *,
    paper: Paper = Paper.A4,
    language: Language = Language.ENGLISH,
    measure: Measure | None = None,
) -> list[Drawing]:
    """The night's results: the standings, then every game by round, then the side pots if
    there are any (as many pages as it takes)."""
    tr = translator(language)
    t = tr.gettext
    night = tourney.night
    width, height = paper.size
    left, right = MARGIN, width - MARGIN
    pages: list[Drawing] = []
    lines = standings(night)
    rows: list[tuple[str, ...]] = []
    for x in lines:
        marks = ("=" if x.playoff else "") + (" *" if x.corrected else "")
        rows.append(
            (
                f"{x.place}{marks}",
                x.name,
                str(x.played),
                str(x.won),
                str(x.lost),
                str(x.game_points),
                f"{x.spread:+d}",
                str(x.plus),
                tr.pgettext("tiebreak", x.decided_by) if x.decided_by else "",
            )
        )
    heads = (
        t("Place"),
        t("Player"),
        t("P"),
        t("W"),
        t("L"),
        t("GP"),
        t("Spread"),
        t("Plus"),
        t("Placed by"),
    )
    stops = (
        left,
        left + 44,
        left + 170,
        left + 200,
        left + 230,
        left + 260,
        left + 300,
        left + 350,
        left + 390,
    )
    games: list[tuple[str, ...]] = []
    for number, seating in enumerate(night.rounds, start=1):
        for p in seating.pairings:
            result = night.final(number, p.table)
            if result is None:
                games.append(
                    (str(number), str(p.table), f"{p.first} v {p.second}", t("not played"), "")
                )
                continue
            text = f"{result.winner} 121-{result.loser_score} {result.loser}"
            games.append((str(number), str(p.table), text, result.source, ""))
            for c in night.corrections:
                if (c.result.round, c.result.table) == (number, p.table):
                    note = t("corrected by {who} at {when}: {why}").format(
                        who=c.who, when=c.when, why=c.why
                    )
                    games.append(("", "", "", "", note))
        if seating.bye is not None:
            games.append((str(number), "", t("bye: {name}").format(name=seating.bye), "", ""))
    pots: list[tuple[str, ...]] = []
    entries = side_pots(night, tourney.shown)
    for pot in POTS:
        name = tr.pgettext("pot", _POT_NAMES[pot]) if pot in _POT_NAMES else pot
        for e in (e for e in entries if e.pot == pot):
            detail = e.detail if e.hand is None else _hand_text(e.hand, t)
            pots.append((name, e.player, str(e.round), str(e.table), _clock(e.when), detail))
    measure_ = _measure(measure)
    title = t("Tournament results")
    todo: list[tuple[str, list[tuple[str, ...]]]] = [("standings", rows), ("games", games)]
    if pots:
        todo.append(("pots", pots))
    subs = {"standings": t("Standings"), "games": t("Games"), "pots": t("Side pots")}
    pot_heads = (t("Pot"), t("Player"), t("Round"), t("Table"), t("When"), t("Hand"))
    for kind, items in todo:
        first = True
        while items or first:
            page = _Page(measure_)
            y = _header(page, paper, title, night.name, subs[kind])
            if first and kind == "standings":
                key = t(
                    "GP: 2 a win, 3 a skunk; ties: games won, spread, plus points, head to "
                    "head, then a playoff (=); * a corrected result"
                )
                page.text(left, y, *page.shrink(key, 8, right - left, 6), grey=MID)
                y += 14
            first = False
            if kind in ("standings", "pots"):
                page.rect(left, y, right - left, 14, fill=235, outline=None)
                tops = stops if kind == "standings" else [left + x for x in _POT_STOPS]
                for i, head in enumerate(heads if kind == "standings" else pot_heads):
                    page.text(tops[i] + 3, y + 10, head, 7.5, bold=True)
                y += 14
            room = int((height - MARGIN - y) // 12.5)
            chunk, items = items[:room], items[room:]
            for row in chunk:
                y += 12.5
                if kind == "standings":
                    for i, cell in enumerate(row):
                        limit = (stops[i + 1] if i + 1 < len(stops) else right) - stops[i] - 6
                        page.text(stops[i] + 3, y, *page.shrink(cell, 9, limit, 6), bold=i == 5)
                elif kind == "pots":
                    for i, cell in enumerate(row):
                        at = left + _POT_STOPS[i]
                        limit = (left + _POT_STOPS[i + 1] if i + 1 < len(row) else right) - at - 6
                        page.text(at + 3, y, *page.shrink(cell, 9, limit, 5.5), bold=i == 0)
                else:
                    rnd, table, text, source, note = row
                    if note:
                        page.text(
                            left + 80, y, *page.shrink(note, 8, right - left - 80, 6), grey=MID
                        )
                        continue
                    page.text(left + 3, y, rnd, 9)
                    page.text(left + 40, y, table, 9)
                    page.text(left + 80, y, *page.shrink(text, 9, 250, 6))
                    page.text(
                        left + 340, y, *page.shrink(source, 8, right - left - 340, 6), grey=MID
                    )
                page.line(left, y + 3.5, right, y + 3.5, grey=LIGHT, width=0.3)
            pages.append(
                Drawing(paper, tuple(page.shapes), f"{night.name}: {title}", tuple(page.cut))
            )
    return pages


def _clock(when: str) -> str:
    """*when* as the pots' page shows it: a board's time stamp as this machine's time of day
    ("21:30"); anything else as it is."""
    try:
        stamp = datetime.fromisoformat(when)
    except ValueError:
        return when
    return (stamp.astimezone() if stamp.tzinfo is not None else stamp).strftime("%H:%M")


def _hand_text(hand: Shown, t: Callable[[str], str]) -> str:
    """*hand* as the pots' page words it: its deal, crib or hand, cards (or that it was told by
    its points) and starter."""
    text = " ".join(str(c) for c in hand.cards) or t("by points (cards not entered)")
    if hand.starter is not None:
        text = t("{cards}, starter {starter}").format(cards=text, starter=hand.starter)
    if hand.crib:
        text = t("crib {hand}").format(hand=text)
    if hand.deal is not None:
        text = t("deal {deal}: {hand}").format(deal=hand.deal, hand=text)
    return text


def night_pages(
    tourney: Tourney,
    names: Sequence[str] | None = None,
    *,
    results: bool = True,
    paper: Paper = Paper.A4,
    language: Language = Language.ENGLISH,
    measure: Measure | None = None,
) -> list[Drawing]:
    """The results' pages (if *results*), then the scorecard of each of *names* (None: every
    player with a line on the card), in standings order."""
    night = tourney.night
    cards = scorecards(night)
    lines = {x.name: x for x in standings(night)}
    pages = (
        layout_results(tourney, paper=paper, language=language, measure=measure) if results else []
    )
    order = [x for x in lines] + [n for n in cards if n not in lines]
    for name in order if names is None else names:
        card = cards[name]
        if names is None and not card.lines:
            continue
        pages.append(
            layout_card(
                card, lines.get(name), night.name, paper=paper, language=language, measure=measure
            )
        )
    return pages
