"""What the board says aloud: known answers in English and German, and the events found again
from two states over a whole game."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pegboard.config.settings import Config
from pegboard.engine.commands import parse_command
from pegboard.engine.game import GameState, apply
from pegboard.engine.rules import Rules
from pegboard.engine.view import render_view
from pegboard.i18n import Language
from pegboard.table.simulator import run_headless
from pegboard.ui.speech import Said, Utterance, events_between, utterance_of

EN, DE = Language.ENGLISH, Language.GERMAN
KEYS = Path(__file__).resolve().parents[1] / "keys"


def _said(
    commands: list[str], language: Language = EN, rules: Rules | None = None
) -> list[Utterance | None]:
    """What each command of a game from the start says."""
    state = GameState.new(rules or Rules.six_card(), ("Ann", "Bob"))
    said = []
    for text in commands:
        after, events = apply(state, parse_command(text, state.names))
        said.append(utterance_of(render_view(state), render_view(after), events, language))
        state = after
    return said


def _parts(utterance: Utterance | None) -> tuple[tuple[Said, str], ...] | None:
    return None if utterance is None else utterance.parts


# Ann leads (Bob deals); Ann holds 5H 5S 4C 10D, Bob KD 6D 4H 3S
_DEAL = ["cut 9H 3C", "starter JC"]


@pytest.mark.parametrize(
    ("commands", "language", "parts"),
    [
        pytest.param(_DEAL, EN, ((Said.HEELS, "two for his heels"),), id="heels"),
        pytest.param(_DEAL, DE, ((Said.HEELS, "Zwei für die Hacken"),), id="heels-de"),
        pytest.param([*_DEAL, "play 5H", "play KD"], EN, ((Said.PLAY, "Bob, fifteen for 2"),)),
        pytest.param(
            [*_DEAL, "play 5H", "play KD"], DE, ((Said.PLAY, "Bob, fünfzehn – zwei"),), id="de"
        ),
        pytest.param([*_DEAL, "play 5H", "play 5S"], EN, ((Said.PLAY, "Bob, a pair for 2"),)),
        pytest.param(
            [*_DEAL, "play 4H", "play 4S", "play 4D"],
            EN,
            ((Said.PLAY, "Ann, pair royal for 6"),),
            id="pair-royal",
        ),
        pytest.param(
            [*_DEAL, "play 4H", "play 4S", "play 4D"],
            DE,
            ((Said.PLAY, "Ann, 6 für Drilling"),),
            id="pair-royal-de",
        ),
        pytest.param(["cut 9H 3C", "peg Ann 3"], EN, ((Said.PEG, "Ann, 3"),), id="peg"),
        pytest.param(["cut 9H 3C", "peg Bob 12"], DE, ((Said.PEG, "Bob, zwölf"),), id="peg-de"),
    ],
)
def test_each_press_says_what_the_screen_says(
    commands: list[str], language: Language, parts: tuple[tuple[Said, str], ...]
) -> None:
    assert _parts(_said(commands, language)[-1]) == parts


def test_the_play_says_thirty_one_go_and_one_for_last() -> None:
    # Bob deals; Ann leads. Ann: 10H 10S 5C AC, Bob: KD 6D 4H 3S (the play's cards only)
    play = [*_DEAL[:1], "starter 2C", "play 10H", "play KD", "play 10S", "go", "play AC"]
    said = _said([*play, "play 6D", "play 5C", "play 4H", "play 3S"])
    texts = [u.text() if u is not None else None for u in said]
    assert texts[5] == "Bob, go"
    assert texts[6] == "Ann, thirty-one for 2"
    assert texts[-2] == "Bob, fifteen for 2, a run of 3 for 3"
    assert texts[-1] == "Bob, a run of 4 for 4, one for last"
    de = _said([*play, "play 6D", "play 5C", "play 4H"], DE)
    assert de[6] is not None and de[6].text() == "Ann, einunddreißig macht zwei"
    assert de[5] is not None and de[5].text() == "Bob, Passe"


def test_a_count_says_its_calls_and_a_count_by_the_table_its_points() -> None:
    deal = ["cut 9H 3C", "starter 5C", "next"]
    said = _said([*deal, "show 5H 5D JS KC", "show 8"])
    assert _parts(said[3]) == (
        (Said.COUNT, "fifteen 2, fifteen 4, fifteen 6, fifteen 8, fifteen 10, fifteen 12, "
         "fifteen 14, and pair royal is 20"),
    )  # fmt: skip
    assert _parts(said[4]) == ((Said.COUNT, "Bob, 8"),)
    de = _said([*deal, "show 5H 5D JS KC", "show 8"], DE)
    assert de[3] is not None and de[3].text().startswith("Fünfzehn – zwei, fünfzehn – vier")
    assert _parts(de[4]) == ((Said.COUNT, "Bob, acht"),)


@pytest.mark.parametrize(
    ("loser", "words", "de_words"),
    [
        pytest.param(80, "Ann wins! lurched!", "Ann gewinnt! Schneider!", id="lurch"),
        pytest.param(50, "Ann wins! double skunk!", "Ann gewinnt! dreifach!", id="skunk"),
        pytest.param(100, "Ann wins!", "Ann gewinnt!", id="plain"),
    ],
)
def test_the_game_over_says_the_winner_and_the_lurch(loser: int, words: str, de_words: str) -> None:
    game = ["cut 9H 3C", f"peg Bob {loser % 61 or 61}"]
    game += [f"peg Bob {loser - loser % 61}"] if loser > 61 else []
    game += ["peg Ann 61", "peg Ann 60"]
    said, de = _said(game), _said(game, DE)
    assert _parts(said[-1]) == ((Said.PEG, "Ann, 60"), (Said.GAME, words))
    assert _parts(de[-1]) == ((Said.PEG, "Ann, sechzig"), (Said.GAME, de_words))


def test_an_undo_says_nothing_and_a_press_that_pegs_nothing_has_nothing_to_say() -> None:
    said = _said(["cut 9H 3C", "peg Ann 3", "undo"])
    assert said[0] is None
    assert said[2] == Utterance((), EN)


def test_the_configured_events_leave_the_other_parts_out() -> None:
    utterance = Utterance(((Said.PEG, "Ann, 60"), (Said.GAME, "Ann wins!")))
    assert utterance.text() == "Ann, 60. Ann wins!"
    assert utterance.text(frozenset({Said.GAME})) == "Ann wins!"
    assert utterance.text(frozenset({Said.COUNT})) == ""


def test_events_between_two_states_are_the_events_the_game_made_over_a_whole_game() -> None:
    # the lurch game's journal, replayed step by step: every step's events found again
    with tempfile.TemporaryDirectory() as out:
        controller = run_headless(
            Config(), keys_file=KEYS / "six-card-lurch.keys", out_dir=Path(out)
        )
    final = controller.state
    state = GameState.new(final.rules, final.names)
    steps = 0
    for _, command in final.past:
        after, events = apply(state, command)
        assert events_between(state, after) == events
        steps += 1
        state = after
    assert steps > 40 and state.table == final.table
    back, events = apply(state, parse_command("undo", state.names))
    assert events_between(state, back) == events
    assert events_between(GameState.new(final.rules, final.names), state) is not None
    assert events_between(state, GameState.new(final.rules, ("Cy", "Di"))) is None
