"""Whole games through commands: the table's flow, scoring both ways, the end of a game."""

from __future__ import annotations

import pytest

from pegboard.engine.commands import InvalidCommandError, parse_command
from pegboard.engine.events import GameWon, Pegged, Source
from pegboard.engine.game import GameState, Phase, apply, replay, show_order
from pegboard.engine.match import MatchFormat
from pegboard.engine.names import check_new_names
from pegboard.engine.rules import Lurch, Rules
from pegboard.errors import (
    GameOverError,
    IllegalCommandError,
    IllegalPlayError,
    InvalidHandError,
)


def run(state: GameState, *texts: str) -> GameState:
    """Apply each command text in turn."""
    for text in texts:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def events_of(state: GameState, text: str) -> tuple[GameState, list[object]]:
    new, events = apply(state, parse_command(text, state.names))
    return new, list(events)


def refused(state: GameState, text: str, error: type[Exception], match: str) -> None:
    """The command is refused with *error* matching *match*, and the state is unchanged."""
    before = state
    with pytest.raises(error, match=match):
        apply(state, parse_command(text, state.names))
    assert state == before


def test_the_run_helper_fails_on_a_refused_command() -> None:
    with pytest.raises(IllegalCommandError):
        run(GameState.new(Rules.six_card()), "starter 5H")


def test_the_lower_cut_deals_and_a_tie_is_cut_again() -> None:
    state = GameState.new(Rules.six_card())
    state = run(state, "cut 10H KC")
    assert state.phase is Phase.CUT and state.table.dealer is None
    state = run(state, "cut 9H 3C")
    assert state.phase is Phase.STARTER and state.table.dealer == 1


def test_his_heels_can_win_the_game() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "peg Sky 61", "peg Sky 58")
    assert state.table.dealer == 0 and state.table.scores == (119, 0)
    state, events = events_of(state, "starter JD")
    assert state.phase is Phase.GAME_OVER
    heels = [e for e in events if isinstance(e, Pegged)]
    assert heels[0].source is Source.HEELS and heels[0].points == 2
    won = [e for e in events if isinstance(e, GameWon)]
    assert won[0].result.winner == 0
    assert won[0].result.lurches == (Lurch.NONE, Lurch.DOUBLE_SKUNKED)
    assert won[0].result.game_points == 3


def test_the_non_dealer_pegging_out_in_the_show_refuses_the_dealers_hand() -> None:
    state = run(
        GameState.new(Rules.six_card()),
        "cut 3C 9H",  # Sky deals, Gold is the pone and counts first
        "peg Sky 50",
        "peg Sky 50",
        "peg Gold 50",
        "peg Gold 42",
        "starter 5C",
        "next",
    )
    assert state.phase is Phase.SHOW
    state = run(state, "show 5H 5D 5S JC")
    assert state.table.scores == (100, 121)
    result = state.table.finished[-1].result
    assert result.winner == 1 and result.game_points == 1
    refused(state, "show 2H 3H 4H 6D", GameOverError, r"the game is over \(Gold won 121 to 100\)")
    refused(state, "peg Sky 2", GameOverError, "the game is over")


