"""News: what one key press did, in the players' words, for the screens to show for a moment.

Theory of operation
-------------------
The game view says where the table is, not what just happened. ``news_of(before, after,
events)`` reads the events of one key press (``engine.events``) against the views before and
after it and returns a ``News`` value:

- ``line``: one line of what happened ("Ann +8 → 52", "Bob: a run of 3 for 3, one for last",
  "Ann: go · Bob: one for the go", "undone: Bob's hand, 12");
- ``gains``: each side's score change, for the scoreboard to mark;
- ``counted``: the hand or crib just counted, and the muggins peg a short claim gave away, for
  the count screen (the claimant's itemised count first, then the muggins points);
- ``play_end``: when the last card ended the play, the play as that card left it (the view is
  already in the show), so its points can be read on the play screen.

A press can carry many commands (the keypad re-entering a deal with other suits before the
show); only the last action speaks: the events from the last card, go, count, starter, undo or
redo on. The controller shows the news for a few seconds or until the next key; ``faded`` is
what stays afterwards (the count, whose last page stays up); an empty ``News()`` tells
nothing. Pure: values in, a value out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from pegboard.engine.commands import (
    Claim,
    Command,
    Crib,
    Cut,
    Go,
    Next,
    NextDeal,
    Peg,
    Play,
    Show,
    Starter,
)
from pegboard.engine.events import (
    CardPlayed,
    CutMade,
    Event,
    HandCounted,
    HandSkipped,
    PlayEnded,
    Redone,
    SaidGo,
    StarterTurned,
    Undone,
)
from pegboard.engine.game import Phase
from pegboard.engine.view import GameView, ScoreView, render_pegs
from pegboard.frozen import frozen
from pegboard.i18n import Language, Translator, translator

__all__ = ["News", "news_of", "pegged_words"]

_ACTIONS = (
    CardPlayed,
    SaidGo,
    HandCounted,
    HandSkipped,
    StarterTurned,
    CutMade,
    Undone,
    Redone,
)
"""Events that start what a press did; the pegs after one belong to it (a deal or game that
starts is what a count or a peg led to, not an action of its own)."""


@frozen
class News:
    """What one key press did (see the module doc). Frozen and comparable."""

    line: str = ""
    gains: tuple[int, ...] = ()
    """Each side's score change (empty when the match changed under it)."""
    counted: tuple[ScoreView, ...] = ()
    """The hand or crib just counted, then any muggins peg its claim gave away."""
    play_end: GameView | None = None
    """The play as its last card left it (the view itself is already in the show)."""
    shorter: tuple[str, ...] = ()
    """Shorter wordings of ``line`` for a narrow screen ("undone: Bob's hand", the points
    being on the scoreboard already)."""

    def faded(self) -> News:
        """What stays once the moment has passed: the count, if there is one."""
        return News(counted=self.counted)


def pegged_words(pegs: Sequence[ScoreView]) -> str:
    """ "Ann +8 → 52", or several joined: "Ann +8 → 48 · Bob +4 → 56"."""
    return " · ".join(f"{peg.name} +{peg.points} → {peg.score}" for peg in pegs)


def news_of(
    before: GameView,
    after: GameView,
    events: Sequence[Event],
    language: Language = Language.ENGLISH,
) -> News | None:
    """What the press that took *before* to *after* with *events* did (None: nothing to tell),
    in *language*.

    >>> from pegboard.engine.commands import parse_command
    >>> from pegboard.engine.game import GameState, apply
    >>> from pegboard.engine.rules import Rules
    >>> from pegboard.engine.view import render_view
    >>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
    >>> state, _ = apply(state, parse_command("cut 9H 3C", state.names))
    >>> after, events = apply(state, parse_command("peg Ann 8", state.names))
    >>> news = news_of(render_view(state), render_view(after), events)
    >>> news.line, news.gains
    ('Ann +8 → 8', (8, 0))
    >>> back, events = apply(after, parse_command("undo", state.names))
    >>> news_of(render_view(after), render_view(back), events).line
    "undone: Ann's peg, 8"
    """
    start = max((n for n, e in enumerate(events) if isinstance(e, _ACTIONS)), default=0)
    tail = events[start:]
    gains: tuple[int, ...] = ()
    if before.names == after.names and before.game == after.game:
        gains = tuple(a.score - b.score for a, b in zip(after.sides, before.sides, strict=True))
    pegs = render_pegs(tail, after)
    tr = translator(language)
    action = tail[0] if tail else None
    match action:
        case Undone(command=command):
            what = tr.gettext("undone: {what}").format(what=_what(command, after, tr))
            return News(f"{what}{_changes(after, gains)}", gains, shorter=(what,))
        case Redone(command=command):
            what = tr.gettext("redone: {what}").format(what=_what(command, before, tr))
            return News(f"{what}{_changes(after, gains)}", gains, shorter=(what,))
        case HandCounted(seat=seat, cards=cards):
            if not cards:
                # counted by the table ("show 8"): no calls to page through, the score tells it
                hand = pegs[0] if pegs else None
                told = f" +{hand.points} → {hand.score}" if hand is not None else " +0"
                whose = _whose(after, seat, before.dealer_name, tr)
                return News(f"{whose}{told}", gains, shorter=(pegged_words(pegs),))
            return News(pegged_words(pegs), gains, counted=pegs)
        case HandSkipped(seat=seat):
            whose = _whose(after, seat, before.dealer_name, tr)
            return News(tr.gettext("{whose} not counted").format(whose=whose), gains)
        case CardPlayed() as played:
            end = None
            if any(isinstance(e, PlayEnded) for e in tail):
                end = _play_end(before, after, played, pegs)
            words = _play_words(after, pegs, language)
            short = _shorter(after, pegs, language)
            return News(words, gains, play_end=end, shorter=short) if pegs or end else None
        case SaidGo(seat=seat):
            said = [(after.seat_names[seat], tr.pgettext("play", "go"))]
            words = _play_words(after, pegs, language, said)
            return News(words, gains, shorter=_shorter(after, pegs, language, said))
    if not pegs:
        return None
    if all(peg.source == "peg" for peg in pegs):  # a manual peg: the side, the points, the score
        return News(pegged_words(pegs), gains)
    shorter = _shorter(after, pegs, language)
    return News(_play_words(after, pegs, language), gains, shorter=shorter)


