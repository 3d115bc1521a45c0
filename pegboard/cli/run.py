"""``pegboard run`` and ``pegboard selftest``: the device's commands.

``cli.main`` calls ``register(subparsers)`` and ``register_selftest(subparsers)``, each only
when its command runs (or for the whole parser). Each handler takes ``(args, out)`` and
returns the exit status; a ``PegboardError`` (a bad config, an unreadable journal, a bad key
file) is printed by ``cli.main`` as one line, exit 1. The config, the game and the devices are
imported by the handlers, not by the parser.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

from pegboard.cli.helpformat import OwnDefaultsFormatter
from pegboard.cli.lang import add_lang

if TYPE_CHECKING:
    from pegboard.config.settings import Config
    from pegboard.i18n import Language
    from pegboard.web.server import WebServer

__all__ = ["cmd_run", "cmd_selftest", "register", "register_selftest"]


def register(subparsers: Any) -> None:
    """Add ``run`` to the ``pegboard`` command line."""
    fmt = OwnDefaultsFormatter
    p = subparsers.add_parser(
        "run",
        help="run the pegboard device (or its simulator)",
        description="Run the device: keys in, OLED and LED tracks out, every command journalled. "
        "Under systemd it reports READY, pings the watchdog and pauses on SIGTERM.",
        formatter_class=fmt,
    )
    _add_common(p)
    sim = p.add_argument_group("simulator")
    sim.add_argument(
        "--simulate", action="store_true", help="the whole device in this terminal, no hardware"
    )
    sim.add_argument(
        "--headless",
        action="store_true",
        help="with --simulate: no terminal; replay --keys, write --out (a throwaway journal "
        "unless --db is given)",
    )
    sim.add_argument("--keys", type=Path, metavar="FILE", help="key file to replay (headless)")
    sim.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="write state.json, oled.png, leds.json and screens.jsonl (every frame's words) here",
    )
    sim.add_argument(
        "--gif",
        type=Path,
        metavar="PATH",
        help="also write an animated GIF of the session from its start: at most its first 500 "
        "distinct frames (the log says how many more were left out)",
    )
    sim.add_argument(
        "--speech",
        type=Path,
        metavar="PATH",
        help="headless: also write what the board says aloud (eSpeak NG) to this WAV file, "
        "every call in full",
    )
    sim.add_argument("--seed", type=int, default=0, help="seed for random cuts (headless)")
    sim.add_argument(
        "--wait-for-signal",
        action="store_true",
        help="headless: after the key file (if any), run on until SIGTERM or SIGINT",
    )
    web = p.add_argument_group("the pub page")
    web.add_argument(
        "--web",
        action="store_true",
        help="serve the pub page too (as [web] enabled = true); the simulator prints its URL "
        "(headless: with --wait-for-signal, serving the replayed game until stopped)",
    )
    web.add_argument(
        "--bind",
        metavar="ADDR",
        help="with --web: the address to listen on (default: [web] bind, {web_bind})",
    )
    web.add_argument(
        "--port",
        type=int,
        metavar="N",
        help="with --web: the port (default: [web] port, {web_port}; 0: any free port)",
    )
    add_lang(p)
    p.set_defaults(handler=cmd_run, usage_error=p.error)


def register_selftest(subparsers: Any) -> None:
    """Add ``selftest`` to the ``pegboard`` command line."""
    p = subparsers.add_parser(
        "selftest",
        help="light each LED, draw a test screen, echo key presses",
        description="What to run after soldering: every LED lights in turn, the OLED shows a "
        "test card, and every key or button pressed is echoed on the screen and here. A running "
        "pegboard service holds those devices: it is stopped for the test and started again "
        "afterwards, which takes root (sudo pegboard selftest). Exit status 1 if any part failed.",
        formatter_class=OwnDefaultsFormatter,
    )
    _add_common(p)
    p.add_argument("--simulate", action="store_true", help="simulated hardware (for testing)")
    p.add_argument(
        "--seconds", type=float, default=60.0, help="how long to echo keys after the LED sweep"
    )
    p.add_argument("--keys", type=Path, metavar="FILE", help="with --simulate: key presses to echo")
    p.set_defaults(handler=cmd_selftest)


def _add_common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--config",
        type=Path,
        metavar="PATH",
        help="TOML config (default: $PEGBOARD_CONFIG, ~/.config/pegboard/config.toml, "
        "/etc/pegboard/config.toml, else built-in defaults)",
    )
    p.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="journal database (overrides config; a headless run without it plays on a "
        "throwaway journal)",
    )
    p.add_argument(
        "--log-level",
        default="INFO",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="logging to stderr",
    )


def _setup(args: argparse.Namespace) -> Config:
    import logging

    from pegboard.config.settings import load_config

    logging.basicConfig(
        level=getattr(logging, args.log_level),
        stream=sys.stderr,
        format="%(levelname)s %(name)s: %(message)s",
    )
    config = load_config(args.config)
    if args.db is not None:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, database=args.db)
        )
    return config


def cmd_run(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard run``.

    Options that do not go together (``--headless`` without ``--simulate``, ``--keys`` or
    ``--out``) are usage errors: argparse prints the usage and the message, and exits 2.

    Raises:
        SystemExit: a usage error (status 2).
        PegboardError: a bad config, key file or journal.
    """
    usage_error: Callable[[str], NoReturn] = args.usage_error
    if (args.headless or args.keys or args.out or args.gif) and not args.simulate:
        usage_error("--headless, --keys, --out and --gif need --simulate")
    if args.wait_for_signal and not args.headless:
        usage_error("--wait-for-signal needs --simulate --headless")
    if args.headless and args.keys is None and not args.wait_for_signal:
        # a headless run without keys would run on unseen until killed: say so instead
        usage_error(
            "--headless needs --keys FILE to replay "
            "(or --wait-for-signal to run until SIGTERM or SIGINT)"
        )
    if args.headless and args.out is None:
        usage_error("--headless needs --out DIR")
    if args.speech is not None and (not args.headless or args.wait_for_signal):
        usage_error("--speech needs --simulate --headless (without --wait-for-signal)")
    if (args.bind is not None or args.port is not None) and not args.web:
        usage_error("--bind and --port need --web")
    if args.web and args.headless and not args.wait_for_signal:
        usage_error("--headless --web needs --wait-for-signal (else the page would end at once)")
    if args.port is not None and not 0 <= args.port <= 65535:
        usage_error(f"--port must be from 0 to 65535, got {args.port}")
    if args.bind is not None:  # the arguments first, then the terminal; named as --bind
        from pegboard.config.web import check_bind

        check_bind(args.bind)
    if args.simulate and not args.headless and not sys.stdin.isatty():
        # the keys would never come: say so rather than hang (and before serving anything)
        print(
            "pegboard: error: the simulator reads keys from a terminal, and stdin is not "
            "one (for scripts: --headless --keys FILE --out DIR)",
            file=sys.stderr,
        )
        return 2
    config = _setup(args)
    language = _language(args)
    if language is not None:
        config = dataclasses.replace(
            config, game=dataclasses.replace(config.game, language=language)
        )
    if args.web:
        config = _with_web(config, args.bind, args.port)
    # the page's address is said once it is served, after the inputs were checked
    web = _start_web(config) if args.web and args.simulate else None
    if args.simulate and args.headless:
        from pegboard.table.simulator import run_headless

        try:
            run_headless(
                config,
                keys_file=args.keys,
                out_dir=args.out,
                gif=args.gif,
                seed=args.seed,
                wait_for_signal=args.wait_for_signal,
                journal=args.db,  # without --db: a throwaway journal, never the saved game
                web=web,
                serving=None if web is None else lambda: _say_where(web, out),
                language=language,  # --lang wins over a key file's language header
                told=lambda line: print(line, file=out, flush=True),
                speech=args.speech,
            )
        finally:
            if web is not None:
                web.close()  # a bad key file stops it before it served anything
        return 0
    if args.simulate:
        from pegboard.table.simulator import run_terminal

        if web is not None:
            _say_where(web, out)
        run_terminal(config, out, web=web)
        return 0
    from pegboard.errors import UnreplayableMatchError
    from pegboard.table.daemon import run_daemon
    from pegboard.table.wiring import nothing_to_press, open_ports

    ports = open_ports(config)
    missing = nothing_to_press(ports)
    if missing is not None and not _under_systemd():
        # a computer that is not the board (or a board whose keys all failed): a table that
        # nothing can be pressed on would run unseen; under systemd it runs on (the page, the
        # LEDs and the journal still serve) and the journal says why
        from pegboard.errors import HardwareError

        raise HardwareError(missing)
    try:
        run_daemon(config, ports)
    except UnreplayableMatchError as e:
        # stopped (SIGTERM, as systemctl stop) while the display offered a new match: a stop
        # asked for, not a failure; the match is left as it is
        print(f"stopped; {e} ('pegboard game repair' keeps what replays)", file=out)
    return 0


