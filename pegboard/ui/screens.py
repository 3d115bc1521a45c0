"""OLED screens: pure functions from the game view to a Pillow image.

Theory of operation
-------------------
Every screen is a function of values only (a ``GameView`` plus a few small values: what is typed,
a menu, a message, a page number) and of the display's ``size`` and ``mode``; it returns a new
``PIL.Image.Image`` of exactly that size and mode and touches nothing else. So the same frame
goes to the real OLED, the simulator and the golden-image tests, and a controller can tell that
nothing changed by comparing the ``Screen`` values it would draw (they are frozen and hashable),
while the display adapter also skips frames whose bytes it has just sent.

Layouts are computed from the size, never from 128x64: columns are the width shared by the sides,
the big digits are the largest strike of the bundled font that fits the room left after the text
rows, and rows that do not fit (the status line, "to go") are dropped on short screens such as
128x32. The font, the painter and text fitting live in ``paint.py``.

``choose_screen(view, ...)`` picks what to show: an error or "paused" first, then the keypad's
menu or the entry in progress (both from the keypad's ``EntryView``, drawn as it is), then by
phase (the scoreboard, the play, the count of the hand or crib just shown, game over).
``render_screen(screen, size, mode)`` draws any ``Screen``.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

from pegboard.engine.cards import Card
from pegboard.engine.game import Phase
from pegboard.engine.match import MatchFormat
from pegboard.engine.view import GameView, ScoreView
from pegboard.ui.keypad import EntryView
from pegboard.ui.paint import (
    DIM,
    FULL,
    MODES,
    Face,
    Painter,
    Size,
    fit,
    fit_tail,
    font_face,
    largest_face,
    wrap,
)

__all__ = [
    "MODES",
    "MenuItem",
    "MenuView",
    "Screen",
    "ScreenKind",
    "choose_screen",
    "count_pages",
    "render_count",
    "render_entry",
    "render_error",
    "render_game_over",
    "render_menu",
    "render_paused",
    "render_play",
    "render_scoreboard",
    "render_screen",
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


@dataclass(frozen=True, slots=True)
class MenuItem:
    """One line of a menu: its label and, for a setting, its current value."""

    label: str
    value: str | None = None


_MENU_TITLE = "menu  # down  * back"  # the keypad's menu: digits choose, # walks, * leaves


@dataclass(frozen=True, slots=True)
class MenuView:
    """A list with a cursor, as the menu screen draws it: a menu or the settings.

    ``MenuView.of(entry)`` makes the keypad's menu one.

    Raises:
        ValueError: no items, or the cursor is not on an item.
    """

    title: str
    items: tuple[MenuItem, ...]
    cursor: int = 0

    def __post_init__(self) -> None:
        if not self.items:
            raise ValueError(f"menu {self.title!r} has no items (expected at least one)")
        if not 0 <= self.cursor < len(self.items):
            raise ValueError(
                f"menu cursor {self.cursor!r} is not on an item (expected 0..{len(self.items) - 1})"
            )

    @classmethod
    def of(cls, entry: EntryView) -> MenuView:
        """The keypad's menu in *entry* (its lines and cursor) under the keys that move it.

        Raises:
            ValueError: *entry* holds no menu, or its cursor is not on a line.
        """
        items = tuple(MenuItem(label, value) for label, value in entry.menu)
        return cls(_MENU_TITLE, items, entry.cursor)


@dataclass(frozen=True, slots=True)
class Screen:
    """One screen to draw: its kind and the values it is drawn from.

    Frozen and comparable: equal screens draw equal images, so a controller can skip a redraw.
    """

    kind: ScreenKind
    view: GameView | None = None
    entry: EntryView | None = None
    menu: MenuView | None = None
    message: str = ""
    page: int = 0


def choose_screen(
    view: GameView | None,
    *,
    entry: EntryView | None = None,
    error: str | None = None,
    paused: bool = False,
    count_page: int | None = 0,
) -> Screen:
    """The screen to show now.

    In order: an *error* message, "paused", the keypad's menu (an *entry* with menu lines),
    the *entry* in progress (unless the keypad is idle: ``entry.typing`` False); then by the
    view's phase: game over (or match over), the play, and the count of the hand or crib just
    shown on page *count_page* while the show goes on (and until the next starter is entered,
    so the crib's count can be read); the scoreboard otherwise. Pass ``count_page=None`` to go
    back to the scoreboard after the count has been read.

    Raises:
        ValueError: no view and nothing else to show.
    """
    if error is not None:
        return Screen(ScreenKind.ERROR, view=view, message=error)
    if paused:
        return Screen(ScreenKind.PAUSED, view=view)
    if entry is not None and entry.menu:
        return Screen(ScreenKind.MENU, menu=MenuView.of(entry))
    if entry is not None and entry.typing:
        return Screen(ScreenKind.ENTRY, view=view, entry=entry)
    if view is None:
        raise ValueError("choose_screen needs a view unless an error, pause, menu or entry is on")
    if view.phase in (Phase.GAME_OVER, Phase.MATCH_OVER):
        return Screen(ScreenKind.GAME_OVER, view=view)
    if view.phase is Phase.PLAY:
        return Screen(ScreenKind.PLAY, view=view)
    if (
        count_page is not None
        and view.phase in (Phase.SHOW, Phase.STARTER)
        and view.last is not None
        and view.last.source in ("hand", "crib", "muggins")
    ):
        return Screen(ScreenKind.COUNT, view=view, page=count_page)
    return Screen(ScreenKind.SCOREBOARD, view=view)


def render_screen(screen: Screen, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """Draw *screen* as an image of *size* and *mode*.

    Raises:
        ValueError: an unsupported size or mode, a screen missing the value it is drawn from,
            or a count page out of range.
    """
    kind = screen.kind
    if kind is ScreenKind.ERROR:
        return render_error(screen.message, size, mode)
    if kind is ScreenKind.PAUSED:
        return render_paused(screen.view, size, mode)
    if kind is ScreenKind.MENU:
        if screen.menu is None:
            raise ValueError("a menu screen needs a menu")
        return render_menu(screen.menu, size, mode)
    if kind is ScreenKind.ENTRY:
        if screen.entry is None:
            raise ValueError("an entry screen needs an entry")
        return render_entry(screen.entry, size, mode)
    if screen.view is None:
        raise ValueError(f"a {kind.value} screen needs a game view")
    if kind is ScreenKind.SCOREBOARD:
        return render_scoreboard(screen.view, size, mode)
    if kind is ScreenKind.PLAY:
        return render_play(screen.view, size, mode)
    if kind is ScreenKind.COUNT:
        return render_count(screen.view, screen.page, size, mode)
    return render_game_over(screen.view, size, mode)


def _rank(card: Card) -> str:
    """A card of the play as players call it: its rank only ("5", "10", "J").

    The keypad never types suits (the device picks nominal ones, see ``entry``) and suits
    never matter in the play, so screens never show them.
    """
    return card.rank.label


def _line_warning(view: GameView, face: Face, width: int) -> str:
    """ "lurch: Bob needs 4" once the game is in its last street and a side is behind a line.

    When that does not fit *width*, the sides behind the same line share it, shorter:
    "double skunk: A -49, C -61", and shortest "double skunk: A, C".
    """
    leader = max(side.score for side in view.sides)
    if leader < view.target - 30:  # the last street: someone could peg out within a deal or two
        return ""
    lurch, skunk = view.lurch_line, view.double_skunk_line
    behind: dict[str, list[tuple[str, int]]] = {}
    for side in view.sides:
        if side.score == leader:
            continue
        if skunk is not None and side.score < skunk:
            behind.setdefault("double skunk", []).append((side.name, skunk - side.score))
        elif lurch is not None and side.score < lurch:
            behind.setdefault("lurch", []).append((side.name, lurch - side.score))
    full = "; ".join(
        f"{line}: {name} needs {need}" for line, sides in behind.items() for name, need in sides
    )
    if face.width(full) <= width:
        return full
    short = "; ".join(
        f"{line}: " + ", ".join(f"{name} -{need}" for name, need in sides)
        for line, sides in behind.items()
    )
    if face.width(short) <= width:
        return short
    return "; ".join(  # at least who is behind which line: "double skunk: A, C"
        f"{line}: " + ", ".join(name for name, _ in sides) for line, sides in behind.items()
    )


def _status(view: GameView) -> str:
    """One short line about the moment: who deals, who lays, what is counted next."""
    match view.phase:
        case Phase.CUT:
            return "cut for the deal"
        case Phase.STARTER:
            return f"deal {view.deal}: {view.dealer_name} deals"
        case Phase.PLAY:
            if view.turn_name is None:
                return f"the play · count {view.count}"
            return f"{view.turn_name} to lay · {view.count}"
        case Phase.SHOW:
            up = view.up_for_counting
            if up == "crib":
                return f"count {view.dealer_name}'s crib"
            return f"count {up}'s hand"
        case Phase.GAME_OVER | Phase.MATCH_OVER:
            return f"{view.winner_name} won"


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


def render_scoreboard(view: GameView, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """Names, big scores, the dealer's mark (●), whose move it is (name highlighted), points
    to go, and a status line (or the lurch line when a side is behind it near the end).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    columns = len(view.sides)
    column = p.width // columns
    tall = p.height >= 48  # room for "to go" and the status line
    name_y = 2
    digits_top = name_y + small.text_height + 2
    bottom = p.height
    status = ""
    if tall:
        status = _line_warning(view, small, p.width - 2) or _status(view)
        bottom -= small.text_height + 1
        status_y = bottom + 2
        bottom -= small.digit_height + 2  # the "to go" row
    digits = largest_face(bottom - digits_top - 1, column - 4, 3)
    active = _active_sides(view)
    for i, side in enumerate(view.sides):
        x0 = i * column
        cx = x0 + column // 2
        name = fit(side.name, small, column - 10)
        if side.side in active:
            p.inverted(x0 + 1, name_y, name, small)
        else:
            p.text(x0 + 2, name_y, name, small)
        if side.is_dealer:
            mark_x = x0 + 2 + small.width(name) + 5
            p.dot(mark_x, name_y + small.digit_height // 2, 2)
        spare = bottom - digits_top - digits.digit_height
        p.text_center(cx, digits_top + max(spare // 2, 0), str(side.score), digits)
        if tall:
            to_go = max(view.target - side.score, 0)
            words = f"{to_go} to go"
            if small.width(words) > column - 2:  # three sides on 128 pixels: "-109"
                words = f"-{to_go}"
            p.text_center(cx, bottom + 1, fit(words, small, column), small, DIM)
        if i:
            p.vline(x0, 0, bottom)
    if tall:
        p.hline(status_y - 2)
        p.text(1, status_y, fit(status, small, p.width - 2), small)
    return p.image


def render_play(view: GameView, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """The play: the count (big), the cards of this series and the starter (by rank: suits never
    matter in the play), the scores, whose turn, and what was just pegged.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    tall = p.height >= 48
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
    # top row: every side's score, the side to lay highlighted
    active = _active_sides(view)
    x = 1
    column = right // len(view.sides)
    for side in view.sides:
        label = fit(f"{side.name} {side.score}", small, column - 4)
        if side.side in active:
            p.inverted(x, y, label, small)
        else:
            p.text(x + 1, y, label, small, DIM)
        x += column
    top = y + small.text_height + 2
    bottom = p.height - (small.text_height + 3 if tall else 0)
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
        p.text(1, bottom + 3, fit(_play_news(view), small, p.width - 2), small)
    return p.image


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


def _play_news(view: GameView) -> str:
    """What was just pegged in the play, or whose turn it is."""
    last = view.last
    if last is not None and last.source == "play" and last.calls:
        return f"{_who(view, last)}: {', '.join(last.calls)}"
    if view.said_go:
        names = ", ".join(view.seat_names[seat] for seat in view.said_go)
        return f"go: {names}"
    if view.turn_name is not None:
        return f"{view.turn_name} to lay"
    return "the play is over"


def _who(view: GameView, last: ScoreView) -> str:
    """The player whose cards scored, or the side that pegged."""
    return view.seat_names[last.seat] if last.seat is not None else last.name


def render_entry(entry: EntryView, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """What is typed so far (large, newest at the right), a cursor, and a hint for the next key.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    tall = p.height >= 48
    top = 0
    if entry.title and tall:  # a short screen keeps the entry and its hint, not the title
        p.inverted(0, 2, fit(entry.title, small, p.width - 2), small, width=p.width)
        top = small.text_height + 3
    bottom = p.height
    if entry.hint:
        hint_lines = wrap(entry.hint, small, p.width - 2)[: 2 if tall else 1]
        bottom -= len(hint_lines) * (small.text_height + 1) + 1
        p.hline(bottom)
        for n, line in enumerate(hint_lines):
            p.text(1, bottom + 3 + n * (small.text_height + 1), line, small, DIM)
    face = largest_face(bottom - top - 4, p.width, 1, digits=False)
    face = font_face(min(face.size, 24 if p.height < 96 else 32))
    text = fit_tail(entry.text, face, p.width - face.advance - 2)
    y = top + (bottom - top - face.text_height) // 2 + 1
    p.text(1, y, text, face)
    cursor_x = 1 + face.width(text) + 1
    p.draw.rectangle(
        (cursor_x, y + face.digit_height - 2, cursor_x + face.advance - 2, y + face.digit_height),
        fill=p.ink(),
    )
    return p.image


def _count_calls(view: GameView) -> list[str]:
    last = view.last
    if last is None:
        return ["nothing counted yet"]
    calls = list(last.calls)
    if last.claim is not None and last.source != "muggins":
        calls.insert(0, f"claimed {last.claim}")
    return calls


@dataclass(frozen=True)
class _CountLayout:
    face: Face
    top: int  # y of the first line
    pitch: int  # line to line
    columns: int
    column_width: int
    rows: int  # lines per column

    @property
    def per_page(self) -> int:
        return self.columns * self.rows


def _count_layout(p: Painter) -> _CountLayout:
    """Where the count's lines go: one call per line, in columns of 128 pixels on wide screens."""
    header = p.small.text_height + 4
    face = font_face(12 if p.height < 96 else 16)
    pitch = face.text_height + 1
    columns = max(p.width // 128, 1)
    rows = max((p.height - header) // pitch, 1)
    return _CountLayout(face, header + 3, pitch, columns, p.width // columns, rows)


def _count_lines(view: GameView, layout: _CountLayout) -> list[str]:
    """The calls, one per line; on a screen of one or two lines, packed several to a line."""
    calls = _count_calls(view)
    if layout.rows > 2:
        # a call too long for its column goes on under itself, indented, never cut: the
        # running total at its end is what the players check ("double pair royal is 28")
        room = layout.column_width - 3
        lines: list[str] = []
        for call in calls:
            first, *rest = wrap(call, layout.face, room)
            lines.append(first)
            if rest:
                more = wrap(" ".join(rest), layout.face, room - layout.face.advance)
                lines.extend(f" {line}" for line in more)
        return lines
    lines = []
    for call in calls:
        joined = f"{lines[-1]}, {call}" if lines else call
        if lines and layout.face.width(joined) <= layout.column_width - 3:
            lines[-1] = joined
        else:
            lines.append(call)
    return lines


def count_pages(view: GameView, size: Size = (128, 64)) -> int:
    """How many pages the count of ``view.last`` takes on a screen of *size* (at least 1).

    Raises:
        ValueError: an unsupported size.
    """
    layout = _count_layout(Painter(size, "1"))
    return max(math.ceil(len(_count_lines(view, layout)) / layout.per_page), 1)


def _count_title(view: GameView, last: ScoreView) -> str:
    match last.source:
        case "hand":
            return f"{_who(view, last)}'s hand"
        case "crib":
            return f"{last.name}'s crib"
        case "heels":
            return f"{last.name}: his heels"
        case "play":
            return f"{_who(view, last)}: the play"
        case "muggins":
            return f"{last.name}: muggins"
        case "peg":
            return f"{last.name} pegs"
        case _:
            return f"{last.name}: {last.source}"


def render_count(
    view: GameView, page: int = 0, size: Size = (128, 64), mode: str = "1"
) -> Image.Image:
    """The itemised count of the last peg in the players' words, page *page* (from 0).

    The header names the hand and its points, and shows "page/pages" when there is more than
    one page (``count_pages``).

    Raises:
        ValueError: an unsupported size or mode, or *page* out of range.
    """
    p = Painter(size, mode)
    pages = count_pages(view, size)
    if not 0 <= page < pages:
        raise ValueError(f"count page {page!r} is out of range (expected 0..{pages - 1})")
    small = p.small
    layout = _count_layout(p)
    last = view.last
    title = _count_title(view, last) if last is not None else "the count"
    points = f"{last.points}" if last is not None else ""
    mark = f"{page + 1}/{pages}" if pages > 1 else ""
    right = f"{points} {mark}".strip()
    p.inverted(0, 2, "", small, width=p.width)
    p.draw.text(
        (1, 2 - small.top),
        fit(title, small, p.width - small.width(right) - 6),
        font=small.font,
        fill=p.ink(0),
    )
    p.draw.text(
        (p.width - small.width(right) - 1, 2 - small.top), right, font=small.font, fill=p.ink(0)
    )
    per_page = layout.per_page
    lines = _count_lines(view, layout)[page * per_page : (page + 1) * per_page]
    face = layout.face
    for n, line in enumerate(lines):
        column, row = divmod(n, layout.rows)
        x = column * layout.column_width + 2
        p.text(x, layout.top + row * layout.pitch, fit(line, face, layout.column_width - 3), face)
    return p.image


def _lurch_words(view: GameView) -> str:
    """ "lurched!" / "double skunk!" for the worst-off loser, or "" for a plain win."""
    worst = {side.lurch for side in view.sides}
    if "double-skunked" in worst:
        return "double skunk!"
    if "lurched" in worst:
        return "lurched!"
    return ""


def _match_line(view: GameView) -> str:
    match_ = view.match
    if match_.format is MatchFormat.SINGLE:
        return ""
    if match_.format is MatchFormat.BEST_OF_THREE:
        scores = match_.game_points
        label = "match"
    else:
        scores = match_.games_won
        label = "games"
    return f"{label}: " + " · ".join(
        f"{name} {score}" for name, score in zip(view.names, scores, strict=True)
    )


def render_game_over(view: GameView, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """The winner, "lurched!" or "double skunk!", the final scores, the game points and the
    match score (or the match's winner once the match is over).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    match_over = view.phase is Phase.MATCH_OVER
    winner = view.match.winner_name if match_over else view.winner_name
    headline = f"{winner} wins{' the match' if match_over else ''}!"
    big = largest_face(p.height // 3, p.width, len(headline), digits=False, smallest=12)
    lines: list[tuple[str, Face, int]] = [(fit(headline, big, p.width), big, FULL)]
    lurch = _lurch_words(view)
    scores = " – ".join(str(side.score) for side in view.sides)
    points = view.game_points
    detail = scores if points is None else f"{scores} · {points} pt{'s' if points != 1 else ''}"
    if lurch:
        lines.append((lurch, font_face(16) if p.height >= 48 else small, FULL))
    lines.append((detail, small, FULL))
    match_line = _match_line(view)
    if match_line:
        lines.append((match_line, small, DIM))
    if p.height < 48:
        # a short screen: the headline, then one line of what fits, most telling first (the
        # lurch, the game points, the scores, the match), never a piece cut in half
        pieces = [lurch, "" if points is None else f"{points} pt{'s' if points != 1 else ''}"]
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


def render_menu(menu: MenuView, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """A title bar and a list with the cursor's item highlighted, settings' values at the right,
    scrolled so the cursor is always on screen (arrows mark more items above or below).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    p.inverted(0, 2, fit(menu.title, small, p.width - 2), small, width=p.width)
    top = small.text_height + 4
    pitch = small.text_height + 2
    rows = max((p.height - top) // pitch, 1)
    first = min(max(menu.cursor - rows // 2, 0), max(len(menu.items) - rows, 0))
    y = top + 2
    for index in range(first, min(first + rows, len(menu.items))):
        item = menu.items[index]
        value = item.value or ""
        room = p.width - small.width(value) - small.advance * 2 - 4
        label = fit(item.label, small, room)
        if index == menu.cursor:
            p.inverted(small.advance, y, "", small, width=p.width - small.advance - 1)
            p.draw.text((small.advance + 2, y - small.top), label, font=small.font, fill=p.ink(0))
            p.draw.text(
                (p.width - small.width(value) - 3, y - small.top),
                value,
                font=small.font,
                fill=p.ink(0),
            )
        else:
            p.text(small.advance + 2, y, label, small)
            p.text_right(p.width - 3, y, value, small, DIM)
        y += pitch
    if first > 0:
        p.text(0, top + 2, "↑", small, DIM)
    if first + rows < len(menu.items):
        p.text(0, top + 2 + (rows - 1) * pitch, "↓", small, DIM)
    return p.image


def render_error(message: str, size: Size = (128, 64), mode: str = "1") -> Image.Image:
    """A short error message in a box, wrapped to fit (what the keypad refused, a lost device).

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode)
    small = p.small
    face = font_face(16) if p.height >= 64 and len(message) <= 2 * (p.width // 8 - 1) else small
    pitch = face.text_height + 1
    header = small.text_height + 3 if p.height >= 48 else 0  # a short screen keeps the message
    lines = wrap(message, face, p.width - 6)
    rows = max((p.height - header - 3) // pitch, 1)
    if len(lines) > rows:
        lines = [*lines[: rows - 1], fit(lines[rows - 1] + " …", face, p.width - 6)]
    p.draw.rectangle((0, 0, p.width - 1, p.height - 1), outline=p.ink())
    if header:
        p.inverted(0, 2, "", small, width=p.width)
        p.draw.text((3, 2 - small.top), "! not accepted", font=small.font, fill=p.ink(0))
    y = header + (p.height - header - len(lines) * pitch) // 2
    for line in lines:
        p.text_center(p.width // 2, y + 1, line, face)
        y += pitch
    return p.image


def render_paused(view: GameView | None, size: Size = (128, 64), mode: str = "1") -> Image.Image:
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
    big = largest_face(room - 4, p.width - 4, len("paused"), digits=False)
    y = (room - big.digit_height) // 2
    p.text_center(p.width // 2, y, "paused", big)
    if scores:
        p.text_center(
            p.width // 2,
            p.height - small.text_height - 1,
            fit(scores, small, p.width),
            small,
            DIM,
        )
    return p.image
