"""Self-play: one deal between equal players who follow pegboard's own strategy.

This is the policy behind the win probabilities (``odds.py``): their tables are built from
deals played here, and the benchmark plays whole games with the same choices.

The policy
----------
* **Discards**: every player lays away the best option of ``advice.advise`` (the exact expected
  show points of hand and crib; the crib counts for the player, the partner or against, as it
  falls), with advise's own tie-breaks. The advice is the same for two hands that differ only by
  a renaming of the suits, so ``Advisor`` asks once per such class and maps the answer back;
  its choice is always advise's first option (a test holds it to that).
* **The play**: greedy. The seat to act lays the legal card that pegs most at once
  (``score_play``); among equals it avoids leaving the count on 5 or 21 (where any ten-card makes
  15 or 31 for the next player), then lays the highest card (low cards are kept for the end of a
  series, where they make go and 31), then the highest in card order. A seat with no card that
  fits says go. Nobody counts cards or guesses at the other hands.
* **The play, advised** (``PlayPolicy.ADVISED``, two players only): the seat lays the first
  card of the exact play advice (``playadvice.advise_play``: a best response to the greedy
  play, against every holding of the other seat consistent with what this seat has seen,
  its own discards included, and with the cards the other seat laid read as greedy's choices,
  ``reads=True``), the lowest card among equals; it says go when none fits. It plays against
  greedy or against itself; the advice always models the other seat as greedy (against
  itself, a choice no greedy holding would make is not read).
  **The lead** is the exact advice too, but for a player who has forgotten its own discards:
  it then depends only on the ranks held and the starter's rank, so it comes from a book
  worked out at build time (``openings``; where no book ships, ``Advisor`` works each lead out
  once and remembers it). Without it, the lead's search is two thirds of an advised deal's
  cost. Every later card, the dealer's first included, sees the discards.
* **The show**: every hand and the crib are counted in full (no muggins).

A deal is recorded as a ``DealTrace``: every peg in the order the game pegs them (heels, each
peg of the play with how many cards were laid by then, each hand of the show from the dealer's
left round to the dealer, then the crib). Who reaches the target first inside a deal can be read
off that order exactly.

>>> import random
>>> trace = play_deal(Rules.six_card(), 0, random.Random(7))
>>> sum(p.points for p in trace.pegs if p.stage is Stage.PLAY) >= 1  # a last card is pegged
True
>>> [p.stage.value for p in trace.pegs][-3:]
['show', 'show', 'crib']
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .advice import CribOwner, advise
from .cards import DECK, Card, Rank, shuffled_deck
from .play import PlayState, score_play
from .rules import Rules
from .scoring import score_total

if TYPE_CHECKING:
    from .openings import LeadBook

__all__ = [
    "Advisor",
    "DealPeg",
    "DealTrace",
    "PlayPolicy",
    "Stage",
    "advised_card",
    "choose_card",
    "deal_cards",
    "lay_card",
    "play_deal",
    "seat_plays",
]


class PlayPolicy(enum.Enum):
    """How a seat chooses its cards in the play."""

    GREEDY = "greedy"
    """``choose_card``: most points at once, then not leaving 5 or 21, then the highest."""
    ADVISED = "advised"
    """``advised_card``: the exact play advice's first card (a best response to greedy)."""


class Stage(enum.Enum):
    """When in a deal a peg happened."""

    HEELS = "heels"
    PLAY = "play"
    SHOW = "show"
    CRIB = "crib"


@dataclass(frozen=True, slots=True)
class DealPeg:
    """One peg of a deal: who (a seat), how many points, when.

    ``step`` is, in the play, how many cards had been laid when the peg was made; in the show,
    which hand it was (0 for the dealer's left, ...); 0 for heels and the crib.
    """

    seat: int
    points: int
    stage: Stage
    step: int = 0


@dataclass(frozen=True, slots=True)
class DealTrace:
    """One deal as pegged: the dealer's seat and every peg in the order the game makes them."""

    dealer: int
    pegs: tuple[DealPeg, ...]


