"""GPIO buttons and the matrix keypad, driven through gpiozero's MockFactory."""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterator, Sequence

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pegboard.devices.keys import KEYPAD_3X4, KEYPAD_4X4, GpioButtons, MatrixKeypad
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.errors import ConfigError, HardwareError

PINS = {"peg0": 17, "peg1": 27, "undo": 22, "ok": 23}
ROWS = (5, 6, 13, 19)
COLS = (12, 16, 20, 21)

PRESS = KeyAction.PRESS
LONG = KeyAction.LONG_PRESS


def drain(q: queue.Queue[KeyEvent]) -> list[str]:
    """Everything queued so far, in the notation of key scripts (``undo:long``)."""
    out = []
    while True:
        try:
            out.append(str(q.get_nowait()))
        except queue.Empty:
            return out


def test_drain_reports_what_was_queued() -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    q.put(KeyEvent("7"))
    q.put(KeyEvent("undo", LONG))
    assert drain(q) == ["7", "undo:long"]
    assert drain(q) == []


# --------------------------------------------------------------------------- buttons


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(100.0)


@pytest.fixture
def events() -> queue.Queue[KeyEvent]:
    return queue.Queue()


@pytest.fixture
def buttons(
    mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> Iterator[GpioButtons]:
    keys = GpioButtons(PINS, clock=clock, poll_interval=None)
    keys.start(events.put)
    yield keys
    keys.close()


def press(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_low()


def release(factory: MockFactory, pin: int) -> None:
    factory.pin(pin).drive_high()


def test_a_peg_button_queues_a_press_the_moment_it_goes_down(
    buttons: GpioButtons, mock_pins: MockFactory, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 17)
    assert drain(events) == ["peg0"]


def test_releasing_a_plain_button_queues_nothing(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 27)
    clock.advance(0.1)
    release(mock_pins, 27)
    assert drain(events) == ["peg1"]


def test_contact_bounce_within_the_debounce_time_gives_one_press(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 17)
    for _ in range(4):
        clock.advance(0.004)
        release(mock_pins, 17)
        clock.advance(0.004)
        press(mock_pins, 17)
    assert drain(events) == ["peg0"]


def test_two_real_presses_give_two_events(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 17)
    clock.advance(0.05)
    release(mock_pins, 17)
    clock.advance(0.05)
    press(mock_pins, 17)
    assert drain(events) == ["peg0", "peg0"]


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        pytest.param(0.029, ["peg0"], id="29ms-is-bounce"),
        pytest.param(0.030, ["peg0", "peg0"], id="30ms-is-a-new-press"),
    ],
)
def test_the_debounce_time_is_configurable(
    mock_pins: MockFactory,
    clock: FakeClock,
    events: queue.Queue[KeyEvent],
    gap: float,
    expected: list[str],
) -> None:
    keys = GpioButtons({"peg0": 17}, debounce=0.03, clock=clock, poll_interval=None)
    keys.start(events.put)
    press(mock_pins, 17)
    clock.advance(0.03)
    release(mock_pins, 17)
    clock.advance(gap)
    press(mock_pins, 17)
    keys.close()
    assert drain(events) == expected


def test_undo_reports_a_short_press_when_released(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 22)
    clock.advance(0.3)
    buttons.tick()
    assert drain(events) == []
    release(mock_pins, 22)
    assert drain(events) == ["undo"]


def test_undo_held_past_the_long_press_time_is_redo_once(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 22)
    clock.advance(0.79)
    buttons.tick()
    assert drain(events) == []
    clock.advance(0.01)
    buttons.tick()
    clock.advance(1.0)
    buttons.tick()
    release(mock_pins, 22)
    buttons.tick()
    assert drain(events) == ["undo:long"]


def test_ok_held_is_a_long_press_for_the_menu(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 23)
    clock.advance(0.8)
    buttons.tick()
    assert events.get_nowait() == KeyEvent("ok", LONG)


