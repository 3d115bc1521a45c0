"""A finished game as a board tells the league (``league/``) about it: the wire format of the
``finished`` topic, one named type both sides use.

``GameSummary`` holds what a board sends: the game's id (made on the board) and revision, the
variant and target, the sides (named as on the board: a partnership by its side name, with its
players' seat names), the winner, game points, the points of each deal and when it began and
ended, and each deal's show (``ShowSummary``: whose hand or crib, its cards when they were
typed, what it counted; an old board's payload has none, and an old league ignores them); or,
for a win taken back by undo, only the id and revision with ``withdrawn``. The board's outbox
builds it (``GameSummary.of``) and stores ``to_payload()``'s JSON; the league reads it with
``from_payload``, which checks that a board could have finished such a game
under its variant's rules as RULES.md sets them: a known variant, its target and number of sides,
the winner on the target or at most one score (``MAX_PEG``) past it, every side's ``lurch`` the
one its score gives under the variant's lines (five-card: 45, or the 31 some rule books use), and
sizes no board makes refused (names over 4096 bytes, long ids, more than ``MAX_DEALS`` deals). A
board that plays a house target or other lines plays friendlies: the league does not count them.

>>> from pegboard.engine.commands import parse_command
>>> from pegboard.engine.game import GameState, apply
>>> from pegboard.engine.rules import Rules
>>> state = GameState.new(Rules.six_card(), ("Ann", "Bob"))
>>> for text in ("cut 9C 3D", "starter 5C", "peg Bob 50", "peg Ann 60", "peg Ann 61"):
...     state, _ = apply(state, parse_command(text, state.names))
>>> summary = GameSummary.of(state, state.table.finished[-1], game_id="g1", ended="21:30")
>>> [(s.name, s.score, s.won, s.lurch) for s in summary.sides]
[('Ann', 121, True, 'none'), ('Bob', 50, False, 'double-skunked')]
>>> summary.target, summary.game_points, summary.deals[0].points
(121, 3, (121, 50))
>>> GameSummary.from_payload(summary.to_payload()) == summary
True

A deal's show, counted with its cards or told by its points alone:

>>> state, _ = apply(GameState.new(Rules.six_card(), ("Ann", "Bob")), parse_command("cut 9C 3D",
...     ("Ann", "Bob")))
>>> for text in ("starter 5C", "next", "show 4H 5D 6S 6H", "show 7", "crib KH KD 2S 3C"):
...     state, _ = apply(state, parse_command(text, state.names))
>>> shows = shows_of(state, state.table.deals[-1])
>>> [(s.player, s.crib, s.points) for s in shows], shows[0].cards, shows[1].cards
([('Ann', False, 24), ('Bob', False, 7), ('Bob', True, 10)], ('4H', '5D', '6S', '6H'), ())
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pegboard.errors import PegboardError
from pegboard.frozen import frozen

from .cards import MAX_TEXT_BYTES, Card, parse_cards
from .commands import MAX_PEG
from .game import GameState, show_order
from .records import DealRecord, GameRecord
from .rules import Rules, Variant, lurch_of

__all__ = [
    "LURCHES",
    "MAX_DEALS",
    "MAX_ID_BYTES",
    "DealSummary",
    "GameSummary",
    "PayloadError",
    "ShowSummary",
    "SideSummary",
    "shows_of",
]

LURCHES = ("none", "lurched", "double-skunked")
"""A side's ``lurch`` on the wire: ``Lurch``'s values."""

MAX_ID_BYTES = 64
"""The longest game id (and ``started``/``ended`` stamp) kept: a board's id is a uuid4 (36)."""

MAX_DEALS = 500
"""The most deals a finished game may list: every deal's play ends with a point for last, so a
game to 121 has at most 121 deals that reach the play; the rest is room for deals redealt."""

MAX_GAME_POINTS = 9
"""The most game points one win may carry: a board's menu offers a double skunk of 3 or 4, a
``[rules]`` of its own a little more; a number past this is no game's."""

MAX_SHOW = 29
"""The most a hand or crib counts (three fives and the jack of the starter's suit, on a five)."""

_OTHER_LURCH_LINES = {Variant.FIVE_CARD: (31,)}
"""Lurch lines RULES.md allows besides the preset's: five-card's 45 is the German document's,
and "some rule books use 31"; a board may play either, so the league takes either."""