@pytest.mark.parametrize(
    ("loser", "lurch", "points"),
    [
        pytest.param(90, Lurch.LURCHED, 2, id="lurch-below-91"),
        pytest.param(91, Lurch.NONE, 1, id="plain-at-91"),
        pytest.param(60, Lurch.DOUBLE_SKUNKED, 3, id="double-skunk-below-61"),
    ],
)
def test_game_points_come_from_the_losers_score(loser: int, lurch: Lurch, points: int) -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "peg Gold 60", "peg Gold 60")
    state = run(state, *[f"peg Sky {n}" for n in (loser // 2, loser - loser // 2)], "peg Gold 1")
    result = state.table.finished[-1].result
    assert result.lurches[0] is lurch and result.game_points == points


def test_undo_of_the_winning_peg_reopens_the_game_and_redo_wins_again() -> None:
    state = run(
        GameState.new(Rules.six_card()), "cut 3C 9H", "peg Sky 61", "peg Sky 58", "starter JD"
    )
    assert state.phase is Phase.GAME_OVER
    reopened = run(state, "undo")
    assert reopened.phase is Phase.STARTER and reopened.table.scores == (119, 0)
    assert reopened.table.finished == ()
    assert run(reopened, "redo") == state


def test_undo_reaches_back_across_deals_to_the_start() -> None:
    texts = ["cut 3C 9H", "peg Sky 5", "deal", "peg Gold 7", "deal", "starter 4H", "peg Sky 3"]
    state = run(GameState.new(Rules.six_card()), *texts)
    assert state.table.deal == 3
    back = run(state, *["undo"] * len(texts))
    assert back.table == GameState.new(Rules.six_card()).table
    refused(back, "undo", IllegalCommandError, "nothing to undo")
    assert run(back, *["redo"] * len(texts)).table == state.table


def test_a_new_command_after_undo_drops_the_redo() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "peg Sky 5", "undo", "peg Gold 2")
    refused(state, "redo", IllegalCommandError, "nothing to redo")


def test_the_seed_play_example_in_counting_mode() -> None:
    # English document: A has K-K-2-2, B has 9-8-7-6; B deals so A leads
    state = run(GameState.new(Rules.six_card(), ("A", "B")), "cut 9C 3D", "starter 5C")
    state = run(state, "play KS", "play 6H", "play KD", "go", "play 2C")
    state, events = events_of(state, "play 2D")  # "30 for 3": a pair and one for the go
    assert [e.points for e in events if isinstance(e, Pegged)] == [3]
    state = run(state, "play 8H")
    state, events = events_of(state, "play 7H")  # fifteen two
    assert [e.points for e in events if isinstance(e, Pegged)] == [2]
    state, events = events_of(state, "play 9H")  # "24 for 3 and 1 for last"
    assert [e.points for e in events if isinstance(e, Pegged)] == [4]
    assert state.phase is Phase.SHOW and state.table.scores == (3, 6)


def test_the_seed_example_1_go_and_last() -> None:
    # A: 10 10 9 6, B: 7 6 5 4
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter KC")
    state = run(state, "play 9S", "play 6H", "play 6S", "play 5H", "go")
    state, events = events_of(state, "play 4H")  # a run of three (30)
    assert [e.points for e in events if isinstance(e, Pegged)] == [3]
    # the device cannot see that B's 7 does not fit, so B says go too: one for the go
    state, events = events_of(state, "go")
    assert [e.points for e in events if isinstance(e, Pegged)] == [1]
    state = run(state, "play 10S", "play 7H")
    state, events = events_of(state, "play 10D")
    assert [e.points for e in events if isinstance(e, Pegged)] == [1]
    assert state.table.scores == (2 + 1, 2 + 4)


def test_the_seed_example_2_no_run_across_a_reset() -> None:
    # A: 10 8 7 5, B: 7 6 5 4; after 8 7 7 6 (28) nobody can play
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter KC")
    state = run(state, "play 8S", "play 7H", "play 7S", "play 6H", "go")
    state, events = events_of(state, "go")
    assert [e.points for e in events if isinstance(e, Pegged)] == [1]  # B: one for last
    assert state.table.play is not None and state.table.play.turn == 0
    state, events = events_of(state, "play 5S")  # no run with the 7 and 6 of the last series
    assert not [e for e in events if isinstance(e, Pegged)]


def test_a_card_out_of_turn_or_over_31_is_refused_unchanged() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter KC")
    state = run(state, "play KS", "play QH", "play 9D")
    refused(state, "play 5D", IllegalPlayError, "cannot play 5D")
    refused(state, "play 9D", IllegalPlayError, "already laid")
    refused(state, "play KC", IllegalPlayError, "starter")


def test_known_hands_count_themselves_in_the_show() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter 5C")
    state = run(state, "play KS", "play 6H", "play KD", "go", "play 2C", "play 2D")
    state = run(state, "play 8H", "play 7H", "play 9H", "show", "show")
    shown = state.table.record.shown if state.table.record else ()
    assert [(h.seat, h.points) for h in shown] == [(0, 8), (1, 13)]
    refused(state, "show", InvalidHandError, "the crib without its cards")
    refused(state, "crib", InvalidHandError, "never laid in the play")
    refused(state, "crib KS 3S 4C QH", InvalidHandError, "KS .* already in Sky's hand")
    state = run(state, "crib AS 3S 4C QH")
    assert state.table.scores == (3 + 8, 6 + 13 + 7) and state.table.deal == 2


def test_a_hand_that_contradicts_the_play_is_refused() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter 5C", "play KS", "next")
    refused(state, "show", InvalidHandError, "1 of its 4 cards were laid")
    refused(state, "show 2H 3H 4H 6H", InvalidHandError, "laid KS in the play")
    refused(state, "show KS 5C 4H 6H", InvalidHandError, "5C .* is the starter")


def test_the_crib_must_wait_for_the_hands() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "starter 5C", "next")
    refused(state, "crib AS 3S 4C QH", IllegalCommandError, "Sky's hand comes first")


def test_a_table_that_pegs_by_hand_moves_on_without_cards() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "next", "peg Sky 4", "next")
    state = run(state, "peg Sky 8", "next", "peg Gold 12", "next", "next")
    assert state.table.deal == 2 and state.table.dealer == 0 and state.phase is Phase.STARTER
    record = state.table.deals[0]
    assert record.pegging == (4, 0) and record.hands == (8, 12)
    state = run(state, "peg Gold 3", "deal")
    assert state.table.deal == 3 and state.table.dealer == 1


