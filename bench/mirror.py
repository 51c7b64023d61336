"""The mirror's speed: from a Table commit to every phone holding the new state.

Targets (issue 9): p95 under 50 ms with 100 clients; commits no slower with clients than without.
A real Table plays CHAINsomnia (the simulator's greedy policy, a fresh game whenever one ends)
on a journal file under bench/out/, mirrored by a MirrorServer on 127.0.0.1. The clients are
aiohttp WebSocket clients in a process of their own (phones have their own CPUs; here they share
the machine with the server, so "latency" includes 100 clients reading on the same cores, and
"sent" shows the server's own share: commit to the frame handed to the last client's socket). A commit's latency runs from ``Table.submit``
returning to the moment the last client has read a message at or after that seq; the commit
time is ``Table.submit`` itself, with the mirror off, on with no clients, and with clients.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import shutil
import statistics
import time
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web

from companion.chainsomnia.simulate import Chooser, greedy_policy
from companion.config import MirrorConfig
from companion.journal import Journal
from companion.net import MirrorHub, MirrorServer
from companion.table import Table

OUT = Path(__file__).resolve().parent / "out" / "mirror"
CLIENTS = (1, 10, 100)
COMMITS = 200
PACE = 0.02  # seconds between commits: a busy table, but each commit stands alone
SEQ = re.compile(r'"seq":(\d+)')


def _p95(samples: list[float]) -> float:
    return sorted(samples)[int(0.95 * (len(samples) - 1))]


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:9.2f}"


class Player:
    """Keeps a CHAINsomnia game going through one Table after another."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.chooser = Chooser(7)
        self.seed = 11
        self.table = self._new()

    def _new(self) -> Table:
        self.seed += 1
        return Table.new(self.journal, "chainsomnia", {"players": 3, "seed": self.seed})

    def commit(self) -> float:
        """One action through the Table; returns how long ``submit`` took."""
        table = self.table
        action = greedy_policy(table.state, table.legal_actions(), self.chooser)
        started = time.perf_counter()
        outcome = table.submit(action, source="bench")
        took = time.perf_counter() - started
        if not outcome.accepted:
            raise RuntimeError(f"refused: {outcome.error}")
        return took


async def _clients(url: str, count: int, pipe: Connection) -> None:
    """`count` WebSocket clients; notes when each seq first reached each of them."""
    arrivals: list[dict[int, float]] = [{} for _ in range(count)]

    async def read(ws: aiohttp.ClientWebSocketResponse, seen: dict[int, float]) -> None:
        async for message in ws:
            now = time.perf_counter()
            found = SEQ.search(message.data[:400])
            if found:
                seen.setdefault(int(found.group(1)), now)

    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
        sockets = [await http.ws_connect(f"{url}api/stream", max_msg_size=0) for _ in range(count)]
        readers = [asyncio.ensure_future(read(ws, arrivals[i])) for i, ws in enumerate(sockets)]
        while any(not seen for seen in arrivals):  # everyone holds the first state
            await asyncio.sleep(0.01)
        pipe.send("ready")
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, pipe.recv)  # "stop"
        for ws in sockets:
            await ws.close()
        for reader in readers:
            reader.cancel()
    pipe.send(arrivals)


def _client_process(url: str, count: int, pipe: Connection) -> None:
    asyncio.run(_clients(url, count, pipe))


class Clients:
    """The phones: N clients in a process of their own (phones have their own CPUs).

    ``time.perf_counter`` is the system's monotonic clock on Linux, the same in both processes.
    """

    def __init__(self, url: str, count: int) -> None:
        self.pipe, theirs = multiprocessing.get_context("spawn").Pipe()
        self.process = multiprocessing.get_context("spawn").Process(
            target=_client_process, args=(url, count, theirs), daemon=True
        )

    def start(self) -> None:
        self.process.start()
        if not self.pipe.poll(120) or self.pipe.recv() != "ready":
            raise RuntimeError("the clients did not connect")

    def stop(self) -> list[dict[int, float]]:
        self.pipe.send("stop")
        arrivals = self.pipe.recv()
        self.process.join(30)
        return arrivals


def _when_all_have(arrivals: list[dict[int, float]], seq: int) -> float | None:
    """When the last client got a message at or after `seq` (None: one never did)."""
    latest = 0.0
    for seen in arrivals:
        times = [t for s, t in seen.items() if s >= seq]
        if not times:
            return None
        latest = max(latest, min(times))
    return latest


