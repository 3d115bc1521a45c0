"""Build the win-probability tables that ship in ``pegboard/engine/data/`` (``make odds``).

Usage::

    .venv/bin/python tools/make_odds.py [--deals N] [--variant NAME ...] [--traces DIR]
                                        [--no-selfplay] [--seed S] [--play advised|greedy]
                                        [--jobs N]

Three stages, each rerunnable on its own:

1. **Self-play** (slow). Plays ``--deals`` deals per variant with ``pegboard.engine.selfplay``
   and appends them, in chunks of ``CHUNK`` deals, to ``DIR/<variant>/chunk-NNNN.bin``. The
   two-player variants are played with the exact play advice in both seats (``--play
   advised``, the default: ``selfplay.PlayPolicy.ADVISED``, its lead from the shipped lead
   book; about 14 ms of CPU a six-card or two-in-the-crib deal and 3 ms a five-card one), or
   greedily (``--play greedy``: about 1 ms a deal). The advice covers two players only, so
   four-handed and two against one are played greedily either way. ``DIR`` is ``--traces``, or
   by default (not committed) ``build/odds-traces-advised`` for the advised play and
   ``build/odds-traces`` for the greedy play, so the two plays' chunks never mix and the greedy
   variants' chunks serve both. Each chunk has its own seed, so a chunk is the same whenever
   and wherever it is played: ``--jobs N`` (default: every core) shares the missing chunks
   over N processes. A run that stops keeps every finished chunk, and the next run goes on
   from there (``--deals`` is the total wanted). ``--no-selfplay`` skips this stage.
2. **Counts**: every trace read back and summed into the counts the dynamic programme needs
   (``model_from_traces``: an ``odds.Model``, ``odds.RaceCounts`` per dealer position and
   moment), one file per variant, ``pegboard/engine/data/<variant>.dist``.
3. **Tables**: ``odds.solve`` over those counts, ``pegboard/engine/data/<variant>.table``, and
   the heat map ``docs/odds-six-card.png`` (Pillow).

Every variant is counted, solved and drawn before any file is written; each file is then
written whole under a scratch name in its folder and moved into place (``os.replace``), so a
run that fails leaves the old files as they were. The shipped tables are made from a million
deals a variant: writing them from fewer (``--deals``, or the traces on disk with
``--no-selfplay``) is refused unless ``--force``. Bad arguments get one line and exit 2; missing
or too few traces exit 1, with nothing written.

``--summary [DIR]`` only reads: for each variant, what the tables and counts in ``DIR`` (the
package's data by default) say: the deals counted, the first dealer's chance when a game
starts, and the points a deal of each side (``summary``). Run on an older checkout's data
(``git archive REV pegboard/engine/data | tar -x -C /tmp/old``) it gives the figures beside.

Run pinned and at low priority on a shared machine: ``taskset -c 1 nice -n 19 ...``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import sys
import time
from array import array
from pathlib import Path
from typing import NoReturn

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pegboard.engine import odds  # noqa: E402
from pegboard.engine.rules import Rules, Variant  # noqa: E402
from pegboard.engine.selfplay import (  # noqa: E402
    Advisor,
    DealTrace,
    PlayPolicy,
    Stage,
    play_deal,
    seat_plays,
)

CHUNK = 20_000
"""Deals per trace file."""

STAGE_CODE = {Stage.HEELS: 0, Stage.PLAY: 1, Stage.SHOW: 2, Stage.CRIB: 3}
STAGE_OF = {code: stage for stage, code in STAGE_CODE.items()}

SHIPPED = ROOT / "pegboard" / "engine" / "data"
"""The package's data: the tables that ship."""
SHIPPED_DEALS = 1_000_000
"""The deals a variant the shipped tables are made from; fewer need ``--force`` there."""
DATA = SHIPPED
"""Where the tables are written (tests point it elsewhere)."""
PICTURE = ROOT / "docs" / "odds-six-card.png"


