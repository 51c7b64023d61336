"""Fixtures for the mirror's tests: a small secret-keeping game, a mirror on loopback, Chromium.

The mirror is tested through a real Table playing ``mirrortest``, a tiny game registered with
``companion.games`` whose every seat holds a secret and may enter a Goal privately: enough to
check that secrets never reach public bytes, whatever the real games' views look like.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import time
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from companion import games
from companion.config import MirrorConfig
from companion.journal import Journal
from companion.net import MirrorHub, MirrorServer
from companion.net.hub import SEAT_ACTIONS
from companion.rules import IllegalAction
from companion.table import Table

GOALS = ("cloud-octopus-dragon", "moon-mermaid-rocket")


class SecretsGame:
    """A game with something secret per seat and a private Goal entry (like Somnicum's)."""

    name = "mirrortest"

    def new_game(self, options: Mapping[str, Any]) -> dict[str, Any]:
        players = list(options.get("players", ["Ann", "Ben"]))
        return {
            "players": players,
            "secrets": [f"SECRET-{i}-{name}-7f3a" for i, name in enumerate(players)],
            "seed": "SEED-91c2e0",
            "goals": [None] * len(players),
            "round": 1,
            "moves": 0,
        }

    def apply(self, state: dict[str, Any], action: Mapping[str, Any]) -> tuple[dict[str, Any], list]:
        new = json.loads(json.dumps(state))
        if action["type"] == "advance":
            new["moves"] += 1
            if new["moves"] % 2 == 0:
                new["round"] += 1
            return new, [{"type": "advanced", "moves": new["moves"]}]
        if action["type"] == "enter_goal":
            seat = action.get("seat")
            if not isinstance(seat, int) or not 0 <= seat < len(new["players"]):
                raise IllegalAction("no_seat", "There is no such seat.")
            if action.get("goal") not in GOALS:
                raise IllegalAction("no_goal", "That is not one of the Goal cards.")
            if new["goals"][seat] is not None:
                raise IllegalAction("goal_known", "That player's Goal card is already entered.")
            new["goals"][seat] = action["goal"]
            return new, [{"type": "goal_entered", "seat": seat, "goal": action["goal"]}]
        if action["type"] == "finish":
            new["round"] = 99
            return new, []
        raise IllegalAction("unknown", f"{action['type']} is not an action of this game.")

    def legal_actions(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        actions: list[dict[str, Any]] = [{"type": "advance"}, {"type": "finish"}]
        for seat, goal in enumerate(state["goals"]):
            if goal is None:
                actions += [{"type": "enter_goal", "seat": seat, "goal": g} for g in GOALS]
        return actions

    def is_over(self, state: dict[str, Any]) -> bool:
        return state["round"] >= 99

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        return {"winners": state["players"][:1], "text": "Game over: Ann won."}

    def view(self, state: dict[str, Any], seat: int | None) -> dict[str, Any]:
        public = {
            "round": state["round"],
            "moves": state["moves"],
            "players": [
                {"name": name, "goal_entered": state["goals"][i] is not None}
                for i, name in enumerate(state["players"])
            ],
        }
        if seat is not None:
            public["you"] = {"secret": state["secrets"][seat], "goal": state["goals"][seat]}
        return public

    def state_to_json(self, state: dict[str, Any]) -> dict[str, Any]:
        return json.loads(json.dumps(state))

    def state_from_json(self, data: Mapping[str, Any]) -> dict[str, Any]:
        return json.loads(json.dumps(data))

    def describe(self, action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> str:
        if action["type"] == "enter_goal":
            # deliberately careless, as a real describe() might be: the mirror must redact it
            return f"Seat {action['seat'] + 1} chose {action['goal']}."
        if action["type"] == "finish":
            return "The game ends."
        return f"Move {events[0]['moves']}."

    def put_back(self, action: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[str]:
        return ["Put the marker back one space."] if action["type"] == "advance" else []


SECRET_MARKERS = ("SECRET-", "SEED-91c2e0", *GOALS)


@pytest.fixture
def secrets_game() -> Iterator[SecretsGame]:
    """The ``mirrortest`` game, registered for the test and forgotten after it."""
    game = SecretsGame()
    games.register(game)  # type: ignore[arg-type]
    yield game
    games.unregister(game.name)


@pytest.fixture
def table(secrets_game: SecretsGame) -> Iterator[Table]:
    """A real Table on an in-memory Journal, playing ``mirrortest`` for Ann and Ben."""
    journal = Journal(":memory:")
    table = Table.new(journal, "mirrortest", {"players": ["Ann", "Ben"]})
    yield table
    table.close()
    journal.close()


@pytest.fixture
def hub() -> MirrorHub:
    return MirrorHub(seat_actions={"mirrortest": {"enter_goal"}, **SEAT_ACTIONS})


@pytest.fixture
def mirror(hub: MirrorHub) -> Iterator[MirrorServer]:
    """A mirror on 127.0.0.1 at a free port, without zeroconf; stopped after the test."""
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"], max_clients=64, max_clients_per_address=16),
        hub,
        port=0,
        announce=False,
    )
    server.start()
    yield server
    server.stop()


def wait_until(predicate: Any, timeout: float = 5.0, step: float = 0.01) -> Any:
    """Polls ``predicate`` until it returns something true, or fails the test."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"not true after {timeout} s: {predicate}")


# -- Chromium over the DevTools protocol -----------------------------------------------------

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
]


def chromium_path() -> str:
    """Debian's Chromium; a missing browser fails the test (CI installs it through .ci/run)."""
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    pytest.fail("Chromium is not installed: apt-get install chromium chromium-driver", pytrace=False)


class Chromium:
    """A headless Chromium page driven over the DevTools protocol with aiohttp's WebSocket."""

    def __init__(self, profile: Path, width: int, height: int) -> None:
        self.profile = profile
        self.width = width
        self.height = height
        self.process: subprocess.Popen[bytes] | None = None
        self._session: aiohttp.ClientSession | None = None
        self._ws: aiohttp.ClientWebSocketResponse | None = None
        self._reader: asyncio.Task[None] | None = None
        self._next_id = 0
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.console: list[str] = []
        self.loaded = asyncio.Event()

    async def start(self) -> None:
        self.process = subprocess.Popen(
            [chromium_path(), *CHROMIUM_FLAGS, f"--user-data-dir={self.profile}",
             f"--window-size={self.width},{self.height}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=open(self.profile / "chromium.log", "wb"),  # noqa: SIM115 (kept for the run)
            start_new_session=True,
        )
        port_file = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + 30
        while not (port_file.exists() and port_file.read_text().count("\n") >= 1):
            if self.process.poll() is not None or time.monotonic() > deadline:
                log = (self.profile / "chromium.log").read_text(errors="replace")[-2000:]
                raise AssertionError(f"Chromium did not start: {log}")
            await asyncio.sleep(0.05)
        port = int(port_file.read_text().splitlines()[0])
        self._session = aiohttp.ClientSession()
        async with self._session.get(f"http://127.0.0.1:{port}/json/list") as reply:
            targets = await reply.json()
        page = next(t for t in targets if t.get("type") == "page")
        self._ws = await self._session.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)
        self._reader = asyncio.ensure_future(self._read())
        await self.send("Page.enable")
        await self.send("Runtime.enable")
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width, height=self.height, deviceScaleFactor=2, mobile=True,
        )

    async def _read(self) -> None:
        assert self._ws is not None
        async for message in self._ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                break
            data = json.loads(message.data)
            if "id" in data and data["id"] in self._waiting:
                self._waiting.pop(data["id"]).set_result(data)
            elif data.get("method") == "Page.loadEventFired":
                self.loaded.set()
            elif data.get("method") == "Runtime.consoleAPICalled":
                args = data["params"].get("args", [])
                self.console.append(" ".join(str(a.get("value", a.get("description"))) for a in args))
            elif data.get("method") == "Runtime.exceptionThrown":
                self.console.append("exception: " + json.dumps(data["params"]["exceptionDetails"])[:500])

    async def send(self, method: str, **params: Any) -> dict[str, Any]:
        assert self._ws is not None
        self._next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[self._next_id] = future
        await self._ws.send_str(json.dumps({"id": self._next_id, "method": method, "params": params}))
        reply = await asyncio.wait_for(future, 30)
        if "error" in reply:
            raise AssertionError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    async def open(self, url: str) -> None:
        self.loaded.clear()
        await self.send("Page.navigate", url=url)
        await asyncio.wait_for(self.loaded.wait(), 30)

    async def evaluate(self, expression: str) -> Any:
        result = await self.send("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise AssertionError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    async def wait_for(self, expression: str, timeout: float = 10.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            value = await self.evaluate(expression)
            if value:
                return value
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"the page never made {expression!r} true; console: {self.console[-5:]}"
                )
            await asyncio.sleep(0.05)

    async def screenshot(self, path: Path) -> None:
        """A PNG of the whole page at the emulated phone's width."""
        height = await self.evaluate("Math.ceil(document.documentElement.scrollHeight)")
        await self.send(
            "Emulation.setDeviceMetricsOverride",
            width=self.width, height=int(height), deviceScaleFactor=2, mobile=True,
        )
        shot = await self.send("Page.captureScreenshot", format="png", captureBeyondViewport=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            if self._ws is not None:
                await self._ws.close()
        if self._reader is not None:
            self._reader.cancel()
        if self._session is not None:
            await self._session.close()
        if self.process is not None and self.process.poll() is None:
            # Chromium starts helpers in its own session: end that group, which this test made
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(5)


@contextlib.asynccontextmanager
async def chromium_page(profile: Path, width: int = 360, height: int = 780) -> AsyncIterator[Chromium]:
    browser = Chromium(profile, width, height)
    try:
        await browser.start()
        yield browser
    finally:
        await browser.close()


@pytest.fixture
def browser_profile(tmp_path: Path) -> Path:
    chromium_path()  # fail at once, before any setup, when the browser is missing
    profile = tmp_path / "chromium-profile"
    profile.mkdir()
    return profile


@pytest.fixture
def open_browser(browser_profile: Path) -> Any:
    """``async with open_browser() as page:`` a Chromium page 360 px wide (a phone)."""
    return lambda width=360, height=780: chromium_page(browser_profile, width, height)


@pytest.fixture
def until() -> Any:
    """``until(predicate, timeout)``: polls until true, or fails the test."""
    return wait_until


@pytest.fixture
def secret_markers() -> tuple[str, ...]:
    """Strings of ``mirrortest``'s secrets: none may appear in anything public."""
    return SECRET_MARKERS


class Players:
    """Plays real games through a real Table the way a careful table would (the simulators'
    greedy policies), with chance drawn from a seeded generator as the app's virtual dice do."""

    @staticmethod
    def chainsomnia(table: Table, actions: int, seed: int = 3) -> None:
        from companion.chainsomnia.simulate import Chooser, greedy_policy

        chooser = Chooser(seed)
        for _ in range(actions):
            if table.over:
                return
            action = greedy_policy(table.state, table.legal_actions(), chooser)
            outcome = table.submit(action)
            assert outcome.accepted, outcome

    @staticmethod
    def somnicum(table: Table, actions: int, seed: int = 3, until_phase: str | None = None) -> None:
        from companion.somnicum.actions import chance_outcomes
        from companion.somnicum.setup import catalog_of
        from companion.somnicum.simulate import Chooser, greedy_policy

        chooser = Chooser(seed)
        for _ in range(actions):
            if table.over or (until_phase is not None and table.state.phase == until_phase):
                return
            catalog = catalog_of(table.state)
            chance = chance_outcomes(catalog, table.state)
            if chance:
                action = chooser.sample(chance)
            else:
                action = greedy_policy(catalog, table.state, table.legal_actions(), chooser)
            outcome = table.submit(action)
            assert outcome.accepted, outcome


@pytest.fixture
def play() -> Players:
    """``play.chainsomnia(table, n)`` / ``play.somnicum(table, n)``: n actions of real play."""
    return Players()


@pytest.fixture
def journal() -> Iterator[Journal]:
    journal = Journal(":memory:")
    yield journal
    journal.close()
