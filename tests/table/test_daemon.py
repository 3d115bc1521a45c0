"""The daemon as systemd runs it: a subprocess, a fake notify socket, signals and restarts."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops

from pegboard.config.settings import Config, parse_config
from pegboard.devices.leds import RecordingStrip, StripKind, StripSpec
from pegboard.devices.oled import RecordingDisplay
from pegboard.devices.ports import Color, FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import GameState, Phase
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.view import GameView, render_view
from pegboard.errors import HardwareError
from pegboard.journal import Store
from pegboard.table.controller import Controller, DisplayPower
from pegboard.table.daemon import (
    FRAME_SECONDS,
    LazyDisplay,
    LazyStrip,
    TrackAnimator,
    build_controller,
    paused_frame,
    run_daemon,
    sim_ports,
    track_state,
)
from pegboard.table.keyscript import BUTTON_NAMES, KEYPAD_KEYS
from pegboard.table.sdnotify import Notifier
from pegboard.ui.keypad import HINT_WIDTH
from pegboard.ui.ledtracks import LedLayout, render_tracks

ROOT = Path(__file__).resolve().parents[2]


def _start(args: list[str], notify_path: str, tmp_path: Path) -> subprocess.Popen[bytes]:
    env = dict(os.environ, NOTIFY_SOCKET=notify_path, WATCHDOG_USEC="200000")
    env.pop("PEGBOARD_CONFIG", None)
    env["HOME"] = str(tmp_path)  # no stray user config
    cmd = [sys.executable, "-m", "pegboard", "run", "--log-level", "WARNING", *args]
    return subprocess.Popen(cmd, env=env, cwd=ROOT, stderr=subprocess.PIPE)


def _until(sock: socket.socket, wanted: str) -> list[str]:
    """Every message up to and including the first with *wanted* (the socket times out)."""
    seen = []
    while True:
        message = sock.recv(4096).decode()
        seen.append(message)
        if wanted in message.split("\n"):
            return seen


def test_daemon_reports_ready_pings_the_watchdog_and_pauses_on_sigterm(
    notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify_socket
    out = tmp_path / "out"
    proc = _start(
        ["--simulate", "--headless", "--wait-for-signal", "--out", str(out),
         "--db", str(tmp_path / "g.db")],
        path,
        tmp_path,
    )  # fmt: skip
    try:
        ready = _until(sock, "READY=1")
        assert f"MAINPID={proc.pid}" in ready[-1]
        _until(sock, "WATCHDOG=1")
        _until(sock, "WATCHDOG=1")  # pinged again from the loop, at half of WATCHDOG_USEC
        proc.send_signal(signal.SIGTERM)
        _until(sock, "STOPPING=1")
        _, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err.decode()
    state = json.loads((out / "state.json").read_text())
    view = render_view(GameState.new(Rules.six_card()))
    assert state == view.to_dict()
    shown = Image.open(out / "oled.png")
    expected = paused_frame(view, (128, 64), "1")
    assert ImageChops.difference(shown.convert("L"), expected.convert("L")).getbbox() is None
    leds = json.loads((out / "leds.json").read_text())
    assert len(leds["strips"]["board"]) == 244
    assert all(c == [0, 0, 0] for c in leds["strips"]["board"])


def test_kill_9_mid_game_then_restart_resumes_from_the_journal(
    notify_socket: tuple[socket.socket, str], tmp_path: Path
) -> None:
    sock, path = notify_socket
    db = tmp_path / "g.db"
    first = tmp_path / "first.keys"
    first.write_text("5\n3\n")  # cut: A cuts a five, B a three, so B deals
    proc = _start(
        [
            "--simulate", "--headless", "--wait-for-signal", "--keys", str(first),
            "--out", str(tmp_path / "o1"), "--db", str(db),
        ],
        path,
        tmp_path,
    )  # fmt: skip
    try:
        _until(sock, "STATUS=keys replayed: 2 steps")
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == -signal.SIGKILL
    second = tmp_path / "second.keys"
    second.write_text("A\n")  # the starter: a jack, two for his heels to the dealer
    proc = _start(
        ["--simulate", "--headless", "--keys", str(second), "--out", str(tmp_path / "o2"),
         "--db", str(db)],
        path,
        tmp_path,
    )  # fmt: skip
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err.decode()
    state = json.loads((tmp_path / "o2" / "state.json").read_text())
    assert state["phase"] == "play"
    assert state["cut"] == ["5H", "3D"]
    assert [side["score"] for side in state["sides"]] == [0, 2]


def test_run_daemon_in_process_stops_and_leaves_paused(tmp_path: Path) -> None:
    config = parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"')
    ports = sim_ports(config)
    display = ports.display
    assert isinstance(display, RecordingDisplay)
    notices: list[str] = []

    class Recorder(Notifier):
        def notify(self, *fields: str) -> bool:
            notices.extend(fields)
            return True

    def on_ready(controller: object) -> None:
        stop.set()

    stop = threading.Event()
    result = run_daemon(
        config, ports, notifier=Recorder(env={}), stop=stop, install_signals=False,
        on_ready=on_ready,
    )  # fmt: skip
    assert "READY=1" in notices and "STOPPING=1" in notices
    assert result.ready_after is not None
    assert len(display.shown) >= 2  # the first frame, then "paused"
    last = display.shown[-1]
    expected = paused_frame(result.controller.view, display.size, display.mode)
    assert last.tobytes() == expected.tobytes()
    strip = ports.strips["board"]
    assert isinstance(strip, RecordingStrip) and strip.closed
    assert set(strip.last) == {(0, 0, 0)}


class _Flaky:
    """A display that fails while ``broken`` is set (an unplugged OLED)."""

    opened = 0
    broken = True

    def __init__(self) -> None:
        type(self).opened += 1
        if type(self).broken:
            raise HardwareError("OLED not found on I2C bus 1 at 0x3C")
        self.inner = RecordingDisplay()

    @property
    def size(self) -> tuple[int, int]:
        return self.inner.size

    @property
    def mode(self) -> str:
        return self.inner.mode

    def show(self, image: Image.Image) -> None:
        self.inner.show(image)

    def set_contrast(self, level: int) -> None:
        self.inner.set_contrast(level)

    def close(self) -> None:
        self.inner.close()


def test_a_display_missing_at_start_is_opened_when_it_appears() -> None:
    lazy = LazyDisplay(_Flaky, (128, 64), "1")
    frame = Image.new("1", (128, 64), 1)
    with pytest.raises(HardwareError, match="OLED not found on I2C bus 1 at 0x3C"):
        lazy.show(frame)
    assert lazy.device is None
    _Flaky.broken = False
    lazy.show(frame)
    assert isinstance(lazy.device, _Flaky)
    assert lazy.device.inner.last is not None


def test_a_strip_that_fails_is_reopened_on_the_next_frame() -> None:
    opened: list[RecordingStrip] = []

    def opener(spec: StripSpec) -> RecordingStrip:
        strip = RecordingStrip(spec.count, name=spec.name)
        opened.append(strip)
        return strip

    lazy = LazyStrip(StripSpec("board", StripKind.SIM, 3), opener)
    lazy.show([(1, 2, 3)] * 3)
    opened[0].close()  # the strip goes away: the next show fails and drops it
    with pytest.raises(HardwareError, match="closed"):
        lazy.show([(4, 5, 6)] * 3)
    lazy.show([(7, 8, 9)] * 3)
    assert len(opened) == 2 and opened[1].last == ((7, 8, 9),) * 3


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
    state = track_state(view, rules)
    assert (state.lurch_line, state.double_skunk_line) == lines


def test_install_script_dry_run_changes_nothing_and_skips_what_is_done(tmp_path: Path) -> None:
    boot = tmp_path / "config.txt"
    boot.write_text("dtparam=i2c_arm=on\ndtparam=i2c_arm_baudrate=400000\n")
    before = boot.read_text()
    done = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-run", "--boot-config", str(boot),
         "--example", "pi5"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert boot.read_text() == before
    assert f"ok: {boot} already has dtparam=i2c_arm_baudrate=400000" in out
    if "raspi-config" not in out:  # off a Pi: config.txt lines instead of raspi-config
        assert f"ok: {boot} already has dtparam=i2c_arm=on" in out
        assert f"would append to {boot}: dtparam=spi=on" in out
    assert "pi5-sh1106-apa102.toml" in out or "ok: /etc/pegboard/config.toml exists" in out
    assert "would run: systemctl enable pegboard.service" in out


def test_install_script_refuses_unknown_options() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "systemd" / "install.sh"), "--dry-rnu"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "unknown option: --dry-rnu" in done.stderr


def test_key_events_from_the_simulated_keys_reach_the_controller(tmp_path: Path) -> None:
    from pegboard.journal import Store
    from pegboard.table.daemon import build_controller

    config = parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"')
    with Store(config.game.database) as store:
        controller = build_controller(config, store, sim_ports(config))
        controller.handle(KeyEvent("5"))
        controller.handle(KeyEvent("3"))
        assert controller.view.dealer == 1


# --- the LED tracks, dim and sleep, and nothing a player types can crash it ------------------


def _config(tmp_path: Path, extra: str = "") -> Config:
    return parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"\n{extra}')


def test_the_daemon_wires_dim_and_sleep_from_the_display_config(tmp_path: Path) -> None:
    config = _config(tmp_path, "[display]\ndim_after = 30\nsleep_after = 90\ncontrast = 200\n")
    clock = FakeClock()
    ports = sim_ports(config)
    display = ports.display
    assert isinstance(display, RecordingDisplay)
    with Store(config.game.database) as store:
        controller = build_controller(config, store, ports, clock=clock)
        controller.tick()
        clock.advance(30)
        controller.tick()
        assert controller.display_power is DisplayPower.DIMMED
        assert display.contrast == 16
        clock.advance(60)
        controller.tick()
        assert controller.display_power is DisplayPower.ASLEEP
        assert display.shown[-1].getbbox() is None  # no panel switch: a blank frame
        controller.handle(KeyEvent("5"))
        assert controller.display_power is DisplayPower.ON and display.contrast == 200
        assert store.commands() == []  # the waking key was swallowed


def test_zero_seconds_means_never_dim_and_never_sleep(tmp_path: Path) -> None:
    config = _config(tmp_path, "[display]\ndim_after = 0\nsleep_after = 0\n")
    clock = FakeClock()
    with Store(config.game.database) as store:
        controller = build_controller(config, store, sim_ports(config), clock=clock)
        clock.advance(1e6)
        controller.tick()
        assert controller.display_power is DisplayPower.ON


class _Panel:
    """A display device with a panel switch, recording what it is told."""

    def __init__(self, log: list[str]) -> None:
        self.log = log

    size = (128, 64)
    mode = "1"

    def show(self, image: Image.Image) -> None:
        self.log.append("show")

    def set_contrast(self, level: int) -> None:
        self.log.append(f"contrast {level}")

    def sleep(self) -> None:
        self.log.append("sleep")

    def wake(self) -> None:
        self.log.append("wake")

    def close(self) -> None:
        self.log.append("close")


def test_a_lazy_display_sleeps_its_panel_and_a_reopened_one_too() -> None:
    calls: list[str] = []
    lazy = LazyDisplay(lambda: _Panel(calls), (128, 64), "1")
    lazy.sleep()  # nothing open yet: remembered
    assert lazy.is_asleep and calls == []
    lazy.show(Image.new("1", (128, 64)))
    assert calls == ["sleep", "show"]  # opened asleep
    lazy.wake()
    assert calls[-1] == "wake" and not lazy.is_asleep
    lazy.sleep()
    lazy.leave(Image.new("1", (128, 64)))  # "paused" must be seen: woken first
    assert calls[-3:] == ["sleep", "wake", "show"]


def test_a_lazy_display_drops_a_panel_that_fails_to_sleep() -> None:
    class Broken(_Panel):
        def sleep(self) -> None:
            raise OSError(121, "Remote I/O error")

    calls: list[str] = []
    lazy = LazyDisplay(lambda: Broken(calls), (128, 64), "1")
    lazy.show(Image.new("1", (128, 64)))
    with pytest.raises(OSError, match="Remote I/O error"):
        lazy.sleep()
    assert lazy.device is None and calls[-1] == "close"


def _three_handed_view() -> GameView:
    return render_view(GameState.new(Rules.three_handed()))


def test_more_sides_than_tracks_light_the_tracks_there_are(
    caplog: pytest.LogCaptureFixture,
) -> None:
    layout = LedLayout.default()  # two tracks
    animator = TrackAnimator(layout, Rules.three_handed)
    view = _three_handed_view()
    with pytest.raises(ValueError, match="3 sides but the LED layout has 2 tracks"):
        render_tracks(track_state(view, Rules.three_handed()), layout)
    frame = animator.render(view)
    two = replace(view, sides=view.sides[:2])
    assert frame == render_tracks(track_state(two, Rules.three_handed()), layout)
    animator.render(view)
    warnings = [r.message for r in caplog.records if r.levelname == "WARNING"]
    assert warnings == [
        "3 sides but the LED layout has 2 tracks: sides 3 are not shown on the LEDs"
    ]


def test_a_new_match_with_more_sides_jumps_to_its_tracks_in_one_step() -> None:
    layout = LedLayout.default()
    animator = TrackAnimator(layout, Rules.six_card)
    two = render_view(GameState.new(Rules.six_card()))
    steps = animator.animate(two, _three_handed_view())
    assert len(steps) == 1


def test_a_win_by_a_side_without_a_track_does_not_flash() -> None:
    state = TrackAnimator(LedLayout.default(), Rules.three_handed).state(
        replace(_three_handed_view(), phase=Phase.GAME_OVER, winner=2)
    )
    assert state.winner is None and len(state.sides) == 2


_ALL_KEYS = sorted(KEYPAD_KEYS) + sorted(BUTTON_NAMES)
_PRESS = st.sampled_from(_ALL_KEYS).map(lambda k: [KeyEvent(k)])
_HOLD = st.sampled_from(_ALL_KEYS).map(lambda k: [KeyEvent(k, KeyAction.LONG_PRESS)])
_DIGIT = st.sampled_from("0123456789")
_SIDE = st.sampled_from("ABCD")
# phrases a player would type, so random runs get past the cut into the play, the show and
# game over: a cut, a manual peg of up to 99 to a side (maybe one that does not exist), a
# menu choice, a rank and its #
_PHRASES = st.one_of(
    st.tuples(_DIGIT, _DIGIT).map(lambda ks: [KeyEvent(k) for k in ks]),
    st.tuples(st.sampled_from("3456"), _DIGIT, _SIDE).map(
        lambda ks: [KeyEvent(k) for k in ("D", *ks)]
    ),
    _DIGIT.map(lambda k: [KeyEvent("ok", KeyAction.LONG_PRESS), KeyEvent(k)]),
    _DIGIT.map(lambda k: [KeyEvent(k), KeyEvent("#")]),
)
_WAIT = st.sampled_from([0.01, FRAME_SECONDS, 0.3, 1.6, 45.0, 400.0, 2000.0]).map(lambda s: [s])
_STEPS = st.lists(
    st.one_of(_PRESS, _PRESS, _HOLD, _PHRASES, _PHRASES, _PHRASES, _WAIT), min_size=10, max_size=60
).map(lambda phrases: [step for phrase in phrases for step in phrase])
_VARIANTS = st.sampled_from([variant.value for variant in Variant])
_MUGGINS = {
    "off": "",
    "hands": "muggins = true\n",
    "hands+play": "muggins = true\nmuggins_in_play = true\n",
}
_KEYPADS = {"4x4": "", "3x4": '[keypad]\ncols = [5, 6, 13]\nlayout = "3x4"\n'}
_LONG_NAMES = ("Bartholomew", "Maximiliana", "Christopher")


def _check_hint(hint: str) -> None:
    lines = hint.split("\n")
    if len(lines) > 2 or any(len(line) > HINT_WIDTH for line in lines):
        raise AssertionError(f"a hint that does not fit two lines of {HINT_WIDTH}: {hint!r}")


def _check_scores(view: GameView) -> None:
    for side in view.sides:
        if side.score < 0 or side.front < 0 or side.rear < 0:
            raise AssertionError(f"a negative peg: {side!r}")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=_VARIANTS,
    steps=_STEPS,
    seed=st.integers(0, 2**16),
    height=st.sampled_from([64, 32]),
    muggins=st.sampled_from(sorted(_MUGGINS)),
    keypad=st.sampled_from(sorted(_KEYPADS)),
    long_names=st.booleans(),
)
@example(  # found by this test: the menu's new match kept best of three for three players
    variant="five-card",
    steps=[KeyEvent("ok", KeyAction.LONG_PRESS), *map(KeyEvent, "0D40A43#")],
    seed=0,
    height=64,
    muggins="off",
    keypad="4x4",
    long_names=False,
)
def test_no_key_sequence_crashes_the_controller_and_the_journal_replays_it(
    variant: str,
    steps: list[KeyEvent | float],
    seed: int,
    height: int,
    muggins: str,
    keypad: str,
    long_names: bool,
) -> None:
    sides = Rules.for_variant(Variant.parse(variant)).sides
    names = f"names = {list(_LONG_NAMES[:sides])!r}\n" if long_names and sides <= 3 else ""
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "g.db"
        config = parse_config(
            f'[game]\ndatabase = "{db}"\nvariant = "{variant}"\n{_MUGGINS[muggins]}{names}'
            f"[display]\nheight = {height}\ndim_after = 30\nsleep_after = 900\n"
            f"{_KEYPADS[keypad]}"
        )
        clock = FakeClock(1000.0)
        ports = sim_ports(config)
        with Store(db) as store:
            controller = build_controller(
                config, store, ports, clock=clock, rng=random.Random(seed)
            )
            controller.tick()
            for step in steps:
                if isinstance(step, KeyEvent):
                    controller.handle(step)
                else:
                    clock.advance(step)
                controller.tick()
                _check_scores(controller.view)
                _check_hint(controller.entry.hint)
            controller.settle()
            view = controller.view
            strip = ports.strips["board"]
            assert isinstance(strip, RecordingStrip)
            assert strip.last == tuple(animator_frame(config, controller)["board"])
        with Store(db) as again:
            state = again.load()
        assert state is not None
        assert render_view(state) == view


def animator_frame(config: Config, controller: Controller) -> Mapping[str, Sequence[Color]]:
    """The still frame the tracks should show for the controller's view."""
    return TrackAnimator(config.leds, lambda: controller.state.rules).render(controller.view)


def test_the_terminal_simulator_without_a_terminal_says_what_to_do(tmp_path: Path) -> None:
    cmd = [sys.executable, "-m", "pegboard", "run", "--simulate"]
    cmd += ["--db", str(tmp_path / "g.db")]
    done = subprocess.run(
        cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60, check=False
    )
    assert done.returncode == 2
    assert done.stderr.strip().endswith("(for scripts: --headless --keys FILE --out DIR)")
    assert done.stderr.count("\n") == 1