def _shorter(
    view: GameView,
    pegs: Sequence[ScoreView],
    language: Language,
    said: Sequence[tuple[str, str]] = (),
) -> tuple[str, ...]:
    """Shorter wordings of the play's news for a narrow screen, for the longer words of
    another language: the calls in fewer words ("Bob: Dreierfolge 3"), then who pegged what
    ("Bob +3 → 47"). English needs none."""
    if not pegs or language is Language.ENGLISH:
        return ()
    from pegboard.i18n.calls import short_calls

    short = _play_words(view, pegs, language, said, lambda peg: short_calls(peg, language))
    return (short, pegged_words(pegs))


def _play_words(
    view: GameView,
    pegs: Sequence[ScoreView],
    language: Language,
    said: Sequence[tuple[str, str]] = (),
    words_of: Callable[[ScoreView], Sequence[str]] | None = None,
) -> str:
    """ "Bob: a run of 3 for 3, one for last"; a go first ("Bob: go, one for the go"); each
    player once, in turn: "Ann: a pair for 2 · Bob: muggins for 2". *words_of* gives a peg's
    calls (by default ``_calls``)."""
    parts: list[tuple[str, list[str]]] = [(who, [words]) for who, words in said]
    for peg in pegs:
        who = view.seat_names[peg.seat] if peg.seat is not None else peg.name
        calls = words_of(peg) if words_of is not None else _calls(peg, language)
        if parts and parts[-1][0] == who:
            parts[-1][1].extend(calls)
        else:
            parts.append((who, list(calls)))
    return " · ".join(f"{who}: {', '.join(calls)}" for who, calls in parts)


def _calls(peg: ScoreView, language: Language) -> tuple[str, ...]:
    """The peg's calls in *language* (English: the view's own)."""
    if language is Language.ENGLISH:
        return peg.calls
    from pegboard.i18n.calls import peg_calls

    return peg_calls(peg, language)


def _whose(view: GameView, seat: int | None, dealer: str | None, tr: Translator) -> str:
    if seat is None:
        return tr.gettext("{name}'s crib").format(name=dealer)
    return tr.gettext("{name}'s hand").format(name=view.seat_names[seat])


def _what(command: Command, view: GameView, tr: Translator) -> str:
    """What *command* did, in a few words; *view* is the table it was given at."""
    match command:
        case Show():
            return tr.gettext("{name}'s hand").format(name=view.up_for_counting)
        case Crib():
            return tr.gettext("{name}'s crib").format(name=view.dealer_name)
        case Play(card=card):
            if not view.turn_name:
                return card.rank.label
            return tr.gettext("{name}'s {rank}").format(name=view.turn_name, rank=card.rank.label)
        case Go():
            if not view.turn_name:
                return tr.gettext("a go")
            return tr.gettext("{name}'s go").format(name=view.turn_name)
        case Peg(side=side):
            return tr.gettext("{name}'s peg").format(name=view.names[side])
        case Starter(card=card):
            return tr.gettext("the starter {rank}").format(rank=card.rank.label)
        case Claim(points=points):
            return tr.gettext("a claim of {points}").format(points=points)
        case Cut():
            return tr.gettext("the cut")
        case NextDeal():
            return tr.gettext("the end of the deal")
        case Next():
            return tr.gettext("next")
        case _:
            return type(command).__name__.lower()


def _changes(view: GameView, gains: Sequence[int]) -> str:
    """ ", 12" when one side's score changed; ", Ann 8, Bob 2" when more did."""
    sides = zip(view.sides, gains, strict=False)  # no gains when the match changed under it
    changed = [(side.name, abs(gain)) for side, gain in sides if gain]
    if not changed:
        return ""
    if len(changed) == 1:
        return f", {changed[0][1]}"
    return ", " + ", ".join(f"{name} {points}" for name, points in changed)


def _play_end(
    before: GameView, after: GameView, played: CardPlayed, pegs: Sequence[ScoreView]
) -> GameView | None:
    """The play as its last card left it: *before* with that card laid and *after*'s pegs."""
    if before.phase is not Phase.PLAY:
        return None
    card = played.card
    same_series = before.count + card.rank.pips == played.count
    series = (*before.series, card) if same_series else (card,)
    return replace(
        before,
        sides=after.sides,
        count=played.count,
        series=series,
        laid=(*before.laid, (played.seat, card)),
        turn=None,
        turn_name=None,
        said_go=(),
        last=pegs[-1] if pegs else before.last,
        can_undo=after.can_undo,
        can_redo=after.can_redo,
    )
