"""The board's voice: eSpeak NG renders the words, ALSA (or a file) takes the audio.

Theory of operation
-------------------
``Voice.say(text)`` starts ``espeak-ng --stdout`` (Debian's ``espeak-ng``: a few MB, a five-second
call rendered in a few hundredths of a second) with the text on its stdin, and hands its
stdout, a WAV stream, to a ``Sink``; it returns at once. A new ``say`` (or ``stop``) kills what
is still speaking first, so a new count cuts the old one short. Nothing here waits for the
audio: ``poll`` says whether the words are still going, and raises ``HardwareError`` once for a
playback that failed (no sound device, ``aplay`` or ``espeak-ng`` not installed).

Sinks:

- ``AlsaSink``: ``aplay`` (Debian's ``alsa-utils``) reads the stream straight from eSpeak's pipe
  and plays it on an ALSA device ("default": the Pi's I2S amplifier, USB audio or HDMI, as
  ``/etc/asound.conf`` or the overlay makes it). No audio passes through Python.
- ``WavSink``: each utterance is written to a WAV file of its own in a folder (tests, the
  benchmark and the docs' recording: no sound card needed). A thread copies the stream and
  notes when the first non-silent sample arrived and where it lies in the stream
  (``Recording.first_sound``), which is when a player would hear the first word.
"""

from __future__ import annotations

import array
import logging
import os
import subprocess
import sys
import threading
import time
import wave
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Protocol

from pegboard.errors import HardwareError
from pegboard.frozen import frozen

__all__ = [
    "ESPEAK",
    "AlsaSink",
    "Playback",
    "Recording",
    "Sink",
    "Voice",
    "WavSink",
    "first_sound_at",
    "join_wavs",
]

log = logging.getLogger(__name__)

ESPEAK = "espeak-ng"
"""The speech engine's program (Debian package ``espeak-ng``)."""

SILENCE = 64
"""A sample quieter than this (of 32767) is silence: eSpeak's own pauses are exact zeros, and
the quietest word starts far above it."""

_HEADER = 44  # eSpeak's --stdout WAV header: RIFF, fmt (16 bytes: PCM), data


class Playback(Protocol):
    """One utterance on its way out of a sink."""

    def done(self) -> bool:
        """True once all of it is out (or it was stopped).

        Raises:
            HardwareError: it ended, and the sink failed (said once).
        """
        ...

    def stop(self) -> None:
        """End it now (what is not yet heard is dropped)."""
        ...


class Sink(Protocol):
    """Where the audio goes: a sound card, or files."""

    def play(self, audio: IO[bytes], text: str, voice: str) -> Playback:
        """Start taking the WAV stream *audio* (the words *text* in eSpeak's *voice*).

        Raises:
            HardwareError: the sink cannot start (its program is not installed).
        """
        ...


class _Process:
    """A playback that is one process (``aplay``): done when it exits, failed when it says so."""

    def __init__(self, process: subprocess.Popen[bytes], what: str) -> None:
        self._process = process
        self._what = what
        self._stopped = False

    def done(self) -> bool:
        code = self._process.poll()
        if code is None:
            return False
        if code != 0 and not self._stopped:
            self._stopped = True  # its failure is said once
            err = self._process.stderr.read() if self._process.stderr is not None else b""
            reason = err.decode("utf-8", "replace").strip().splitlines()[-1:] or [f"exit {code}"]
            raise HardwareError(f"{self._what} failed: {reason[0]}")
        return True

    def stop(self) -> None:
        self._stopped = True
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()


