"""The show: itemised scores for a hand or crib with the starter, and the words players say.

A score is data, not an int: a ``Breakdown`` holds one ``ScoreItem`` per scoring combination
(three of a kind is three ``PAIR`` items) and its ``total`` is their sum. ``show_calls`` turns a
breakdown into the words a player says while counting ("fifteen 2", "a pair is 6").

Two ways to score a show, which always agree:

``score_hand`` / ``score_crib``
    Itemised: every fifteen, pair and run with its cards, then flush and nobs, in the order
    players count them. For the table, the command line and muggins.
``score_total``
    Just the number, fast: ``rank_points`` on the ranks plus flush and nobs. For statistics
    and the discard advice.

``rank_points`` scores fifteens, pairs and runs from ranks alone; everything suit-dependent
(flush, nobs) is separate. That split is what makes the exact statistics and the discard
advice fast: there are only 6,175 multisets of five ranks a deal can hold.

The variant changes one thing in the show, the crib flush (``Rules.crib_flush``: 5, but 4 in
five-card cribbage), so the scorers take *rules* for it and default to six-card.

>>> from .cards import Card, parse_cards
>>> score_hand(parse_cards("5H 5D 5S JC"), Card.parse("5C")).total
29
>>> score_total(parse_cards("4H 5C 5D 6H"), Card.parse("6S"))
24
>>> rank_points((5, 5, 5, 11, 5))
28
>>> rank_points((6, 7, 7, 8))
12
"""

from __future__ import annotations

import enum
import itertools
import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pegboard.errors import InvalidHandError

from .cards import Card, Rank, Suit, format_cards
from .rules import Rules

__all__ = [
    "Breakdown",
    "ScoreItem",
    "ScoreKind",
    "describe_item",
    "play_called",
    "play_name",
    "play_words",
    "rank_points",
    "score_crib",
    "score_hand",
    "score_heels",
    "score_total",
    "show_calls",
]


class ScoreKind(enum.Enum):
    """Every kind of combination that scores, in the show or in the play."""

    FIFTEEN = "fifteen"
    PAIR = "pair"
    RUN = "run"
    FLUSH = "flush"
    NOBS = "nobs"
    HEELS = "heels"
    THIRTY_ONE = "thirty-one"
    GO = "go"
    LAST = "last"
    PONE_BONUS = "three for last"  # five-card: the first non-dealer's compensation
    MUGGINS = "muggins"
    MANUAL = "peg"  # a peg entered by hand at the table


@dataclass(frozen=True, slots=True)
class ScoreItem:
    """One scoring combination: its kind, the cards that made it, and its points."""

    kind: ScoreKind
    cards: tuple[Card, ...]
    points: int


@dataclass(frozen=True, slots=True)
class Breakdown:
    """An itemised score. ``total`` is always the sum of the items."""

    items: tuple[ScoreItem, ...] = ()

    @property
    def total(self) -> int:
        """The points of all items together."""
        return sum(map(_points_of, self.items))

    def of_kind(self, kind: ScoreKind) -> tuple[ScoreItem, ...]:
        """The items of one kind, in order."""
        return tuple(item for item in self.items if item.kind is kind)

    def __add__(self, other: Breakdown) -> Breakdown:
        return Breakdown(self.items + other.items)


_points_of = operator.attrgetter("points")

# ``score_hand`` builds its items and breakdown field by field through their slots, which
# skips the frozen dataclasses' ``__init__`` and its ``object.__setattr__`` calls (they have
# no ``__post_init__`` to skip; should one get a check, build them the ordinary way again).
_new_object = object.__new__
_SetSlot = Callable[[object, object], None]
_set_kind: _SetSlot = vars(ScoreItem)["kind"].__set__
_set_cards: _SetSlot = vars(ScoreItem)["cards"].__set__
_set_points: _SetSlot = vars(ScoreItem)["points"].__set__
_set_items: _SetSlot = vars(Breakdown)["items"].__set__


