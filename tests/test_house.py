"""The house stays as built: every import in the package points the way its room allows.

Each module's imports are read with ``ast`` (lazy imports inside functions and ``TYPE_CHECKING``
blocks included), resolved to pegboard's modules, and checked against the rooms' rules in
``../shared/STYLE.md``: the engine is pure, the device ports know no game, the views drive no
hardware, the journal knows only the engine, the pub page (web/) only reads views and the
journal, the league (league/) sits beside the page, and nothing imports the command line.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "pegboard"

ROOMS: Mapping[str, frozenset[str]] = {
    # room -> the rooms it may import (besides itself)
    "errors": frozenset(),
    "frozen": frozenset(),
    "choices": frozenset({"errors"}),
    # colour science (CAM02-UCS, simulated colour vision): plain arithmetic on colours, which
    # the LED tracks, the config, the pub page and the self-test all measure with
    "colours": frozenset({"frozen"}),
    "engine": frozenset({"errors", "frozen", "choices"}),
    # the table's language (gettext catalogues, the calls in German): beside the views, above
    # the engine, whose English calls it renders again in another language
    "i18n": frozenset({"errors", "frozen", "choices", "engine"}),
    "journal": frozenset({"errors", "frozen", "choices", "engine"}),
    "devices": frozenset({"errors", "frozen", "choices"}),
    # (the tournament night's printed scorecards and results draw the tourney core's values)
    "ui": frozenset(
        {"errors", "frozen", "choices", "colours", "engine", "devices.ports", "i18n", "tourney"}
    ),
    "config": frozenset(
        {"errors", "frozen", "choices", "colours", "engine", "journal", "devices", "ui", "i18n"}
    ),
    # the pub page speaks the table's language: its calls rendered by i18n, as the screens' are
    "web": frozenset(
        {"errors", "frozen", "choices", "colours", "engine", "journal", "config", "i18n"}
    ),
    # the league over MQTT: the board's publisher and the league service (its page is web's)
    # (and a tournament night's store and results from the boards: tourney)
    "league": frozenset(
        {"errors", "frozen", "choices", "engine", "journal", "config", "web", "tourney"}
    ),
    # tournament night's pure core (entrants, seating, cards, standings, bracket, pots): like
    # the engine it does no I/O; it reads cards (the pots) and the boards' name rules
    "tourney": frozenset({"errors", "frozen", "engine"}),
    # (a league board takes a tournament night's notices in: ``tourney.notices``' values)
    "table": frozenset(
        {"errors", "frozen", "choices", "engine", "journal", "devices", "ui", "config", "web"}
        | {"league", "i18n", "colours", "tourney"}
    ),
    "cli": frozenset(
        {"errors", "frozen", "choices", "engine", "journal", "devices", "ui", "config", "table"}
        | {"web", "league", "i18n", "colours", "tourney"}
    ),
    "__main__": frozenset({"cli"}),
    "__init__": frozenset(),
}
"""Who may import whom. ``devices.ports`` names one module: ui/ may use the ports' value types,
never an adapter. ``frozen`` (the ``@frozen`` dataclass decorator) is a tool every room uses."""


def module_name(path: Path, package: Path = PACKAGE) -> str:
    """``pegboard/ui/screens.py`` -> ``pegboard.ui.screens``; a package's ``__init__`` -> it."""
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    if parts[-1] == "__init__" and len(parts) > 2:
        parts.pop()
    return ".".join(parts)


def imports_of(path: Path, package: Path = PACKAGE) -> Iterator[tuple[int, str]]:
    """(line, module) for every import of a pegboard module in *path*, relative ones resolved."""
    name = module_name(path, package)
    here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == package.name:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
            else:
                target = node.module or ""
            if target.split(".")[0] != package.name:
                continue
            for alias in node.names:  # "from pegboard.ui import screens" imports a module
                sub = f"{target}.{alias.name}"
                yield node.lineno, sub if _is_module(sub, package) else target