# --- traces on disk --------------------------------------------------------------------------


def encode(trace: DealTrace, out: array[int]) -> None:
    """Append one deal: dealer, number of pegs, then (seat << 4 | stage, points, step) each."""
    out.append(trace.dealer)
    out.append(len(trace.pegs))
    for peg in trace.pegs:
        out.append(peg.seat << 4 | STAGE_CODE[peg.stage])
        out.append(peg.points)
        out.append(peg.step)


def decode(data: bytes) -> list[tuple[int, list[tuple[int, int, Stage, int]]]]:
    """The deals of one chunk: (dealer, [(seat, points, stage, step), ...]) each."""
    deals = []
    i = 0
    while i < len(data):
        dealer, count = data[i], data[i + 1]
        i += 2
        pegs = []
        for _ in range(count):
            code, points, step = data[i], data[i + 1], data[i + 2]
            pegs.append((code >> 4, points, STAGE_OF[code & 15], step))
            i += 3
        deals.append((dealer, pegs))
    return deals


def chunk_seed(seed: int, variant: Variant, chunk: int) -> int:
    """A fixed seed per (run seed, variant, chunk): a chunk is the same deals every time."""
    return seed * 1_000_003 + list(Variant).index(variant) * 100_003 + chunk


def seat_play(variant: Variant, play: PlayPolicy) -> PlayPolicy:
    """The play each seat of *variant* follows when *play* is asked: greedy where the advice
    does not reach (more than two players)."""
    return seat_plays(Rules.for_variant(variant), play)[0]


def default_traces(variant: Variant, play: PlayPolicy) -> Path:
    """Where *variant*'s chunks are kept for *play* when ``--traces`` is not given."""
    played = seat_play(variant, play)
    name = "odds-traces" if played is PlayPolicy.GREEDY else f"odds-traces-{played.value}"
    return ROOT / "build" / name


def selfplay(
    variant: Variant,
    deals: int,
    traces: Path,
    seed: int,
    play: PlayPolicy = PlayPolicy.GREEDY,
    jobs: int = 1,
) -> None:
    """Play chunks until *traces* holds at least *deals* deals of *variant*, each seat playing
    *play* (``seat_play``); the missing chunks are shared over *jobs* processes (a chunk is the
    same whoever plays it)."""
    folder = traces / variant.value
    folder.mkdir(parents=True, exist_ok=True)
    size = min(CHUNK, deals)  # a small run (a try-out) plays one small chunk
    chunks = (deals + size - 1) // size
    paths = [folder / f"chunk-{chunk:04d}.bin" for chunk in range(chunks)]
    todo = [
        (variant, play, seed, size, chunk, path)
        for chunk, path in enumerate(paths)
        if not path.exists()
    ]
    started = time.perf_counter()

    def done(chunk: int) -> None:
        elapsed = time.perf_counter() - started
        print(
            f"{variant.value}: chunk {chunk + 1}/{chunks} done, {elapsed:.0f} s so far", flush=True
        )

    if jobs <= 1 or len(todo) <= 1:
        for job in todo:
            done(_play_chunk(job))
        return
    with multiprocessing.get_context("fork").Pool(min(jobs, len(todo))) as pool:
        for chunk in pool.imap_unordered(_play_chunk, todo):
            done(chunk)


_ADVISORS: dict[Variant, Advisor] = {}
"""One advisor per variant in a process: its memory of discards and leads carries over chunks."""


def _play_chunk(job: tuple[Variant, PlayPolicy, int, int, int, Path]) -> int:
    """Play one chunk and write it whole; its number."""
    variant, play, seed, size, chunk, path = job
    rules = Rules.for_variant(variant)
    policies = seat_plays(rules, play)
    advisor = _ADVISORS.setdefault(variant, Advisor(rules))
    rng = random.Random(chunk_seed(seed, variant, chunk))
    out: array[int] = array("B")
    for n in range(size):
        # the deal goes round the table; by symmetry only the dealer's seat matters
        dealer = (chunk * size + n) % rules.players
        encode(play_deal(rules, dealer, rng, advisor, policies), out)
    tmp = path.with_suffix(".tmp")
    tmp.write_bytes(out.tobytes())
    tmp.rename(path)  # a chunk on disk is always whole
    return chunk


