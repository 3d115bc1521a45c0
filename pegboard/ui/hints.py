"""The entry screen's words: what is typed so far, and what the next key means (the hints).

``render_entry(entry, situation)`` turns the keypad grammar's state (``keypad.EntryState``) and
the game (``keypad.Situation``) into the ``EntryView`` the entry screen draws
(``screens.render_entry``): a title ("Ann's hand"), the text typed ("4 5 6 J") and a hint of
one or two lines of at most ``HINT_WIDTH`` characters, in the entry's language. Pure: the
grammar (``keypad.press``) decides what a key does; this only says it.

>>> from pegboard.engine.game import GameState
>>> from pegboard.engine.rules import Rules
>>> from pegboard.devices.ports import KeyEvent
>>> from pegboard.ui.keypad import EntryState, press
>>> state = GameState.new(Rules.six_card())
>>> entry, _ = press(EntryState(), KeyEvent("9"), Situation.of(state), 0.0)
>>> render_entry(entry, Situation.of(state)).line
'cut: Sky 9, Gold _'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from pegboard.engine.game import Phase
from pegboard.engine.view import GameView
from pegboard.i18n import N_, Language, translator
from pegboard.ui.hands import Question, question_hint
from pegboard.ui.keypad import (
    EntryState,
    EntryView,
    Layout,
    Mode,
    Situation,
    after_game,
    hand_ranks,
    hand_size,
    is_whole_hand,
    question_of,
    told_points,
)
from pegboard.ui.menu import MenuChoice, menu_lines

__all__ = ["HINT_WIDTH", "render_entry"]

HINT_WIDTH = 21
"""Characters in one hint line on a 128-pixel-wide screen (the small font is 6 pixels wide).

