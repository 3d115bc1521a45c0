"""Property tests: random legal command sequences, with undos, never break an invariant."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pegboard.engine.cards import Card, shuffled_deck
from pegboard.engine.commands import (
    Command,
    Crib,
    Cut,
    Go,
    Next,
    NextDeal,
    Peg,
    Play,
    Redo,
    Show,
    Starter,
    Undo,
)
from pegboard.engine.events import Undone
from pegboard.engine.game import GameState, Phase, apply, replay, show_order
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import PegboardError

Deal = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...], Card]


class Table:
    """Deals real cards and picks a legal command for the state (counting mode, mostly)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.deals: dict[tuple[int, int], Deal] = {}

    def deal(self, state: GameState) -> Deal:
        key = (state.table.game, state.table.deal)
        if key not in self.deals:
            rules = state.rules
            deck = shuffled_deck(self.rng)
            size = rules.hand_size
            hands = tuple(tuple(deck[i * size : (i + 1) * size]) for i in range(rules.players))
            rest = deck[rules.players * size :]
            self.deals[key] = (hands, tuple(rest[: rules.crib_size]), rest[rules.crib_size])
        return self.deals[key]

    def command(self, state: GameState) -> Command:
        rng, table = self.rng, state.table
        roll = rng.random()
        if roll < 0.08 and state.past:
            return Undo()
        if roll < 0.12 and state.future:
            return Redo()
        if roll < 0.16 and table.phase in (Phase.STARTER, Phase.PLAY, Phase.SHOW):
            return Peg(rng.randrange(state.rules.sides), rng.randint(1, 12))
        if roll < 0.18 and table.phase in (Phase.STARTER, Phase.PLAY, Phase.SHOW):
            return rng.choice((Next(), NextDeal()))
        match table.phase:
            case Phase.CUT:
                return Cut(tuple(shuffled_deck(rng)[: state.rules.sides]))
            case Phase.STARTER:
                return Starter(self.deal(state)[2])
            case Phase.PLAY if table.play is None:
                return Next()  # the starter was skipped: a deal pegged by hand
            case Phase.PLAY:
                play = table.play
                assert play.turn is not None
                hand = self.deal(state)[0][play.turn]
                laid = {card for _, card in play.laid}
                fits = [c for c in hand if c not in laid and c.pips + play.count <= 31]
                return Play(rng.choice(fits)) if fits else Go()
            case Phase.SHOW if table.starter is None:
                return Next()  # nothing to count with: the starter was skipped
            case Phase.SHOW:
                hands, crib, _ = self.deal(state)
                assert table.dealer is not None
                up = show_order(state.rules, table.dealer)[table.show_step]
                if up is None:
                    return Crib(crib)
                known = table.play is not None and len(table.play.played_by(up)) == len(hands[up])
                return Show() if known and rng.random() < 0.5 else Show(hands[up])
            case _:
                return Next()


VARIANTS = [pytest.param(v, id=v.value) for v in Variant]


@pytest.mark.parametrize("variant", VARIANTS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_every_invariant(variant: Variant, seed: int) -> None:
    rules = Rules.for_variant(variant, muggins=seed % 2 == 0)
    start = GameState.new(rules)
    state, driver = start, Table(random.Random(seed))
    journal: list[Command] = []
    for _ in range(3000):
        if state.phase is Phase.MATCH_OVER:
            break
        command = driver.command(state)
        new, events = apply(state, command)
        journal.append(command)
        old, now = state.table, new.table
        undone = any(isinstance(e, Undone) for e in events)
        same_game = now.game == old.game and now.phase not in (Phase.CUT,)
        if not undone and same_game and old.phase is not Phase.GAME_OVER:
            # scores never go down except by undo
            assert all(n >= o for n, o in zip(now.scores, old.scores, strict=True))
        for side, (front, rear) in enumerate(zip(now.scores, now.rears, strict=True)):
            assert rear <= front
            if now.last is not None and now.last.side == side:
                # the rear peg is the score before the side's last peg
                assert (front, rear) == (now.last.score, now.last.rear)
                assert front - rear == now.last.points
        for record in now.finished:
            winners = [s for s in record.result.scores if s >= rules.target]
            assert len(winners) == 1  # exactly one winner per finished game
        state = new
    assert state.phase is Phase.MATCH_OVER
    assert replay(start, journal) == state  # replaying the journal gives the same state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_refused_command_leaves_the_state_equal(seed: int) -> None:
    rng = random.Random(seed)
    state, driver = GameState.new(Rules.six_card()), Table(rng)
    for _ in range(rng.randrange(1, 120)):
        if state.phase is Phase.MATCH_OVER:
            break
        state, _ = apply(state, driver.command(state))
    wild = rng.choice(
        [Play(shuffled_deck(rng)[0]), Go(), Show(), Crib(), Starter(shuffled_deck(rng)[0])]
    )
    before = state
    try:
        apply(state, wild)
    except PegboardError:
        assert state == before
