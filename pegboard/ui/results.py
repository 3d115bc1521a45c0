"""The screens of results: game over (or match over), and the head-to-head page.

``render_game_over`` tells the winner, a lurch, the scores and the match. The head-to-head page
is what the menu's ``D`` shows (issue 14): the two sides of the table, their games won against
each other from the journal's history, then their matches, game points and lurches. Its value,
``HeadToHeadView``, is made by ``book_head_to_head(book, a, b)`` from the standings' running
totals (``players.Book``: the journal's stored totals merged with the latest match's), or by
``head_to_head_view(matches, a, b)`` from matches read back, in the journal's history
reader's thread (``table.headtohead``); until that read is done the page is a ``HeadToHeadView``
with ``reading`` set, which says "reading the scores…". Both renderers are pure.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from pegboard.engine.game import Phase
from pegboard.engine.match import MatchFormat
from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.i18n import N_, Language, Translator, translator
from pegboard.ui.paint import (
    DIM,
    FULL,
    Face,
    Painter,
    Size,
    Style,
    fit,
    font_face,
    largest_face,
    wrap,
)

if TYPE_CHECKING:
    from PIL import Image

    from pegboard.engine.history import MatchHistory
    from pegboard.engine.players import Book

__all__ = [
    "HeadToHeadView",
    "game_over_words",
    "head_to_head_view",
    "render_game_over",
    "render_head_to_head",
]


def _lurch_words(view: GameView, tr: Translator) -> tuple[str, ...]:
    """Who was lurched, longest wording first: "Bob lurched!", then "lurched!" (for a narrow
    screen); "Bob double-skunked!" for the worst-off loser; () for a plain win."""
    lurches = [side.lurch for side in view.sides]
    for lurch, named, bare in (
        ("double-skunked", N_("{names} double-skunked!"), N_("double skunk!")),
        ("lurched", N_("{names} lurched!"), N_("lurched!")),
    ):
        if lurch in lurches:
            names = ", ".join(side.name for side in view.sides if side.lurch == lurch)
            return tr.gettext(named).format(names=names), tr.gettext(bare)
    return ()


def _match_line(view: GameView, tr: Translator) -> str:
    match_ = view.match
    if match_.format is MatchFormat.SINGLE:
        return ""
    if match_.format is MatchFormat.BEST_OF_THREE:
        scores = match_.game_points
        label = tr.gettext("match")
    else:
        scores = match_.games_won
        label = tr.gettext("games")
    return f"{label}: " + " · ".join(
        f"{name} {score}" for name, score in zip(view.names, scores, strict=True)
    )


def game_over_words(view: GameView, language: Language = Language.ENGLISH) -> tuple[str, ...]:
    """What the game-over screen says, line by line: the winner, who was lurched (when a side
    was), the scores with the game points, and the match (when it is more than one game)."""
    tr = translator(language)
    match_over = view.phase is Phase.MATCH_OVER
    winner = view.match.winner_name if match_over else view.winner_name
    wins = tr.gettext("{name} wins the match!") if match_over else tr.gettext("{name} wins!")
    scores = " – ".join(str(side.score) for side in view.sides)
    points = view.game_points
    worth = "" if points is None else tr.ngettext("{n} pt", "{n} pts", points).format(n=points)
    lines = (wins.format(name=winner), *_lurch_words(view, tr)[:1])
    lines += (scores if points is None else f"{scores} · {worth}", _match_line(view, tr))
    return tuple(line for line in lines if line)


def render_game_over(
    view: GameView, size: Size = (128, 64), mode: str = "1", language: Language = Language.ENGLISH
) -> Image.Image:
    """The winner, who was lurched ("Bob lurched!", or "lurched!" where that does not fit),
    the final scores, the game points and the match score (or the match's winner once the
    match is over).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    tr = translator(language)
    small = p.small
    match_over = view.phase is Phase.MATCH_OVER
    winner = view.match.winner_name if match_over else view.winner_name
    wins = tr.gettext("{name} wins the match!") if match_over else tr.gettext("{name} wins!")
    headline = wins.format(name=winner)
    big = largest_face(p.height // 3, p.width, len(headline), digits=False, smallest=12)
    lines: list[tuple[str, Face, int]] = [(fit(headline, big, p.width), big, FULL)]
    face16 = font_face(16) if p.height >= 48 else small
    lurches = _lurch_words(view, tr)
    lurch = next((w for w in lurches if face16.width(w) <= p.width - 2), "".join(lurches[-1:]))
    scores = " – ".join(str(side.score) for side in view.sides)
    points = view.game_points
    worth = "" if points is None else tr.ngettext("{n} pt", "{n} pts", points).format(n=points)
    detail = scores if points is None else f"{scores} · {worth}"
    if lurch:
        lines.append((lurch, face16, FULL))
    lines.append((detail, small, FULL))
    match_line = _match_line(view, tr)
    if match_line:
        lines.append((match_line, small, DIM))
    if p.height < 48:
        # a short screen: the headline, then one line of what fits, most telling first (the
        # lurch, the game points, the scores, the match), never a piece cut in half
        pieces = [lurch, worth]
        pieces += [scores, match_line]
        rest = ""
        for piece in filter(None, pieces):
            candidate = f"{rest} · {piece}" if rest else piece
            if small.width(candidate) <= p.width - 2:
                rest = candidate
        lines = [lines[0], (rest, small, FULL)]
    pitch = [face.text_height + 3 for _, face, _ in lines]
    while sum(pitch) > p.height and len(lines) > 1:
        lines.pop()
        pitch.pop()
    y = (p.height - sum(pitch)) // 2 + 2
    for (text, face, level), step in zip(lines, pitch, strict=True):
        p.text_center(p.width // 2, y, fit(text, face, p.width), face, level)
        y += step
    return p.image


@frozen
class HeadToHeadView:
    """Two sides' records against each other, as the head-to-head page shows them.

    Each pair of numbers follows *names*: games and matches won, game points won, and the
    lurches (and double skunks) each gave the other, over the finished games both played.
    *reading*: the figures are not read yet (the page says so, and is drawn again with them).
    """

    names: tuple[str, str]
    games: int = 0
    games_won: tuple[int, int] = (0, 0)
    matches: int = 0
    matches_won: tuple[int, int] = (0, 0)
    game_points: tuple[int, int] = (0, 0)
    lurches: tuple[int, int] = (0, 0)
    reading: bool = False


def head_to_head_view(matches: Iterable[MatchHistory], a: str, b: str) -> HeadToHeadView:
    """*a*'s and *b*'s records against each other over *matches* (names in any case).

    >>> from pegboard.engine.history import replay_match
    >>> from pegboard.engine.rules import Rules
    >>> moves = ["cut 9H 3C", "starter 5C", "peg Ann 61", "peg Ann 60"]
    >>> match = replay_match(Rules.six_card(), ("Ann", "Bob"), MatchFormat.SINGLE,
    ...                      [(m, "2025-03-01T20:00:00+00:00") for m in moves])
    >>> h2h = head_to_head_view([match], "Bob", "Ann")
    >>> h2h.games_won, h2h.game_points, h2h.lurches
    ((0, 1), (0, 3), (0, 1))
    """
    from pegboard.engine.players import Book

    book = Book()
    for match in matches:
        book.add_match(match)
    return book_head_to_head(book, a, b)


def book_head_to_head(book: Book, a: str, b: str) -> HeadToHeadView:
    """*a*'s and *b*'s records against each other in *book* (the standings' running totals:
    the journal keeps them, so the page needs no replay of the history)."""
    pair = book.standings().between(a, b)
    if pair is None:
        return HeadToHeadView((a, b))
    return HeadToHeadView(
        (a, b),
        pair.games,
        pair.games_won,
        pair.matches,
        pair.matches_won,
        pair.game_points,
        book.lurches_between(a.strip(), b.strip()),
    )


def render_head_to_head(
    record: HeadToHeadView,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """The head-to-head page: the two names in a bar with their games won between them
    ("Ann 3 – 2 Bob"), then a row each for matches, game points and lurches (rows where both
    have none are left out, and a short screen shows the rows that fit). Never cuts a word:
    names too long for the games beside them leave the games to a row of their own.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    tr = translator(language)
    (a, b), won = record.names, record.games_won
    games = "" if record.reading else f"{won[0]} – {won[1]}"
    bar = next(
        (f for f in (p.status, p.small) if f.width(f"{a}  {games}  {b}") <= p.width - 4),
        None,
    )
    rows: list[tuple[str, str]] = []
    if bar is None:  # long names: the names alone in the bar, the games in a row
        bar = p.status if p.status.width(f"{a}  {b}") <= p.width - 4 else p.small
        if games:
            rows.append((tr.gettext("games"), games))
            games = ""
    p.inverted(0, 1, "", bar, width=p.width)
    p.draw.text((2, 1 - bar.top), a, font=bar.font, fill=p.ink(0))
    p.draw.text((p.width - 2 - bar.width(b), 1 - bar.top), b, font=bar.font, fill=p.ink(0))
    if games:
        p.draw.text(
            ((p.width - bar.width(games)) // 2, 1 - bar.top), games, font=bar.font, fill=p.ink(0)
        )
    top = bar.text_height + 4
    if record.reading or not record.games:
        face = p.status if p.height >= 48 else p.small
        y = top + 1
        words = (
            tr.gettext("reading the scores…")
            if record.reading
            else tr.gettext("no games against each other yet")
        )
        for line in wrap(words, face, p.width - 2):
            if y + face.text_height > p.height:
                break
            p.text(1, y, line, face, DIM)
            y += face.text_height + 1
        return p.image
    figures = (  # most telling first: a short screen shows the first rows
        (N_("matches"), record.matches_won, record.matches > 0),
        (N_("game points"), record.game_points, any(record.game_points)),
        (N_("lurches"), record.lurches, any(record.lurches)),
    )
    rows += [(tr.gettext(label), f"{x} – {y}") for label, (x, y), shown in figures if shown]
    face = (
        p.status
        if all(p.status.width(f"{label}  {value}") <= p.width - 2 for label, value in rows)
        else p.small
    )
    pitch = face.text_height + 2
    y = top + 1
    for label, value in rows:
        if y + face.text_height > p.height:
            break  # a short screen: the rows that fit, most telling first
        p.text(1, y, label, face, DIM)
        p.text_right(p.width - 2, y, value, face, FULL)
        y += pitch
    return p.image