def test_a_deal_without_a_starter_is_pegged_by_hand_and_its_hands_told_by_points() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "next")
    assert state.phase is Phase.PLAY and state.table.play is None  # the play is not counted
    refused(state, "play 5H", IllegalCommandError, "no starter was entered this deal")
    state = run(state, "peg Sky 2", "next")
    refused(state, "show 5H 5D 5S JC", IllegalCommandError, r"instead, e\.g\. 'show 8'")
    state, events = events_of(state, "show 8")
    pegs = [(e.side, e.points, e.source) for e in events if isinstance(e, Pegged)]
    assert pegs == [(0, 8, Source.HAND)]
    state = run(state, "show 0", "crib 12")  # Gold's hand: nothing; then the deal moves on
    assert state.phase is Phase.STARTER and state.table.deal == 2
    record = state.table.deals[0]
    assert (record.pegging, record.hands, record.crib) == ((2, 0), (8, 0), (0, 12))
    assert record.shown == ()  # no cards were shown


def test_a_hand_told_by_points_can_win_the_game_at_once() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 9C 3D", "peg Sky 61", "peg Sky 58")
    state = run(state, "next", "next", "show 4")  # Sky, on the dealer's left, counts first
    assert state.phase is Phase.GAME_OVER and state.table.scores == (123, 0)
    refused(state, "show 8", GameOverError, "the game is over")


def test_a_hand_told_by_points_is_0_to_29_and_takes_no_claim() -> None:
    state = run(GameState.new(Rules.six_card(muggins=True)), "cut 9C 3D", "next", "next")
    refused(state, "show 30", InvalidCommandError, "a hand is worth 0 to 29")
    state = run(state, "claim 8")
    refused(state, "show 8", IllegalCommandError, "after a claim of 8")


def test_muggins_short_claim_gives_the_difference_to_the_opponent() -> None:
    state = GameState.new(Rules.six_card(muggins=True))
    state = run(state, "cut 3C 9H", "starter 5C", "next", "claim 20")
    state, events = events_of(state, "show 5H 5D 5S JC")
    pegs = [(e.side, e.points, e.source) for e in events if isinstance(e, Pegged)]
    assert pegs == [(1, 20, Source.HAND), (0, 9, Source.MUGGINS)]


def test_muggins_over_claim_pegs_only_the_true_count() -> None:
    state = GameState.new(Rules.six_card(muggins=True))
    state = run(state, "cut 3C 9H", "starter 5C", "next", "claim 29")
    state, events = events_of(state, "show 2H 2D 9S KC")
    assert [(e.side, e.points) for e in events if isinstance(e, Pegged)] == [(1, 4)]


def test_muggins_is_refused_when_off_and_claimed_twice() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "starter 5C", "next")
    refused(state, "claim 8", IllegalCommandError, "muggins is off")
    state = run(GameState.new(Rules.six_card(muggins=True)), "cut 3C 9H", "next", "next")
    state = run(state, "claim 8")
    refused(state, "claim 9", IllegalCommandError, "already claimed at 8")


def test_three_handed_muggins_goes_to_the_next_player() -> None:
    state = GameState.new(Rules.three_handed(muggins=True))
    state = run(state, "cut 2C 9H KD", "starter 5C", "next", "claim 1")
    assert show_order(state.rules, 0)[0] == 1
    state, events = events_of(state, "show 5H 5D 5S JC")
    assert [(e.side, e.points) for e in events if isinstance(e, Pegged)] == [(1, 1), (2, 28)]