class Advisor:
    """``advise(...)[0]`` for the self-play, remembered per hand up to a renaming of the suits.

    >>> from .cards import parse_cards
    >>> advisor = Advisor(Rules.six_card())
    >>> dealt = parse_cards("5H 5D 5S JC KS 9H")
    >>> advisor.best(dealt, CribOwner.OPPONENT) == advise(dealt, dealer=False)[0].keep
    True
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._known: dict[tuple[object, ...], list[tuple[tuple[int, int], ...]]] = {}
        self._leads: dict[tuple[tuple[int, ...], int], int] = {}

    def best(self, dealt: Sequence[Card], owner: CribOwner) -> tuple[Card, ...]:
        """The cards to keep from *dealt*: those of advise's first option, in card order.

        Raises:
            InvalidHandError: *dealt* is not a deal of ``rules.dealt`` distinct cards.
        """
        by_suit: list[list[int]] = [[], [], [], []]
        for card in dealt:
            by_suit[card.suit.index].append(card.index)  # card order is rank order in a suit
        # suits ordered by the ranks they hold: two suits holding the same ranks are
        # interchangeable, so any order between them gives the same canonical hand
        ranks = [tuple(index >> 2 for index in held) for held in by_suit]
        order = sorted(range(4), key=lambda s: (-len(ranks[s]), ranks[s]))
        key = (owner.value, *(ranks[s] for s in order))
        tops = self._known.get(key)
        if tops is None:
            canonical = [DECK[rank * 4 + i] for i, s in enumerate(order) for rank in ranks[s]]
            options = advise(canonical, rules=self.rules, crib_owner=owner)
            first = options[0]
            tops = [
                tuple((card.index >> 2, card.index & 3) for card in option.discard)
                for option in options
                if (option.net_ev, option.hand_ev) == (first.net_ev, first.hand_ev)
            ]
            self._known[key] = tops
        # back to the real suits; among equal options advise lays away the lowest in card order
        discard = min(tuple(sorted(rank * 4 + order[i] for rank, i in top)) for top in tops)
        return tuple(
            DECK[index] for index in sorted(c.index for c in dealt) if index not in discard
        )

    @functools.cached_property
    def _book(self) -> LeadBook | None:
        """The shipped lead book for the rules, read at the first lead (None: none ships)."""
        from .openings import lead_book

        return lead_book(self.rules)

    def lay(
        self, state: PlayState, actions: Sequence[Card | None], discards: Sequence[Card]
    ) -> Card | None:
        """The advised policy's card for the seat to act (see the module); None means go.

        Raises:
            ValueError: the hands are not known, or the play is over.
        """
        if actions:
            return advised_card(state, actions, discards)
        _, held, starter_card = _to_act(state)
        ranks = tuple(sorted(card.rank.value for card in held))
        from .openings import work_out

        starter = starter_card.rank.value
        if self._book is not None:
            lead = self._book.lead(ranks, starter)
        else:  # no book ships for these rules: each lead is worked out once, as it comes
            lead = self._leads.get((ranks, starter), 0)
            if not lead:
                lead = self._leads[ranks, starter] = work_out(ranks, starter, self.rules)
        # advise_play lays the lowest card of the rank it chose
        return min(card for card in held if card.rank.value == lead)


def seat_plays(rules: Rules, play: PlayPolicy) -> tuple[PlayPolicy, ...]:
    """Each seat's play when *play* is asked: greedy where the advice does not reach (more than
    two players)."""
    return (play if rules.players == 2 else PlayPolicy.GREEDY,) * rules.players


def lay_card(
    policy: PlayPolicy,
    advisor: Advisor,
    state: PlayState,
    actions: Sequence[Card | None],
    discards: Sequence[Card],
) -> Card | None:
    """The card *policy* lays for the seat to act (None: go); *actions* is the play so far and
    *discards* the seat's own (the advised play's, see ``Advisor.lay``).

    Raises:
        ValueError: the hands are not known, or the play is over.
    """
    if policy is PlayPolicy.ADVISED:
        return advisor.lay(state, actions, discards)
    return choose_card(state)


def choose_card(state: PlayState) -> Card | None:
    """The greedy play for the seat to act (see the module's policy); None means go.

    Raises:
        ValueError: the hands are not known (the policy needs the seat's cards).
    """
    legal = state.legal_cards()
    if legal is None:
        raise ValueError("the self-play policy needs known hands")
    if not legal:
        return None
    series, count = state.series, state.count
    base = count - sum(card.pips for card in series)

    def key(card: Card) -> tuple[int, int, int, int]:
        points = score_play((*series, card), base_count=base).total
        after = count + card.pips
        return (points, after not in (5, 21), card.pips, card.index)

    return max(legal, key=key)


def advised_card(
    state: PlayState, actions: Sequence[Card | None], discards: Sequence[Card]
) -> Card | None:
    """The exact play advice's first card for the seat to act (two players); None means go.

    *actions* is every action of the play so far (None for a go), *discards* the seat's own.

    Raises:
        ValueError: the hands are not known, or the play is over.
    """
    from .playadvice import advise_play

    seat, held, starter = _to_act(state)
    advice = advise_play(
        held, actions, starter, dealer=seat == state.dealer,
        rules=state.rules, seen=discards, reads=True,
    )  # fmt: skip
    return advice.options[0].card


def _to_act(state: PlayState) -> tuple[int, tuple[Card, ...], Card]:
    """The seat to act, its cards and the starter, for the advised policy.

    Raises:
        ValueError: the hands or the starter are not known, or the play is over.
    """
    seat = state.turn
    if state.hands is None or seat is None or state.starter is None:
        raise ValueError("the advised policy needs known hands, a starter and a seat to act")
    return seat, tuple(state.hands[seat]), state.starter


def deal_cards(rules: Rules, rng: random.Random) -> tuple[list[list[Card]], list[Card], Card]:
    """A shuffled deal: each seat's dealt cards, the cards from the pack to the crib, the starter.

    The cards are drawn from one shuffled pack; the starter is the card after them.
    """
    deck = shuffled_deck(rng)
    size = rules.dealt
    dealt = [deck[seat * size : (seat + 1) * size] for seat in range(rules.players)]
    used = rules.players * size
    return dealt, deck[used : used + rules.pack_to_crib], deck[used + rules.pack_to_crib]


def crib_owner(rules: Rules, seat: int, dealer: int) -> CribOwner:
    """Whose crib it is from *seat*'s chair."""
    if seat == dealer:
        return CribOwner.OWN
    if rules.side_of(seat) == rules.side_of(dealer):
        return CribOwner.PARTNER
    return CribOwner.OPPONENT


def play_deal(
    rules: Rules,
    dealer: int,
    rng: random.Random,
    advisor: Advisor | None = None,
    policies: Sequence[PlayPolicy] | None = None,
) -> DealTrace:
    """Deal, discard, cut, play and count one deal by the policy; every peg in order.

    *policies* is each seat's play (greedy for every seat by default); the deal itself (the
    cards, the discards) does not depend on them, so the same *rng* state deals the same deck
    whatever they are. The trace runs to the end of the deal whatever the scores: the caller
    decides where the target was reached.

    Raises:
        ValueError: no seat *dealer*; a policy per seat is not given; an advised seat in a
            game of more than two players.
    """
    if not 0 <= dealer < rules.players:
        raise ValueError(f"no seat {dealer!r} to deal in a {rules.players}-player game")
    plays = tuple(policies) if policies is not None else (PlayPolicy.GREEDY,) * rules.players
    if len(plays) != rules.players:
        raise ValueError(f"expected a play policy per seat ({rules.players}), got {len(plays)}")
    if PlayPolicy.ADVISED in plays and rules.players != 2:
        raise ValueError("the advised play covers two-player variants only")
    advisor = Advisor(rules) if advisor is None else advisor
    dealt, crib, starter = deal_cards(rules, rng)
    hands = []
    discards = []
    for seat, cards in enumerate(dealt):
        keep = advisor.best(cards, crib_owner(rules, seat, dealer))
        hands.append(keep)
        discards.append([card for card in cards if card not in keep])
        crib.extend(discards[-1])
    pegs: list[DealPeg] = []
    if starter.rank is Rank.JACK:  # his heels, before anything else
        pegs.append(DealPeg(dealer, 2, Stage.HEELS))
    state = PlayState.start(rules, dealer, starter=starter, hands=hands)
    laid = 0
    actions: list[Card | None] = []
    while not state.is_over:
        mover = state.turn
        assert mover is not None
        card = lay_card(plays[mover], advisor, state, actions, discards[mover])
        actions.append(card)
        if card is None:
            state, scores = state.go()
        else:
            state, scores = state.play(card)
            laid += 1
        pegs.extend(DealPeg(s.seat, s.points, Stage.PLAY, laid) for s in scores)
    # the show: from the dealer's left round to the dealer, then the crib; unplayed cards
    # (five-card cribbage) are still in hand, so each seat shows the hand it kept
    for step in range(rules.players):
        seat = (dealer + 1 + step) % rules.players
        points = score_total(hands[seat], starter, rules=rules)
        if points:
            pegs.append(DealPeg(seat, points, Stage.SHOW, step))
    points = score_total(crib, starter, crib=True, rules=rules)
    if points:
        pegs.append(DealPeg(dealer, points, Stage.CRIB))
    return DealTrace(dealer, tuple(pegs))
