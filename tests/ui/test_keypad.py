"""The keypad grammar on its own: pure functions, no controller, no journal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pegboard.devices.ports import KeyAction, KeyEvent
from pegboard.engine.cards import Card, Rank, Suit
from pegboard.engine.commands import Claim, Crib, Cut, Next, Peg, Play, Show, Starter
from pegboard.engine.game import GameState, apply
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.ui.hints import render_entry
from pegboard.ui.keypad import (
    IDLE_COMMIT,
    EntryState,
    Layout,
    Mode,
    NewMatch,
    Outcome,
    RandomCut,
    ShowRecord,
    Situation,
    ToggleSound,
    expire,
    press,
    rank_of_key,
)


def _state(*texts: str, rules: Rules | None = None) -> GameState:
    from pegboard.engine.commands import parse_command

    state = GameState.new(rules or Rules.six_card())
    for text in texts:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def _keys(state: GameState, keys: str, entry: EntryState | None = None) -> tuple[EntryState, list]:
    entry = entry or EntryState()
    outcomes = []
    for key in keys.split():
        entry, outcome = press(entry, KeyEvent(key), Situation.of(state), 0.0)
        outcomes.append(outcome)
    return entry, outcomes


@pytest.mark.parametrize(
    ("key", "layout", "rank"),
    [
        pytest.param("1", Layout.FOUR_BY_FOUR, Rank.ACE, id="1=A"),
        pytest.param("0", Layout.FOUR_BY_FOUR, Rank.TEN, id="0=10"),
        pytest.param("A", Layout.FOUR_BY_FOUR, Rank.JACK, id="A=J"),
        pytest.param("C", Layout.FOUR_BY_FOUR, Rank.KING, id="C=K"),
        pytest.param("D", Layout.FOUR_BY_FOUR, None, id="D"),
        pytest.param("A", Layout.THREE_BY_FOUR, None, id="3x4-A"),
        pytest.param("#", Layout.FOUR_BY_FOUR, None, id="#"),
    ],
)
def test_keys_type_ranks(key: str, layout: Layout, rank: Rank | None) -> None:
    assert rank_of_key(key, layout) is rank


def test_layout_follows_the_keys_of_the_keypad() -> None:
    assert Layout.for_keys("123A456B789C*0#D") is Layout.FOUR_BY_FOUR
    assert Layout.for_keys("123456789*0#") is Layout.THREE_BY_FOUR


def test_hash_with_nothing_typed_asks_for_a_random_cut() -> None:
    _, outcomes = _keys(_state(), "#")
    assert outcomes[-1].request == RandomCut()


def test_the_entry_view_says_whether_anything_is_typed() -> None:
    state = _state()
    assert not render_entry(EntryState(), Situation.of(state)).typing
    entry, _ = _keys(state, "7")
    assert render_entry(entry, Situation.of(state)).typing
    menu, _ = press(EntryState(), KeyEvent("ok", KeyAction.LONG_PRESS), Situation.of(state), 0.0)
    assert render_entry(menu, Situation.of(state)).typing  # the menu is open: nothing typed yet
    entry, _ = _keys(state, "7 3")  # the cut is made: the keypad is idle again
    assert not render_entry(entry, Situation.of(state)).typing


def test_cut_cards_get_different_suits_even_for_equal_ranks() -> None:
    _, outcomes = _keys(_state(), "7 7")
    (cut,) = outcomes[-1].commands
    assert isinstance(cut, Cut)
    assert [c.rank for c in cut.cards] == [Rank.SEVEN, Rank.SEVEN]
    assert cut.cards[0] != cut.cards[1]


def test_a_starter_is_one_key() -> None:
    _, outcomes = _keys(_state("cut 9H 3D"), "B")
    assert outcomes[-1].commands == (Starter(Card(Rank.QUEEN, Suit.HEARTS)),)


def test_cards_laid_avoid_the_starters_suit_and_vary_per_seat() -> None:
    state = _state("cut 9H 3D", "starter 5H", "play 4D", "play 6C")
    _, outcomes = _keys(state, "2")
    (play,) = outcomes[-1].commands
    assert isinstance(play, Play)
    assert play.card.suit not in (Suit.HEARTS, Suit.DIAMONDS)


def test_a_refused_key_leaves_nothing_to_apply() -> None:
    state = _state("cut 9H 3D", "starter 5H", "play KD", "play QC", "play 10S")
    _, outcomes = _keys(state, "2")
    assert outcomes[-1].commands == ()
    assert outcomes[-1].refusal == "count 30: a 2 makes 32, over 31"


def test_show_emits_claim_then_show_under_muggins() -> None:
    state = GameState.new(Rules.six_card(muggins=True))
    for text in ("cut 9H 3D", "starter 5H", "next"):
        from pegboard.engine.commands import parse_command

        state, _ = apply(state, parse_command(text, state.names))
    entry, outcomes = _keys(state, "5 5 4 6 # 2 0 #")
    commands = outcomes[-1].commands
    assert [type(c).__name__ for c in commands] == ["Claim", "Show"]
    assert entry.mode is Mode.TYPING


def test_a_combined_peg_commits_only_after_the_idle_time() -> None:
    state = _state("cut 9H 3D")
    entry, _ = press(EntryState(), KeyEvent("peg1"), Situation.of(state), 10.0)
    entry, _ = press(entry, KeyEvent("peg1"), Situation.of(state), 10.5)
    same, outcome = expire(entry, Situation.of(state), 10.5 + IDLE_COMMIT - 0.01)
    assert outcome.commands == () and same == entry
    done, outcome = expire(entry, Situation.of(state), 10.5 + IDLE_COMMIT)
    assert outcome.commands == (Peg(1, 2),)
    assert done.peg_points == 0


def test_a_peg_button_for_a_side_that_does_not_exist_is_refused() -> None:
    _, outcomes = _keys(_state("cut 9H 3D"), "peg2")
    assert outcomes[-1].refusal == "no side 2: this game has 2"


def test_menu_next_skips_the_starter() -> None:
    entry, _ = press(EntryState(), KeyEvent("ok", _long()), Situation.of(_state("cut 9H 3D")), 0)
    assert render_entry(entry, Situation.of(_state("cut 9H 3D"))).title == "menu"
    _, outcome = press(entry, KeyEvent("1"), Situation.of(_state("cut 9H 3D")), 0)
    assert outcome.commands == (Next(),)


def _long():  # type: ignore[no-untyped-def]
    from pegboard.devices.ports import KeyAction

    return KeyAction.LONG_PRESS


def test_the_entry_view_shows_typed_ranks_and_the_next_keys_meaning() -> None:
    state = _state("cut 9H 3D", "starter 5H", "next")
    entry, _ = _keys(state, "7 A")
    view = render_entry(entry, Situation.of(state))
    assert view.line == "Sky's hand: 7 J _ _"
    assert view.hint == "2 more\n0=10 A=J B=Q C=K"


# --- the suits ------------------------------------------------------------------------------


def test_a_flush_laid_in_the_play_is_re_entered_with_undo_first() -> None:
    state = _state(
        "cut 9H 3D", "starter 5H", "play 4D", "play 6D", "play 2C", "play 8C",
        "play 3S", "play 7H", "go", "go", "play 9D", "play KS",
    )  # fmt: skip
    _, outcomes = _keys(state, "1")  # the hand laid in the play: "flush?" 1, its four
    commands = outcomes[-1].commands
    undos = [c for c in commands if type(c).__name__ == "Undo"]
    assert undos
    show = commands[-1]
    assert isinstance(show, Show)
    assert len({c.suit for c in show.cards}) == 1
    replayed = state
    for command in commands:
        replayed, _ = apply(replayed, command)
    assert replayed.table.scores[0] - state.table.scores[0] == 10


# --- the menu reaches every optional rule ---------------------------------------------------


def _menu(state: GameState, keys: str) -> tuple[EntryState, list]:  # type: ignore[type-arg]
    entry, _ = press(EntryState(), KeyEvent("ok", _long()), Situation.of(state), 0)
    return _keys(state, keys, entry)


def test_the_menu_sets_every_optional_rule_for_the_new_match() -> None:
    state = _state()
    _, outcomes = _menu(state, "5 5 8 9 0 3")  # muggins twice, match, skunk, starter, new
    request = outcomes[-1].request
    assert isinstance(request, NewMatch)
    rules = request.rules
    assert rules.muggins and rules.muggins_in_play
    assert rules.double_skunk_points == 4
    assert rules.starter_counts_in_play
    assert request.match_format is MatchFormat.FIRST_TO_TWO


def test_the_menu_shows_the_settings_it_will_use() -> None:
    state = _state()
    entry, _ = _menu(state, "5 9")
    view = render_entry(entry, Situation.of(state))
    lines = dict(view.menu)
    assert lines["5 muggins"] == "hands"
    assert lines["9 double skunk"] == "4"
    assert lines["8 match"] == "best-of-three"
    assert lines["0 starter in play"] == "off"
    assert lines["1 next"] is None
    assert view.menu[view.cursor] == ("9 double skunk", "4")  # the line last chosen


def test_hash_walks_down_the_menu_and_star_leaves_it() -> None:
    state = _state()
    entry, _ = _menu(state, "# # #")
    assert render_entry(entry, Situation.of(state)).cursor == 3
    entry, _ = _keys(state, "*", entry)
    assert entry.mode is not Mode.MENU


def test_the_menu_changes_the_five_card_lurch_line() -> None:
    state = _state(rules=Rules.five_card())
    _, outcomes = _menu(state, "9 3")
    request = outcomes[-1].request
    assert isinstance(request, NewMatch)
    assert request.rules.lurch_line == 31


def test_the_menu_skips_best_of_three_for_three_players() -> None:
    state = _state()
    entry, _ = _menu(state, "4")  # three-handed: best of three has no game points
    assert entry.menu is not None
    assert entry.menu.rules.variant is Variant.THREE_HANDED
    assert entry.menu.match_format is MatchFormat.SINGLE
    entry, _ = _keys(state, "8 8", entry)
    assert entry.menu is not None and entry.menu.match_format is MatchFormat.SINGLE


def test_the_menu_refuses_a_skunk_value_without_a_lurch() -> None:
    state = _state(rules=Rules.two_against_one())
    _, outcomes = _menu(state, "9")
    assert outcomes[-1].refusal == "no lurch in two-against-one"


def test_menu_d_asks_for_the_head_to_head_page_and_closes_the_menu() -> None:
    entry, outcomes = _menu(_state(), "D")
    assert outcomes[-1] == Outcome(request=ShowRecord())
    assert entry == EntryState()


def test_on_a_3x4_keypad_hash_past_the_menus_last_line_asks_for_the_head_to_head_page() -> None:
    """The 3x4 has no D: the page comes after the last line; the 4x4 starts the list again."""
    state = _state()
    lines = "# " * 11  # ten numbered lines and two sides: # walks from the first to the last
    entry, outcomes = _roster_menu(state, lines, layout=Layout.THREE_BY_FOUR)
    assert entry.mode is Mode.MENU and entry.menu_cursor == 11
    assert all(outcome == Outcome() for outcome in outcomes)
    entry, outcomes = _keys(state, "#", entry)
    assert outcomes[-1] == Outcome(request=ShowRecord())
    assert entry == EntryState(Layout.THREE_BY_FOUR, roster=ROSTER)
    entry, outcomes = _roster_menu(state, lines + "#")
    assert (entry.mode, entry.menu_cursor, outcomes[-1]) == (Mode.MENU, 0, Outcome())


def test_the_menu_refuses_keys_that_are_no_item() -> None:
    _, outcomes = _menu(_state(), "E")  # a key no keypad has (D shows the head-to-head page)
    assert outcomes[-1].refusal == "menu: 0-9, A-C names, # next, * leaves"
    entry, _ = press(
        EntryState(Layout.THREE_BY_FOUR), KeyEvent("ok", _long()), Situation.of(_state()), 0
    )
    _, outcomes = _keys(_state(), "D", entry)
    assert outcomes[-1].refusal == "menu: 0 to 9, # next line, * leaves"


# --- the menu picks the sides' names from the roster ----------------------------------------

ROSTER = ("Ann", "Bob", "Cy")


def _roster_menu(
    state: GameState,
    keys: str,
    roster: tuple[str, ...] = ROSTER,
    layout: Layout = Layout.FOUR_BY_FOUR,
) -> tuple[EntryState, list]:  # type: ignore[type-arg]
    entry = EntryState(layout, roster=roster)
    entry, _ = press(entry, KeyEvent("ok", _long()), Situation.of(state), 0)
    return _keys(state, keys, entry)


def _names(entry: EntryState, state: GameState) -> list[tuple[str, str | None]]:
    """The menu's name lines: after the ten numbered ones."""
    return list(render_entry(entry, Situation.of(state)).menu[10:])