def _new_item(kind: ScoreKind, cards: tuple[Card, ...], points: int) -> ScoreItem:
    """``ScoreItem(kind, cards, points)``, in half the time."""
    item = _new_object(ScoreItem)
    _set_kind(item, kind)
    _set_cards(item, cards)
    _set_points(item, points)
    return item


def _new_breakdown(items: tuple[ScoreItem, ...]) -> Breakdown:
    """``Breakdown(items)``, in half the time."""
    breakdown = _new_object(Breakdown)
    _set_items(breakdown, items)
    return breakdown


def rank_points(ranks: Iterable[int]) -> int:
    """Points for fifteens, pairs and runs among cards given only by rank (1..13).

    Works for any number of cards. Suits never matter to these three, so the result is the
    same for every suit assignment; flush and nobs are scored separately.
    """
    return _rank_points_sorted(tuple(sorted(ranks)))


def _rank_points_sorted(ranks: tuple[int, ...]) -> int:
    if len(ranks) == 5:  # a hand or crib with its starter: every one is in the table
        return _five_rank_table()[ranks]
    return _counted_rank_points(ranks)


@cache
def _counted_rank_points(ranks: tuple[int, ...]) -> int:
    """``rank_points`` of sorted ranks, counted (any number of cards; memoised)."""
    # fifteens: number of subsets whose pips total 15, by a subset-sum count
    ways = [1] + [0] * 15
    for rank in ranks:
        pips = min(rank, 10)
        for total in range(15, pips - 1, -1):
            ways[total] += ways[total - pips]
    points = 2 * ways[15]
    counts = [0] * 15  # counts[1..13], with zero guards at 0 and 14
    for rank in ranks:
        counts[rank] += 1
    # pairs: every two cards of one rank
    points += sum(c * (c - 1) for c in counts)
    return points + _run_points(counts, 1, 13)


def _run_points(counts: list[int], lowest: int, highest: int) -> int:
    """Runs among cards given by rank counts (``counts[rank]``, zero at 0 and 14), looking at
    ranks *lowest*..*highest*: each maximal stretch of 3+ consecutive ranks scores its length
    once per distinct card combination (the product of the counts)."""
    points, length, combos = 0, 0, 1
    for rank in range(lowest, highest + 2):  # one past the highest closes the last stretch
        if counts[rank]:
            length += 1
            combos *= counts[rank]
        else:
            if length >= 3:
                points += length * combos
            length, combos = 0, 1
    return points


FIVE_RANK_POINTS = Path(__file__).with_name("data") / "rank-points-5.bin"
"""``rank_points`` of every multiset of five ranks, one byte each, in the order
``itertools.combinations_with_replacement(range(1, 14), 5)`` gives them: package data, written
by ``tools/make_tables.py`` from ``build_five_rank_points`` (a test checks they agree)."""


@cache
def _five_rank_table() -> dict[tuple[int, ...], int]:
    """``rank_points`` of every multiset of five ranks, read from the package's data.

    That is 6,188 multisets: the 6,175 a deal can hold and the 13 with five of a rank, which
    ``rank_points`` accepts like any other ranks (the advice sums over them with weight 0).
    Reading the 6 KB file takes well under a millisecond; building the table takes about
    11 ms here (a tenth of a second on a Pi Zero 2 W), which every first discard advice of a
    process would pay.
    """
    points = FIVE_RANK_POINTS.read_bytes()
    multisets = itertools.combinations_with_replacement(range(1, 14), 5)
    return dict(zip(multisets, points, strict=True))


