"""The mirror over real HTTP and WebSocket on loopback, fed by a real Table."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from typing import Any

import aiohttp
import pytest

from companion.config import MirrorConfig
from companion.net import MirrorServer
from companion.net.server import SEAT_GONE, STATIC_FILES
from companion.table import Table


async def next_message(ws: aiohttp.ClientWebSocketResponse, timeout: float = 5.0) -> dict[str, Any]:
    """The next message that is not a heartbeat."""
    while True:
        message = await asyncio.wait_for(ws.receive(), timeout)
        assert message.type == aiohttp.WSMsgType.TEXT, message
        data = json.loads(message.data)
        if not data.get("heartbeat"):
            return data


async def message_where(ws: aiohttp.ClientWebSocketResponse, check: Any, timeout: float = 5.0) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        data = await next_message(ws, max(0.05, deadline - time.monotonic()))
        if check(data):
            return data


def test_the_page_and_its_files_are_served(mirror):
    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.get(mirror.url) as page:
                assert page.status == 200
                assert page.headers["Content-Type"].startswith("text/html")
                html = await page.text()
            assert '<script src="/static/mirror.js"' in html and "cdn" not in html.lower()
            assert page.headers["Referrer-Policy"] == "no-referrer"
            assert "default-src 'none'" in page.headers["Content-Security-Policy"]
            for name, kind in STATIC_FILES.items():
                async with http.get(f"{mirror.url}static/{name}") as reply:
                    assert reply.status == 200, name
                    assert reply.headers["Content-Type"] == kind
                    assert len(await reply.read()) > 100
            async with http.get(f"{mirror.url}api/state") as reply:
                assert reply.status == 200 and reply.content_type == "application/json"
                state = await reply.json()
            assert state["status"] == "idle" and state["game"] is None

    asyncio.run(run())


@pytest.mark.parametrize(
    "path",
    [
        "/nope",
        "/static/hub.py",
        "/static/../hub.py",
        "/static/..%2fhub.py",
        "/static/%2e%2e/%2e%2e/config.py",
        "/static/static/index.html",
        "/../../etc/passwd",
        "/seat/short",
        "/seat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        "/api/seat/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/state",
        "/api/state/extra",
    ],
)
def test_unknown_paths_are_404_and_nothing_outside_the_page_is_reachable(mirror, path):
    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.get(mirror.url.rstrip("/") + path) as reply:
                assert reply.status == 404, path
                body = await reply.read()
        assert b"import" not in body and b"root:" not in body

    asyncio.run(run())


def test_the_public_api_is_read_only(mirror):
    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            for path in ("api/state", "", "api/stream"):
                async with http.post(mirror.url + path, json={"type": "advance"}) as reply:
                    assert reply.status == 405, path

    asyncio.run(run())


def test_a_table_commit_arrives_on_the_stream(mirror, hub, table):
    hub.attach(table)

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{mirror.url}api/stream") as ws:
                first = await next_message(ws)
                assert first["status"] == "playing" and first["game"] == "mirrortest"
                assert first["view"]["moves"] == 0
                started = time.monotonic()
                outcome = await asyncio.get_running_loop().run_in_executor(
                    None, table.submit, {"type": "advance"}
                )
                assert outcome.accepted
                moved = await message_where(ws, lambda m: m["view"] and m["view"]["moves"] == 1)
                assert time.monotonic() - started < 2.0
                assert moved["log"][-1]["text"] == "Move 1." and moved["seq"] == outcome.seq
                async with http.get(f"{mirror.url}api/state") as reply:
                    assert (await reply.json())["view"]["moves"] == 1

    asyncio.run(run())


def test_with_no_game_the_stream_waits_and_picks_the_game_up(mirror, hub, table):
    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{mirror.url}api/stream") as ws:
                assert (await next_message(ws))["status"] == "idle"
                await asyncio.get_running_loop().run_in_executor(None, hub.attach, table)
                playing = await message_where(ws, lambda m: m["status"] == "playing")
                assert playing["view"]["players"][0]["name"] == "Ann"
                assert playing["log"][0]["text"].startswith("New game of mirrortest")
                hub.detach()
                assert (await message_where(ws, lambda m: m["status"] == "idle"))["view"] is None

    asyncio.run(run())


def test_the_end_of_the_game_is_shown(mirror, hub, table):
    hub.attach(table)
    table.submit({"type": "finish"})

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{mirror.url}api/stream") as ws:
                # the finishing action is shown first (already over), then the Table's end line
                over = await message_where(ws, lambda m: m["status"] == "over" and (m["last"] or {}).get("kind") == "end")
                assert [line["text"] for line in over["log"][-2:]] == ["The game ends.", "Game over: Ann won."]

    asyncio.run(run())


def test_secrets_never_reach_public_bytes(mirror, hub, table, secret_markers):
    hub.attach(table)
    token = hub.seat_token(0)

    async def run() -> list[bytes]:
        seen: list[bytes] = []
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{mirror.url}api/stream") as ws:
                # the seat enters its Goal; the table plays on; the Goal is undone and entered again
                async with http.post(
                    f"{mirror.url}api/seat/{token}/action",
                    json={"type": "enter_goal", "seat": 0, "goal": "cloud-octopus-dragon"},
                ) as reply:
                    assert reply.status == 200 and (await reply.json())["accepted"]
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(None, table.submit, {"type": "advance"})
                await loop.run_in_executor(None, table.undo, 2)
                async with http.post(
                    f"{mirror.url}api/seat/{token}/action",
                    json={"type": "enter_goal", "seat": 0, "goal": "moon-mermaid-rocket"},
                ) as reply:
                    assert (await reply.json())["accepted"]
                await loop.run_in_executor(None, table.submit, {"type": "finish"})
                while True:
                    message = await asyncio.wait_for(ws.receive(), 5)
                    seen.append(message.data.encode())
                    if json.loads(message.data).get("status") == "over":
                        break
            for path in ["", "api/state", *(f"static/{name}" for name in STATIC_FILES)]:
                async with http.get(mirror.url + path) as reply:
                    seen.append(await reply.read())
        return seen

    public = b"\n".join(asyncio.run(run()))
    assert b"Ann entered a secret card privately." in public  # the public did hear of it
    assert b"Undo: Move 1.; Ann entered a secret card privately." in public
    for marker in secret_markers:
        assert marker.encode() not in public, marker
    assert table.state["goals"][0] == "moon-mermaid-rocket"


def test_a_seat_token_opens_that_seat_only(mirror, hub, table):
    hub.attach(table)
    ann, ben = hub.seat_token(0), hub.seat_token(1)
    assert len(ann) * 6 >= 128  # base64url characters carry 6 bits each

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.get(f"{mirror.url}seat/{ann}") as page:
                assert page.status == 200 and "mirror.js" in await page.text()
            async with http.get(f"{mirror.url}api/seat/{ann}/state") as reply:
                mine = await reply.read()
                assert reply.headers["Cache-Control"] == "no-store"
            assert table.state["secrets"][0].encode() in mine
            assert table.state["secrets"][1].encode() not in mine
            assert json.loads(mine)["seat"] == 0
            async with http.ws_connect(f"{mirror.url}api/seat/{ben}/stream") as ws:
                theirs = await next_message(ws)
                assert theirs["view"]["you"]["secret"] == table.state["secrets"][1]
                assert [a["seat"] for a in theirs["actions"]] == [1, 1]
            # Ann's link cannot act for Ben, nor play a public action
            for action, code in [
                ({"type": "enter_goal", "seat": 1, "goal": "cloud-octopus-dragon"}, "other_seat"),
                ({"type": "advance"}, "not_from_phone"),
                ({"type": "undo", "steps": 1}, "not_from_phone"),
                (["enter_goal"], "bad_action"),
            ]:
                async with http.post(f"{mirror.url}api/seat/{ann}/action", json=action) as reply:
                    assert reply.status == 403, action
                    assert (await reply.json())["error"]["code"] == code
            assert table.state["goals"] == [None, None] and table.state["moves"] == 0

    asyncio.run(run())


def test_seat_actions_are_checked_strictly(mirror, hub, table):
    hub.attach(table)
    token = hub.seat_token(1)
    url = f"{mirror.url}api/seat/{token}/action"

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.post(url, data=b"{not json", headers={"Content-Type": "application/json"}) as reply:
                assert reply.status == 400
            async with http.post(url, data=b"goal=x", headers={"Content-Type": "application/x-www-form-urlencoded"}) as reply:
                assert reply.status == 415
            huge = json.dumps({"type": "enter_goal", "seat": 1, "goal": "x" * 40_000}).encode()
            async with http.post(url, data=huge, headers={"Content-Type": "application/json"}) as reply:
                assert reply.status == 413
            async with http.post(url, json={"type": "enter_goal", "seat": 1, "goal": "a castle"}) as reply:
                assert reply.status == 422
                assert (await reply.json())["error"]["message"] == "That is not one of the Goal cards."
            async with http.post(url, json={"type": "enter_goal", "seat": 1, "goal": "moon-mermaid-rocket"}) as reply:
                assert reply.status == 200
            assert table.state["goals"] == [None, "moon-mermaid-rocket"]

    asyncio.run(run())


def test_a_seat_link_dies_with_its_game(mirror, hub, table, secrets_game):
    hub.attach(table)
    token = hub.seat_token(0)
    other = Table.new(table.journal, "mirrortest", {"players": ["Cleo", "Dan"]})

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{mirror.url}api/seat/{token}/stream") as ws:
                assert (await next_message(ws))["seat"] == 0
                await asyncio.get_running_loop().run_in_executor(None, hub.attach, other)
                closing = await asyncio.wait_for(ws.receive(), 5)
                while closing.type == aiohttp.WSMsgType.TEXT:  # a message may still be on its way
                    closing = await asyncio.wait_for(ws.receive(), 5)
                assert ws.close_code == SEAT_GONE
            for path in (f"seat/{token}", f"api/seat/{token}/state"):
                async with http.get(mirror.url + path) as reply:
                    assert reply.status == 404
                    if path.startswith("seat/"):  # a person opened it: words, not JSON
                        assert "This seat link has expired" in await reply.text()
            async with http.post(f"{mirror.url}api/seat/{token}/action", json={"type": "enter_goal", "seat": 0}) as reply:
                assert reply.status == 404

    try:
        asyncio.run(run())
    finally:
        other.close()


def test_connections_are_capped_per_address_and_in_total(hub):
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"], max_clients=3, max_clients_per_address=2),
        hub, port=0, announce=False,
    )
    server.start()

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            first = await http.ws_connect(f"{server.url}api/stream")
            second = await http.ws_connect(f"{server.url}api/stream")
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await http.ws_connect(f"{server.url}api/stream")
            assert refused.value.status == 503
            async with http.get(f"{server.url}api/state") as reply:
                assert reply.status == 503 and reply.headers["Retry-After"] == "5"
            await first.close()
            for _ in range(100):  # the server notices the close at once, but on its own loop
                async with http.get(f"{server.url}api/state") as reply:
                    if reply.status == 200:
                        break
                await asyncio.sleep(0.02)
            assert reply.status == 200
            await second.close()

    try:
        asyncio.run(run())
    finally:
        server.stop()


def test_a_client_that_stops_reading_is_dropped_and_slows_nobody(hub, table):
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"]), hub, port=0, announce=False, send_timeout=0.3,
    )
    server.start()
    hub.attach(table)
    # a phone that completes the handshake and then never reads again (a dead Wi-Fi link)
    stuck = socket.socket()
    stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    stuck.connect(("127.0.0.1", server.port))
    stuck.sendall(
        b"GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        b"Sec-WebSocket-Version: 13\r\n\r\n"
    )
    # make each message large, so the stuck phone's buffers fill after a few
    padding = {"padding": "z" * 500_000}
    original_view = table.rules.view
    table.rules.view = lambda state, seat: {**original_view(state, seat), **padding}  # type: ignore[method-assign]

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{server.url}api/stream", max_msg_size=0) as ws:
                await next_message(ws)
                assert server.clients == 2
                loop = asyncio.get_running_loop()
                for _ in range(30):
                    assert (await loop.run_in_executor(None, table.submit, {"type": "advance"})).accepted
                latest = await message_where(ws, lambda m: m["view"]["moves"] == 30)
                assert latest["seq"] == table.seq
                for _ in range(200):  # the stuck phone is let go after its send times out
                    if server.clients == 1:
                        break
                    await asyncio.sleep(0.02)
                assert server.clients == 1

    try:
        asyncio.run(run())
    finally:
        table.rules.view = original_view  # type: ignore[method-assign]
        stuck.close()
        server.stop()


def test_a_busy_port_is_a_clear_error(hub):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"]), hub, port=taken.getsockname()[1], announce=False
    )
    try:
        with pytest.raises(Exception) as failed:
            server.start()
        assert f"cannot listen on port {taken.getsockname()[1]}" in str(failed.value)
    finally:
        taken.close()


def test_an_interface_must_be_an_address(hub):
    with pytest.raises(Exception) as failed:
        MirrorServer(MirrorConfig(interfaces=["wlan0"]), hub, announce=False)
    assert "'wlan0' is not an IP address" in str(failed.value)


def test_stopping_says_goodbye_to_every_phone_at_once(hub):
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"], max_clients_per_address=16), hub, port=0, announce=False
    )
    server.start()

    async def run() -> None:
        async with aiohttp.ClientSession() as http:
            sockets = [await http.ws_connect(f"{server.url}api/stream") for _ in range(10)]
            for ws in sockets:
                await next_message(ws)
            loop = asyncio.get_running_loop()
            # phones read all the time: they answer the goodbye at once
            closing = [asyncio.ensure_future(ws.receive()) for ws in sockets]
            await loop.run_in_executor(None, server.stop)
            for ws, message in zip(sockets, await asyncio.gather(*closing)):
                assert message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED)
                assert ws.close_code == 1001

    asyncio.run(run())


def test_the_log_gives_the_address_phones_use(hub, caplog):
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"]), hub, port=0, announce=False, host_name="kitchen"
    )
    with caplog.at_level("INFO", logger="companion.net.server"):
        server.start()
        try:
            port = server.port
        finally:
            server.stop()
    serving = [r.getMessage() for r in caplog.records if "mirror: serving" in r.getMessage()]
    assert serving == [
        f"mirror: serving http://127.0.0.1:{port}/ (also http://kitchen.local:{port}/)"
    ]
