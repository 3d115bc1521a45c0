"""The scoreboard's chances bar: off by default, and when ``[display] win_probability`` is on,
each side's chance from ``engine.odds`` for the state the controller holds, after every press."""

from __future__ import annotations

from pathlib import Path

from pegboard.config.settings import parse_config
from pegboard.devices.ports import FakeClock, KeyAction, KeyEvent
from pegboard.engine.game import GameState
from pegboard.engine.odds import win_probability
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.ui.screens import ScreenKind


def keys(ctl: Controller, text: str) -> None:
    for word in text.split():
        ctl.handle(KeyEvent(word, KeyAction.PRESS))


def test_the_controller_asks_for_the_chances_of_each_new_state(tmp_path: Path) -> None:
    asked: list[GameState] = []

    def chances(state: GameState) -> tuple[float, ...] | None:
        asked.append(state)
        return (0.75, 0.25) if state.table.scores[0] else (0.5, 0.5)

    clock = FakeClock()
    ctl = Controller(store=Journal(tmp_path / "g.db"), names=("Ann", "Bob"), clock=clock,
                     win_chances=chances)  # fmt: skip
    assert asked == [ctl.state]
    keys(ctl, "9 3")  # the cut: Bob deals
    assert asked[-1] == ctl.state and len(asked) == 2
    for _ in range(40):  # the cut's news fades: the scoreboard, with the chances asked for
        clock.advance(0.25)
        ctl.tick()
    assert ctl.screen.kind is ScreenKind.SCOREBOARD and ctl.screen.chances == (0.5, 0.5)
    keys(ctl, "5 4 6")  # the starter, then cards of the play: new states, asked again
    assert asked[-1] == ctl.state and len(asked) >= 4


def test_without_the_switch_no_chances_are_asked_or_shown(tmp_path: Path) -> None:
    config = parse_config(f'[game]\ndatabase = "{tmp_path / "g.db"}"')
    assert config.display.win_probability is False
    with Journal(config.game.database) as store:
        ctl = build_controller(config, store, sim_ports(config), clock=FakeClock())
        keys(ctl, "9 3 5")
        assert ctl.screen.chances is None


def test_with_the_switch_the_scoreboard_shows_engine_odds(tmp_path: Path) -> None:
    config = parse_config(
        f'[game]\ndatabase = "{tmp_path / "g.db"}"\nnames = ["Ann", "Bob"]\n'
        "[display]\nwin_probability = true\n"
    )
    assert config.display.win_probability is True
    clock = FakeClock()
    with Journal(config.game.database) as store:
        ctl = build_controller(config, store, sim_ports(config), clock=clock)
        keys(ctl, "9 3")  # the cut: Bob deals, the starter is next
        for _ in range(40):  # the cut's news fades: the scoreboard
            clock.advance(0.25)
            ctl.tick()
        expected = win_probability(ctl.state)
        assert expected is not None and abs(sum(expected) - 1) < 1e-9
        screen = ctl.screen
        assert screen.kind is ScreenKind.SCOREBOARD and screen.chances == expected


def test_a_bad_switch_value_is_one_clear_line() -> None:
    import pytest

    from pegboard.errors import ConfigError

    with pytest.raises(ConfigError, match="win_probability"):
        parse_config("[display]\nwin_probability = 3\n")