def read_traces(
    variant: Variant, traces: Path
) -> list[tuple[int, list[tuple[int, int, Stage, int]]]]:
    """Every deal played so far for *variant*, chunk by chunk in order."""
    deals = []
    for path in _chunks(variant, traces):
        deals.extend(decode(path.read_bytes()))
    return deals


# --- counts ----------------------------------------------------------------------------------


def model_from_traces(variant: Variant, traces: Path) -> odds.Model:
    """Sum every deal on disk into the counts of each dealer position and moment."""
    rules = Rules.for_variant(variant)
    named = odds.positions_of(rules)
    # per position: checkpoint key -> each different rest of a deal (its pegs, seen from the
    # dealer's side) -> how many deals had it
    rests: list[dict[str, dict[tuple[tuple[bool, int], ...], int]]] = [{} for _ in named]

    def add(
        keyed: dict[str, dict[tuple[tuple[bool, int], ...], int]],
        key: str,
        rest: tuple[tuple[bool, int], ...],
    ) -> None:
        counts = keyed.setdefault(key, {})
        counts[rest] = counts.get(rest, 0) + 1

    for dealer, pegs in read_traces(variant, traces):
        position = dealer if len(named) > 1 else 0
        mine = rules.side_of(dealer)
        ours = tuple((rules.side_of(seat) == mine, points) for seat, points, _, _ in pegs)
        keyed = rests[position]
        add(keyed, "start", ours)
        heels = bool(pegs) and pegs[0][2] is Stage.HEELS
        add(keyed, f"starter-{2 if heels else 0}", ours[1:] if heels else ours)
        # the play: after k cards laid and whatever they and a following go pegged (two-player
        # variants only: with 12 or 16 cards laid, per card, the counts would be most of the data)
        play = [i for i, (_, _, stage, _) in enumerate(pegs) if stage is Stage.PLAY]
        laid = pegs[play[-1]][3]  # the last card pegs for last, so its step is the cards laid
        for k in range(1, laid if rules.players == 2 else 1):
            rest = next(i for i in range(len(pegs)) if not _played_by(pegs[i], k))
            add(keyed, f"play-{k}", ours[rest:])
        # the show: after j hands shown (j = players: only the crib is left)
        for j in range(rules.players + 1):
            rest = next((i for i, peg in enumerate(pegs) if _still_to_show(peg, j)), len(pegs))
            add(keyed, f"show-{j}", ours[rest:])
    positions = []
    for (name, nxt, same), keyed in zip(named, rests, strict=True):
        checkpoints = {key: odds.RaceCounts.tally(deals) for key, deals in keyed.items()}
        positions.append(odds.Position(name, nxt, same, checkpoints))
    return odds.Model(variant, rules.target, tuple(positions))


def _played_by(peg: tuple[int, int, Stage, int], k: int) -> bool:
    """Whether *peg* was made by the time k cards were laid (and a go after them)."""
    _, _, stage, step = peg
    return stage is Stage.HEELS or (stage is Stage.PLAY and step <= k)


def _still_to_show(peg: tuple[int, int, Stage, int], shown: int) -> bool:
    _, _, stage, step = peg
    return stage is Stage.CRIB or (stage is Stage.SHOW and step >= shown)


# --- the command -----------------------------------------------------------------------------


