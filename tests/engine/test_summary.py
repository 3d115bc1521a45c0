"""The ``finished`` topic's wire format has one type: ``GameSummary`` to and from its payload."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.rules import Rules, Variant, lurch_of
from pegboard.engine.summary import (
    DealSummary,
    GameSummary,
    PayloadError,
    ShowSummary,
    SideSummary,
)
from pegboard.journal import Journal
from pegboard.journal.outbox import Outbox
from tests.engine.test_game_properties import Table

text = st.text(max_size=8)


@st.composite
def summaries(draw: st.DrawFn) -> GameSummary:
    """A game a board could finish under its variant's rules (one winner on the target or up to
    one score past it, every loser below it with the lurch its score gives), or a withdrawn
    win."""
    game_id, revision = draw(text), draw(st.integers(1, 50))
    if draw(st.booleans()):
        return GameSummary(game_id, revision, withdrawn=True)
    rules = Rules.for_variant(draw(st.sampled_from(list(Variant))))
    target, count = rules.target, rules.sides
    winner = draw(st.integers(0, count - 1))
    top = draw(st.integers(target, target + 60))
    scores = [
        top if i == winner else draw(st.integers(rules.start_score(i), target - 1))
        for i in range(count)
    ]
    sides = tuple(
        SideSummary(
            draw(text),
            scores[i],
            i == winner,
            "none" if i == winner else lurch_of(rules, scores[i]).value,
            tuple(draw(text) for _ in rules.teams[i]) if draw(st.booleans()) else (),
        )
        for i in range(count)
    )
    names = [p for side in sides for p in (side.players or (side.name,))]
    deals = []
    for n in range(1, draw(st.integers(0, 4)) + 1):
        dealer = draw(st.sampled_from(names) | text)
        starter = draw(st.none() | st.sampled_from(("5C", "JH")))
        shown = []  # a hand of the first player, the dealer's crib: with cards or by points
        for crib, cards in ((False, ("AS", "2S", "3S", "4S")), (True, ("6D", "7D", "8D", "9D"))):
            player = dealer if crib else names[0]
            if player in names and draw(st.booleans()):
                typed = starter is not None and draw(st.booleans())
                size = rules.crib_size if crib else rules.hand_size
                shown.append(
                    ShowSummary(
                        player, crib, cards[:size] if typed else (), draw(st.integers(0, 29))
                    )
                )
        points = tuple(draw(st.integers(0, min(60, score))) for score in scores)  # a deal's part
        deals.append(DealSummary(n, dealer, starter, points, tuple(shown)))
    optional = st.none() | st.integers(0, 9)
    return GameSummary(
        game_id, revision, rules.variant.value, target, sides,
        draw(optional), sides[winner].name, draw(optional), tuple(deals), draw(text), draw(text),
    )  # fmt: skip


@given(summaries())
def test_finished_game_payload_round_trips(summary: GameSummary) -> None:
    payload = summary.to_payload()
    assert GameSummary.from_payload(payload) == summary
    assert GameSummary.from_payload(json.loads(json.dumps(payload))) == summary


def test_the_boards_real_payload_parses_and_is_sent_as_it_reads(tmp_path: Path) -> None:
    """A real game won on a board, then taken back by undo: the outbox's rows are exactly the
    type's payloads."""
    with Journal(tmp_path / "board.db", outbox=True) as journal:
        state = journal.new_match(Rules.six_card(), ("Ann", "Bob"))
        for line in ("cut 9C 3D", "starter 5C", "peg Bob 50", "peg Ann 60", "peg Ann 61", "undo"):
            journal.do(parse_command(line, state.names))
    outbox = Outbox(tmp_path / "board.db")
    try:
        won, withdrawn = (row.payload for row in outbox.pending())
    finally:
        outbox.close()
    game = GameSummary.from_payload(json.loads(won))
    assert json.dumps(game.to_payload(), separators=(",", ":")) == won
    assert [(s.name, s.score, s.won, s.lurch, s.players) for s in game.sides] == [
        ("Ann", 121, True, "none", ("Ann",)),
        ("Bob", 50, False, "double-skunked", ("Bob",)),
    ]
    assert (game.revision, game.game, game.winner, game.game_points) == (1, 1, "Ann", 3)
    assert game.started and game.ended and game.deals[0].points == (121, 50)
    back = GameSummary.from_payload(json.loads(withdrawn))
    assert back == GameSummary(game.game_id, 2, withdrawn=True)
    assert json.dumps(back.to_payload(), separators=(",", ":")) == withdrawn


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        pytest.param({"withdrawn": True}, r"a game without a game id: \{'withdrawn'", id="no-id"),
        pytest.param({"game_id": "g", "sides": 3}, r"not a finished game: .*TypeError", id="sides"),
    ],
)
def test_a_payload_that_is_not_a_game_is_refused(payload: dict[str, object], message: str) -> None:
    with pytest.raises(PayloadError, match=message):
        GameSummary.from_payload(payload)


