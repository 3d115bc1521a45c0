"""The pub page's own words (``WORDS`` in ``pub.js``) agree with the table's catalogue.

The page cannot load the ``.po`` file, so its German words are written out in ``pub.js``. Where
a word of the page is also a message of the catalogue (its key or its English text is a msgid),
the German must be the catalogue's, so the pub screen and the OLED never call one thing by two
names. A few page words are short forms on purpose; they are listed here with the reason.
"""

from __future__ import annotations

import json
import re

from pegboard.i18n import Language, catalogue_path
from pegboard.i18n.po import parse_po
from pegboard.web.server import STATIC_DIR

# a key, quoted or bare, then a quoted value: `"source play": "the play"`, `crib: "crib"`
_PAIR = re.compile(r'(?:"((?:[^"\\]|\\.)*)"|([A-Za-z_]\w*))\s*:\s*"((?:[^"\\]|\\.)*)"')

PAGE_SHORT_FORMS = {
    # the label before "Spiele 1-1 · Matches 0-0": the standing between the two
    "head to head": "Stand",
    # the note on a side's line beside its score, as short as the English "double skunk!"
    "double-skunked": "dreifach!",
    # a single game shows no match label at all
    "single": "",
}


def _js_string(text: str) -> str:
    decoded: str = json.loads(f'"{text}"')
    return decoded


def page_words() -> dict[str, dict[str, str]]:
    source = (STATIC_DIR / "pub.js").read_text(encoding="utf-8")
    block = source[source.index("var WORDS = {") : source.index("var STALE_MS")]
    parts = {
        "en": block[block.index("en: {") : block.index("de: {")],
        "de": block[block.index("de: {") :],
    }
    return {
        code: {
            _js_string(quoted) if quoted else bare: _js_string(value)
            for quoted, bare, value in _PAIR.findall(text)
        }
        for code, text in parts.items()
    }


def catalogue_words() -> dict[str, str]:
    """The catalogue's German by msgid; a message with a context is keyed as the page keys it,
    the context first ("source peg": the word for a peg's source)."""
    text = catalogue_path(Language.GERMAN).read_text(encoding="utf-8")
    return {
        entry.msgid if entry.context is None else f"{entry.context} {entry.msgid}": entry.msgstr[0]
        for entry in parse_po(text)
        if entry.msgid and entry.msgid_plural is None
    }


def test_the_page_has_every_word_in_both_languages() -> None:
    words = page_words()
    assert len(words["en"]) > 60
    assert words["en"].keys() == words["de"].keys()


def test_the_pages_german_words_are_the_catalogues() -> None:
    words = page_words()
    catalogue = catalogue_words()
    shared = 0
    differ = {}
    for key, german in words["de"].items():
        for msgid in {key, words["en"][key]} & catalogue.keys():
            shared += 1
            if (
                german.rstrip("!") != catalogue[msgid].rstrip("!")
                and PAGE_SHORT_FORMS.get(key) != german
            ):
                differ[key] = (german, catalogue[msgid])
    assert differ == {}
    assert shared >= 8  # the check really compares words, not an empty overlap


def test_the_short_forms_are_still_the_pages_words() -> None:
    german = page_words()["de"]
    assert {key: german[key] for key in PAGE_SHORT_FORMS} == PAGE_SHORT_FORMS


def test_the_page_names_every_match_format() -> None:
    """A board's match of any format (first to three: a playoff's best of five) is named on the
    page in both languages, not shown as its key."""
    from pegboard.engine.match import MatchFormat

    words = page_words()
    assert {f.value for f in MatchFormat} <= words["en"].keys() & words["de"].keys()
