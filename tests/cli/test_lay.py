"""``pegboard lay``: the play advice as text and JSON, in both languages, and one-line errors."""

from __future__ import annotations

import json

import pytest

from pegboard.engine.cards import DECK, Card, parse_cards
from pegboard.engine.playadvice import Belief, advise_play
from tests.cli.helpers import cli


def test_the_lead_as_json_is_the_engines_advice(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(
        capsys, "lay", "5H", "10D", "4C", "4S", "--starter", "KH", "--pone", "--seen", "QC 9D",
        "--json",
    )  # fmt: skip
    assert (status, err) == (0, "")
    answer = json.loads(out)
    advice = advise_play(parse_cards("5H 10D 4C 4S"), [], Card.parse("KH"), dealer=False,
                         seen=parse_cards("QC 9D"))  # fmt: skip
    assert [o["card"] for o in answer["options"]] == ["4C", "10D", "5H"]
    assert [o["net_ev"] for o in answer["options"]] == [o.net_ev for o in advice.options]
    assert (answer["count"], answer["opponent"], answer["holdings"]) == (0, "greedy", 148995)
    assert "148995 holdings" in answer["model"] and "greedy" in answer["model"]


def test_the_text_shows_each_card_and_the_model(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "lay", "5H", "10D", "4C", "2S", "--starter", "KH", "--dealer",
                         "--laid", "JC", "--count", "10", "--lang", "en")  # fmt: skip
    lines = out.splitlines()
    assert status == 0
    assert lines[0] == "six-card, you are dealer; starter KH, count 10"
    assert lines[2].split() == ["5H", "2", "+2.64"]  # fifteen 2 on the jack
    assert [line.split()[0] for line in lines[2:6]] == ["5H", "10D", "2S", "4C"]
    assert lines[6].startswith("model: the opponent holds 3 of the 46 cards")


def test_a_go_is_the_only_action_when_nothing_fits(capsys: pytest.CaptureFixture[str]) -> None:
    # pone 10H, dealer 9D, pone 2C, dealer 6C (27): the pone's kings do not fit
    status, out, _ = cli(capsys, "lay", "KH", "KD", "--starter", "5S", "--pone", "--laid",
                         "10H 9D 2C 6C", "--json")  # fmt: skip
    answer = json.loads(out)
    assert status == 0 and [o["card"] for o in answer["options"]] == ["go"]


def test_german_text(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = cli(capsys, "lay", "--lang", "de", "5H", "10D", "4C", "2S", "--starter",
                         "KH", "--dealer", "--laid", "JC")  # fmt: skip
    assert status == 0
    assert out.splitlines()[0] == "sechs Karten, du bist Geber; Startkarte KH, Stand 10"
    assert out.splitlines()[2].split() == ["5H", "2", "+2,64"]
    assert out.splitlines()[6].startswith("Modell: der Gegner hält 3 der 46 Karten")


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["5H", "--starter", "KH", "--pone", "--laid", "JC XX"],
         "pegboard: error: invalid word in the cards laid: 'XX' (expected a card, e.g. '5H', "
         "or go)"),
        (["5H", "10D", "4C", "--starter", "KH", "--dealer", "--laid", "JC"],
         "pegboard: error: you hold 3 cards (5H 10D 4C) but the cards laid leave you 4 to lay "
         "(expected 4 cards held)"),
        (["5H", "10D", "4C", "2S", "--starter", "KH", "--dealer", "--laid", "JC", "--count",
          "12"], "pegboard: error: --count '12' is not the count of the cards laid (10)"),
        (["5H", "10D", "4C", "KH", "--starter", "KH", "--pone"],
         "pegboard: error: card KH is named twice (hand, starter, laid and seen)"),
        (["5H", "6H", "7H", "--starter", "KC", "--pone", "--variant", "three-handed"],
         "pegboard: error: play advice covers the two-player variants only (six-card, "
         "five-card, two-in-the-crib), not three-handed"),
        (["5H", "6H", "7H", "8H", "--starter", "KC", "--dealer"],
         "pegboard: error: it is the opponent's turn, not yours (check the cards laid)"),
    ],
)  # fmt: skip
def test_bad_input_gets_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], line: str
) -> None:
    status, out, err = cli(capsys, "lay", "--lang", "en", *argv)
    assert (status, out, err) == (1, "", line + "\n")