def six_card(winner: int = 121, loser: int = 100, lurch: str = "none") -> dict[str, object]:
    """A six-card game Ann won on *winner* against Bob on *loser*, marked *lurch*."""
    return {
        "game_id": "g1",
        "variant": "six-card",
        "target": 121,
        "sides": [
            {"name": "Ann", "score": winner, "won": True, "lurch": "none"},
            {"name": "Bob", "score": loser, "won": False, "lurch": lurch},
        ],
    }


def changed(**fields: object) -> dict[str, object]:
    return {**six_card(), **fields}


def many_sides(count: int) -> list[dict[str, object]]:
    return [
        {"name": f"p{i}", "score": 121 if i == 0 else 100, "won": i == 0, "lurch": "none"}
        for i in range(count)
    ]


def five_card(loser: int, lurch: str) -> dict[str, object]:
    return {**six_card(), "variant": "five-card", "target": 61, "sides": [
        {"name": "Ann", "score": 61, "won": True, "lurch": "none"},
        {"name": "Bob", "score": loser, "won": False, "lurch": lurch},
    ]}  # fmt: skip


def named(name: str) -> dict[str, object]:
    game = six_card()
    game["sides"][1]["name"] = name  # type: ignore[index]
    return game


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        pytest.param(
            six_card(winner=5, loser=0, lurch="double-skunked"),
            r"\(the winner 'Ann' on 5, below the target 121\)",
            id="winner-on-5",
        ),
        pytest.param(
            changed(
                target=5,
                sides=[
                    {"name": "Ann", "score": 5, "won": True, "lurch": "none"},
                    {"name": "Bob", "score": 2, "won": False, "lurch": "none"},
                ],
            ),
            r"\(a target of 5 \(expected 121 in six-card\)\)",
            id="target-5",
        ),
        pytest.param(
            six_card(loser=120, lurch="lurched"),
            r"\(the loser 'Bob' on 120 marked 'lurched' \(expected 'none': lurched below 91, "
            r"double-skunked below 61\)\)",
            id="lurched-on-120",
        ),
        pytest.param(
            six_card(loser=40, lurch="none"),
            r"\(the loser 'Bob' on 40 marked 'none' \(expected 'double-skunked': lurched below "
            r"91, double-skunked below 61\)\)",
            id="not-lurched-on-40",
        ),
        pytest.param(
            changed(variant="chess"),
            r"\(unknown variant 'chess' \(expected one of six-card, three-handed, four-handed, "
            r"two-against-one, two-in-the-crib, five-card\)\)",
            id="chess",
        ),
        pytest.param(
            changed(sides=many_sides(300)), r"\(300 sides \(expected 2 in six-card\)\)", id="300"
        ),
        pytest.param(
            six_card(winner=10**30),
            r"\(the winner 'Ann' on a number of 31 digits, past the target by more than one "
            r"score can peg \(expected 121 to 181\)\)",
            id="10-to-the-30",
        ),
        pytest.param(
            named("x" * 100_000),
            r"\(a side name of 100,000 characters \(expected at most 4096 bytes\)\)",
            id="100-kb-name",
        ),
        pytest.param(
            six_card(winner=182),
            r"past the target by more than one score can peg \(expected 121 to 181\)\)",
            id="winner-on-182",
        ),
        pytest.param(
            {
                **six_card(),
                "variant": "two-against-one",
                "sides": [
                    {"name": "Pair", "score": 121, "won": True, "lurch": "none"},
                    {"name": "Solo", "score": 59, "won": False, "lurch": "none"},
                ],
            },
            r"\('Solo' on 59, below the 60 it starts on in two-against-one\)",
            id="solo-below-60",
        ),
        pytest.param(
            five_card(20, "none"),
            r"\(the loser 'Bob' on 20 marked 'none' \(expected 'lurched': lurched below 45 or "
            r"31\)\)",
            id="five-card-lurch",
        ),
        pytest.param(
            {
                **six_card(),
                "variant": "four-handed",
                "sides": [
                    {"name": "Us", "score": 121, "won": True, "lurch": "none", "players": ["A"]},
                    {"name": "Them", "score": 99, "won": False, "lurch": "none"},
                ],
            },
            r"\('Us' with 1 players \(expected 2\)\)",
            id="partnership-of-one",
        ),
        pytest.param(
            changed(deals=[{"number": n, "dealer": "Ann", "points": [1, 0]} for n in range(501)]),
            r"\(501 deals \(expected at most 500\)\)",
            id="deals",
        ),
        pytest.param(
            changed(game_id="g" * 65),
            r"\(a game id of 65 characters \(expected at most 64 bytes\)\)",
            id="long-id",
        ),
        # fields the standings do not count, but the page and the records show
        pytest.param(
            changed(winner="Bob"),
            r"\(a winner 'Bob' who is not the side that won \('Ann'\)\)",
            id="winner-not-the-side-that-won",
        ),
        pytest.param(
            changed(game_points=10**30),
            r"\(a number of 31 digits game points \(expected 0 to 9\)\)",
            id="game-points",
        ),
        pytest.param(
            changed(deals=[{"number": 10**30, "dealer": "Ann", "points": [1, 0]}]),
            r"\(a deal numbered a number of 31 digits \(expected 1 to 500\)\)",
            id="deal-number",
        ),
        pytest.param(
            changed(deals=[{"number": 1, "dealer": "Ann", "points": [10**30, -5]}]),
            r"\(deal 1's points a number of 31 digits, -5 \(expected 0 to each side's final "
            r"score\)\)",
            id="deal-points",
        ),
        pytest.param(
            changed(
                deals=[{"number": 1, "dealer": "Ann", "starter": "Z" * 4000, "points": [1, 0]}]
            ),
            r"\(deal 1's starter 'ZZZZZZZZZZZZZZZZZZZ \(expected a card, e\.g\. 5H\)\)",
            id="starter",
        ),
    ],
)
def test_a_game_its_rules_could_not_finish_is_refused(
    payload: dict[str, object], message: str
) -> None:
    with pytest.raises(PayloadError, match=r"^not a finished game: .*" + message + "$"):
        GameSummary.from_payload(payload)