def _under_systemd() -> bool:
    """Whether systemd started this process (it sets ``INVOCATION_ID`` for every unit it
    runs, and ``NOTIFY_SOCKET`` for a Type=notify service)."""
    import os

    return bool(os.environ.get("INVOCATION_ID") or os.environ.get("NOTIFY_SOCKET"))


def _language(args: argparse.Namespace) -> Language | None:
    """The table's language given as ``--lang`` (before or after ``run``), else None: the
    config's ``[game] language`` (a key file's header may set its own)."""
    from pegboard.i18n import Language

    lang: str | None = getattr(args, "lang", None)
    return Language(lang) if lang else None


def _with_web(config: Config, bind: str | None, port: int | None) -> Config:
    """*config* with the page on, at *bind* (checked by then) and *port* when given."""
    web = config.web
    web = dataclasses.replace(
        web,
        enabled=True,
        bind=bind if bind is not None else web.bind,
        port=port if port is not None else web.port,
    )
    return dataclasses.replace(config, web=web)


def _start_web(config: Config) -> WebServer:
    """The simulator's page, started (its address is said by ``_say_where`` once it serves).

    Raises:
        WebServerError: the port is in use (asked for on the command line, so an error).
    """
    from pegboard.web.server import WebServer

    server = WebServer(config.web.bind, config.web.port)
    server.start()
    return server


def _say_where(server: WebServer, out: TextIO) -> None:
    """The page's URL on *out*: "serving the pub page at http://..." (before the terminal
    view; headless, once the key file is replayed)."""
    from pegboard.web.server import public_url

    url, note = public_url(server)
    print(f"serving the pub page at {url}" + (f" ({note})" if note else ""), file=out, flush=True)


def cmd_selftest(args: argparse.Namespace, out: TextIO) -> int:
    """``pegboard selftest``.

    Raises:
        PegboardError: a bad config or key file.
    """
    from pegboard.table.selftest import run_selftest

    config = _setup(args)
    return run_selftest(
        config, out, simulate=args.simulate, seconds=args.seconds, keys_file=args.keys
    )
