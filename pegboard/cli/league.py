"""``pegboard league``: the league service and its standings.

``pegboard league serve [--broker HOST:PORT] [--db league.db] [--web-port N] [--bind ADDR]``
subscribes to every board's topics with a persistent session (``league.service``), keeps the
games in its own SQLite and serves the standings and every board's live game on a page (the pub
page's server), until SIGTERM or SIGINT. ``pegboard league standings [--db] [--json]`` prints the
table from the database, read-only.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from pathlib import Path
from typing import Any, TextIO

from pegboard.cli.helpformat import DefaultsFormatter
from pegboard.cli.lang import add_lang, language_of, words_of
from pegboard.cli.serve import stop_on_signals
from pegboard.i18n import NC_

__all__ = ["register"]

DEFAULT_DB = Path("league.db")

_HEADS = (
    NC_("standings", "player"),
    NC_("standings", "P"),
    NC_("standings", "W"),
    NC_("standings", "L"),
    NC_("standings", "MP"),
    NC_("standings", "spread"),
)
"""The table's column heads: the player, games played, won, lost, match points, spread."""


def register(subparsers: Any) -> None:
    """Add ``league`` (``serve``, ``standings``) to the command line's subparsers."""
    fmt = DefaultsFormatter
    p = subparsers.add_parser(
        "league",
        help="the league of boards over MQTT: its service and standings",
        description="A league of boards over MQTT: the service that gathers every board's games "
        "and live views, and the standings (2 match points a win, 3 when the loser was lurched; "
        "then games won, then spread).",
        formatter_class=fmt,
    )
    sub = p.add_subparsers(dest="league_command", required=True, metavar="COMMAND")
    s = sub.add_parser(
        "serve",
        help="gather the boards' games and serve the standings page",
        description="Subscribe to every board's topics (a persistent session: games sent while "
        "the service is away wait at the broker), keep the games in --db and serve the "
        "standings and every board's live game on a page.",
        formatter_class=fmt,
    )
    s.add_argument("--broker", default="127.0.0.1:1883", metavar="HOST:PORT", help="the broker")
    s.add_argument("--db", type=Path, default=DEFAULT_DB, help="the league's database")
    s.add_argument("--web-port", type=int, default=8122, metavar="N", help="the page's port")
    s.add_argument(
        "--bind",
        default="127.0.0.1",
        metavar="ADDR",
        help="the page's address: 127.0.0.1 this machine only, 0.0.0.0 every interface",
    )
    s.add_argument("--client-id", default="pegboard-league", help="the session's name")
    s.add_argument("--username", default=None, help="the broker's user for the service")
    s.add_argument("--password-file", type=Path, default=None, help="its password, first line")
    s.add_argument("--ca-file", type=Path, default=None, help="TLS to the broker with this CA")
    s.add_argument(
        "--tourney",
        type=Path,
        default=None,
        metavar="DB",
        help="a tournament night's database (pegboard tourney new): its boards' games go on "
        "its scorecards",
    )
    s.add_argument(
        "--projector-port", type=int, default=8123, metavar="N", help="the night's projector page"
    )
    add_lang(s)
    s.set_defaults(handler=_cmd_serve, usage_error=s.error)
    t = sub.add_parser(
        "standings",
        help="print the league table",
        description="The league table from the league's database (read-only).",
        formatter_class=fmt,
    )
    t.add_argument("--db", type=Path, default=DEFAULT_DB, help="the league's database")
    t.add_argument("--json", action="store_true", help="print JSON")
    add_lang(t)
    t.set_defaults(handler=_cmd_standings)


