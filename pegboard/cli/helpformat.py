"""How ``--help`` is laid out, and how a command line argparse cannot take is refused.

``Parser`` is the ``pegboard`` command line's parser (and every command's under it): a command
line it cannot take (an unknown option, a word where a number goes, a missing card) is one
line on standard error, naming the command, what was wrong and where to read what it takes,
and exit status 2, as every bad input in pegboard is one line. argparse's own prints the whole
usage first, which for some commands is ten lines above the one that matters.

``DefaultsFormatter`` is argparse's ``ArgumentDefaultsHelpFormatter`` with the width worked
out here. argparse asks ``shutil.get_terminal_size`` for it each time it makes a formatter, and
it makes one for every option it adds, so every command, the daemon's start included, loaded
``shutil`` (and with it ``bz2``, ``lzma`` and ``fnmatch``: about 2 ms here, 20 ms on a Pi Zero
2 W) before parsing a word. The width is the same: ``$COLUMNS`` when it is a positive number,
else the width of the terminal on standard output, else 80; less 2, as argparse takes.

``OwnDefaultsFormatter`` leaves out "(default: None)": an option whose default is None says its
default in its own help, or has none. Such a help may name ``{web_bind}`` and ``{web_port}``,
the ``[web]`` config's own defaults, read only when the help is shown (building the parser
loads no config), so the help cannot drift from them.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import NoReturn

__all__ = ["DefaultsFormatter", "OwnDefaultsFormatter", "Parser", "terminal_columns"]


def terminal_columns() -> int:
    """The terminal's width in columns, as ``shutil.get_terminal_size`` says it (the module's
    notes), without loading ``shutil``."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        width = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        width = 0
    return width if width > 0 else 80


class DefaultsFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Each option's default shown after its help, at the terminal's width."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        if width is None:
            width = terminal_columns() - 2
        super().__init__(prog, indent_increment, max_help_position, width)


class OwnDefaultsFormatter(DefaultsFormatter):
    """``DefaultsFormatter``, except for an option whose default is None (the module's notes)."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        if action.default is None:
            if action.help is not None and "{web_" in action.help:
                from pegboard.config.web import WebConfig

                web = WebConfig()
                return action.help.format(web_bind=web.bind, web_port=web.port)
            return action.help
        return super()._get_help_string(action)


class Parser(argparse.ArgumentParser):
    """An argument parser whose refusal is one line (the module's notes)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see '{self.prog} --help')\n")
