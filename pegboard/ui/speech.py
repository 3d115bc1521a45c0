"""What the board says aloud: the screen's news of one key press, as words to speak.

Theory of operation
-------------------
The board speaks what the screen says (issue 26), so the words come from the same places as
the screen's: a count's calls (``i18n.calls``: "fifteen 2, fifteen 4, and a pair is 6"), the
play's news (``ui.news``: "Bob: thirty-one for 2", "Ann: go"), a manual peg as its side and
points ("Ann, 3"), his heels, and the game's end with its lurch or double skunk ("Ann wins!
lurched!"). English calls keep their digits: the speech engine says "2" as "two" in the voice's
language; German calls are already words.

``utterance_of(before, after, events, language)`` turns one press's events into an
``Utterance``: parts, each of one ``Said`` kind, so the config's ``[sound] events`` can leave
some out (``Utterance.text``). An undo is an utterance with no parts: it says nothing but stops
what was being said. None means the press has nothing to say and leaves any speech running.

``events_between(before, after)`` finds a press's events from two game states alone (the
controller hands its listeners states, not events): the commands the newer state's ``past``
adds are applied again to the tables they were given at (``apply`` is pure, so this gives the
events the controller saw); a shorter ``past`` is an undo. Pure: values in, values out.
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import replace

from pegboard.engine.events import (
    CardPlayed,
    Event,
    GameWon,
    HandCounted,
    MatchWon,
    SaidGo,
    Source,
    Undone,
)
from pegboard.engine.game import GameState, apply
from pegboard.engine.view import GameView, render_pegs
from pegboard.errors import PegboardError
from pegboard.frozen import frozen
from pegboard.i18n import Language, translator
from pegboard.i18n.calls import peg_calls, spoken
from pegboard.ui.news import news_of

__all__ = ["Said", "Utterance", "events_between", "utterance_of"]


class Said(enum.Enum):
    """A kind of thing the board says (``[sound] events`` names them)."""

    COUNT = "count"
    """A hand or crib counted: its calls, or its side and points when counted by the table."""
    PLAY = "play"
    """The play's calls: fifteen, thirty-one, pairs, runs, go, one for last."""
    PEG = "peg"
    """Points pegged by hand: the side and the points."""
    HEELS = "heels"
    """His heels: a jack turned as the starter."""
    GAME = "game"
    """The game's (or match's) end: the winner, and a lurch or double skunk."""


@frozen
class Utterance:
    """What one key press says: its parts in order, each with its kind, in *language*.

    No parts: say nothing, and stop what is being said (an undo).
    """

    parts: tuple[tuple[Said, str], ...]
    language: Language = Language.ENGLISH

    def text(self, kinds: frozenset[Said] = frozenset(Said)) -> str:
        """The parts of *kinds*, as one text to speak ("" when none is left).

        >>> Utterance(((Said.PEG, "Ann, 3"), (Said.GAME, "Ann wins!"))).text(frozenset({Said.PEG}))
        'Ann, 3'
        """
        return ". ".join(words for kind, words in self.parts if kind in kinds and words)


def events_between(before: GameState, after: GameState) -> list[Event] | None:
    """The events that took *before* to *after* (see the module doc); None when *after* is not
    *before* moved on by commands or an undo (a new match, another journal's match).

    >>> from pegboard.engine.commands import parse_command
    >>> from pegboard.engine.rules import Rules
    >>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    >>> state, _ = apply(state, parse_command("cut 9H 3C", state.names))
    >>> after, _ = apply(state, parse_command("peg Ann 8", state.names))
    >>> [type(e).__name__ for e in events_between(state, after)]
    ['Pegged']
    """
    if before.rules != after.rules or before.names != after.names:
        return None
    old, new = len(before.past), len(after.past)
    if new < old:  # taken back: the undo of the step after->before's table
        if after.past != before.past[:new] or not before.past[new:]:
            return None
        return [Undone(before.past[new][1])]
    if new == old or after.past[:old] != before.past:
        return None
    events: list[Event] = []
    for table, command in after.past[old:]:
        try:
            _, made = apply(replace(after, table=table, past=(), future=()), command)
        except PegboardError:  # cannot happen for a journalled step; say nothing rather
            return None
        events += made
    return events


def utterance_of(
    before: GameView,
    after: GameView,
    events: Sequence[Event],
    language: Language = Language.ENGLISH,
) -> Utterance | None:
    """What the press that took *before* to *after* with *events* says (None: nothing).

    >>> from pegboard.engine.commands import parse_command
    >>> from pegboard.engine.rules import Rules
    >>> from pegboard.engine.view import render_view
    >>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    >>> state, _ = apply(state, parse_command("cut 9H 3C", state.names))
    >>> after, events = apply(state, parse_command("peg Ann 3", state.names))
    >>> utterance_of(render_view(state), render_view(after), events).text()
    'Ann, 3'
    """
    if any(isinstance(e, Undone) for e in events):
        return Utterance((), language)
    tr = translator(language)
    parts: list[tuple[Said, str]] = []
    pegs = render_pegs(events, after)
    acted = any(isinstance(e, CardPlayed | SaidGo) for e in events)
    if acted:
        news = news_of(before, after, events, language)
        if news is not None and news.line:
            parts.append((Said.PLAY, _said(news.line)))
    counted = [e for e in events if isinstance(e, HandCounted)]
    for peg in pegs:
        calls = spoken(peg_calls(peg, language), language)
        match peg.source:
            case Source.HEELS.value:
                parts.append((Said.HEELS, calls))
            case Source.HAND.value | Source.CRIB.value if counted and counted[-1].cards:
                parts.append((Said.COUNT, calls))
            case Source.HAND.value | Source.CRIB.value:  # counted by the table: "show 8"
                parts.append((Said.COUNT, f"{peg.name}, {tr.number(peg.points)}"))
            case Source.MANUAL.value:
                parts.append((Said.PEG, f"{peg.name}, {tr.number(peg.points)}"))
            case _ if not acted:  # muggins, five-card's three for last: not in the play's news
                parts.append((Said.PLAY, f"{peg.name}, {calls}"))
    for event in events:
        if isinstance(event, GameWon):
            parts.append((Said.GAME, _game_over(after, event, _ends_match(events), language)))
    if not parts:
        return None
    return Utterance(tuple(parts), language)


def _ends_match(events: Sequence[Event]) -> bool:
    """Whether *events* end the match as well as the game."""
    return any(isinstance(e, MatchWon) for e in events)


def _said(line: str) -> str:
    """A news line as spoken: "Bob: a run of 3 for 3 · Ann: go" -> "Bob, a run of 3 for 3.
    Ann, go"."""
    return ". ".join(part.replace(": ", ", ", 1) for part in line.split(" · "))


def _game_over(view: GameView, won: GameWon, match: bool, language: Language) -> str:
    """ "Ann wins! lurched!" (the screen's words), or the match's."""
    tr = translator(language)
    result = won.result
    name = view.names[result.winner]
    words = tr.gettext("{name} wins the match!") if match else tr.gettext("{name} wins!")
    said = [words.format(name=name)]
    worst = {lurch.value for lurch in result.lurches}
    if "double-skunked" in worst:
        said.append(tr.gettext("double skunk!"))
    elif "lurched" in worst:
        said.append(tr.gettext("lurched!"))
    return " ".join(said)