def _cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    """Until SIGTERM or SIGINT, then exit 0.

    Raises:
        SystemExit: a port out of range (usage, status 2).
        PegboardError: a bad --broker, --bind or --client-id, --password-file without
            --username, a password or CA file that cannot be read, the database, paho missing,
            a port in use.
    """
    from pegboard.config.web import check_bind
    from pegboard.league.service import (
        STATIC_DIR,
        Broker,
        LeagueService,
        check_client_id,
        check_login,
        parse_broker,
    )
    from pegboard.league.store import LeagueStore
    from pegboard.web.server import WebServer, public_url

    if not 0 <= args.web_port <= 65535:
        args.usage_error(f"--web-port must be from 0 to 65535, got {args.web_port}")
    if not 0 <= args.projector_port <= 65535:
        args.usage_error(f"--projector-port must be from 0 to 65535, got {args.projector_port}")
    check_bind(args.bind)  # checked as [web] bind is, the message naming --bind
    host, port = parse_broker(args.broker)
    check_client_id(args.client_id)
    broker = Broker(host, port, args.username, args.password_file, args.ca_file)
    check_login(broker)  # every input is checked before the database is made
    web = WebServer(
        args.bind,
        args.web_port,
        static_dir=STATIC_DIR,
        port_option="--web-port",
        bind_option="--bind",
    )
    web.start()  # a port in use too
    with contextlib.ExitStack() as made:
        made.callback(web.close)
        store = LeagueStore(args.db)
        made.callback(store.close)
        feed = None
        projector = None
        if args.tourney is not None:
            from pegboard.league.tourney_feed import TourneyFeed
            from pegboard.league.tourney_projector import PROJECTOR_DIR, Projector
            from pegboard.league.tourney_store import TourneyStore

            night = TourneyStore(args.tourney)
            made.callback(night.close)
            screen = WebServer(
                args.bind,
                args.projector_port,
                static_dir=PROJECTOR_DIR,
                port_option="--projector-port",
                bind_option="--bind",
            )
            screen.start()
            made.callback(screen.close)
            projector = Projector(night, screen, language=language_of(args).value)
            feed = TourneyFeed(night, on_counted=projector.poke)
            url, _ = public_url(screen)
            print(f"tourney: {args.tourney}, projector at {url}", file=out, flush=True)
        service = LeagueService(
            store,
            broker,
            web=web,
            client_id=args.client_id,
            language=language_of(args).value,
            on_game=feed,
        )
        if projector is not None:
            from pegboard.league.tourney_notify import BoardNotifier

            # each board's next pairing and the lock, retained, over the service's connection
            projector.on_look = BoardNotifier(service.publish_retained).update
            projector.start()
            made.callback(projector.close)
        with stop_on_signals() as stop:
            try:
                service.start()
                url, note = public_url(web)
                said = words_of(args).gettext("league: {db} from {broker}, standings at {url}")
                said = said.format(db=args.db, broker=f"{host}:{port}", url=url)
                print(said + (f" ({note})" if note else ""), file=out, flush=True)
                stop.wait()
            finally:
                service.close()
    return 0


def _cmd_standings(args: argparse.Namespace, out: TextIO) -> int:
    """Print the table.

    Raises:
        PegboardError: no league database at --db, or one that cannot be read.
    """
    from pegboard.journal import read_steadily
    from pegboard.league.store import LeagueStore

    # a service that starts meanwhile may change the file under an immutable read: read again
    table = read_steadily(lambda: LeagueStore(args.db, readonly=True), LeagueStore.standings)
    if args.json:
        print(json.dumps([line.to_dict() for line in table]), file=out)
        return 0
    tr = words_of(args)
    # the column heads: played, won, lost, match points, spread
    heads = [tr.pgettext("standings", head) for head in _HEADS]
    player, played, won, lost, points, spread = heads
    width = max([len(line.name) for line in table] + [len(player)])
    print(
        f"{'#':>3}  {player:<{width}}  {played:>3} {won:>3} {lost:>3} {points:>4} {spread:>7}",
        file=out,
    )
    for rank, line in enumerate(table, 1):
        print(
            f"{rank:>3}  {line.name:<{width}}  {line.played:>3} {line.won:>3} {line.lost:>3} "
            f"{line.match_points:>4} {line.spread:>+7}",
            file=out,
        )
    if not table:
        print(tr.gettext("no games yet"), file=out)
    return 0
