"""The calls in a language: a breakdown's items as the words a player says counting them.

English is the engine's own wording (``scoring.show_calls``: "fifteen 2", "and a double run of
3 is 12"), unchanged. Other languages call every item the way the German rules document counts
(its "Zwei exemplarische Auswertungen" and its 29 hand):

- each fifteen on its own, the running total in words: "Fünfzehn – zwei, fünfzehn – vier";
- the pairs of one rank together: "und ein Paar macht zehn", three "ein Drilling", four "ein
  Vierling"; a pair of a second rank "und noch ein Paar";
- each run of a double run on its own: "und eine Dreierfolge macht neun, und noch eine
  Dreierfolge macht zwölf";
- the flush, "und eine Lange Farbe macht ...", and nobs, "plus einen für den Jack macht ...";
- on its own, "zwei für die Hacken" (his heels).

A count starts with a capital letter, as the document writes it; a hand that scores nothing is
"neunzehn". The words come from the catalogue (context "call"), the numbers from
``i18n.numbers``. The document's parenthesised notes ("(7 und 8)") say which cards make each
call; a table does not say them aloud, so the calls leave them out.

``spoken(calls, language)`` joins calls into one sentence: English with a comma between every
two (as ``pegboard score`` always printed them); German, as its comma rule asks, without a
comma before a single closing "und" after a plain list of fifteens ("fünfzehn – acht und ein
Paar macht zehn"), with one before each of several "und" clauses ("..., und eine Dreierfolge
macht neun, und noch eine Dreierfolge macht zwölf") - both exactly as the document writes them.

>>> from pegboard.engine.cards import Card, parse_cards
>>> from pegboard.engine.scoring import score_hand
>>> from pegboard.i18n import Language
>>> breakdown = score_hand(parse_cards("5H 5D JS KC"), Card.parse("8C"))
>>> spoken(show_calls_in(breakdown, Language.GERMAN), Language.GERMAN)
'Fünfzehn – zwei, fünfzehn – vier, fünfzehn – sechs, fünfzehn – acht und ein Paar macht zehn'
>>> spoken(show_calls_in(breakdown, Language.ENGLISH), Language.ENGLISH)
'fifteen 2, fifteen 4, fifteen 6, fifteen 8, and a pair is 10'
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.engine.scoring import Breakdown, ScoreItem, ScoreKind, show_calls
from pegboard.engine.view import ScoreView, play_items
from pegboard.i18n import NC_, Language, Translator, translator

__all__ = ["peg_calls", "play_call", "show_calls_in", "spoken"]

_PAIRS = {
    # pairs of one rank: (first call of the count, after another call, a second rank's pair)
    1: (
        NC_("call", "a pair is {total}"),
        NC_("call", "and a pair is {total}"),
        NC_("call", "and another pair is {total}"),
    ),
    3: (NC_("call", "pair royal is {total}"), NC_("call", "and pair royal is {total}"), ""),
    6: (
        NC_("call", "double pair royal is {total}"),
        NC_("call", "and double pair royal is {total}"),
        "",
    ),
}
_RUNS = {
    # a run of this many cards: (the first of its stretch, once more over the same stretch)
    3: (
        NC_("call", "and a run of three is {total}"),
        NC_("call", "and another run of three is {total}"),
    ),
    4: (
        NC_("call", "and a run of four is {total}"),
        NC_("call", "and another run of four is {total}"),
    ),
    5: (
        NC_("call", "and a run of five is {total}"),
        NC_("call", "and another run of five is {total}"),
    ),
}
_FIRST_RUN = {
    3: NC_("call", "a run of three is {total}"),
    4: NC_("call", "a run of four is {total}"),
    5: NC_("call", "a run of five is {total}"),
}


def show_calls_in(breakdown: Breakdown, language: Language) -> list[str]:
    """The calls of a hand or crib's *breakdown* in *language* (see the module doc).

    >>> from pegboard.engine.cards import Card, parse_cards
    >>> from pegboard.engine.scoring import score_hand
    >>> show_calls_in(score_hand(parse_cards("7H 8S 8D KC"), Card.parse("9C")), Language.GERMAN)
    ... # doctest: +NORMALIZE_WHITESPACE
    ['Fünfzehn – zwei', 'fünfzehn – vier', 'und ein Paar macht sechs',
     'und eine Dreierfolge macht neun', 'und noch eine Dreierfolge macht zwölf']
    """
    if language is Language.ENGLISH:
        return show_calls(breakdown)
    tr = translator(language)
    calls: list[str] = []
    running = 0
    pair_groups = 0
    items = breakdown.items
    start = 0
    while start < len(items):
        item = items[start]
        end = start + 1
        if item.kind is ScoreKind.PAIR:  # a pair royal is three pairs of one rank, called once
            while end < len(items) and _same_rank_pair(items[end], item):
                end += 1
        running += sum(i.points for i in items[start:end])
        total = tr.number(running)
        calls.append(_call(tr, items, start, end, bool(calls), pair_groups, total))
        if item.kind is ScoreKind.PAIR:
            pair_groups += 1
        start = end
    if calls:
        calls[0] = calls[0][:1].upper() + calls[0][1:]  # the count is a sentence
    return calls


def _same_rank_pair(item: ScoreItem, first: ScoreItem) -> bool:
    return item.kind is ScoreKind.PAIR and item.cards[0].rank is first.cards[0].rank


def _call(
    tr: Translator,
    items: Sequence[ScoreItem],
    start: int,
    end: int,
    after: bool,
    pair_groups: int,
    total: str,
) -> str:
    """The call of items[start:end] (one item, or the pairs of one rank)."""
    item = items[start]
    kind = item.kind
    if kind is ScoreKind.FIFTEEN:
        return tr.pgettext("call", "fifteen {total}").format(total=total)
    if kind is ScoreKind.PAIR:
        alone, joined, another = _PAIRS.get(end - start, _PAIRS[1])
        words = another if pair_groups and another else joined if after else alone
        return tr.pgettext("call", words).format(total=total)
    if kind is ScoreKind.RUN:
        size = len(item.cards)
        again = any(
            items[n].kind is ScoreKind.RUN and _ranks(items[n]) == _ranks(item)
            for n in range(start)
        )
        if not after:
            words = _FIRST_RUN.get(size, _FIRST_RUN[3])
        else:
            words = _RUNS.get(size, _RUNS[3])[1 if again else 0]
        return tr.pgettext("call", words).format(total=total)
    if kind is ScoreKind.FLUSH:
        words = (
            NC_("call", "and a flush of {cards} is {total}")
            if after
            else NC_("call", "a flush of {cards}")
        )
        cards = tr.number(item.points)
        return tr.pgettext("call", words).format(cards=cards, total=total)
    if kind is ScoreKind.NOBS:
        words = NC_("call", "and nobs is {total}") if after else NC_("call", "nobs")
        return tr.pgettext("call", words).format(total=total)
    if kind is ScoreKind.HEELS:
        return tr.pgettext("call", "two for his heels")
    words = NC_("call", "and {kind} is {total}") if after else NC_("call", "{kind} is {total}")
    return tr.pgettext("call", words).format(kind=kind.value, total=total)


def _ranks(item: ScoreItem) -> frozenset[int]:
    return frozenset(card.rank.value for card in item.cards)


_PLAY_RUNS = {
    3: NC_("play", "a run of 3 for {points}"),
    4: NC_("play", "a run of 4 for {points}"),
    5: NC_("play", "a run of 5 for {points}"),
    6: NC_("play", "a run of 6 for {points}"),
    7: NC_("play", "a run of 7 for {points}"),
}


def play_call(kind: ScoreKind, points: int, cards: int, language: Language) -> str:
    """What a player says pegging one item of the play, in *language*.

    >>> [play_call(k, 2, 2, Language.GERMAN) for k in (ScoreKind.FIFTEEN, ScoreKind.THIRTY_ONE)]
    ['fünfzehn – zwei', 'einunddreißig macht zwei']
    >>> play_call(ScoreKind.RUN, 3, 3, Language.GERMAN), play_call(ScoreKind.GO, 1, 1, Language.GERMAN)
    ('3 für die Dreierfolge', 'einen fürs Passen')
    """  # noqa: E501
    tr = translator(language)
    # the play's points are digits, as the document writes them ("3 für die Dreierfolge", "1
    # für die Letzte"), but for its two sayings "fünfzehn – zwei" and "einunddreißig macht zwei"
    n = str(points)
    match kind:
        case ScoreKind.FIFTEEN:
            return tr.pgettext("play", "fifteen for {points}").format(points=tr.number(points))
        case ScoreKind.THIRTY_ONE:
            words = tr.pgettext("play", "thirty-one for {points}")
            return words.format(points=tr.number(points))
        case ScoreKind.PAIR if points in (2, 6, 12):
            words = {
                2: NC_("play", "a pair for {points}"),
                6: NC_("play", "pair royal for {points}"),
                12: NC_("play", "double pair royal for {points}"),
            }[points]
            return tr.pgettext("play", words).format(points=n)
        case ScoreKind.PAIR:
            return tr.pgettext("play", "pairs for {points}").format(points=n)
        case ScoreKind.RUN if cards in _PLAY_RUNS:
            return tr.pgettext("play", _PLAY_RUNS[cards]).format(points=n)
        case ScoreKind.RUN:
            return tr.pgettext("play", "a run of {cards} for {points}").format(
                cards=cards, points=n
            )
        case ScoreKind.GO:
            return tr.pgettext("play", "one for the go")
        case ScoreKind.LAST:
            return tr.pgettext("play", "one for last")
        case _:
            return tr.pgettext("play", "{kind} for {points}").format(kind=kind.value, points=n)


def peg_calls(peg: ScoreView, language: Language) -> tuple[str, ...]:
    """The calls of one peg (``GameView.last`` or a press's news) in *language*.

    English is the view's own ``calls``; another language renders the peg's items again.
    """
    if language is Language.ENGLISH:
        return peg.calls
    tr = translator(language)
    n = tr.number(peg.points)
    match peg.source:
        case "peg":
            if peg.reason:
                return (tr.gettext("{reason} for {points}").format(reason=peg.reason, points=n),)
            return (tr.gettext("peg {points}").format(points=n),)
        case "muggins":
            return (tr.gettext("muggins for {points}").format(points=n),)
        case "bonus":
            return (tr.gettext("three for last for {points}").format(points=n),)
    items = tuple(ScoreItem(ScoreKind(i.kind), i.cards, i.points) for i in peg.items)
    if peg.source == "play":
        return tuple(play_call(i.kind, i.points, len(i.cards), language) for i in play_items(items))
    return tuple(show_calls_in(Breakdown(items), language)) or (tr.gettext("nineteen"),)


def spoken(calls: Sequence[str], language: Language) -> str:
    """*calls* as one sentence, as the count is said aloud (see the module doc).

    >>> spoken(["fünfzehn – zwei", "und ein Paar macht vier"], Language.GERMAN)
    'fünfzehn – zwei und ein Paar macht vier'
    """
    if language is Language.ENGLISH or len(calls) < 2:
        return ", ".join(calls)
    joiner = translator(language).pgettext("call", "and ")
    joined = [call for call in calls if call.startswith(joiner)]
    if len(joined) == 1 and calls[-1] is joined[0]:
        return f"{', '.join(calls[:-1])} {calls[-1]}"
    return ", ".join(calls)
