"""The pub page's publisher: the controller's side of the page.

``ViewPublisher.publish(state, view)`` turns each new state into the page's payload (the view,
each side's chance to win, the evening's results and the players' figures) once, in the
controller's thread, and hands it to the ``WebServer`` (``web.server``: the HTTP server and the
Server-Sent Events), which serialises it and pushes it to every open page. It never writes to a
socket, so no client can hold up the controller.

"Tonight" is the games finished since 06:00 local time (``EVENING_STARTS_AT``; before 06:00,
since yesterday's): ``evening_start``, ``finish_times`` and ``evening_of`` say which. The
evening is chosen from the last ``EVENING_GAMES`` finished games by match and game, read from
the journal's stored summaries with the latest match replayed (``journal.reader``), never from
every game ever finished.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from pegboard.engine.rules import Lurch
from pegboard.errors import PegboardError
from pegboard.i18n import Language
from pegboard.i18n.calls import peg_calls
from pegboard.web.players import PlayerFigures, snapshot_figures

if TYPE_CHECKING:
    from pegboard.engine.game import GameState
    from pegboard.engine.history import MatchHistory
    from pegboard.engine.listing import GameListing
    from pegboard.engine.view import GameView
    from pegboard.journal import Journal, LurchRecord
    from pegboard.journal.reader import HistoryReader, HistorySnapshot
    from pegboard.web.server import WebServer

__all__ = [
    "ViewPublisher",
    "evening_of",
    "evening_start",
    "finish_times",
]

log = logging.getLogger(__name__)

EVENING_GAMES = 10
"""How many finished games the page is given for the results of the evening."""

EVENING_STARTS_AT = 6
"""The hour (local time) a pub's evening starts: it runs past midnight, so a game finished at
01:30 is still "tonight", and one finished before 06:00 is not the next evening's."""


class ViewPublisher:
    """Hands each new view to *server* as the page's payload; ``publish`` is called in the
    controller's thread and never reads the journal there when a *reader* is given.

    The payload: ``view`` (``GameView.to_dict()``), ``language`` (*language*'s code: the page
    shows its fixed words in it), ``calls`` (the last peg's calls in *language*: the view's own
    are English), ``win_probability`` (one chance per side, or None when ``engine.odds`` has
    nothing to say), ``evening`` and ``players``:

    - ``evening``: the last ``EVENING_GAMES`` games finished tonight (oldest first): since
      ``evening_start`` of *now* (06:00 local time; before 06:00, since yesterday's), checked at
      every publish; older games are never shown as "tonight". Each gives
      ``match_id``, ``game``, ``finished`` (when it was won, "HH:MM" in *now*'s time zone:
      what tells the evening's matches apart on the page), ``variant``, ``names`` (the match's
      side names), ``winner``, ``scores``, ``game_points`` and ``lurch``: each losing side that
      finished behind a line, as ``{"name", "score", "lurch"}``.
    - ``players``: the current sides' records and head to head (``web.players``), or None.

    With *reader* (the daemon's ``HistoryReader``, which the controller pokes when the evening
    changes), both come from its snapshots: each new one is turned into ``evening`` and
    ``players`` in the reader's thread, and the latest view is published again with them. Until
    the first snapshot they are ``[]`` and None. With *journal* instead (``pegboard serve``,
    whose feed replaces ``journal`` between publishes), they are read in the calling thread when
    the match, the game or its winner changes, never per key. With neither: ``[]`` and None.

    *now* is the clock (an aware local time; the tests pass a fixed one).

    *locked* (the table's tournament lock, ``table.tourney``) is asked at every publish: while
    it holds the page shows the standings only (``locked`` true in the payload; no
    ``win_probability`` and no ``players``: the scores, the board and the evening's results
    stay; the page has no advice or hints to drop).
    """

    def __init__(
        self,
        server: WebServer,
        journal: Journal | None = None,
        *,
        reader: HistoryReader | None = None,
        language: Language = Language.ENGLISH,
        now: Callable[[], datetime] = lambda: datetime.now().astimezone(),
        locked: Callable[[], bool] | None = None,
    ) -> None:
        self.server = server
        self.locked = locked
        self.journal = journal
        self.language = language
        self.now = now
        self.figures = PlayerFigures()
        self._evening_key: tuple[object, ...] | None = None
        # the latest view's fields, the evening and the players: the controller's thread and
        # the reader's both publish, so each payload is made and handed over under _lock
        self._lock = threading.Lock()
        self._fields: dict[str, Any] | None = None
        self._recent: list[tuple[datetime, dict[str, Any]]] = []  # the latest games, finished at
        self._players: dict[str, Any] | None = None
        if reader is not None:
            reader.listen(self._history_read)

    def publish(self, state: GameState, view: GameView) -> None:
        """Serialise *view* (with the chances, the evening and the players) once and hand it
        to the server."""
        self._look_up(view)
        last = view.last
        locked = self.locked is not None and self.locked()
        fields = {
            "view": view.to_dict(),
            "language": self.language.value,
            "calls": [] if last is None else list(peg_calls(last, self.language)),
            "win_probability": None if locked else _chances(state),
            "locked": locked,
        }
        with self._lock:
            self._fields = fields
            players = None if locked else self._players
            self.server.publish({**fields, "evening": self._tonight(), "players": players})

    def _tonight(self) -> list[dict[str, Any]]:
        """The recent games finished since this evening began (the caller holds the lock)."""
        since = evening_start(self.now())
        return [_at(game, finished, since) for finished, game in self._recent if finished >= since]

    def _history_read(self, snapshot: HistorySnapshot) -> None:
        """A new snapshot (in the reader's thread): the evening and the players made from it,
        and the latest view published again with them."""
        recent = _listed_games(snapshot.recent)
        players = snapshot_figures(snapshot)
        with self._lock:
            self._recent, self._players = recent, players
            if self._fields is not None:
                evening = self._tonight()
                shown = None if self._fields["locked"] else players  # standings only
                self.server.publish({**self._fields, "evening": evening, "players": shown})

    def forget(self) -> None:
        """Read the evening and the players again at the next publish (the last read was
        under a writer that changed the file: ``Journal.moved``)."""
        self._evening_key = None
        self.figures.forget()

    def _look_up(self, view: GameView) -> None:
        """Read the evening and the players again when the match, game or winner changed."""
        journal = self.journal
        if journal is None:
            return
        key = (journal.match_id, view.game, view.winner, view.match.winner)
        if key == self._evening_key:
            return
        try:
            snapshot = self.figures.read(journal)
            recent = _listed_games(snapshot.recent)
            players = snapshot_figures(snapshot)
        except (sqlite3.Error, PegboardError) as e:  # keep the last; try again next time
            log.warning("web: the evening's results cannot be read: %s", e)
            return
        with self._lock:
            self._recent, self._players = recent, players
        self._evening_key = key


