"""A screen's words: what a ``Screen`` says, as text, for a trace of every frame.

``screen_text(screen, size, style, language)`` gives a ``ScreenText``: a title, the lines, a
footer and, for a count, the page as "i/N", the same words the screen draws (a count laid out
in pages for that *size* and *style*), without the pixels. ``pegboard run --simulate --headless
--out DIR`` writes one a frame to ``DIR/screens.jsonl`` (``table.trace``), so tests, tutorials
and bug reports can read what the table saw, and when. Pure: a screen in, words out.
"""

from __future__ import annotations

from typing import Any

from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.i18n import Language, Translator, translator
from pegboard.ui.count import count_text
from pegboard.ui.news import News
from pegboard.ui.paint import Size, Style
from pegboard.ui.results import game_over_words
from pegboard.ui.screens import Screen, ScreenKind
from pegboard.ui.status import status_options

__all__ = ["ScreenText", "screen_text"]


@frozen
class ScreenText:
    """What one frame says: its kind, title, lines, footer and page ("i/N", or "")."""

    kind: str
    title: str = ""
    lines: tuple[str, ...] = ()
    footer: str = ""
    page: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of a trace line (without its time)."""
        return {
            "kind": self.kind,
            "title": self.title,
            "lines": list(self.lines),
            "footer": self.footer,
            "page": self.page or None,
        }


def screen_text(
    screen: Screen,
    size: Size = (128, 64),
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
) -> ScreenText:
    """The words of *screen* on a display of *size* in *style*, in *language*.

    Raises:
        ValueError: a screen missing the value it is drawn from, or a count page out of range.
    """
    tr = translator(language)
    kind, view = screen.kind, screen.view
    match kind:
        case ScreenKind.ERROR:
            return ScreenText(kind.value, tr.gettext("! not accepted"), (screen.message,))
        case ScreenKind.PAUSED:
            return ScreenText(kind.value, tr.gettext("paused"), _scores(view))
        case ScreenKind.ENTRY if screen.entry is not None:
            entry = screen.entry
            return ScreenText(kind.value, entry.title, (entry.text,), " / ".join(_hint(entry.hint)))
        case ScreenKind.MENU if screen.menu is not None:
            menu = screen.menu
            items = tuple(
                f"{'>' if n == menu.cursor else ' '} {item.label}"
                + (f": {item.value}" if item.value is not None else "")
                for n, item in enumerate(menu.items)
            )
            return ScreenText(kind.value, menu.title, items)
        case ScreenKind.HEAD_TO_HEAD if screen.record is not None:
            record = screen.record
            won = " – ".join(str(n) for n in record.games_won)
            return ScreenText(kind.value, " – ".join(record.names), (won,))
    if view is None:
        raise ValueError(f"a {kind.value} screen needs a game view")
    match kind:
        case ScreenKind.COUNT:
            counted = screen.news.counted if screen.news is not None else ()
            title, rows, footer, page = count_text(
                view, screen.page, size, style, counted, language
            )
            return ScreenText(kind.value, title, rows, footer, page)
        case ScreenKind.GAME_OVER:
            words = game_over_words(view, language)
            return ScreenText(kind.value, words[0], words[1:])
        case ScreenKind.PLAY:
            series = " ".join(card.rank.label for card in view.series)
            lines = (str(view.count), series) if series else (str(view.count),)
            return ScreenText(
                kind.value, " · ".join(_scores(view)), lines, _status(view, screen, tr)
            )
        case _:
            return ScreenText(
                kind.value, "", _scores(view, news=screen.news), _status(view, screen, tr)
            )


def _hint(hint: str) -> list[str]:
    return [line for line in hint.splitlines() if line]


def _scores(view: GameView | None, news: News | None = None) -> tuple[str, ...]:
    """ "Ann 12 ●" for each side (● the dealer), "+8" by a score the news just changed."""
    if view is None:
        return ()
    gains = news.gains if news is not None and len(news.gains) == len(view.sides) else ()
    rows = []
    for n, side in enumerate(view.sides):
        gain = gains[n] if gains else 0
        mark = " ●" if side.is_dealer else ""
        change = f" {'+' if gain > 0 else '−'}{abs(gain)}" if gain else ""
        rows.append(f"{side.name} {side.score}{mark}{change}")
    return tuple(rows)


def _status(view: GameView, screen: Screen, tr: Translator) -> str:
    """The status row: the news while it is on, else what happens next."""
    news = screen.news
    if news is not None and news.line:
        return news.line
    options = status_options(view, tr)
    return options[0] if options else ""