def test_on_a_board_that_speaks_ok_held_in_the_menu_turns_the_sound_off_or_on() -> None:
    state = _state()
    speaking = EntryState(roster=ROSTER, sound=True)
    held = KeyEvent("ok", _long())
    entry, _ = press(speaking, held, Situation.of(state), 0)
    entry, _ = _keys(state, "# #", entry)  # the cursor moved: the menu is open
    lines = render_entry(entry, Situation.of(state)).menu
    assert lines[-1] == ("ok held: sound", None) and len(lines) == 13
    entry, outcome = press(entry, held, Situation.of(state), 0)
    assert outcome == Outcome(request=ToggleSound())
    assert entry.mode is not Mode.MENU and entry.menu_cursor == 0
    assert entry.cleared().sound  # the keypad goes on knowing the board speaks
    # on a 3x4 keypad the sound's line is the last before the head-to-head page
    entry, _ = press(replace(speaking, layout=Layout.THREE_BY_FOUR), held, Situation.of(state), 0)
    entry, outcomes = _keys(state, "# " * 12, entry)
    assert entry.menu_cursor == 12 and all(outcome == Outcome() for outcome in outcomes)
    _, outcomes = _keys(state, "#", entry)
    assert outcomes[-1] == Outcome(request=ShowRecord())


