"""The issue-2 command line: score, peg, advise, stats; exit codes and messages."""

from __future__ import annotations

import io
import json
import random

import pytest

from pegboard.cli.main import _score_line, main
from pegboard.engine.cards import DECK, Card, parse_cards
from pegboard.engine.rules import Rules, Variant
from pegboard.errors import InvalidHandError, PegboardError


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def stdin(data: bytes) -> io.TextIOWrapper:
    """A stand-in for ``sys.stdin``: ``score -`` reads its ``.buffer``, bytes as they came."""
    return io.TextIOWrapper(io.BytesIO(data), encoding="utf-8")


def test_score_prints_the_calls_and_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "5H", "5D", "5S", "JC", "5C")
    assert status == 0 and err == ""
    lines = out.splitlines()
    assert lines[0] == "hand 5H 5D 5S JC  starter 5C"
    assert lines[1].startswith("fifteen 2, fifteen 4, ")
    assert lines[1].endswith("and double pair royal is 28, and nobs is 29")
    assert lines[2] == "total 29"


def test_score_json_has_the_documented_shape(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "score", "--json", "5h", "5d", "5s", "jc", "5c")
    data = json.loads(out)
    assert status == 0
    assert data["hand"] == ["5H", "5D", "5S", "JC"]
    assert data["starter"] == "5C"
    assert data["crib"] is False
    assert data["total"] == 29
    assert sum(item["points"] for item in data["items"]) == 29
    kinds = [item["kind"] for item in data["items"]]
    assert kinds == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert {"kind": "nobs", "cards": ["JC"], "points": 1} in data["items"]
    assert data["calls"][-1] == "and nobs is 29"


def test_score_crib_uses_the_crib_flush_rule(capsys: pytest.CaptureFixture[str]) -> None:
    _, hand_out, _ = run(capsys, "score", "--json", "2H", "4H", "6H", "8H", "KS")
    _, crib_out, _ = run(capsys, "score", "--json", "--crib", "2H", "4H", "6H", "8H", "KS")
    assert json.loads(hand_out)["total"] == json.loads(crib_out)["total"] + 4


def test_score_five_card_variant_takes_three_cards(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(
        capsys, "score", "--variant", "five-card", "--json", "5H", "10H", "JH", "5S"
    )
    assert status == 0
    assert (
        json.loads(out)["total"] == 8 + 2 + 3
    )  # four fifteens (each 5 with 10 and J), pair, flush


def test_an_empty_card_argument_is_named_not_dropped(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "score", "5H", "", "5S", "JC", "5C")
    assert status == 1
    assert "invalid card: ''" in err


def test_score_wrong_count_is_exit_1_with_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "score", "5H", "5D", "5S", "5C")
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("pegboard: error: wrong number of cards for a hand and starter")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(["5H", "5H", "5D", "JC", "5C"], "duplicate card 5H", id="duplicate"),
        pytest.param(["1H", "5D", "5S", "JC", "5C"], "invalid card: '1H'", id="unknown-card"),
    ],
)
def test_score_bad_cards_name_the_input(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, _, err = run(capsys, "score", *argv)
    assert status == 1
    assert message in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        pytest.param(
            ["5H" * 3000, "5D", "5S", "JC", "5C"],
            "hand and starter is too long: '5H5H5H",
            id="a-6000-byte-card",
        ),
        pytest.param(
            ["5H", "5D", "5S", "JC", "5C"] * 500,
            "hand and starter is too long: '5H 5D 5S JC 5C 5H 5D",
            id="2500-cards",
        ),
        pytest.param(
            ["5H", "5D", "\udcff", "JC", "5C"],  # argv's stand-in for the byte 0xFF
            r"hand and starter is not valid UTF-8: '5H 5D \udcff JC 5C' (byte 0xFF at character 7",
            id="undecodable-byte",
        ),
    ],
)
def test_card_arguments_over_4096_bytes_or_not_utf8_are_one_short_error_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, "score", *argv)
    assert status == 1 and out == ""
    assert err.startswith(f"pegboard: error: {message}") and err.count("\n") == 1
    assert len(err) < 200  # the arguments are quoted shortened, never echoed whole
    err.encode("ascii")