class PayloadError(PegboardError, ValueError):
    """A ``finished`` message that is not a game a board could have finished (nor a withdrawn
    one)."""


@frozen
class SideSummary:
    """One side of a finished game: its name, final score, whether it won, its lurch, and its
    players' seat names."""

    name: str
    score: int
    won: bool
    lurch: str = "none"
    players: tuple[str, ...] = ()


@frozen
class ShowSummary:
    """A hand (or the crib: *crib*) counted in a deal's show: whose (the player's seat name;
    the crib's is the dealer's), its cards as typed ("5H"; none when it was told by its points
    alone), and what it counted (the true count, muggins or not)."""

    player: str
    crib: bool
    cards: tuple[str, ...]
    points: int


@frozen
class DealSummary:
    """One deal of a finished game: its number, the dealer, the start card, each side's
    points, and its show (the hands and crib counted, in the order counted)."""

    number: int
    dealer: str
    starter: str | None
    points: tuple[int, ...]
    shown: tuple[ShowSummary, ...] = ()


def shows_of(state: GameState, deal: DealRecord) -> tuple[ShowSummary, ...]:
    """*deal*'s hands and crib counted in the show (with their cards or by points), in the
    order the show counts them."""
    order = show_order(state.rules, deal.dealer)
    hands = sorted((*deal.shown, *deal.told), key=lambda hand: order.index(hand.seat))
    return tuple(
        ShowSummary(
            state.seat_name(deal.dealer if hand.seat is None else hand.seat),
            hand.seat is None,
            tuple(str(card) for card in hand.cards),
            hand.points,
        )
        for hand in hands
    )