@pytest.mark.parametrize(
    "payload",
    [
        pytest.param(six_card(winner=181), id="one-peg-of-61-from-120"),
        pytest.param(six_card(loser=90, lurch="lurched"), id="lurched-on-90"),
        pytest.param(six_card(loser=60, lurch="double-skunked"), id="double-skunked-on-60"),
        pytest.param(named("x" * 4096), id="4096-byte-name"),
        # five-card's lurch line is 45, or 31 in some rule books: between them, either
        pytest.param(five_card(40, "none"), id="five-card-40-none"),
        pytest.param(five_card(40, "lurched"), id="five-card-40-lurched"),
    ],
)
def test_a_game_on_the_edge_of_its_rules_is_taken(payload: dict[str, object]) -> None:
    assert GameSummary.from_payload(payload).game_id == "g1"


@pytest.mark.parametrize("variant", [pytest.param(v, id=v.value) for v in Variant])
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_every_game_the_engine_finishes_is_taken(variant: Variant, seed: int) -> None:
    """Random legal play (the game properties' driver, pegs and undos included) to the end of
    a match: every game it finishes passes the league's check, as the board sends it."""
    rules = Rules.for_variant(variant, muggins=seed % 2 == 0)
    state, driver = GameState.new(rules), Table(random.Random(seed))
    for _ in range(3000):
        if state.phase is Phase.MATCH_OVER:
            break
        state, _ = apply(state, driver.command(state))
    assert state.table.finished
    for record in state.table.finished:
        summary = GameSummary.of(state, record, game_id=f"g{record.game}", ended="21:30")
        payload = json.loads(json.dumps(summary.to_payload()))
        assert GameSummary.from_payload(payload) == summary
