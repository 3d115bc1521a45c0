"""The director's commands' door to the night's database (``league.tourney_store``): open it,
read the night without writing, store one step as the director, and the time a step is
stamped with. ``cli.tourney`` and ``cli.tourney_playoff`` both go through it."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from typing import Any

__all__ = ["now", "open_night", "read_night", "step"]


def now() -> str:
    """This moment, as a step of the night is stamped (UTC, to the second)."""
    return datetime.now(UTC).isoformat(timespec="seconds")


def open_night(args: argparse.Namespace, *, readonly: bool = False) -> Any:
    """The night's database at ``args.db`` (a ``TourneyStore``; the caller closes it)."""
    from pegboard.league.tourney_store import TourneyStore

    return TourneyStore(args.db, readonly=readonly)


def read_night(args: argparse.Namespace) -> Any:
    """The night as stored (a ``Tourney``), read without writing anything."""
    store = open_night(args, readonly=True)
    try:
        return store.tourney
    finally:
        store.close()


def step(args: argparse.Namespace, kind: str, payload: dict[str, Any]) -> Any:
    """Store the director's step *kind* with *payload*; the night after it."""
    store = open_night(args)
    try:
        return store.add(kind, payload, at=now(), by="director")
    finally:
        store.close()
