"""The menu screen: a list with a cursor (the keypad's menu, or any list of settings).

``MenuView.of(entry)`` makes the keypad's menu (``keypad.EntryView.menu``) a ``MenuView``;
``render_menu`` draws it: a title bar, the lines scrolled so the cursor is on screen, each
setting's value at the right (on a second row when it does not fit beside its label). Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard.frozen import frozen
from pegboard.i18n import N_, Language, translator
from pegboard.ui.keypad import EntryView
from pegboard.ui.paint import DIM, FULL, Face, Painter, Size, Style, fit, wrap

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["MenuItem", "MenuView", "render_menu"]


@frozen
class MenuItem:
    """One line of a menu: its label and, for a setting, its current value."""

    label: str
    value: str | None = None


_MENU_TITLE = N_("0-9 pick #↓ * back")
"""The keypad's menu: a line's number picks it, # walks down, * leaves (18 characters: one row
in either style)."""


@frozen
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


def render_menu(
    menu: MenuView,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """A title bar and a list with the cursor's item highlighted, settings' values at the right,
    scrolled so the cursor is always on screen (arrows mark more items above or below).

    An item whose label and value do not fit one row takes two: the label, then the value at
    the right, so neither is cut ("8 match" / "best-of-three"). The large style draws it all a
    strike up.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    face = p.status
    pitch = face.text_height + 2
    room = p.width - face.advance - 4  # after the arrows' column
    labels = [_label_rows(item.label, face, room) for item in menu.items]
    spans = [  # the value beside the label's last row when it fits there, a space between
        len(rows) + (face.width(f"{rows[-1]} {item.value or ''}".rstrip()) > room)
        for item, rows in zip(menu.items, labels, strict=True)
    ]
    top = face.text_height + 4
    if (p.height - top) // pitch < spans[menu.cursor]:  # a short screen: the item, no title
        top = 0
    else:
        title = translator(language).gettext(menu.title)
        p.inverted(0, 2, fit(title, face, p.width - 2), face, width=p.width)
    rows = max((p.height - top) // pitch, 1)
    first = _menu_scroll(spans, menu.cursor, rows)
    y = top + 2
    shown = first
    for index in range(first, len(menu.items)):
        left = (p.height + 2 - y) // pitch  # rows left on the screen
        if left < 1:
            break
        if left < spans[index] and index != menu.cursor:
            break  # an item that does not fit whole is left for the arrow to tell
        span = min(spans[index], left)  # the cursor's item on a short screen: cut to fit
        item = menu.items[index]
        value = item.value or ""
        x = face.advance + 2
        on = index == menu.cursor
        if on:
            p.draw.rectangle(
                (face.advance, y - 2, p.width - 2, y + span * pitch - 3), fill=p.ink(FULL)
            )
        label_rows = labels[index][:span]
        cramped = span < spans[index]  # no room for every row: the label's first, cut to fit
        for n, row in enumerate(label_rows):
            beside = n == span - 1 and (cramped or len(labels[index]) == spans[index])
            label_room = room - (face.width(value) + face.advance if beside and value else 0)
            p.text(x, y + n * pitch, fit(row, face, label_room), face, 0 if on else FULL)
        value = fit(value, face, room)
        p.text_right(p.width - 3, y + (span - 1) * pitch, value, face, 0 if on else DIM)
        y += span * pitch
        shown = index + 1
    if first > 0:
        p.text(0, top + 2, "↑", face, DIM)
    if shown < len(menu.items):
        p.text(0, y - pitch, "↓", face, DIM)
    return p.image


def _label_rows(label: str, face: Face, room: int) -> list[str]:
    """*label* on as many rows as it needs ("0 starter in" / " play"), never cut."""
    if face.width(label) <= room:
        return [label]
    first, *rest = wrap(label, face, room)
    return [first, *(f" {row}" for row in wrap(" ".join(rest), face, room - face.advance))]


def _menu_scroll(spans: Sequence[int], cursor: int, rows: int) -> int:
    """The first item to show so that *cursor* is on screen, about in the middle."""
    first = cursor
    used = spans[cursor]
    while first > 0 and used + spans[first - 1] <= max(rows // 2 + 1, spans[cursor]):
        first -= 1
        used += spans[first]
    # fill the screen downward; then pull up while rows are left over at the end
    total = sum(spans[first:])
    while first > 0 and total + spans[first - 1] <= rows:
        first -= 1
        total += spans[first]
    return first