class AlsaSink:
    """Plays on the ALSA device *device* with ``aplay`` ("default" unless told)."""

    def __init__(self, device: str = "default", program: str = "aplay") -> None:
        self.device = device
        self._program = program

    def play(self, audio: IO[bytes], text: str, voice: str) -> Playback:
        command = [self._program, "-q", "-D", self.device, "-"]
        try:
            process = subprocess.Popen(
                command, stdin=audio, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as e:
            audio.close()
            raise HardwareError(
                f"cannot play sound: {self._program!r} did not start: {e.strerror or e} "
                "(install Debian's alsa-utils)"
            ) from e
        audio.close()  # aplay holds its own end of the pipe
        return _Process(process, f"sound device {self.device!r}")


@frozen
class Recording:
    """One utterance a ``WavSink`` wrote: the file, the words, the voice and its timing."""

    path: Path
    text: str
    voice: str
    started: float
    """``time.monotonic()`` when eSpeak was handed the words."""
    first_sound: float | None
    """When the first non-silent sample would be heard (None: all silent)."""


def first_sound_at(samples: Sequence[int], rate: int) -> float | None:
    """Seconds into *samples* (16-bit, *rate* a second) of the first one louder than silence.

    >>> first_sound_at([0, 3, -2, 900, 0], 4)
    0.75
    """
    for n, sample in enumerate(samples):
        if abs(sample) >= SILENCE:
            return n / rate
    return None


class _Copy:
    """A ``WavSink`` playback: a thread copying the stream into its file."""

    def __init__(self, sink: WavSink, audio: IO[bytes], path: Path, text: str, voice: str):
        self._sink, self._audio, self._path = sink, audio, path
        self._text, self._voice = text, voice
        self._started = time.monotonic()
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._copy, name="wav-sink", daemon=True)
        self._thread.start()

    def _copy(self) -> None:
        data = bytearray()
        first: float | None = None  # when the first chunk came: the stream's own clock starts
        heard: float | None = None
        scanned = _HEADER  # bytes of the stream already looked at for sound
        fd = self._audio.fileno()
        rate = 22050
        # a paced sink takes the stream no faster than a sound card plays it, so a stop drops
        # what was not yet heard; otherwise all of it, as fast as it comes
        size = 2048 if self._sink.paced else 65536
        while not self._stopped.is_set() and (chunk := os.read(fd, size)):
            now = time.monotonic()
            first = now if first is None else first
            data += chunk
            end = len(data) - (len(data) - _HEADER) % 2
            if heard is None and end > scanned:
                samples = array.array("h", bytes(data[scanned:end]))
                if sys.byteorder == "big":
                    samples.byteswap()
                rate = int.from_bytes(data[24:28], "little") or rate
                at = first_sound_at(samples, rate)
                if at is not None:  # heard when its chunk is here and its turn has come
                    heard = max(now, first + (scanned - _HEADER) / 2 / rate + at)
                scanned = end
            if self._sink.paced and first is not None:
                due = first + (len(data) - _HEADER) / 2 / rate
                self._stopped.wait(max(0.0, due - time.monotonic()))
        self._audio.close()
        rate = int.from_bytes(data[24:28], "little") if len(data) >= _HEADER else 22050
        with wave.open(str(self._path), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(rate or 22050)
            body = bytes(data[_HEADER:])
            out.writeframes(body[: len(body) - len(body) % 2])
        recording = Recording(self._path, self._text, self._voice, self._started, heard)
        self._sink.recordings.append(recording)

    def done(self) -> bool:
        return not self._thread.is_alive()

    def stop(self) -> None:
        self._stopped.set()
        self._thread.join()  # the file keeps what was heard


class WavSink:
    """Writes each utterance to ``<folder>/<n>.wav`` (mono, 16-bit, eSpeak's 22,050 Hz).

    ``recordings`` lists them in order once each is written. *paced*: take the audio no faster
    than a sound card would play it, so that a stop cuts the file where a listener would have
    stopped hearing it.
    """

    def __init__(self, folder: Path, *, paced: bool = False) -> None:
        self.paced = paced
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.recordings: list[Recording] = []
        self._count = 0

    def play(self, audio: IO[bytes], text: str, voice: str) -> Playback:
        self._count += 1
        return _Copy(self, audio, self.folder / f"{self._count:04d}.wav", text, voice)


class Voice:
    """Speaks text with eSpeak NG into *sink*: one utterance at a time, never waiting.

    *voice* is eSpeak's voice ("en", "de", "en-us+f3", ...), *volume* its amplitude (0..200,
    100 normal), *speed* words a minute.
    """

    def __init__(
        self,
        sink: Sink,
        *,
        voice: str = "en",
        volume: int = 100,
        speed: int = 175,
        program: str = ESPEAK,
    ) -> None:
        self.sink = sink
        self.voice = voice
        self._volume = volume
        self._speed = speed
        self._program = program
        # the utterance speaking now: eSpeak's process and the sink's playback
        self._espeak: subprocess.Popen[bytes] | None = None
        self._playback: Playback | None = None

    def say(self, text: str, voice: str | None = None) -> None:
        """Start saying *text* (in *voice*, else this voice's), cutting short what is speaking.

        Raises:
            HardwareError: eSpeak or the sink cannot start.
        """
        self.stop()
        voice = voice or self.voice
        command = [
            self._program, "--stdout", "-v", voice, "-a", str(self._volume),
            "-s", str(self._speed),
        ]  # fmt: skip
        try:
            espeak = subprocess.Popen(
                command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
            )
        except OSError as e:
            raise HardwareError(
                f"cannot speak: {self._program!r} did not start: {e.strerror or e} "
                "(install Debian's espeak-ng)"
            ) from e
        assert espeak.stdin is not None and espeak.stdout is not None
        self._espeak = espeak
        try:
            espeak.stdin.write(text.encode("utf-8"))  # a few hundred bytes: the pipe takes it
            espeak.stdin.close()
        except OSError:
            pass  # eSpeak died at once: the sink sees an empty stream
        self._playback = self.sink.play(espeak.stdout, text, voice)  # the sink closes it

    def poll(self) -> bool:
        """True while the words are still going out.

        Raises:
            HardwareError: the sink failed (said once for each utterance).
        """
        if self._playback is None:
            return False
        try:
            if not self._playback.done():
                return True
        except HardwareError:
            self._finish()
            raise
        self._finish()
        return False

    def wait(self, timeout: float = 60.0) -> None:
        """Block until the words are out (for ``selftest`` and recordings; never in a game).

        Raises:
            HardwareError: the sink failed.
        """
        deadline = time.monotonic() + timeout
        while self.poll() and time.monotonic() < deadline:
            time.sleep(0.01)

    def stop(self) -> None:
        """Stop speaking now."""
        if self._espeak is not None and self._espeak.poll() is None:
            self._espeak.kill()
        if self._playback is not None:
            self._playback.stop()
        self._finish()

    def _finish(self) -> None:
        if self._espeak is not None:
            self._espeak.wait()
        self._espeak = self._playback = None


def join_wavs(paths: Sequence[Path], out: Path, *, gap: float = 0.5) -> float:
    """Write the WAVs *paths* (mono, 16-bit, one rate) one after another into *out*, the
    silence at either end of each left out and *gap* seconds of it between them; returns
    *out*'s length in seconds.

    Raises:
        OSError: a file cannot be read or *out* written.
        ValueError: the WAVs differ in rate or are not mono 16-bit.
    """
    rate = 22050
    frames: list[bytes] = []
    for n, path in enumerate(paths):
        with wave.open(str(path), "rb") as wav:
            if wav.getnchannels() != 1 or wav.getsampwidth() != 2:
                raise ValueError(f"{str(path)!r} is not mono 16-bit (expected eSpeak's WAV)")
            if n and wav.getframerate() != rate:
                raise ValueError(f"{str(path)!r} is at {wav.getframerate()} Hz, not {rate}")
            rate = wav.getframerate()
            frames += [bytes(2 * round(gap * rate))] if n else []
            frames.append(_trimmed(wav.readframes(wav.getnframes())))
    with wave.open(str(out), "wb") as joined:
        joined.setnchannels(1)
        joined.setsampwidth(2)
        joined.setframerate(rate)
        joined.writeframes(b"".join(frames))
    return sum(map(len, frames)) / 2 / rate


def _trimmed(frames: bytes) -> bytes:
    """16-bit mono *frames* without the silence at either end."""
    samples = array.array("h", frames[: len(frames) - len(frames) % 2])
    if sys.byteorder == "big":
        samples.byteswap()
    loud = [n for n, sample in enumerate(samples) if abs(sample) >= SILENCE]
    if not loud:
        return b""
    return frames[2 * loud[0] : 2 * (loud[-1] + 1)]