def evening_start(now: datetime) -> datetime:
    """When the pub evening that *now* falls in began: ``EVENING_STARTS_AT`` (06:00) of *now*'s
    day, in *now*'s time zone, or of the day before when *now* is earlier than that.

    >>> evening_start(datetime(2026, 11, 26, 1, 30)).isoformat()
    '2026-11-25T06:00:00'
    >>> evening_start(datetime(2026, 11, 26, 21, 0)).isoformat()
    '2026-11-26T06:00:00'
    """
    start = now.replace(hour=EVENING_STARTS_AT, minute=0, second=0, microsecond=0)
    return start if now >= start else start - timedelta(days=1)


def finish_times(matches: Iterable[MatchHistory]) -> dict[tuple[int, int], datetime]:
    """When each finished game of *matches* was won (its winning command's journal time), by
    ``(match_id, game)``."""
    return {
        (game.match_id, game.game): datetime.fromisoformat(game.finished)
        for match in matches
        for game in match.games
        if game.finished is not None
    }


def evening_of(
    games: Sequence[Mapping[str, Any]],
    lurches: Iterable[LurchRecord],
    finished: Mapping[tuple[int, int], datetime],
    now: datetime,
) -> list[dict[str, Any]]:
    """The page's ``evening``: the last ``EVENING_GAMES`` of *games* (``finished_games``)
    finished (*finished*: ``finish_times``) since ``evening_start(now)``, each with its sides
    that finished behind a line (from *lurches*). A game from an earlier evening, or with no
    known finish time, is not tonight's and is left out.

    *now* must be aware (a time zone) when *finished*'s times are, as ``finish_times``'s are.
    """
    since = evening_start(now)
    recent = _recent_games(games, lurches, finished)
    return [_at(game, at, since) for at, game in recent if at >= since]


def _at(game: dict[str, Any], finished: datetime, since: datetime) -> dict[str, Any]:
    """*game* with its ``finished`` time, "HH:MM" in the evening's (*since*'s) time zone."""
    return {"finished": finished.astimezone(since.tzinfo).strftime("%H:%M"), **game}


def _recent_games(
    games: Sequence[Mapping[str, Any]],
    lurches: Iterable[LurchRecord],
    finished: Mapping[tuple[int, int], datetime],
) -> list[tuple[datetime, dict[str, Any]]]:
    """The last ``EVENING_GAMES`` of *games* with a finish time, each as ``(finished, item)``."""
    behind: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for record in lurches:
        behind.setdefault((record.match_id, record.game), []).append(
            {"name": record.side, "score": record.score, "lurch": record.lurch}
        )
    timed = [(finished[key], game) for game in games if (key := _ref(game)) in finished]
    return [
        (
            at,
            {
                "match_id": game["match_id"],
                "game": game["game"],
                "variant": game["variant"],
                "names": game["names"],
                "winner": game["winner"],
                "scores": game["scores"],
                "game_points": game["game_points"],
                "lurch": behind.get(_ref(game), []),
            },
        )
        for at, game in timed[-EVENING_GAMES:]
    ]


def _listed_games(games: Sequence[GameListing]) -> list[tuple[datetime, dict[str, Any]]]:
    """The last ``EVENING_GAMES`` of *games* (by match and game), each as ``(finished, item)``:
    ``_recent_games``'s items, made from the stored listings instead of the history's tables
    (the sides behind a line in the order of their names, as those tables give them)."""
    recent = []
    for game in games[-EVENING_GAMES:]:
        result, names = game.result, game.names
        behind = sorted(
            (names[side], result.scores[side], lurch.value)
            for side, lurch in enumerate(result.lurches)
            if lurch is not Lurch.NONE
        )
        item = {
            "match_id": game.match_id,
            "game": game.game,
            "variant": game.variant.value,
            "names": list(names),
            "winner": names[result.winner],
            "scores": list(result.scores),
            "game_points": result.game_points,
            "lurch": [{"name": n, "score": score, "lurch": why} for n, score, why in behind],
        }
        recent.append((datetime.fromisoformat(game.finished), item))
    return recent


def _ref(game: Mapping[str, Any]) -> tuple[int, int]:
    return int(game["match_id"]), int(game["game"])


def _chances(state: GameState) -> list[float] | None:
    """Each side's chance to win now, or None (``engine.odds`` is loaded on first use)."""
    from pegboard.engine.odds import OddsError, win_probability

    try:
        chances = win_probability(state)
    except (OddsError, OSError) as e:
        log.debug("web: no win probability: %s", e)
        return None
    return None if chances is None else [float(c) for c in chances]
