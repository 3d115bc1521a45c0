"""The keypad grammar: key presses in, game commands out. Pure: no clock, no I/O, no threads.

Theory of operation
-------------------
``press(entry, event, situation, now)`` takes what has been typed so far (``EntryState``), one
``KeyEvent`` and the game as it stands (``Situation``, made from a ``GameState``) and returns the
new ``EntryState`` and an ``Outcome``: zero or more commands to apply in order, a short refusal
message, or a request only the controller can carry out (a random cut, a new match).
``expire(entry, situation, now)`` does the time-based part (a combined peg commits after
``IDLE_COMMIT`` seconds without a key). ``hints.render_entry`` says what the entry screen
shows: the text typed so far and what the next key means.

The keys (4x4 keypad; the 3x4 keypad has no letter column)::

    1 2 3 A        1-9  ace..nine (and the digits of a number)
    4 5 6 B        0    ten (3x4: press again for J, Q, K)
    7 8 9 C        A B C  jack, queen, king (as sides in peg mode and deals pegged by hand)
    * 0 # D        *  erase the last key (3x4, nothing typed: peg mode)
                   #  enter (nothing typed: go, count the hand up, random cut, no starter)
                   D  peg mode: points, then the side (A-C, a peg button, or # and 1-3)

Buttons: ``peg0``/``peg1``/``peg2`` add 1 to a side (presses close together make one peg),
``undo`` (held: redo), ``ok`` = ``#`` (held: the menu; held in it: the sound off or on).

The grammar, phase by phase. Each key has one meaning in each place, so nothing is guessed:

- Cut: one rank per side, or ``#`` alone for a random cut.
- Starter: its rank (``A``, a jack, pegs 2 for his heels at once), or ``#`` alone: no starter,
  and the deal is pegged by hand (below). A jack turned is still entered by its key first.
- The play, counted: one rank per card laid; ``#`` is go. A count over 31 and a fifth card of
  a rank are refused.
- The show, counted: the hand's ranks (the cards laid in the play are there already), then ONE
  key that counts it: ``#`` when nothing is asked, else the answer to the hand's one question
  (``hands.py``: ``#`` no, ``1``/``2`` a flush of 4/5, ``3`` nobs), which is asked as soon as
  the hand is whole; a hand laid in the play asks it before any key. Fewer ranks than the hand
  holds, all digits, then ``#``: the table counted the hand itself, and ``8 #`` pegs it 8
  (``show 8``). With muggins the claim follows (``1 2 #``, or ``#`` for none).
- Peg mode (``D`` on any deal): points, then a side; a side with no points pegs 1.
- A deal pegged by hand (``#`` for the starter; its play is not counted). In its play a key is
  points: ``2 B`` pegs 2 to B, ``B`` alone 1 (3x4: ``2 # 2``); points then ``#`` (3x4:
  ``# #``) end the play and are the first hand's count; ``#`` alone ends the play. In its show
  the hands come in the show order, crib last, each told by its points: no hand scores 30, so
  0 and 3-9 are whole at once, while 1 and 2 wait for ``#`` or a second digit. After the crib
  the next deal starts by itself. His heels are pegged like any other points.

Suits are never typed. ``suits.py`` picks suits for every card of the deal that fit every
answer, so the engine's count is exact; when an answer needs a card already entered to change
suit, the outcome takes the deal back with ``Undo`` and enters it again.

>>> from pegboard.engine.game import GameState
>>> from pegboard.engine.rules import Rules
>>> from pegboard.devices.ports import KeyEvent
>>> state = GameState.new(Rules.six_card())
>>> entry, outcome = press(EntryState(), KeyEvent("9"), Situation.of(state), 0.0)
>>> entry.ranks
(<Rank.NINE: 9>,)
>>> entry, outcome = press(entry, KeyEvent("3"), Situation.of(state), 0.0)
>>> [str(card) for card in outcome.commands[0].cards]
['9H', '3D']
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import field, replace

from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.engine.cards import Card, Rank
from pegboard.engine.commands import (
    MAX_PEG,
    Claim,
    Command,
    Crib,
    Cut,
    Go,
    Next,
    NextDeal,
    Peg,
    Play,
    Redo,
    Show,
    Starter,
    Undo,
)
from pegboard.engine.game import GameState, Phase, show_order
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.view import GameView, render_view
from pegboard.frozen import frozen
from pegboard.i18n import N_, Language, translator
from pegboard.ui.hands import (
    MAX_HAND,
    Question,
    answer,
    count_by_points,
    is_whole,
    points_of,
    question_for,
    question_hint,
)
from pegboard.ui.menu import MENU, NAME_KEYS, MenuChoice, ToggleSound, menu_size, variant_name
from pegboard.ui.suits import HandFacts, pick, play_suit, reenter, suit_hand

__all__ = [
    "IDLE_COMMIT",
    "EntryState",
    "EntryView",
    "Layout",
    "MenuChoice",
    "Mode",
    "NewMatch",
    "Outcome",
    "RandomCut",
    "ShowRecord",
    "Situation",
    "ToggleSound",
    "expire",
    "press",
    "rank_of_key",
]

IDLE_COMMIT = 1.5
"""Seconds without a key after which a combined peg ("+3") commits."""

MAX_CLAIM = 29


class Layout(enum.Enum):
    """The keypad's shape: 4x4 has the letter column A-D, 3x4 does not."""

    FOUR_BY_FOUR = "4x4"
    THREE_BY_FOUR = "3x4"

    @classmethod
    def for_keys(cls, keys: str) -> Layout:
        """The layout of a keypad with these keys (any letter key makes it a 4x4)."""
        return cls.FOUR_BY_FOUR if any(k in keys for k in "ABCD") else cls.THREE_BY_FOUR


