"""A tournament night at the table: the hub's notices taken in on the controller's thread.

Theory of operation
-------------------
The hub sends each board of the night a retained notice (``tourney.notices.TableNotice``):
its next pairing (the table, the round, the two names, the first cutting first) and whether
the tournament lock holds. The league publisher hears it in paho's network thread and calls
``TourneyBoard.take``, which only puts the notice on a queue and wakes the controller's loop
(*wake*: the daemon puts ``None`` on its key queue). Everything else happens on the
controller's thread, which owns the game: ``poll`` (from ``Controller.tick``) takes the newest
notice off the queue; ``offer`` says which pairing the OLED shows now; ``handle`` turns ``ok``
(or ``#``) on that screen into a ``NewMatch`` request, which the controller carries out as it
does the menu's: through the journal, like any other new match, so the finished game's summary
(and the outbox row the league gets) carries the pairing's two names, which is how the hub's
feed (``league.tourney_feed``) ties the result to the pairing.

The pairing is offered while no match is in progress (the current match has no command yet)
or once the current one is over, and only while the keypad is idle (the controller asks); a
notice that comes mid-match waits for its end. It is not offered again once started here: the
match it started is the current one (the same names, nothing done yet), or that match is over
and it was this notice's (the hub's next notice, after it counts the game, has none or the
next round). A round is one game of six-card cribbage to 121 (what the night counts): the
match is ``single``, under the table's own rules when they are six-card to 121, else the
standard ones. A playoff match (the notice's ``playoff``, ``match`` and ``games``) is the best
of 3 or 5 games by games won, as the hub counts it: ``first-to-two`` or ``first-to-three``
(``match_format``), under the same rules; the board plays its games one after the other like
any match's, each finished game goes to the hub, which counts it for the bracket's match, and
the pairing is offered again only for the next match the hub sends (a new round or match).

The tournament lock is obeyed at once: ``poll`` sets ``locked`` as the newest notice says,
and the controller, on the same turn of its loop, drops the odds bar, closes a play hint
that is open and puts the badge up (and the pub page hears of it with the next view). The
lock and its end are journal marks (``journal.marks``: ``lock``/``unlock``, the night's name),
written here on the controller's thread, which owns the journal; so a board restarted with
the hub away keeps the lock its journal last recorded until a notice says otherwise. A mark
that cannot be written is logged; the lock is obeyed all the same.
"""

from __future__ import annotations

import logging
import queue
from collections.abc import Callable
from typing import TYPE_CHECKING

from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.engine.game import GameState, Phase
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import JournalError
from pegboard.journal import Journal
from pegboard.journal.marks import LOCK, UNLOCK
from pegboard.table.beside import CONFIRM_KEYS
from pegboard.ui.keypad import NewMatch
from pegboard.ui.pairing import PairingView, pairing_line

if TYPE_CHECKING:
    from pegboard.tourney.notices import TableNotice

__all__ = ["TourneyBoard", "match_format", "tourney_rules"]

log = logging.getLogger(__name__)


def tourney_rules(rules: Rules | None) -> Rules:
    """The rules a pairing is played under: the table's *rules* when they are six-card to 121
    (house options kept), else the standard six-card game."""
    if rules is not None and rules.variant is Variant.SIX_CARD and rules.target == 121:
        return rules
    return Rules.six_card()