def test_on_a_board_without_sound_ok_held_only_closes_the_menu() -> None:
    state = _state()
    entry, _ = _roster_menu(state, "# #")
    assert ("ok held: sound", None) not in render_entry(entry, Situation.of(state)).menu
    entry, outcome = press(entry, KeyEvent("ok", _long()), Situation.of(state), 0)
    assert outcome == Outcome() and entry.mode is not Mode.MENU


def test_the_menu_shows_each_sides_name_under_its_key() -> None:
    state = _state()
    entry, _ = _roster_menu(state, "")
    assert _names(entry, state) == [("A side 1", "Sky"), ("B side 2", "Gold")]
    view = render_entry(entry, Situation.of(state))
    assert view.hint == "0-9 choose, A-C names\n# next line; * back"


def test_a_sides_key_steps_through_the_roster_and_back_to_its_own_name() -> None:
    state = _state()
    seen = []
    entry, _ = _roster_menu(state, "")
    for _ in range(4):
        entry, outcomes = _keys(state, "A", entry)
        assert not outcomes[-1].refusal
        seen.append(_names(entry, state)[0][1])
    assert seen == ["Ann", "Bob", "Cy", "Sky"]
    assert render_entry(entry, Situation.of(state)).cursor == 10  # on side 1's line


def test_a_name_another_side_holds_is_skipped() -> None:
    state = _state()
    entry, _ = _roster_menu(state, "A B")  # side 1 Ann; side 2 skips Ann: Bob
    assert _names(entry, state) == [("A side 1", "Ann"), ("B side 2", "Bob")]
    entry, _ = _keys(state, "A", entry)  # side 1 skips Bob: Cy
    assert _names(entry, state)[0] == ("A side 1", "Cy")