def build_five_rank_points() -> dict[tuple[int, ...], int]:
    """``rank_points`` of every multiset of five ranks, computed in one pass.

    That is 6,188 multisets: the 6,175 a deal can hold and the 13 with five of a rank, which
    ``rank_points`` accepts like any other ranks (the advice sums over them with weight 0).

    A depth-first walk over sorted rank tuples extends the subset-sum count of fifteens and the
    pair count one card at a time, so each multiset costs one step rather than a fresh count;
    runs are read off the rank counts at the leaves: about 11 ms, a third of scoring the
    multisets one by one. ``tools/make_tables.py`` writes its values as ``FIVE_RANK_POINTS``.
    """
    table: dict[tuple[int, ...], int] = {}
    ranks = [0] * 5
    counts = [0] * 15  # counts[1..13], with zero guards at 0 and 14

    def walk(depth: int, lowest: int, ways: list[int], pairs: int) -> None:
        if depth == 5:
            table[tuple(ranks)] = 2 * ways[15] + pairs + _run_points(counts, ranks[0], ranks[4])
            return
        for rank in range(lowest, 14):
            held = counts[rank]
            pips = min(rank, 10)
            extended = ways[:]
            for total in range(15, pips - 1, -1):
                extended[total] += ways[total - pips]
            counts[rank] = held + 1
            ranks[depth] = rank
            walk(depth + 1, rank, extended, pairs + 2 * held)
            counts[rank] = held

    walk(0, 1, [1] + [0] * 15, 0)
    return table


# --- the show ----------------------------------------------------------------------------------


def _check_show(hand: Sequence[Card], starter: Card, crib: bool) -> None:
    """Reject a hand or crib of the wrong size, or with a card twice (the starter included)."""
    allowed = (4,) if crib else (3, 4)
    if len(hand) not in allowed:
        what = "crib" if crib else "hand"
        wanted = "4" if crib else "3 or 4"
        raise InvalidHandError(
            f"wrong number of cards for a {what}: {format_cards(hand)!r} has {len(hand)}, "
            f"expected {wanted} (the starter is given separately)"
        )
    what = "crib" if crib else "hand"
    seen: set[Card] = set()
    for card in hand:
        if card in seen:
            raise InvalidHandError(f"duplicate card {card} in {what} {format_cards(hand)!r}")
        seen.add(card)
    if starter in seen:
        raise InvalidHandError(
            f"duplicate card {starter}: the starter {str(starter)!r} is also in the {what} "
            f"{format_cards(hand)!r}"
        )


_SIX_CARD = Rules.six_card()
"""The rules a scorer uses when it is given none."""


# A multiset of ranks as one int, three bits per rank (a rank appears at most 4 times among
# valid cards, 5 with a duplicate): order-free, so it keys the caches below without sorting.
_RANK_BIT = [0] + [1 << (3 * rank) for rank in range(1, 14)]
_PAIRED_MASK = sum(0b110 << (3 * rank) for rank in range(1, 14))
_JACK = Rank.JACK


def _ranks_of_key(key: int) -> tuple[int, ...]:
    return tuple(rank for rank in range(1, 14) for _ in range((key >> (3 * rank)) & 0b111))


