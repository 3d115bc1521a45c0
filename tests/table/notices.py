"""A systemd notifier that keeps what the daemon tells systemd, for the tests to read."""

from __future__ import annotations

from pegboard.table.sdnotify import Notifier


class RecordingNotifier(Notifier):
    """Every ``KEY=VALUE`` field the daemon sends, in order, in ``notices``; nothing is sent."""

    def __init__(self) -> None:
        super().__init__(env={})
        self.notices: list[str] = []

    def notify(self, *fields: str) -> bool:
        self.notices.extend(fields)
        return True
