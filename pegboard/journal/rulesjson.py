"""The rules a match was started with, stored as JSON in the ``matches`` table."""

from __future__ import annotations

import dataclasses
import json

from pegboard.engine.rules import Rules, Variant
from pegboard.errors import JournalError

__all__ = ["rules_from_json", "rules_to_json"]


def rules_to_json(rules: Rules) -> str:
    """The rules as a JSON object (every field; the variant by name)."""
    data = dataclasses.asdict(rules)
    data["variant"] = rules.variant.value
    return json.dumps(data, sort_keys=True)


def rules_from_json(text: str) -> Rules:
    """Rules back from ``rules_to_json``.

    Raises:
        JournalError: not rules written by ``rules_to_json``.
    """
    try:
        data = json.loads(text)
        data["variant"] = Variant.parse(data["variant"])
        data["teams"] = tuple(tuple(team) for team in data["teams"])
        data["start_scores"] = tuple(data["start_scores"])
        return Rules(**data)
    except (ValueError, KeyError, TypeError) as e:
        raise JournalError(f"stored rules cannot be read: {text!r} ({e})") from e
