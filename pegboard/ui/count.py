"""The count screen: a hand or crib counted, call by call, paged to fit the screen.

Theory of operation
-------------------
``tally_of(view, counted)`` gathers what the screen says: a title ("Ann's hand"), the true
total, the calls in the players' words (each ending on the running total: "fifteen 4", "and a
pair is 6"), then a muggins claim ("claimed 4") and the points a short claim gave away
("muggins: Bob +2"), and what each side pegged ("Ann +4 → 40 · Bob +2 → 52"). *counted* is the
news of the press that counted (``news.News.counted``); without it the view's last peg is used
(after a restart, say).

The screen is a header bar with the title and the total (always on screen), the calls, and a
footer: on every page but the last the key that turns the page ("* next page") and the page
number, on the last what was pegged. A call never breaks across pages, so its running total is
read with it. The compact style fits three calls a page on 128x64 (12 px); the large one two
(16 px), under a 14 px header and footer. Screens of one or two rows (128x32) have no footer:
the header carries the page ("29 1/8 *") and what was pegged is the last line.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard.engine.view import GameView, ScoreView
from pegboard.frozen import frozen
from pegboard.i18n import NC_, Language, translator
from pegboard.ui.paint import DIM, Face, Painter, Size, Style, fit, font_face, wrap

if TYPE_CHECKING:
    from PIL import Image

__all__ = ["PAGE_KEY", "Tally", "count_pages", "count_text", "render_count", "tally_of"]

PAGE_KEY = "*"
"""The key that turns the count's page (with nothing typed, it means nothing else there)."""


@frozen
class Tally:
    """What the count screen says: title, true total, calls, and what was pegged."""

    title: str
    total: int | None
    calls: tuple[str, ...]
    pegged: tuple[str, ...]
    """What each side pegged and its score, longest wording first: "Ann +4 → 40 · Bob +2 →
    52", "Ann +4→40 · Bob +2→52", "Ann → 40 · Bob → 52", "Ann 40 · Bob 52"."""
    shorter: tuple[str, ...] = ()
    """Shorter titles for a narrow bar, longest first: another language's longer words fall
    back on a short form ("Ann: Hand"), then the name alone; English needs none."""


def tally_of(
    view: GameView, counted: Sequence[ScoreView] = (), language: Language = Language.ENGLISH
) -> Tally:
    """The count of *counted* (the hand or crib, then any muggins peg), or of ``view.last``,
    in *language*."""
    tr = translator(language)
    pegs = tuple(counted) or ((view.last,) if view.last is not None else ())
    if not pegs:
        return Tally(tr.gettext("the count"), None, (tr.gettext("nothing counted yet"),), ())
    first = pegs[0]
    calls = list(_calls(first, language))
    total = first.points
    if first.source in ("hand", "crib"):
        total = sum(item.points for item in first.items)
        if first.claim is not None:  # the claim and what it gave away, read together
            muggins = tr.gettext("muggins: {name} +{points}")
            taken = [
                muggins.format(name=p.name, points=p.points)
                for p in pegs[1:]
                if p.source == "muggins"
            ]
            claimed = tr.gettext("claimed {points}").format(points=first.claim)
            calls.append("\n".join([claimed, *taken]))
    forms = ("{n} +{p} → {s}", "{n} +{p}→{s}", "{n} → {s}", "{n} {s}")
    pegged = tuple(
        " · ".join(form.format(n=peg.name, p=peg.points, s=peg.score) for peg in pegs)
        for form in forms
    )
    shorter: tuple[str, ...] = ()
    if language is not Language.ENGLISH and first.source in ("hand", "crib"):
        who = view.seat_names[first.seat] if first.seat is not None else first.name
        hand = first.source == "hand"
        words = NC_("short", "{name}'s hand") if hand else NC_("short", "{name}'s crib")
        shorter = (tr.pgettext("short", words).format(name=who), who)
    return Tally(_title(view, first, language), total, tuple(calls), pegged, shorter)


def _calls(peg: ScoreView, language: Language) -> tuple[str, ...]:
    """The peg's calls in *language* (English: the view's own)."""
    if language is Language.ENGLISH:
        return peg.calls
    from pegboard.i18n.calls import peg_calls

    return peg_calls(peg, language)


