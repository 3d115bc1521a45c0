"""The device's menu: its lines, and the settings and names a new match started from it gets.

Theory of operation
-------------------
Holding ``ok`` opens the menu (``keypad.press``). Its lines are the ten numbered ``MENU`` items
(actions such as "next" and "undo", settings such as the variant), then one line per side with
the name that side gets in a new match. A digit chooses its line: an action is done at once and
the menu closes; a setting steps to its next value, shown at the right of its line. ``A``,
``B``, ``C`` (the sides, as in peg mode) or a side's peg button step that side's name through
the roster (the config's ``[game] roster``), skipping a name another side holds, and after the
last come back to the name the side had when the menu opened. ``3`` starts the new match with
everything the lines show; ``#`` walks down the lines, and ``*`` leaves, changing nothing.
``D`` shows the head-to-head page; a 3x4 keypad has no ``D``, and ``#`` past its last line
shows the page instead of starting the list again. On a board that speaks (``[sound]``) the
last line says that ``ok`` held again turns the voice off, or on again (``ToggleSound``), as
it closes the menu; elsewhere ``ok`` held only closes it.

``MenuChoice`` holds what a new match will get and ``menu_lines`` what each line reads. Pure:
the keypad grammar (``keypad.py``) turns keys into these steps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pegboard.engine.game import DEFAULT_NAMES
from pegboard.engine.match import MatchFormat
from pegboard.engine.rules import Rules, Variant
from pegboard.engine.view import GameView
from pegboard.frozen import frozen
from pegboard.i18n import N_, NC_, Language, translator
from pegboard.i18n.values import local_default_names

__all__ = [
    "MENU",
    "NAME_KEYS",
    "MenuChoice",
    "ToggleSound",
    "menu_lines",
    "menu_size",
    "unique",
    "variant_name",
]

MENU = {
    "1": N_("next"),
    "2": N_("end deal"),
    "3": N_("new match"),
    "4": N_("variant"),
    "5": N_("muggins"),
    "6": N_("undo"),
    "7": N_("redo"),
    "8": N_("match"),
    "9": N_("skunk"),
    "0": N_("starter"),
}
"""The menu's numbered lines, by key. The sides' names follow them, one line per side."""

NAME_KEYS = "ABC"
"""The key that picks each side's name in the menu (as in peg mode, A is side 1)."""

_BEST_OF_THREE = MatchFormat.BEST_OF_THREE


@frozen
class ToggleSound:
    """Request: turn the board's voice off, or on again (``ok`` held in the menu); the
    controller has the speaker."""