A hint is at most two lines of this width, what the next key means first: a 128x32 screen
shows only the first line, so it must stand alone ("nobs? # no, 1 yes")."""


def _sides_line(keys: str, names: Sequence[str]) -> str:
    """ "A=Ann B=Bob": each side's key and name, the longest names cut until it fits one line.

    >>> _sides_line("123", ["Bartholomew", "Maximilian", "Christopher"])
    '1=Bart 2=Maxi 3=Chris'
    """
    cut = list(names)
    keyed = keys[: len(cut)]

    def line() -> str:
        return " ".join(f"{k}={n}" for k, n in zip(keyed, cut, strict=True))

    while len(line()) > HINT_WIDTH and max(len(n) for n in cut) > 1:
        longest = max(range(len(cut)), key=lambda i: len(cut[i]))
        cut[longest] = cut[longest][:-1]
    return line()


def render_entry(entry: EntryState, situation: Situation) -> EntryView:
    """The entry screen's text (typed so far) and hint (what the next key means).

    A hint is one or two lines of at most ``HINT_WIDTH`` characters, split by a newline. The
    view is ``typing`` unless *entry* is the idle keypad; it ``asks`` when the idle keypad's
    next key answers the question of a hand laid in the play.
    """
    shown = _entry_view(entry, situation)
    typing = entry != entry.cleared()
    asks = not typing and shown.mode in (Mode.FLUSH, Mode.NOBS)
    return replace(shown, typing=typing, asks=asks)


def _entry_view(entry: EntryState, situation: Situation) -> EntryView:
    view = situation.view
    t = translator(entry.language).gettext
    four = entry.layout is Layout.FOUR_BY_FOUR
    faces = t("0=10 A=J B=Q C=K") if four else t("0=10, again: J Q K")
    pegkey = "D" if four else "*"
    typed = " ".join(r.label for r in entry.ranks)
    mode = entry.mode
    if entry.peg_points:
        assert entry.peg_side is not None
        name = view.names[entry.peg_side]
        hint = t("+1 a press\nany key commits")
        return EntryView(t("peg"), f"{name} +{entry.peg_points}", hint, mode)
    match mode:
        case Mode.MENU:
            choice = entry.menu or MenuChoice.of(
                view, situation.rules, entry.roster, entry.language
            )
            lines = menu_lines(choice, letters=four, language=entry.language, sound=entry.sound)
            first = t("0-9 choose, A-C names") if four else t("0-9; peg button: name")
            hint = f"{first}\n{t('# next line; * back')}"
            return EntryView(t("menu"), "", hint, mode, menu=lines, cursor=entry.menu_cursor)
        case Mode.PEG:
            if four:
                hint = f"{t('points, then side')}\n{_sides_line('ABC', view.names)}"
            else:
                hint = t("points, then #\nthen the side")
            return EntryView(t("peg"), entry.digits or "_", hint, mode)
        case Mode.PEG_SIDE:
            to = t("{points} to?").format(points=entry.digits)
            return EntryView(t("peg"), to, _sides_line("123", view.names), mode)
        case Mode.CLAIM if entry.play_claim:
            title = t("{name} lays {rank}").format(name=view.turn_name, rank=typed)
            claim = t("claims {points}").format(points=entry.digits or "_")
            return EntryView(title, claim, t(_CLAIM_HINT), mode)
        case Mode.CLAIM:
            claim = t("claims {points}").format(points=entry.digits or "_")
            return EntryView(_owner(entry, situation), claim, t(_CLAIM_HINT), mode)
        case _:
            pass
    match view.phase:
        case Phase.CUT:
            cuts = [*(r.label for r in entry.ranks), "_"]
            parts = [f"{n} {c}" for n, c in zip(view.names, cuts, strict=False)]
            hint = f"{t('rank each; # random')}\n{faces}"
            return EntryView(t("cut"), ", ".join(parts), hint, mode)
        case Phase.STARTER:
            hint = f"{t('rank, or # by hand')}\n{faces}"
            return EntryView(t("starter"), typed or "_", hint, mode)
        case Phase.PLAY if situation.by_hand:
            hint = _by_hand_hint(entry, view)
            return EntryView(t("by hand"), entry.digits or "_", hint, mode)
        case Phase.PLAY:
            # the count first: a long name is cut from the end of the title
            title = t("count {count}: {name} lays").format(count=view.count, name=view.turn_name)
            hint = f"{t('rank; # go; {key} peg').format(key=pegkey)}\n{faces}"
            return EntryView(title, typed or "_", hint, mode)
        case Phase.SHOW if situation.by_hand:
            digits = entry.digits
            hint = t("# = {points}, or 2nd digit").format(points=digits) if digits else ""
            return EntryView(_owner(entry, situation), digits or "_", hint or t(_POINTS), mode)
        case Phase.SHOW:
            text = _hand_text(entry, situation)
            if not is_whole_hand(entry, situation):
                more = hand_size(situation) - len(hand_ranks(entry, situation))
                told = told_points(entry, situation)
                pegs = t("; # pegs {points}").format(points=told) if told is not None else ""
                hint = f"{t('{n} more').format(n=more)}{pegs}\n{faces}"
                return EntryView(_owner(entry, situation), text, hint, mode)
            question = question_of(entry, situation)
            asked = {Question.NOBS: Mode.NOBS, None: mode}.get(question, Mode.FLUSH)
            size, crib = hand_size(situation), situation.up is None
            hint = question_hint(question, crib=crib, size=size, language=entry.language)
            return EntryView(_owner(entry, situation), text, hint, asked)
        case _:
            title = view.prompt.split(";")[0]
            if entry.language is not Language.ENGLISH:
                title = _over(view, t)
            return EntryView(title, "", f"# {t(after_game(view))}", mode)


def _over(view: GameView, t: Callable[[str], str]) -> str:
    """ "game over: Ann won" in another language (English: the view's prompt)."""
    if view.phase is Phase.MATCH_OVER:
        return t("match over: {name} won the match").format(name=view.match.winner_name)
    return t("game over: {name} won").format(name=view.winner_name)


_CLAIM_HINT = N_("claim: points, then #\nno claim: just #")
_POINTS = N_("its points: 0-29\n1, 2: then # or digit")


def _by_hand_hint(entry: EntryState, view: GameView) -> str:
    """What the next key means in the play of a deal pegged by hand."""
    t = translator(entry.language).gettext
    if entry.layout is Layout.THREE_BY_FOUR:
        if entry.digits:
            return t("# then side 1-3,\nor # # the 1st hand")
        return t("points, # then side\n# alone ends the play")
    if entry.digits:
        return f"{t('side; # the 1st hand')}\n{_sides_line('ABC', view.names)}"
    return f"{t('points, then side')}\n{_sides_line('ABC', view.names)}"


def _owner(entry: EntryState, situation: Situation) -> str:
    view = situation.view
    t = translator(entry.language).gettext
    if situation.up is None:
        return t("{name}'s crib").format(name=view.dealer_name)
    return t("{name}'s hand").format(name=view.seat_names[situation.up])


def _hand_text(entry: EntryState, situation: Situation) -> str:
    ranks = hand_ranks(entry, situation)
    size = hand_size(situation)
    return " ".join([*(r.label for r in ranks), *("_" for _ in range(size - len(ranks)))])