def test_muggins_in_the_play_short_claim_gives_the_rest_to_the_opponent() -> None:
    state = GameState.new(Rules.six_card(muggins_in_play=True))
    state = run(state, "cut 3C 9H", "starter 2C", "play 4H", "play 6D")  # A deals; B leads
    state = run(state, "claim 2")  # B sees the fifteen but not the run of 3
    state, events = events_of(state, "play 5S")
    pegs = [(e.side, e.points, e.source) for e in events if isinstance(e, Pegged)]
    assert pegs == [(1, 2, Source.PLAY), (0, 3, Source.MUGGINS)]
    assert state.table.claim is None  # a claim is for one card


def test_muggins_in_the_play_over_claim_pegs_only_the_true_count() -> None:
    state = GameState.new(Rules.six_card(muggins_in_play=True))
    state = run(state, "cut 3C 9H", "starter 2C", "play KH", "claim 6")
    state, events = events_of(state, "play 5S")
    assert [(e.side, e.points) for e in events if isinstance(e, Pegged)] == [(0, 2)]


def test_muggins_in_the_play_without_a_claim_pegs_everything() -> None:
    state = GameState.new(Rules.six_card(muggins_in_play=True))
    state = run(state, "cut 3C 9H", "starter 2C", "play 4H", "play 6D", "play 5S")
    assert state.table.scores == (0, 5)


def test_a_play_claim_lapses_on_go_and_is_refused_when_off() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "starter 2C")
    refused(state, "claim 2", IllegalCommandError, "muggins in the play is off")
    state = GameState.new(Rules.six_card(muggins_in_play=True))
    state = run(state, "cut 3C 9H", "starter 2C", "play KH", "play QD", "play JS", "claim 2")
    refused(state, "claim 3", IllegalCommandError, "Sky's next card was already claimed at 2")
    state = run(state, "go")  # A claimed, then says go at 30 instead: the claim lapses
    assert state.table.claim is None


def test_five_card_three_for_last_and_a_single_series() -> None:
    state = run(GameState.new(Rules.five_card()), "cut 3C 9H")
    assert state.table.scores == (0, 3)  # three for last to the non-dealer at the start
    state = run(state, "starter 2C", "play KS", "play QH", "play 8D", "go")
    state, events = events_of(state, "go")
    assert [e.points for e in events if isinstance(e, Pegged)] == [1]
    assert state.phase is Phase.SHOW  # one series only: unplayed cards stay in hand
    refused(state, "show", InvalidHandError, "2 of its 3 cards")
    state = run(state, "show KS 8D 5H", "show QH 3D 4H")  # the pone B first, then A
    assert state.table.scores == (0 + 2 + 3, 3 + 1 + 4)


def test_a_five_card_crib_flush_pegs_four_and_only_with_all_five_cards() -> None:
    # RULES.md: a five-card crib flush needs all five cards of one suit and is worth 4, not 5
    state = run(GameState.new(Rules.five_card()), "cut 3C 9H")  # A deals; B has three for last
    state = run(state, "starter KH", "next", "next", "next", "crib 2H 4H 6H 8H")
    assert state.table.scores == (4, 3)
    state = run(GameState.new(Rules.five_card()), "cut 3C 9H")
    state = run(state, "starter KC", "next", "next", "next", "crib 2H 4H 6H 8H")
    assert state.table.scores == (0, 3)  # four hearts and a club starter: no crib flush


def test_four_handed_partners_peg_on_one_track() -> None:
    state = GameState.new(Rules.four_handed(), ("NS", "EW"))
    state = run(state, "cut 3C 9H", "starter 2C", "play 5S", "play 10H", "play 5H", "play 5D")
    # EW1 leads 5S, NS2 makes fifteen with 10H, EW2 lays 5H, NS1 pairs it with 5D
    assert state.table.scores == (2 + 2, 0)
    assert state.seat_name(2) == "NS2" and state.table.play is not None
    assert state.table.play.turn == 1


def test_two_against_one_solo_starts_on_60_and_is_never_lurched() -> None:
    state = GameState.new(Rules.two_against_one(), ("Pair", "Solo"))
    assert state.table.scores == (0, 60)
    state = run(state, "cut 3C 9H", "peg Solo 61")
    result = state.table.finished[-1].result
    assert result.winner == 1 and result.lurches == (Lurch.NONE, Lurch.NONE)
    assert result.game_points == 1


def test_two_in_the_crib_counts_a_four_card_crib() -> None:
    state = run(GameState.new(Rules.two_in_the_crib()), "cut 3C 9H", "starter 5C", "next")
    state = run(state, "next", "next", "crib 5H 5D 5S JC")
    assert state.table.scores == (29, 0)


