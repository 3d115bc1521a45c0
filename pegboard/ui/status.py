"""The game's status words: what the scoreboard and the play say under the scores.

``status_options(view, tr)`` is one short line about the moment (who deals and that the starter
is next, who lays and the count, what is counted next), longest wording first; the screens draw
the first that fits (``first_fitting``). ``warning_rows`` is the lurch line near the end
("lurch: Bob needs 4"). Pure: a view in, words out.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.engine.game import Phase
from pegboard.engine.view import GameView
from pegboard.i18n import N_, Translator
from pegboard.ui.paint import Face, fit

__all__ = ["first_fitting", "status_options", "warning_rows"]


def warning_rows(
    view: GameView, faces: tuple[Face, Face], width: int, tr: Translator
) -> tuple[Face, list[str]]:
    """ "lurch: Bob needs 4" once the game is in its last street and a side is behind a line;
    no rows otherwise.

    When that does not fit *width*, the sides behind the same line share it, shorter, in the
    first face then the second (smaller): "double skunk: A -49, C -61", then "double skunk: A,
    C". Then the sides by their initials, when no two sides' names start alike (they stand
    over the columns): "double skunk: R -19", "double skunk: R, G". Last, each line on a row
    of its own ("double skunk: G" over "lurch: R"), cut only when even that is too short.
    """
    leader = max(side.score for side in view.sides)
    if leader < view.target - 30:  # the last street: someone could peg out within a deal or two
        return faces[0], []
    lurch, skunk = view.lurch_line, view.double_skunk_line
    behind: dict[str, list[tuple[str, int]]] = {}
    for side in view.sides:
        if side.score == leader:
            continue
        if skunk is not None and side.score < skunk:
            line = tr.gettext("double skunk")
            behind.setdefault(line, []).append((side.name, skunk - side.score))
        elif lurch is not None and side.score < lurch:
            behind.setdefault(tr.gettext("lurch"), []).append((side.name, lurch - side.score))
    if not behind:
        return faces[0], []
    initials = {side.name: side.name[:1] for side in view.sides}
    alike = len({initial.casefold() for initial in initials.values()}) < len(initials)

    def said(line: str, sides: list[tuple[str, int]], *, initial: bool, need: bool) -> str:
        names = [(initials[name] if initial else name, n) for name, n in sides]
        return f"{line}: " + ", ".join(f"{name} -{n}" if need else name for name, n in names)

    def forms(groups: list[tuple[str, list[tuple[str, int]]]]) -> tuple[list[str], list[str]]:
        """The wordings of *groups* on one row: by name, then by initial."""
        needs = tr.gettext("{line}: {name} needs {need}")
        full = "; ".join(
            needs.format(line=line, name=name, need=n)
            for line, sides in groups
            for name, n in sides
        )
        named = [full] + [
            "; ".join(said(line, sides, initial=False, need=need) for line, sides in groups)
            for need in (True, False)
        ]
        by_initial = [
            "; ".join(said(line, sides, initial=True, need=need) for line, sides in groups)
            for need in (True, False)
        ]
        return named, [] if alike else by_initial

    groups = list(behind.items())
    named, by_initial = forms(groups)
    for face in faces:
        for text in named:
            if face.width(text) <= width:
                return face, [text]
    small = faces[-1]
    for text in by_initial:
        if small.width(text) <= width:
            return small, [text]
    rows = []
    for group in groups:  # each line on a row of its own
        named, by_initial = forms([group])
        rows.append(first_fitting([*named, *by_initial], small, width))
    return small, rows


def status_options(view: GameView, tr: Translator) -> list[str]:
    """One short line about the moment (who deals, who lays and the count, what is counted
    next), longest wording first: the screen draws the first that fits."""
    t = tr.gettext
    match view.phase:
        case Phase.CUT:
            return [t("cut for the deal")]
        case Phase.STARTER:  # the next key to press is the starter's rank
            return [
                t(words).format(deal=view.deal, name=view.dealer_name)
                for words in (
                    N_("deal {deal}: {name} deals · starter?"),
                    N_("{name} deals · starter?"),
                    N_("starter? · {name} deals"),
                )
            ]
        case Phase.PLAY:
            turn, count = view.turn_name, view.count
            if turn is None and view.starter is None and not view.series:
                return [t("the play: peg by hand"), t("by hand")]
            if turn is None:
                return [t("the play · count {count}").format(count=count)]
            options = [
                t("{name} to lay · {count}").format(name=turn, count=count),
                t("{name} lays {count}").format(name=turn, count=count),
            ]
            if view.said_go:  # a go said this series stands until the series ends
                goers = ", ".join(view.seat_names[seat] for seat in view.said_go)
                options[:0] = [
                    t(words).format(name=turn, count=count, goers=goers)
                    for words in (
                        N_("{name} to lay · {count} (go: {goers})"),
                        N_("{name} lays {count} · go: {goers}"),
                        N_("go: {goers} · {name} lays"),
                    )
                ]
            return options
        case Phase.SHOW:
            up = view.up_for_counting
            if up == "crib":
                return [t("count {name}'s crib").format(name=view.dealer_name)]
            return [t("count {name}'s hand").format(name=up)]
        case Phase.GAME_OVER | Phase.MATCH_OVER:
            return [t("{name} won").format(name=view.winner_name)]


def first_fitting(options: Sequence[str], face: Face, width: int) -> str:
    """The first of *options* that fits *width*, else the last one cut to fit."""
    for text in options:
        if face.width(text) <= width:
            return text
    return fit(options[-1], face, width) if options else ""
