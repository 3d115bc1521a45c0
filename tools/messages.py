"""The messages the code marks for translation, against the catalogues that translate them.

Usage: ``.venv/bin/python tools/messages.py [--check | --update]``

Every user-facing string is marked where it is written (see ``pegboard/i18n``):
``tr.gettext("...")``, ``tr.ngettext("...", "...", n)``, ``tr.pgettext("context", "...")`` and
the markers ``N_("...")`` and ``NC_("context", "...")``. This reads the package with ``ast``
(no import, no code run) and collects each (context, message) with where it is used.

- no option: list each catalogue's messages that are missing or untranslated, and the ones
  no code uses any more (exit 0);
- ``--check``: the same, exit 1 if anything is missing, untranslated, unused, or a
  translation's ``{placeholders}`` are not among its message's (the tests check the same);
- ``--update``: append every missing message to each catalogue with an empty translation,
  ready to translate (nothing is removed).
"""

from __future__ import annotations

import argparse
import ast
import string
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pegboard.i18n.po import PoEntry, parse_po  # noqa: E402

PACKAGE = ROOT / "pegboard"
LOCALE = PACKAGE / "locale"

Key = tuple[str | None, str]
"""(context, message): how gettext looks a message up."""

_PLAIN = {"_": 0, "N_": 0, "gettext": 0, "t": 0, "_t": 1, "_refuse": 1}
"""Calls whose argument at this position is a message: gettext's names, ``t`` (the local name
of a translator's ``gettext``), and the keypad's ``_t(entry, ...)`` and ``_refuse(entry, ...)``,
which translate their message."""
_PLURAL = {"ngettext"}
_CONTEXT = {"NC_", "pgettext"}


def _name(call: ast.Call) -> str:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def marked(source: str, filename: str = "<source>") -> Iterator[tuple[Key, str | None, int]]:
    """Each marked message in Python *source*: its key, its plural (or None) and its line, in
    the order of the lines."""
    calls = [node for node in ast.walk(ast.parse(source, filename)) if isinstance(node, ast.Call)]
    for node in sorted(calls, key=lambda call: (call.lineno, call.col_offset)):
        if not node.args:
            continue
        name = _name(node)
        args = node.args
        if name in _PLAIN or name in _PLURAL:
            at = _PLAIN.get(name, 0)
            message = _literal(args[at]) if len(args) > at else None
            if message is None:
                continue
            plural = _literal(args[1]) if name in _PLURAL and len(args) > 1 else None
            yield (None, message), plural, node.lineno
        elif name in _CONTEXT and len(args) >= 2:
            context, message = _literal(args[0]), _literal(args[1])
            if context is not None and message is not None:
                yield (context, message), None, node.lineno


def extract(package: Path = PACKAGE) -> dict[Key, list[str]]:
    """Every marked message of *package*, with the places (``file:line``) that use it."""
    found: dict[Key, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        where = path.relative_to(package.parent)
        for key, _, line in marked(path.read_text(encoding="utf-8"), str(path)):
            found.setdefault(key, []).append(f"{where}:{line}")
    return found


def plurals(package: Path = PACKAGE) -> dict[Key, str]:
    """The plural message of every ``ngettext`` message in *package*."""
    found: dict[Key, str] = {}
    for path in sorted(package.rglob("*.py")):
        for key, plural, _ in marked(path.read_text(encoding="utf-8"), str(path)):
            if plural is not None:
                found[key] = plural
    return found


def catalogues(locale: Path = LOCALE) -> dict[str, Path]:
    """Each language's ``.po`` file, by its code."""
    return {path.parts[-3]: path for path in sorted(locale.glob("*/LC_MESSAGES/pegboard.po"))}


def fields(text: str) -> set[str]:
    """The ``{placeholders}`` of a message."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(po: Path, used: dict[Key, list[str]]) -> list[str]:
    """What is wrong with the catalogue *po* against the messages *used*: one line each."""
    entries = {(e.context, e.msgid): e for e in parse_po(po.read_text("utf-8"), str(po)) if e.msgid}
    found: list[str] = []
    for key, places in used.items():
        entry = entries.get(key)
        shown = _shown(key)
        if entry is None:
            found.append(f"missing: {shown} (used at {places[0]})")
        elif not entry.translated:
            found.append(f"untranslated: {shown} ({po.name}:{entry.line})")
        else:
            for text in entry.msgstr:
                extra = (
                    fields(text)
                    - fields(key[1])
                    - (fields(entry.msgid_plural) if entry.msgid_plural else set())
                )
                if extra:
                    found.append(
                        f"unknown placeholders {sorted(extra)} in the translation of {shown}"
                    )
    for key, entry in entries.items():
        if key not in used:
            found.append(f"unused: {_shown(key)} ({po.name}:{entry.line})")
    return found


def _shown(key: Key) -> str:
    context, message = key
    return f"{context}|{message!r}" if context else repr(message)


def _quote(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


def append_missing(po: Path, used: dict[Key, list[str]]) -> int:
    """Append every message of *used* missing from *po*, untranslated; how many were added."""
    entries: list[PoEntry] = parse_po(po.read_text("utf-8"), str(po))
    known = {(e.context, e.msgid) for e in entries}
    plural = plurals()
    blocks = []
    for key, places in used.items():
        if key in known:
            continue
        context, message = key
        lines = [f"#: {places[0].rpartition(':')[0]}"]
        if context is not None:
            lines.append(f"msgctxt {_quote(context)}")
        lines.append(f"msgid {_quote(message)}")
        if key in plural:
            lines += [f"msgid_plural {_quote(plural[key])}", 'msgstr[0] ""', 'msgstr[1] ""']
        else:
            lines.append('msgstr ""')
        blocks.append("\n".join(lines))
    if blocks:
        with po.open("a", encoding="utf-8") as out:
            out.write("\n" + "\n\n".join(blocks) + "\n")
    return len(blocks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--check", action="store_true", help="exit 1 on any problem")
    group.add_argument("--update", action="store_true", help="append missing messages")
    args = parser.parse_args(argv)
    used = extract()
    status = 0
    for code, po in catalogues().items():
        if args.update:
            print(f"{code}: {append_missing(po, used)} messages added to {po}")
            continue
        found = problems(po, used)
        for line in found:
            print(f"{code}: {line}")
        print(f"{code}: {len(used)} messages used, {len(found)} problems")
        if found and args.check:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
