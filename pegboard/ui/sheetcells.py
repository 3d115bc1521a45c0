"""What each side's cells of the score sheet's deals table say (``deal_cells``).

A deal's pegs are written where they belong: the play's one by one (his heels and other pegs
with them), the hand's and the crib's as their sums; a peg by hand (``*``) goes in the part its
typed reason names (``peg Ann 3 hand``), if it names one.
"""

from __future__ import annotations

from pegboard.engine.events import Source
from pegboard.engine.history import DealHistory, Part, PegMark

__all__ = ["deal_cells"]


def _peg_label(peg: PegMark) -> str:
    """One peg as the sheet writes it: its points, with a mark saying how it came."""
    mark = ""
    if peg.manual:
        mark = "*"
    elif peg.source is Source.HEELS:
        mark = "h"
    elif peg.source is Source.MUGGINS:
        mark = "m"
    elif peg.source is Source.BONUS:
        mark = "b"
    return f"{peg.points}{mark}"


_REASON_PARTS = {
    **dict.fromkeys(("play", "pegging", "go", "last", "last card", "31", "thirty-one"), "pegging"),
    **dict.fromkeys(("hand", "hands", "show", "the show"), "hands"),
    **dict.fromkeys(("crib", "the crib", "krippe"), "crib"),
    **dict.fromkeys(("heels", "his heels", "for his heels", "nibs", "hacken"), "heels"),
}
"""A peg's typed reason that names a part of the deal (English, or the sheet's German words),
lower-case: ``peg Ann 3 hand`` is the hand's."""


def _sheet_part(peg: PegMark, deal: DealHistory) -> str:
    """The part of the deal *peg* is written in: the one its typed reason names, else the
    one the game put it in (a peg by hand in the play is the play's)."""
    part = _REASON_PARTS.get(" ".join(peg.reason.lower().split()), peg.part)
    if part == "crib" and peg.side != deal.dealer_side:  # only the dealer's side has a crib
        return peg.part
    return part


def deal_cells(deal: DealHistory, side: int) -> tuple[str, str, str]:
    """The play (its pegs one by one, heels and others first), hand and crib of *side*; a peg
    by hand is in the part its reason names (``peg Ann 3 hand``), if it names one."""
    pegs = [(p, _sheet_part(p, deal)) for p in deal.pegs if p.side == side]
    play = [_peg_label(p) for p, part in pegs if part in ("pegging", "heels", "other")]
    hand = [p for p, part in pegs if part == "hands"]
    crib = [p for p, part in pegs if part == "crib"]

    def summed(items: list[PegMark]) -> str:
        if not items:
            return ""
        total = sum(p.points for p in items)
        return f"{total}{'*' if any(p.manual for p in items) else ''}"

    counted_crib = deal.crib_part is Part.COUNTED and side == deal.dealer_side
    # a hand or crib counted on the device at 0 says so; one never counted stays blank
    return (
        " ".join(play),
        summed(hand) or ("0" if deal.hand[side] is Part.COUNTED else ""),
        summed(crib) or ("0" if counted_crib else ""),
    )
