"""The play hint: which card to lay, asked for at the table. Pure: keys in, a view out.

Theory of operation
-------------------
The device never knows a player's cards before they are laid, so the hint asks for them.
During the play, on a 4x4 keypad with nothing typed, ``HINT_KEY`` (``*``, which means nothing
else there then) opens the hint for the player to act: they type the ranks of the cards they
still hold (``1``-``9``, ``0`` ten, ``A``/``B``/``C`` jack, queen, king), ``*`` erases the last
(or closes the hint when nothing is typed), and when the hand is whole the hint is worked out
(``request``) and shown: "lay 3: +0.9 over 10", the best card and how much more it is expected
to peg (net, for the rest of the play) than the next best. Any key then closes it and does
nothing else; so does ``#`` or ``D`` while typing. The hint never makes a command: the game
and the journal never hear of it.

The figures are ``engine.playadvice``'s: the other player's cards are any consistent with the
starter and the cards laid (the table does not know the player's discards), and it plays the
greedy self-play. Suits do not matter in the play, so the typed ranks get any suits that are
still free. Two-player variants only; the 3x4 keypad has no free key in the play.

Whether the key works at all is one predicate, ``hint_allowed(config_on, locked)``: the config
switch (``[display] play_hint``) and a tournament lock, when there is one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from pegboard.devices.ports import KeyEvent
from pegboard.engine.cards import DECK, Card, Rank
from pegboard.engine.commands import Go, Play, Starter
from pegboard.engine.game import GameState, Phase
from pegboard.frozen import frozen
from pegboard.i18n import Language, translator
from pegboard.ui.keypad import EntryView, Layout, Mode, rank_of_key

if TYPE_CHECKING:  # the engine's search loads when a hint is first asked for
    from pegboard.engine.playadvice import PlayAdvice

__all__ = [
    "HINT_KEY",
    "Hint",
    "HintRequest",
    "advice_line",
    "hint_allowed",
    "hint_press",
    "hint_view",
    "request_of",
]

HINT_KEY = "*"
_CLOSE_KEYS = frozenset({"#", "D", "ok"})


def hint_allowed(config_on: bool, locked: bool = False) -> bool:
    """Whether the hint key works: the config switch is on and no tournament lock holds."""
    return config_on and not locked


@frozen
class HintRequest:
    """What the engine needs for one hint: the player's cards and the play so far."""

    held: tuple[Card, ...]
    laid: tuple[Card | None, ...]
    starter: Card
    dealer: bool
    state: GameState


@frozen
class Hint:
    """The hint in progress: the ranks typed for the player to act, and then the answer."""

    seat: int
    needed: int
    ranks: tuple[Rank, ...] = ()
    answer: str | None = None
    """The line to show once worked out ("lay 3: +0.9 over 10"), or None while typing or
    thinking."""

    @property
    def whole(self) -> bool:
        """Every card the player holds has been typed."""
        return len(self.ranks) == self.needed


def hint_press(
    hint: Hint | None, event: KeyEvent, state: GameState, layout: Layout, *, idle: bool
) -> tuple[Hint | None, bool]:
    """One key for the hint: the new hint (None: closed) and whether the key was the hint's.

    *idle* says that nothing is typed on the keypad. A key that is not the hint's goes on to
    the keypad grammar as usual. The caller checks ``hint_allowed`` first.
    """
    key = event.key
    if hint is None:
        play = state.table.play
        opens = (
            key == HINT_KEY
            and idle
            and layout is Layout.FOUR_BY_FOUR
            and state.table.phase is Phase.PLAY
            and state.rules.players == 2
            and play is not None
            and play.turn is not None
        )
        if not opens or play is None or play.turn is None:
            return None, False
        return Hint(seat=play.turn, needed=play.cards_left[play.turn]), True
    if hint.answer is not None or hint.whole:
        return None, True  # the answer was read (or is coming): any key closes it
    if key == HINT_KEY:
        return (Hint(hint.seat, hint.needed, hint.ranks[:-1]) if hint.ranks else None), True
    if key in _CLOSE_KEYS:
        return None, True
    rank = rank_of_key(key, layout)
    if rank is None:
        return hint, True  # nothing else means anything here
    return Hint(hint.seat, hint.needed, (*hint.ranks, rank)), True


def request_of(hint: Hint, state: GameState, language: Language) -> HintRequest | str:
    """The engine's question for a whole *hint*, or why there is none (a line to show in
    *language*).

    The typed ranks get free suits; the cards laid and goes come from this deal's commands.
    """
    tr = translator(language)
    table = state.table
    play, starter = table.play, table.starter
    if play is None or starter is None or table.dealer is None:
        return tr.gettext("no hint now")
    laid: list[Card | None] = []
    for _, command in reversed(state.past):
        if isinstance(command, Starter):
            break
        if isinstance(command, Play):
            laid.append(command.card)
        elif isinstance(command, Go):
            laid.append(None)
    laid.reverse()
    used = {starter, *(card for _, card in play.laid)}
    held: list[Card] = []
    for rank in hint.ranks:
        free = next((c for c in DECK if c.rank is rank and c not in used), None)
        if free is None:
            return tr.gettext("no {rank} is left").format(rank=rank.label)
        used.add(free)
        held.append(free)
    return HintRequest(tuple(held), tuple(laid), starter, hint.seat == table.dealer, state)


def advice_line(advice: PlayAdvice, language: Language) -> str:
    """ "lay 3: +0.9 over 10": the best card, and how much more it is worth than the next."""
    tr = translator(language)
    best = advice.options[0]
    if best.card is None:
        return tr.gettext("go: no card fits")
    rank = best.card.rank.label
    others = [o for o in advice.options[1:] if o.card is not None]
    if not others:
        return tr.gettext("lay {rank}: the only card").format(rank=rank)
    margin = best.net_ev - others[0].net_ev
    shown = f"{margin:+.1f}"
    if language is not Language.ENGLISH:
        shown = shown.replace(".", ",")
    said = tr.gettext("lay {rank}: {margin} over {other}")
    assert others[0].card is not None
    return said.format(rank=rank, margin=shown, other=others[0].card.rank.label)


def hint_view(hint: Hint, language: Language) -> EntryView:
    """The entry screen for the hint: the ranks typed, then the answer."""
    tr = translator(language)
    typed: Sequence[str] = [rank.label for rank in hint.ranks]
    text = " ".join([*typed, *("_" * (hint.needed - len(typed)))])
    if hint.answer is not None:
        line = hint.answer
    elif hint.whole:
        line = tr.gettext("thinking ...")
    else:
        line = tr.gettext("your cards, * erases")
    return EntryView(title=tr.gettext("hint"), text=text, hint=line, mode=Mode.TYPING)
