"""The finished game's payload carries each deal's show: whose hand or crib, its cards when they
were typed, what it counted. An old board's payload (no shows) still reads; a show no board
counts is refused with one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pegboard.engine.commands import parse_command
from pegboard.engine.rules import Rules
from pegboard.engine.summary import GameSummary, PayloadError, ShowSummary
from pegboard.journal import Journal
from pegboard.journal.outbox import Outbox

BIG_GAME = (
    "cut 9C 3D",  # Bob deals first
    "starter 5C",
    "next",  # the play not counted
    "show 5H 5D 5S JC",  # Ann: 29
    "show 7",  # Bob: told by points
    "crib 2",  # Bob's crib, by points
    "starter 7C",
    "next",
    "show 7H 7D 7S 8C",  # Bob: four sevens with the eight, 20
    "show 28",  # Ann: a 28 told by its points
    "crib KH KD 2S 3C",  # Ann's crib
    "starter 2D",
    "peg {first} 58",  # 121
)


def big_game_payload(tmp_path: Path, first: str = "Ann", second: str = "Bob") -> str:
    """The outbox's row for a whole game on a board's journal (in *tmp_path*) in which a 29
    (*first*'s), a 28 (*first*'s, by points) and four of a kind (*second*'s) were shown: *first*
    wins 121 to 29, a skunk."""
    with Journal(tmp_path / "board.db", outbox=True) as journal:
        state = journal.new_match(Rules.six_card(), (first, second))
        for line in BIG_GAME:
            state, _ = journal.do(parse_command(line.format(first=first), state.names))
    outbox = Outbox(tmp_path / "board.db")
    try:
        [row] = outbox.pending()
    finally:
        outbox.close()
    return row.payload


def test_a_whole_games_payload_carries_its_shows(tmp_path: Path) -> None:
    payload = big_game_payload(tmp_path)
    data = json.loads(payload)
    assert [d.get("shown") for d in data["deals"]] == [
        [
            {"player": "Ann", "crib": False, "cards": ["5H", "5D", "5S", "JC"], "points": 29},
            {"player": "Bob", "crib": False, "cards": [], "points": 7},
            {"player": "Bob", "crib": True, "cards": [], "points": 2},
        ],
        [
            {"player": "Bob", "crib": False, "cards": ["7H", "7D", "7S", "8C"], "points": 20},
            {"player": "Ann", "crib": False, "cards": [], "points": 28},
            {"player": "Ann", "crib": True, "cards": ["KH", "KD", "2S", "3C"], "points": 6},
        ],
        None,  # the third deal ended in a peg before its show
    ]
    game = GameSummary.from_payload(data)
    assert [d.starter for d in game.deals] == ["5C", "7C", "2D"]
    assert game.deals[0].shown[0] == ShowSummary("Ann", False, ("5H", "5D", "5S", "JC"), 29)
    assert json.dumps(game.to_payload(), separators=(",", ":")) == payload  # sent as it reads


def test_a_partnerships_show_names_the_player(tmp_path: Path) -> None:
    """Four-handed: the hand is the player's (a seat name), the crib the dealer's."""
    with Journal(tmp_path / "board.db", outbox=True) as journal:
        state = journal.new_match(Rules.four_handed(), ("Us", "Them"))
        for line in (
            "cut 9C 3D",
            "starter 5C",
            "next",
            "show 5H 5D 5S JC",
            "peg Us 61",
            "peg Us 31",
        ):
            state, _ = journal.do(parse_command(line, state.names))
    outbox = Outbox(tmp_path / "board.db")
    try:
        [row] = outbox.pending()
    finally:
        outbox.close()
    game = GameSummary.from_payload(json.loads(row.payload))
    [show] = game.deals[0].shown
    assert show.player in next(s.players for s in game.sides if s.name == "Us")
    assert (show.crib, show.points) == (False, 29)


def old_payload() -> dict[str, object]:
    """A finished game as a board sent it before the shows: deals without ``shown``."""
    return {
        "game_id": "g1",
        "revision": 1,
        "game": 1,
        "variant": "six-card",
        "target": 121,
        "sides": [
            {"name": "Ann", "players": ["Ann"], "score": 121, "won": True, "lurch": "none"},
            {"name": "Bob", "players": ["Bob"], "score": 90, "won": False, "lurch": "lurched"},
        ],
        "winner": "Ann",
        "game_points": 2,
        "deals": [{"number": 1, "dealer": "Bob", "starter": "5C", "points": [29, 9]}],
        "started": "20:01",
        "ended": "20:40",
    }


def test_an_old_boards_payload_still_reads_and_is_sent_as_it_was() -> None:
    game = GameSummary.from_payload(old_payload())
    assert game.deals[0].shown == ()
    assert game.to_payload() == old_payload()


def with_shows(*shown: object, starter: str | None = "5C") -> dict[str, object]:
    """The old payload with one deal showing *shown*."""
    game = old_payload()
    deal = {"number": 1, "dealer": "Bob", "starter": starter, "points": [29, 9]}
    game["deals"] = [{**deal, "shown": list(shown)}]
    return game


def hand(player: str = "Ann", cards: object = ("5H", "5D", "5S", "JC"), points: object = 29,
         crib: object = False) -> dict[str, object]:  # fmt: skip
    return {"player": player, "crib": crib, "cards": list(cards)  # type: ignore[call-overload]
            if isinstance(cards, tuple) else cards, "points": points}  # fmt: skip


def test_good_shows_are_taken() -> None:
    game = GameSummary.from_payload(
        with_shows(hand(), hand("Bob", (), 7), hand("Bob", ("KH", "KD", "2S", "3C"), 6, True))
    )
    assert [(s.player, s.crib, len(s.cards), s.points) for s in game.deals[0].shown] == [
        ("Ann", False, 4, 29),
        ("Bob", False, 0, 7),
        ("Bob", True, 4, 6),
    ]
    by_points = GameSummary.from_payload(with_shows(hand(cards=(), points=28), starter=None))
    assert by_points.deals[0].shown == (ShowSummary("Ann", False, (), 28),)


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        pytest.param(
            with_shows(hand("Cy")),
            r"deal 1's hand of 'Cy': no such player in the game",
            id="not-a-player",
        ),
        pytest.param(
            with_shows(hand(), hand(cards=(), points=4)),
            r"deal 1's hand of 'Ann': shown twice",
            id="twice",
        ),
        pytest.param(
            with_shows(hand(crib=True, cards=())),
            r"deal 1's crib of 'Ann': the crib is the dealer's \('Bob'\)",
            id="crib-not-the-dealers",
        ),
        pytest.param(
            with_shows(hand(points=30)),
            r"deal 1's hand of 'Ann' counted 30 \(expected 0 to 29\)",
            id="30",
        ),
        pytest.param(with_shows(hand(points=-1)), r"counted -1 \(expected 0 to 29\)", id="below-0"),
        pytest.param(
            with_shows(hand(cards=("5H", "5D", "5S"))),
            r"deal 1's hand of 'Ann' of 3 cards \(expected 4, or none when told by points\)",
            id="three-cards",
        ),
        pytest.param(
            with_shows(hand(), starter=None),
            r"deal 1's hand of 'Ann' has cards but the deal no starter \(expected its "
            r"points alone\)",
            id="cards-without-a-starter",
        ),
        pytest.param(
            with_shows(hand(cards=("5H", "5D", "5S", "ZZ"))),
            r"deal 1's hand of 'Ann': '5H 5D 5S ZZ' \(expected cards, none twice in the "
            r"deal, e\.g\. 5H\)",
            id="not-a-card",
        ),
        pytest.param(
            with_shows(hand(cards=("5H", "5D", "5S", "5C"))),
            r"'5H 5D 5S 5C' \(expected cards, none twice in the deal",
            id="the-starter",
        ),
        pytest.param(
            with_shows(hand(), hand("Bob", ("5H", "2D", "3S", "4C"), 9)),
            r"deal 1's hand of 'Bob': '5H 2D 3S 4C' \(expected cards, none twice",
            id="a-card-in-two-hands",
        ),
    ],
)
def test_a_show_no_board_counts_is_refused_in_one_line(
    payload: dict[str, object], message: str
) -> None:
    with pytest.raises(PayloadError, match=r"^not a finished game: .*" + message + r".*\)$") as e:
        GameSummary.from_payload(payload)
    assert "\n" not in str(e.value)


@pytest.mark.parametrize(
    "shown",
    [
        pytest.param("29", id="not-a-list"),
        pytest.param([{"player": "Ann", "cards": "5H 5D 5S JC", "points": 29}], id="cards-text"),
        pytest.param([{"player": "Ann", "crib": "no", "cards": [], "points": 29}], id="crib-text"),
        pytest.param([{"player": "Ann", "cards": []}], id="no-points"),
        pytest.param([["Ann", 29]], id="not-an-object"),
    ],
)
def test_a_show_of_the_wrong_shape_is_refused_in_one_line(shown: object) -> None:
    game = old_payload()
    game["deals"] = [{"number": 1, "dealer": "Bob", "starter": "5C", "points": [29, 9],
                      "shown": shown}]  # fmt: skip
    with pytest.raises(PayloadError, match=r"^not a finished game: ") as e:
        GameSummary.from_payload(game)
    assert "\n" not in str(e.value)