def test_the_new_match_gets_the_names_picked() -> None:
    _, outcomes = _roster_menu(_state(), "A B B 3")
    request = outcomes[-1].request
    assert isinstance(request, NewMatch)
    assert request.names == ("Ann", "Cy")


def test_a_new_match_from_the_menu_keeps_the_tables_names_when_none_are_picked() -> None:
    state = GameState.new(Rules.six_card(), ("Di", "Ed"))
    _, outcomes = _roster_menu(state, "3")
    assert outcomes[-1].request == NewMatch(
        Rules.six_card(), MatchFormat.BEST_OF_THREE, ("Di", "Ed")
    )


def test_peg_buttons_pick_names_in_the_menu_and_a_3x4_menu_shows_no_letters() -> None:
    state = _state()
    entry, outcomes = _roster_menu(state, "peg1", layout=Layout.THREE_BY_FOUR)
    assert not outcomes[-1].refusal
    assert _names(entry, state) == [("side 1", "Sky"), ("side 2", "Ann")]
    assert render_entry(entry, Situation.of(state)).hint.startswith("0-9; peg button: name\n")


def test_a_third_side_from_the_variant_gets_a_free_name_and_a_line() -> None:
    state = _state()
    entry, _ = _roster_menu(state, "A 4")  # side 1 Ann, then three-handed
    assert _names(entry, state) == [
        ("A side 1", "Ann"),
        ("B side 2", "Gold"),
        ("C side 3", "Lilac"),
    ]
    entry, outcomes = _keys(state, "C 3", entry)
    request = outcomes[-1].request
    assert isinstance(request, NewMatch) and request.names == ("Ann", "Gold", "Bob")
    entry, _ = _roster_menu(state, "A 4 4 4 4 4 4")  # round the variants: back to two sides
    assert _names(entry, state) == [("A side 1", "Ann"), ("B side 2", "Gold")]