class Mode(enum.Enum):
    """What the keypad is in the middle of."""

    TYPING = "typing"  # ranks (cut, starter, the play, a hand), or points in a deal by hand
    PEG = "peg"  # points for a manual peg, then the side
    PEG_SIDE = "peg side"  # points typed, # pressed: 1..n picks the side
    FLUSH = "flush"  # (the entry view) a whole hand asks: a flush? (or nobs too)
    NOBS = "nobs"  # (the entry view) a whole hand asks: is the jack the starter's suit?
    CLAIM = "claim"  # muggins: the owner's claim
    MENU = "menu"


@frozen
class NewMatch:
    """Request: start a new match under *rules* (the controller asks the journal), in
    *match_format* (None: the configured one), with *names* for the sides (None: the names
    the table has now, when they fit)."""

    rules: Rules
    match_format: MatchFormat | None = None
    names: tuple[str, ...] | None = None


@frozen
class RandomCut:
    """Request: the device cuts for the first deal at random (the controller has the RNG)."""


@frozen
class ShowRecord:
    """Request: show the sides' records against each other (the menu's ``D``; on a 3x4
    keypad, ``#`` past the menu's last line); the controller reads them from the journal."""


Request = NewMatch | RandomCut | ShowRecord | ToggleSound


@frozen
class Outcome:
    """What one key did: commands to apply in order, a refusal, or a request."""

    commands: tuple[Command, ...] = ()
    refusal: str = ""
    request: Request | None = None
    repeat: bool = False
    """Press the same key again once the commands are applied."""


@frozen
class EntryView:
    """What the entry screen shows: what is being entered (``title``: "Ann's hand", "cut",
    "peg"), the text typed so far, and what the next key means.

    ``hint`` is one or two lines (split by a newline) of at most ``HINT_WIDTH`` characters, the
    first standing alone on a short screen. In the menu, ``menu`` holds its lines (label, value
    or None) and ``cursor`` the line last chosen or walked to. ``typing`` is False while the
    keypad is idle (nothing typed, no menu or peg open): the screen then shows the game, not
    the entry. ``asks`` is True when the idle keypad's next key answers a question all the
    same: the hand up was laid in the play, and its ``hint`` is the question ("flush? # no
    1=4 2=5"), for a screen to show once the news of the last press has been read.
    ``screens.choose_screen`` draws this value as it is.
    """

    title: str
    text: str
    hint: str
    mode: Mode
    menu: tuple[tuple[str, str | None], ...] = ()
    cursor: int = 0
    typing: bool = True
    asks: bool = False

    @property
    def line(self) -> str:
        """Title and text on one line ("Ann's hand: 7 J _ _")."""
        return f"{self.title}: {self.text}" if self.title and self.text else self.title or self.text


