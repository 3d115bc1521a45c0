"""The repository's scripts (``tools/``, ``bench/``) loaded as modules, for tests that call them.

They are not part of the package, so they are loaded from their paths; a script loaded once is
the same module for every test (its ``sys.modules`` entry), as ``dataclasses`` and ``pickle``
need.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def load_script(relative: str) -> ModuleType:
    """The script at *relative* (to the repository, e.g. ``tools/make_odds.py``) as a module."""
    name = Path(relative).stem
    loaded = sys.modules.get(name)
    if loaded is not None and getattr(loaded, "__file__", None) == str(ROOT / relative):
        return loaded
    spec = importlib.util.spec_from_file_location(name, ROOT / relative)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
