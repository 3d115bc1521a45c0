"""Win probability: each side's chance to win from any moment of a two-sided game.

Theory of operation
-------------------
The players are equal and follow pegboard's own strategy (``selfplay.py``: exact discard advice,
a greedy play). Deals are independent, so a game is a walk over positions *(dealer side's score,
other side's score)* at the start of each deal, and the chance that the dealer's side wins is an
exact dynamic programme over those positions, given how deals score.

How deals score is measured by self-play (``tools/make_odds.py``; the counts say how many deals
each variant's hold) and kept as counts, not as fitted curves. A deal is a sequence of pegs in
the order the game makes them: his heels, then the play with both sides' pegs interleaved, then
the hands from the dealer's left round to the dealer, then the crib. The game ends the instant
a side reaches the target, so near the end the order decides, and two counts capture it exactly
(``RaceCounts``):

* ``first(a, b)``: in how many deals the dealer's side makes *a* more points before the other
  side makes *b* more (reading each deal's pegs in order);
* ``totals``: how many deals ended with the dealer's side *x* points up and the other side *y*.

If the dealer's side needs *a* and the other side *b*, the dealer's side wins inside the deal in
``first(a, b)`` deals, and a deal with ``x < a`` and ``y < b`` goes on to the next position, with
the deal passing to the left; every other deal is won by the other side inside it. So ::

    V(d, p) = (first(a, b) + sum over x < a, y < b of totals[x, y] * W(next)) / deals

where ``W`` is the next position's chance seen from this dealer's side. Every deal pegs at least
one point (the last card), so the programme runs from the highest total score down.

Within a deal the same formula holds for the rest of the deal, with counts of what remained at
that moment (``checkpoint_key``): after the starter (split by his heels), after each card of the
play (and a go that follows it; two-player variants only), after each hand of the show. They
count every deal that reached that moment alike: they do not look at the cards on the table.

The tables are indexed by the scores on the board. A five-card game starts at 0-3 (the first
pone pegs three for last at once), and a two-against-one game at 0-60 (the solo starts on 60).

Two-player games and four-handed partnerships alternate the deal between the sides, so one
table serves: ``V[dealer][pone]``. Two against one goes round three seats (the pair's first seat,
its second, then the solo), so it has a table per dealer seat. Three players each on their own
would need a programme over three scores: it is not computed, and asking raises ``OddsError``.

The tables ship as 16-bit fixed point (``data/<variant>.table``, a value ``v`` stands for
``v / 65535``), the counts as ``data/<variant>.dist`` (varints, zlib); both load on first use.

>>> round(start_of_deal("six-card", 120, 120), 3) == round(dealer_first_chance("six-card"), 3)
True
>>> dealer, pone = chances("six-card", 60, 70)  # ten holes behind, with the deal to come
>>> dealer < 0.5 < pone
True
"""

from __future__ import annotations

import enum
import sys
import zlib
from array import array
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from pegboard.errors import PegboardError

from .rules import Rules, Variant
from .varints import Reader, put_block, put_ints, put_text

if TYPE_CHECKING:
    from .game import GameState
    from .play import PlayState

__all__ = [
    "SCALE",
    "VARIANTS",
    "Model",
    "Moment",
    "OddsError",
    "Position",
    "RaceCounts",
    "chances",
    "dealer_first_chance",
    "in_deal",
    "load_model",
    "load_table",
    "positions_of",
    "solve",
    "start_of_deal",
    "table_bytes",
    "win_probability",
]

VARIANTS = (
    Variant.SIX_CARD,
    Variant.FIVE_CARD,
    Variant.TWO_IN_THE_CRIB,
    Variant.FOUR_HANDED,
    Variant.TWO_AGAINST_ONE,
)
"""The variants with tables: every two-sided one."""

_JACK = 11

SCALE = 65535
"""A table value ``v`` is the chance ``v / SCALE``."""


class OddsError(PegboardError, ValueError):
    """A position or variant the win probabilities do not cover."""