def score_hand(
    hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules | None = None
) -> Breakdown:
    """Itemised show score of *hand* (4 cards, or 3 in five-card cribbage) with the *starter*.

    The items come in the order players count: fifteens, pairs, runs, flush, nobs. Within
    each kind they follow the cards sorted by rank then suit, so the breakdown does not depend
    on the order the cards were given in. The starter appears in every item it takes part in.

    - every distinct set of cards totalling 15 pips: one ``FIFTEEN`` item, 2 points
    - every two cards of one rank: one ``PAIR`` item, 2 points (three of a kind: three items)
    - every maximal run of 3 or more ranks: one ``RUN`` item per distinct card combination,
      as many points as cards (3-4-4-5-5 gives four runs of three)
    - hand flush, all hand cards of one suit: one ``FLUSH`` item worth the number of hand
      cards, plus 1 if the starter matches; with ``crib=True`` only all five cards, for
      ``rules.crib_flush`` points (*rules* defaults to six-card: 5; five-card cribbage: 4)
    - the jack of the starter's suit in hand or crib: one ``NOBS`` item, 1 point

    Raises:
        InvalidHandError: not 3 or 4 cards (a crib: not 4), or a card given twice, counting
            the starter.

    >>> from .cards import Card, parse_cards
    >>> b = score_hand(parse_cards("7C 8D 8H KS"), Card.parse("9C"))
    >>> [(item.kind.value, item.points) for item in b.items]  # doctest: +NORMALIZE_WHITESPACE
    [('fifteen', 2), ('fifteen', 2), ('pair', 2), ('run', 3), ('run', 3)]
    >>> b.total
    12
    """
    # Hot path (the command line, muggins). Fifteens, pairs and runs depend on the ranks alone,
    # so each multiset of ranks has a template of its items as positions in the sorted cards
    # (``_show_template``): a show sorts its cards and picks each item's cards out in C. The
    # cards are read with identity tests and int arithmetic only, as in ``score_total``: enum
    # properties and ``Enum.__hash__`` (hence hashing a Card) run Python code.
    size = len(hand)
    if size != 4 and (crib or size != 3):
        _check_show(hand, starter, crib)
    bits = _RANK_BIT
    starter_suit = starter.suit
    rank = starter.rank
    key = bits[rank]
    by_index = {rank * 4 + starter_suit.index: starter}  # the same order as Card.index
    flush_suit: Suit | None = hand[0].suit
    jack = None
    for card in hand:
        rank = card.rank
        suit = card.suit
        key += bits[rank]
        by_index[rank * 4 + suit.index] = card
        if suit is not flush_suit:
            flush_suit = None
        if rank is _JACK and suit is starter_suit:
            jack = card  # nobs: the jack of the starter's suit (the starter itself never counts)
    if len(by_index) <= size:
        _check_show(hand, starter, crib)  # a card given twice: this raises
    cards: tuple[Card, ...] = operator.itemgetter(*sorted(by_index))(by_index)  # 4 or 5 cards
    template = _TEMPLATES.get(key)
    if template is None:
        template = _TEMPLATES[key] = _show_template(_ranks_of_key(key))
    items = []
    for kind, pick, points in template:
        item = _new_object(ScoreItem)
        _set_kind(item, kind)
        _set_cards(item, pick(cards))
        _set_points(item, points)
        items.append(item)
    # a hand flush needs every hand card of one suit, one point each, and the starter adds 1 if
    # it matches (three hand cards plus the starter is nothing); a crib flush needs all five
    # cards of one suit and is worth what the rules say (5, but 4 in five-card cribbage)
    if flush_suit is not None:
        if flush_suit is starter_suit:
            flush = (_SIX_CARD if rules is None else rules).crib_flush if crib else size + 1
            flushed = cards
        else:
            flush = 0 if crib else size
            flushed = tuple(card for card in cards if card is not starter)
        if flush:
            items.append(_new_item(ScoreKind.FLUSH, flushed, flush))
    if jack is not None:
        items.append(_new_item(ScoreKind.NOBS, (jack,), 1))
    return _new_breakdown(tuple(items))


_Picker = Callable[[tuple[Card, ...]], tuple[Card, ...]]
_Template = tuple[tuple[ScoreKind, _Picker, int], ...]

_TEMPLATES: dict[int, _Template] = {}
"""The show template of each multiset of ranks met so far, by its ``_RANK_BIT`` key."""


