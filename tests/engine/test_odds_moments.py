"""Win probability at moments of a game: pegs by hand, points still to come in the play."""

from __future__ import annotations

import itertools
import random

import pytest

from pegboard.engine import odds
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, Phase, apply
from pegboard.engine.play import PlayState
from pegboard.engine.rules import Rules
from pegboard.engine.selfplay import choose_card, deal_cards


def play(state: GameState, *texts: str) -> GameState:
    for text in texts:
        state, _ = apply(state, parse_command(text, state.names))
    return state


def chances(state: GameState) -> tuple[float, ...]:
    found = odds.win_probability(state)
    assert found is not None, state.phase
    return found


@pytest.mark.parametrize(
    ("rules", "cut"),
    [
        pytest.param(Rules.six_card(), "cut 9C 3D", id="six-card"),
        pytest.param(Rules.four_handed(), "cut 9C 3D", id="four-handed"),
    ],
)
def test_a_peg_by_hand_before_the_first_card_counts(rules: Rules, cut: str) -> None:
    start = play(GameState.new(rules, ("Ann", "Bob")), cut, "starter JC")
    assert start.phase is Phase.PLAY and start.table.play is not None
    assert not start.table.play.laid
    before = chances(start)
    for side, name in enumerate(("Ann", "Bob")):
        mine = [chances(play(start, f"peg {name} {n}"))[side] for n in range(1, 31)]
        # more points for a side at the same moment never lower its chance
        assert all(a <= b for a, b in zip([before[side], *mine], mine, strict=False)), name
        assert mine[9] > before[side] + 0.05, name  # a peg of 10 raises it


def test_a_go_pending_at_120_all_cannot_lose() -> None:
    # Bob deals; Ann 29 after three cards; Bob says go: Ann pegs go, or lays and pegs, first
    state = play(GameState.new(Rules.six_card(), ("Ann", "Bob")), "cut 9H 3C")
    state = play(state, "peg Ann 60", "peg Ann 60", "peg Bob 60", "peg Bob 60", "starter 5D")
    state = play(state, "play KS", "play 9C", "play QH", "go")
    assert state.table.scores == (120, 120) and state.table.play is not None
    assert state.table.play.count == 29
    assert chances(state) == (1.0, 0.0)
    assert play(state, "go").phase is Phase.GAME_OVER


def deal_near_the_end(rules: Rules, rng: random.Random) -> list[tuple[GameState, str]]:
    """One deal from scores near the target, played by the self-play policy on known hands:
    each moment of the play with the command that followed it."""
    state = play(GameState.new(rules, ("Ann", "Bob")), "cut 9H 3C")
    for side, name in enumerate(("Ann", "Bob")):
        wanted = rules.target - 1 - rng.randrange(4) - state.table.scores[side]
        while wanted > 0:  # a peg is 61 at most
            state = play(state, f"peg {name} {min(wanted, 60)}")
            wanted -= 60
    dealer = state.table.dealer
    assert dealer is not None
    dealt, _, starter = deal_cards(rules, rng)
    hands = [cards[: rules.hand_size] for cards in dealt]
    known = PlayState.start(rules, dealer, starter=starter, hands=hands)
    state = play(state, f"starter {starter}")
    moments = []
    while state.phase is Phase.PLAY and not known.is_over:
        card = choose_card(known)
        if card is None:
            known, _ = known.go()
            text = "go"
        else:
            known, _ = known.play(card)
            text = f"play {card}"
        moments.append((state, text))
        state = play(state, text)
    moments.append((state, ""))
    return moments


@pytest.mark.parametrize(
    "rules",
    [
        pytest.param(Rules.six_card(), id="six-card"),
        pytest.param(Rules.five_card(), id="five-card"),
        pytest.param(Rules.two_in_the_crib(), id="two-in-the-crib"),
    ],
)
def test_a_point_still_to_come_is_counted_near_the_end(rules: Rules) -> None:
    rng = random.Random(12)
    checked = won = 0
    for _ in range(200):
        moments = deal_near_the_end(rules, rng)
        for (before, text), (after, _) in itertools.pairwise(moments):
            known = before.table.play
            assert known is not None
            if not known.series or any(
                left and seat not in known.said_go and seat != known.laid[-1][0]
                for seat, left in enumerate(known.cards_left)
            ):
                continue
            # the others said go or are out of cards: the last card's seat pegs a point first
            side = rules.side_of(known.laid[-1][0])
            if before.table.scores[side] == rules.target - 1:
                assert chances(before)[side] == 1.0, known
                won += 1
            elif text == "go":  # its go pegs that point: the chance does not move
                assert after.table.scores[side] == before.table.scores[side] + 1
                assert chances(before) == pytest.approx(chances(after), abs=1e-12)
            checked += 1
    assert checked > 50 and won > 10, (checked, won)