class Moment(enum.Enum):
    """Where in a deal the chance is asked for."""

    START = "start"
    """Before the starter is turned."""
    STARTER = "starter"
    """The starter is turned (his heels pegged if it was a jack), no card laid yet."""
    PLAY = "play"
    """During the play: *step* cards laid, with their points and any go after the last of them
    pegged. The counts take the rest of the deal from after that go: a go point the game has
    not pegged yet is missing from them (see ``win_probability`` for a point sure to come)."""
    SHOW = "show"
    """The play is over: *step* hands shown so far (all of them: the crib is next)."""


# --- counts of how deals score -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RaceCounts:
    """How the rest of a deal scored over ``deals`` deals, seen from the dealer's side.

    ``starts`` holds (a, j, n): in n deals the dealer's side first had *a* more points when the
    other side had ``j - 1`` more; ``totals`` holds (x, y, n): n deals ended x and y up. Both
    are sorted. ``first(a, b)`` is built from ``starts`` on creation.
    """

    deals: int
    starts: tuple[tuple[int, int, int], ...]
    totals: tuple[tuple[int, int, int], ...]
    _grid: tuple[tuple[int, ...], ...] = field(init=False, repr=False, compare=False)
    _rows: tuple[tuple[int, tuple[tuple[int, int], ...]], ...] = field(
        init=False, repr=False, compare=False
    )

    @classmethod
    def count(cls, deals: Iterable[Sequence[tuple[bool, int]]]) -> RaceCounts:
        """Counts from deals given as pegs in order: (the dealer's side pegged?, points).

        >>> race = RaceCounts.count([[(False, 2), (True, 3)], [(True, 1)]])
        >>> race.deals, race.first(1, 1), race.first(1, 3), race.first(2, 5), race.totals
        (2, 1, 2, 1, ((1, 0, 1), (3, 2, 1)))
        """
        tally: dict[tuple[tuple[bool, int], ...], int] = {}
        for pegs in deals:  # equal deals are counted once, with their number
            key = tuple(pegs)
            tally[key] = tally.get(key, 0) + 1
        return cls.tally(tally)

    @classmethod
    def tally(cls, deals: Mapping[tuple[tuple[bool, int], ...], int]) -> RaceCounts:
        """Counts from each different deal (its pegs in order) with how many times it came."""
        starts: dict[tuple[int, int], int] = {}
        totals: dict[tuple[int, int], int] = {}
        for pegs, n in deals.items():
            mine = theirs = 0
            for dealer_side, points in pegs:
                if dealer_side:
                    for a in range(mine + 1, mine + points + 1):
                        key2 = (a, theirs + 1)  # reached a while the others had `theirs`
                        starts[key2] = starts.get(key2, 0) + n
                    mine += points
                else:
                    theirs += points
            totals[(mine, theirs)] = totals.get((mine, theirs), 0) + n
        return cls(
            sum(deals.values()),
            tuple((a, j, c) for (a, j), c in sorted(starts.items())),
            tuple((x, y, c) for (x, y), c in sorted(totals.items())),
        )

    def __post_init__(self) -> None:
        width = max((j for _, j, _ in self.starts), default=1)
        height = max((a for a, _, _ in self.starts), default=0)
        grid = [[0] * (width + 1) for _ in range(height + 1)]
        for a, j, c in self.starts:
            grid[a][j] += c
        for row in grid:  # first(a, b) sums the starts of rows a over j <= b
            for j in range(1, width + 1):
                row[j] += row[j - 1]
        rows: dict[int, list[tuple[int, int]]] = {}
        for x, y, c in self.totals:
            rows.setdefault(x, []).append((y, c))
        object.__setattr__(self, "_grid", tuple(tuple(row) for row in grid))
        object.__setattr__(self, "_rows", tuple((x, tuple(r)) for x, r in sorted(rows.items())))

    def first(self, a: int, b: int) -> int:
        """In how many deals the dealer's side made *a* more points before the others made *b*.

        *a* and *b* are at least 1 (a side on the target has already won).
        """
        grid = self._grid
        if a >= len(grid):
            return 0
        row = grid[a]
        return row[min(b, len(row) - 1)]

    def rows(self) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        """``totals`` grouped by x, both ascending: ((x, ((y, n), ...)), ...)."""
        return self._rows


