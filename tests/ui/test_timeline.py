"""The screen's timeline on a fake clock: the news for its moment, every page of a count for its
whole time (the last one included), then what happens next; a question waits its turn."""

from __future__ import annotations

import itertools

import pytest

from pegboard.devices.ports import FakeClock
from pegboard.engine.view import ScoreView
from pegboard.ui.news import News
from pegboard.ui.timeline import Timeline, step

NEWS, PAGE = 4.0, 2.5
COUNTED = News("Ann +29 → 74", counted=(ScoreView(0, "Ann", 29, 74, "hand", 0, (), (), None, ""),))


def run(
    line: Timeline, clock: FakeClock, until: float, tick: float = 0.25
) -> list[tuple[float, int | None, bool]]:
    """(time, page or None, read) at every change, stepping every *tick* seconds."""
    seen = [(clock.monotonic(), line.count_page, line.read)]
    while clock.monotonic() < until:
        clock.advance(tick)
        line = step(line, clock.monotonic())
        if (line.count_page, line.read) != seen[-1][1:]:
            seen.append((round(clock.monotonic(), 2), line.count_page, line.read))
    return seen


def test_news_is_news_for_its_moment_then_read() -> None:
    clock = FakeClock(100.0)
    line = Timeline(NEWS, PAGE).told(News("Ann +3 → 77"), clock.monotonic())
    assert not line.read and line.news is not None and line.news.line == "Ann +3 → 77"
    assert run(line, clock, 110.0) == [(100.0, None, False), (104.0, None, True)]


def test_every_page_of_a_count_stays_its_whole_time_the_last_one_included() -> None:
    clock = FakeClock(100.0)
    line = Timeline(NEWS, PAGE).told(COUNTED, clock.monotonic()).laid_out(6)
    seen = run(line, clock, 130.0)
    assert [page for _, page, _ in seen] == [0, 1, 2, 3, 4, 5, None]
    times = [t for t, _, _ in seen]
    assert all(b - a >= PAGE for a, b in itertools.pairwise(times))
    assert seen[-1] == (115.0, None, True)  # the last page had its 2.5 s before anything else


def test_a_question_waits_for_the_last_page_even_when_the_news_is_over() -> None:
    line = Timeline(1.0, PAGE).told(COUNTED, 0.0).laid_out(2)
    line = step(line, 1.0)  # the news's moment is over, the count is not
    assert not line.read and line.count_page == 0
    line = step(step(line, 2.5), 4.9)
    assert (line.count_page, line.read) == (1, False)
    assert step(line, 5.0).read


def test_a_late_step_turns_one_page_so_none_goes_unseen() -> None:
    line = Timeline(NEWS, PAGE).told(COUNTED, 0.0).laid_out(3)
    line = step(line, 60.0)  # a loop an hour late still shows page 2 for its time
    assert line.count_page == 1 and line.since == 60.0
    assert step(line, 62.4).count_page == 1 and step(line, 62.5).count_page == 2


def test_no_page_turns_before_the_count_is_laid_out() -> None:
    line = Timeline(NEWS, PAGE).told(COUNTED, 0.0)
    assert step(line, 100.0).count_page == 0 and line.due() == NEWS
    assert line.laid_out(0).count_page is None  # laid out as no count: nothing to wait for


def test_the_page_key_turns_at_once_and_the_page_gets_its_whole_time() -> None:
    line = Timeline(NEWS, PAGE).told(COUNTED, 0.0).laid_out(3)
    line = line.turned(1.0)
    assert line.count_page == 1 and line.due() == pytest.approx(3.5)
    assert not line.turned(1.0).turned(1.0).can_turn and line.turned(1.0).turned(2.0).page == 2


def test_a_key_that_moves_nothing_ends_the_news_but_not_the_count() -> None:
    line = Timeline(NEWS, PAGE).told(COUNTED, 0.0).laid_out(2).faded()
    assert line.news == News(counted=COUNTED.counted) and line.count_page == 0
    assert not line.read
    plain = Timeline(NEWS, PAGE).told(News("Bob: go"), 0.0).faded()
    assert plain.read and plain.news == News()


def test_a_press_with_nothing_to_tell_is_read_at_once() -> None:
    line = Timeline(NEWS, PAGE).told(None, 0.0)
    assert line.read and line.news == News() and line.due() is None


def test_a_count_left_up_by_a_restart_pages_from_its_first_page() -> None:
    line = Timeline(NEWS, PAGE).restarted(10.0, count_up=True).laid_out(2)
    assert (line.count_page, line.news) == (0, None)
    assert step(line, 12.5).count_page == 1 and step(step(line, 12.5), 15.0).read
    assert Timeline().restarted(0.0, count_up=False).read


def test_a_covered_count_turns_no_page_unseen() -> None:
    line = Timeline(NEWS, PAGE).told(COUNTED, 0.0).laid_out(2)
    for t in (1.0, 5.0, 30.0):  # the menu is up over the count
        line = step(line.held(t), t)
    assert line.count_page == 0  # still the first page ...
    assert step(line, 32.4).count_page == 0 and step(line, 32.5).count_page == 1  # ... its time
    assert Timeline().held(3.0) == Timeline()  # nothing counted: nothing to hold