def test_the_long_press_time_and_keys_are_configurable(
    mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    keys = GpioButtons(
        PINS, long_press_keys={"peg0"}, long_press=1.5, clock=clock, poll_interval=None
    )
    assert keys.long_press_keys == {"peg0"}
    keys.start(events.put)
    press(mock_pins, 22)  # undo is a plain button now
    press(mock_pins, 17)
    clock.advance(1.0)
    keys.tick()
    assert drain(events) == ["undo"]
    clock.advance(0.5)
    keys.tick()
    keys.close()
    assert drain(events) == ["peg0:long"]


def test_long_press_keys_default_to_undo_and_ok_when_wired(mock_pins: MockFactory) -> None:
    keys = GpioButtons({"peg0": 17, "undo": 22}, poll_interval=None)
    assert keys.long_press_keys == {"undo"}
    keys.close()


def test_a_release_lost_in_the_bounce_window_is_recovered_by_tick(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 22)
    clock.advance(0.01)
    release(mock_pins, 22)  # a real, very short tap: inside the debounce window
    clock.advance(1.0)
    buttons.tick()
    assert drain(events) == ["undo"]  # a tap, not a long press from a stuck state


def test_a_press_lost_in_the_bounce_window_is_recovered_by_tick(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    press(mock_pins, 17)
    clock.advance(0.1)
    release(mock_pins, 17)
    clock.advance(0.01)
    press(mock_pins, 17)  # swallowed by the window after the release
    assert drain(events) == ["peg0"]
    clock.advance(0.02)
    buttons.tick()
    assert drain(events) == ["peg0"]


def test_a_late_callback_for_an_edge_tick_already_saw_is_not_a_second_press(
    buttons: GpioButtons, mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    pin = mock_pins.pin(17)
    pin._change_state(False)  # the level falls, but gpiozero's callback thread lags behind
    clock.advance(0.03)
    buttons.tick()
    assert drain(events) == ["peg0"]
    clock.advance(0.05)
    pin._call_when_changed()  # the callback arrives, long after the debounce window
    assert drain(events) == []


def test_edges_before_start_and_after_close_are_not_reported(
    mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    keys = GpioButtons(PINS, clock=clock, poll_interval=None)
    press(mock_pins, 17)
    release(mock_pins, 17)
    keys.start(events.put)
    keys.close()
    clock.advance(1)
    press(mock_pins, 27)
    keys.tick()
    assert drain(events) == []


def test_a_button_held_at_start_is_not_a_press(
    mock_pins: MockFactory, clock: FakeClock, events: queue.Queue[KeyEvent]
) -> None:
    keys = GpioButtons(PINS, clock=clock, poll_interval=None)
    press(mock_pins, 22)
    keys.start(events.put)
    clock.advance(2.0)
    keys.tick()
    release(mock_pins, 22)
    keys.tick()
    keys.close()
    assert drain(events) == []


def test_close_releases_the_pins_for_reuse(mock_pins: MockFactory) -> None:
    keys = GpioButtons(PINS, poll_interval=None)
    keys.close()
    keys.close()
    Button(17).close()


def test_start_after_close_is_refused(mock_pins: MockFactory) -> None:
    keys = GpioButtons(PINS, poll_interval=None)
    keys.close()
    with pytest.raises(HardwareError, match=r"^buttons are closed$"):
        keys.start(print)


def test_the_buttons_own_thread_reports_long_presses(
    mock_pins: MockFactory, clock: FakeClock
) -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    keys = GpioButtons(PINS, clock=clock, poll_interval=0.001)
    keys.start(q.put)
    press(mock_pins, 22)
    clock.advance(0.9)
    try:
        assert q.get(timeout=10) == KeyEvent("undo", LONG)
    finally:
        keys.close()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        pytest.param({"pins": {}}, r"^buttons: no buttons configured", id="none"),
        pytest.param(
            {"pins": {"Peg0": 17}}, r"^buttons: invalid button name 'Peg0' \(expected", id="name"
        ),
        pytest.param(
            {"pins": {"undo": 22}, "long_press_keys": {"okk"}},
            r"^buttons: long-press key 'okk' has no pin \(buttons are undo\)$",
            id="long-key",
        ),
        pytest.param(
            {"pins": {"undo": 22}, "long_press": 0},
            r"^buttons: long_press must be > 0 seconds, got 0$",
            id="long-zero",
        ),
        pytest.param(
            {"pins": {"undo": 22}, "debounce": 1.0},
            r"^buttons: debounce must be >= 0 and shorter than long_press, got 1\.0$",
            id="debounce-long",
        ),
        pytest.param(
            {"pins": {"undo": 22}, "poll_interval": 0},
            r"^buttons: poll_interval must be > 0 seconds or None, got 0$",
            id="poll",
        ),
    ],
)
def test_bad_button_config_is_refused(
    mock_pins: MockFactory, kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        GpioButtons(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("pins", "message"),
    [
        pytest.param({"peg0": 40}, r"^cannot use GPIO40 for button 'peg0': ", id="no-such-pin"),
        pytest.param(
            {"peg0": 17, "undo": 17}, r"^cannot use GPIO17 for button 'undo': ", id="shared-pin"
        ),
    ],
)
def test_gpiozero_refuses_the_pins_and_the_others_are_freed(
    mock_pins: MockFactory, pins: dict[str, int], message: str
) -> None:
    # the config checked the pins already (tests/config); gpiozero checks them again itself
    with pytest.raises(HardwareError, match=message):
        GpioButtons(pins)
    GpioButtons({"peg0": 17}, poll_interval=None).close()  # GPIO17 was released


def test_a_pin_in_use_is_a_hardware_error_and_frees_the_others(mock_pins: MockFactory) -> None:
    taken = Button(23)
    with pytest.raises(HardwareError, match=r"^cannot use GPIO23 for button 'ok': "):
        GpioButtons(PINS)
    taken.close()
    GpioButtons(PINS, poll_interval=None).close()  # the first three pins were released


@settings(max_examples=60, deadline=None)
@given(
    long=st.booleans(),
    presses=st.lists(
        st.tuples(
            st.lists(st.floats(0.0005, 0.004), max_size=6),  # bounce gaps after the press
            st.floats(0.03, 2.0),  # how long the button is held
            st.floats(0.03, 1.0),  # the pause before the next press
        ),
        max_size=6,
    ),
)
def test_every_real_press_gives_exactly_one_event_however_it_bounces(
    long: bool, presses: list[tuple[list[float], float, float]]
) -> None:
    factory = MockFactory()
    clock = FakeClock()
    q: queue.Queue[KeyEvent] = queue.Queue()
    keys = GpioButtons(
        {"undo": 22},
        long_press_keys={"undo"} if long else set(),
        clock=clock,
        poll_interval=None,
        pin_factory=factory,
    )
    keys.start(q.put)
    pin = factory.pin(22)
    expected = []
    for bounces, held, pause in presses:
        pin.drive_low()
        for gap in bounces:  # bounces all end within 24 ms, inside the 25 ms window
            clock.advance(gap)
            pin.drive_high()
            pin.drive_low()
        clock.advance(held)
        keys.tick()
        pin.drive_high()
        keys.tick()
        clock.advance(pause)
        keys.tick()
        total = sum(bounces) + held
        assume(abs(total - 0.8) > 1e-6)  # float sums right at the threshold go either way
        expected.append("undo:long" if long and total >= 0.8 else "undo")
    keys.close()
    assert drain(q) == expected


# --------------------------------------------------------------------------- keypad


class MatrixRowPin(MockPin):
    """A mock row pin that tells the simulated matrix whenever it changes."""

    matrix: SimulatedMatrix | None = None

    def _change_state(self, value: bool) -> bool:
        changed: bool = super()._change_state(value)
        if self.matrix is not None:
            self.matrix.refresh()
        return changed

    def _set_function(self, value: str) -> None:
        super()._set_function(value)
        if self.matrix is not None:
            self.matrix.refresh()


class SimulatedMatrix:
    """Switches at the crossings of row and column wires, as on a real membrane keypad.

    The test holds keys; whenever a row pin changes, every column is driven to the level the
    wires would have: low if a chain of held switches connects it to a row that is an output
    at level 0, else pulled high. Chains through other rows are followed, so the simulation
    ghosts exactly like a keypad without diodes.
    """

    def __init__(
        self,
        factory: MockFactory,
        rows: Sequence[int],
        cols: Sequence[int],
        layout: Sequence[str],
    ) -> None:
        self.rows = [factory.pin(p, pin_class=MatrixRowPin) for p in rows]
        self.cols = [factory.pin(p) for p in cols]
        self.where = {key: (r, c) for r, line in enumerate(layout) for c, key in enumerate(line)}
        self.held: set[tuple[int, int]] = set()
        self.most_rows_driven = 0
        self.on_drive: Callable[[], None] | None = None
        for pin in self.rows:
            pin.matrix = self

    def hold(self, *keys: str) -> None:
        self.held |= {self.where[k] for k in keys}
        self.refresh()

    def release(self, *keys: str) -> None:
        self.held -= {self.where[k] for k in keys}
        self.refresh()

    def driven_rows(self) -> set[int]:
        return {r for r, p in enumerate(self.rows) if p.function == "output" and not p.state}

    def columns_low(self) -> set[int]:
        """Columns a path of held switches connects to a driven row."""
        rows, cols = self.driven_rows(), set()
        frontier = True
        while frontier:
            more_cols = {c for r, c in self.held if r in rows} - cols
            cols |= more_cols
            more_rows = {r for r, c in self.held if c in cols} - rows
            rows |= more_rows
            frontier = bool(more_cols or more_rows)
        return cols

    def refresh(self) -> None:
        driven = self.driven_rows()
        self.most_rows_driven = max(self.most_rows_driven, len(driven))
        if driven and self.on_drive is not None:
            self.on_drive()
        low = self.columns_low()
        for c, pin in enumerate(self.cols):
            if pin.function == "input":
                pin.drive_low() if c in low else pin.drive_high()


@pytest.fixture
def matrix(mock_pins: MockFactory) -> SimulatedMatrix:
    return SimulatedMatrix(mock_pins, ROWS, COLS, KEYPAD_4X4)


@pytest.fixture
def keypad(matrix: SimulatedMatrix) -> Iterator[MatrixKeypad]:
    pad = MatrixKeypad(ROWS, COLS, KEYPAD_4X4)
    yield pad
    pad.close()


def scans(pad: MatrixKeypad, n: int) -> list[str]:
    """Scan *n* times; every key reported, in order."""
    return [str(e) for _ in range(n) for e in pad.scan()]


def test_the_simulated_matrix_ghosts_like_a_keypad_without_diodes(
    matrix: SimulatedMatrix,
) -> None:
    matrix.hold("1", "2", "4")  # three corners of the rectangle 1-2-4-5
    matrix.rows[1].output_with_state(False)  # drive the row of 4 5 6 B
    assert matrix.columns_low() == {0, 1}  # column 1 reads low: 5 is a ghost
    matrix.rows[1].input_with_pull("up")
    assert matrix.columns_low() == set()


@pytest.mark.parametrize("key", [pytest.param(k, id=k) for k in "".join(KEYPAD_4X4)])
def test_each_key_of_the_4x4_keypad_is_reported_once_after_three_scans(
    matrix: SimulatedMatrix, keypad: MatrixKeypad, key: str
) -> None:
    matrix.hold(key)
    assert scans(keypad, 2) == []
    assert scans(keypad, 1) == [key]
    assert keypad.held == {key}


@pytest.mark.parametrize("key", [pytest.param(k, id=k) for k in "".join(KEYPAD_3X4)])
def test_each_key_of_a_3x4_keypad_is_reported(mock_pins: MockFactory, key: str) -> None:
    matrix = SimulatedMatrix(mock_pins, ROWS, COLS[:3], KEYPAD_3X4)
    pad = MatrixKeypad(ROWS, COLS[:3], KEYPAD_3X4, debounce_scans=1)
    matrix.hold(key)
    assert scans(pad, 1) == [key]
    pad.close()


def test_a_held_key_does_not_repeat(matrix: SimulatedMatrix, keypad: MatrixKeypad) -> None:
    matrix.hold("7")
    assert scans(keypad, 200) == ["7"]
    matrix.release("7")
    assert scans(keypad, 3) == []
    assert keypad.held == frozenset()
    matrix.hold("7")
    assert scans(keypad, 3) == ["7"]


@pytest.mark.parametrize(
    "keys",
    [
        pytest.param(("1", "D"), id="1-D-two-rows"),
        pytest.param(("4", "5"), id="4-5-one-row"),
        pytest.param(("2", "0"), id="2-0-one-column"),
        pytest.param(("1", "5", "9", "D"), id="diagonal"),
        pytest.param(("*", "0", "#", "D"), id="whole-row"),
    ],
)
def test_keys_held_together_are_each_reported(
    matrix: SimulatedMatrix, keypad: MatrixKeypad, keys: tuple[str, ...]
) -> None:
    matrix.hold(*keys)
    assert sorted(scans(keypad, 3)) == sorted(keys)
    assert keypad.held == set(keys)


def test_two_rows_pressed_one_after_the_other(
    matrix: SimulatedMatrix, keypad: MatrixKeypad
) -> None:
    matrix.hold("3")
    assert scans(keypad, 3) == ["3"]
    matrix.hold("8")
    assert scans(keypad, 3) == ["8"]
    matrix.release("3")
    matrix.release("8")
    assert scans(keypad, 3) == []


def test_a_reading_that_may_hold_a_ghost_is_ignored(
    matrix: SimulatedMatrix, keypad: MatrixKeypad
) -> None:
    matrix.hold("1", "2")
    assert sorted(scans(keypad, 3)) == ["1", "2"]
    matrix.hold("4")  # third corner: 5 would read as held
    assert scans(keypad, 10) == []
    assert keypad.held == {"1", "2"}
    matrix.release("2")
    assert scans(keypad, 3) == ["4"]  # unambiguous again: 4 is real, 5 never was


def test_bounce_shorter_than_the_debounce_scans_is_rejected(
    matrix: SimulatedMatrix, keypad: MatrixKeypad
) -> None:
    for _ in range(5):
        matrix.hold("6")
        assert scans(keypad, 2) == []
        matrix.release("6")
        assert scans(keypad, 1) == []
    assert keypad.held == frozenset()


def test_release_bounce_does_not_make_a_second_press(
    matrix: SimulatedMatrix, keypad: MatrixKeypad
) -> None:
    matrix.hold("B")
    assert scans(keypad, 3) == ["B"]
    for _ in range(5):
        matrix.release("B")
        assert scans(keypad, 2) == []
        matrix.hold("B")
        assert scans(keypad, 1) == []
    assert keypad.held == {"B"}


@pytest.mark.parametrize("n", [1, 2, 5])
def test_the_debounce_scan_count_is_configurable(matrix: SimulatedMatrix, n: int) -> None:
    pad = MatrixKeypad(ROWS, COLS, debounce_scans=n)
    matrix.hold("#")
    assert scans(pad, n - 1) == []
    assert scans(pad, 1) == ["#"]
    pad.close()


def test_a_layout_can_name_keys_with_words(matrix: SimulatedMatrix) -> None:
    layout = [["1", "2", "3", "jack"], list("456B"), list("789C"), ["back", "0", "enter", "D"]]
    pad = MatrixKeypad(ROWS, COLS, layout, debounce_scans=1)
    matrix.hold("A", "*")  # the physical keys at those places
    assert sorted(scans(pad, 1)) == ["back", "jack"]
    assert pad.layout[3] == ("back", "0", "enter", "D")
    pad.close()


def test_scanning_drives_one_row_at_a_time_and_lets_it_go(
    matrix: SimulatedMatrix, keypad: MatrixKeypad
) -> None:
    matrix.hold("1", "4", "7", "*")
    scans(keypad, 3)
    assert matrix.most_rows_driven == 1
    assert matrix.driven_rows() == set()
    assert all(p.function == "input" and p.pull == "up" for p in matrix.rows)


def test_scan_delivers_to_the_sink_once_started(matrix: SimulatedMatrix) -> None:
    q: queue.Queue[KeyEvent] = queue.Queue()
    pad = MatrixKeypad(ROWS, COLS, scan_hz=50, debounce_scans=1)
    matrix.hold("9")
    pad.start(q.put)
    try:
        assert q.get(timeout=10) == KeyEvent("9")
    finally:
        pad.close()
    assert drain(q) == []  # held: no repeat however long the thread ran


def test_a_closed_keypad_refuses_to_scan_or_start(keypad: MatrixKeypad) -> None:
    keypad.close()
    with pytest.raises(HardwareError, match=r"^keypad is closed$"):
        keypad.scan()
    with pytest.raises(HardwareError, match=r"^keypad is closed$"):
        keypad.start(print)


class RecordingStop(threading.Event):
    """A stop event that records each wait, moves a fake clock instead, and stops after n."""

    def __init__(self, clock: FakeClock, waits: int) -> None:
        super().__init__()
        self.clock = clock
        self.left = waits
        self.waits: list[float] = []

    def wait(self, timeout: float | None = None) -> bool:
        assert timeout is not None
        self.waits.append(round(timeout, 9))
        self.clock.advance(timeout)
        self.left -= 1
        return self.left == 0


@pytest.mark.parametrize("hz", [50, 100, 250])
def test_the_thread_scans_at_the_configured_rate(matrix: SimulatedMatrix, hz: int) -> None:
    clock = FakeClock()
    pad = MatrixKeypad(ROWS, COLS, scan_hz=hz, clock=clock)
    stop = RecordingStop(clock, waits=5)
    pad.run_until(stop)
    assert pad.scan_hz == hz
    assert stop.waits == [round(1 / hz, 9)] * 5
    pad.close()


def test_the_scan_time_is_taken_out_of_the_wait(matrix: SimulatedMatrix) -> None:
    clock = FakeClock()
    pad = MatrixKeypad(ROWS, COLS, scan_hz=100, clock=clock)
    matrix.on_drive = lambda: clock.advance(0.001)  # each driven row costs 1 ms
    stop = RecordingStop(clock, waits=3)
    pad.run_until(stop)
    assert stop.waits == [0.006] * 3
    pad.close()


def test_a_late_scan_does_not_cause_a_burst_of_catch_up_scans(matrix: SimulatedMatrix) -> None:
    clock = FakeClock()
    pad = MatrixKeypad(ROWS, COLS, scan_hz=100, clock=clock)
    matrix.on_drive = lambda: clock.advance(0.004)  # 16 ms a scan: always late
    stop = RecordingStop(clock, waits=4)
    pad.run_until(stop)
    assert stop.waits == [0.0] * 4
    pad.close()


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        pytest.param(
            ((), COLS), {}, r"^keypad: needs at least one row and one column", id="no-rows"
        ),
        pytest.param(
            (ROWS, COLS, KEYPAD_4X4[:3]),
            {},
            r"^keypad: layout \['123A', '456B', '789C'\] has 3 rows but 4 row pins$",
            id="rows",
        ),
        pytest.param(
            (ROWS, COLS, KEYPAD_3X4),
            {},
            r"^keypad: layout row '123' has 3 keys but there are 4 column pins$",
            id="columns",
        ),
        pytest.param(
            (ROWS, COLS, ("123A", "456B", "789C", "*0#1")),
            {},
            r"^keypad: key '1' appears twice in the layout$",
            id="duplicate",
        ),
        pytest.param(
            (ROWS, COLS, ("123A", "456B", "789C", ["*", "0", "#", "x:y"])),
            {},
            r"^keypad: invalid key name 'x:y' in layout$",
            id="name",
        ),
        pytest.param(
            (ROWS, COLS),
            {"scan_hz": 20},
            r"^keypad: scan_hz must be 50\.\.1000, got 20$",
            id="slow",
        ),
        pytest.param(
            (ROWS, COLS),
            {"debounce_scans": 0},
            r"^keypad: debounce_scans must be 1\.\.20, got 0$",
            id="debounce",
        ),
        pytest.param(
            (ROWS, COLS),
            {"debounce_scans": 2.5},
            r"^keypad: debounce_scans must be a whole number, got 2\.5$",
            id="debounce-float",
        ),
    ],
)
def test_bad_keypad_config_is_refused(
    mock_pins: MockFactory, args: tuple[object, ...], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(ConfigError, match=message):
        MatrixKeypad(*args, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        pytest.param(
            (5, 6, 13, 99), COLS, r"^cannot use GPIO99 for keypad row 3: ", id="no-such-pin"
        ),
        pytest.param(
            ROWS, (12, 16, 20, 5), r"^cannot use GPIO5 for keypad column 3: ", id="shared-pin"
        ),
    ],
)
def test_gpiozero_refuses_the_keypad_pins_and_the_others_are_freed(
    mock_pins: MockFactory, rows: tuple[int, ...], cols: tuple[int, ...], message: str
) -> None:
    with pytest.raises(HardwareError, match=message):
        MatrixKeypad(rows, cols)
    MatrixKeypad(ROWS, COLS).close()  # the pins claimed before the refusal were released


def test_a_keypad_pin_in_use_is_a_hardware_error(mock_pins: MockFactory) -> None:
    taken = Button(COLS[0])
    with pytest.raises(HardwareError, match=r"^cannot use GPIO12 for keypad column 0: "):
        MatrixKeypad(ROWS, COLS)
    taken.close()
    MatrixKeypad(ROWS, COLS).close()  # the row pins were released