class UsageError(Exception):
    """Bad arguments: one line on stderr, exit 2."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, not the usage block
        raise UsageError(message)


def deal_count(text: str, what: str = "deals") -> int:
    """``--deals``: a whole number of deals, 1 or more."""
    try:
        deals = int(text)
    except ValueError:
        deals = 0
    if deals < 1:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of {what} of 1 or more, got {text!r}"
        )
    return deals


def job_count(text: str) -> int:
    """``--jobs``: a whole number of processes, 1 or more."""
    return deal_count(text, "processes")


def main(argv: list[str] | None = None) -> int:
    """Run the stages; print what was done and how long it took.

    Exit 2 for bad arguments (one line on stderr), 1 when the traces to count are missing or
    too few for the shipped tables; then nothing was written to the data or the picture.
    """
    parser = _Parser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=deal_count, default=1_000_000, help="deals per variant")
    parser.add_argument(
        "--variant",
        action="append",
        choices=[v.value for v in odds.VARIANTS],
        help="only these variants (default: every variant with a table)",
    )
    parser.add_argument("--traces", type=Path, default=None, help="where the chunks are kept")
    parser.add_argument(
        "--play",
        choices=[p.value for p in PlayPolicy],
        default=PlayPolicy.ADVISED.value,
        help="the two-player variants' play (the others are greedy either way)",
    )
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument(
        "--jobs",
        type=job_count,
        default=os.cpu_count() or 1,
        help="self-play processes (each plays whole chunks; default: every core)",
    )
    parser.add_argument("--no-selfplay", action="store_true", help="use the traces on disk")
    parser.add_argument("--selfplay-only", action="store_true", help="stop after self-play")
    parser.add_argument(
        "--summary",
        nargs="?",
        const="",
        metavar="DIR",
        help="only read: what the tables in DIR (default: the package's) say, a line a variant",
    )
    parser.add_argument(
        "--force",
        action="store_true",
        help=f"replace the shipped tables with fewer than {SHIPPED_DEALS:,} deals a variant",
    )
    try:
        args = parser.parse_args(argv)
        if args.no_selfplay and args.selfplay_only:
            raise UsageError("--no-selfplay and --selfplay-only leave nothing to do: pick one")
        shipped = not args.selfplay_only and DATA.resolve() == SHIPPED.resolve()
        if shipped and args.deals < SHIPPED_DEALS and not args.force:
            raise UsageError(
                f"--deals {args.deals} would replace the shipped tables in {DATA} with fewer "
                f"than {SHIPPED_DEALS:,} deals a variant (pass --force to do so anyway)"
            )
    except UsageError as e:
        print(f"make_odds.py: error: {e}", file=sys.stderr)
        return 2
    play = PlayPolicy(args.play)
    variants = [Variant(v) for v in args.variant] if args.variant else list(odds.VARIANTS)
    if args.summary is not None:
        folder = Path(args.summary) if args.summary else DATA
        try:
            for variant in variants:
                print(summary(variant, folder))
        except OSError as e:
            print(f"make_odds.py: error: cannot read {e.filename}: {e.strerror}", file=sys.stderr)
            return 1
        except odds.OddsError as e:
            print(f"make_odds.py: error: {e}", file=sys.stderr)
            return 1
        return 0
    traces = {v: args.traces or default_traces(v, play) for v in variants}
    if args.no_selfplay:  # the traces must be there before anything is counted or written
        missing = [v for v in variants if not _chunks(v, traces[v])]
        if missing:
            print(
                f"make_odds.py: error: no traces of {missing[0].value} in "
                f"{traces[missing[0]] / missing[0].value} (run without --no-selfplay to play "
                "them)",
                file=sys.stderr,
            )
            return 1
    started = time.perf_counter()
    if not args.no_selfplay:
        for variant in variants:
            selfplay(variant, args.deals, traces[variant], args.seed, play, args.jobs)
    if args.selfplay_only:
        print(f"self-play done in {time.perf_counter() - started:.0f} s")
        return 0
    # everything is counted, solved and drawn first; the files are replaced only at the end
    files: list[tuple[Path, bytes]] = []
    picture: Path | None = None
    for variant in variants:
        begun = time.perf_counter()
        model = model_from_traces(variant, traces[variant])
        counted = time.perf_counter()
        deals = sum(p.checkpoints["start"].deals for p in model.positions)
        if shipped and deals < SHIPPED_DEALS and not args.force:
            print(
                f"make_odds.py: error: the traces hold {deals:,} deals of {variant.value}, "
                f"fewer than the {SHIPPED_DEALS:,} of the shipped tables in {DATA} (play "
                "more with --deals, or pass --force); nothing was written",
                file=sys.stderr,
            )
            return 1
        values = odds.solve(model)
        files.append((DATA / f"{variant.value}.dist", model.to_bytes()))
        files.append((DATA / f"{variant.value}.table", odds.table_bytes(values)))
        seat, mine, theirs = game_start(Rules.for_variant(variant))
        first = values[seat][mine * model.target + theirs]
        print(
            f"{variant.value} ({seat_play(variant, play).value} play): {deals:,} deals counted "
            f"in {counted - begun:.0f} s, solved in {time.perf_counter() - counted:.0f} s; the "
            f"first dealer's side at {mine}-{theirs}: {first:.4f}",
            flush=True,
        )
        if variant is Variant.SIX_CARD:
            picture = _scratch(PICTURE)
            draw_heat_map(values[0], model.target, picture)
    DATA.mkdir(parents=True, exist_ok=True)
    for path, data in files:
        scratch = _scratch(path)
        scratch.write_bytes(data)
        os.replace(scratch, path)  # a reader sees the old file or the new one, whole
    if picture is not None:
        os.replace(picture, PICTURE)
    print(f"make odds: {time.perf_counter() - started:.0f} s in all")
    return 0


def _chunks(variant: Variant, traces: Path) -> list[Path]:
    return sorted((traces / variant.value).glob("chunk-*.bin"))


def _scratch(path: Path) -> Path:
    """A name beside *path* to write it whole first (same folder, same suffix for Pillow)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return path.with_name(f".{path.stem}.tmp{path.suffix}")