def _is_module(name: str, package: Path) -> bool:
    relative = Path(*name.split(".")[1:])
    return (package / relative).with_suffix(".py").is_file() or (package / relative).is_dir()


def room_of(module: str) -> str:
    """``pegboard.ui.screens`` -> ``ui``; ``pegboard.devices.ports`` -> ``devices.ports``."""
    parts = module.split(".")[1:]
    if not parts:
        return "__init__"
    if parts[:2] == ["devices", "ports"]:
        return "devices.ports"
    return parts[0]


def _allowed(source: str, target: str) -> bool:
    source_room, target_room = room_of(source), room_of(target)
    if source_room == "devices.ports":
        source_room = "devices"
    if target_room == "__init__":  # the package itself holds only __version__
        return True
    if source_room == target_room or (source_room, target_room) == ("devices", "devices.ports"):
        return True
    rules = ROOMS[source_room]
    return target_room in rules or (target_room == "devices.ports" and "devices" in rules)


def wrong_arrows(package: Path = PACKAGE) -> list[str]:
    """Every import in *package* that its room does not allow, as 'file:line: a -> b'."""
    wrong = []
    for path in sorted(package.rglob("*.py")):
        source = module_name(path, package)
        for line, target in imports_of(path, package):
            if target == package.name:
                target = f"{package.name}.__init__"
            if not _allowed(source, target):
                wrong.append(f"{path.relative_to(package.parent)}:{line}: {source} -> {target}")
    return wrong


def test_every_import_points_the_way_its_room_allows() -> None:
    assert wrong_arrows() == []


def test_every_module_lives_in_a_known_room() -> None:
    unknown = {room_of(module_name(path)).split(".")[0] for path in PACKAGE.rglob("*.py")} - {
        room.split(".")[0] for room in ROOMS
    }
    assert unknown == set()


def test_the_rooms_import_no_circle() -> None:
    """The rooms' own graph is a tree: no room reaches back to one that imports it."""
    arrows: dict[str, set[str]] = {}
    for path in PACKAGE.rglob("*.py"):
        source = room_of(module_name(path)).split(".")[0]
        for _, target in imports_of(path):
            target_room = room_of(target).split(".")[0]
            if target_room not in (source, "__init__"):
                arrows.setdefault(source, set()).add(target_room)

    def reaches(start: str, goal: str, seen: frozenset[str] = frozenset()) -> bool:
        return any(
            nxt == goal or (nxt not in seen and reaches(nxt, goal, seen | {nxt}))
            for nxt in arrows.get(start, ())
        )

    assert [room for room in arrows if reaches(room, room)] == []


def test_the_checker_catches_a_wrong_arrow(tmp_path: Path) -> None:
    """The walk fails on purpose on a small package that breaks each rule once."""
    package = tmp_path / "pegboard"
    files = {
        "engine/__init__.py": "",
        "engine/game.py": "from pegboard.journal import Journal\n",
        "devices/__init__.py": "",
        "devices/oled.py": "def f():\n    from pegboard.engine import game\n",
        "ui/__init__.py": "",
        "ui/screens.py": "from pegboard.devices.ports import Display\nfrom ..devices import oled\n",
        "journal.py": "from pegboard.engine.game import apply\nimport pegboard.ui.screens\n",
        "cli/__init__.py": "",
        "cli/main.py": "from pegboard import engine\n",
        "table/__init__.py": "",
        "table/wiring.py": "from pegboard.cli.main import main\n",
        "devices/ports.py": "",
    }
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert wrong_arrows(package) == [
        "pegboard/devices/oled.py:2: pegboard.devices.oled -> pegboard.engine.game",
        "pegboard/engine/game.py:1: pegboard.engine.game -> pegboard.journal",
        "pegboard/journal.py:2: pegboard.journal -> pegboard.ui.screens",
        "pegboard/table/wiring.py:1: pegboard.table.wiring -> pegboard.cli.main",
        "pegboard/ui/screens.py:2: pegboard.ui.screens -> pegboard.devices.oled",
    ]