@frozen
class MenuChoice:
    """What a new match started from the menu gets: the rules, the match format and the names.

    Every optional rule of ``RULES.md`` is here, so the menu reaches what the config file does:
    the variant, muggins (off, the hands, the hands and the play), the match format, the
    double-skunk value (3 or 4; in five-card the lurch line 45 or 31 instead) and the
    "starter counts in play" rule. Each side's name is picked from the *roster* (the config's
    ``[game] roster``): a side's key steps through the roster's names and back to the name the
    side had when the menu opened (*own*), skipping a name another side holds.

    >>> from pegboard.engine.game import GameState
    >>> from pegboard.engine.view import render_view
    >>> state = GameState.new(Rules.six_card())
    >>> choice = MenuChoice.of(render_view(state), state.rules, ("Ann", "Bob"))
    >>> [value for _, value in menu_lines(choice, letters=True)[-2:]]
    ['Sky', 'Gold']
    >>> choice = choice.next_name(1)  # B: side 2 takes the roster's first name
    >>> assert choice is not None
    >>> menu_lines(choice, letters=True)[-2:]
    (('A side 1', 'Sky'), ('B side 2', 'Ann'))
    """

    rules: Rules
    match_format: MatchFormat
    names: tuple[str, ...] = ()
    """One per side: the names the new match gets (empty: the engine's defaults)."""
    own: tuple[str, ...] = ()
    """The sides' names when the menu opened (the match on the table)."""
    roster: tuple[str, ...] = ()
    """The names on offer for every side."""
    defaults: tuple[str, ...] = DEFAULT_NAMES
    """The sides' default names (their tracks' colours) in the table's language."""

    @classmethod
    def of(
        cls,
        view: GameView,
        rules: Rules,
        roster: Sequence[str] = (),
        language: Language = Language.ENGLISH,
    ) -> MenuChoice:
        """The menu as it opens on the match in *view* (played under *rules*): its settings and
        names, the *roster* on offer and the default names in *language*."""
        names = tuple(view.names)
        defaults = local_default_names(translator(language), Rules.three_handed())
        return cls(rules, view.match.format, names, names, tuple(roster), defaults)

    def _own_name(self, side: int, rules: Rules) -> str:
        """The name *side* comes back to: its name when the menu opened, else its default."""
        return self.own[side] if side < len(self.own) else self.defaults[side]

    def _fit_names(self, rules: Rules) -> tuple[str, ...]:
        """The names for *rules*' sides: the first ones kept, a side added takes a free name."""
        names = list(self.names[: rules.sides])
        for side in range(len(names), rules.sides):
            taken = {name.lower() for name in names}
            offered = (self._own_name(side, rules), *self.defaults, *self.roster)
            names.append(next(name for name in offered if name.lower() not in taken))
        return tuple(names)

    def next_name(self, side: int) -> MenuChoice | None:
        """*side* takes the next name of the roster that no other side holds (after the last:
        its own name again). None: no other name is free."""
        rules = self.rules
        names = self._fit_names(rules)
        offered = unique((*self.roster, self._own_name(side, rules)))
        taken = {name.lower() for other, name in enumerate(names) if other != side}
        lowered = [name.lower() for name in offered]
        current = names[side].lower()
        start = lowered.index(current) if current in lowered else -1
        for step in range(1, len(offered) + 1):
            name = offered[(start + step) % len(offered)]
            if name.lower() not in taken and name.lower() != current:
                return replace(self, names=(*names[:side], name, *names[side + 1 :]))
        return None

    def with_variant(self, variant: Variant) -> MenuChoice:
        """The next variant, keeping the optional rules that apply to it."""
        old = self.rules
        rules = Rules.for_variant(
            variant,
            muggins=old.muggins,
            muggins_in_play=old.muggins_in_play,
            starter_counts_in_play=old.starter_counts_in_play,
        )
        if rules.double_skunk_line is not None:
            rules = rules.replace(double_skunk_points=old.double_skunk_points)
        fmt = self.match_format
        if rules.sides != 2 and fmt is MatchFormat.BEST_OF_THREE:
            fmt = MatchFormat.default_for(rules)  # three players have no game points
        names = self._fit_names(rules) if self.names else ()
        return replace(self, rules=rules, match_format=fmt, names=names)

    def next_muggins(self) -> MenuChoice:
        """Muggins off, then in the show, then in the show and the play."""
        muggins, in_play = self.rules.muggins, self.rules.muggins_in_play
        nxt = (True, False) if not muggins else (True, True) if not in_play else (False, False)
        return replace(self, rules=self.rules.replace(muggins=nxt[0], muggins_in_play=nxt[1]))

    def next_format(self) -> MenuChoice:
        """The next match format this many sides can play."""
        formats = [  # first to three is a tournament playoff's (``table.tourney``), not the menu's
            f
            for f in MatchFormat
            if (self.rules.sides == 2 or f is not _BEST_OF_THREE)
            and f is not MatchFormat.FIRST_TO_THREE
        ]
        i = formats.index(self.match_format) if self.match_format in formats else -1
        return replace(self, match_format=formats[(i + 1) % len(formats)])

    def next_skunk(self) -> MenuChoice | None:
        """Double skunk 3 or 4 game points; five-card: the lurch line 45 or 31. None: no lurch."""
        rules = self.rules
        if rules.variant is Variant.FIVE_CARD:
            line = 31 if rules.lurch_line == 45 else 45
            return replace(self, rules=rules.replace(lurch_line=line))
        if rules.double_skunk_line is None:
            return None
        points = 4 if rules.double_skunk_points == 3 else 3
        return replace(self, rules=rules.replace(double_skunk_points=points))

    def toggle_starter(self) -> MenuChoice:
        """The optional rule "the starter counts in play", on or off."""
        on = not self.rules.starter_counts_in_play
        return replace(self, rules=self.rules.replace(starter_counts_in_play=on))

    def settings(self, language: Language = Language.ENGLISH) -> dict[str, tuple[str, str]]:
        """Each setting's menu key, label and current value, in *language*."""
        tr = translator(language)
        rules = self.rules
        muggins = (
            NC_("setting", "hands+play")
            if rules.muggins_in_play and rules.muggins
            else (
                NC_("setting", "play")
                if rules.muggins_in_play
                else NC_("setting", "hands")
                if rules.muggins
                else NC_("setting", "off")
            )
        )
        if rules.variant is Variant.FIVE_CARD:
            skunk = (tr.gettext("lurched below"), str(rules.lurch_line))
        elif rules.double_skunk_line is None:
            skunk = (tr.gettext("lurch"), tr.pgettext("setting", "none"))
        else:
            skunk = (tr.gettext("double skunk"), str(rules.double_skunk_points))
        on = NC_("setting", "on") if rules.starter_counts_in_play else NC_("setting", "off")
        return {
            "4": (tr.gettext("variant"), tr.gettext(variant_name(rules.variant))),
            "5": (tr.gettext("muggins"), tr.pgettext("setting", muggins)),
            "8": (tr.gettext("match"), tr.gettext(_FORMATS[self.match_format])),
            "9": skunk,
            "0": (tr.gettext("starter in play"), tr.pgettext("setting", on)),
        }