def test_score_reads_hands_from_stdin_and_survives_a_bad_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", stdin(b"5H 5D 5S JC 5C\nbad line\n\n3C 3D 6H 6S 9C\n"))
    status, out, err = run(capsys, "score", "--json", "-")
    answers = [json.loads(line) for line in out.splitlines()]
    assert status == 1
    assert [a.get("total") for a in answers] == [29, None, None, 14]  # one answer per line
    assert answers[2]["error"].startswith("wrong number of cards for a hand and starter: ''")
    assert answers[1] == {"line": 2, "error": answers[1]["error"]}
    assert "invalid card: 'bad'" in answers[1]["error"]
    assert "line 2" in err


MIXED_LINES = [
    "5H 5D 5S JC 5C",  # 29
    "bad line",
    "",
    "2h,4h;6h 8h  kh",  # a flush, written loosely
    "5H 5D 5S JC",  # one card short
    "10\u2665 J\u2665 Q\u2665 K\u2665\ufe0f A\u2665",  # symbols, an emoji selector
    "\uff15\uff28 5D 5S JC 5C",  # a full-width 5H
    "5H 5D 5H JC 5C",  # a card twice
    "AC 2D 3H 4S 9C",
    "7C 8D 8H KS 9C",
]


@pytest.mark.parametrize("variant", [Variant.SIX_CARD, Variant.FIVE_CARD])
@pytest.mark.parametrize("crib", [False, True])
def test_score_from_stdin_answers_each_line_exactly_as_one_line_alone(
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variant: Variant,
    crib: bool,
) -> None:
    # the stdin loop writes its JSON directly; each answer is exactly json.dumps of the result
    # _score_line gives for that line alone, or the error of that line, in order
    lines = [*MIXED_LINES, *(line.replace(" 5C", "") for line in MIXED_LINES[:3])]
    monkeypatch.setattr("sys.stdin", stdin("\n".join(lines).encode() + b"\n"))
    argv = ["--variant", variant.value, *(["--crib"] if crib else [])]
    status, out, err = run(capsys, "score", "--json", *argv, "-")
    rules = Rules.for_variant(variant)
    expected, errors = [], []
    for number, line in enumerate(lines, start=1):
        try:
            expected.append(json.dumps(_score_line(line, crib=crib, rules=rules)))
        except PegboardError as e:
            expected.append(json.dumps({"line": number, "error": str(e)}))
            errors.append(f"pegboard: error: line {number}: {e}")
    assert out.splitlines() == expected
    assert err.splitlines() == errors
    assert status == 1


@pytest.mark.parametrize("crib", [False, True])
def test_score_from_stdin_answers_thousands_of_random_hands_as_json_dumps_would(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, crib: bool
) -> None:
    rng = random.Random(11)
    lines = []
    for _ in range(3000):
        words = [rng.choice([str(c), str(c).lower()]) for c in rng.sample(DECK, 5)]
        lines.append(" ".join(words))
    monkeypatch.setattr("sys.stdin", stdin("\n".join(lines).encode()))
    status, out, err = run(capsys, "score", "--json", *(["--crib"] if crib else []), "-")
    rules = Rules.six_card()
    assert status == 0 and err == ""
    assert out.splitlines() == [
        json.dumps(_score_line(line, crib=crib, rules=rules)) for line in lines
    ]


# every word a line can hold that looks like a card: the plain ASCII spellings parse_cards reads
# from a table, and their neighbours that go through Card.parse (symbols, full width, mistakes)
CARD_WORDS = [
    rank + suit
    for rank in ["A", "a", *map(str, range(0, 12)), "T", "t", "J", "j", "Q", "q", "K", "k", "X"]
    for suit in ["C", "c", "D", "d", "H", "h", "S", "s", "X", "\u2665", "\uff28", ""]
]


@pytest.mark.parametrize("word", CARD_WORDS)
def test_every_card_word_in_a_line_reads_as_card_parse_reads_it(word: str) -> None:
    try:
        expected: Card | str = Card.parse(word)
    except PegboardError as e:
        expected = str(e)
    try:
        (read,) = parse_cards(word)
    except PegboardError as e:
        assert str(e) == expected
    else:
        assert read == expected
        assert str(read) == str(expected) and repr(read) == repr(expected)


def test_a_card_twice_in_a_line_is_named_as_written() -> None:
    with pytest.raises(InvalidHandError, match=r"^duplicate card 10H in '10h 5D tH'$"):
        parse_cards("10h 5D tH")
    with pytest.raises(InvalidHandError, match=r"^duplicate card 5D in '5D 5\u2666'$"):
        parse_cards("5D 5\u2666")


