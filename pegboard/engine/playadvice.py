"""Play advice: which card to lay, each with its exact expected net pegging points.

Theory of operation
-------------------
The play is a game of imperfect information, so "exact" is exact against a stated model
(``BACKGROUND.md``, "Pegging strength"):

* **The opponent's hand** is every holding of its cards left that is consistent with what the
  player has seen (their own dealt cards, the starter, the cards laid, any other cards named as
  seen, and each go the opponent said: a go at count *c* means none of its cards held then fits
  on *c*), all equally likely; or, as an option (``Belief.DISCARDS``, ``playbelief``), each as
  often as the opponent's possible deals lead to it when it keeps what the exact discard advice
  keeps.
* **The opponent plays a named policy** (``Opponent``): today ``greedy``, the self-play's greedy
  play (``selfplay.choose_card``: the card that pegs most at once, avoiding 5 and 21, then the
  highest).
* **The player** lays each legal card and then plays on as well as possible, knowing at each
  later turn the ranks the opponent has laid and the goes it said (a best response to the
  policy, not a game-theoretic optimum). Which suit a policy picks among its cards of one rank
  is taken as no information (``choose_card`` breaks that tie by suit; reading it would be an
  artefact of the tie-break, not of play).
* **Reading the opponent's cards laid** (``reads=True``, as the advised self-play does):
  only the holdings from which the policy would have laid the ranks it laid remain (a greedy
  lead of a 7 says it holds nothing higher); when none would, nothing is read.

The figure for a card is the expectation, over those holdings, of the player's pegging points
from this card to the end of the play minus the opponent's (the card's own points, go, last, 31
included; the show is not). Every figure is a ratio of two integers, so equal cards compare equal.

How it is computed: ``playsearch``.

Variants: the two-player ones (six-card, five-card with its single series, two-in-the-crib), and
the optional rule that the starter counts in play. Three and four players are not covered:
asking raises ``PlayAdviceError``.

>>> from .cards import parse_cards
>>> advice = advise_play(
...     parse_cards("5H 10D 4C 4S"), [], Card.parse("KH"), dealer=False,
...     seen=parse_cards("QC 9D"))
>>> [str(option.card) for option in advice.options][:2], advice.holdings
(['4C', '10D'], 148995)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from pegboard.errors import IllegalPlayError, InvalidHandError, PegboardError
from pegboard.frozen import frozen

from .cards import DECK, Card, format_cards
from .play import MAX_COUNT, PlayState
from .playbelief import Belief, discard_weights, uniform_holdings
from .playsearch import ME, OPP, Position, forget, greedy_chose, pack, rank_points_of
from .rules import Rules

__all__ = [
    "Belief",
    "Opponent",
    "PlayAdvice",
    "PlayAdviceError",
    "PlayOption",
    "Position",
    "advise_play",
    "forget",
    "position_of",
    "rank_points_of",
]


class PlayAdviceError(PegboardError, ValueError):
    """A position the play advice does not cover (or that cannot happen)."""


class Opponent(enum.Enum):
    """The policy the opponent is assumed to play."""

    GREEDY = "greedy"
    """``selfplay.choose_card``: most points at once, then not leaving 5 or 21, then highest."""

    @property
    def description(self) -> str:
        """How the policy plays, in a line."""
        return (
            "lays the card that pegs most at once, then one not leaving the count on 5 or 21, "
            "then the highest"
        )


@frozen
class PlayOption:
    """One legal action with its exact expected net pegging points for the rest of the play.

    ``card`` is None for a go (the only action when no card fits). ``points`` is what the card
    pegs at once (fifteen, pairs, run, 31; not go or last).
    """

    card: Card | None
    points: int
    net_ev: float


@frozen
class PlayAdvice:
    """Every legal action, best first, and the model the figures are exact under."""

    options: tuple[PlayOption, ...]
    count: int
    opponent: Opponent
    holdings: int
    """How many opponent holdings (sets of cards) are consistent with what was seen."""
    unseen: int
    """How many cards the player has not seen (the opponent's holdings are drawn from them)."""
    opponent_cards: int
    belief: Belief = Belief.UNIFORM
    deals: float = 0.0
    """``Belief.DISCARDS``: how many of the opponent's possible deals the advice keeps the
    cards laid and a holding from (ties count as fractions); 0 otherwise."""
    reads: bool = False
    """The opponent's cards laid were read as its policy's choices (``advise_play``)."""

    @property
    def model(self) -> str:
        """The model in one sentence."""
        if self.belief is Belief.DISCARDS:
            deals = f"{self.deals:,.0f}" if self.deals == int(self.deals) else f"{self.deals:,.2f}"
            likely = (
                "each as often as its possible deals keep it by the exact discard advice, ties "
                f"shared: {deals} deals"
            )
        else:
            likely = "equally likely"
        if self.reads:
            likely += f"; only those from which {self.opponent.value} would have laid its cards"
        return (
            f"opponent holds {self.opponent_cards} of the {self.unseen} unseen cards "
            f"({self.holdings} holdings consistent with the cards seen and its goes, {likely}) "
            f"and plays {self.opponent.value} ({self.opponent.description}); you play "
            "each later card as well as possible, seeing the ranks it lays and its goes"
        )


def position_of(
    held: Sequence[Card],
    laid: Sequence[Card | None],
    starter: Card,
    *,
    dealer: bool,
    rules: Rules | None = None,
    seen: Sequence[Card] = (),
    belief: Belief = Belief.UNIFORM,
    reads: bool = False,
) -> tuple[Position, PlayState, int]:
    """The rank position for the player to act, the card-level state, and the unseen count.

    *laid* is every action of the play so far in order from the lead: a card, or None for a go.

    Raises:
        PlayAdviceError: not a two-player variant, not the player's turn, or the play is over,
            or (``Belief.DISCARDS``) no deal of the opponent's is consistent with the advice.
        InvalidHandError: a card named twice, or the hand and the cards laid do not add up.
        IllegalPlayError: the actions cannot happen under the rules.
    """
    rules = Rules.six_card() if rules is None else rules
    if rules.players != 2:
        raise PlayAdviceError(
            f"play advice covers the two-player variants only (six-card, five-card, "
            f"two-in-the-crib), not {rules.variant.value}"
        )
    me = 1 if dealer else 0
    hand = tuple(held)
    known = [*hand, starter, *seen, *(card for card in laid if card is not None)]
    if len(set(known)) != len(known):
        twice = next(card for card in known if known.count(card) > 1)
        raise InvalidHandError(f"card {twice} is named twice (hand, starter, laid and seen)")
    state = PlayState.start(rules, 1, starter=starter, excluded=seen)
    went_at: list[tuple[int, int]] = []  # (count, its cards laid by then) at its goes
    mine_went: list[tuple[int, int]] = []  # (count, cards of mine laid by then) at my goes
    mine_laid: list[Card] = []
    theirs_laid: list[Card] = []
    choices: list[tuple[tuple[int, ...], int, int, int]] = []
    for action in laid:
        if state.turn is None:
            raise PlayAdviceError("the play is over: nothing is left to advise")
        if action is None:
            if state.turn != me:
                went_at.append((state.count, len(theirs_laid)))
            else:
                mine_went.append((state.count, len(mine_laid)))
            state, _ = state.go()
        else:
            if state.turn != me:  # what the policy chose, and from where
                choices.append((tuple(c.rank.value for c in state.series), state.count,
                                action.rank.value, len(theirs_laid)))  # fmt: skip
            (mine_laid if state.turn == me else theirs_laid).append(action)
            state, _ = state.play(action)
    for count, before in mine_went:  # the cards held at a go of mine: none may have fitted
        fits = [c for c in (*mine_laid[before:], *hand) if c.pips <= MAX_COUNT - count]
        if fits:
            raise IllegalPlayError(
                f"cannot say go: {fits[0]} fits (count is {count}) and you held it then"
            )
    for count, before in went_at:  # nor may a card the opponent laid after its go
        fits = [c for c in theirs_laid[before:] if c.pips <= MAX_COUNT - count]
        if fits:
            raise IllegalPlayError(
                f"the opponent said go at {count} but later laid {fits[0]}, which fitted then"
            )
    if state.turn is None:
        raise PlayAdviceError("the play is over: nothing is left to advise")
    if state.turn != me:
        raise PlayAdviceError("it is the opponent's turn, not yours (check the cards laid)")
    left = state.cards_left
    if left[me] != len(hand):
        raise InvalidHandError(
            f"you hold {len(hand)} cards ({format_cards(hand) or 'none'}) but the cards laid "
            f"leave you {left[me]} to lay (expected {left[me]} cards held)"
        )
    out = set(known)
    counts = [0] * 14
    for card in DECK:
        if card not in out:
            counts[card.rank] += 1
    unseen = sum(counts)
    limit = MAX_COUNT - min(count for count, _ in went_at) if went_at else 0  # cards held: over
    held_by = uniform_holdings(tuple(counts), left[1 - me], limit)
    if not held_by:
        raise PlayAdviceError("no holding of the opponent is consistent with the cards seen")
    holdings = sum(weight for _, weight in held_by)
    deals = 0.0
    if belief is Belief.DISCARDS:
        found = discard_weights([card for card in DECK if card not in out], theirs_laid,
                                left[1 - me], limit, rules, dealer=not dealer)  # fmt: skip
        held_by = tuple((pack(ranks), weight) for ranks, weight in sorted(found.weights.items()))
        if not held_by:
            raise PlayAdviceError(
                "no deal of the opponent's consistent with the cards seen keeps, by the exact "
                "discard advice, the cards it laid (try the uniform belief)"
            )
        deals = found.deals
    read: tuple[tuple[int, int], ...] = ()
    if reads and choices:  # nothing is read when no holding fits the policy's choices
        later = tuple(card.rank.value for card in theirs_laid)
        read = tuple(item for item in held_by if greedy_chose(item[0], choices, later))
    series = tuple(card.rank.value for card in state.series)
    went = sum(1 << (ME if seat == me else OPP) for seat in state.said_go)
    last = -1
    if series:
        last = ME if state.laid[-1][0] == me else OPP
    position = Position(
        mine=tuple(sorted(card.rank.value for card in hand)),
        belief=read or held_by,
        opp_left=left[1 - me],
        series=series,
        count=state.count,
        went=went,
        last=last,
        single_series=rules.single_series,
        holdings=holdings,
        deals=deals,
        reads=bool(read),
    )
    return position, state, unseen


def advise_play(
    held: Sequence[Card],
    laid: Sequence[Card | None],
    starter: Card,
    *,
    dealer: bool,
    rules: Rules | None = None,
    seen: Sequence[Card] = (),
    opponent: Opponent = Opponent.GREEDY,
    belief: Belief = Belief.UNIFORM,
    reads: bool = False,
) -> PlayAdvice:
    """Every legal card for the player to act with its exact expected net pegging points.

    *held* is the player's cards still held; *laid* every action so far in order from the lead
    (a card, or None for a go); *dealer* whether the player deals; *seen* any other cards the
    player has seen (their own discards, a card shown by accident). Options are best first;
    equal figures go lowest card first. *belief* says how likely each holding of the
    opponent's is (``playbelief``); *reads*, whether its cards laid are read as the policy's
    choices. See the module for the model.

    Raises:
        PlayAdviceError: not a two-player variant, not the player's turn, the play is over.
        InvalidHandError: a card named twice, or the hand and the cards laid do not add up.
        IllegalPlayError: the actions cannot happen under the rules.
    """
    position, state, unseen = position_of(
        held, laid, starter, dealer=dealer, rules=rules, seen=seen, belief=belief, reads=reads
    )
    total = sum(weight for _, weight in position.belief)
    figures = rank_points_of(position)
    options = []
    hand = sorted(held)
    for rank, (now, value) in figures.items():
        card = None if rank == 0 else next(c for c in hand if c.rank == rank)
        options.append(PlayOption(card=card, points=now, net_ev=value / total))
    options.sort(key=lambda o: (-o.net_ev, -1 if o.card is None else o.card.index))
    return PlayAdvice(
        options=tuple(options),
        count=state.count,
        opponent=opponent,
        holdings=position.holdings,
        unseen=unseen,
        opponent_cards=position.opp_left,
        belief=belief,
        deals=position.deals,
        reads=position.reads,
    )