def test_hash_walks_down_to_the_name_lines() -> None:
    state = _state()
    entry, _ = _roster_menu(state, " ".join("#" * 11))
    assert render_entry(entry, Situation.of(state)).cursor == 11  # side 2's line
    entry, _ = _keys(state, "#", entry)
    assert render_entry(entry, Situation.of(state)).cursor == 0  # round to the top


@pytest.mark.parametrize(
    ("roster", "keys", "refusal"),
    [
        pytest.param((), "A", "no names to pick: add [game] roster", id="no-roster"),
        pytest.param(("Ann",), "A B", "no other roster name is free", id="all-taken"),
        pytest.param(ROSTER, "C", "no side 3: six-card has 2", id="no-side-3"),
        pytest.param(ROSTER, "peg2", "no side 3: six-card has 2", id="no-peg-button-3"),
    ],
)
def test_the_menu_says_why_a_name_cannot_be_picked(
    roster: tuple[str, ...], keys: str, refusal: str
) -> None:
    state = _state()
    entry, outcomes = _roster_menu(state, keys, roster)
    assert outcomes[-1].refusal == refusal
    assert entry.menu is not None and entry.menu.names[1] == "Gold"  # nothing changed


def test_the_roster_survives_the_keypad_being_cleared() -> None:
    state = _state()
    entry, _ = _roster_menu(state, "A 1")  # a menu line that clears the keypad
    assert entry.roster == ROSTER and entry.mode is Mode.TYPING


# --- muggins in the play ------------------------------------------------------------------


def test_with_muggins_in_the_play_a_card_waits_for_its_claim() -> None:
    state = _state("cut 9H 3D", "starter 2H", rules=Rules.six_card(muggins_in_play=True))
    entry, outcomes = _keys(state, "5")
    assert outcomes[-1].commands == ()
    view = render_entry(entry, Situation.of(state))
    assert view.line == "Sky lays 5: claims _"
    entry, outcomes = _keys(state, "2 #", entry)
    claim, play = outcomes[-1].commands
    assert claim == Claim(2)
    assert isinstance(play, Play) and play.card.rank is Rank.FIVE


def test_with_muggins_in_the_play_hash_alone_lays_the_card_without_a_claim() -> None:
    state = _state("cut 9H 3D", "starter 2H", rules=Rules.six_card(muggins_in_play=True))
    entry, outcomes = _keys(state, "5 #")
    assert len(outcomes[-1].commands) == 1 and isinstance(outcomes[-1].commands[0], Play)
    assert entry == EntryState()


def test_erasing_the_claim_then_the_card_leaves_nothing_typed() -> None:
    state = _state("cut 9H 3D", "starter 2H", rules=Rules.six_card(muggins_in_play=True))
    entry, outcomes = _keys(state, "5 1 * *")
    assert all(o.commands == () for o in outcomes)
    assert entry == EntryState()


# --- fewer presses: a deal pegged by hand, the show's one key -----------------------------------


def test_hash_for_the_starter_skips_it_and_a_jack_is_still_a_starter() -> None:
    state = _state("cut 9H 3D")
    _, outcomes = _keys(state, "#")
    assert outcomes[-1].commands == (Next(),)
    _, outcomes = _keys(state, "A")
    assert outcomes[-1].commands == (Starter(Card(Rank.JACK, Suit.HEARTS)),)


