"""tools/make_odds.py on a few self-played deals: its files have the shipped format, its tables
are sane, and its counts are those of a count made deal by deal."""

from __future__ import annotations

import random
import sys
from array import array
from collections import Counter
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from pegboard.engine import odds
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.selfplay import Advisor, DealPeg, DealTrace, PlayPolicy, Stage, play_deal
from tests.scripts import load_script

DEALS = 60
VARIANTS = [pytest.param(v, id=v.value) for v in (Variant.SIX_CARD, Variant.TWO_AGAINST_ONE)]
SEED = 5


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> tuple[ModuleType, Path]:
    """The tool run on DEALS deals of six-card and of two against one, into a scratch folder
    (never the package's data)."""
    tool = load_script("tools/make_odds.py")
    out = tmp_path_factory.mktemp("make-odds")
    patch = pytest.MonkeyPatch()
    patch.setattr(tool, "DATA", out / "data")
    patch.setattr(tool, "PICTURE", out / "odds.png")
    try:
        argv = ["--deals", str(DEALS), "--seed", str(SEED), "--traces", str(out / "traces")]
        assert tool.main([*argv, "--variant", "six-card", "--variant", "two-against-one"]) == 0
    finally:
        patch.undo()
    return tool, out


def shipped(name: str) -> bytes:
    return resources.files("pegboard.engine").joinpath("data", name).read_bytes()


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_files_have_the_shipped_format(made: tuple[ModuleType, Path], variant: Variant) -> None:
    _, out = made
    data = out / "data"
    table = (data / f"{variant.value}.table").read_bytes()
    assert len(table) == len(shipped(f"{variant.value}.table"))
    model = odds.Model.from_bytes(variant, (data / f"{variant.value}.dist").read_bytes())
    ours = odds.Model.from_bytes(variant, shipped(f"{variant.value}.dist"))
    assert model.target == ours.target
    assert [(p.name, p.next, p.next_same_side) for p in model.positions] == [
        (p.name, p.next, p.next_same_side) for p in ours.positions
    ]
    for mine, theirs in zip(model.positions, ours.positions, strict=True):
        assert set(mine.checkpoints) == set(theirs.checkpoints)
    assert sum(p.checkpoints["start"].deals for p in model.positions) == DEALS
    # the table is the programme over the counts, in fixed point
    assert table == odds.table_bytes(odds.solve(model))
    values = array("H")
    values.frombytes(table)
    if sys.byteorder == "big":
        values.byteswap()
    target = model.target
    for k in range(len(model.positions)):
        cells = values[k * target * target : (k + 1) * target * target]
        for dealer in range(0, target, 10):
            row = cells[dealer * target : (dealer + 1) * target]
            # the other side's points never raise the dealer's chance, nor lower his own
            assert all(row[p] >= row[p + 1] for p in range(target - 1)), (k, dealer)
            if dealer + 1 < target:
                above = cells[(dealer + 1) * target : (dealer + 2) * target]
                assert all(above[p] >= row[p] for p in range(target)), (k, dealer)
    assert (out / "odds.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def rests(rules: Rules, trace: DealTrace) -> dict[str, tuple[tuple[bool, int], ...]]:
    """Each moment's rest of one deal, read straight off its pegs."""
    mine = rules.side_of(trace.dealer)

    def ours(keep: Callable[[DealPeg], bool]) -> tuple[tuple[bool, int], ...]:
        return tuple((rules.side_of(p.seat) == mine, p.points) for p in trace.pegs if keep(p))

    heels = any(p.stage is Stage.HEELS for p in trace.pegs)
    found = {
        "start": ours(lambda p: True),
        f"starter-{2 if heels else 0}": ours(lambda p: p.stage is not Stage.HEELS),
    }
    laid = max(p.step for p in trace.pegs if p.stage is Stage.PLAY)
    for k in range(1, laid if rules.players == 2 else 1):
        found[f"play-{k}"] = ours(
            lambda p, k=k: (
                p.stage in (Stage.SHOW, Stage.CRIB) or (p.stage is Stage.PLAY and p.step > k)
            )
        )
    for j in range(rules.players + 1):
        found[f"show-{j}"] = ours(
            lambda p, j=j: p.stage is Stage.CRIB or (p.stage is Stage.SHOW and p.step >= j)
        )
    return found


def first(deals: list[tuple[tuple[bool, int], ...]], a: int, b: int) -> int:
    """How many deals the dealer's side made a points in before the others made b."""
    won = 0
    for pegs in deals:
        mine = theirs = 0
        for dealer_side, points in pegs:
            if dealer_side:
                mine += points
                if mine >= a:
                    won += 1
                    break
            else:
                theirs += points
                if theirs >= b:
                    break
    return won


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_counts_are_a_count_deal_by_deal(
    made: tuple[ModuleType, Path], variant: Variant
) -> None:
    tool, out = made
    rules = Rules.for_variant(variant)
    model = tool.model_from_traces(variant, out / "traces")
    # the same deals again, as the tool plays them: chunk 0's seed, the deal going round
    rng, advisor = random.Random(tool.chunk_seed(SEED, variant, 0)), Advisor(rules)
    plays = (tool.seat_play(variant, PlayPolicy.ADVISED),) * rules.players  # the default play
    named = odds.positions_of(rules)
    by_moment: list[dict[str, list[tuple[tuple[bool, int], ...]]]] = [{} for _ in named]
    for n in range(DEALS):
        dealer = n % rules.players
        trace = play_deal(rules, dealer, rng, advisor, plays)
        position = dealer if len(named) > 1 else 0
        for key, rest in rests(rules, trace).items():
            by_moment[position].setdefault(key, []).append(rest)
    checked = 0
    for position, moments in zip(model.positions, by_moment, strict=True):
        assert set(position.checkpoints) == set(moments)
        for key, deals in moments.items():
            race = position.checkpoints[key]
            assert race.deals == len(deals), key
            totals = Counter(
                (sum(p for d, p in pegs if d), sum(p for d, p in pegs if not d)) for pegs in deals
            )
            assert race.totals == tuple((x, y, n) for (x, y), n in sorted(totals.items())), key
            for a in range(1, 40, 3):
                for b in range(1, 40, 3):
                    assert race.first(a, b) == first(deals, a, b), (key, a, b)
                    checked += 1
    assert checked > 1000


OLD = b"the old file"


@pytest.fixture
def old_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[ModuleType, Path]:
    """The tool writing into a scratch folder that already holds (stand-ins for) its files."""
    tool = load_script("tools/make_odds.py")
    data = tmp_path / "data"
    data.mkdir()
    for variant in ("six-card", "two-against-one"):
        for suffix in ("dist", "table"):
            (data / f"{variant}.{suffix}").write_bytes(OLD)
    (tmp_path / "odds.png").write_bytes(OLD)
    monkeypatch.setattr(tool, "DATA", data)
    monkeypatch.setattr(tool, "PICTURE", tmp_path / "odds.png")
    return tool, tmp_path


def untouched(folder: Path) -> bool:
    """Whether the old files are all there as they were, and nothing else."""
    files = sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())
    expected = [f"data/{v}.{s}" for v in ("six-card", "two-against-one") for s in ("dist", "table")]
    return files == sorted([*expected, "odds.png"]) and all(
        (folder / name).read_bytes() == OLD for name in files
    )


