"""OLED screens: pure functions from the game view to a Pillow image.

Theory of operation
-------------------
Every screen is a function of values only (a ``GameView`` plus a few small values: what is typed,
a menu, a message, a page number, the news of the last press) and of the display's ``size``,
``mode`` and ``style``; it returns a new ``PIL.Image.Image`` of exactly that size and mode and
touches nothing else. So the same frame goes to the real OLED, the simulator and the
golden-image tests, and a controller can tell that nothing changed by comparing the ``Screen``
values it would draw (they are frozen and hashable), while the display adapter also skips frames
whose bytes it has just sent.

Layouts are computed from the size, never from 128x64: columns are the width shared by the sides,
the big digits are the largest strike of the bundled font that fits the room left after the text
rows, and rows that do not fit (the status line, "to go") are dropped on short screens such as
128x32. The large style (``paint.Style``) draws the status, names and menu a strike up and the
count's calls at 16 px. The font, the painter and text fitting live in ``paint.py``, the count
screen in ``count.py``, the menu in ``menuscreen.py``, game over and the head-to-head page in
``results.py``, and what a press did (``News``) in ``news.py``.

``choose_screen(view, ...)`` picks what to show: an error, "paused" or the head-to-head page
first, then the keypad's
menu or the entry in progress (both from the keypad's ``EntryView``, drawn as it is), then by
phase (the scoreboard, the play, the play as its last card left it while that is news, the count
of the hand or crib just shown, game over). ``render_screen(screen, size, mode, style)`` draws any
``Screen``; while a ``News`` is on, the scoreboard and the play tell it in their status row.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard.engine.cards import Card
from pegboard.engine.game import Phase
from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.i18n import Language, Translator, translator
from pegboard.ui.count import PAGE_KEY, count_pages, render_count
from pegboard.ui.keypad import EntryView
from pegboard.ui.menuscreen import MenuItem, MenuView, render_menu
from pegboard.ui.news import News
from pegboard.ui.paint import (
    DIM,
    FULL,
    MODES,
    Face,
    Painter,
    Size,
    Style,
    fit,
    font_face,
    largest_face,
    typed_lines,
    wrap,
)
from pegboard.ui.pairing import BADGE_ROOM, PairingView, draw_badge, render_pairing
from pegboard.ui.results import HeadToHeadView, render_game_over, render_head_to_head
from pegboard.ui.status import first_fitting, status_options, warning_rows

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "MODES",
    "PAGE_KEY",
    "HeadToHeadView",
    "MenuItem",
    "MenuView",
    "Screen",
    "ScreenKind",
    "Style",
    "choose_screen",
    "count_pages",
    "render_count",
    "render_entry",
    "render_error",
    "render_game_over",
    "render_head_to_head",
    "render_menu",
    "render_paused",
    "render_play",
    "render_scoreboard",
    "render_screen",
    "screen_pages",
]


class ScreenKind(enum.Enum):
    """What a screen shows."""

    SCOREBOARD = "scoreboard"
    PLAY = "play"
    ENTRY = "entry"
    COUNT = "count"
    GAME_OVER = "game over"
    MENU = "menu"
    ERROR = "error"
    PAUSED = "paused"
    HEAD_TO_HEAD = "head to head"
    PAIRING = "pairing"


@frozen
class Screen:
    """One screen to draw: its kind and the values it is drawn from.

    ``news`` is what the last key press did (``news.News``), for the screens that tell it;
    ``chances`` each side's chance to win, for the scoreboard's bar (None: no bar); ``pairing``
    the tournament's next pairing (``ui.pairing``); ``locked`` the tournament lock's badge on
    the scoreboard, the play and the pairing. Frozen and comparable: equal screens draw equal
    images, so a controller can skip a redraw.
    """

    kind: ScreenKind
    view: GameView | None = None
    entry: EntryView | None = None
    menu: MenuView | None = None
    message: str = ""
    page: int = 0
    news: News | None = None
    chances: tuple[float, ...] | None = None
    record: HeadToHeadView | None = None
    pairing: PairingView | None = None
    locked: bool = False


def choose_screen(
    view: GameView | None,
    *,
    entry: EntryView | None = None,
    error: str | None = None,
    paused: bool = False,
    count_page: int | None = 0,
    news: News | None = None,
    read: bool = True,
    chances: tuple[float, ...] | None = None,
    record: HeadToHeadView | None = None,
    pairing: PairingView | None = None,
    locked: bool = False,
) -> Screen:
    """The screen to show now.

    In order: an *error* message, "paused", the head-to-head page (*record*), the keypad's
    menu (an *entry* with menu lines), the tournament's next *pairing* (the caller offers it
    only while the keypad is idle), the *entry* in progress (unless the keypad is idle:
    ``entry.typing`` False; before the first cut the idle entry shows too, for its hint); then
    by the view's phase: game over (or match over), the play (held as its last card left it
    while *news* has ``play_end``; a play pegged by hand lays no cards, so it has no count and
    the scoreboard shows), the count on page *count_page*, the scoreboard otherwise.

    The count is *news*'s ``counted`` when *news* is given (a press that counted nothing shows
    no count); without *news* (after a restart) it is the hand or crib just shown, while the
    show goes on and until the next starter is entered. Pass ``count_page=None`` to go back to
    the scoreboard after the count has been read. The scoreboard draws *chances* as a bar;
    *locked* puts the tournament lock's badge on the scoreboard, the play and the pairing.

    A question the idle keypad's next key answers (``entry.asks``: "flush?" for a hand laid in
    the play) shows as the entry once what was on the screen has been *read* (the news is over
    and every page of the count, the last one included, has had its time: ``ui.timeline``), so
    the table sees what its key will answer.

    Raises:
        ValueError: no view and nothing else to show.
    """
    if error is not None:
        return Screen(ScreenKind.ERROR, view=view, message=error)
    if paused:
        return Screen(ScreenKind.PAUSED, view=view)
    if record is not None:
        return Screen(ScreenKind.HEAD_TO_HEAD, view=view, record=record)
    if entry is not None and entry.menu:
        return Screen(ScreenKind.MENU, menu=MenuView.of(entry))
    if pairing is not None:
        return Screen(ScreenKind.PAIRING, view=view, pairing=pairing, locked=locked)
    first_cut = view is not None and view.phase is Phase.CUT
    if entry is not None and (entry.typing or first_cut or (entry.asks and read)):
        return Screen(ScreenKind.ENTRY, view=view, entry=entry)
    if view is None:
        raise ValueError("choose_screen needs a view unless an error, pause, menu or entry is on")
    if view.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        return Screen(ScreenKind.GAME_OVER, view=view)
    if news is not None and news.play_end is not None:
        return Screen(ScreenKind.PLAY, view=news.play_end, news=news, locked=locked)
    if view.phase is Phase.PLAY and (view.turn is not None or view.series):
        return Screen(ScreenKind.PLAY, view=view, news=news, locked=locked)  # (by hand: no count)
    if count_page is not None and view.phase in (Phase.SHOW, Phase.STARTER):
        if news is not None and news.counted:  # what the count shows: no line to fade
            return Screen(ScreenKind.COUNT, view=view, page=count_page, news=news.faded())
        last = view.last
        if news is None and last is not None and last.source in ("hand", "crib", "muggins"):
            return Screen(ScreenKind.COUNT, view=view, page=count_page)
    return Screen(ScreenKind.SCOREBOARD, view=view, news=news, chances=chances, locked=locked)


def screen_pages(
    screen: Screen,
    size: Size = (128, 64),
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> int:
    """How many pages *screen* has on a screen of *size* in *style* (1 but for the count), in
    *language*.

    Raises:
        ValueError: an unsupported size.
    """
    if screen.kind is not ScreenKind.COUNT or screen.view is None:
        return 1
    counted = screen.news.counted if screen.news is not None else ()
    return count_pages(screen.view, size, style, counted, language)


def render_screen(
    screen: Screen,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """Draw *screen* as an image of *size* and *mode*, in *style*, its words in *language*.

    Raises:
        ValueError: an unsupported size or mode, a screen missing the value it is drawn from,
            or a count page out of range.
    """
    kind = screen.kind
    lang = language
    if kind is ScreenKind.ERROR:
        return render_error(screen.message, size, mode, style, lang)
    if kind is ScreenKind.PAUSED:
        return render_paused(screen.view, size, mode, lang)
    if kind is ScreenKind.HEAD_TO_HEAD:
        if screen.record is None:
            raise ValueError("a head-to-head screen needs a record")
        return render_head_to_head(screen.record, size, mode, style, lang)
    if kind is ScreenKind.MENU:
        if screen.menu is None:
            raise ValueError("a menu screen needs a menu")
        return render_menu(screen.menu, size, mode, style, lang)
    if kind is ScreenKind.ENTRY:
        if screen.entry is None:
            raise ValueError("an entry screen needs an entry")
        return render_entry(screen.entry, size, mode, style)
    if kind is ScreenKind.PAIRING:
        if screen.pairing is None:
            raise ValueError("a pairing screen needs a pairing")
        return render_pairing(screen.pairing, size, mode, style, lang, locked=screen.locked)
    if screen.view is None:
        raise ValueError(f"a {kind.value} screen needs a game view")
    if kind is ScreenKind.SCOREBOARD:
        view, news, chances = screen.view, screen.news, screen.chances
        return render_scoreboard(view, size, mode, style, news, chances, lang, screen.locked)
    if kind is ScreenKind.PLAY:
        return render_play(screen.view, size, mode, style, screen.news, lang, screen.locked)
    if kind is ScreenKind.COUNT:
        counted = screen.news.counted if screen.news is not None else ()
        return render_count(screen.view, screen.page, size, mode, style, counted, lang)
    return render_game_over(screen.view, size, mode, lang)


def _rank(card: Card) -> str:
    """A card of the play as players call it: its rank only ("5", "10", "J").

    The keypad never types suits (the device picks nominal ones, see ``entry``) and suits
    never matter in the play, so screens never show them.
    """
    return card.rank.label


def _status_rows(
    view: GameView, news: News | None, faces: tuple[Face, Face], width: int, tr: Translator
) -> tuple[Face, list[str]]:
    """The status as rows to draw: what the last press did while it is news (in a shorter
    wording, or on two rows, rather than cut), whose turn or what is next otherwise."""
    if news is None or not news.line:  # what is next: in the larger face, else the smaller
        options = status_options(view, tr)
        for face in faces:
            if any(face.width(text) <= width for text in options):
                return face, [first_fitting(options, face, width)]
        return faces[-1], [first_fitting(options, faces[-1], width)]
    for text in (news.line, *news.shorter):
        for face in faces:
            if face.width(text) <= width:
                return face, [text]
    return _rows(news.line, faces, width)


def _rows(text: str, faces: tuple[Face, Face], width: int) -> tuple[Face, list[str]]:
    """*text* on one row of the first face, else of the second (smaller), else on two rows of
    the first or the second; cut only when even that is too short."""
    for face in faces:
        if face.width(text) <= width:
            return face, [text]
    for face in faces:
        rows = wrap(text, face, width)
        if len(rows) <= 2:
            return face, rows
    small = faces[-1]
    first, *rest = wrap(text, small, width)
    return small, [first, fit(" ".join(rest), small, width)]


def _active_sides(view: GameView) -> set[int]:
    """The sides whose move it is: the one to lay in the play, the one counting in the show."""
    seats: list[int] = []
    if view.phase is Phase.PLAY and view.turn is not None:
        seats = [view.turn]
    elif view.phase is Phase.SHOW and view.up_for_counting not in (None, "crib"):
        seats = [i for i, name in enumerate(view.seat_names) if name == view.up_for_counting]
    elif view.phase is Phase.SHOW and view.dealer is not None:
        seats = [view.dealer]
    return {side.side for side in view.sides if any(seat in side.seats for seat in seats)}


# --- the screens ---------------------------------------------------------------------------


def render_scoreboard(
    view: GameView,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    news: News | None = None,
    chances: tuple[float, ...] | None = None,
    language: Language = Language.ENGLISH,
    locked: bool = False,
) -> Image.Image:
    """Names, big scores, the dealer's mark (●), whose move it is (name highlighted), points
    to go, and a status line (or the lurch line when a side is behind it near the end).

    While *news* is on, its line is the status line and each side whose score changed shows the
    change ("+8") in place of its points to go. Two sides' *chances* to win make a thin bar
    under the names: the first side's share solid from the left, the second's dotted.
    *locked*: the tournament lock's badge on the line between the first two scores
    (``ui.pairing``), where it takes no room from the names, the scores or the status.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    tr = translator(language)
    small, face = p.small, p.status
    columns = len(view.sides)
    column = p.width // columns
    tall = p.height >= 48  # room for "to go" and the status line
    name_y = 2
    # the names a strike up in the large style, unless that would cut one
    names = face if all(face.width(s.name) <= column - 10 for s in view.sides) else small
    digits_top = name_y + names.text_height + 2
    if chances is not None and len(chances) == 2:
        p.share_bar(digits_top, chances[0])
        digits_top += 4
    bottom = p.height
    line, rows = face, [""]
    room = p.width - 2
    if tall:
        warning, warnings = warning_rows(view, (face, small), room, tr)
        if warnings and not (news is not None and news.line):
            # shorter, smaller, by initials; two rows only for two lines that share none
            line, rows = warning, warnings
        else:
            line, rows = _status_rows(view, news, (face, small), room, tr)
        bottom -= len(rows) * (line.text_height + 1) + (1 if p.large else 0)
        status_y = bottom + 2
        bottom -= small.digit_height + 2  # the "to go" row
    digits = largest_face(bottom - digits_top - 1, column - 4, 3)
    active = _active_sides(view)
    gains = news.gains if news is not None and len(news.gains) == columns else ()
    # under each score: the change while it is news, else the points to go, in the longest
    # wording that fits every column with a clear gap between columns (a word space and 4
    # pixels more), so that "121 fehlen 121 fehlen" never reads as one phrase
    to_go = [max(view.target - side.score, 0) for side in view.sides]
    changes = [f"+{n}" if n > 0 else f"−{-n}" if n else "" for n in gains] or [""] * columns
    for wording in (tr.gettext("{n} to go"), tr.gettext("{n} go"), "{n}"):
        under = [change or wording.format(n=n) for change, n in zip(changes, to_go, strict=True)]
        if all(small.width(text) <= column - small.advance - 4 for text in under):
            break
    for i, side in enumerate(view.sides):
        x0 = i * column
        cx = x0 + column // 2
        gain = gains[i] if gains else 0
        label = side.name
        if gain and not tall:  # no "to go" row: the change goes by the name
            label = f"{side.name} {'+' if gain > 0 else '−'}{abs(gain)}"
        name = fit(label, names, column - 10)
        if side.side in active:
            p.inverted(x0 + 1, name_y, name, names)
        else:
            p.text(x0 + 2, name_y, name, names)
        if side.is_dealer:
            mark_x = x0 + 2 + names.width(name) + 5
            p.dot(mark_x, name_y + names.digit_height // 2, 2)
        spare = bottom - digits_top - digits.digit_height
        p.text_center(cx, digits_top + max(spare // 2, 0), str(side.score), digits)
        if tall:
            p.text_center(cx, bottom + 1, under[i], small, FULL if gain else DIM)
        if i:
            p.vline(x0, 0, bottom)
    if tall:
        p.hline(status_y - 2)
        for n, row in enumerate(rows):
            p.text(1, status_y + n * (line.text_height + 1), row, line)
    if locked:  # on the first column's line, halfway down the scores
        draw_badge(p, column - 3, digits_top + max((bottom - digits_top - 9) // 2, 0))
    return p.image


def render_play(
    view: GameView,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    news: News | None = None,
    language: Language = Language.ENGLISH,
    locked: bool = False,
) -> Image.Image:
    """The play: the count (big), the cards of this series and the starter (by rank: suits never
    matter in the play), the scores, and at the bottom what was just pegged while *news* is on,
    whose turn (and who said go) otherwise; *locked*: the tournament lock's badge at its right.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    tall = p.height >= 48
    small = p.status if tall else p.small  # a short screen keeps its rows for the count
    y = 2
    # the starter, top right, as a small card: a framed rank
    right = p.width
    if view.starter is not None:
        label = _rank(view.starter)
        box = small.width("10") + 5
        left_edge = p.width - box
        p.draw.rectangle(
            (left_edge, 0, p.width - 1, y + small.text_height), outline=p.ink(), fill=p.ink(0)
        )
        p.text_center(left_edge + box // 2, y, label, small)
        right = left_edge - 2
    # top row: every side's score, the side to lay highlighted; on a short screen, which has
    # no status row, what the last card scored while it is news
    active = _active_sides(view)
    x = 1
    column = right // len(view.sides)
    if not tall and news is not None and news.line:  # a shorter wording when the line is long
        p.text(1, y, first_fitting((news.line, *news.shorter), small, right - 2), small)
    else:
        face, labels = _score_labels(view, (small, p.small), column - 4)
        for side, label in zip(view.sides, labels, strict=True):
            if side.side in active:
                p.inverted(x, y, label, face)
            else:
                p.text(x + 1, y, label, face, DIM)
            x += column
    top = y + small.text_height + 2
    room = p.width - 2 - (BADGE_ROOM if locked else 0)
    told, status = _status_rows(view, news, (small, p.small), room, translator(language))
    bottom = p.height - (len(status) * (told.text_height + 1) + 2 if tall else 0)
    # the count, big, on the left
    digits = largest_face(bottom - top - 2, p.width // 3, 2)
    spare = bottom - top - digits.digit_height
    count_y = top + spare // 2
    p.text(1, count_y, f"{view.count:>2}", digits)
    # the series on the right, newest last, as many as fit
    left = 2 + digits.width("00") + 4
    cards = [_rank(card) for card in view.series]
    face = largest_face(bottom - top - 2, p.width, 1, digits=False, smallest=12)
    face = font_face(min(face.size, 16 if p.height < 96 else 24))
    rows = max((bottom - top) // (face.text_height + 2), 1)
    lines = _card_rows(cards, face, p.width - left, rows)
    line_y = top + (bottom - top - len(lines) * (face.text_height + 2)) // 2 + 1
    for line in lines:
        p.text(left, line_y, line, face)
        line_y += face.text_height + 2
    if tall:
        p.hline(bottom)
        for n, row in enumerate(status):
            p.text(1, bottom + 3 + n * (told.text_height + 1), row, told)
    if locked:
        draw_badge(p, p.width - 8, p.height - 10)
    return p.image


def _score_labels(view: GameView, faces: tuple[Face, Face], room: int) -> tuple[Face, list[str]]:
    """Each side's name and score for the play's top row, within *room*: whole in the first
    face where all fit, else in the second with each name cut as short as it must be (to its
    initial); a score is never cut ("Red 2 Blu 0 Gre 0" for three sides)."""
    for face in faces:
        labels = [f"{side.name} {side.score}" for side in view.sides]
        if all(face.width(label) <= room for label in labels):
            return face, labels
    face = faces[-1]
    labels = []
    for side in view.sides:
        score = f" {side.score}"
        name = next(
            (
                side.name[:n]
                for n in range(len(side.name), 0, -1)
                if face.width(side.name[:n] + score) <= room
            ),
            side.name[:1],
        )
        labels.append(
            fit(name + score, face, room) if face.width(name + score) > room else name + score
        )
    return face, labels


def _card_rows(cards: Sequence[str], face: Face, width: int, rows: int) -> list[str]:
    """Cards in up to *rows* lines of *width*, keeping the newest (a "…" marks dropped ones)."""
    lines: list[list[str]] = [[]]
    for card in reversed(cards):  # fill from the newest backwards
        line = lines[-1]
        text = " ".join([card, *line])
        if face.width(text) <= width:
            line.insert(0, card)
        elif len(lines) < rows:
            lines.append([card])
        else:
            lines[-1][0] = "…"
            break
    return [" ".join(line) for line in reversed(lines) if line]


def render_entry(
    entry: EntryView, size: Size = (128, 64), mode: str = "1", style: Style = Style.COMPACT
) -> Image.Image:
    """What is typed so far (large, newest at the right), a cursor, and a hint for the next key.

    The text is drawn in the largest strike it fits whole (the cut's "Ann 9, Bob _" keeps the
    first name), and scrolls to keep the newest key in view only when even the smallest is too
    wide. The large style draws the title and hint a strike up where they fit.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    small = p.small
    tall = p.height >= 48
    top = 0
    if entry.title and tall:  # a short screen keeps the entry and its hint, not the title
        bar = p.status if p.status.width(entry.title) <= p.width - 2 else small
        p.inverted(0, 2, fit(entry.title, bar, p.width - 2), bar, width=p.width)
        top = bar.text_height + 3
    bottom = p.height
    if entry.hint:
        lines = entry.hint.splitlines()[: 2 if tall else 1]
        hint = p.status if tall and all(p.status.width(x) <= p.width - 2 for x in lines) else small
        hint_lines = wrap("\n".join(lines), hint, p.width - 2)[: 2 if tall else 1]
        bottom -= len(hint_lines) * (hint.text_height + 1) + 1
        p.hline(bottom)
        for n, line in enumerate(hint_lines):
            p.text(1, bottom + 3 + n * (hint.text_height + 1), line, hint, DIM)
    biggest = largest_face(bottom - top - 4, p.width, 1, digits=False)
    biggest = font_face(min(biggest.size, 24 if p.height < 96 else 32))
    room = bottom - top
    face, lines = typed_lines(entry.text, biggest.size, p.width, room)
    pitch = face.text_height + 2
    y = top + (room - len(lines) * pitch + 2) // 2 + 1
    for line in lines[:-1]:
        p.text(1, y, line, face)
        y += pitch
    text = lines[-1]
    p.text(1, y, text, face)
    cursor_x = 1 + face.width(text) + 1
    p.draw.rectangle(
        (cursor_x, y + face.digit_height - 2, cursor_x + face.advance - 2, y + face.digit_height),
        fill=p.ink(),
    )
    return p.image


def render_error(
    message: str,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """A short error message in a box, wrapped to fit (what the keypad refused, a lost device).

    Short messages are drawn at 16 px; longer ones in the status face of *style*.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    small = p.small
    face = p.status if p.status.text_height * 4 < p.height else small
    if p.height >= 64 and len(message) <= 2 * (p.width // 8 - 1):
        face = font_face(16)
    pitch = face.text_height + 1
    header = small.text_height + 3 if p.height >= 48 else 0  # a short screen keeps the message
    lines = wrap(message, face, p.width - 6)
    rows = max((p.height - header - 3) // pitch, 1)
    if len(lines) > rows:
        lines = [*lines[: rows - 1], fit(lines[rows - 1] + " …", face, p.width - 6)]
    p.draw.rectangle((0, 0, p.width - 1, p.height - 1), outline=p.ink())
    if header:
        p.inverted(0, 2, "", small, width=p.width)
        header_text = translator(language).gettext("! not accepted")
        p.draw.text((3, 2 - small.top), header_text, font=small.font, fill=p.ink(0))
    y = header + (p.height - header - len(lines) * pitch) // 2
    for line in lines:
        p.text_center(p.width // 2, y + 1, line, face)
        y += pitch
    return p.image


def render_paused(
    view: GameView | None,
    size: Size = (128, 64),
    mode: str = "1",
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """ "paused", large, and the scores when a game is known (left on screen while stopped).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    scores = ""
    if view is not None:
        scores = " · ".join(f"{side.name} {side.score}" for side in view.sides)
    room = p.height - (small.text_height + 4 if scores else 0)
    paused = translator(language).gettext("paused")
    big = largest_face(room - 4, p.width - 4, len(paused), digits=False)
    y = (room - big.digit_height) // 2
    p.text_center(p.width // 2, y, paused, big)
    if scores:
        p.text_center(
            p.width // 2,
            p.height - small.text_height - 1,
            fit(scores, small, p.width),
            small,
            DIM,
        )
    return p.image
