"""The playoff on the boards (issue 24): which board plays which bracket match, the notice each
board gets for it (the match, the two players, the higher seed cutting first, best of N), the
games counted onto a match until its winner goes through, and nights stored before any of this
still replaying as they were."""

from __future__ import annotations

import pytest

from pegboard.tourney.night import Night, TourneyError
from pegboard.tourney.notices import TableNotice, board_notices
from pegboard.tourney.playoff import due, match_boards, score
from pegboard.tourney.steps import Tourney, apply_step

BOARDS = [f"club/b{n}" for n in range(1, 19)]


def drawn(qualifiers: list[str], best_of: int = 3, boards: list[str] | None = None) -> Tourney:
    t = Tourney(Night("club", 9))
    t = apply_step(t, "boards", {"boards": BOARDS})
    payload: dict[str, object] = {"qualifiers": qualifiers, "best_of": best_of}
    if boards is not None:
        payload["boards"] = boards
    return apply_step(t, "bracket", payload)


def game(t: Tourney, number: int, slot: int, winner: str, game_id: str, board: str) -> Tourney:
    payload = {"round": number, "slot": slot, "winner": winner, "game_id": game_id,
               "board": board, "loser_score": 100}  # fmt: skip
    return apply_step(t, "playoff_game", payload)


NINE = ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9"]


def test_the_36_player_nights_nine_qualifiers_play_on_the_first_boards_and_travel_up() -> None:
    """9 qualifiers, a bracket of 16 with 7 byes: round 1 is 8 v 9 alone (board 1); round 2's
    match of P1 plays where 8 v 9 was played, the other three (bye v bye) on boards 2-4; each
    later match where its first feeder was played."""
    t = drawn(NINE, boards=BOARDS)
    assert match_boards(t) == {
        (1, 1): "club/b1",
        (2, 0): "club/b1",
        (2, 1): "club/b2",
        (2, 2): "club/b3",
        (2, 3): "club/b4",
        (3, 0): "club/b1",
        (3, 1): "club/b3",
        (4, 0): "club/b1",
    }
    # now: 8 v 9 on b1; P4 v P5, P2 v P7 and P3 v P6 on b2-b4 (their players are known)
    playing = {b: (m.round, m.slot, m.high, m.low) for b, m in due(t).items()}
    assert playing == {
        "club/b1": (1, 1, "P8", "P9"),
        "club/b2": (2, 1, "P4", "P5"),
        "club/b3": (2, 2, "P2", "P7"),
        "club/b4": (2, 3, "P3", "P6"),
    }


def test_each_board_is_told_its_match_the_higher_seed_first_and_its_length() -> None:
    t = drawn(NINE, best_of=5, boards=BOARDS)
    notices = board_notices(t)
    assert notices["club/b1"] == TableNotice("club", 1, 0, "P8", "P9", False, True, 2, 5)
    assert notices["club/b3"] == TableNotice("club", 2, 0, "P2", "P7", False, True, 3, 5)
    assert notices["club/b5"] == TableNotice("club")  # nothing to play (yet)
    payload = notices["club/b1"].to_payload()
    assert (payload["playoff"], payload["match"], payload["games"]) == (True, 2, 5)
    assert notices["club/b1"].players == ("P8", "P9")


def test_a_board_plays_its_match_to_the_majority_and_then_the_next_one_is_its_own() -> None:
    """Best of 3: P9 wins a game, P8 two; P8 goes through once, to play P1 on the same board."""
    t = drawn(NINE, boards=BOARDS)
    t = game(t, 1, 1, "P9", "g1", "club/b1")
    assert t.bracket is not None and t.bracket.match(1, 1).winner is None  # type: ignore[union-attr]
    t = game(t, 1, 1, "P8", "g2", "club/b1")
    assert board_notices(t)["club/b1"].match == 2  # still 1-1: still this match
    t = game(t, 1, 1, "P8", "g3", "club/b1")
    match = t.bracket.match(1, 1)
    assert match is not None and match.winner == "P8"
    assert score(t, match) == "P8 2-1 (P9 121-100 club/b1, P8 121-100 club/b1, P8 121-100 club/b1)"
    assert board_notices(t)["club/b1"] == TableNotice("club", 2, 0, "P1", "P8", False, True, 1, 3)
    with pytest.raises(TourneyError, match=r"^playoff round 1 match 2 was won by P8 already$"):
        game(t, 1, 1, "P9", "g4", "club/b1")
    with pytest.raises(TourneyError, match=r"^duplicate game 'g3': already counted$"):
        game(t, 2, 0, "P1", "g3", "club/b1")


