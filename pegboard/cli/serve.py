"""``pegboard serve``: the pub page for a journal kept with ``pegboard game``, on its own.

``pegboard serve [--db PATH] [--bind ADDR] [--port N] [--config PATH] [--lang en|de]`` serves
the current match of the journal, read-only, and follows it: a command stored by ``pegboard
game do`` in another process shows on the page within 0.2 s (``web.feed``). It prints where the
page is (``serving pegboard.db at http://192.168.1.20:8121/``; for a wildcard bind, this
machine's address on its network) and runs until SIGTERM or SIGINT, which tells the open pages
"paused" and exits 0. Nothing is ever written: not the journal, nor any file beside it.

Without ``--config`` no config file is read: the address is ``[web]``'s defaults (every
interface, port 8121) and the journal ``pegboard game``'s. With one, its ``[web] bind`` and
``port`` and its ``[game] database`` are the defaults instead. The page speaks ``--lang`` (also
accepted before ``serve``), else the config's ``[game] language``, else the locale's: its fixed
words and the calls, and so does the line it prints. A journal that cannot be read is refused
with ``pegboard game show``'s one line, exit 1.
"""

from __future__ import annotations

import argparse
import contextlib
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

from pegboard.cli.helpformat import OwnDefaultsFormatter
from pegboard.i18n import Language, translator

__all__ = ["cmd_serve", "register", "stop_on_signals"]


def register(subparsers: Any) -> None:
    """Add ``serve`` to the ``pegboard`` command line's subparsers."""
    p = subparsers.add_parser(
        "serve",
        help="serve the pub page for a journal kept with 'pegboard game'",
        description="Serve the live, read-only pub page for the current match of a journal "
        "kept with 'pegboard game', following new commands as they are stored. Anyone who can "
        "reach the address can read the page; it changes nothing.",
        formatter_class=OwnDefaultsFormatter,
    )
    p.add_argument(
        "--db",
        type=str,  # not Path: Path("") is ".", and the message would name "." instead of ''
        metavar="PATH",
        default=None,
        help="journal database (default: [game] database with --config, else $PEGBOARD_DB, "
        "$STATE_DIRECTORY/pegboard.db or ~/.local/share/pegboard/pegboard.db)",
    )
    p.add_argument(
        "--bind",
        metavar="ADDR",
        default=None,
        help="address to listen on: 0.0.0.0 every interface, 127.0.0.1 this machine only "
        "(default: [web] bind, 0.0.0.0)",
    )
    p.add_argument(
        "--port",
        type=int,
        metavar="N",
        default=None,
        help="port (default: [web] port, 8121; 0: any free port)",
    )
    p.add_argument(
        "--config",
        type=str,
        metavar="PATH",
        default=None,
        help="take the defaults for --db, --bind, --port and --lang from this config",
    )
    p.add_argument(
        "--lang",
        choices=[language.value for language in Language],
        default=argparse.SUPPRESS,  # 'pegboard --lang de serve' sets it too
        help="the page's language: its words and the calls (default: [game] language with "
        "--config, else the locale's)",
    )
    p.set_defaults(handler=cmd_serve, usage_error=p.error)


def _path_option(text: str, option: str, expected: str) -> Path:
    """*text*, given as *option*, as a path.

    Raises:
        ConfigError: *text* is empty (``Path("")`` would be the current folder).
    """
    from pegboard.errors import ConfigError, quote

    if text == "":
        raise ConfigError(f"{option} {quote(text)} is empty (expected {expected})")
    return Path(text)


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard serve``: until SIGTERM or SIGINT, then exit 0.

    Raises:
        SystemExit: a port out of range (usage, status 2).
        PegboardError: an empty --db or --config, a bad config or --bind address, a journal
            that cannot be read or has no match, or a port in use.
    """
    from pegboard.config.settings import config_from_mapping, load_config
    from pegboard.config.web import check_bind
    from pegboard.journal import default_db_path
    from pegboard.web.feed import JournalFeed
    from pegboard.web.publisher import ViewPublisher
    from pegboard.web.server import WebServer, public_url

    if args.port is not None and not 0 <= args.port <= 65535:
        args.usage_error(f"--port must be from 0 to 65535, got {args.port}")
    db = (
        None
        if args.db is None
        else _path_option(args.db, "--db", "a database file, e.g. pegboard.db")
    )
    config_path = (
        None
        if args.config is None
        else _path_option(args.config, "--config", "a config file, e.g. pegboard.toml")
    )
    config = load_config(config_path) if config_path is not None else config_from_mapping({})
    if args.bind is not None:  # checked as [web] bind is, the message naming --bind
        check_bind(args.bind)
    if db is not None:
        path = db
    elif config_path is not None:
        path = config.game.database
    else:
        path = default_db_path()
    bind = args.bind if args.bind is not None else config.web.bind
    port = args.port if args.port is not None else config.web.port
    lang: str | None = getattr(args, "lang", None)
    language = Language(lang) if lang else config.game.language
    server = WebServer(bind, port)
    feed = JournalFeed(Path(path), ViewPublisher(server, language=language))
    feed.load()  # a journal that cannot be served stops here, before anything listens
    server.start()
    with stop_on_signals() as stop:
        try:
            url, note = public_url(server)
            tr = translator(language)
            said = tr.gettext("serving {path} at {url}").format(path=path, url=url)
            print(said + (f" ({note})" if note else ""), file=out, flush=True)
            feed.run(stop)
        finally:
            server.close()
    return 0


@contextlib.contextmanager
def stop_on_signals() -> Iterator[threading.Event]:
    """An event that SIGTERM or SIGINT sets while the block runs; their handlers come back after.

    ``pegboard serve`` and ``pegboard league serve`` run until it is set, then close and exit 0.
    """
    from pegboard.table.signals import SignalWatch

    stop = threading.Event()
    # set from the watch's own thread: a handler that set it could wait for the event's lock
    # while the main thread, which it interrupted, held it inside stop.wait (table.signals)
    with SignalWatch(lambda name: stop.set()):
        yield stop
