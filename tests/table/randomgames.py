"""Whole random games as key files, typed as a table would on a 4x4 keypad in counting mode.

``random_game(rng, variant=..., language=..., muggins=...)`` deals real cards from a shuffled
pack each deal, then plays them through a controller on a fake clock: a cut, the starter's
rank, each card of the play (a random one that fits, else ``#`` for go), the questions of the
show answered as the cards say (``#`` no, or the nobs and flushes they hold), and the crib typed.
Under muggins a hand is sometimes claimed short. After each key that counts a hand or a crib
the players read the whole count: the file waits until the screen has shown every page and
moved on, plus a moment. The result is the key file's text, header included, which
``pegboard run --simulate --headless --keys FILE`` replays to the same game.
"""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

from pegboard.config.settings import parse_config
from pegboard.devices.ports import FakeClock, KeyEvent
from pegboard.engine.cards import Card, Rank, shuffled_deck
from pegboard.engine.game import Phase
from pegboard.engine.rules import Rules, Variant
from pegboard.journal import Journal
from pegboard.table.controller import Controller
from pegboard.table.wiring import build_controller, sim_ports
from pegboard.ui.keypad import Mode
from pegboard.ui.screens import ScreenKind

RANK_KEYS = {Rank(n): str(n) for n in range(1, 10)} | {
    Rank.TEN: "0",
    Rank.JACK: "A",
    Rank.QUEEN: "B",
    Rank.KING: "C",
}
NAMES = ("Ann", "Bob", "Cy", "Di")
MOST_KEYS = 4000  # a hang guard: a whole six-card game takes a few hundred


class _Typist:
    """A controller on a fake clock and the key file it is being typed into."""

    def __init__(self, ctl: Controller, clock: FakeClock, rng: random.Random) -> None:
        self.ctl, self.clock, self.rng = ctl, clock, rng
        self.lines: list[str] = []

    def key(self, key: str) -> bool:
        """Press *key*; False (and the line marked ``!``) when the device refused it."""
        if len(self.lines) > MOST_KEYS:
            raise AssertionError(f"no game over after {MOST_KEYS} keys:\n" + "\n".join(self.lines))
        before = self.ctl.view
        self.ctl.handle(KeyEvent(key))
        refused = bool(self.ctl.last_error)
        self.lines.append(f"!{key}" if refused else key)
        news = self.ctl.news
        if not refused and self.ctl.view != before and news is not None and news.counted:
            self.read_the_count()
        return not refused

    def read_the_count(self) -> None:
        """Wait until the count has been read to its end (the screen moved on), and a bit."""
        waited = 0.0
        while self.ctl.screen.kind is ScreenKind.COUNT and waited < 120.0:
            self.clock.advance(0.25)
            self.ctl.tick()
            waited += 0.25
        waited += self.rng.choice([0.0, 0.5, 1.5])
        self.lines.append(f"wait {waited:g}")


def _flush_answer(hand: list[Card], starter: Card, hint: str, crib: bool) -> str:
    """The answer the cards give to a flush question (``#`` none)."""
    one_suit = len({card.suit for card in hand}) == 1
    five = one_suit and starter.suit == hand[0].suit
    if crib:
        return "1" if five else "#"
    if five:
        return "2"
    return "1" if one_suit else "#"


def _answer(typist: _Typist, hand: list[Card], starter: Card, crib: bool) -> None:
    """Answer the show's question about *hand* as its cards say."""
    hint = typist.ctl.entry.hint
    nobs = any(c.rank is Rank.JACK and c.suit == starter.suit for c in hand)
    if hint.startswith(("nobs?", "Bube?")):
        answer = "1" if nobs else "#"
    elif hint.startswith(("flush?", "Flush?")):
        answer = _flush_answer(hand, starter, hint, crib)
    elif "3" in hint.split("\n")[0]:  # flush or nobs: 1 (,2) flush, 3 nobs
        flush = _flush_answer(hand, starter, hint, crib)
        answer = flush if flush != "#" else ("3" if nobs else "#")
    else:
        answer = "#"
    if not typist.key(answer):
        typist.key("#")