def test_a_round_still_to_play_at_a_board_comes_before_its_playoff_match() -> None:
    t = Tourney(Night("club", 9))
    for name in ("Ann", "Bob"):
        t = apply_step(t, "enter", {"name": name})
    t = apply_step(t, "boards", {"boards": ["club/b1"]})
    seating = {"pairings": [{"table": 1, "first": "Ann", "second": "Bob", "board": "club/b1"}],
               "bye": None, "movement": False, "repeats": 0}  # fmt: skip
    t = apply_step(t, "seat", seating)
    t = apply_step(t, "bracket", {"qualifiers": ["Ann", "Bob"], "best_of": 3,
                                  "boards": ["club/b1"]})  # fmt: skip
    assert board_notices(t)["club/b1"] == TableNotice("club", 1, 1, "Ann", "Bob")


def test_a_moved_match_is_played_on_its_new_board_and_its_winner_goes_on_there() -> None:
    t = drawn(NINE, boards=BOARDS)
    t = apply_step(t, "playoff_board", {"round": 1, "slot": 1, "board": "club/b9"})
    assert match_boards(t)[(1, 1)] == match_boards(t)[(2, 0)] == "club/b9"
    assert board_notices(t)["club/b1"].players is None
    for wrong, said in (
        ({"round": 1, "slot": 1, "board": "club/b99"}, "the playoff's boards must be the night"),
        ({"round": 1, "slot": 0, "board": "club/b2"}, "no playoff round 1 match 1 to play"),
        ({"round": 7, "slot": 0, "board": "club/b2"}, "no playoff round 7 match 1 to play"),
    ):
        with pytest.raises(TourneyError, match=said):
            apply_step(t, "playoff_board", wrong)


def test_the_playoffs_boards_must_be_the_nights() -> None:
    with pytest.raises(TourneyError, match=r"^the playoff's boards must be the night's, each"):
        drawn(NINE, boards=["club/b1", "club/b1"])
    with pytest.raises(TourneyError, match=r"got \['pub/x'\]$"):
        drawn(NINE, boards=["pub/x"])


def test_a_night_stored_before_the_playoffs_boards_replays_as_it_was() -> None:
    """An old bracket step (no "boards") and old playoff games (no board, no score): no board
    is given a match, no playoff notice is sent, the games still count."""
    t = drawn(["Ann", "Bob"])
    assert t.playoff_boards == () and match_boards(t) == {} and due(t) == {}
    assert all(n.players is None for n in board_notices(t).values())
    for n, gid in enumerate(("g1", "g2")):
        t = apply_step(t, "playoff_game", {"round": 1, "slot": 0, "winner": "Bob", "game_id": gid})
        assert t.playoff[n].board == "" and t.playoff[n].loser_score is None
    assert t.bracket is not None and t.bracket.champion == "Bob"


def test_a_notice_from_before_the_playoff_is_a_rounds_and_one_game_long() -> None:
    old = {"night": "club", "round": 2, "table": 7, "first": "Cy", "second": "Di", "locked": False}
    notice = TableNotice.from_payload(old)
    assert (notice.playoff, notice.match, notice.games) == (False, 0, 1)
    assert notice.to_payload() == old  # a round's notice is sent as before
    for bad in ({"games": 4}, {"playoff": True, "match": 0, "games": 3}, {"games": "3"}):
        with pytest.raises(TourneyError, match=r"^a table notice's"):
            TableNotice.from_payload(old | {"table": 0} | bad)


def test_the_director_corrects_a_decided_match_on_the_record_until_the_next_one_starts() -> None:
    t = drawn(NINE, boards=BOARDS)
    t = game(t, 1, 1, "P8", "g1", "club/b1")
    t = game(t, 1, 1, "P8", "g2", "club/b1")  # P8 through, to play P1 on b1
    fix = {"round": 1, "slot": 1, "winner": "P9", "who": "Pat", "when": "21:40",
           "why": "game 2's scores were swapped"}  # fmt: skip
    for missing, said in (("who", "who made it"), ("why", "a reason")):
        with pytest.raises(TourneyError, match=f"^a correction needs {said}"):
            apply_step(t, "playoff_correct", fix | {missing: " "})
    with pytest.raises(TourneyError, match=r"to its other player .* got P8$"):
        apply_step(t, "playoff_correct", fix | {"winner": "P8"})
    fixed = apply_step(t, "playoff_correct", fix)
    assert fixed.bracket is not None
    assert fixed.bracket.match(1, 1).winner == "P9"  # type: ignore[union-attr]
    assert fixed.bracket.match(2, 0).low == "P9"  # type: ignore[union-attr]
    assert [(f.winner, f.who, f.why) for f in fixed.fixes] == [
        ("P9", "Pat", "game 2's scores were swapped")
    ]
    assert board_notices(fixed)["club/b1"].players == ("P1", "P9")
    started = game(fixed, 2, 0, "P1", "g3", "club/b1")
    with pytest.raises(TourneyError, match=r"round 2 match 1 has games counted already$"):
        apply_step(started, "playoff_correct", fix | {"winner": "P8"})
    with pytest.raises(TourneyError, match=r"has no winner to correct"):
        apply_step(t, "playoff_correct", fix | {"round": 2, "slot": 0})