def _show_template(ranks: tuple[int, ...]) -> _Template:
    """The fifteens, pairs and runs among cards of the sorted *ranks*, in ``score_hand``'s
    order, each as (kind, the picker of its cards out of the sorted cards, points).

    One multiset takes about 25 µs, so a process builds only the ones it meets: the first
    hand it scores pays for one, where all 6,188 would take about 150 ms.
    """
    count = len(ranks)
    pips = [min(rank, 10) for rank in ranks]
    template: list[tuple[ScoreKind, _Picker, int]] = []
    for size in range(2, count + 1):
        for chosen in itertools.combinations(range(count), size):
            if sum(pips[i] for i in chosen) == 15:
                template.append((ScoreKind.FIFTEEN, _picker(chosen), 2))
    for first, second in itertools.combinations(range(count), 2):
        if ranks[first] == ranks[second]:
            template.append((ScoreKind.PAIR, _picker((first, second)), 2))
    by_rank: dict[int, list[int]] = {}
    for i, rank in enumerate(ranks):
        by_rank.setdefault(rank, []).append(i)
    stretch: list[list[int]] = []
    for rank in range(1, 15):  # 14 is a sentinel that closes the last stretch
        if rank in by_rank:
            stretch.append(by_rank[rank])
            continue
        if len(stretch) >= 3:
            for combo in itertools.product(*stretch):
                template.append((ScoreKind.RUN, _picker(combo), len(stretch)))
        stretch = []
    return tuple(template)


@cache
def _picker(positions: tuple[int, ...]) -> _Picker:
    """The cards at *positions* (two or more) as a tuple, by one ``itemgetter`` (run in C)."""
    return operator.itemgetter(*positions)


def score_crib(crib: Sequence[Card], starter: Card, *, rules: Rules | None = None) -> Breakdown:
    """Itemised show score of a *crib* (4 cards) with the *starter*: a flush needs all five.

    The flush is worth ``rules.crib_flush``: 5, but 4 in five-card cribbage (*rules* defaults
    to six-card).

    Raises:
        InvalidHandError: not 4 cards, or a card given twice, counting the starter.

    >>> from .cards import Card, parse_cards
    >>> score_crib(parse_cards("2H 4H 6H 8H"), Card.parse("KC")).total
    0
    >>> score_crib(parse_cards("2H 4H 6H 8H"), Card.parse("KH")).total
    5
    >>> from .rules import Rules
    >>> score_crib(parse_cards("2H 4H 6H 8H"), Card.parse("KH"), rules=Rules.five_card()).total
    4
    """
    return score_hand(crib, starter, crib=True, rules=rules)


def score_total(
    hand: Sequence[Card], starter: Card, *, crib: bool = False, rules: Rules | None = None
) -> int:
    """The show total of *hand* with the *starter*, fast: the same number as ``score_hand``.

    Raises:
        InvalidHandError: not 3 or 4 cards (a crib: not 4), or a card given twice, counting
            the starter.

    >>> from .cards import Card, parse_cards
    >>> score_total(parse_cards("2H 4H 6H 8H"), Card.parse("KC"))
    4
    >>> score_total(parse_cards("2H 4H 6H 8H"), Card.parse("KC"), crib=True)
    0
    >>> from .rules import Rules
    >>> flush, starter = parse_cards("2H 4H 6H 8H"), Card.parse("KH")
    >>> [score_total(flush, starter, crib=True, rules=r) for r in (None, Rules.five_card())]
    [5, 4]
    """
    # Hot path (statistics, advice, benchmarks): enums hash and read ``.value`` in Python code,
    # so everything here sticks to identity tests and int arithmetic on the IntEnum ranks.
    # The ranks are folded into one int, three bits per rank, which is order-free and keys the
    # cache of rank points without sorting.
    size = len(hand)
    if size != 4 and (crib or size != 3):
        _check_show(hand, starter, crib)
    starter_suit = starter.suit
    flush_suit: Suit | None = hand[0].suit
    bits = _RANK_BIT
    key = bits[starter.rank]
    points = 0
    for card in hand:
        rank = card.rank
        key += bits[rank]
        suit = card.suit
        if suit is not flush_suit:
            flush_suit = None
        if rank is _JACK and suit is starter_suit:
            points = 1  # nobs
    if key & _PAIRED_MASK:
        # two cards of one rank: make sure they are not the same card
        for first, second in itertools.combinations((*hand, starter), 2):
            if first.rank is second.rank and first.suit is second.suit:
                _check_show(hand, starter, crib)
    if flush_suit is not None:
        if crib:
            if flush_suit is starter_suit:
                points += (_SIX_CARD if rules is None else rules).crib_flush
        elif flush_suit is starter_suit:
            points += size + 1
        else:
            points += size
    ranked = _POINTS_BY_KEY.get(key)
    if ranked is None:
        ranked = _POINTS_BY_KEY[key] = _rank_points_sorted(_ranks_of_key(key))
    return points + ranked