@dataclass(frozen=True, slots=True)
class Position:
    """One dealer seat in the round of deals: what follows it, and the counts of its deals.

    ``checkpoints`` maps a moment's key (``checkpoint_key``) to the counts of the rest of the
    deal from there; ``"start"`` is the whole deal.
    """

    name: str
    next: int
    """The index of the next dealer's position."""
    next_same_side: bool
    """Whether the next dealer is on this dealer's side (two against one: the pair's first)."""
    checkpoints: dict[str, RaceCounts]


@dataclass(frozen=True, slots=True)
class Model:
    """Everything the programme needs for one variant: the target and the positions."""

    variant: Variant
    target: int
    positions: tuple[Position, ...]

    def to_bytes(self) -> bytes:
        """The ``.dist`` file: the counts as varints, compressed (zlib)."""
        out = bytearray()
        put_ints(out, _DIST_VERSION, self.target, len(self.positions))
        for position in self.positions:
            put_text(out, position.name)
            put_ints(out, position.next, int(position.next_same_side), len(position.checkpoints))
            for key, race in position.checkpoints.items():
                put_text(out, key)
                put_ints(out, race.deals)
                put_block(out, race.starts)
                put_block(out, race.totals)
        return zlib.compress(bytes(out), 9)

    @classmethod
    def from_bytes(cls, variant: Variant, data: bytes) -> Model:
        """The model back from ``to_bytes``.

        Raises:
            OddsError: not a ``.dist`` file of this version.
        """
        reader = Reader(zlib.decompress(data))
        version, target, count = reader.ints(3)
        if version != _DIST_VERSION:
            raise OddsError(
                f"counts of {variant.value}: version {version}, expected {_DIST_VERSION}"
            )
        positions = []
        for _ in range(count):
            name = reader.text()
            nxt, same, checkpoints = reader.ints(3)
            keyed = {}
            for _ in range(checkpoints):
                key = reader.text()
                (deals,) = reader.ints(1)
                keyed[key] = RaceCounts(deals, reader.block(), reader.block())
            positions.append(Position(name, nxt, bool(same), keyed))
        return cls(variant, target, tuple(positions))


_DIST_VERSION = 1


def positions_of(rules: Rules) -> tuple[tuple[str, int, bool], ...]:
    """(name, next position, next dealer on the same side?) for each dealer position.

    One position when the deal alternates between the sides; two against one goes round the
    pair's first seat, its second seat and the solo.

    >>> positions_of(Rules.two_against_one())[1]
    ('the pair (seat 1) deals', 2, False)

    Raises:
        OddsError: three separate players.
    """
    if rules.sides != 2:
        raise OddsError(
            f"win probability is not computed for {rules.variant.value!r} (three separate "
            f"players need a programme over three scores; expected one of {_names()})"
        )
    if rules.variant is Variant.TWO_AGAINST_ONE:
        return (
            ("the pair (seat 0) deals", 1, True),
            ("the pair (seat 1) deals", 2, False),
            ("the solo deals", 0, False),
        )
    return (("a side deals", 0, False),)


def checkpoint_key(moment: Moment, step: int = 0, *, heels: bool = False) -> str:
    """The key of a moment's counts: "start", "starter-2", "play-3", "show-1"."""
    match moment:
        case Moment.START:
            return "start"
        case Moment.STARTER:
            return f"starter-{2 if heels else 0}"
        case Moment.PLAY:
            return f"play-{step}"
        case Moment.SHOW:
            return f"show-{step}"


# --- the dynamic programme -------------------------------------------------------------------