@frozen
class Situation:
    """The game as the keypad needs it: the view plus this deal's cards and commands.

    Make one with ``Situation.of(state)``.
    """

    view: GameView
    rules: Rules
    up: int | None
    """In the show: the seat whose hand is up for counting (None: the crib)."""
    shown: tuple[tuple[int | None, tuple[Card, ...]], ...]
    """Hands (seat) and the crib (None) already counted this deal, with their cards."""
    deal_commands: tuple[Command, ...]
    """The commands accepted since this deal began (what a change of suits re-enters)."""
    laid: tuple[tuple[int, Card], ...] = ()
    """Every card laid in this deal's play with its seat (the view drops them after the play)."""

    @classmethod
    def of(cls, state: GameState, view: GameView | None = None) -> Situation:
        """The situation of *state*; *view* is ``render_view(state)`` when the caller has it."""
        table = state.table
        up = None
        if table.phase is Phase.SHOW and table.dealer is not None:
            up = show_order(state.rules, table.dealer)[table.show_step]
        shown = tuple((h.seat, h.cards) for h in table.record.shown) if table.record else ()
        commands: list[Command] = []
        if table.phase in (Phase.STARTER, Phase.PLAY, Phase.SHOW):
            for before, command in reversed(state.past):
                if before.game != table.game or before.deal != table.deal:
                    break
                if before.phase not in (Phase.STARTER, Phase.PLAY, Phase.SHOW):
                    break
                commands.append(command)
        laid = table.play.laid if table.play is not None else ()
        view = render_view(state) if view is None else view
        return cls(view, state.rules, up, shown, tuple(reversed(commands)), laid)

    @property
    def deal_cards(self) -> tuple[Card, ...]:
        """Every card entered this deal: the starter, the cards laid, the hands shown."""
        cards: list[Card] = []
        if self.view.starter is not None:
            cards.append(self.view.starter)
        for _, card in self.laid:
            cards.append(card)
        for _, hand in self.shown:
            cards.extend(c for c in hand if c not in cards)
        return tuple(cards)

    def laid_by(self, seat: int) -> tuple[Card, ...]:
        """The cards *seat* laid in this deal's play."""
        return tuple(card for s, card in self.laid if s == seat)

    @property
    def by_hand(self) -> bool:
        """Whether this deal is pegged by hand: no starter, so neither its play (not counted)
        nor its show (nothing to count with) takes cards; its keys are points."""
        view = self.view
        if view.phase is Phase.PLAY:
            return view.turn is None
        return view.phase is Phase.SHOW and view.starter is None


@frozen
class EntryState:
    """What has been typed so far. A fresh ``EntryState(layout)`` is the idle keypad."""

    layout: Layout = Layout.FOUR_BY_FOUR
    mode: Mode = Mode.TYPING
    ranks: tuple[Rank, ...] = ()
    open_ten: bool = False
    """3x4: the last rank came from ``0`` and another ``0`` turns it into J, Q, K."""
    digits: str = ""
    flush: int = 0
    """The show's answer: 0 no flush, 1 the hand's cards, 2 with the starter too."""
    nobs: bool = False
    peg_side: int | None = None
    peg_points: int = 0
    """A peg-button peg still combining: side and points (0: none)."""
    peg_at: float = 0.0
    """When the last peg button press came (for ``expire``)."""
    menu: MenuChoice | None = None
    """In the menu: the settings a new match will get."""
    menu_cursor: int = 0
    """In the menu: the line last chosen, or walked to with #."""
    roster: tuple[str, ...] = ()
    """The names the menu offers for the sides (the config's roster); kept when cleared."""
    play_claim: bool = False
    """Muggins in the play: the rank typed is waiting for its claim."""
    back: Mode = field(default=Mode.TYPING)
    language: Language = Language.ENGLISH
    """What the hints and refusals say (the config's ``[game] language``)."""
    sound: bool = False
    """The board speaks (``[sound]``): the menu's ``ok`` held turns it off and on."""

    def cleared(self) -> EntryState:
        """The idle keypad of the same layout, roster, language and sound."""
        return EntryState(self.layout, roster=self.roster, language=self.language, sound=self.sound)


# --- keys -------------------------------------------------------------------------------------

_RANK_KEYS = {str(n): Rank(n) for n in range(1, 10)} | {"0": Rank.TEN}
_FACE_KEYS = {"A": Rank.JACK, "B": Rank.QUEEN, "C": Rank.KING}
_TEN_CYCLE = {
    Rank.TEN: Rank.JACK,
    Rank.JACK: Rank.QUEEN,
    Rank.QUEEN: Rank.KING,
    Rank.KING: Rank.TEN,
}


def rank_of_key(key: str, layout: Layout) -> Rank | None:
    """The rank a keypad key types, or None for a key that is not a rank.

    >>> rank_of_key("1", Layout.FOUR_BY_FOUR), rank_of_key("B", Layout.FOUR_BY_FOUR)
    (<Rank.ACE: 1>, <Rank.QUEEN: 12>)
    >>> rank_of_key("B", Layout.THREE_BY_FOUR) is None
    True
    """
    if key in _RANK_KEYS:
        return _RANK_KEYS[key]
    if layout is Layout.FOUR_BY_FOUR:
        return _FACE_KEYS.get(key)
    return None


def _peg_button(key: str) -> int | None:
    if key.startswith("peg") and key[3:].isdigit():
        return int(key[3:])
    return None


def _label(rank: Rank) -> str:
    return rank.label


