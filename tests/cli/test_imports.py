"""A command loads what it uses: the one-hand commands do not import the game, the journal, the
config, the devices or Pillow (on a Pi Zero 2 W every module costs tens of milliseconds)."""

from __future__ import annotations

import argparse
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


def test_a_command_imports_no_other_commands_module() -> None:
    modules = modules_after(["score", "5H", "5D", "5S", "JC", "5C"])
    commands = {m for m in modules if m.startswith("pegboard.cli.")}
    # the shared parts: the parser, the --lang option, --help's layout
    assert commands == {"pegboard.cli.main", "pegboard.cli.lang", "pegboard.cli.helpformat"}


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["run", "--simulate"], "run"),
        (["--lang", "de", "game", "show"], "game"),
        (["--debug", "--lang=de", "selftest"], "selftest"),
        (["stats", "players"], "stats"),
        (["-h", "run"], None),  # the top-level help lists every command
        (["--version"], None),
        (["--la", "de", "run"], None),  # an abbreviated option: the whole parser decides
        (["bogus"], None),  # a misspelt command: the whole parser lists the choices
        ([], None),
    ],
)
def test_the_command_named_is_the_first_word_after_the_top_level_options(
    argv: list[str], command: str | None
) -> None:
    from pegboard.cli.main import command_named

    assert command_named(argv) == command


def _plain(namespace: object) -> dict[str, object]:
    """A parsed namespace with its functions named (each parser binds its own ``error``)."""
    return {k: getattr(v, "__qualname__", v) for k, v in vars(namespace).items()}


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--simulate", "--headless", "--out", "o", "--wait-for-signal", "--db", "g.db"],
        ["--lang", "de", "selftest", "--simulate", "--seconds", "2"],
        ["stats", "players", "--json"],
        ["stats", "distribution", "--crib"],
        ["game", "do", "undo"],
        ["score", "5H", "5D", "5S", "JC", "5C"],
        ["league", "standings"],
        ["history", "--csv"],
        ["sheet", "--out", "s.svg"],
        ["serve", "--port", "0"],
        ["odds", "100", "90"],
        ["demo", "--seed", "3"],
    ],
    ids=lambda argv: " ".join(argv[:3]),
)
def test_a_command_alone_parses_and_helps_as_the_whole_parser(argv: list[str]) -> None:
    from pegboard.cli.main import build_parser, command_named

    command = command_named(argv)
    assert command is not None
    alone, whole = build_parser(command), build_parser()
    assert _plain(alone.parse_args(argv)) == _plain(whole.parse_args(argv))
    helps = [
        next(a for a in p._actions if isinstance(a, argparse._SubParsersAction))
        .choices[command]
        .format_help()
        for p in (alone, whole)
    ]
    assert helps[0] == helps[1]