def solve(model: Model, *, low: int = 0) -> list[list[float]]:
    """``V[k][d * target + p]``: the chance the dealer's side wins at the start of a deal at
    position k, with d and p the scores of the dealer's side and of the other side.

    Only positions with both scores at least *low* are computed (the others stay 0.0): they
    depend on nothing below, so the last holes can be rebuilt alone.

    >>> tiny = RaceCounts.count([[(False, 1)], [(True, 1)]])  # one point, either side
    >>> model = Model(Variant.SIX_CARD, 2, (Position("a side deals", 0, False, {"start": tiny}),))
    >>> [round(v, 4) for v in solve(model)[0]]
    [0.5, 0.25, 0.75, 0.5]
    """
    target = model.target
    values = [[0.0] * (target * target) for _ in model.positions]
    plans = [(p.checkpoints["start"], values[p.next], p.next_same_side) for p in model.positions]
    for total in range(2 * target - 2, 2 * low - 1, -1):
        for d in range(max(low, total - target + 1), min(target - 1, total - low) + 1):
            p = total - d
            for k, (race, after, same) in enumerate(plans):
                values[k][d * target + p] = _chance(race, after, 1.0, same, target, d, p)
    return values


def _chance(
    race: RaceCounts,
    after: Sequence[float] | array[int],
    scale: float,
    same: bool,
    target: int,
    d: int,
    p: int,
) -> float:
    """The dealer's side's chance with scores (d, p) and *race* the rest of this deal; *after*
    is the next dealer's table (flat, ``[dealer * target + pone]``, values times *scale*)."""
    a, b = target - d, target - p
    won = float(race.first(a, b))
    later = 0.0  # the deals that go on, weighted by the next position's value
    for x, row in race.rows():
        if x >= a:
            break
        if same:
            base = (d + x) * target + p
            for y, n in row:
                if y >= b:
                    break
                later += n * after[base + y]
        else:
            column = d + x
            for y, n in row:
                if y >= b:
                    break
                won += n  # the next dealer is on the other side: 1 - its chance
                later -= n * after[(p + y) * target + column]
    return (won + later / scale) / race.deals


# --- the shipped data ------------------------------------------------------------------------


def table_bytes(values: Sequence[Sequence[float]]) -> bytes:
    """The tables as the ``.table`` file holds them: unsigned 16-bit little-endian fixed point,
    position by position, ``[dealer][pone]`` row by row."""
    out = array("H", (round(v * SCALE) for table in values for v in table))
    if sys.byteorder == "big":
        out.byteswap()
    return out.tobytes()


def _data(name: str) -> bytes:
    try:
        return resources.files("pegboard.engine").joinpath("data", name).read_bytes()
    except FileNotFoundError:
        raise OddsError(
            f"the package has no {name} (a build without its data? 'make odds' makes it)"
        ) from None


def _variant(variant: Variant | str) -> Variant:
    found = variant if isinstance(variant, Variant) else _BY_NAME.get(variant)
    if found is None:
        raise OddsError(f"no such variant: {variant!r} (expected one of {_names()})")
    if found not in VARIANTS:
        positions_of(Rules.for_variant(found))  # three separate players: says why
    return found


_BY_NAME = {v.value: v for v in Variant}


def _names() -> str:
    return ", ".join(v.value for v in VARIANTS)


@cache
def load_table(variant: Variant | str) -> tuple[int, tuple[array[int], ...]]:
    """(target, one flat table per position) of *variant*, read once from the package.

    Raises:
        OddsError: a variant without a table.
    """
    found = _variant(variant)
    rules = Rules.for_variant(found)
    data = array("H")
    data.frombytes(_data(f"{found.value}.table"))
    if sys.byteorder == "big":
        data.byteswap()
    size = rules.target * rules.target
    count = len(positions_of(rules))
    if len(data) != size * count:
        raise OddsError(
            f"the {found.value} table holds {len(data)} values, expected {size * count}"
        )
    return rules.target, tuple(data[k * size : (k + 1) * size] for k in range(count))


