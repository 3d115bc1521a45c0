"""The headless run's text trace (``screens.jsonl``), and what it shows of whole random games.

Random games (``randomgames``: real cards, typed as a table would, the players reading each
count to its end) are replayed by ``pegboard run --simulate --headless --keys FILE --out DIR``
in English and German, in the large and the compact style; the trace must show every page
1..N of every count, each for at least ``page_seconds`` (the last one included).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pegboard.cli.main import main as pegboard_main
from pegboard.engine.rules import Variant
from tests.table.randomgames import random_game

PAGE_SECONDS = 2.5  # the default [display] page_seconds


def read_trace(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


def unread_pages(frames: Sequence[dict[str, Any]], page_seconds: float) -> list[str]:
    """Every count in *frames* whose pages were not each shown for *page_seconds*: one line
    each ("Ann's hand 8: page 2/2 shown 0 s at 31.5 s"); [] when every count was read."""
    problems: list[str] = []
    counts: list[dict[str, Any]] = []  # the count being shown: its title, pages and times
    for n, frame in enumerate(frames):
        end = frames[n + 1]["t"] if n + 1 < len(frames) else None
        if frame["kind"] != "count":
            continue
        index, pages = (int(x) for x in (frame["page"] or "1/1").split("/"))
        if not counts or counts[-1]["title"] != frame["title"] or counts[-1]["last"] != n - 1:
            counts.append({"title": frame["title"], "pages": pages, "shown": {}, "at": {}})
        count = counts[-1]
        count["last"] = n
        shown = (end - frame["t"]) if end is not None else float("inf")
        count["shown"][index] = count["shown"].get(index, 0.0) + shown
        count["at"].setdefault(index, frame["t"])
    for count in counts:
        for page in range(1, count["pages"] + 1):
            shown = count["shown"].get(page)
            if shown is None:
                problems.append(f"{count['title']}: page {page}/{count['pages']} never shown")
            elif shown < page_seconds - 1e-6:
                at = count["at"][page]
                problems.append(
                    f"{count['title']}: page {page}/{count['pages']} shown {shown:g} s at {at:g} s"
                )
    return problems


def _frame(t: float, kind: str, title: str = "", page: str | None = None) -> dict[str, Any]:
    return {"t": t, "kind": kind, "title": title, "lines": [], "footer": "", "page": page}


def test_unread_pages_finds_a_last_page_cut_short_and_a_page_never_shown() -> None:
    read = [
        _frame(0.0, "count", "Ann's hand 29", "1/2"),
        _frame(2.5, "count", "Ann's hand 29", "2/2"),
        _frame(5.0, "entry"),
    ]
    assert unread_pages(read, PAGE_SECONDS) == []
    cut = [*read[:2], _frame(2.5, "entry")]
    assert unread_pages(cut, PAGE_SECONDS) == ["Ann's hand 29: page 2/2 shown 0 s at 2.5 s"]
    skipped = [read[0], _frame(2.5, "entry")]
    assert unread_pages(skipped, PAGE_SECONDS) == ["Ann's hand 29: page 2/2 never shown"]


def _replay(tmp_path: Path, keys: str, style: str) -> list[dict[str, Any]]:
    key_file = tmp_path / "game.keys"
    key_file.write_text(keys)
    config = tmp_path / "pegboard.toml"
    config.write_text(f'[display]\nstyle = "{style}"\n')
    out = tmp_path / "out"
    args = ["run", "--simulate", "--headless", "--config", str(config)]
    assert pegboard_main([*args, "--keys", str(key_file), "--out", str(out)]) == 0
    return read_trace(out / "screens.jsonl")


def test_the_trace_has_a_line_a_frame_with_its_time_and_words(tmp_path: Path) -> None:
    keys = Path(__file__).parents[1] / "keys" / "readme-session.keys"
    frames = _replay(tmp_path, keys.read_text(), "large")
    assert frames[0] == {
        "t": 0.0,
        "kind": "entry",
        "title": "cut",
        "lines": ["Ann _"],
        "footer": "rank each; # random / 0=10 A=J B=Q C=K",
        "page": None,
    }
    counts = [f for f in frames if f["kind"] == "count"]
    assert counts and counts[0]["title"] == "Ann's hand 8" and counts[0]["page"] == "1/2"
    assert counts[-1]["page"] == "2/2" and counts[-1]["footer"] == "Ann +8 → 8"
    assert counts[-1]["t"] - counts[0]["t"] == PAGE_SECONDS  # the key file waits to read it
    times = [f["t"] for f in frames]
    assert times == sorted(times)


GAMES = [
    pytest.param(1, Variant.SIX_CARD, "en", "large", False, id="six-card-en-large"),
    pytest.param(2, Variant.SIX_CARD, "de", "compact", True, id="six-card-de-compact-muggins"),
    pytest.param(3, Variant.THREE_HANDED, "en", "compact", False, id="three-handed-en-compact"),
    pytest.param(4, Variant.FIVE_CARD, "de", "large", False, id="five-card-de-large"),
    pytest.param(5, Variant.SIX_CARD, "de", "large", True, id="six-card-de-large-muggins"),
    pytest.param(6, Variant.SIX_CARD, "en", "compact", True, id="six-card-en-compact-muggins"),
]


@pytest.mark.timeout(300)  # a hang guard: a few seconds a game
@pytest.mark.parametrize(("seed", "variant", "language", "style", "muggins"), GAMES)
def test_every_page_of_every_count_of_a_random_game_is_shown_its_whole_time(
    tmp_path: Path, seed: int, variant: Variant, language: str, style: str, muggins: bool
) -> None:
    keys = random_game(random.Random(seed), variant=variant, language=language, muggins=muggins)
    frames = _replay(tmp_path, keys, style)
    assert frames[-1]["kind"] == "game over", frames[-1]
    counts = [f for f in frames if f["kind"] == "count"]
    assert len({f["title"] for f in counts}) >= 3  # hands and cribs, counted and paged
    assert any(f["page"] != "1/1" for f in counts)  # some count takes more than a page
    assert unread_pages(frames, PAGE_SECONDS) == []


KEY_FILES = sorted((Path(__file__).parents[1] / "keys").glob("*.keys"))


@pytest.mark.parametrize("keys", KEY_FILES, ids=[p.stem for p in KEY_FILES])
def test_the_repositorys_key_files_wait_while_the_table_reads_each_count(
    tmp_path: Path, keys: Path
) -> None:
    """The tutorials' key files (and so the README's GIF) show every count whole."""
    frames = _replay(tmp_path, keys.read_text(), "large")
    if keys.stem != "spoken-deal":  # its one count pegs Ann out: the game-over screen shows it
        assert any(f["kind"] == "count" for f in frames)
    assert unread_pages(frames, PAGE_SECONDS) == []
