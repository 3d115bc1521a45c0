"""LED tracks: time to compute a frame and an animation, against the strips' physical limits.

Run: ``.venv/bin/python bench/bench_leds.py``. Uses the default layout (one 244-LED WS2812
strip, two tracks). Prints the median of several rounds for: a still frame, a winner's flash
frame, a 12-frame peg animation, the SPI encodings of one frame, and the terminal view; then
the wire time of one frame for each backend and the worst-case current of the layout.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

from pegboard.devices.leds import (
    APA102_SPI_HZ,
    WS2812_RESET_BYTES,
    WS2812_SPI_HZ,
    encode_apa102,
    encode_ws2812_spi,
)
from pegboard.ui.ledtracks import (
    LedLayout,
    SidePegs,
    TrackState,
    animate_peg,
    estimate_current_ma,
    render_ansi,
    render_tracks,
    worst_case_current_ma,
)

ROUNDS = 7


def per_call_us(func: Callable[[], object], calls: int) -> float:
    """Median over ROUNDS of the mean time of one call, in microseconds."""
    samples = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        for _ in range(calls):
            func()
        samples.append((time.perf_counter() - start) / calls * 1e6)
    return statistics.median(samples)


def row(label: str, value: float, unit: str, note: str = "") -> None:
    print(f"  {label:<36} {value:9.2f} {unit}{note}")


def main() -> None:
    layout = LedLayout.default()
    count = sum(spec.count for spec in layout.strips)
    before = TrackState((SidePegs(87, 80, True), SidePegs(95, 91)))
    after = TrackState((SidePegs(93, 87, True), SidePegs(95, 91)))
    won = TrackState((SidePegs(121, 115), SidePegs(95, 91)), winner=0)
    frame = render_tracks(before, layout)
    pixels = frame["board"]

    print(f"default layout: {count} LEDs, {len(layout.strips)} strip, {len(layout.tracks)} tracks")
    print("compute (median per call):")
    row(
        "still frame (render_tracks)", per_call_us(lambda: render_tracks(before, layout), 300), "µs"
    )
    row("flash frame (winner)", per_call_us(lambda: render_tracks(won, layout, 1), 300), "µs")
    animation = per_call_us(lambda: animate_peg(before, after, layout, frames=12), 30)
    row("peg animation, 12 frames", animation, "µs", f" ({animation / 12:.0f} µs a frame)")
    row("encode WS2812 for SPI", per_call_us(lambda: encode_ws2812_spi(pixels), 1000), "µs")
    row("encode APA102", per_call_us(lambda: encode_apa102(pixels), 1000), "µs")
    row("terminal view (render_ansi)", per_call_us(lambda: render_ansi(frame, layout), 300), "µs")

    print("on the wire, one frame of the whole strip:")
    ws2812 = 24 * count * 1.25e-6 + 300e-6  # 1.25 µs a bit (30 µs an LED), then the reset
    row("WS2812 at 800 kHz (rpi_ws281x)", ws2812 * 1e3, "ms", f" -> {1 / ws2812:.0f} frames/s")
    spi_bytes = len(encode_ws2812_spi(pixels))
    spi = spi_bytes * 8 / WS2812_SPI_HZ
    note = f" -> {1 / spi:.0f} frames/s ({spi_bytes} bytes, {WS2812_RESET_BYTES} reset)"
    row("WS2812 over SPI at 2.4 MHz", spi * 1e3, "ms", note)
    apa_bytes = len(encode_apa102(pixels))
    apa = apa_bytes * 8 / APA102_SPI_HZ
    note = f" -> {1 / apa:.0f} frames/s ({apa_bytes} bytes)"
    row(f"APA102 at {APA102_SPI_HZ / 1e6:g} MHz", apa * 1e3, "ms", note)

    print("current (20 mA a channel at 255, 1 mA idle an LED):")
    row("idle, all dark", sum(s.count * s.idle_ma for s in layout.strips), "mA")
    row("a game frame (four pegs, marks)", estimate_current_ma(frame, layout), "mA")
    row("winner's flash frame", estimate_current_ma(render_tracks(won, layout, 1), layout), "mA")
    unlimited = worst_case_current_ma(layout, limited=False)
    row(f"all white at brightness {layout.brightness:g}, unlimited", unlimited, "mA")
    row("worst case with the limiter", worst_case_current_ma(layout), "mA")


if __name__ == "__main__":
    main()