@frozen
class GameSummary:
    """A finished game (or a withdrawn win) as it goes over the wire (the module's notes)."""

    game_id: str
    revision: int = 1
    variant: str = ""
    target: int = 0
    sides: tuple[SideSummary, ...] = ()
    game: int | None = None
    winner: str | None = None
    game_points: int | None = None
    deals: tuple[DealSummary, ...] = ()
    started: str = ""
    ended: str = ""
    withdrawn: bool = False

    @classmethod
    def of(
        cls,
        state: GameState,
        record: GameRecord,
        *,
        game_id: str,
        revision: int = 1,
        started: str = "",
        ended: str = "",
    ) -> GameSummary:
        """*record* (a game of *state*'s match) as the board sends it."""
        rules, names, result = state.rules, state.names, record.result
        sides = tuple(
            SideSummary(
                name,
                result.scores[side],
                side == result.winner,
                result.lurches[side].value,
                tuple(state.seat_name(seat) for seat in rules.teams[side]),
            )
            for side, name in enumerate(names)
        )
        deals = tuple(
            DealSummary(
                deal.number,
                state.seat_name(deal.dealer),
                str(deal.starter) if deal.starter is not None else None,
                tuple(deal.total(side) for side in range(len(names))),
                shows_of(state, deal),
            )
            for deal in record.deals
        )
        return cls(
            game_id, revision, rules.variant.value, rules.target, sides, record.game,
            names[result.winner], result.game_points, deals, started, ended,
        )  # fmt: skip

    def to_payload(self) -> dict[str, Any]:
        """The JSON values the board sends (a withdrawn win: its id, revision and the mark)."""
        if self.withdrawn:
            return {"game_id": self.game_id, "revision": self.revision, "withdrawn": True}
        return {
            "game_id": self.game_id,
            "revision": self.revision,
            "game": self.game,
            "variant": self.variant,
            "target": self.target,
            "sides": [
                {
                    "name": s.name,
                    "players": list(s.players),
                    "score": s.score,
                    "won": s.won,
                    "lurch": s.lurch,
                }
                for s in self.sides
            ],
            "winner": self.winner,
            "game_points": self.game_points,
            "deals": [_deal_payload(d) for d in self.deals],
            "started": self.started,
            "ended": self.ended,
        }

    @classmethod
    def from_payload(cls, payload: Mapping[str, Any]) -> GameSummary:
        """The game a ``finished`` message carries. Only the id, variant, target and sides are
        required of a finished game (the rest has defaults), and only the id of a withdrawn one.

        Raises:
            PayloadError: a field missing or of the wrong kind, no sides, not one winner, or a
                loser that scored the target or more, or as much as the winner (no game ends
                so), or a score below 0; or a game its variant's rules could not finish
                (``_check_rules``: an unknown variant, another target, the wrong number of
                sides, a winner off the target, a lurch the scores do not give) or one too big
                to be real (a name over 4096 bytes, more than ``MAX_DEALS`` deals).
        """
        if payload.get("withdrawn"):
            try:
                return cls(str(payload["game_id"]), int(payload.get("revision", 1)), withdrawn=True)
            except (KeyError, TypeError, ValueError) as e:
                raise PayloadError(f"a game without a game id: {payload!r:.80}") from e
        try:
            sides = tuple(
                SideSummary(
                    str(s["name"]), int(s["score"]), bool(s["won"]), str(s["lurch"]),
                    tuple(str(p) for p in s.get("players", ())),
                )
                for s in payload["sides"]
            )  # fmt: skip
            deals = tuple(
                DealSummary(
                    int(d["number"]), str(d["dealer"]),
                    None if d.get("starter") is None else str(d["starter"]),
                    tuple(int(p) for p in d["points"]), _read_shows(d.get("shown", [])),
                )
                for d in payload.get("deals", ())
            )  # fmt: skip
            game = cls(
                str(payload["game_id"]),
                int(payload.get("revision", 1)),
                str(payload["variant"]),
                int(payload["target"]),
                sides,
                _int_or_none(payload.get("game")),
                None if payload.get("winner") is None else str(payload["winner"]),
                _int_or_none(payload.get("game_points")),
                deals,
                str(payload.get("started", "")),
                str(payload.get("ended", "")),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise PayloadError(f"not a finished game: {_short(payload)} ({e!r})") from e
        _check(game, payload)
        return game


def _int_or_none(value: Any) -> int | None:
    return None if value is None else int(value)


def _deal_payload(deal: DealSummary) -> dict[str, Any]:
    """*deal* as JSON values; ``shown`` only when something was counted (an old board's
    payload, and a deal pegged by hand, have none)."""
    payload: dict[str, Any] = {
        "number": deal.number,
        "dealer": deal.dealer,
        "starter": deal.starter,
        "points": list(deal.points),
    }
    if deal.shown:
        payload["shown"] = [
            {"player": s.player, "crib": s.crib, "cards": list(s.cards), "points": s.points}
            for s in deal.shown
        ]
    return payload


def _read_shows(items: Any) -> tuple[ShowSummary, ...]:
    """The ``shown`` list of a deal's payload.

    Raises:
        TypeError: not a list of objects with a player, a crib flag, a list of cards, points.
    """
    if not isinstance(items, list):
        raise TypeError(f"a deal's shown must be a list, got {items!r:.40}")
    shows = []
    for item in items:
        cards, crib = item.get("cards", []), item.get("crib", False)
        if not isinstance(cards, list) or not isinstance(crib, bool):
            raise TypeError(f"a show's cards must be a list and crib true or false: {item!r:.60}")
        shows.append(
            ShowSummary(
                str(item["player"]), crib, tuple(str(c) for c in cards), int(item["points"])
            )
        )
    return tuple(shows)


def _check(game: GameSummary, payload: Mapping[str, Any]) -> None:
    """Raise ``PayloadError`` unless a board could have finished *game*."""
    sides = game.sides
    winners = [side for side in sides if side.won]
    if len(sides) < 2 or len(winners) != 1 or any(s.lurch not in LURCHES for s in sides):
        raise PayloadError(
            f"not a finished game: {_short(payload)} (expected two or more sides, "
            "exactly one of them won, lurch one of none, lurched, double-skunked)"
        )
    [winner] = winners
    for side in sides:
        if side.score < 0:
            why = f"{side.name!r} scored {side.score}, below 0"
        elif side.won:
            continue
        elif side.score >= game.target:
            why = f"the loser {side.name!r} scored {side.score}, the target {game.target} or more"
        elif side.score >= winner.score:
            why = (
                f"the loser {side.name!r} scored {side.score}, as much as the winner "
                f"{winner.name!r} ({winner.score}) or more"
            )
        else:
            continue
        raise PayloadError(
            f"not a finished game: {_short(payload)} ({why}; expected every loser below the "
            "target and below the winner)"
        )
    _check_sizes(game, payload)
    _check_rules(game, payload)
    _check_details(game, payload)
    _check_shows(game, payload)


def _check_sizes(game: GameSummary, payload: Mapping[str, Any]) -> None:
    """Raise ``PayloadError`` for a game bigger than any board makes: names over the engine's
    own bound (``MAX_TEXT_BYTES``), a long id, too many deals or a deal's points per side."""
    texts = [(s.name, "side name") for s in game.sides]
    texts += [(p, "player name") for s in game.sides for p in s.players]
    texts += [(d.dealer, "dealer's name") for d in game.deals]
    why = ""
    for text, what in texts:
        if len(text) > MAX_TEXT_BYTES or len(text.encode("utf-8", "replace")) > MAX_TEXT_BYTES:
            why = f"a {what} of {len(text):,} characters (expected at most {MAX_TEXT_BYTES} bytes)"
            break
    for text, what in ((game.game_id, "game id"), (game.started, "start"), (game.ended, "end")):
        if not why and len(text.encode("utf-8", "replace")) > MAX_ID_BYTES:
            why = f"a {what} of {len(text):,} characters (expected at most {MAX_ID_BYTES} bytes)"
    if not why and len(game.deals) > MAX_DEALS:
        why = f"{len(game.deals):,} deals (expected at most {MAX_DEALS})"
    if not why and any(len(d.points) != len(game.sides) for d in game.deals):
        why = f"a deal without one score per side ({len(game.sides)})"
    if why:
        raise PayloadError(f"not a finished game: {_short(payload)} ({why})")


def _check_rules(game: GameSummary, payload: Mapping[str, Any]) -> None:
    """Raise ``PayloadError`` unless *game*'s variant, as RULES.md plays it, could end so.

    The league plays each variant by its preset (``Rules.for_variant``): its target, its sides,
    its lurch lines (five-card: 45, or 31 as some rule books have it). The game ends the
    instant a side reaches the target, so the winner stands between the target and the most
    one score can move a peg past it (``MAX_PEG``, a manual peg, the biggest single score).
    """
    try:
        rules = Rules.for_variant(Variant(game.variant))
    except ValueError:
        known = ", ".join(v.value for v in Variant)
        why = f"unknown variant {game.variant!r:.40} (expected one of {known})"
        raise PayloadError(f"not a finished game: {_short(payload)} ({why})") from None
    name, most = rules.variant.value, rules.target + MAX_PEG - 1
    winner = next(side for side in game.sides if side.won)
    if game.target != rules.target:
        why = f"a target of {game.target} (expected {rules.target} in {name})"
    elif len(game.sides) != rules.sides:
        why = f"{len(game.sides)} sides (expected {rules.sides} in {name})"
    elif winner.score < rules.target:
        why = f"the winner {winner.name!r:.40} on {winner.score}, below the target {rules.target}"
    elif winner.score > most:
        why = (
            f"the winner {winner.name!r:.40} on {_number(winner.score)}, past the target by "
            f"more than one score can peg (expected {rules.target} to {most})"
        )
    else:
        why = _wrong_side(rules, game.sides)
    if why:
        raise PayloadError(f"not a finished game: {_short(payload)} ({why})")


def _check_details(game: GameSummary, payload: Mapping[str, Any]) -> None:
    """Raise ``PayloadError`` for a field no board writes so: a ``winner`` that is not the side
    that won, game points past ``MAX_GAME_POINTS``, a deal numbered outside 1 to ``MAX_DEALS``,
    a starter that is not a card, or a deal's points below 0 or past its side's final score.
    The standings count none of these, but the page and the records show them."""
    winner = next(side for side in game.sides if side.won)
    why = ""
    if game.winner is not None and game.winner != winner.name:
        why = f"a winner {game.winner!r:.40} who is not the side that won ({winner.name!r:.40})"
    elif game.game_points is not None and not 0 <= game.game_points <= MAX_GAME_POINTS:
        why = f"{_number(game.game_points)} game points (expected 0 to {MAX_GAME_POINTS})"
    for deal in game.deals:
        if why:
            break
        if not 1 <= deal.number <= MAX_DEALS:
            why = f"a deal numbered {_number(deal.number)} (expected 1 to {MAX_DEALS})"
        elif deal.starter is not None and not _is_card(deal.starter):
            why = f"deal {deal.number}'s starter {deal.starter!r:.20} (expected a card, e.g. 5H)"
        elif any(not 0 <= p <= side.score for p, side in zip(deal.points, game.sides, strict=True)):
            shown = ", ".join(_number(p) for p in deal.points)
            why = f"deal {deal.number}'s points {shown} (expected 0 to each side's final score)"
    if why:
        raise PayloadError(f"not a finished game: {_short(payload)} ({why})")


def _check_shows(game: GameSummary, payload: Mapping[str, Any]) -> None:
    """Raise ``PayloadError`` for a deal's show no board counts: a hand of someone not playing,
    a player's hand twice, a crib not the dealer's or two, a count past ``MAX_SHOW``, cards not
    the variant's hand (or crib) in number, a card that is not one or is twice in the deal or is
    the starter, or cards counted without a starter. Called after ``_check_rules`` (the variant
    is a known one)."""
    rules = Rules.for_variant(Variant(game.variant))
    names = {p for side in game.sides for p in (side.players or (side.name,))}
    why = ""
    for deal in game.deals:
        seen: set[tuple[str, bool]] = set()
        cards: set[Card] = set() if deal.starter is None else {Card.parse(deal.starter)}
        for show in deal.shown:
            what = f"deal {deal.number}'s {'crib' if show.crib else 'hand'} of {show.player!r:.40}"
            size = rules.crib_size if show.crib else rules.hand_size
            typed = [_card(text) for text in show.cards]
            if show.player not in names:
                why = f"{what}: no such player in the game"
            elif (show.player, show.crib) in seen:
                why = f"{what}: shown twice"
            elif show.crib and show.player != deal.dealer:
                why = f"{what}: the crib is the dealer's ({deal.dealer!r:.40})"
            elif not 0 <= show.points <= MAX_SHOW:
                why = f"{what} counted {_number(show.points)} (expected 0 to {MAX_SHOW})"
            elif typed and len(typed) != size:
                why = f"{what} of {len(typed)} cards (expected {size}, or none when told by points)"
            elif typed and deal.starter is None:
                why = f"{what} has cards but the deal no starter (expected its points alone)"
            elif None in typed or len(cards | set(typed)) != len(cards) + len(typed):
                shown = " ".join(show.cards)
                why = f"{what}: {shown!r:.40} (expected cards, none twice in the deal, e.g. 5H)"
            if why:
                raise PayloadError(f"not a finished game: {_short(payload)} ({why})")
            seen.add((show.player, show.crib))
            cards |= {card for card in typed if card is not None}


def _card(text: str) -> Card | None:
    """The card *text* names as a board writes it ("5H", "10D"), or None."""
    return Card.parse(text) if _is_card(text) else None


def _is_card(text: str) -> bool:
    """Whether *text* is one card as a board writes it ("5H", "10D")."""
    if len(text) > 4:
        return False
    try:
        parse_cards(text, count=1, what="starter")
    except PegboardError:
        return False
    return True


def _wrong_side(rules: Rules, sides: tuple[SideSummary, ...]) -> str:
    """What is wrong with a side's players, start or lurch under *rules*, or ""."""
    lines = [
        rules,
        *(rules.replace(lurch_line=line) for line in _OTHER_LURCH_LINES.get(rules.variant, ())),
    ]
    for index, side in enumerate(sides):
        seats = len(rules.teams[index])
        if side.players and len(side.players) != seats:
            return f"{side.name!r:.40} with {len(side.players)} players (expected {seats})"
        if side.score < rules.start_score(index):
            return (
                f"{side.name!r:.40} on {side.score}, below the {rules.start_score(index)} it "
                f"starts on in {rules.variant.value}"
            )
        due = {"none"} if side.won else {lurch_of(r, side.score).value for r in lines}
        if side.lurch not in due:
            expected = " or ".join(repr(lurch) for lurch in sorted(due))
            return (
                f"{'the winner' if side.won else 'the loser'} {side.name!r:.40} on {side.score} "
                f"marked {side.lurch!r} (expected {expected}: {_lines(lines)})"
            )
    return ""


def _lines(rules: list[Rules]) -> str:
    """ "lurched below 91, double-skunked below 61", as *rules* draw the lines."""
    lurch = sorted({r.lurch_line for r in rules if r.lurch_line is not None}, reverse=True)
    double = rules[0].double_skunk_line
    if not lurch:
        return f"no lurch in {rules[0].variant.value}"
    text = "lurched below " + " or ".join(str(line) for line in lurch)
    return text + (f", double-skunked below {double}" if double is not None else "")


def _number(value: int) -> str:
    digits = str(value)
    return digits if len(digits) <= 12 else f"a number of {len(digits)} digits"


def _short(payload: object, limit: int = 80) -> str:
    text = repr(payload)
    return text if len(text) <= limit else text[: limit - 3] + "..."