_VARIANTS = {
    Variant.SIX_CARD: N_("six-card"),
    Variant.THREE_HANDED: N_("three-handed"),
    Variant.FOUR_HANDED: N_("four-handed"),
    Variant.TWO_AGAINST_ONE: N_("two-against-one"),
    Variant.TWO_IN_THE_CRIB: N_("two-in-the-crib"),
    Variant.FIVE_CARD: N_("five-card"),
}
_FORMATS = {
    MatchFormat.BEST_OF_THREE: N_("best-of-three"),
    MatchFormat.FIRST_TO_TWO: N_("first-to-two"),
    MatchFormat.SINGLE: N_("single"),
    MatchFormat.FIRST_TO_THREE: N_("first-to-three"),
}


def variant_name(variant: Variant) -> str:
    """The variant's name as the screens show it, marked for the catalogue ("six-card")."""
    return _VARIANTS.get(variant, variant.value)


def menu_size(choice: MenuChoice, sound: bool = False) -> int:
    """How many lines the menu has: the numbered ones, one name line per side, and the
    sound's on a board that speaks (*sound*)."""
    return len(MENU) + choice.rules.sides + sound


def menu_lines(
    choice: MenuChoice,
    *,
    letters: bool,
    language: Language = Language.ENGLISH,
    sound: bool = False,
) -> tuple[tuple[str, str | None], ...]:
    """Each line's label and value (None: an action): "4 variant" "six-card", then a line per
    side, "A side 1" "Ann" (with *letters*; a keypad without the letter keys: "side 1"), then
    on a board that speaks (*sound*) the sound's, "ok held: sound" (off or on again), in
    *language*."""
    tr = translator(language)
    settings = choice.settings(language)
    lines = tuple(
        (f"{key} {settings[key][0]}", settings[key][1])
        if key in settings
        else (f"{key} {tr.gettext(item)}", None)
        for key, item in MENU.items()
    )
    names = choice.names or choice.defaults[: choice.rules.sides]
    side_n = tr.gettext("side {n}")
    return (
        lines
        + tuple(
            (
                f"{NAME_KEYS[side]} {side_n.format(n=side + 1)}"
                if letters
                else side_n.format(n=side + 1),
                name,
            )
            for side, name in enumerate(names[: choice.rules.sides])
        )
        + (((tr.gettext("ok held: sound"), None),) if sound else ())
    )


def unique(names: Sequence[str]) -> tuple[str, ...]:
    """*names* without repeats (case aside), in their order.

    >>> unique(["Ann", "Bob", "ann", "Cy"])
    ('Ann', 'Bob', 'Cy')
    """
    seen: set[str] = set()
    kept = []
    for name in names:
        if name.lower() not in seen:
            seen.add(name.lower())
            kept.append(name)
    return tuple(kept)