def _title(view: GameView, last: ScoreView, language: Language) -> str:
    tr = translator(language)
    who = view.seat_names[last.seat] if last.seat is not None else last.name
    match last.source:
        case "hand":
            return tr.gettext("{name}'s hand").format(name=who)
        case "crib":
            return tr.gettext("{name}'s crib").format(name=last.name)
        case "heels":
            return tr.gettext("{name}: his heels").format(name=last.name)
        case "play":
            return tr.gettext("{name}: the play").format(name=who)
        case "muggins":
            return tr.gettext("{name}: muggins").format(name=last.name)
        case "peg":
            return tr.gettext("{name} pegs").format(name=last.name)
        case _:
            return f"{last.name}: {last.source}"


@frozen
class _Layout:
    bar: Face  # the header: title and total
    faces: tuple[Face, ...]  # the calls' face, then smaller ones a long call may take
    foot: Face | None  # the footer (None: no room, on screens of one or two rows)
    top: int  # y of the first row
    bottom: int  # one past the last row's ink
    columns: int
    column_width: int

    def rows(self, face: Face) -> int:
        """Rows of *face* on a page, every column together."""
        return max((self.bottom - self.top + 1) // (face.text_height + 1), 1) * self.columns


def _layout(p: Painter) -> _Layout:
    """Where the count's rows go: in columns of 128 pixels on wide screens."""
    tall = p.height >= 96
    sizes: tuple[int, ...]
    if p.large:  # 16 px calls (24 on tall screens); a call too long for a page goes smaller
        bar = p.status if p.height >= 48 else p.small
        sizes = (24, 20, 16) if tall else (16, 14, 12)
    else:
        bar, sizes = p.small, (16 if tall else 12,)
    foot = p.status if p.height >= 48 else None
    top = bar.text_height + 7
    bottom = p.height - (foot.text_height + 3 if foot is not None else 0)
    columns = max(p.width // 128, 1)
    faces = tuple(font_face(size) for size in sizes)
    return _Layout(bar, faces, foot, top, bottom, columns, p.width // columns)


_Page = tuple[Face, tuple[str, ...]]


def _pages(tally: Tally, layout: _Layout) -> list[_Page]:
    """Each page's face and rows.

    A call too long for its column goes on under itself, indented, never cut; it starts a
    page of its own when it would break across one, in a smaller face when that keeps it on
    one page. Without a footer what was pegged comes last.
    """
    room = layout.column_width - 3
    calls = list(tally.calls)
    if layout.foot is None and tally.pegged:  # no footer: what was pegged is the last call
        calls.append(_first_fitting(tally.pegged, layout.faces[0], room))
    main = layout.faces[0]
    if layout.rows(main) <= 2 and layout.columns == 1 and len(layout.faces) == 1:
        calls = _packed(calls, main, room)  # compact and short: several calls to a row
    pages: list[tuple[Face, list[str]]] = []
    for call in calls:
        face, rows = main, _wrapped(call, main, room)
        for smaller in layout.faces[1:]:
            if len(rows) <= layout.rows(face):
                break
            face, rows = smaller, _wrapped(call, smaller, room)
        if pages and pages[-1][0] == face and len(pages[-1][1]) + len(rows) <= layout.rows(face):
            pages[-1][1].extend(rows)
            continue
        per_page = layout.rows(face)  # a call longer than a page at the smallest face: split
        pages += [(face, rows[n : n + per_page]) for n in range(0, len(rows), per_page)]
    return [(face, tuple(rows)) for face, rows in pages] or [(main, ())]


def _first_fitting(options: Sequence[str], face: Face, width: int) -> str:
    return next((text for text in options if face.width(text) <= width), options[-1])


def _wrapped(call: str, face: Face, room: int) -> list[str]:
    """The rows of *call*: its lines (split at newlines), each going on under itself."""
    rows: list[str] = []
    for line in call.splitlines():
        first, *rest = wrap(line, face, room)
        more = wrap(" ".join(rest), face, room - face.advance) if rest else []
        rows += [first, *(f" {row}" for row in more)]
    return rows


def _packed(calls: Sequence[str], face: Face, room: int) -> list[str]:
    rows: list[str] = []
    for call in calls:
        joined = f"{rows[-1]}, {call}" if rows else call
        if rows and face.width(joined) <= room:
            rows[-1] = joined
        else:
            rows.append(call)
    return rows


def count_pages(
    view: GameView,
    size: Size = (128, 64),
    style: Style = Style.COMPACT,
    counted: Sequence[ScoreView] = (),
    language: Language = Language.ENGLISH,
) -> int:
    """How many pages the count takes on a screen of *size* in *style* (at least 1), in
    *language*.

    Raises:
        ValueError: an unsupported size.
    """
    return len(_pages(tally_of(view, counted, language), _layout(Painter(size, "1", style))))


def count_text(
    view: GameView,
    page: int = 0,
    size: Size = (128, 64),
    style: Style = Style.COMPACT,
    counted: Sequence[ScoreView] = (),
    language: Language = Language.ENGLISH,
) -> tuple[str, tuple[str, ...], str, str]:
    """The words of page *page* as ``render_count`` lays them out: the title with the total,
    the page's rows, the footer (the page key, or what was pegged on the last page) and the
    page as "i/N" (a screen's text trace).

    Raises:
        ValueError: an unsupported size, or *page* out of range.
    """
    tr = translator(language)
    tally = tally_of(view, counted, language)
    pages = _pages(tally, _layout(Painter(size, "1", style)))
    if not 0 <= page < len(pages):
        raise ValueError(f"count page {page!r} is out of range (expected 0..{len(pages) - 1})")
    last = page == len(pages) - 1
    title = tally.title if tally.total is None else f"{tally.title} {tally.total}"
    next_page = tr.gettext("{key} next page").format(key=PAGE_KEY)
    footer = (tally.pegged[0] if tally.pegged else "") if last else next_page
    return title, pages[page][1], footer, f"{page + 1}/{len(pages)}"


def render_count(
    view: GameView,
    page: int = 0,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    counted: Sequence[ScoreView] = (),
    language: Language = Language.ENGLISH,
) -> Image.Image:
    """The itemised count in the players' words, page *page* (from 0), in *language*; see the
    module doc.

    Raises:
        ValueError: an unsupported size or mode, or *page* out of range.
    """
    p = Painter(size, mode, style)
    layout = _layout(p)
    tally = tally_of(view, counted, language)
    tr = translator(language)
    pages = _pages(tally, layout)
    if not 0 <= page < len(pages):
        raise ValueError(f"count page {page!r} is out of range (expected 0..{len(pages) - 1})")
    last = page == len(pages) - 1
    mark = f"{page + 1}/{len(pages)}" if len(pages) > 1 else ""
    bar = layout.bar
    right = "" if tally.total is None else str(tally.total)
    if layout.foot is None and mark:
        right = f"{right} {mark}{'' if last else ' ' + PAGE_KEY}".strip()
    p.inverted(0, 2, "", bar, width=p.width)
    room = p.width - bar.width(right) - 6
    titles = (tally.title, *tally.shorter)
    title = fit(next((t for t in titles if bar.width(t) <= room), titles[-1]), bar, room)
    p.draw.text((1, 2 - bar.top), title, font=bar.font, fill=p.ink(0))
    p.draw.text((p.width - bar.width(right) - 1, 2 - bar.top), right, font=bar.font, fill=p.ink(0))
    face, rows = pages[page]
    per_column = layout.rows(face) // layout.columns
    for n, line in enumerate(rows):
        column, row = divmod(n, per_column)
        x = column * layout.column_width + 2
        y = layout.top + row * (face.text_height + 1)
        p.text(x, y, fit(line, face, layout.column_width - 3), face)
    foot = layout.foot
    if foot is not None:
        y = p.height - foot.text_height - 1
        p.hline(y - 2)
        if not last:
            p.text(1, y, tr.gettext("{key} next page").format(key=PAGE_KEY), foot, DIM)
            p.text_right(p.width - 1, y, mark, foot, DIM)
        elif tally.pegged:  # what was pegged, with the page mark when there is room
            wide = p.width - 2
            narrow = wide - (foot.width(mark) + foot.advance if mark else 0)
            options = [(f, narrow, t) for f in (foot, p.small) for t in tally.pegged]
            options += [(f, wide, t) for f in (foot, p.small) for t in tally.pegged]
            face, room, words = next(
                ((f, r, t) for f, r, t in options if f.width(t) <= r),
                (p.small, wide, tally.pegged[-1]),
            )
            p.text(1, y, fit(words, face, room), face)
            if room == narrow:
                p.text_right(p.width - 1, y, mark, foot, DIM)
    return p.image