def sqlite_doors(package: Path = PACKAGE) -> list[str]:
    """Every ``sqlite3.connect`` outside the journal's room, as 'file:line' (STYLE §11: one
    door to SQLite; every other room asks ``journal``)."""
    doors = []
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] == "journal":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            opened = (
                isinstance(node, ast.Attribute)
                and node.attr == "connect"
                and isinstance(node.value, ast.Name)
                and node.value.id == "sqlite3"
            ) or (
                isinstance(node, ast.ImportFrom)
                and node.module == "sqlite3"
                and any(alias.name == "connect" for alias in node.names)
            )
            if opened:
                doors.append(f"{path.relative_to(package.parent)}:{node.lineno}")
    return doors


def test_only_the_journal_opens_sqlite() -> None:
    assert sqlite_doors() == []


def test_the_door_checker_finds_a_second_door(tmp_path: Path) -> None:
    package = tmp_path / "pegboard"
    files = {
        "journal/sqlite.py": "import sqlite3\nsqlite3.connect('x')\n",
        "league/store.py": "import sqlite3\n\n\ndef f():\n    return sqlite3.connect\n",
        "web/feed.py": "from sqlite3 import connect\n",
    }
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert sqlite_doors(package) == ["pegboard/league/store.py:5", "pegboard/web/feed.py:1"]


@pytest.mark.parametrize(
    "path",
    [pytest.param(p, id=str(p.relative_to(PACKAGE))) for p in sorted(PACKAGE.rglob("*.py"))],
)
def test_no_module_is_a_god_module(path: Path) -> None:
    """No file over 700 lines, but the few that are one cohesive thing (named here, and why)."""
    cohesive = {
        # each is one thing that reads best whole (h11 keeps its state machine in one module)
        "engine/game.py": 900,  # the state, the phase table, apply and one handler a command
        "ui/keypad.py": 850,  # the keypad grammar: press, expire, the show's questions, menu
        # (its words for the entry screen are in hints.py)
    }
    lines = len(path.read_text(encoding="utf-8").splitlines())
    assert lines <= cohesive.get(str(path.relative_to(PACKAGE)), 700)


def module_circles(package: Path = PACKAGE) -> list[list[str]]:
    """Every circle of imports between modules (lazy and ``TYPE_CHECKING`` imports included),
    each as its modules in name order: a group of modules that reach one another, or one that
    imports itself. A package's ``__init__`` is a module like the others."""
    arrows: dict[str, set[str]] = {}
    for path in package.rglob("*.py"):
        source = module_name(path, package)
        arrows.setdefault(source, set())
        for _, target in imports_of(path, package):
            arrows[source].add(target)
    # Tarjan's strongly connected components, without recursion
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for root in sorted(arrows):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(arrows.get(root, ())))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, todo = work[-1]
            if todo:
                nxt = todo.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(arrows.get(nxt, ()))))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1 or node in arrows.get(node, ()):
                    circles.append(sorted(group))
    return sorted(circles)


def test_no_modules_import_one_another_in_a_circle() -> None:
    """Inside a room too, imports point one way: two modules that need each other are one
    thing split in two, or share a third they should both import."""
    assert module_circles() == []


def test_the_circle_checker_finds_circles_inside_a_room(tmp_path: Path) -> None:
    package = tmp_path / "pegboard"
    files = {
        "__init__.py": "",
        "ui/__init__.py": "",
        "ui/sheet.py": "def f():\n    from .sheetfiles import text_width\n",
        "ui/sheetfiles.py": "from .sheet import Drawing\n",
        "ui/screens.py": "from pegboard.ui import sheet\n",
        "i18n/__init__.py": "def n():\n    from pegboard.i18n.numbers import words\n",
        "i18n/numbers.py": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from pegboard.i18n import Translator\n"
        ),
        "i18n/calls.py": "from pegboard.i18n import translator\n",
    }
    for name, text in files.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    assert module_circles(package) == [
        ["pegboard.i18n", "pegboard.i18n.numbers"],
        ["pegboard.ui.sheet", "pegboard.ui.sheetfiles"],
    ]
