"""``companion serve``: the phones' mirror and its zeroconf announcement, without the touchscreen.

For a headless Pi and for tests. It follows the game journal (the game being played, or the one
given with ``--game``), serves the mirror page and announces it, and stops cleanly on SIGTERM or
SIGINT. Once listening it prints one JSON line on stdout:

    {"url": "http://192.168.1.23:8080/", "local_url": "http://pi.local:8080/", "port": 8080,
     "game": 12}
"""

from __future__ import annotations

import argparse
import json
import logging
import signal
import sys
import threading
from types import FrameType
from typing import Any

log = logging.getLogger(__name__)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the phones' mirror page and announce it (no touchscreen needed)",
        description=(
            "Serve the live mirror page for phones on the LAN and announce it over zeroconf. "
            "Follows the game being played in the journal (or the one given with --game) and "
            "picks up a game that starts later. Stops on SIGTERM or Ctrl-C."
        ),
    )
    parser.add_argument(
        "--game", type=int, metavar="ID", help="mirror this game (see 'companion games list')"
    )
    parser.add_argument(
        "--port", type=int, metavar="N", help="the port to listen on (default: [mirror] port; 0: any free port)"
    )
    parser.add_argument(
        "--interface",
        action="append",
        dest="interfaces",
        metavar="ADDR",
        help="listen and announce on this address only; repeat for more "
        "(default: [mirror] interfaces, or every interface)",
    )
    parser.set_defaults(func=serve)


def serve(args: argparse.Namespace) -> int:
    from companion.journal import Journal, JournalError
    from companion.net.follow import JournalFollower
    from companion.net.hub import MirrorHub
    from companion.net.server import MirrorError, MirrorServer

    config = args.config_obj
    if args.port is not None and not 0 <= args.port <= 65535:
        print(f"companion serve: --port {args.port}: must be between 0 and 65535", file=sys.stderr)
        return 2
    try:
        journal = Journal(config.data.database_path)
    except JournalError as err:
        print(f"companion serve: {err}", file=sys.stderr)
        return 2
    try:
        if args.game is not None:
            try:
                journal.summary(args.game)
            except JournalError as err:
                print(f"companion serve: --game {args.game}: {err}", file=sys.stderr)
                return 2
        hub = MirrorHub()
        follower = JournalFollower(journal, hub, game_id=args.game)
        try:
            server = MirrorServer(config, hub, port=args.port, interfaces=args.interfaces)
        except MirrorError as err:
            print(f"companion serve: {err}", file=sys.stderr)
            return 2
        try:
            follower.start()
        except Exception as err:  # noqa: BLE001 (a game these rules cannot replay, say)
            print(f"companion serve: cannot show game {args.game}: {err}", file=sys.stderr)
            follower.stop()
            return 1
        return _run_until_signal(server, follower)
    finally:
        journal.close()


def _run_until_signal(server: Any, follower: Any) -> int:
    from companion.net.server import MirrorError

    stop = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        log.info("mirror: %s received, stopping", signal.Signals(signum).name)
        stop.set()

    previous = {sig: signal.signal(sig, on_signal) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        try:
            server.start()
        except MirrorError as err:
            print(f"companion serve: {err}", file=sys.stderr)
            return 1
        try:
            link = server.phone_link()
            print(
                json.dumps(
                    {
                        "url": link.url,
                        "local_url": link.local_url,
                        "port": server.port,
                        "game": follower.game_id,
                    }
                ),
                flush=True,
            )
            while not stop.wait(0.2):  # a short wait so a signal is acted on at once
                pass
        finally:
            server.stop()
    finally:
        follower.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    log.info("mirror: stopped")
    return 0