# --- the grammar ------------------------------------------------------------------------------


def press(
    entry: EntryState, event: KeyEvent, situation: Situation, now: float
) -> tuple[EntryState, Outcome]:
    """One key: the new entry state and what it did (see the module docstring).

    *now* is the clock's time in seconds (for combining peg-button presses). Never raises for
    a key: a key that means nothing now is refused in the outcome. When the outcome says
    ``repeat``, the caller applies its commands and then presses the same key again on the
    new situation (a key that first commits a combining peg or a pending 3x4 ten).
    """
    key, action = event.key, event.action
    side = _peg_button(key)
    if side is not None and action is KeyAction.PRESS and entry.mode not in (Mode.PEG, Mode.MENU):
        return _peg_press(entry, side, situation, now)
    if entry.peg_points:  # any other key commits the combining peg first
        assert entry.peg_side is not None
        rest = replace(entry, peg_side=None, peg_points=0, peg_at=0.0)  # idle again
        if key == "undo" and action is KeyAction.PRESS:  # undo drops the peg not yet committed
            return rest, Outcome()
        confirm = key in ("#", "ok") and action is KeyAction.PRESS
        return rest, Outcome((Peg(entry.peg_side, entry.peg_points),), repeat=not confirm)
    return _press(entry, key, action, situation)


def expire(entry: EntryState, situation: Situation, now: float) -> tuple[EntryState, Outcome]:
    """Time-based commits: a combined peg after ``IDLE_COMMIT`` seconds without a key."""
    if entry.peg_points and now - entry.peg_at >= IDLE_COMMIT:
        assert entry.peg_side is not None
        peg = Peg(entry.peg_side, entry.peg_points)
        return replace(entry, peg_side=None, peg_points=0, peg_at=0.0), Outcome((peg,))
    return entry, Outcome()


def _refuse(entry: EntryState, message: str, **values: object) -> tuple[EntryState, Outcome]:
    """Refuse the key: *message* in the entry's language, its ``{fields}`` filled from
    *values*."""
    return entry, Outcome(refusal=_t(entry, message).format(**values))


def _t(entry: EntryState, message: str) -> str:
    return translator(entry.language).gettext(message)


def _peg_press(
    entry: EntryState, side: int, situation: Situation, now: float
) -> tuple[EntryState, Outcome]:
    sides = situation.rules.sides
    if side >= sides:
        return _refuse(entry, "no side {side}: this game has {sides}", side=side, sides=sides)
    if entry.peg_points and entry.peg_side == side:
        if entry.peg_points >= MAX_PEG:
            return _refuse(entry, "a peg is at most {most}", most=MAX_PEG)
        return replace(entry, peg_points=entry.peg_points + 1, peg_at=now), Outcome()
    flushed: tuple[Command, ...] = ()
    if entry.peg_points:
        assert entry.peg_side is not None
        flushed = (Peg(entry.peg_side, entry.peg_points),)
    return replace(entry, peg_side=side, peg_points=1, peg_at=now), Outcome(flushed)


def _press(
    entry: EntryState, key: str, action: KeyAction, situation: Situation
) -> tuple[EntryState, Outcome]:
    if key == "undo":
        command: Command = Redo() if action is KeyAction.LONG_PRESS else Undo()
        return entry.cleared(), Outcome((command,))
    if key == "ok" and action is KeyAction.LONG_PRESS:
        # the menu opens afresh on its first line: a cursor left on a name line of a menu for
        # three sides would point past a two-sided game's lines
        if entry.mode is Mode.MENU:  # held again: the menu closes (and the sound goes off or on)
            closed = replace(entry, mode=entry.back, menu=None, menu_cursor=0)
            return closed, Outcome(request=ToggleSound() if entry.sound else None)
        choice = MenuChoice.of(situation.view, situation.rules, entry.roster, entry.language)
        opened = replace(entry, mode=Mode.MENU, back=entry.mode, menu=choice, menu_cursor=0)
        return opened, Outcome()
    if key == "ok":
        key = "#"
    if action is KeyAction.LONG_PRESS:
        return _refuse(entry, "{key} has no long press", key=key)
    match entry.mode:
        case Mode.MENU:
            return _menu(entry, key, situation)
        case Mode.PEG | Mode.PEG_SIDE:
            return _peg_mode(entry, key, situation)
        case Mode.CLAIM:
            return _claim(entry, key, situation)
        case Mode.TYPING | Mode.FLUSH | Mode.NOBS:  # a question is answered where it is typed
            return _typing(entry, key, situation)


