"""The hub's notices to the night's boards: each board's next pairing and the lock, retained.

``BoardNotifier.update`` is given the night (the projector's thread calls it at every look,
``tourney_projector``); it works out every board's notice (``tourney.notices``) and sends the
ones that changed, retained at QoS 1 on the board's ``tourney`` topic, through *send* (the
league service's ``publish_retained``: one connection to the broker; a send that says False
was not taken, and goes again at the next look). Retained, so a board that
starts, reboots or comes back to the Wi-Fi has its notice at once; a board dropped from the
night gets an empty notice (no pairing, no lock).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pegboard.league.topics import Kind, topic
from pegboard.tourney.notices import TableNotice, board_notices
from pegboard.tourney.steps import Tourney

__all__ = ["BoardNotifier"]


class BoardNotifier:
    """Sends each board its notice when it changes (the module's notes)."""

    def __init__(self, send: Callable[[str, bytes], object]) -> None:
        self.send = send
        self._sent: dict[str, bytes] = {}  # board -> the notice last sent (only changes go)

    def update(self, tourney: Tourney) -> int:
        """Send the notices that changed; how many were sent."""
        notices = board_notices(tourney)
        for gone in set(self._sent) - set(notices):
            notices[gone] = TableNotice(tourney.night.name)
        sent = 0
        for board, notice in sorted(notices.items()):
            body = json.dumps(notice.to_payload(), sort_keys=True).encode()
            if self._sent.get(board) == body:
                continue
            venue, _, name = board.partition("/")
            if self.send(topic(venue, name, Kind.TOURNEY), body) is False:
                continue  # not connected: the next look sends it
            self._sent[board] = body
            sent += 1
        return sent