@cache
def load_model(variant: Variant | str) -> Model:
    """The counts of *variant* (``data/<variant>.dist``), read once from the package.

    Raises:
        OddsError: a variant without counts.
    """
    found = _variant(variant)
    return Model.from_bytes(found, _data(f"{found.value}.dist"))


def _check(target: int, dealer: int, pone: int, position: int, count: int) -> None:
    for name, score in (("dealer", dealer), ("pone", pone)):
        if score < 0:
            raise OddsError(
                f"{name} score {score!r} is out of range (expected 0 to {target - 1}: "
                f"a score is never below 0)"
            )
        if score >= target:
            raise OddsError(
                f"{name} score {score!r} is out of range (expected 0 to {target - 1}: "
                f"{target} has been reached)"
            )
    if not 0 <= position < count:
        raise OddsError(f"no dealer position {position!r} (expected 0 to {count - 1})")


def start_of_deal(variant: Variant | str, dealer: int, pone: int, *, position: int = 0) -> float:
    """The dealer's side's chance to win, at the start of a deal (a table lookup).

    *dealer* and *pone* are the scores of the dealer's side and of the other side; *position*
    picks the dealer's seat in two against one (0, 1: the pair; 2: the solo).

    Raises:
        OddsError: a variant without a table, a score outside 0..target-1, no such position.
    """
    target, tables = load_table(variant)
    _check(target, dealer, pone, position, len(tables))
    return tables[position][dealer * target + pone] / SCALE


def chances(
    variant: Variant | str, dealer: int, pone: int, *, position: int = 0
) -> tuple[float, float]:
    """(dealer's side, other side) chances at the start of a deal; they sum to 1.

    Raises:
        OddsError: as ``start_of_deal``.
    """
    value = start_of_deal(variant, dealer, pone, position=position)
    return value, 1.0 - value


def in_deal(
    variant: Variant | str,
    dealer: int,
    pone: int,
    moment: Moment,
    step: int = 0,
    *,
    heels: bool = False,
    position: int = 0,
) -> float:
    """The dealer's side's chance at a moment inside a deal, given the scores now.

    *heels*: at ``Moment.STARTER``, whether the starter was a jack (its 2 are in *dealer*
    already). *step*: cards laid (``PLAY``) or hands shown (``SHOW``).

    Raises:
        OddsError: as ``start_of_deal``, or a moment the counts do not hold (a step past the
            end of the play or the show).
    """
    if moment is Moment.START:
        return start_of_deal(variant, dealer, pone, position=position)
    target, tables = load_table(variant)
    _check(target, dealer, pone, position, len(tables))
    model = load_model(variant)
    here = model.positions[position]
    key = checkpoint_key(moment, step, heels=heels)
    race = here.checkpoints.get(key)
    if race is None:
        raise OddsError(f"no counts for {key!r} in {model.variant.value} (a step past the end?)")
    return _chance(race, tables[here.next], SCALE, here.next_same_side, target, dealer, pone)


def dealer_first_chance(variant: Variant | str) -> float:
    """The chance that the dealer's side pegs first in a deal (heels, then the play): the
    dealer's chance when both sides need one point.

    Raises:
        OddsError: a variant without counts.
    """
    race = load_model(variant).positions[0].checkpoints["start"]
    return race.first(1, 1) / race.deals


# --- the moment of a game ----------------------------------------------------------------------