def _typing(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    view = situation.view
    if situation.by_hand and not (key == "*" and not entry.digits):
        return _by_hand(entry, key, situation)
    if key == "*":
        if entry.ranks:
            return replace(entry, ranks=entry.ranks[:-1], open_ten=False), Outcome()
        if entry.layout is Layout.THREE_BY_FOUR and view.phase in _PEG_PHASES:
            return replace(entry, mode=Mode.PEG, digits=""), Outcome()
        return entry, Outcome()
    if key == "D" and entry.layout is Layout.FOUR_BY_FOUR:
        if view.phase not in _PEG_PHASES:
            return _refuse(entry, "no pegging in phase {phase}", phase=view.phase.value)
        return replace(entry, mode=Mode.PEG, digits="", ranks=(), open_ten=False), Outcome()
    if key == "0" and entry.layout is Layout.THREE_BY_FOUR and entry.open_ten and entry.ranks:
        return replace(entry, ranks=(*entry.ranks[:-1], _TEN_CYCLE[entry.ranks[-1]])), Outcome()
    rank = rank_of_key(key, entry.layout)
    if entry.open_ten and view.phase in (Phase.STARTER, Phase.PLAY):
        # 3x4: a pending ten (or face card) is laid by # or by the next key, which then acts
        done, outcome = _single_card(entry.cleared(), entry.ranks[-1], situation)
        if outcome.refusal or key == "#":
            return done, outcome
        return done, replace(outcome, repeat=True)
    if entry.open_ten and key == "#" and view.phase is Phase.SHOW:
        have = len(_prefilled(situation)) + len(entry.ranks)
        if have < hand_size(situation):  # 3x4: # ends a ten so that 0 can start another
            return replace(entry, open_ten=False), Outcome()
    entry = replace(entry, open_ten=False)
    if key == "#":
        return _enter(entry, situation)
    if rank is None:
        return _refuse(entry, "key {key} means nothing here", key=key)
    match view.phase:
        case Phase.CUT:
            return _cut_rank(entry, rank, situation)
        case Phase.STARTER | Phase.PLAY:
            if key == "0" and entry.layout is Layout.THREE_BY_FOUR:
                return replace(entry, ranks=(rank,), open_ten=True), Outcome()
            return _single_card(entry, rank, situation)
        case Phase.SHOW:
            return _hand_rank(entry, rank, key, situation)
        case _:
            after = _t(entry, after_game(view))
            return _refuse(entry, "the game is over: # for {what}", what=after)


_PEG_PHASES = (Phase.STARTER, Phase.PLAY, Phase.SHOW)


def after_game(view: GameView) -> str:
    """What ``#`` starts once a game is over: the next game, or a new match (marked)."""
    return N_("a new match") if view.phase is Phase.MATCH_OVER else N_("the next game")


def _enter(entry: EntryState, situation: Situation) -> tuple[EntryState, Outcome]:
    view = situation.view
    match view.phase:
        case Phase.CUT:
            if entry.ranks:
                return _refuse(entry, "a cut needs one card per side ({n})", n=len(view.names))
            return entry.cleared(), Outcome(request=RandomCut())
        case Phase.STARTER:  # no starter: the deal is pegged by hand (a jack: enter it first)
            return entry.cleared(), Outcome((Next(),))
        case Phase.PLAY:
            return entry.cleared(), Outcome((Go(),))
        case Phase.SHOW:
            return _hand_done(entry, "#", situation)
        case Phase.GAME_OVER:
            return entry.cleared(), Outcome((Next(),))
        case Phase.MATCH_OVER:
            fmt = situation.view.match.format
            return entry.cleared(), Outcome(request=NewMatch(situation.rules, fmt))


def _cut_rank(entry: EntryState, rank: Rank, situation: Situation) -> tuple[EntryState, Outcome]:
    ranks = (*entry.ranks, rank)
    sides = situation.rules.sides
    if len(ranks) < sides:
        return replace(entry, ranks=ranks), Outcome()
    cards = pick(ranks, ())
    return entry.cleared(), Outcome((Cut(cards),))


def _out(rank: Rank, known: Sequence[Card], typed: Sequence[Rank] = ()) -> bool:
    return sum(1 for c in known if c.rank is rank) + sum(1 for r in typed if r is rank) >= 4


_FIFTH = N_("no fifth {rank}: all four are out this deal")


def _single_card(entry: EntryState, rank: Rank, situation: Situation) -> tuple[EntryState, Outcome]:
    view = situation.view
    known = situation.deal_cards
    if _out(rank, known):
        return _refuse(entry.cleared(), _FIFTH, rank=rank.label)
    if view.phase is Phase.STARTER:
        return entry.cleared(), Outcome((Starter(pick((rank,), known)[0]),))
    if view.turn is None:
        return _refuse(entry.cleared(), "the play is not counted: peg by hand")
    if view.count + rank.pips > 31:
        over = N_("count {count}: a {rank} makes {total}, over 31")
        total = view.count + rank.pips
        return _refuse(entry.cleared(), over, count=view.count, rank=rank.label, total=total)
    if situation.rules.muggins_in_play:  # the player states a claim before the card counts
        return replace(entry.cleared(), mode=Mode.CLAIM, ranks=(rank,), play_claim=True), Outcome()
    card = play_suit(rank, known, view.starter, situation.laid_by(view.turn))
    return entry.cleared(), Outcome((Play(card),))


def _play_with_claim(entry: EntryState, situation: Situation) -> tuple[EntryState, Outcome]:
    """Lay the card typed in the play, with the claim typed for it (none: just the card)."""
    seat = situation.view.turn
    if seat is None or not entry.ranks:
        return _refuse(entry.cleared(), "the play is not counted: peg by hand")
    card = play_suit(
        entry.ranks[0], situation.deal_cards, situation.view.starter, situation.laid_by(seat)
    )
    claim = (Claim(int(entry.digits)),) if entry.digits else ()
    return entry.cleared(), Outcome((*claim, Play(card)))


# --- the show ---------------------------------------------------------------------------------


def hand_size(situation: Situation) -> int:
    """How many cards the hand (or crib) up for counting holds."""
    rules = situation.rules
    return rules.crib_size if situation.up is None else rules.hand_size


def _prefilled(situation: Situation) -> tuple[Card, ...]:
    return () if situation.up is None else situation.laid_by(situation.up)


def _hand_rank(
    entry: EntryState, rank: Rank, key: str, situation: Situation
) -> tuple[EntryState, Outcome]:
    if is_whole_hand(entry, situation):  # a whole hand: its next key answers its question
        return _hand_done(entry, key, situation)
    if _out(rank, situation.deal_cards, entry.ranks):
        return _refuse(entry, _FIFTH, rank=rank.label)
    opened = key == "0" and entry.layout is Layout.THREE_BY_FOUR
    return replace(entry, ranks=(*entry.ranks, rank), open_ten=opened), Outcome()


def hand_ranks(entry: EntryState, situation: Situation) -> tuple[Rank, ...]:
    """The hand up's ranks so far: those laid in the play, then those typed."""
    return (*(c.rank for c in _prefilled(situation)), *entry.ranks)


def is_whole_hand(entry: EntryState, situation: Situation) -> bool:
    """Whether the hand up has all its cards (laid in the play or typed)."""
    return len(_prefilled(situation)) + len(entry.ranks) >= hand_size(situation)


def question_of(entry: EntryState, situation: Situation) -> Question | None:
    """The whole hand's one question (a flush? nobs?), or None."""
    starter = situation.view.starter
    assert starter is not None, "a hand is typed only when the starter is known"
    return question_for(hand_ranks(entry, situation), starter, crib=situation.up is None)


def told_points(entry: EntryState, situation: Situation) -> int | None:
    """The points a short hand's digit ranks tell (``8 #``: 8), or None."""
    points = points_of(entry.ranks)
    if _prefilled(situation) or points is None or points > MAX_HAND:
        return None
    return points


def _hand_done(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    """A hand's last key: # or the answer to its one question; # after a few digits: its points."""
    crib = situation.up is None
    if not is_whole_hand(entry, situation):
        points = told_points(entry, situation)
        if key == "#" and points is not None:
            return entry.cleared(), Outcome((count_by_points(points, crib=crib),))
        have = len(_prefilled(situation)) + len(entry.ranks)
        size = hand_size(situation)
        return _refuse(entry, "{have} of {size} cards typed", have=have, size=size)
    question = question_of(entry, situation)
    answered = answer(question, key, crib=crib)
    if answered is None:
        size = hand_size(situation)
        hint = question_hint(question, crib=crib, size=size, language=entry.language)
        return entry, Outcome(refusal=hint.split("\n")[0])
    entry = replace(entry, flush=answered[0], nobs=answered[1])
    if situation.rules.muggins:
        return replace(entry, mode=Mode.CLAIM, digits=""), Outcome()
    return _count(entry, situation, None)


def _claim(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    """Muggins: the claim for the hand just answered, or for the card typed in the play."""
    if key == "*":
        if entry.digits:
            return replace(entry, digits=entry.digits[:-1]), Outcome()
        if entry.play_claim:  # erase the card typed in the play
            return entry.cleared(), Outcome()
        return replace(entry, mode=Mode.TYPING, flush=0, nobs=False), Outcome()
    if key == "#" and entry.play_claim:
        return _play_with_claim(entry, situation)
    if key == "#":
        return _count(entry, situation, int(entry.digits) if entry.digits else None)
    if not key.isdigit():
        return _refuse(entry, "claim: digits, then #")
    digits = (entry.digits + key).lstrip("0") or "0"
    if int(digits) > MAX_CLAIM:
        return _refuse(entry, "a claim is 0 to {most}", most=MAX_CLAIM)
    return replace(entry, digits=digits), Outcome()


# --- a deal pegged by hand --------------------------------------------------------------------


def _by_hand(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    """A deal without a starter: points then a side peg it; in the show, points tell hands."""
    four = entry.layout is Layout.FOUR_BY_FOUR
    digits = entry.digits
    if key == "*":
        return replace(entry, digits=digits[:-1]), Outcome()
    if key == "D" and four:
        return replace(entry, mode=Mode.PEG), Outcome()
    if four and key in ("A", "B", "C"):  # a side: the points typed, or 1
        return _peg_commit(entry, "ABC".index(key), situation)
    show = situation.view.phase is Phase.SHOW
    if key == "#":
        if not digits:
            if show:
                return _refuse(entry, "type its points (0: none)")
            return entry.cleared(), Outcome((Next(),))  # the play is over
        if not four and not show:  # 3x4: # then 1-3 picks a side, # again the first hand
            return replace(entry, mode=Mode.PEG_SIDE), Outcome()
        return _tell(entry, situation)
    if not key.isdigit():
        return _refuse(entry, "key {key} means nothing here: points, then a side", key=key)
    typed = str(int(digits + key))
    if show and int(typed) > MAX_HAND:
        return _refuse(entry, "a hand is worth at most {most}", most=MAX_HAND)
    if int(typed) > MAX_PEG:
        return _refuse(entry, "a peg is at most {most}", most=MAX_PEG)
    if show and is_whole(typed):  # no hand scores 30: 0 and 3-9 need no second digit
        return _tell(replace(entry, digits=typed), situation)
    return replace(entry, digits=typed), Outcome()


def _tell(entry: EntryState, situation: Situation) -> tuple[EntryState, Outcome]:
    """The hand up told by the points typed; from the play, the play ends first."""
    points = int(entry.digits)
    if points > MAX_HAND:
        words = N_("a hand is worth at most {most}: a side key pegs {points}")
        return _refuse(entry, words, most=MAX_HAND, points=points)
    if situation.view.phase is Phase.PLAY:  # the first hand of the show is never the crib
        return entry.cleared(), Outcome((Next(), count_by_points(points, crib=False)))
    return entry.cleared(), Outcome((count_by_points(points, crib=situation.up is None),))


def _count(
    entry: EntryState, situation: Situation, claim: int | None
) -> tuple[EntryState, Outcome]:
    """The show's commands: suits chosen for the answers, the deal re-entered if need be."""
    crib = situation.up is None
    held, typed = _prefilled(situation), entry.ranks
    facts = HandFacts((), crib, entry.flush, entry.nobs)
    suited = suit_hand(situation.deal_cards, situation.shown, held, typed, facts)
    if suited is None:
        back = replace(entry, mode=Mode.TYPING, flush=0, nobs=False, digits="")
        return _refuse(back, "those suits are impossible with the cards entered")
    hand, changes = suited
    shown: Command = Crib(hand) if crib else Show(hand)
    tail: tuple[Command, ...] = ((Claim(claim),) if claim is not None else ()) + (shown,)
    if changes:
        tail = (*reenter(situation.deal_commands, changes), *tail)
    return entry.cleared(), Outcome(tail)


# --- manual pegs and the menu ---------------------------------------------------------------


def _peg_mode(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    sides = situation.rules.sides
    if entry.mode is Mode.PEG_SIDE:
        if key == "*":
            return replace(entry, mode=Mode.PEG), Outcome()
        if key.isdigit() and 1 <= int(key) <= sides:
            return _peg_commit(entry, int(key) - 1, situation)
        if key == "#" and (situation.by_hand or situation.view.phase is Phase.SHOW):
            return _tell(entry, situation)  # no side: the hand up for counting
        return _refuse(entry, "side? 1 to {sides}", sides=sides)
    if key == "*":
        if entry.digits:
            return replace(entry, digits=entry.digits[:-1]), Outcome()
        return entry.cleared(), Outcome()
    if key == "D":
        return entry.cleared(), Outcome()
    side = _peg_button(key)
    if side is None and entry.layout is Layout.FOUR_BY_FOUR and key in "ABC" and len(key) == 1:
        side = "ABC".index(key)
    if side is not None:
        return _peg_commit(entry, side, situation)
    if key == "#":
        if not entry.digits:
            return _refuse(entry, "peg: type the points first")
        return replace(entry, mode=Mode.PEG_SIDE), Outcome()
    if key.isdigit():
        digits = str(int(entry.digits + key))
        if int(digits) > MAX_PEG:
            return _refuse(entry, "a peg is at most {most}", most=MAX_PEG)
        return replace(entry, digits=digits), Outcome()
    return _refuse(entry, "peg: points, then the side")


def _peg_commit(entry: EntryState, side: int, situation: Situation) -> tuple[EntryState, Outcome]:
    """Peg the points typed (none typed: 1) to *side*."""
    sides = situation.rules.sides
    if side >= sides:
        return _refuse(entry, "no side {side}: this game has {sides}", side=side, sides=sides)
    points = int(entry.digits or "1")
    if points < 1:
        return _refuse(entry, "a peg is 1 or more")
    return entry.cleared(), Outcome((Peg(side, points),))


def _name_side(key: str) -> int | None:
    """The side whose name *key* picks in the menu: A, B, C or a peg button; None: no side."""
    if len(key) == 1 and key in NAME_KEYS:
        return NAME_KEYS.index(key)
    return _peg_button(key)


def _menu(entry: EntryState, key: str, situation: Situation) -> tuple[EntryState, Outcome]:
    choice = entry.menu or MenuChoice.of(
        situation.view, situation.rules, entry.roster, entry.language
    )
    if key == "*":  # back, idle again unless something was typed before (it opens afresh)
        return replace(entry, mode=entry.back, menu=None, menu_cursor=0), Outcome()
    if key == "#":  # walk down the list (a small screen shows a few lines at a time)
        last = entry.menu_cursor + 1 >= menu_size(choice, entry.sound)
        if last and entry.layout is Layout.THREE_BY_FOUR:
            # no D on a 3x4: past the last line comes the head-to-head page, as D shows it
            return entry.cleared(), Outcome(request=ShowRecord())
        cursor = (entry.menu_cursor + 1) % menu_size(choice, entry.sound)
        return replace(entry, menu_cursor=cursor), Outcome()
    if key == "D" and entry.layout is Layout.FOUR_BY_FOUR:  # the head-to-head page
        return entry.cleared(), Outcome(request=ShowRecord())
    side = _name_side(key)
    if side is not None:
        return _menu_name(entry, choice, side)
    item = MENU.get(key)
    if item is None:
        if entry.layout is Layout.FOUR_BY_FOUR:
            return _refuse(entry, "menu: 0-9, A-C names, # next, * leaves")
        return _refuse(entry, "menu: 0 to 9, # next line, * leaves")
    entry = replace(entry, menu_cursor=list(MENU).index(key))
    variants = list(Variant)
    match item:
        case "next":
            return entry.cleared(), Outcome((Next(),))
        case "end deal":
            return entry.cleared(), Outcome((NextDeal(),))
        case "undo":
            return entry.cleared(), Outcome((Undo(),))
        case "redo":
            return entry.cleared(), Outcome((Redo(),))
        case "variant":
            current = choice.rules.variant
            nxt = variants[(variants.index(current) + 1) % len(variants)]
            return replace(entry, menu=choice.with_variant(nxt)), Outcome()
        case "muggins":
            return replace(entry, menu=choice.next_muggins()), Outcome()
        case "match":
            return replace(entry, menu=choice.next_format()), Outcome()
        case "skunk":
            skunk = choice.next_skunk()
            if skunk is None:
                variant = _t(entry, variant_name(choice.rules.variant))
                return _refuse(entry, "no lurch in {variant}", variant=variant)
            return replace(entry, menu=skunk), Outcome()
        case "starter":
            return replace(entry, menu=choice.toggle_starter()), Outcome()
        case _:
            names = choice.names or None
            request = NewMatch(choice.rules, choice.match_format, names)
            return entry.cleared(), Outcome(request=request)


def _menu_name(entry: EntryState, choice: MenuChoice, side: int) -> tuple[EntryState, Outcome]:
    """The next roster name for *side* in the menu, its line under the cursor."""
    sides = choice.rules.sides
    if side >= sides:
        variant = _t(entry, variant_name(choice.rules.variant))
        words = N_("no side {side}: {variant} has {sides}")
        return _refuse(entry, words, side=side + 1, variant=variant, sides=sides)
    entry = replace(entry, menu_cursor=len(MENU) + side)
    if not choice.roster:
        return _refuse(entry, "no names to pick: add [game] roster")
    named = choice.next_name(side)
    if named is None:
        return _refuse(entry, "no other roster name is free")
    return replace(entry, menu=named), Outcome()