class SendClock:
    """When the server handed each seq to its last client (the Pi's share of the latency).

    Wraps aiohttp's ``WebSocketResponse.send_frame`` for the run: instrumentation, bench only.
    """

    def __init__(self) -> None:
        self.sent: dict[int, dict[int, float]] = {}  # per socket: seq -> when it went out
        self._original = web.WebSocketResponse.send_frame

    def __enter__(self) -> SendClock:
        original, sent = self._original, self.sent

        async def send_frame(ws: web.WebSocketResponse, data: bytes, opcode: Any, compress: Any = None) -> None:
            await original(ws, data, opcode, compress)
            found = SEQ.search(data[:400].decode(errors="replace"))
            if found:
                sent.setdefault(id(ws), {}).setdefault(int(found.group(1)), time.perf_counter())

        web.WebSocketResponse.send_frame = send_frame  # type: ignore[method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        web.WebSocketResponse.send_frame = self._original  # type: ignore[method-assign]


def run(journal: Journal, clients: int | None) -> dict[str, Any]:
    """COMMITS paced commits with the mirror off (None) or with `clients` live clients."""
    player = Player(journal)
    server = hub = None
    watchers = None
    if clients is not None:
        hub = MirrorHub()
        server = MirrorServer(
            MirrorConfig(interfaces=["127.0.0.1"], max_clients=1000, max_clients_per_address=1000),
            hub, port=0, announce=False,
        )
        server.start()
        hub.attach(player.table)
        if clients:
            watchers = Clients(server.url, clients)
            watchers.start()
    commit_times: list[float] = []
    committed: list[tuple[int, int, float]] = []  # (game, seq, when submit returned)
    arrivals: dict[int, list[dict[int, float]]] = {}
    clock = SendClock()
    sends: dict[int, list[dict[int, float]]] = {}
    try:
        clock.__enter__()
        for _ in range(COMMITS):
            if player.table.over:
                # one game per client session: seqs start again with a new game
                if watchers is not None:
                    arrivals[player.table.game_id] = watchers.stop()
                sends[player.table.game_id] = list(clock.sent.values())
                clock.sent.clear()
                player.table.close()
                player.table = player._new()
                if hub is not None:
                    hub.attach(player.table)
                if watchers is not None and clients:
                    watchers = Clients(server.url, clients)
                    watchers.start()
            took = player.commit()
            committed.append((player.table.game_id, player.table.seq, time.perf_counter()))
            commit_times.append(took)
            time.sleep(PACE)
        time.sleep(0.5)  # the last commit's messages are on their way
    finally:
        clock.__exit__()
        sends[player.table.game_id] = list(clock.sent.values())
        if watchers is not None:
            arrivals[player.table.game_id] = watchers.stop()
        if server is not None:
            server.stop()
        player.table.close()
    latencies, sent_at = [], []
    for game, seq, when in committed:
        if game in arrivals:
            arrived = _when_all_have(arrivals[game], seq)
            out = _when_all_have(sends[game], seq)
            if arrived is None or out is None:
                raise RuntimeError(f"game {game} seq {seq} did not reach every client")
            latencies.append(arrived - when)
            sent_at.append(out - when)
    return {"commits": commit_times, "latencies": latencies, "sent": sent_at}


def main() -> None:
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"CHAINsomnia on a journal file, {COMMITS} commits {PACE * 1000:.0f} ms apart per row;"
          f" {os.cpu_count()} CPUs, load average {load}")
    print(f"{'clients':>12} {'latency med':>12} {'latency p95':>12} {'sent p95':>9} {'commit med':>11} {'commit p95':>11}  (ms)")
    for clients in (None, 0, *CLIENTS):
        journal = Journal(OUT / f"games-{clients}.sqlite3")
        try:
            found = run(journal, clients)
        finally:
            journal.close()
        commits, latencies, sent = found["commits"], found["latencies"], found["sent"]
        name = "mirror off" if clients is None else str(clients)
        lat = (_ms(statistics.median(latencies)), _ms(_p95(latencies))) if latencies else ("-".rjust(9),) * 2
        out = _ms(_p95(sent)) if sent else "-".rjust(9)
        print(f"{name:>12} {lat[0]:>12} {lat[1]:>12} {out:>9} {_ms(statistics.median(commits)):>11} {_ms(_p95(commits)):>11}")
    print("latency: commit to the last client holding it; sent: commit to the server handing it to the last socket")


if __name__ == "__main__":
    main()