def win_probability(state: GameState) -> tuple[float, ...] | None:
    """Each side's chance to win at this moment of *state*'s game, summing to 1.

    None when there is nothing to say: before the cut, after the game, with three separate
    players, or in a deal whose starter was not entered (pegged by hand). Before the first card
    is laid it is the chance after the starter at the scores as they stand (a peg by hand
    counts). Once a card is laid in a three- or four-player variant, which has no counts per
    card laid, it is the chance as the play began (the scores less what the cards laid have
    pegged: a peg by hand during the play counts).

    A point still to come in the play: when every seat but the one that laid the last card
    has said go or has no cards left, that seat pegs at least one more point (go, last, or 31)
    before anyone else pegs. If that point reaches the target its side has won: the chance is
    exactly 1 (0 for the other side). Otherwise, in a two-player variant, the point is counted
    with the scores and the moment is the one after the go (the play's end in five-card), so
    the chance does not move when the go is said and the point pegged. That is exact when the
    point is pegged at once; when the last card's seat lays more cards first, the counts of
    those later moments hold the point too, so until it is pegged it may count twice (one
    point, never when it wins). Before anyone has said go, the go point that may follow the
    last card is in the counts of the moment but not in the scores (the counts cannot tell the
    deals where it came from the others).
    """
    from .game import Phase  # the game is only needed when a game is asked about

    rules = state.rules
    table = state.table
    if rules.variant not in VARIANTS or table.phase not in (Phase.STARTER, Phase.PLAY, Phase.SHOW):
        return None
    seat = table.dealer
    if seat is None:
        return None
    mine = rules.side_of(seat)
    other = 1 - mine
    dealer, pone = table.scores[mine], table.scores[other]
    position = seat if rules.variant is Variant.TWO_AGAINST_ONE else 0
    try:
        if table.phase is Phase.STARTER:
            value = start_of_deal(rules.variant, dealer, pone, position=position)
        elif table.starter is None:
            return None
        elif table.phase is Phase.PLAY:
            value = _in_the_play(state, dealer, pone, position)
        else:
            value = in_deal(
                rules.variant, dealer, pone, Moment.SHOW, table.show_step, position=position
            )
    except OddsError:  # a moment no shipped deal reached (or a build without the tables)
        return None
    result = [0.0, 0.0]
    result[mine], result[other] = value, 1.0 - value
    return tuple(result)


def _in_the_play(state: GameState, dealer: int, pone: int, position: int) -> float:
    """The dealer's side's chance during the play of *state* (see ``win_probability``).

    Raises:
        OddsError: a moment without counts.
    """
    rules, table = state.rules, state.table
    assert table.dealer is not None and table.starter is not None  # win_probability checked
    mine = rules.side_of(table.dealer)
    play = table.play
    laid = 0 if play is None else len(play.laid)
    heels = table.starter.rank.value == _JACK
    if play is None or laid == 0:
        # no card laid: the moment after the starter, with whatever was pegged by hand
        return in_deal(rules.variant, dealer, pone, Moment.STARTER, heels=heels, position=position)
    sure = _sure_point(play)
    if sure is not None:
        if rules.side_of(sure) == mine:
            dealer += 1
        else:
            pone += 1
        if dealer >= rules.target or pone >= rules.target:
            return 1.0 if dealer >= rules.target else 0.0  # the point still to come wins
    if sure is not None and rules.players == 2 and rules.single_series:
        # five-card: that point is the last, and the play ends with it
        return in_deal(rules.variant, dealer, pone, Moment.SHOW, 0, position=position)
    checkpoints = load_model(rules.variant).positions[position].checkpoints
    if checkpoint_key(Moment.PLAY, laid) in checkpoints:
        return in_deal(rules.variant, dealer, pone, Moment.PLAY, laid, position=position)
    # no counts per card (three or four players): the chance as the play began, with what
    # was pegged by hand since (only what the cards laid pegged is taken off)
    played = table.record.played if table.record is not None else (0, 0)
    other = 1 - mine
    return in_deal(
        rules.variant,
        table.scores[mine] - played[mine],
        table.scores[other] - played[other],
        Moment.STARTER,
        heels=heels,
        position=position,
    )


def _sure_point(play: PlayState) -> int | None:
    """The seat sure to peg at least one point (go, last, or 31) before any other seat pegs:
    the one that laid the last card, when the series is open and every other seat has said go
    or has no cards left. None when no point is sure to come."""
    if play.is_over or not play.series:
        return None
    closer = play.laid[-1][0]
    left = play.cards_left
    others = (seat for seat in range(play.rules.players) if seat != closer)
    if all(seat in play.said_go or not left[seat] for seat in others):
        return closer
    return None
