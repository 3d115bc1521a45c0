"""Key -> first word heard: how soon the board starts saying a call, under the Pi stand-ins.

Run as root (the CPU quotas are cgroups, as ``make bench-pi``'s):
``.venv/bin/python bench/bench_speech.py [--rounds 5]``

The spoken deal (``tests/keys/spoken-deal.keys``: pegs by hand, his heels, a go, pairs, one for
last, a count and the win with a lurch) is replayed key by key through the real controller on
the simulator's ports (it draws every frame, as on the Pi) with the speaker listening. The audio
goes to a file sink (``devices.sound.WavSink``): for each key that says something, the figure is
the time from the key to its first non-silent sample, counted as a sound card would play it
(the stream's first chunk starts the card's clock). Each key waits for the last words to be
written before the next, so every figure is one key's.

Two ways to make the words, interleaved round by round:

- ``espeak``: eSpeak NG renders each call when it is said (what the board does);
- ``clips``: every call of the deal pre-rendered to a WAV file beforehand (the best case for
  shipping clips of a fixed vocabulary: no call here needs eSpeak at run time), played by
  ``cat`` into the same sink.

Stand-ins (``bench/pi_quota.py``): the Pi Zero 2 W is a 10% quota of one core of these machines;
the Pi 4, about three times faster per core (Cortex-A72 at 1.5 GHz against the Zero 2 W's A53 at
1 GHz), a 30% quota. Every process of a run (Python, eSpeak, cat) is in the quota's cgroup.
The child mode (``--child MODE``) is one replay, printing one figure a line.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import pi_quota

ROOT = Path(__file__).resolve().parents[1]
KEYS = ROOT / "tests" / "keys" / "spoken-deal.keys"
STAND_INS = {"Pi 4": 0.3, "Pi Zero 2 W": 0.1}
TARGETS = {"Pi 4": 300.0, "Pi Zero 2 W": 800.0}  # ms: issue 26's
MODES = ("espeak", "clips")


def replay(mode: str, clips: Path) -> list[tuple[str, float]]:
    """One replay of the spoken deal: (words, key -> first sound in ms) for each key that spoke."""
    from pegboard.config.settings import Config
    from pegboard.devices.sound import Voice, WavSink
    from pegboard.journal import Journal
    from pegboard.table.keyscript import Wait, read_script
    from pegboard.table.simulator import config_for_script
    from pegboard.table.speaker import Speaker
    from pegboard.table.wiring import build_controller, sim_ports

    class ClipVoice(Voice):
        """Plays a pre-rendered clip of the words when there is one (else eSpeak)."""

        def say(self, text: str, voice: str | None = None) -> None:
            clip = clips / _clip_name(text)
            if not clip.exists():
                super().say(text, voice)
                return
            self.stop()
            player = subprocess.Popen(["cat", str(clip)], stdout=subprocess.PIPE)
            assert player.stdout is not None
            self._espeak = player
            self._playback = self.sink.play(player.stdout, text, voice or self.voice)

    script = read_script(KEYS)
    config = config_for_script(Config(), script)
    found = []
    with tempfile.TemporaryDirectory() as tmp:
        sink = WavSink(Path(tmp) / "said")
        speaker = Speaker(ClipVoice(sink) if mode == "clips" else Voice(sink))
        speaker.start()
        with Journal(Path(tmp) / "g.db") as store:
            controller = build_controller(
                config, store, sim_ports(config), on_change=speaker.on_change, sound=speaker
            )
            for line in script.lines:
                if isinstance(line.step, Wait):
                    continue
                said = len(sink.recordings)
                start = time.monotonic()
                controller.handle(line.step)
                if not speaker.wait_idle(60):
                    raise RuntimeError(f"the speaker did not finish after {line.step}")
                for recording in sink.recordings[said:]:
                    if recording.first_sound is not None:
                        found.append((recording.text, (recording.first_sound - start) * 1000))
        speaker.close()
    return found


def _clip_name(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16] + ".wav"


def render_clips(texts: Sequence[str], folder: Path) -> None:
    """Each of *texts* rendered by eSpeak NG to a clip in *folder* (build time: no quota)."""
    for text in texts:
        path = folder / _clip_name(text)
        subprocess.run(["espeak-ng", "-v", "en", "-w", str(path), text], check=True)


def child(
    runner: pi_quota.Runner, tree: pi_quota.Tree, mode: str, clips: Path
) -> list[tuple[str, float]]:
    argv = [runner.python, str(Path(__file__)), "--child", mode, "--clips", str(clips)]
    done = subprocess.run(
        runner.command(argv), env=runner.env(tree),
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"bench_speech --child {mode}: {done.stderr[-600:]}")
    rows = [line.split("\t") for line in done.stdout.splitlines() if "\t" in line]
    return [(text, float(ms)) for text, ms in rows]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="replays of the deal per figure")
    parser.add_argument("--child", choices=MODES, help=argparse.SUPPRESS)
    parser.add_argument("--clips", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        for text, ms in replay(args.child, args.clips or Path("/nonexistent")):
            print(f"{text}\t{ms:.1f}")
        return 0
    tree = pi_quota.Tree(ROOT, "speech")
    found: dict[tuple[str, str], list[tuple[str, float]]] = {}
    with tempfile.TemporaryDirectory() as cache:
        clips = Path(cache) / "clips"
        clips.mkdir()
        texts = [text for text, _ in replay("espeak", clips)]  # the deal's calls, no quota
        render_clips(texts, clips)
        print(f"{len(texts)} calls a replay; clips: {len(texts)} WAVs rendered beforehand")
        try:
            runner = pi_quota.Runner(None, Path(cache))
            for mode in MODES:  # fill the byte-code cache, untimed
                child(runner, tree, mode, clips)
            for _ in range(args.rounds):  # interleaved: every figure sees the same machine
                for stand_in, share in STAND_INS.items():
                    with pi_quota.cpu_quota(share) as procs:
                        runner.procs = procs
                        for mode in MODES:
                            found.setdefault((stand_in, mode), []).extend(
                                child(runner, tree, mode, clips)
                            )
        except pi_quota.NoQuota as e:
            print(f"bench_speech: cannot measure under a CPU quota here: {e}")
            return 1
    print(f"key -> first word heard (ms), {args.rounds} replays of {KEYS.name} each")
    print(f"  {'stand-in':<12} {'quota':>6}  {'words':<7} {'n':>4} {'p50':>7} {'p90':>7} "
          f"{'max':>7}  target")  # fmt: skip
    for (stand_in, mode), calls in found.items():
        values = sorted(ms for _, ms in calls)
        p90 = values[min(len(values) - 1, int(0.9 * len(values)))]
        print(
            f"  {stand_in:<12} {STAND_INS[stand_in]:>6.0%}  {mode:<7} {len(values):>4} "
            f"{statistics.median(values):>7.0f} {p90:>7.0f} {values[-1]:>7.0f}  "
            f"{TARGETS[stand_in]:.0f}"
        )
    print("each call's median (ms):")
    texts = dict.fromkeys(text for calls in found.values() for text, _ in calls)
    columns = list(found)
    print("  " + " ".join(f"{s[:6] + ' ' + m[:6]:>13}" for s, m in columns) + "  call")
    for text in texts:
        cells = [statistics.median([ms for t, ms in found[c] if t == text]) for c in columns]
        print("  " + " ".join(f"{cell:>13.0f}" for cell in cells) + f"  {text[:50]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