def test_the_match_is_decided_early_and_then_refuses_play() -> None:
    state = run(
        GameState.new(Rules.six_card()), "cut 3C 9H", "peg Sky 61", "peg Sky 58", "starter JD"
    )
    assert state.match.points == (3, 0) and state.phase is Phase.GAME_OVER
    state = run(state, "next")  # game 2: the other side deals first
    assert state.table.dealer == 1 and state.table.scores == (0, 0)
    state = run(state, "peg Sky 61", "peg Sky 60")
    assert state.phase is Phase.MATCH_OVER and state.match.winner == 0
    refused(state, "next", GameOverError, "the match is over")


def test_game_three_is_cut_for_afresh() -> None:
    state = run(GameState.new(Rules.six_card()), "cut 3C 9H", "peg Sky 61", "peg Sky 60", "next")
    state = run(state, "peg Gold 61", "peg Gold 60", "next")
    assert state.phase is Phase.CUT and state.table.game == 3


def test_single_game_match_is_over_after_one_game() -> None:
    state = GameState.new(Rules.six_card(), match_format=MatchFormat.SINGLE)
    state = run(state, "cut 3C 9H", "peg Gold 61", "peg Gold 60")
    assert state.phase is Phase.MATCH_OVER


def test_replaying_the_commands_gives_the_identical_state() -> None:
    texts = ["cut 9C 3D", "starter 5C", "play KS", "play 6H", "undo", "play 6D", "peg Gold 3"]
    state = run(GameState.new(Rules.six_card()), *texts)
    commands = [command for _, command in state.past]
    again = replay(GameState.new(Rules.six_card()), commands)
    assert again.table == state.table


def test_bad_names_are_refused() -> None:
    with pytest.raises(ValueError, match="one name per side"):
        GameState.new(Rules.six_card(), ("A",))
    with pytest.raises(ValueError, match="one word"):
        GameState.new(Rules.six_card(), ("Ann Lee", "Bob"))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        pytest.param("B\x01b", r"'B\\x01b' \(U\+0001 at character 2 is a control", id="U+0001"),
        pytest.param("B\nb", r"'B\\nb' \(U\+000A at character 2 is a control", id="newline"),
        pytest.param("B\tb", r"'B\\tb' \(U\+0009 at character 2 is a control", id="tab"),
        pytest.param("\x7f", r"'\\x7f' \(U\+007F at character 1 is a control", id="delete"),
        pytest.param("B\x85", r"U\+0085 at character 2 is a control", id="next-line-C1"),
        pytest.param("Bo\u200bb", r"U\+200B at character 3 is an invisible format", id="zwsp"),
        pytest.param("\u202eBob", r"U\+202E at character 1 is an invisible format", id="rtl"),
        pytest.param("B\u2028", r"U\+2028 at character 2 is a line separator", id="line-sep"),
        pytest.param("B\u2029", r"U\+2029 at character 2 is a paragraph separator", id="para"),
        pytest.param("B\ufffe", r"U\+FFFE at character 2 is a noncharacter", id="U+FFFE"),
        pytest.param("B\uffff", r"U\+FFFF at character 2 is a noncharacter", id="U+FFFF"),
    ],
)
def test_a_new_name_that_cannot_be_shown_is_refused(name: str, message: str) -> None:
    expected = r"expected letters, digits, marks or symbols\)$"
    with pytest.raises(
        InvalidCommandError, match=rf"^a side name must be printable text, got .*{message}"
    ):
        check_new_names(["Ann", name])
    with pytest.raises(InvalidCommandError, match=expected):
        check_new_names([name, "Ann"])


@pytest.mark.parametrize(
    "name",
    [
        pytest.param("Zoë", id="diaeresis"),
        pytest.param("Jürgen", id="umlaut"),
        pytest.param("Zoe\u0308", id="combining-mark"),
        pytest.param("Ἀλέξανδρος", id="greek"),
        pytest.param("李", id="han"),
        pytest.param("♠", id="symbol"),
        pytest.param("😀", id="emoji"),
    ],
)
def test_a_printable_new_name_is_taken(name: str) -> None:
    check_new_names(["Ann", name])
    assert GameState.new(Rules.six_card(), ("Ann", name)).names == ("Ann", name)


def test_a_name_with_a_control_character_still_replays() -> None:
    # names are checked when typed, not on replay: an old journal holding one still opens
    state = GameState.new(Rules.six_card(), ("A\x01", "Bob"))
    assert run(state, "cut 9C 3D").names == ("A\x01", "Bob")