class TourneyBoard:
    """The hub's notices at one table (the module's notes). *rules* are the table's; *store*
    the journal the lock's marks go to (and the lock last recorded comes from); *wake* wakes
    the controller's loop (set by the daemon once the loop's queue exists)."""

    def __init__(
        self,
        *,
        rules: Rules | None = None,
        store: Journal | None = None,
        wake: Callable[[], None] | None = None,
    ) -> None:
        self.rules = tourney_rules(rules)
        self.store = store
        self.wake = wake
        self.locked = False
        """Whether the tournament lock holds: no odds, advice or hints; the badge shows."""
        if store is not None:
            try:
                self.locked = store.locked() is not None
            except JournalError as e:
                log.error("journal: %s", e)
        self._inbox: queue.SimpleQueue[TableNotice] = queue.SimpleQueue()
        self._notice: TableNotice | None = None
        self._started: tuple[str, int, int, int] | None = None  # _key(notice) started here

    # --- paho's thread -------------------------------------------------------------------------

    def take(self, notice: TableNotice) -> None:
        """A notice from the hub (any thread): queued for the controller's thread, which is
        woken; nothing else."""
        self._inbox.put(notice)
        if self.wake is not None:
            self.wake()

    # --- the controller's thread ---------------------------------------------------------------

    @property
    def notice(self) -> TableNotice | None:
        """The newest notice taken in (None: none yet)."""
        return self._notice

    def poll(self) -> bool:
        """Take in the notices that came; True when the newest differs from the last."""
        newest = self._notice
        while True:
            try:
                newest = self._inbox.get_nowait()
            except queue.Empty:
                break
        if newest == self._notice or newest is None:
            return False
        self._notice = newest
        if newest.locked != self.locked:
            self._lock(newest.locked, newest.night)
        pairing = self.pairing()
        if pairing is not None:
            log.info("tourney: round %d, %s", pairing.round, pairing_line(pairing))
        return True

    def _lock(self, on: bool, night: str) -> None:
        """Obey the lock (*on*) of *night* and record it in the journal."""
        self.locked = on
        log.warning("tourney: the tournament lock is %s (%s)", "on" if on else "off", night)
        if self.store is None:
            return
        try:
            self.store.mark(LOCK if on else UNLOCK, night)
        except JournalError as e:
            log.error("journal: the lock is obeyed but not recorded: %s", e)

    def pairing(self) -> PairingView | None:
        """The newest notice's pairing (None: nothing to play now)."""
        notice = self._notice
        if notice is None or notice.players is None:
            return None
        return PairingView(
            notice.table, notice.round, notice.first, notice.second, notice.match, notice.games
        )

    def offer(self, state: GameState) -> PairingView | None:
        """The pairing to show on *state* (None: none, or not now). A match under its names
        with nothing entered yet is its start (by ok, or by hand), noted here."""
        pairing, notice = self.pairing(), self._notice
        if pairing is None or notice is None:
            return None
        names = (pairing.first, pairing.second)
        if state.phase is Phase.CUT and not state.past:
            if state.names != names:
                return pairing
            self._started = _key(notice)
            return None
        if state.phase is Phase.MATCH_OVER:
            played = self._started == _key(notice)
            return None if played or (state.names == names and self._started is None) else pairing
        return None

    def handle(self, event: KeyEvent, state: GameState) -> NewMatch | None:
        """``ok`` (or ``#``) on the offered pairing: the request to start its match; any other
        key is not the pairing's (None)."""
        if event.key not in CONFIRM_KEYS or event.action is not KeyAction.PRESS:
            return None
        pairing = self.offer(state)
        if pairing is None:
            return None
        log.info("tourney: starting round %d, %s", pairing.round, pairing_line(pairing))
        return NewMatch(self.rules, match_format(pairing.games), (pairing.first, pairing.second))


def match_format(games: int) -> MatchFormat:
    """The match a notice of *games* games is played as: one game, or the best of 3 or 5 by
    games won (first to two, first to three), as the hub counts a playoff match."""
    return {3: MatchFormat.FIRST_TO_TWO, 5: MatchFormat.FIRST_TO_THREE}.get(
        games, MatchFormat.SINGLE
    )


def _key(notice: TableNotice) -> tuple[str, int, int, int]:
    """What a notice asks to be played: (night, round, table, playoff match: 0 for a round)."""
    return (notice.night, notice.round, notice.table, notice.match if notice.playoff else 0)
