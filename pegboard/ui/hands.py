"""The show on the keypad: the one question a hand may need, and hands told by their points.

Theory of operation
-------------------
Suits are never typed, and they matter in the show only for a flush and for nobs. So a hand is
asked at most ONE question, and only when its answer could change the count
(``question_for``):

- ``FLUSH`` when its ranks all differ (a crib also needs the starter's rank to be missing, for
  a crib flush takes all five cards);
- ``NOBS`` when it holds a jack and the starter is not one (a jack turned is the only jack of
  its suit, so then nobody has nobs);
- ``FLUSH_OR_NOBS`` when both could be. One question is enough, because a flush settles nobs:
  the hand's four of one suit with the starter of another leaves the jack off the starter's
  suit; all five of one suit puts it there.

The key that answers is the hand's last key (``answer``): ``#`` nothing, ``1`` a flush of the
hand's four cards, ``2`` a flush of all five, ``3`` nobs. A crib's flush is always all five, so
there ``1`` and ``2`` are the same. A hand with no question ends with ``#``. ``question_hint``
puts the question in the entry's two hint lines, the answers first.

A hand can also be told by its points, as the table counted it: a deal pegged by hand has no
starter to count with, and a table may count one hand itself. Points are typed with the digit
keys, so ``points_of`` reads typed ranks back as a number (an ace is 1, a ten is 0). No hand or
crib scores more than 29 (``MAX_HAND``), so a count that starts with 0 or 3 to 9 is whole at
once, and one that starts with 1 or 2 is whole at its second digit (``is_whole``).

>>> from pegboard.engine.cards import Card
>>> question_for([Rank.FOUR, Rank.SIX, Rank.SEVEN, Rank.JACK], Card.parse("5H"), crib=False)
<Question.FLUSH_OR_NOBS: 'flush or nobs'>
>>> answer(Question.FLUSH_OR_NOBS, "2", crib=False)
(2, True)
>>> points_of([Rank.TWO, Rank.TEN]), is_whole("2"), is_whole("7")
(20, False, True)
"""

from __future__ import annotations

import enum
from collections.abc import Sequence

from pegboard.engine.cards import Card, Rank
from pegboard.engine.commands import Crib, Show
from pegboard.i18n import Language, translator

__all__ = [
    "MAX_HAND",
    "Question",
    "answer",
    "count_by_points",
    "is_whole",
    "points_of",
    "question_for",
    "question_hint",
]

MAX_HAND = 29
"""The most a hand or crib can score (5-5-5-J with the fifth 5 of the jack's suit turned)."""


class Question(enum.Enum):
    """What the show must ask about a hand's suits before it can count it."""

    FLUSH = "flush"
    NOBS = "nobs"
    FLUSH_OR_NOBS = "flush or nobs"


def question_for(ranks: Sequence[Rank], starter: Card, *, crib: bool) -> Question | None:
    """The question a hand (or *crib*) of *ranks* needs with *starter*; None: none.

    >>> question_for([Rank.FIVE, Rank.FIVE, Rank.JACK, Rank.TEN], Card.parse("5H"), crib=False)
    <Question.NOBS: 'nobs'>
    >>> question_for([Rank.TWO, Rank.TWO, Rank.SIX, Rank.KING], Card.parse("JH"), crib=True)
    """
    flush = len(set(ranks)) == len(ranks) and not (crib and starter.rank in ranks)
    nobs = starter.rank is not Rank.JACK and Rank.JACK in ranks
    if flush and nobs:
        return Question.FLUSH_OR_NOBS
    if flush:
        return Question.FLUSH
    return Question.NOBS if nobs else None


def answer(question: Question | None, key: str, *, crib: bool) -> tuple[int, bool] | None:
    """The flush (0 none, 1 the hand's four, 2 all five) and nobs that *key* answers to
    *question*; None when *key* is no answer to it.

    >>> answer(Question.NOBS, "1", crib=True), answer(None, "#", crib=False)
    ((0, True), (0, False))
    >>> answer(Question.FLUSH, "3", crib=False) is None
    True
    """
    if key == "#":
        return (0, False)
    if question in (Question.FLUSH, Question.FLUSH_OR_NOBS) and key in ("1", "2"):
        flush = 2 if crib else int(key)
        # a flush of all five puts the hand's jack in the starter's suit: nobs
        return (flush, flush == 2 and question is Question.FLUSH_OR_NOBS)
    if question is Question.NOBS and key in ("1", "3"):
        return (0, True)  # "nobs? 1 yes"; 3 is nobs in the two-way question too
    if question is Question.FLUSH_OR_NOBS and key == "3":
        return (0, True)
    return None


def question_hint(
    question: Question | None,
    *,
    crib: bool,
    size: int = 4,
    language: Language = Language.ENGLISH,
) -> str:
    """The entry's hint for *question* about a hand of *size* cards, in *language*: two lines
    of at most 21 characters, the first the answers (it stands alone on a 128x32 screen).

    >>> question_hint(Question.FLUSH, crib=False, size=3)
    'flush? # no 1=3 2=4\\n(cards of one suit)'
    """
    t = translator(language).gettext
    match question:
        case Question.FLUSH if crib:
            return t("flush? # no, 1 yes\n(all five one suit)")
        case Question.FLUSH:
            return t("flush? # no 1={four} 2={five}\n(cards of one suit)").format(
                four=size, five=size + 1
            )
        case Question.NOBS:
            return t("nobs? # no, 1 yes\n(J of starter's suit)")
        case Question.FLUSH_OR_NOBS if crib:
            return t("# no 1 flush, 3 nobs\n(flush: all five)")
        case Question.FLUSH_OR_NOBS:
            return t("# no 1,2 flush 3 nobs\nflush: 1={four}, 2={five} cards").format(
                four=size, five=size + 1
            )
        case _:
            return t("# counts it")


def points_of(ranks: Sequence[Rank]) -> int | None:
    """The number *ranks* spell when they were typed as digits (ace 1 .. nine 9, ten 0); None
    when one is a face card or nothing is typed.

    >>> points_of([Rank.ACE, Rank.TWO]), points_of([Rank.JACK]), points_of([])
    (12, None, None)
    """
    if not ranks or any(rank > Rank.TEN for rank in ranks):
        return None
    return int("".join(str(rank.value % 10) for rank in ranks))


def is_whole(digits: str) -> bool:
    """Whether typed *digits* are a whole count: no hand scores 30 or more, so a count that
    starts with 0 or 3-9 needs no second digit, and none needs a third."""
    return len(digits) >= 2 or (len(digits) == 1 and digits not in "12")


def count_by_points(points: int, *, crib: bool) -> Show | Crib:
    """The command that takes a hand's (or the crib's) *points* as the table counted them."""
    return Crib(points=points) if crib else Show(points=points)