def summary(variant: Variant, folder: Path) -> str:
    """One line of what *folder*'s counts and table of *variant* say (reads only): the deals,
    the first dealer's side's chance when a game starts, and each side's points a deal (the
    mean over the deals of the first dealer's position).

    Raises:
        OSError: a file cannot be read.
        OddsError: the counts are not of this version.
    """
    rules = Rules.for_variant(variant)
    model = odds.Model.from_bytes(variant, (folder / f"{variant.value}.dist").read_bytes())
    table = array("H")
    table.frombytes((folder / f"{variant.value}.table").read_bytes())
    if sys.byteorder == "big":
        table.byteswap()
    seat, mine, theirs = game_start(rules)
    target = model.target
    first = table[seat * target * target + mine * target + theirs] / odds.SCALE
    race = model.positions[seat].checkpoints["start"]
    dealer = sum(x * n for x, _, n in race.totals) / race.deals
    other = sum(y * n for _, y, n in race.totals) / race.deals
    deals = sum(p.checkpoints["start"].deals for p in model.positions)
    return (
        f"{variant.value}: {deals:,} deals; the first dealer's side at {mine}-{theirs}: "
        f"{first:.2%}; points a deal: the dealer's side {dealer:.2f}, the other side {other:.2f}"
    )


def game_start(rules: Rules) -> tuple[int, int, int]:
    """(position, dealer's side score, other side's) when a game starts: five-card's pone has
    pegged three for last; two against one, the pair's first seat deals and the solo is on 60."""
    if rules.variant is Variant.TWO_AGAINST_ONE:
        return 0, 0, 60
    return 0, 0, rules.pone_bonus


# --- the picture -----------------------------------------------------------------------------


