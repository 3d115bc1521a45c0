"""A command loads what it uses: the one-hand commands do not import the game, the journal, the
config, the devices or Pillow (on a Pi Zero 2 W every module costs tens of milliseconds)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import pegboard.engine

ROOT = Path(__file__).resolve().parents[2]

HEAVY = (
    "PIL",
    "sqlite3",
    "logging",
    "tomllib",
    "pegboard.journal",
    "pegboard.config",
    "pegboard.devices",
    "pegboard.ui",
    "pegboard.table",
    "pegboard.engine.game",
    "pegboard.engine.events",
    "pegboard.engine.view",
)
"""What a command about one hand or one deal never needs."""


def modules_after(argv: list[str]) -> set[str]:
    """The modules a fresh interpreter has loaded once ``pegboard *argv`` has run."""
    code = (
        "import contextlib, io, json, sys\n"
        "from pegboard.cli.main import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    status = main({argv!r})\n"
        "assert status == 0, status\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return set(json.loads(done.stdout))


def loaded(modules: set[str], name: str) -> bool:
    return any(m == name or m.startswith(name + ".") for m in modules)


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "5H", "5D", "5S", "JC", "5C"],
        ["score", "--json", "--crib", "2H", "4H", "6H", "8H", "KH"],
        ["advise", "5H", "5D", "5S", "JC", "6H", "QD"],
        ["peg", "5H", "10D", "KC"],
        ["lay", "5H", "10D", "4C", "2S", "--starter", "KH", "--dealer", "--laid", "JC"],
    ],
    ids=lambda argv: " ".join(argv[:2]),
)
def test_a_command_about_one_hand_loads_neither_the_game_nor_the_devices(argv: list[str]) -> None:
    modules = modules_after(argv)
    assert "pegboard.engine.scoring" in modules  # the probe sees pegboard's modules at all
    assert [name for name in HEAVY if loaded(modules, name)] == []


def test_score_does_not_load_the_advisor_or_the_statistics() -> None:
    modules = modules_after(["score", "5H", "5D", "5S", "JC", "5C"])
    assert not {"pegboard.engine.advice", "pegboard.engine.stats"} & modules


def test_the_engine_package_loads_a_module_only_when_one_of_its_names_is_used() -> None:
    code = (
        "import json, sys\n"
        "import pegboard.engine as engine\n"
        "before = sorted(m for m in sys.modules if m.startswith('pegboard.engine.'))\n"
        "engine.Card\n"
        "after = sorted(m for m in sys.modules if m.startswith('pegboard.engine.'))\n"
        "print(json.dumps([before, after]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    before, after = json.loads(done.stdout)
    assert before == []
    assert "pegboard.engine.cards" in after
    assert "pegboard.engine.game" not in after


def test_every_name_the_engine_exports_is_the_one_its_module_defines() -> None:
    import importlib

    for name in pegboard.engine.__all__:
        home = pegboard.engine._HOME[name]
        module = importlib.import_module(home, "pegboard.engine")
        assert getattr(pegboard.engine, name) is getattr(module, name), name
    assert set(pegboard.engine._HOME) == set(pegboard.engine.__all__)
    with pytest.raises(AttributeError, match="no attribute 'Nonsense'"):
        pegboard.engine.Nonsense  # noqa: B018


def test_the_type_checkers_imports_list_the_same_names_as_the_lazy_table() -> None:
    tree = ast.parse((ROOT / "pegboard" / "engine" / "__init__.py").read_text(encoding="utf-8"))
    checked: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            for imp in node.body:
                assert isinstance(imp, ast.ImportFrom)
                module = "." * imp.level + (imp.module or "")
                checked |= {alias.name: module for alias in imp.names}
    assert checked == pegboard.engine._HOME