@pytest.mark.parametrize(
    ("keys", "commands"),
    [
        pytest.param("2 B", (Peg(1, 2),), id="points-then-side"),
        pytest.param("B", (Peg(1, 1),), id="a-side-alone-pegs-1"),
        pytest.param("1 2 A", (Peg(0, 12),), id="two-digits"),
        pytest.param("#", (Next(),), id="hash-ends-the-play"),
        pytest.param("6 #", (Next(), Show(points=6)), id="points-hash-the-first-hand"),
        pytest.param("D 2 B", (Peg(1, 2),), id="peg-mode-as-ever"),
    ],
)
def test_the_play_of_a_deal_pegged_by_hand_takes_points(
    keys: str, commands: tuple[object, ...]
) -> None:
    state = _state("cut 9H 3D", "next")
    entry, outcomes = _keys(state, keys)
    assert outcomes[-1].commands == commands
    assert entry == EntryState()


@pytest.mark.parametrize(
    ("keys", "refusal"),
    [
        pytest.param("0 B", "a peg is 1 or more", id="zero"),
        pytest.param("6 2", "a peg is at most 61", id="over-61"),
        pytest.param("3 0 #", "a hand is worth at most 29: a side key pegs 30", id="no-hand-30"),
        pytest.param("C", "no side 2: this game has 2", id="no-side-C"),
    ],
)
def test_the_play_of_a_deal_pegged_by_hand_refuses_what_cannot_be(keys: str, refusal: str) -> None:
    _, outcomes = _keys(_state("cut 9H 3D", "next"), keys)
    assert outcomes[-1].refusal == refusal and outcomes[-1].commands == ()


@pytest.mark.parametrize(
    ("keys", "commands"),
    [
        pytest.param("7", (Show(points=7),), id="3-9-at-once"),
        pytest.param("0", (Show(points=0),), id="0-at-once"),
        pytest.param("1 #", (Show(points=1),), id="1-then-hash"),
        pytest.param("2 8", (Show(points=28),), id="2x-at-its-second-digit"),
        pytest.param("2 B", (Peg(1, 2),), id="points-then-side-pegs-a-side"),
    ],
)
def test_the_show_of_a_deal_pegged_by_hand_takes_each_hands_points(
    keys: str, commands: tuple[object, ...]
) -> None:
    state = _state("cut 9H 3D", "next", "next")
    _, outcomes = _keys(state, keys)
    assert outcomes[-1].commands == commands


def test_the_show_of_a_deal_pegged_by_hand_refuses_no_points_and_over_29() -> None:
    state = _state("cut 9H 3D", "next", "next")
    _, outcomes = _keys(state, "#")
    assert outcomes[-1].refusal == "type its points (0: none)"
    _, outcomes = _keys(state, "2 9")
    assert outcomes[-1].commands == (Show(points=29),)
    entry, _ = _keys(state, "1")
    assert render_entry(entry, Situation.of(state)).line == "Sky's hand: 1"
    assert render_entry(entry, Situation.of(state)).hint == "# = 1, or 2nd digit"


def test_the_crib_of_a_deal_pegged_by_hand_is_told_by_points() -> None:
    state = _state("cut 9H 3D", "next", "next", "show 4", "show 6")
    _, outcomes = _keys(state, "1 5")
    assert outcomes[-1].commands == (Crib(points=15),)


def test_a_hand_laid_in_the_play_is_answered_by_one_key() -> None:
    state = _state(
        "cut 9H 3D", "starter 5H", "play 4D", "play 6D", "play 2C", "play 8C",
        "play 3S", "play 7H", "go", "go", "play 9D", "play KS",
    )  # fmt: skip
    _, outcomes = _keys(state, "#")
    (show,) = outcomes[-1].commands
    assert isinstance(show, Show) and len(show.cards) == 4  # counted: no flush
    view = render_entry(EntryState(), Situation.of(state))
    assert view.asks and not view.typing and view.mode is Mode.FLUSH


def test_a_hand_with_nothing_to_ask_does_not_ask() -> None:
    state = _state("cut 9H 3D", "starter 5H", "next")
    entry, _ = _keys(state, "5 5 4 6")
    view = render_entry(entry, Situation.of(state))
    assert view.hint == "# counts it" and not view.asks


def test_a_situation_made_with_the_callers_view_is_the_one_made_without() -> None:
    from pegboard.engine.view import render_view

    state = _state("cut 9H 3D", "starter 5H", "play 4D", "play 6C")
    assert Situation.of(state, render_view(state)) == Situation.of(state)