def random_game(
    rng: random.Random,
    *,
    variant: Variant = Variant.SIX_CARD,
    language: str = "en",
    muggins: bool = False,
) -> str:
    """A whole random game of *variant* as a key file's text (see the module doc)."""
    rules = Rules.for_variant(variant)
    names = NAMES[: rules.players]
    header = [
        f"# A random game (seed {rng.random():.6f}), typed as a table would.",
        f"# variant: {variant.value}",
        f"# names: {', '.join(names[: rules.sides])}",
        f"# language: {language}",
        f"# muggins: {'yes' if muggins else 'no'}",
    ]
    with tempfile.TemporaryDirectory() as folder:
        muggins_line = "muggins = true\n" if muggins else ""
        config = parse_config(
            f'[game]\ndatabase = "{Path(folder) / "g.db"}"\nvariant = "{variant.value}"\n'
            f"names = {list(names[: rules.sides])!r}\nlanguage = '{language}'\n{muggins_line}"
        )
        clock = FakeClock(1000.0)
        with Journal(config.game.database) as store:
            ctl = build_controller(config, store, sim_ports(config), clock=clock)
            ctl.tick()
            lines = _play(_Typist(ctl, clock, rng), rules)
    return "\n".join(header + lines) + "\n"


def _play(typist: _Typist, rules: Rules) -> list[str]:
    """The keys of a whole game, from the cut to game over."""
    ctl, rng = typist.ctl, typist.rng
    cuts = rng.sample(sorted(RANK_KEYS.values()), rules.players)
    for key in cuts:
        typist.key(key)
    while ctl.view.phase not in (Phase.GAME_OVER, Phase.MATCH_OVER):
        _deal(typist, rules)
    typist.lines.append("wait 5")
    return typist.lines


def _deal(typist: _Typist, rules: Rules) -> None:
    """One deal: real cards, the starter, the play, the show."""
    ctl, rng = typist.ctl, typist.rng
    pack = shuffled_deck(rng)
    starter = pack.pop()
    kept = rules.dealt - rules.discards
    hands = [[pack.pop() for _ in range(kept)] for _ in range(rules.players)]
    crib = [pack.pop() for _ in range(4)]
    typist.key(RANK_KEYS[starter.rank])
    in_hand = [list(hand) for hand in hands]
    while ctl.view.phase is Phase.PLAY:
        view = ctl.view
        seat = view.turn
        if seat is None:
            typist.key("#")
            continue
        fits = [c for c in in_hand[seat] if view.count + c.rank.pips <= 31]
        if not fits:
            if not typist.key("#"):
                raise AssertionError(f"go refused: {ctl.last_error}\n" + "\n".join(typist.lines))
            continue
        card = rng.choice(fits)
        if not typist.key(RANK_KEYS[card.rank]):
            raise AssertionError(f"{card} refused: {ctl.last_error}\n" + "\n".join(typist.lines))
        in_hand[seat].remove(card)
    _show(typist, hands, in_hand, crib, starter)


def _show(
    typist: _Typist,
    hands: list[list[Card]],
    unplayed: list[list[Card]],
    crib: list[Card],
    starter: Card,
) -> None:
    """The show: each hand's question answered (the cards the play left are typed first, in a
    one-series game), the crib typed and answered."""
    ctl, rng = typist.ctl, typist.rng
    for _ in range(40):
        view = ctl.view
        if view.phase is not Phase.SHOW:
            return
        up = view.up_for_counting
        is_crib = up == "crib"
        if is_crib:
            cards, left = crib, list(crib)
        else:
            seat = next(n for n, name in enumerate(view.seat_names) if name == up)
            cards, left = hands[seat], unplayed[seat]
        entry = ctl.entry
        if entry.mode is Mode.CLAIM:
            claim = rng.choice(["#", "#", "0 #", "2 #"])
            if not all(typist.key(k) for k in claim.split()):
                typist.key("#")
            continue
        if entry.asks or entry.mode in (Mode.FLUSH, Mode.NOBS):
            _answer(typist, cards, starter, is_crib)
            continue
        typed = entry.text.split()
        if "_" in typed:
            missing = len(typed) - typed.index("_")
            typist.key(RANK_KEYS[left[len(left) - missing].rank])
            continue
        typist.key("#")
    raise AssertionError("the show did not end:\n" + "\n".join(typist.lines))