def colour(chance: float) -> tuple[int, int, int]:
    """Blue (the pone's game) through white (even) to red (the dealer's)."""
    if chance >= 0.5:
        t = (chance - 0.5) * 2
        return (255, round(255 - 205 * t), round(255 - 215 * t))
    t = (0.5 - chance) * 2
    return (round(255 - 225 * t), round(255 - 155 * t), 255)


def draw_heat_map(values: list[float], target: int, path: Path) -> None:
    """The start-of-deal table as a picture: dealer's score up, pone's score across."""
    from PIL import Image, ImageDraw, ImageFont

    cell, left, top, bottom, right = 4, 64, 44, 52, 120
    size = cell * target
    image = Image.new("RGB", (left + size + right, top + size + bottom), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=13)
    small = ImageFont.load_default(size=11)

    def at(dealer: int, pone: int) -> tuple[int, int]:  # the cell's top-left corner
        return left + pone * cell, top + (target - 1 - dealer) * cell

    for dealer in range(target):
        for pone in range(target):
            x, y = at(dealer, pone)
            chance = values[dealer * target + pone]
            draw.rectangle((x, y, x + cell - 1, y + cell - 1), fill=colour(chance))
    # the 50% line: a black edge between two cells on either side of one half
    for dealer in range(target):
        for pone in range(target):
            here = values[dealer * target + pone] >= 0.5
            x, y = at(dealer, pone)
            if pone + 1 < target and (values[dealer * target + pone + 1] >= 0.5) != here:
                draw.line((x + cell, y, x + cell, y + cell - 1), fill="black", width=2)
            if dealer + 1 < target and (values[(dealer + 1) * target + pone] >= 0.5) != here:
                draw.line((x, y, x + cell - 1, y), fill="black", width=2)
    draw.rectangle((left - 1, top - 1, left + size, top + size), outline="black")
    for score in range(0, target, 30):
        x, y = at(0, score)
        draw.line((x, top + size, x, top + size + 4), fill="black")
        draw.text((x, top + size + 6), str(score), fill="black", font=small, anchor="mt")
        x, y = at(score, 0)
        draw.line((left - 5, y + cell, left, y + cell), fill="black")
        draw.text((left - 7, y + cell), str(score), fill="black", font=small, anchor="rm")
    draw.text(
        (left + size // 2, top + size + 24), "pone's score", fill="black", font=font, anchor="mt"
    )
    label = Image.new("RGB", (160, 18), "white")
    ImageDraw.Draw(label).text((80, 9), "dealer's score", fill="black", font=font, anchor="mm")
    image.paste(label.rotate(90, expand=True), (6, top + size // 2 - 80))
    draw.text(
        (left, 12),
        "Six-card cribbage: the dealer's chance to win at the start of a deal",
        fill="black",
        font=font,
    )
    # the legend: a colour bar with its chances, and the line
    bar_left, bar_top, bar_height = left + size + 24, top + 10, size - 80
    for i in range(bar_height):
        chance = 1 - i / (bar_height - 1)
        draw.line((bar_left, bar_top + i, bar_left + 16, bar_top + i), fill=colour(chance))
    draw.rectangle(
        (bar_left - 1, bar_top - 1, bar_left + 17, bar_top + bar_height), outline="black"
    )
    for chance in (0.0, 0.25, 0.5, 0.75, 1.0):
        y = bar_top + round((1 - chance) * (bar_height - 1))
        draw.line((bar_left + 17, y, bar_left + 21, y), fill="black")
        draw.text((bar_left + 24, y), f"{chance:.0%}", fill="black", font=small, anchor="lm")
    y = bar_top + bar_height + 22
    draw.line((bar_left, y, bar_left + 16, y), fill="black", width=2)
    draw.text((bar_left + 22, y), "50% line", fill="black", font=small, anchor="lm")
    draw.text((bar_left - 4, y + 14), "red: dealer", fill="black", font=small)
    draw.text((bar_left - 4, y + 28), "blue: pone", fill="black", font=small)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path, optimize=True)


if __name__ == "__main__":
    sys.exit(main())
