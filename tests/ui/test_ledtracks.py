"""LED peg tracks: layout parsing, hole mapping, frames, animation, current limit, terminal."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.devices.ports import Color
from pegboard.engine.game import GameState, Phase
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.errors import ConfigError
from pegboard.ui.ledtracks import (
    BLINK_OFF,
    BLINK_ON,
    PEG_FRAMES,
    LedLayout,
    MarkColors,
    Segment,
    SidePegs,
    StripLayout,
    TrackAnimator,
    TrackLayout,
    TrackState,
    animate_peg,
    estimate_current_ma,
    hole_led,
    limit_current,
    render_ansi,
    render_tracks,
    track_state,
    worst_case_current_ma,
)
from tests.ui.ledreference import reference_frame, reference_peg, reference_steps

RED: Color = (255, 0, 0)
BLUE: Color = (0, 0, 255)
MARKS = MarkColors()


def track(count: int, *, first: int = 0, direction: int = 1, **options: Any) -> TrackLayout:
    color = options.pop("color", RED)
    return TrackLayout(
        "board", (Segment(first, count, direction),), color, (255, 128, 128), **options
    )


def layout(*tracks: TrackLayout, count: int | None = None) -> LedLayout:
    """Full brightness and no practical current limit, so colours can be compared exactly."""
    size = count or sum(t.length for t in tracks)
    strip = StripLayout("board", size)
    return LedLayout((strip,), tracks, brightness=1.0, current_limit_ma=1e9)


TWO_SIDES = layout(track(121), track(121, first=121, color=BLUE))


def state(*pegs: tuple[int, int], dealer: int | None = None, **options: Any) -> TrackState:
    sides = tuple(SidePegs(front, rear, i == dealer) for i, (front, rear) in enumerate(pegs))
    return TrackState(sides, **options)


def lit(frame: dict[str, tuple[Color, ...]], strip: str = "board") -> dict[int, Color]:
    return {i: c for i, c in enumerate(frame[strip]) if c != (0, 0, 0)}


# -- holes to LEDs ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("the_track", "hole", "target", "expected"),
    [
        pytest.param(track(121), 1, 121, (0, 0), id="121-leds-hole-1"),
        pytest.param(track(121), 90, 121, (89, 0), id="121-leds-hole-90"),
        pytest.param(track(121), 121, 121, (120, 0), id="121-leds-game-hole"),
        pytest.param(track(121), 125, 121, (120, 0), id="121-leds-past-the-target"),
        pytest.param(track(121), 0, 121, None, id="121-leds-no-start-led"),
        pytest.param(track(122, start_led=True), 0, 121, (0, 0), id="start-led-hole-0"),
        pytest.param(track(122, start_led=True), 121, 121, (121, 0), id="start-led-game-hole"),
        pytest.param(track(61, laps=2), 60, 121, (59, 0), id="two-laps-61-hole-60"),
        pytest.param(track(61, laps=2), 61, 121, (0, 1), id="two-laps-61-hole-61"),
        pytest.param(track(61, laps=2), 120, 121, (59, 1), id="two-laps-61-hole-120"),
        pytest.param(track(61, laps=2), 121, 121, (60, 1), id="two-laps-61-game-led"),
        pytest.param(track(60, laps=2), 121, 121, (59, 1), id="two-laps-60-game-hole"),
        pytest.param(track(30), 61, 121, (15, 0), id="30-leds-proportional"),
        pytest.param(track(30), 121, 121, (29, 0), id="30-leds-game-hole"),
        pytest.param(track(121), 61, 61, (120, 0), id="five-card-stretched"),
        pytest.param(track(121), 31, 61, (60, 0), id="five-card-hole-31"),
    ],
)
def test_holes_map_to_leds_and_laps(
    the_track: TrackLayout, hole: int, target: int, expected: tuple[int, int] | None
) -> None:
    assert hole_led(the_track, hole, target) == expected


@given(st.sampled_from([30, 60, 61, 100, 121, 122, 240]), st.sampled_from([1, 2]))
def test_later_holes_never_show_earlier_on_a_lap(count: int, laps: int) -> None:
    the_track = track(count, laps=laps)
    spots = [hole_led(the_track, hole, 121) for hole in range(1, 122)]
    assert all(spot is not None and 0 <= spot[0] < count for spot in spots)
    assert spots == sorted(spots, key=lambda s: (s[1], s[0]) if s else (0, 0))


# -- frames -----------------------------------------------------------------------------------


def test_both_pegs_show_in_the_sides_colour_as_on_a_wooden_board() -> None:
    frame = render_tracks(state((20, 14), (9, 5)), TWO_SIDES)
    leds = lit(frame)
    assert leds[19] == RED
    assert leds[13] == RED  # the rear peg: the one behind
    assert leds[121 + 8] == BLUE
    assert leds[121 + 4] == BLUE


def test_street_marks_and_lines_light_faintly_when_no_peg_is_there() -> None:
    leds = lit(render_tracks(state((0, 0), (0, 0)), TWO_SIDES))
    first_track = {i: c for i, c in leds.items() if i < 121}
    assert first_track == {
        29: MARKS.street,
        59: MARKS.double_skunk,  # the line sits after hole 60: pass it
        89: MARKS.lurch,
        119: MARKS.street,
    }


def test_without_lines_every_thirtieth_hole_is_a_street_mark() -> None:
    frame = render_tracks(state((0, 0), (0, 0), lurch_line=None, double_skunk_line=None), TWO_SIDES)
    assert {i: c for i, c in lit(frame).items() if i < 121} == {
        29: MARKS.street,
        59: MARKS.street,
        89: MARKS.street,
        119: MARKS.street,
    }


def test_a_peg_covers_the_mark_on_its_hole() -> None:
    leds = lit(render_tracks(state((90, 60), (0, 0)), TWO_SIDES))
    assert leds[89] == RED
    assert leds[59] == RED


def test_the_dealer_has_a_warm_mark_on_the_game_hole() -> None:
    leds = lit(render_tracks(state((5, 0), (7, 0), dealer=1), TWO_SIDES))
    assert leds[121 + 120] == MARKS.dealer
    assert 120 not in leds


def test_a_score_past_the_target_pegs_out_in_the_game_hole() -> None:
    leds = lit(render_tracks(state((124, 118), (50, 40)), TWO_SIDES))
    assert leds[120] == RED


def test_a_peg_in_its_second_lap_lights_a_second_led_in_the_tracks_second_lap_colour() -> None:
    board = layout(track(61, laps=2), track(61, first=61, laps=2, color=BLUE))
    leds = lit(render_tracks(state((75, 70), (12, 0)), board))
    assert {i: c for i, c in leds.items() if i < 61} == {
        14: (255, 128, 128),  # hole 75 is hole 15 of lap 2: its LED and the next
        15: (255, 128, 128),
        9: (255, 128, 128),  # the rear peg on hole 70, the same
        10: (255, 128, 128),
        29: MARKS.lurch,  # the street mark at hole 30 (and lap 2's lurch line on it)
        59: MARKS.double_skunk,
    }
    assert {i - 61: c for i, c in leds.items() if i >= 61} == {
        11: BLUE,  # the first lap: one LED
        29: MARKS.lurch,
        59: MARKS.double_skunk,
    }


def test_a_peg_on_the_second_laps_last_hole_lights_the_led_before_it() -> None:
    board = layout(track(61, laps=2))
    leds = lit(render_tracks(state((120, 60)), board))
    assert leds[59] == leds[58] == (255, 128, 128)  # hole 120, and the LED before it
    assert 60 not in leds  # the game hole stays for the game


def test_pegs_on_a_start_led_show_at_hole_0() -> None:
    board = layout(track(122, start_led=True))
    leds = lit(render_tracks(state((0, 0)), board))
    assert leds[0] == RED


def test_a_snaked_track_runs_backwards_along_the_strip() -> None:
    board = layout(track(121), track(121, first=241, direction=-1, color=BLUE), count=242)
    leds = lit(render_tracks(state((0, 0), (1, 0)), board))
    assert leds[241] == BLUE


def test_leds_outside_the_tracks_stay_dark() -> None:
    board = layout(track(10, first=5), count=20)
    frame = render_tracks(state((10, 3)), board)
    assert all(frame["board"][i] == (0, 0, 0) for i in (*range(5), *range(15, 20)))


def test_the_winners_track_flashes_on_odd_phases() -> None:
    won = state((121, 115), (80, 70), winner=0)
    normal = render_tracks(won, TWO_SIDES, phase=0)
    flash = render_tracks(won, TWO_SIDES, phase=1)
    assert normal == render_tracks(won, TWO_SIDES, phase=2)
    assert all(flash["board"][i] != (0, 0, 0) for i in range(121))
    assert flash["board"][120] == RED
    assert flash["board"][121:] == normal["board"][121:]
    assert sum(normal["board"][i] != (0, 0, 0) for i in range(121)) < 10


def test_brightness_scales_colours_but_faint_marks_stay_on() -> None:
    dim = LedLayout(TWO_SIDES.strips, TWO_SIDES.tracks, brightness=0.02, current_limit_ma=1e9)
    leds = lit(render_tracks(state((20, 10), (0, 0)), dim))
    assert leds[19] == (5, 0, 0)
    assert leds[29] == (1, 0, 0)  # the street mark, 12 * 0.02 rounds to 0 but stays lit


def test_more_sides_than_tracks_is_refused() -> None:
    with pytest.raises(ValueError, match=r"3 sides but the LED layout has 2 tracks"):
        render_tracks(state((1, 0), (2, 0), (3, 0)), TWO_SIDES)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"sides": ()}, r"at least one side", id="no-sides"),
        pytest.param({"sides": (SidePegs(-1),)}, r"side 0 has a peg below 0", id="minus"),
        pytest.param({"lurch_line": 121}, r"lurch_line must be a hole from 1 to 120", id="lurch"),
        pytest.param({"winner": 2}, r"winner must be a side from 0 to 1, got 2", id="winner"),
        pytest.param({"target": 2}, r"target must be at least 3", id="target"),
    ],
)
def test_impossible_track_states_are_refused(options: dict[str, Any], message: str) -> None:
    values: dict[str, Any] = {"sides": (SidePegs(0), SidePegs(0)), **options}
    with pytest.raises(ValueError, match=message):
        TrackState(**values)


# -- animation --------------------------------------------------------------------------------


def bright_spots(frame: dict[str, tuple[Color, ...]], lo: int, hi: int) -> list[int]:
    return [i - lo for i in range(lo, hi) if frame["board"][i] == RED or frame["board"][i] == BLUE]


def test_the_rear_peg_travels_past_the_front_peg_to_the_new_score() -> None:
    before, after = state((10, 4), (3, 0)), state((15, 10), (3, 0))
    frames = animate_peg(before, after, TWO_SIDES, frames=6)
    assert len(frames) == 6
    assert frames[-1] == render_tracks(after, TWO_SIDES)
    # both pegs in the side's colour: the moving one is the one off hole 10 (or on it, covering)
    moving = [[s for s in bright_spots(f, 0, 121) if s != 9] or [9] for f in frames[:-1]]
    assert all(len(spot) == 1 for spot in moving)
    holes = [spot[0] + 1 for spot in moving]
    assert holes == sorted(holes) and holes[0] > 4 and holes[-1] <= 15
    assert any(hole > 10 for hole in holes)  # it passes the peg that stays
    assert all(f["board"][9] == RED for f in frames[:-1])  # the old front peg, the rear now
    assert all(f["board"][121:] == frames[-1]["board"][121:] for f in frames)  # side 1 still


def test_undo_runs_the_peg_backwards() -> None:
    before, after = state((15, 10), (3, 0)), state((10, 4), (3, 0))
    frames = animate_peg(before, after, TWO_SIDES, frames=6)
    holes = [bright_spots(f, 0, 121)[0] + 1 for f in frames[:-1]]
    assert holes == sorted(holes, reverse=True) and holes[0] < 15 and holes[-1] >= 4
    forward = animate_peg(after, before, TWO_SIDES, frames=6)
    assert [bright_spots(f, 0, 121) for f in frames[:-1]] == [
        bright_spots(f, 0, 121) for f in reversed(forward[:-1])
    ]
    assert frames[-1] == render_tracks(after, TWO_SIDES)


def test_a_new_game_jumps_in_one_frame() -> None:
    frames = animate_peg(state((87, 80), (95, 91)), state((0, 0), (0, 0)), TWO_SIDES)
    assert frames == (render_tracks(state((0, 0), (0, 0)), TWO_SIDES),)


def test_a_winning_peg_ends_in_flashes() -> None:
    before = state((117, 110), (80, 70))
    after = state((121, 117), (80, 70), winner=0)
    frames = animate_peg(before, after, TWO_SIDES, frames=4)
    assert len(frames) == 4 + 6
    assert frames[4] == render_tracks(after, TWO_SIDES, phase=1)
    assert frames[5] == render_tracks(after, TWO_SIDES, phase=2) == frames[3]


def test_an_animation_needs_a_frame() -> None:
    with pytest.raises(ValueError, match=r"at least 1 frame, got 0"):
        animate_peg(state((1, 0)), state((2, 1)), TWO_SIDES, frames=0)


# -- current ----------------------------------------------------------------------------------


def test_current_is_idle_plus_each_channels_share() -> None:
    one = LedLayout(
        (StripLayout("s", 2),),
        (TrackLayout("s", (Segment(0, 2),), RED, RED),),
        current_limit_ma=100,
    )
    assert estimate_current_ma({"s": ((255, 255, 255), (0, 0, 0))}, one) == pytest.approx(62)
    assert estimate_current_ma({"s": ((51, 0, 0), (0, 0, 0))}, one) == pytest.approx(6)


def test_the_limit_scales_a_bright_frame_down_evenly() -> None:
    default = LedLayout.default()
    white = {"board": ((255, 255, 255),) * 244}
    limited = limit_current(white, default)
    assert estimate_current_ma(limited, default) <= 500
    (level,) = set(limited["board"])
    one_more = {"board": (tuple(c + 1 for c in level),) * 244}
    assert estimate_current_ma(one_more, default) > 500  # the brightest even level that fits


peg = st.integers(0, 125)


@given(st.lists(st.tuples(peg, peg), min_size=2, max_size=2), st.integers(0, 1), st.integers(0, 3))
def test_no_frame_of_the_default_layout_exceeds_its_limit(
    pegs: list[tuple[int, int]], winner: int, phase: int
) -> None:
    default = LedLayout.default()
    frame = render_tracks(state(*pegs, dealer=0, winner=winner), default, phase)
    assert estimate_current_ma(frame, default) <= default.current_limit_ma
    assert all(len(frame[s.name]) == s.count for s in default.strips)


def test_the_default_layouts_worst_case_is_its_limit() -> None:
    default = LedLayout.default()
    assert worst_case_current_ma(default, limited=False) == pytest.approx(
        244 * (1 + 60 * 128 / 255)
    )
    assert worst_case_current_ma(default) == 500


# -- the layout -------------------------------------------------------------------------------


def test_the_default_layout_snakes_one_strip_up_and_back() -> None:
    default = LedLayout.default()
    (strip,) = default.strips
    assert (strip.name, strip.count, strip.ma_per_channel, strip.idle_ma) == ("board", 244, 20, 1)
    assert default.tracks[0].strip_leds == tuple(range(122))
    assert default.tracks[1].strip_leds == tuple(range(243, 121, -1))
    assert all(t.start_led for t in default.tracks)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        pytest.param({"count": 0}, r"^LED strip 's' needs at least 1 LED, got 0$", id="no-leds"),
        pytest.param(
            {"count": 1, "idle_ma": -1},
            r"^LED strip 's': currents must be >= 0 mA, got 20\.0 per channel and -1 idle$",
            id="negative-current",
        ),
    ],
)
def test_impossible_strips_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        StripLayout("s", **options)


# -- the terminal -----------------------------------------------------------------------------

ESCAPE = re.compile(r"\x1b\[[0-9;]*m")


def test_the_terminal_shows_a_ruler_and_one_line_per_side() -> None:
    text = render_ansi(render_tracks(state((20, 14), (9, 5)), TWO_SIDES), TWO_SIDES)
    ruler, first, second = text.split("\n")
    assert ruler.index("30") + 1 - 3 == 29  # "30" ends over the LED of hole 30
    assert ruler.index("90") + 1 - 3 == 89
    plain = ESCAPE.sub("", first)
    assert plain.startswith(" 1 ") and len(plain) == 3 + 121
    assert plain[3 + 19] == "●" and plain[3 + 13] == "●" and plain[3 + 0] == "·"
    assert "\x1b[38;2;255;0;0m●" in first  # the front peg in its true colour
    assert ESCAPE.sub("", second).count("●") == 2 + 4  # two pegs, four marks
    assert first.endswith("\x1b[0m")


def test_the_terminal_brightens_faint_leds_so_they_show() -> None:
    text = render_ansi(render_tracks(state((0, 0), (0, 0)), TWO_SIDES), TWO_SIDES)
    assert "\x1b[38;2;64;0;0m●" in text  # the street mark (12, 0, 0) as the eye sees it


# -- a game view on the tracks, and the peg animator ------------------------------------------


@pytest.mark.parametrize(
    ("rules", "lines"),
    [
        pytest.param(Rules.six_card(), (90, 60), id="six-card"),
        pytest.param(Rules.five_card(), (44, None), id="five-card"),
        pytest.param(Rules.two_against_one(), (None, None), id="two-against-one"),
    ],
)
def test_track_lines_sit_after_the_last_hole_below_each_line(
    rules: Rules, lines: tuple[int | None, int | None]
) -> None:
    view: GameView = render_view(GameState.new(rules))
    state = track_state(view)
    assert (state.lurch_line, state.double_skunk_line) == lines


def _three_handed_view() -> GameView:
    return render_view(GameState.new(Rules.three_handed()))


def test_more_sides_than_tracks_light_the_tracks_there_are(
    caplog: pytest.LogCaptureFixture,
) -> None:
    layout = LedLayout.default()  # two tracks
    animator = TrackAnimator(layout)
    view = _three_handed_view()
    with pytest.raises(ValueError, match="3 sides but the LED layout has 2 tracks"):
        render_tracks(track_state(view), layout)
    frame = animator.render(view)
    two = replace(view, sides=view.sides[:2])
    assert frame == render_tracks(track_state(two), layout)
    animator.render(view)
    warnings = [r.message for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [
        "3 sides but the LED layout has 2 tracks: sides 3 are not shown on the LEDs"
    ]


def test_a_new_match_with_more_sides_jumps_to_its_tracks_in_one_step() -> None:
    layout = LedLayout.default()
    animator = TrackAnimator(layout)
    two = render_view(GameState.new(Rules.six_card()))
    steps = animator.animate(two, _three_handed_view())
    assert len(steps) == 1


def _three_tracks() -> LedLayout:
    from pegboard.config.leds import parse_leds

    return parse_leds({}, sides=3).layout


def test_the_third_sides_front_peg_blinks_for_good_a_cue_without_colour() -> None:
    layout = _three_tracks()
    view = _pegged(_three_handed_view(), ((10, 5), (20, 10), (30, 15)), None)
    steps = TrackAnimator(layout).animate(None, view)
    lit, dark, again = steps
    still = render_tracks(track_state(view), layout)
    assert dict(lit.frame) == dict(again.frame) == still
    assert (lit.hold, dark.hold, again.hold) == (BLINK_ON, BLINK_OFF, BLINK_ON)
    assert (lit.again, dark.again, again.again) == (None, None, 1)  # round: dark, lit, dark...
    third = layout.tracks[2]
    front = third.strip_leds[hole_led(third, 30)[0]]
    pairs = zip(still["board"], dark.frame["board"], strict=True)
    differs = [i for i, (a, b) in enumerate(pairs) if a != b]
    assert differs == [front]  # only the third side's front peg goes dark
    assert dark.frame["board"][front] == (6, 0, 0)  # what lies under: hole 30's street mark
    assert still["board"][front] == tuple(round(c * layout.brightness) for c in third.color)


def test_two_sides_do_not_blink_and_the_blink_can_be_turned_off() -> None:
    two = render_view(GameState.new(Rules.six_card()))
    assert [s.again for s in TrackAnimator(LedLayout.default()).animate(None, two)] == [None]
    three = TrackAnimator(_three_tracks(), blink=False).animate(None, _three_handed_view())
    assert [s.again for s in three] == [None]


def test_a_peg_of_the_third_side_travels_then_blinks() -> None:
    layout = _three_tracks()
    view = _three_handed_view()
    before = _pegged(view, ((0, 0), (0, 0), (10, 0)), None)
    after = _pegged(view, ((0, 0), (0, 0), (30, 10)), None)
    steps = TrackAnimator(layout).animate(before, after)
    assert len(steps) == PEG_FRAMES + 2
    assert steps[-1].again == PEG_FRAMES  # round from the dark step after the travel
    assert dict(steps[PEG_FRAMES - 1].frame) == render_tracks(track_state(after), layout)


def test_a_win_by_a_side_without_a_track_does_not_flash() -> None:
    state = TrackAnimator(LedLayout.default()).state(
        replace(_three_handed_view(), phase=Phase.GAME_OVER, winner=2)
    )
    assert state.winner is None and len(state.sides) == 2


def test_the_track_lines_come_from_the_view_alone() -> None:
    # a game with its own lines (a menu's variant) needs no rules beside the view
    view = replace(render_view(GameState.new(Rules.six_card())), lurch_line=81, target=111)
    state = track_state(view)
    assert (state.target, state.lurch_line, state.double_skunk_line) == (111, 80, 60)


# -- the fast frames and the lazy steps, against the plain reference ----------------------------

REFERENCE_LAYOUTS = {
    "default": LedLayout.default(),
    "two-laps-on-two-strips": LedLayout(
        (StripLayout("a", 130), StripLayout("b", 70, ma_per_channel=12, idle_ma=0.5)),
        (
            TrackLayout("a", (Segment(0, 61),), RED, (255, 128, 128), laps=2),
            TrackLayout(
                "a", (Segment(129, 60, -1),), BLUE, (128, 128, 255), laps=2, start_led=True
            ),
            TrackLayout("b", (Segment(0, 30), Segment(69, 31, -1)), (0, 255, 32), (128, 255, 140)),
        ),
        brightness=0.8,
        current_limit_ma=300,
    ),
    "faint-white": LedLayout(
        (StripLayout("s", 121),),
        (TrackLayout("s", (Segment(0, 121),), (255, 255, 255), (200, 200, 200)),),
        brightness=0.03,
    ),
    "dark-with-a-black-mark": LedLayout(
        (StripLayout("s", 250),),
        (
            TrackLayout("s", (Segment(0, 125),), (255, 200, 0), (255, 228, 128)),
            TrackLayout("s", (Segment(125, 125),), (10, 20, 30), (130, 140, 150)),
        ),
        marks=MarkColors((0, 0, 0), (1, 2, 3), (200, 0, 0), (3, 3, 3)),
        brightness=0.0,
    ),
}


@st.composite
def track_states(draw: st.DrawFn, sides: int, winner: bool = True) -> TrackState:
    target = draw(st.sampled_from([121, 61, 31]))
    fronts = draw(st.lists(st.integers(0, target + 5), min_size=sides, max_size=sides))
    pegs = tuple(
        SidePegs(front, draw(st.integers(0, front)), draw(st.booleans())) for front in fronts
    )
    return TrackState(
        pegs,
        target,
        draw(st.sampled_from([None, target * 3 // 4])),
        draw(st.sampled_from([None, target // 2])),
        draw(st.none() | st.integers(0, sides - 1)) if winner else None,
    )


@st.composite
def layouts_and_states(draw: st.DrawFn) -> tuple[LedLayout, TrackState]:
    the_layout = REFERENCE_LAYOUTS[draw(st.sampled_from(sorted(REFERENCE_LAYOUTS)))]
    return the_layout, draw(track_states(len(the_layout.tracks)))


@given(layouts_and_states(), st.integers(0, 3))
def test_frames_match_the_plain_reference_led_for_led(
    layout_and_state: tuple[LedLayout, TrackState], phase: int
) -> None:
    the_layout, the_state = layout_and_state
    assert render_tracks(the_state, the_layout, phase) == reference_frame(
        the_state, the_layout, phase
    )


def test_a_flash_over_the_current_limit_is_scaled_as_the_reference_scales_it() -> None:
    default = LedLayout.default()
    won = state((121, 100), (50, 40), winner=0)
    frame = render_tracks(won, default, phase=1)
    unlimited = replace(default, current_limit_ma=1e9)
    assert estimate_current_ma(render_tracks(won, unlimited, 1), default) > 500  # it was scaled
    assert frame == reference_frame(won, default, 1)
    assert limit_current(render_tracks(won, unlimited, 1), default) == frame


@given(layouts_and_states(), st.data(), st.sampled_from([1, 4, 12]))
def test_peg_animations_match_the_plain_reference_frame_for_frame(
    layout_and_state: tuple[LedLayout, TrackState], data: st.DataObject, frames: int
) -> None:
    the_layout, before = layout_and_state
    moves = data.draw(st.lists(st.integers(0, 20), min_size=len(before.sides)))
    sides = tuple(
        SidePegs(side.front + move, side.front, side.is_dealer) if move else side
        for side, move in zip(before.sides, moves, strict=False)
    )
    after = replace(before, sides=sides, winner=data.draw(st.sampled_from([None, 0])))
    before = replace(before, winner=None)
    assert animate_peg(before, after, the_layout, frames) == reference_peg(
        before, after, the_layout, frames
    )
    assert animate_peg(after, before, the_layout, frames) == reference_peg(
        after, before, the_layout, frames
    )


def _pegged(view: GameView, pegs: tuple[tuple[int, int], ...], winner: int | None) -> GameView:
    sides = tuple(
        replace(side, score=front, front=min(front, view.target), rear=rear)
        for side, (front, rear) in zip(view.sides, pegs, strict=True)
    )
    phase = Phase.GAME_OVER if winner is not None else view.phase
    return replace(view, sides=sides, winner=winner, phase=phase)


@given(
    st.tuples(st.integers(0, 100), st.integers(0, 100)),
    st.tuples(st.integers(0, 30), st.integers(0, 30)),
    st.booleans(),
)
def test_the_animators_steps_match_the_plain_reference_hold_for_hold(
    fronts: tuple[int, int], moves: tuple[int, int], wins: bool
) -> None:
    animator = TrackAnimator(LedLayout.default())
    view = render_view(GameState.new(Rules.six_card()))
    before = _pegged(view, tuple((front, front // 2) for front in fronts), None)
    after_pegs = tuple(
        (front + move, front) if move else (front, front // 2)
        for front, move in zip(fronts, moves, strict=True)
    )
    after = _pegged(view, after_pegs, 0 if wins else None)
    for old, new in ((before, after), (after, before), (None, after)):
        steps = animator.animate(old, new)
        assert [(dict(step.frame), step.hold) for step in steps] == list(
            reference_steps(animator, old, new)
        )


def test_an_animations_frames_are_drawn_only_when_read(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: list[TrackState] = []

    def counting(the_state: TrackState, the_layout: LedLayout, phase: int = 0) -> Any:
        drawn.append(the_state)
        return render_tracks(the_state, the_layout, phase)

    animator = TrackAnimator(LedLayout.default())
    view = render_view(GameState.new(Rules.six_card()))
    before = _pegged(view, ((110, 100), (50, 40)), None)
    after = _pegged(view, ((121, 110), (50, 40)), 0)
    monkeypatch.setattr("pegboard.ui.ledtracks.render_tracks", counting)
    steps = animator.animate(before, after)
    assert len(steps) == 12 + 12 + 1  # the travel, 12 flash phases, the track left lit
    assert drawn == []  # asking for the steps draws nothing
    first = steps[0].frame["board"]
    assert len(drawn) == 1
    assert steps[-1].frame["board"] != first
    assert steps[-1].frame["board"] == steps[-2].frame["board"]  # the still frame, kept
    assert len(drawn) == 2  # the first step and the last (the still frame, shared)
