"""A small ``.po`` reader: the catalogue kept in the repository, compiled in memory at first use.

The standard library reads compiled ``.mo`` catalogues (``gettext.GNUTranslations``) but not
the ``.po`` text they are made from. Rather than commit a compiled file that can fall behind
its source, ``load_catalogue`` reads the ``.po`` (the subset of the format that ``xgettext``
and translators write: ``msgctxt``, ``msgid``, ``msgid_plural``, ``msgstr`` and ``msgstr[n]``,
strings continued over lines, ``#`` comments and the ``fuzzy`` flag), lays the entries out as
a ``.mo`` in memory exactly as ``msgfmt`` would, and hands those bytes to
``gettext.GNUTranslations``, which parses the header (its ``Plural-Forms`` too). A fuzzy or
untranslated entry is left out, so gettext falls back to the English message. Nothing is
written. About 2 ms for pegboard's catalogue here.

>>> entries = parse_po('msgid ""\\nmsgstr "Content-Type: text/plain; charset=UTF-8\\\\n"\\n\\n'
...                    'msgctxt "call"\\nmsgid "go"\\nmsgstr "Passe"\\n')
>>> [(e.context, e.msgid, e.msgstr) for e in entries]
[(None, '', ('Content-Type: text/plain; charset=UTF-8\\n',)), ('call', 'go', ('Passe',))]
>>> catalogue(entries).pgettext("call", "go")
'Passe'
"""

from __future__ import annotations

import ast
import gettext
import io
import struct
from dataclasses import dataclass
from pathlib import Path

__all__ = ["PoEntry", "catalogue", "load_catalogue", "mo_bytes", "parse_po"]

_MAGIC = 0x950412DE


@dataclass(frozen=True, slots=True)
class PoEntry:
    """One message of a ``.po`` file: its context, id (and plural id), translations, flags."""

    context: str | None
    msgid: str
    msgid_plural: str | None
    msgstr: tuple[str, ...]
    fuzzy: bool = False
    line: int = 0

    @property
    def translated(self) -> bool:
        """Whether the entry has every translation and is not marked fuzzy."""
        return not self.fuzzy and bool(self.msgstr) and all(self.msgstr)


def parse_po(text: str, source: str = "<po>") -> list[PoEntry]:
    """The entries of a ``.po`` file's *text*, in order (the header, ``msgid ""``, first).

    Raises:
        ValueError: a line that is not part of the format, naming *source* and the line.
    """
    entries: list[PoEntry] = []
    fields: dict[str, list[str]] = {}
    current: str | None = None
    fuzzy = False
    start = 0

    def flush() -> None:
        nonlocal fields, current, fuzzy
        if "msgid" in fields:
            plural = fields.get("msgid_plural")
            strings = [
                "".join(fields[k]) for k in sorted(fields, key=_order) if k.startswith("msgstr")
            ]
            context = fields.get("msgctxt")
            entries.append(
                PoEntry(
                    "".join(context) if context is not None else None,
                    "".join(fields["msgid"]),
                    "".join(plural) if plural is not None else None,
                    tuple(strings),
                    fuzzy,
                    start,
                )
            )
        fields, current, fuzzy = {}, None, False

    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            if "msgid" in fields:
                flush()
            if line.startswith("#,") and "fuzzy" in (f.strip() for f in line[2:].split(",")):
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is None:
                raise ValueError(f"{source}:{number}: a string continues no keyword: {raw!r}")
            fields[current].append(_string(line, source, number))
            continue
        keyword, _, rest = line.partition(" ")
        if keyword not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not (
            keyword.startswith("msgstr[") and keyword.endswith("]")
        ):
            raise ValueError(f"{source}:{number}: unknown keyword {keyword!r} in {raw!r}")
        if keyword in ("msgctxt", "msgid") and any(k.startswith("msgstr") for k in fields):
            flush()
        if keyword in ("msgctxt", "msgid") and not fields:
            start = number
        current = keyword
        fields[keyword] = [_string(rest.strip(), source, number)]
    flush()
    return entries


def _order(key: str) -> int:
    return int(key[7:-1]) if key.startswith("msgstr[") else 0


def _string(text: str, source: str, number: int) -> str:
    """A C-style quoted string of the ``.po`` format as its value."""
    if len(text) < 2 or not (text.startswith('"') and text.endswith('"')):
        raise ValueError(f"{source}:{number}: expected a quoted string, got {text!r}")
    value = ast.literal_eval(text)  # the escapes a .po uses (\\n, \\t, \\", \\\\) are Python's
    if not isinstance(value, str):
        raise ValueError(f"{source}:{number}: expected a quoted string, got {text!r}")
    return value


def mo_bytes(entries: list[PoEntry]) -> bytes:
    """The translated *entries* (and the header) as a little-endian ``.mo`` file's bytes."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.msgid and not entry.translated:
            continue
        key = entry.msgid
        if entry.msgid_plural is not None:
            key += "\0" + entry.msgid_plural
        if entry.context is not None:
            key = entry.context + "\x04" + key
        pairs[key.encode("utf-8")] = "\0".join(entry.msgstr).encode("utf-8")
    keys = sorted(pairs)
    count = len(keys)
    originals_at = 7 * 4
    translations_at = originals_at + count * 8
    data_at = translations_at + count * 8
    table: list[int] = []
    blob = io.BytesIO()
    for strings in (keys, [pairs[k] for k in keys]):
        for value in strings:
            table += [len(value), data_at + blob.tell()]
            blob.write(value + b"\0")
    header = struct.pack("<7I", _MAGIC, 0, count, originals_at, translations_at, 0, data_at)
    return header + struct.pack(f"<{len(table)}I", *table) + blob.getvalue()


def catalogue(entries: list[PoEntry]) -> gettext.GNUTranslations:
    """The standard library's catalogue of *entries*, built in memory."""
    return gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))


def load_catalogue(path: Path) -> gettext.GNUTranslations:
    """The catalogue of the ``.po`` file at *path*.

    Raises:
        OSError: the file cannot be read.
        ValueError: the file is not a ``.po`` file.
    """
    return catalogue(parse_po(path.read_text(encoding="utf-8"), str(path)))