_POINTS_BY_KEY: dict[int, int] = {}
"""``rank_points`` of each multiset of ranks met so far, by its ``_RANK_BIT`` key."""


def score_heels(starter: Card) -> Breakdown:
    """Two for his heels: one ``HEELS`` item worth 2 to the dealer if the *starter* is a jack.

    >>> from .cards import Card
    >>> score_heels(Card.parse("JD")).total, score_heels(Card.parse("QD")).total
    (2, 0)
    """
    if starter.rank is Rank.JACK:
        return Breakdown((ScoreItem(ScoreKind.HEELS, (starter,), 2),))
    return Breakdown()


# --- the words players say ---------------------------------------------------------------------

_PAIR_WORDS = {1: "a pair", 3: "pair royal", 6: "double pair royal"}
_RUN_WORDS = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double double run"}


def describe_item(item: ScoreItem) -> str:
    """One item as plain text: its kind, its cards and its points.

    >>> from .cards import Card
    >>> describe_item(ScoreItem(ScoreKind.FIFTEEN, (Card.parse("5H"), Card.parse("JC")), 2))
    'fifteen: 5H JC (2)'
    """
    return f"{item.kind.value}: {format_cards(item.cards)} ({item.points})"


def play_called(breakdown: Breakdown) -> tuple[ScoreItem, ...]:
    """The play's items as players call them: the pairs of one rank as one item, its cards
    those of the pairs (a pair 2, a pair royal 6, a double pair royal 12), the rest as they are.

    >>> from .cards import parse_cards
    >>> royal = Breakdown((
    ...     ScoreItem(ScoreKind.FIFTEEN, tuple(parse_cards("AH 7H 7D")), 2),
    ...     *(ScoreItem(ScoreKind.PAIR, tuple(parse_cards(p)), 2) for p in ("7H 7D", "7H 7S", "7D 7S")),
    ... ))
    >>> [(i.kind.value, len(i.cards), i.points) for i in play_called(royal)]
    [('fifteen', 3, 2), ('pair', 3, 6)]
    """  # noqa: E501
    called: list[ScoreItem] = []
    for item in breakdown.items:
        last = called[-1] if called else None
        if (
            item.kind is ScoreKind.PAIR
            and last is not None
            and last.kind is ScoreKind.PAIR
            and last.cards[0].rank is item.cards[0].rank
        ):
            cards = last.cards + tuple(c for c in item.cards if c not in last.cards)
            called[-1] = ScoreItem(ScoreKind.PAIR, cards, last.points + item.points)
        else:
            called.append(item)
    return tuple(called)