def test_a_wrong_count_is_refused_before_the_search(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the discard belief at a lead takes seconds: a wrong --count must not wait for it
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("the search ran before --count was checked")

    monkeypatch.setattr("pegboard.engine.playadvice.advise_play", no_search)
    status, out, err = cli(capsys, "lay", "--lang", "en", "5H", "10D", "4C", "4S", "--starter",
                           "KH", "--pone", "--belief", "discards", "--count", "5")  # fmt: skip
    assert (status, out, err) == (
        1, "", "pegboard: error: --count '5' is not the count of the cards laid (0)\n"
    )  # fmt: skip


def test_bad_input_in_german(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = cli(capsys, "lay", "--lang", "de", "5H", "6H", "7H", "8H", "--starter",
                         "KC", "--dealer")  # fmt: skip
    assert (status, err) == (1, "pegboard: Fehler: der Gegner ist am Zug, nicht du (prüfe die "
                             "gelegten Karten)\n")  # fmt: skip


_UNSEEN = set(parse_cards("3H 3D 7S 8S QD QS AH 6D 9C JC"))
_ALL = " ".join(str(c) for c in DECK)
_SEEN = " ".join(
    str(c) for c in DECK if c not in _UNSEEN and c not in set(parse_cards("5H 10D 4C 2S KH"))
)
"""All but ten cards seen (the jack of clubs is laid): the discard belief counts 126 deals."""


def test_the_discard_belief_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = cli(capsys, "lay", "5H", "10D", "4C", "2S", "--starter", "KH",
                           "--dealer", "--laid", "JC", "--seen", _SEEN, "--belief", "discards",
                           "--json")  # fmt: skip
    assert (status, err) == (0, "")
    answer = json.loads(out)
    advice = advise_play(parse_cards("5H 10D 4C 2S"), parse_cards("JC"), Card.parse("KH"),
                         dealer=True, seen=parse_cards(_SEEN), belief=Belief.DISCARDS)  # fmt: skip
    uniform = advise_play(parse_cards("5H 10D 4C 2S"), parse_cards("JC"), Card.parse("KH"),
                          dealer=True, seen=parse_cards(_SEEN))  # fmt: skip
    assert [o["net_ev"] for o in answer["options"]] == [o.net_ev for o in advice.options]
    assert [o.net_ev for o in advice.options] != [o.net_ev for o in uniform.options]
    assert (answer["belief"], answer["holdings"]) == ("discards", 84)  # C(9, 3)
    assert answer["deals"] == advice.deals and 0 < answer["deals"] <= 126
    assert "exact discard advice" in answer["model"]


def test_the_discard_belief_as_text_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["5H", "10D", "4C", "2S", "--starter", "KH", "--dealer", "--laid", "JC", "--seen",
            _SEEN, "--belief", "discards"]  # fmt: skip
    status, out, _ = cli(capsys, "lay", "--lang", "en", *args)
    assert status == 0
    assert "each as often as its possible deals keep it by the exact discard advice" in out
    status, out, _ = cli(capsys, "lay", "--lang", "de", *args)
    assert status == 0
    assert "nach dem genauen Abwurf-Rat behalten" in out.splitlines()[-1]


def test_no_deal_keeps_the_cards_laid_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # the pone led a king, but the only cards it can have been dealt with it are four fives
    # and a jack: the advice never keeps the king
    unseen = set(parse_cards("5H 5D 5C 5S JH KS 2C 3C 4C 6C 9D"))
    seen = " ".join(str(c) for c in parse_cards(_ALL) if c not in unseen)
    status, out, err = cli(capsys, "lay", "--lang", "en", "2C", "3C", "4C", "6C", "--starter",
                           "9D", "--dealer", "--laid", "KS", "--seen", seen, "--belief",
                           "discards")  # fmt: skip
    assert (status, out) == (1, "")
    assert err == ("pegboard: error: no deal of the opponent's consistent with the cards seen "
                   "keeps, by the exact discard advice, the cards it laid (try the uniform "
                   "belief)\n")  # fmt: skip
