"""A tournament night at the table, as the OLED shows it: the next pairing, and the lock's badge.

Pure, like every screen: values in, an image out. ``PairingView`` is the pairing the hub sent
the board (``table.tourney`` makes it from the notice: the table, the round and the two names,
the first of whom cuts first); ``render_pairing`` draws it as a screen of its own, the table and
round in the title bar (a playoff match: "playoff 2 · match 1 · best of 3", shortened to what
fits), the two names as large as they fit, and what to do at the bottom ("Ann
cuts · ok starts"). ``pairing_line`` is the same in one line ("table 7: Ann v Bob, Ann cuts"),
for the log and a short screen.

While the tournament lock holds, the scoreboard and the play carry a badge (``draw_badge``): a
small padlock in the bottom right corner, where the status row leaves it room
(``BADGE_ROOM``); the pairing screen carries it in its title bar. A padlock, not a word: it
says the same in English and German, and fits the 128x32 screen too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pegboard.frozen import frozen
from pegboard.i18n import Language, Translator, translator
from pegboard.ui.paint import DIM, Painter, Size, Style, fit, font_face, largest_face
from pegboard.ui.status import first_fitting

if TYPE_CHECKING:
    from PIL import Image

__all__ = [
    "BADGE_ROOM",
    "PairingView",
    "draw_badge",
    "pairing_line",
    "render_pairing",
]

BADGE_ROOM = 10
"""Pixels the badge takes at the right end of a row (the padlock and a gap before it)."""


@frozen
class PairingView:
    """The pairing a board is to play next: its table and round of the night, and the two
    players, *first* cutting first; or a playoff match (*match* from 1: the bracket's match in
    its *round*, *table* 0), the best of *games*."""

    table: int
    round: int
    first: str
    second: str
    match: int = 0
    games: int = 1


def pairing_line(pairing: PairingView, language: Language = Language.ENGLISH) -> str:
    """ "table 7: Ann v Bob, Ann cuts" (a playoff match: "playoff 2.1: Ann v Cy, best of 3,
    Ann cuts", round 2's match 1), in *language*."""
    tr = translator(language)
    if pairing.match:
        said = tr.gettext(
            "playoff {round}.{match}: {first} v {second}, best of {games}, {first} cuts"
        )
        return said.format(
            round=pairing.round,
            match=pairing.match,
            first=pairing.first,
            second=pairing.second,
            games=pairing.games,
        )
    return tr.gettext("table {table}: {first} v {second}, {first} cuts").format(
        table=pairing.table, first=pairing.first, second=pairing.second
    )


def _titles(pairing: PairingView, tr: Translator) -> list[str]:
    """The title bar's choices, longest first: "table 7 · round 3", or a playoff match's
    "playoff 2 · match 1 · best of 3", "playoff · best of 3" or "best of 3"."""
    if not pairing.match:
        return [
            tr.gettext("table {table} · round {round}").format(
                table=pairing.table, round=pairing.round
            )
        ]
    values = {"round": pairing.round, "match": pairing.match, "games": pairing.games}
    return [
        tr.gettext("playoff {round} · match {match} · best of {games}").format(**values),
        tr.gettext("playoff · best of {games}").format(**values),
        tr.gettext("best of {games}").format(**values),
    ]


def render_pairing(
    pairing: PairingView,
    size: Size = (128, 64),
    mode: str = "1",
    style: Style = Style.COMPACT,
    language: Language = Language.ENGLISH,
    *,
    locked: bool = False,
) -> Image.Image:
    """The next pairing: "table 7 · round 3" in the title bar (with the badge while *locked*),
    "Ann v Bob" as large as it fits (on two rows when one is too narrow), and "Ann cuts · ok
    starts" under a rule. A short screen (under 48 pixels) draws the one line and the foot.

    Raises:
        ValueError: an unsupported size or mode.
    """
    p = Painter(size, mode, style)
    tr = translator(language)
    small = p.small
    vs = tr.gettext("{first} v {second}").format(first=pairing.first, second=pairing.second)
    feet = [
        tr.gettext("{first} cuts · ok starts").format(first=pairing.first),
        tr.gettext("{first} cuts · ok").format(first=pairing.first),
        tr.gettext("ok starts"),
    ]
    if p.height < 48:  # a short screen: "table 7: Ann v Bob" and the foot
        table = tr.gettext("table {table}").format(table=pairing.table)
        if pairing.match:  # a playoff match: "best of 3: Ann v Cy"
            table = tr.gettext("best of {games}").format(games=pairing.games)
        big, room = font_face(16), p.width - 2 - (BADGE_ROOM if locked else 0)
        rows = [f"{table}: {vs}"]
        if small.width(rows[0]) > p.width - 2:  # long names: on two rows, the second after v
            rows = [
                f"{table}: {pairing.first}",
                tr.gettext("v {second}").format(second=pairing.second),
            ]
        face = big if len(rows) == 1 and big.width(rows[0]) <= p.width - 2 else small
        for n, row in enumerate(rows):
            p.text(1, 1 - n + n * (small.text_height + 1), fit(row, face, p.width - 2), face)
        foot = first_fitting(feet, small, room)
        p.text(1, p.height - small.text_height - (1 if len(rows) == 1 else 0), foot, small, DIM)
        if locked:
            draw_badge(p, p.width - 8, p.height - 10)
        return p.image
    room = p.width - 2 - (BADGE_ROOM if locked else 0)
    titles = _titles(pairing, tr)
    bar = p.status if any(p.status.width(t) <= room for t in titles) else small
    title = first_fitting(titles, bar, room)
    p.inverted(0, 2, fit(title, bar, room), bar, width=p.width)
    if locked:
        draw_badge(p, p.width - 9, 1, inverted=True)
    top = bar.text_height + 4
    foot_face = p.status if p.status.width(feet[0]) <= p.width - 2 else small
    bottom = p.height - foot_face.text_height - 3
    p.hline(bottom)
    p.text(1, bottom + 3, first_fitting(feet, foot_face, p.width - 2), foot_face, DIM)
    room_y = bottom - top - 2
    one = largest_face(room_y, p.width - 4, len(vs), digits=False)
    if one.width(vs) <= p.width - 4:
        p.text_center(p.width // 2, top + (room_y - one.text_height) // 2 + 1, vs, one)
        return p.image
    rows = [pairing.first, tr.gettext("v {second}").format(second=pairing.second)]
    longest = max(len(r) for r in rows)
    face = largest_face((room_y - 2) // 2, p.width - 4, longest, digits=False)
    pitch = face.text_height + 2
    y = top + (room_y - 2 * pitch) // 2 + 1
    for row in rows:
        p.text_center(p.width // 2, y, fit(row, face, p.width - 2), face)
        y += pitch
    return p.image


def draw_badge(p: Painter, x: int, y: int, *, inverted: bool = False) -> None:
    """The tournament lock's badge: a padlock 7 pixels wide and 9 high, its top left at
    (*x*, *y*), on a cleared box (dark on a light bar when *inverted*)."""
    ink, paper = (p.ink(0), p.ink()) if inverted else (p.ink(), p.ink(0))
    p.draw.rectangle((x - 1, y - 1, x + 7, y + 9), fill=paper)
    p.draw.rectangle((x + 1, y, x + 5, y + 4), outline=ink)  # the shackle
    p.draw.rectangle((x + 2, y + 1, x + 4, y + 3), fill=paper)
    p.draw.rectangle((x, y + 4, x + 6, y + 8), fill=ink)  # the body
    p.draw.point((x + 3, y + 6), fill=paper)  # the keyhole