def play_name(item: ScoreItem) -> str:
    """What a called item of the play (``play_called``) is: "fifteen", "pair", "pair royal",
    "double pair royal", "run".

    >>> from .cards import parse_cards
    >>> play_name(ScoreItem(ScoreKind.PAIR, tuple(parse_cards("7H 7D 7S")), 6))
    'pair royal'
    """
    if item.kind is ScoreKind.PAIR:
        return _PAIR_WORDS.get(item.points // 2, "pairs").removeprefix("a ")
    name: str = item.kind.value
    return name


def play_words(item: ScoreItem) -> str:
    """A called item of the play in a few words, its name and points: "fifteen 2", "pair 2",
    "pair royal 6", "double pair royal 12".

    >>> from .cards import parse_cards
    >>> play_words(ScoreItem(ScoreKind.PAIR, tuple(parse_cards("7H 7D 7S 7C")), 12))
    'double pair royal 12'
    """
    return f"{play_name(item)} {item.points}"


def _ranks_of(item: ScoreItem) -> frozenset[Rank]:
    return frozenset(card.rank for card in item.cards)


def show_calls(breakdown: Breakdown) -> list[str]:
    """The words a player says counting *breakdown* aloud, each ending on the running total.

    The wording, call by call (``N`` is the running total after the call):

    - each fifteen: ``"fifteen N"``
    - the pairs of one rank together: ``"a pair is N"``, three of a kind ``"pair royal is N"``,
      four ``"double pair royal is N"``; a second pair of another rank is ``"another pair is N"``
    - the runs over one stretch of ranks together, ``K`` cards long: ``"a run of K is N"``;
      two, three or four of them ``"a double run of K is N"``, ``"a triple run of K is N"``,
      ``"a double double run of K is N"`` (the pairs inside were already called)
    - ``"a flush of K is N"``, ``"nobs is N"``, and on its own ``"two for his heels"``
    - anything else (items from the play): ``"<kind> is N"``

    Every call after the first but a fifteen starts with "and", as players say it ("fifteen 8
    and a pair is 10"; the German document's "... und ein Paar macht sechs, und eine
    Dreierfolge macht neun"). A hand that scores nothing has no calls (players say "nineteen").

    >>> from .cards import Card, parse_cards
    >>> show_calls(score_hand(parse_cards("5D 5H JS KC"), Card.parse("8C")))
    ['fifteen 2', 'fifteen 4', 'fifteen 6', 'fifteen 8', 'and a pair is 10']
    >>> show_calls(score_hand(parse_cards("7H 8S 8D KC"), Card.parse("9C")))
    ['fifteen 2', 'fifteen 4', 'and a pair is 6', 'and a double run of 3 is 12']
    """
    # The items are called in groups: a run of items of one kind, where pairs must also be of
    # one rank and runs over one stretch of ranks (the ranks are compared only then: slow).
    calls: list[str] = []
    running = 0
    pairs_called = 0
    items = breakdown.items
    count = len(items)
    start = 0
    while start < count:
        item = items[start]
        kind = item.kind
        running += item.points
        if kind is ScoreKind.FIFTEEN:  # each fifteen is a call of its own
            calls.append(f"fifteen {running}")
            start += 1
            continue
        end = start + 1
        if end < count and items[end].kind is kind:
            ranks = _ranks_of(item) if kind is ScoreKind.PAIR or kind is ScoreKind.RUN else None
            while (
                end < count
                and items[end].kind is kind
                and (ranks is None or _ranks_of(items[end]) == ranks)
            ):
                running += items[end].points
                end += 1
        size = end - start
        if kind is ScoreKind.PAIR:
            words = _PAIR_WORDS.get(size, f"{size} pairs")
            if words == "a pair" and pairs_called:
                words = "another pair"
            pairs_called += 1
            calls.append(f"{words} is {running}")
        elif kind is ScoreKind.RUN:
            words = _RUN_WORDS.get(size, f"{size} runs")
            calls.append(f"{words} of {len(item.cards)} is {running}")
        elif kind is ScoreKind.FLUSH:
            calls.extend(f"a flush of {flush.points} is {running}" for flush in items[start:end])
        elif kind is ScoreKind.NOBS:
            calls.append(f"nobs is {running}")
        elif kind is ScoreKind.HEELS:
            calls.extend("two for his heels" for _ in range(size))
        else:
            calls.append(f"{kind.value} is {running}")
        start = end
    return [
        f"and {call}" if i and not call.startswith(("fifteen ", "two for his heels")) else call
        for i, call in enumerate(calls)
    ]
