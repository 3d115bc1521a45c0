"""Time to render each OLED screen, and the full-frame update rate against the I2C bus's limit.

Run: .venv/bin/python bench/bench_screens.py
"""

from __future__ import annotations

import time

from pegboard.devices.oled import LumaDisplay
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import GameView, render_view
from pegboard.ui.keypad import EntryView, Mode
from pegboard.ui.screens import (
    MenuItem,
    MenuView,
    Screen,
    ScreenKind,
    choose_screen,
    render_screen,
)


class CountingSerial:
    """A serial interface that only counts the bytes an I2C bus would carry."""

    def __init__(self) -> None:
        self.bytes = 0

    def command(self, *cmd: int) -> None:
        self.bytes += 1 + len(cmd)  # control byte, then the commands

    def data(self, data: list[int]) -> None:
        self.bytes += 1 + len(data)  # control byte, then the data

    def cleanup(self) -> None:
        pass


def view_after(commands: list[str]) -> GameView:
    state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    for text in commands:
        state, _ = apply(state, parse_command(text, state.names))
    return render_view(state)


def best_of(repeats: int, fn: object) -> float:
    assert callable(fn)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    cut = ["cut 9H 3C"]
    screens = {
        "scoreboard": choose_screen(view_after([*cut, "peg Ann 50", "peg Ann 50", "peg Bob 47"])),
        "play": choose_screen(view_after([*cut, "starter 5C", "play 5H", "play 10D", "play 5S"])),
        "count": choose_screen(view_after([*cut, "starter 5C", "next", "show 5H 5D 5S JC"])),
        "game over": choose_screen(view_after([*cut, "peg Ann 61", "peg Ann 60"])),
        "entry": choose_screen(
            None, entry=EntryView("Ann", "5 5 J", "suit? 1♣ 2♦ 3♥ 4♠", Mode.TYPING)
        ),
        "menu": Screen(ScreenKind.MENU, menu=MenuView("settings", (MenuItem("a", "1"),) * 6, 2)),
        "error": choose_screen(None, error="no fifth 5 in one deal"),
        "paused": choose_screen(None, paused=True),
    }
    print("render time per screen (best of 200, ms)")
    print(f"  {'screen':<12} {'128x64 1':>10} {'256x64 L':>10}")
    for name, screen in screens.items():
        small = best_of(200, lambda s=screen: render_screen(s, (128, 64), "1")) * 1e3
        wide = best_of(200, lambda s=screen: render_screen(s, (256, 64), "L")) * 1e3
        print(f"  {name:<12} {small:>10.2f} {wide:>10.2f}")

    serial = CountingSerial()
    display = LumaDisplay.from_options({"display": "ssd1306"}, serial_interface=serial)
    frames = [render_screen(s, (128, 64), "1") for s in screens.values()]
    serial.bytes = 0
    n = 0
    start = time.perf_counter()
    while time.perf_counter() - start < 2.0:
        display.show(frames[n % len(frames)])
        n += 1
    elapsed = time.perf_counter() - start
    per_frame = serial.bytes / n
    bus = 400_000
    bits = per_frame * 9  # 8 data bits and an ACK per byte; start/stop/address ignored
    print()
    print("SSD1306 128x64, full frame through luma's real driver (bus simulated)")
    print(f"  bytes per frame on I2C:        {per_frame:.0f}")
    print(f"  bus time at 400 kHz:           {bits / bus * 1e3:.1f} ms  ({bus / bits:.0f} fps max)")
    print(f"  CPU time per frame (driver):   {elapsed / n * 1e3:.2f} ms  ({n / elapsed:.0f} fps)")
    same = frames[0]
    skipped = best_of(200, lambda: display.show(same)) * 1e6
    print(f"  identical frame (skipped):     {skipped:.0f} µs")


if __name__ == "__main__":
    main()
