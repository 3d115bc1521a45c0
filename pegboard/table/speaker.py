"""The speaker: the board says its calls aloud, on a thread of its own (issue 26).

Theory of operation
-------------------
The speaker listens where the pub page and the league do: the controller's ``on_change(state,
view)``, which only puts the pair in the speaker's inbox (no work, no waiting in the key path).
The speaker's thread takes each change off, finds what the press did from the state before
(``ui.speech.events_between``), turns it into words (``ui.speech.utterance_of``: what the screen
says, in the table's language, left to the config's ``[sound] events``) and hands them to the
``Voice`` (``devices.sound``: eSpeak NG into ALSA or a file), which returns at once.

Changes that pile up while the thread is busy are read together and only the newest words are
said; new words cut short the ones still speaking, and an undo stops them. Recording a whole
game (``cut_short=False``: the docs' WAV, the simulator's ``--speech``) says every utterance
in full, one after another, instead.

A missing or failing sound device (no ``aplay``, no card, no ``espeak-ng``) is logged once, as
a warning; after that the board goes on silently, trying again at the next words (a USB card
plugged in later is heard), and says so when the sound is back. ``mute`` and ``unmute`` (the
menu's sound line) stop the words at once and keep the thread quiet until unmuted.
"""

from __future__ import annotations

import collections
import logging
import queue
import threading
import time

from pegboard.devices.sound import Voice
from pegboard.engine.game import GameState
from pegboard.engine.view import GameView
from pegboard.errors import HardwareError
from pegboard.i18n import Language
from pegboard.ui.speech import Said, Utterance, events_between, utterance_of

__all__ = ["Speaker", "espeak_voice"]

log = logging.getLogger(__name__)

_POLL = 0.05  # seconds between looks at the voice while it speaks (to hear of a failure)
_KEPT = 64  # texts kept in ``Speaker.spoken``: a board that runs for weeks keeps no more


def espeak_voice(language: Language, configured: str = "") -> str:
    """eSpeak NG's voice for *language*: *configured* when given, else the language's code.

    >>> espeak_voice(Language.GERMAN), espeak_voice(Language.ENGLISH, "en-us")
    ('de', 'en-us')
    """
    return configured or language.value


class Speaker:
    """Says what each change of the game says, in *language*, with *voice* (see the module doc).

    *said* are the kinds of words spoken (``[sound] events``). ``start`` it, give the controller
    its ``on_change``, and ``close`` it on the way out.
    """

    def __init__(
        self,
        voice: Voice,
        language: Language = Language.ENGLISH,
        *,
        said: frozenset[Said] = frozenset(Said),
        cut_short: bool = True,
    ) -> None:
        self._voice = voice
        self._language = language
        self._said = said
        self._cut_short = cut_short
        # each change, and whether the sound was off when it came (None: only a wake-up)
        self._inbox: queue.Queue[tuple[GameState, GameView, bool] | None] = queue.Queue()
        self._muted = threading.Event()  # set by the menu (controller's thread), read here
        self._idle = threading.Event()  # nothing waiting and nothing speaking (for tests)
        self._idle.set()
        self._pending = 0  # changes handed over and not yet read (under _lock)
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="speaker", daemon=True)
        # the thread's own: the last change seen, and whether the device is known to fail
        self._last: tuple[GameState, GameView] | None = None
        self._failing = False
        self._playing = False  # words handed to a device that has not failed them (yet)
        self._closing = False
        self.spoken: collections.deque[str] = collections.deque(maxlen=_KEPT)
        """The texts handed to the voice, in order, the last ``_KEPT`` of them (for tests)."""

    @property
    def voice(self) -> Voice:
        """The voice it speaks with."""
        return self._voice

    # --- the controller's side (its thread): only hand over ---------------------------------

    def on_change(self, state: GameState, view: GameView) -> None:
        """The controller's ``on_change``: queue the change; never blocks."""
        with self._lock:
            self._pending += 1
            self._idle.clear()
        self._inbox.put((state, view, self._muted.is_set()))

    @property
    def muted(self) -> bool:
        """True while the menu has the sound off."""
        return self._muted.is_set()

    def toggle(self) -> bool:
        """Mute when speaking, unmute when muted (the menu's sound line); True: now muted."""
        if self._muted.is_set():
            self._muted.clear()
            return False
        self._muted.set()
        self._inbox.put(None)  # wake the thread: it stops the words now
        return True

    # --- the speaker's thread ----------------------------------------------------------------

    def start(self) -> None:
        """Start the speaker's thread."""
        self._thread.start()

    def close(self) -> None:
        """Stop speaking and end the thread."""
        self._closing = True
        self._inbox.put(None)
        self._thread.join(timeout=5)
        self._voice.stop()

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Block until every change is read and every word is out; False on *timeout*.

        For tests and recordings only: nothing in a game waits for the speaker.
        """
        return self._idle.wait(timeout)

    def _run(self) -> None:
        speaking = False
        while True:
            try:
                first = self._inbox.get(timeout=_POLL if speaking else None)
            except queue.Empty:
                speaking = self._poll()
                self._settle(speaking, 0)
                continue
            batch = [first]
            while True:  # read what piled up: only the newest words are said
                try:
                    batch.append(self._inbox.get_nowait())
                except queue.Empty:
                    break
            if self._closing:
                return
            changes = [item for item in batch if item is not None]
            words = [u for item in changes if (u := self._read(*item))]
            if self._muted.is_set():  # off now: nothing more is said, whenever it came
                self._voice.stop()
                words = []
            if words and self._cut_short:
                words = words[-1:]
            for utterance in words:
                speaking = self._say(utterance)
                while speaking and not self._cut_short:  # a recording: each in full
                    time.sleep(_POLL / 5)
                    speaking = self._poll()
            speaking = self._poll()
            self._settle(speaking, len(changes))

    def _settle(self, speaking: bool, read: int) -> None:
        """*read* more changes are read; idle when none is left and nothing is being said."""
        with self._lock:
            self._pending -= read
            if not speaking and not self._pending:
                self._idle.set()

    def _read(self, state: GameState, view: GameView, muted: bool) -> Utterance | None:
        """The words of the change to *state*, *view* (None: nothing to say, or *muted*).

        A bug in finding them is logged and that change says nothing: the board goes on.
        """
        last, self._last = self._last, (state, view)
        if last is None or muted:
            return None
        try:
            events = events_between(last[0], state)
            if events is None:
                return None
            return utterance_of(last[1], view, events, self._language)
        except Exception:
            log.exception("sound: could not find the words of a change; saying nothing")
            return None

    def _say(self, utterance: Utterance) -> bool:
        """Hand *utterance* to the voice (an empty one stops it); True while it speaks."""
        text = utterance.text(self._said)
        if not text:
            if not utterance.parts:  # an undo: the old words are wrong now
                self._voice.stop()
            return self._poll()
        self.spoken.append(text)
        try:
            self._voice.say(text)
        except HardwareError as e:
            self._failed(e)
            return False
        self._playing = True
        return True

    def _poll(self) -> bool:
        try:
            speaking = self._voice.poll()
        except HardwareError as e:
            self._failed(e)
            return False
        if self._playing and not speaking:  # words out, and the device did not fail them
            self._playing = False
            if self._failing:
                self._failing = False
                log.info("sound: speaking again")
        return speaking

    def _failed(self, error: HardwareError) -> None:
        self._playing = False
        if not self._failing:
            log.warning("sound: %s; the board goes on without speech", error)
        else:
            log.debug("sound: %s", error)
        self._failing = True
