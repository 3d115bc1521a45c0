"""The screen's timeline: what a press did, the count's pages, then what happens next.

Theory of operation
-------------------
A ``Timeline`` is a frozen value; ``step(timeline, now)`` is its clock, a pure function like
``keypad.press``, and the controller only calls it and asks the value what to show
(``count_page``, ``news``, ``read``). What the screen goes through after a press:

1. **The news** (``told``): what the press did ("Ann +8 → 52", "Bob: a run of 3 for 3, one for
   last", the play held as its last card left it), for ``news_seconds``.
2. **The count**, when the press counted a hand or crib: every page, each up for at least
   ``page_seconds`` from when it came, the last one included. The count's pages are laid out
   by the screen, once, after its first frame is out (``laid_out``); until then no page turns.
   The page key turns a page at once (``turned``), and the new page gets its whole time.
3. **What happens next**, once all that is ``read``: the question the idle keypad's next key
   answers ("flush?"), else the scoreboard or the play with whose move it is. A question waits
   its turn here, and the next key still answers it at once: the keypad does not wait on the
   screen, so a player who knows the question need not wait either.

Nothing timed replaces a page before its time, and no page turns while something else covers
it (``held``: the entry being typed, the menu, an error). A key that moves the game starts a new
timeline at once (the player chose to go on); a key that moves nothing ends the news's moment
but leaves a count's pages as they were (``faded``). A restart with a count left up pages it
from its first page (``restarted``).

>>> line = Timeline(news_seconds=4.0, page_seconds=2.5).told(News("Ann +6 → 6"), 0.0)
>>> step(line, 3.9).read, step(line, 4.0).read
(False, True)
"""

from __future__ import annotations

from dataclasses import replace

from pegboard.frozen import frozen
from pegboard.ui.news import News

__all__ = ["Timeline", "step"]


@frozen
class Timeline:
    """What the screen is going through (see the module doc). Frozen and comparable."""

    news_seconds: float = 4.0
    page_seconds: float = 2.5
    news: News | None = None
    """What the last press did (None: nothing, the count read or a restart)."""
    until: float | None = None
    """When the news's moment ends (None: it has ended, or there is none)."""
    counting: bool = False
    """A count is up and not yet read to the end of its last page."""
    page: int = 0
    pages: int = 0
    """The count's pages (0: not laid out yet)."""
    since: float = 0.0
    """When the count's page that is up came up."""

    def told(self, news: News | None, now: float) -> Timeline:
        """A press that moved the game, and what it did (None: nothing to tell)."""
        counting = news is not None and bool(news.counted)
        until = now + self.news_seconds if news is not None else None
        return replace(
            self, news=news or News(), until=until, counting=counting, page=0, pages=0, since=now
        )

    def faded(self) -> Timeline:
        """A press that moved nothing: the news's moment ends, a count stays as it is."""
        if self.news is None or self.until is None:
            return self
        return replace(self, news=self.news.faded(), until=None)

    def restarted(self, now: float, *, count_up: bool) -> Timeline:
        """The timeline of a table just started: a count left up (*count_up*) pages again."""
        return replace(self, news=None, until=None, counting=count_up, page=0, pages=0, since=now)

    def laid_out(self, pages: int) -> Timeline:
        """The count's pages as the screen lays them out (0: no count is shown after all)."""
        if not self.counting or self.pages:
            return self
        if pages <= 0:
            return replace(self, counting=False)
        return replace(self, pages=pages)

    def held(self, now: float) -> Timeline:
        """The count is covered (by typing, the menu, an error) at *now*: its page's time
        starts again when it is seen again, so no page turns unseen."""
        if not self.counting:
            return self
        return replace(self, since=now)

    @property
    def can_turn(self) -> bool:
        """True when the page key has a page to turn to."""
        return self.counting and self.page < self.pages - 1

    def turned(self, now: float) -> Timeline:
        """The page key: the next page at once, up for a whole ``page_seconds``."""
        if not self.can_turn:
            return self
        return replace(self, page=self.page + 1, since=now)

    @property
    def count_page(self) -> int | None:
        """The count's page to show (None: no count; the screen shows what happens next)."""
        return self.page if self.counting else None

    @property
    def read(self) -> bool:
        """True once the news's moment is over and every page of the count has had its time:
        what happens next (a question) may show."""
        return not self.counting and self.until is None

    def due(self) -> float | None:
        """When ``step`` next changes something (None: not without a press or a lay-out)."""
        times = []
        if self.until is not None:
            times.append(self.until)
        if self.counting and self.pages:
            times.append(self.since + self.page_seconds)
        return min(times, default=None)


def step(timeline: Timeline, now: float) -> Timeline:
    """*timeline* at *now*: the news's moment ended, the count's next page, or the count read.

    One page at most a step, so every page is shown however late the step comes.

    >>> line = Timeline(page_seconds=2.5).told(News(counted=()), 0.0)
    >>> line = replace(line, counting=True).laid_out(2)
    >>> [step(line, t).count_page for t in (2.4, 2.5)]
    [0, 1]
    >>> last = step(line, 2.5)
    >>> step(last, 4.9).count_page, step(last, 5.0).count_page
    (1, None)
    """
    line = timeline
    if line.until is not None and now >= line.until and line.news is not None:
        line = replace(line, news=line.news.faded(), until=None)
    if line.counting and line.pages and now >= line.since + line.page_seconds:
        if line.page < line.pages - 1:
            line = replace(line, page=line.page + 1, since=now)
        else:  # the last page has had its time: the count is read
            line = replace(line, counting=False, news=None, until=None)
    return line
