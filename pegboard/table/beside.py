"""The table beside other writers of its journal, and a match it cannot replay.

Theory of operation
-------------------
A running table holds its journal alone against a second table (``journal.writers``), but short
commands work beside it: ``pegboard game do`` and ``game new`` write the same journal, and
every append checks first that the journal still ends where its writer last read it. The
controller calls ``others_moved`` on each turn of its loop (every ``poll``, 0.05 s): the
journal's ``refresh`` costs microseconds when nobody else committed (``PRAGMA data_version``)
and replays only what is new when somebody did. When the journal's state is no longer the one
the table shows (another writer's commit, or an append of the table's own that found the
journal moved and was refused), the controller takes it and redraws as after its own command:
the OLED, the LEDs, the pub page's view and the history reader's poke.

A match the table cannot replay (a stored command the game does not accept, e.g. written by
two tables of an older version at once) used to stop the daemon on every start, and systemd
restarted it into the same failure. ``offer_new_match`` instead shows what is wrong on the
display (and in the log), reports READY and keeps the watchdog fed, and waits for the keypad's
confirm key (``#`` or ``ok``) to start a new match; the broken match is left in the journal as
it is, for ``pegboard game repair``.
"""

from __future__ import annotations

import logging
import queue
import threading
import weakref
from collections.abc import Callable

from pegboard.config.settings import Config
from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.engine.game import GameState
from pegboard.errors import HardwareError, JournalError, UnreplayableMatchError
from pegboard.journal import Journal

__all__ = ["CONFIRM_KEYS", "broken_match_message", "offer_new_match", "others_moved"]

log = logging.getLogger(__name__)

CONFIRM_KEYS = ("#", "ok")
"""The keys that confirm on every keypad (the grammar's own confirm keys)."""


_said: weakref.WeakKeyDictionary[Journal, str] = weakref.WeakKeyDictionary()
"""The read error each journal last logged: said once, not on every turn of the loop."""


def others_moved(store: Journal, shown: GameState) -> GameState | None:
    """The journal's state when it is not *shown* (the table's) any more: another writer
    committed, or an append of the table's found the journal moved; else None. A journal
    that cannot be read is logged once (again only when the error changes, or after it could
    be read again), and the table goes on with what it shows.
    """
    try:
        store.refresh()
    except JournalError as e:
        if _said.get(store) != str(e):
            log.error("journal: %s", e)
            _said[store] = str(e)
    else:
        if _said.pop(store, None) is not None:
            log.info("journal: it can be read again")
    state = store.state
    return state if state is not None and state is not shown else None


def broken_match_message(error: UnreplayableMatchError) -> str:
    """The display's one line for a match that cannot be replayed, and what to do."""
    return (
        f"match {error.match_id} cannot be replayed at entry {error.seq} "
        f"{error.entry!r}: press # for a new match"
    )


def offer_new_match(
    store: Journal,
    config: Config,
    error: UnreplayableMatchError,
    *,
    events: queue.Queue[KeyEvent | None],
    stop: threading.Event,
    show: Callable[[str], None],
    alive: Callable[[], None],
    timeout: float = 0.5,
) -> bool:
    """Show *error* (``show``, and the log) and wait on *events* for a confirm key, then start
    a new match with the config's rules, names and format; False when *stop* came first.
    ``alive`` is called at least every *timeout* seconds (the watchdog's ping).

    Raises:
        JournalError: the new match cannot be written.
    """
    log.error("journal: %s; the match is left as it is and a new one is offered", error)
    try:
        show(broken_match_message(error))
    except (HardwareError, OSError, ValueError) as e:
        log.warning("could not show the journal error: %s", e)
    while not stop.is_set():
        alive()
        try:
            event = events.get(timeout=timeout)
        except queue.Empty:
            continue
        if event is None or event.key not in CONFIRM_KEYS or event.action is not KeyAction.PRESS:
            continue
        game = config.game
        store.new_match(game.rules, game.names, game.match_format)
        log.info("a new match was started; match %d is left as it is", error.match_id)
        return True
    return False