def test_peg_json_gives_points_per_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "peg", "--json", "4H", "2C", "3D", "5S", "6H")
    data = json.loads(out)
    assert status == 0
    assert data["points"] == [0, 0, 3, 4, 5]
    assert data["count"] == 20
    assert data["items"][2] == [{"kind": "run", "cards": ["4H", "2C", "3D"], "points": 3}]


def test_peg_over_31_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "peg", "KH", "QH", "JH", "2C")
    assert status == 1 and out == ""
    assert "over 31" in err


def test_advise_lists_every_discard_best_first(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "advise", "--pone", "--json", "5H", "5D", "5S", "JC", "2C", "9D")
    data = json.loads(out)
    options = data["options"]
    assert status == 0 and data["dealer"] is False
    assert len(options) == 15
    nets = [o["net_ev"] for o in options]
    assert nets == sorted(nets, reverse=True)
    assert set(options[0]["keep"]) == {"5H", "5D", "5S", "JC"}
    for o in options:
        assert o["net_ev"] == pytest.approx(o["hand_ev"] - o["crib_ev"])


def test_advise_wants_the_variants_deal(capsys: pytest.CaptureFixture[str]) -> None:
    status, _, err = run(capsys, "advise", "--variant", "three-handed", "5H", "5D", "5S", "JC")
    assert status == 1
    assert "expected 5" in err


def test_stats_distribution_json_lists_every_score(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "stats", "distribution", "--json")
    data = json.loads(out)
    assert status == 0
    assert data["combinations"] == 12_994_800
    assert list(data["counts"]) == [str(n) for n in range(30)]
    assert data["counts"]["0"] == 1_009_008
    assert data["counts"]["19"] == 0
    assert data["mean"] == pytest.approx(4.769152, abs=1e-6)


def test_stats_distribution_five_card(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "stats", "distribution", "--variant", "five-card", "--json")
    assert status == 0
    assert json.loads(out)["combinations"] == 1_082_900


def test_bad_usage_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["score", "--variant", "nine-card", "5H"])
    assert exc.value.code == 2


def test_demo_plays_a_real_deal(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "demo", "--seed", "7")
    assert status == 0
    assert "the play" in out and "the show" in out
    assert out.rstrip().splitlines()[-1].startswith("after one deal: North ")


def test_score_from_stdin_reads_a_line_as_parse_cards_reads_a_hand(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", stdin(b"5H,5D;5S JC 5C\n\t3c 3d 6h 6s 9c \n"))
    status, out, _ = run(capsys, "score", "--json", "-")
    assert status == 0
    assert [json.loads(line)["total"] for line in out.splitlines()] == [29, 14]


@pytest.mark.parametrize(
    ("variant", "total"),
    [pytest.param("six-card", 5, id="six-card"), pytest.param("five-card", 4, id="five-card")],
)
def test_a_crib_flush_on_the_command_line_is_worth_what_the_variant_says(
    capsys: pytest.CaptureFixture[str], variant: str, total: int
) -> None:
    status, out, _ = run(
        capsys, "score", "--json", "--variant", variant, "--crib", *["2H", "4H", "6H", "8H", "KH"]
    )
    assert status == 0 and json.loads(out)["total"] == total


def test_the_five_card_crib_distribution_counts_its_flush_as_four(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status, out, _ = run(
        capsys, "stats", "distribution", "--variant", "five-card", "--crib", "--json"
    )
    assert status == 0
    payload = json.loads(out)
    assert payload["combinations"] == 12_994_800 and payload["mean"] == 4.732838


@pytest.mark.parametrize(
    ("card", "meant"),
    [("1H", "AH"), ("11d", "JD"), ("12S", "QS"), ("13C", "KC"), ("0D", "10D"), ("H5", "5H")],
)
def test_a_near_miss_card_gets_a_suggestion(
    capsys: pytest.CaptureFixture[str], card: str, meant: str
) -> None:
    status, out, err = run(capsys, "score", card, "5D", "5S", "JC", "7C")
    assert status == 1 and out == ""
    assert err.count("\n") == 1
    assert err.rstrip().endswith(f"(expected rank A,2-10,J,Q,K then suit C,D,H,S, e.g. '5H'): "
                                 f"did you mean {meant!r}?")  # fmt: skip
    status, _, err = run(capsys, "--lang", "de", "score", card, "5D", "5S", "JC", "7C")
    assert err.rstrip().endswith(f"gemeint ist wohl {meant!r}?")


def test_a_card_with_no_near_miss_gets_no_guess(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "score", "ZZ", "5D", "5S", "JC", "7C")
    assert "did you mean" not in err