@pytest.mark.parametrize("deals", ["0", "-5", "x"])
def test_a_bad_number_of_deals_is_one_line_and_writes_nothing(
    old_files: tuple[ModuleType, Path], deals: str, capsys: pytest.CaptureFixture[str]
) -> None:
    tool, folder = old_files
    traces = folder / "traces"
    assert tool.main(["--deals", deals, "--variant", "six-card", "--traces", str(traces)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"make_odds.py: error: argument --deals: expected a whole number of deals of 1 or more, "
        f"got {deals!r}"
    ]
    assert not traces.exists() and untouched(folder)


def test_counting_without_traces_is_refused_before_anything_is_written(
    old_files: tuple[ModuleType, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    tool, folder = old_files
    traces = folder / "traces"
    # a fresh clone: no build/odds-traces at all
    assert tool.main(["--no-selfplay", "--variant", "six-card", "--traces", str(traces)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"make_odds.py: error: no traces of six-card in {traces / 'six-card'} (run without "
        "--no-selfplay to play them)"
    ]
    assert untouched(folder)


def test_a_run_that_fails_while_drawing_leaves_every_old_file(
    made: tuple[ModuleType, Path],
    old_files: tuple[ModuleType, Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _, out = made
    tool, folder = old_files

    def broken(values: list[float], target: int, path: Path) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(tool, "draw_heat_map", broken)
    argv = ["--no-selfplay", "--traces", str(out / "traces")]
    with pytest.raises(OSError, match="the disk is full"):
        # two against one first: its counts and table are made before six-card's picture fails
        tool.main([*argv, "--variant", "two-against-one", "--variant", "six-card"])
    assert untouched(folder)


def test_a_run_leaves_no_scratch_files(made: tuple[ModuleType, Path]) -> None:
    _, out = made
    names = sorted(p.name for p in (out / "data").iterdir())
    assert names == sorted(
        f"{v}.{s}" for v in ("six-card", "two-against-one") for s in ("dist", "table")
    )
    assert sorted(p.name for p in out.iterdir() if p.is_file()) == ["odds.png"]


def test_the_shipped_tables_are_not_replaced_from_fewer_than_a_million_deals(
    made: tuple[ModuleType, Path],
    old_files: tuple[ModuleType, Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, out = made
    tool, folder = old_files
    monkeypatch.setattr(tool, "SHIPPED", folder / "data")  # the scratch folder stands for them
    traces = folder / "traces"
    assert tool.main(["--deals", "100", "--variant", "six-card", "--traces", str(traces)]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"make_odds.py: error: --deals 100 would replace the shipped tables in {folder / 'data'} "
        "with fewer than 1,000,000 deals a variant (pass --force to do so anyway)"
    ]
    assert not traces.exists()  # refused before any self-play
    # the traces on disk count too: the fixture's hold 60 deals
    argv = ["--no-selfplay", "--variant", "six-card", "--traces", str(out / "traces")]
    assert tool.main(argv) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"make_odds.py: error: the traces hold 60 deals of six-card, fewer than the 1,000,000 "
        f"of the shipped tables in {folder / 'data'} (play more with --deals, or pass --force); "
        "nothing was written"
    ]
    assert untouched(folder)
    # --force writes them, the same as elsewhere
    assert tool.main([*argv, "--force"]) == 0
    for suffix in ("dist", "table"):
        name = f"six-card.{suffix}"
        assert (folder / "data" / name).read_bytes() == (out / "data" / name).read_bytes()
    assert (folder / "odds.png").read_bytes() == (out / "odds.png").read_bytes()


def test_the_advised_play_is_self_played_into_its_own_traces(tmp_path: Path) -> None:
    tool = load_script("tools/make_odds.py")
    argv = ["--deals", "40", "--seed", "3", "--variant", "five-card", "--selfplay-only"]
    assert tool.main([*argv, "--traces", str(tmp_path / "g"), "--play", "greedy"]) == 0
    assert tool.main([*argv, "--traces", str(tmp_path / "a")]) == 0  # advised: the default
    greedy = tool.read_traces(Variant.FIVE_CARD, tmp_path / "g")
    advised = tool.read_traces(Variant.FIVE_CARD, tmp_path / "a")
    assert len(greedy) == len(advised) == 40
    # the same deals (the show is the same), played otherwise in some of them
    shows = [[p for p in pegs if p[2] is not Stage.PLAY] for _, pegs in greedy]
    assert shows == [[p for p in pegs if p[2] is not Stage.PLAY] for _, pegs in advised]
    assert greedy != advised
    rng = random.Random(tool.chunk_seed(3, Variant.FIVE_CARD, 0))
    rules = Rules.five_card()
    first = play_deal(rules, 0, rng, Advisor(rules), (PlayPolicy.ADVISED,) * 2)
    got = array("B")
    tool.encode(first, got)
    assert tool.decode(got.tobytes())[0] == advised[0]


def test_each_play_keeps_its_own_chunks_and_the_greedy_variants_share_theirs() -> None:
    tool = load_script("tools/make_odds.py")
    build = Path(tool.ROOT) / "build"
    advised, greedy = PlayPolicy.ADVISED, PlayPolicy.GREEDY
    assert tool.default_traces(Variant.SIX_CARD, advised) == build / "odds-traces-advised"
    assert tool.default_traces(Variant.SIX_CARD, greedy) == build / "odds-traces"
    # more than two players: greedy under either play, so one set of chunks serves both
    for variant in (Variant.FOUR_HANDED, Variant.TWO_AGAINST_ONE):
        assert tool.seat_play(variant, advised) is greedy
        assert tool.default_traces(variant, advised) == build / "odds-traces"


def test_chunks_played_by_several_processes_are_the_chunks_one_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tool = load_script("tools/make_odds.py")
    monkeypatch.setattr(tool, "CHUNK", 10)  # three chunks of ten deals
    argv = ["--deals", "30", "--seed", "4", "--variant", "five-card", "--selfplay-only"]
    assert tool.main([*argv, "--traces", str(tmp_path / "one"), "--play", "advised"]) == 0
    assert tool.main([*argv, "--traces", str(tmp_path / "two"), "--play", "advised",
                      "--jobs", "2"]) == 0  # fmt: skip
    chunks = sorted((tmp_path / "one" / "five-card").iterdir())
    assert [p.name for p in chunks] == ["chunk-0000.bin", "chunk-0001.bin", "chunk-0002.bin"]
    for path in chunks:
        assert (tmp_path / "two" / "five-card" / path.name).read_bytes() == path.read_bytes()


def test_a_bad_number_of_processes_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    tool = load_script("tools/make_odds.py")
    assert tool.main(["--jobs", "0", "--selfplay-only"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        "make_odds.py: error: argument --jobs: expected a whole number of processes of 1 or "
        "more, got '0'"
    ]


def test_the_summary_reads_what_the_files_say(
    made: tuple[ModuleType, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    tool, out = made
    assert tool.main(["--summary", str(out / "data"), "--variant", "six-card"]) == 0
    line = capsys.readouterr().out.strip()
    # the same figures straight from the deals on disk: each deal's pegs by the dealer's seat
    traces = tool.read_traces(Variant.SIX_CARD, out / "traces")
    mine = sum(p for dealer, pegs in traces for seat, p, _, _ in pegs if seat == dealer)
    theirs = sum(p for dealer, pegs in traces for seat, p, _, _ in pegs if seat != dealer)
    values = odds.solve(tool.model_from_traces(Variant.SIX_CARD, out / "traces"))
    first = round(values[0][0] * odds.SCALE) / odds.SCALE
    assert line == (
        f"six-card: {DEALS} deals; the first dealer's side at 0-0: {first:.2%}; points a deal: "
        f"the dealer's side {mine / DEALS:.2f}, the other side {theirs / DEALS:.2f}"
    )


def test_the_summary_of_a_folder_without_the_files_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tool = load_script("tools/make_odds.py")
    assert tool.main(["--summary", str(tmp_path), "--variant", "five-card"]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"make_odds.py: error: cannot read {tmp_path / 'five-card.dist'}: No such file or directory"
    ]
