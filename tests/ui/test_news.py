"""News: what one press did, in the players' words, from the events and the views around it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.events import Event
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.journal import Journal
from pegboard.ui.news import News, news_of

NAMES = ("Ann", "Bob")
CUT = ["cut 9H 3C"]  # Bob deals; Ann leads
HANDS = [*CUT, "starter 5C", "next"]
HANDS_7 = [*CUT, "starter 7C", "next"]  # AH 3D 9S QC with a 7: nineteen
FIFTEEN = [*CUT, "starter 5C", "play 5H", "play 10D"]
PLAY_GO = [*CUT, "starter 7C", "play 10D", "play KD", "play 9C", "play AH"]
PLAY_END = [*PLAY_GO, "go", "go", "play 2C", "play 4S", "play 3H", "play 5S"]


def told(commands: Sequence[str], rules: Rules | None = None) -> News | None:
    """The news of the last of *commands*, played from a new game."""
    rules = rules or Rules.six_card()
    state = GameState.new(rules, NAMES)
    events: list[Event] = []
    before = render_view(state)
    for text in commands:
        before = render_view(state)
        state, events = apply(state, parse_command(text, state.names))
    return news_of(before, render_view(state), events)


def line(commands: Sequence[str], rules: Rules | None = None) -> str:
    news = told(commands, rules)
    return news.line if news is not None else ""


@pytest.mark.parametrize(
    ("commands", "words"),
    [
        pytest.param([*CUT, "peg Ann 8"], "Ann +8 → 8", id="manual-peg"),
        pytest.param([*CUT, "starter JD"], "Bob: two for his heels", id="heels"),
        pytest.param(FIFTEEN, "Bob: fifteen for 2", id="fifteen"),
        pytest.param([*PLAY_GO, "go"], "Ann: go", id="a-go"),
        pytest.param([*PLAY_GO, "go", "go"], "Bob: go, one for the go", id="the-go-that-pegs"),
        pytest.param(PLAY_END, "Bob: a run of 4 for 4, one for last", id="last-card"),
        pytest.param([*HANDS, "show 5H 5D 5S JC"], "Ann +29 → 29", id="a-hand"),
        pytest.param([*HANDS_7, "show AH 3D 9S QC"], "Ann +0 → 0", id="nineteen"),
        pytest.param([*HANDS, "next"], "Ann's hand not counted", id="skipped"),
        pytest.param([*CUT, "starter 5C", "next", "show 8"], "Ann's hand +8 → 8", id="told-8"),
        pytest.param(
            [*CUT, "starter 5C", "next", "show 8", "show 2", "crib 12"],
            "Bob's crib +12 → 14",
            id="crib-told-12",
        ),
        pytest.param([*CUT, "starter 5C", "next", "show 0"], "Ann's hand +0 → 0", id="told-0"),
        pytest.param([*CUT, "peg Ann 8", "undo"], "undone: Ann's peg, 8", id="undo-peg"),
        pytest.param([*CUT, "peg Ann 8", "undo", "redo"], "redone: Ann's peg, 8", id="redo-peg"),
        pytest.param(
            [*HANDS, "show 5H 5D 5S JC", "undo"], "undone: Ann's hand, 29", id="undo-hand"
        ),
        pytest.param(
            [*HANDS, "show AH 2D 3C 4S", "show 6H 7H 8H 9H", "crib 5H 5D 5S JC", "undo"],
            "undone: Bob's crib, 29",
            id="undo-crib",
        ),
        pytest.param([*FIFTEEN, "undo"], "undone: Bob's 10, 2", id="undo-card"),
        pytest.param([*PLAY_GO, "go", "undo"], "undone: Ann's go", id="undo-go"),
        pytest.param([*CUT, "starter JD", "undo"], "undone: the starter J, 2", id="undo-starter"),
        pytest.param([*CUT, "undo"], "undone: the cut", id="undo-cut"),
    ],
)
def test_a_press_is_told_in_the_players_words(commands: list[str], words: str) -> None:
    assert line(commands) == words


@pytest.mark.parametrize(
    "commands",
    [
        pytest.param([*CUT, "starter 7C"], id="a-plain-starter"),
        pytest.param([*PLAY_GO[:3]], id="a-card-that-scores-nothing"),
        pytest.param(CUT, id="the-cut"),
    ],
)
def test_a_press_with_nothing_to_tell_is_no_news(commands: list[str]) -> None:
    assert told(commands) is None


def test_each_sides_change_is_told_for_the_scoreboard() -> None:
    news = told([*CUT, "peg Ann 50", "peg Ann 2", "undo"])
    assert news is not None and news.gains == (-2, 0)
    assert news.shorter == ("undone: Ann's peg",)


def test_a_hand_counted_is_the_count_to_show() -> None:
    news = told([*HANDS, "show 5H 5D 5S JC"])
    assert news is not None and len(news.counted) == 1
    hand = news.counted[0]
    assert (hand.name, hand.points, hand.source) == ("Ann", 29, "hand")
    assert hand.calls[-1] == "and nobs is 29"


def test_a_short_claim_counts_the_hand_then_the_muggins() -> None:
    news = told([*HANDS, "claim 20", "show 5H 5D 5S JC"], Rules.six_card(muggins=True))
    assert news is not None
    assert [(peg.name, peg.points, peg.source) for peg in news.counted] == [
        ("Ann", 20, "hand"),
        ("Bob", 9, "muggins"),
    ]
    assert news.line == "Ann +20 → 20 · Bob +9 → 9"


def test_a_hand_the_table_counted_has_no_count_to_page() -> None:
    news = told([*CUT, "starter 5C", "next", "show 8"])
    assert news is not None and news.counted == () and news.gains == (8, 0)
    assert news.shorter == ("Ann +8 → 8",)


def test_a_claim_of_nothing_still_shows_the_count() -> None:
    news = told([*HANDS, "claim 0", "show 5H 5D 5S JC"], Rules.six_card(muggins=True))
    assert news is not None
    assert [(peg.name, peg.points, peg.claim) for peg in news.counted] == [
        ("Ann", 0, 0),
        ("Bob", 29, 0),
    ]
    assert len(news.counted[0].calls) == 10  # the whole count, every fifteen to "nobs is 29"


def test_the_last_card_holds_the_play_as_it_left_it() -> None:
    news = told(PLAY_END)
    assert news is not None and news.play_end is not None
    end: GameView = news.play_end
    assert end.phase is Phase.PLAY and end.turn is None
    assert end.count == 14 and [c.rank.label for c in end.series] == ["2", "4", "3", "5"]
    assert [side.score for side in end.sides] == [3, 6]  # the pegs of the last card are in


def test_a_press_of_many_commands_is_told_by_its_last_action() -> None:
    # the keypad re-enters a deal with other suits before the show: one press, many commands
    state = GameState.new(Rules.six_card(), NAMES)
    for text in [*HANDS_7, "show 5H 5D 5S JC"]:
        state, _ = apply(state, parse_command(text, state.names))
    before = render_view(state)
    events: list[Event] = []
    for text in ["undo", "undo", "next", "show 5H 5D 5S JC", "show AH 3D 9S QC"]:
        state, more = apply(state, parse_command(text, state.names))
        events += more
    news = news_of(before, render_view(state), events)
    assert news is not None and [peg.name for peg in news.counted] == ["Bob"]
    assert news.line == "Bob +0 → 0"


def test_what_stays_when_the_news_fades_is_the_count() -> None:
    news = told([*HANDS, "show 5H 5D 5S JC"])
    assert news is not None
    assert news.faded() == News(counted=news.counted)
    pegged = told([*CUT, "peg Ann 8"])
    assert pegged is not None and pegged.faded() == News()


def test_news_reads_the_journals_events_too(tmp_path: Path) -> None:
    with Journal(tmp_path / "j.db") as store:
        store.new_match(Rules.six_card(), NAMES)
        store.do_all([parse_command(text, NAMES) for text in CUT])
        before = render_view(store.state) if store.state is not None else None
        assert before is not None
        state, events = store.do_all([parse_command("peg Bob 4", NAMES)])
        news = news_of(before, render_view(state), events)
    assert news is not None and news.line == "Bob +4 → 4"
