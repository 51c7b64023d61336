"""The mirror's web server: the page phones open, the public state, the live stream, the seats.

An aiohttp application on its own asyncio loop in its own thread, so the Kivy app (or
``companion serve``) only calls ``start()`` and ``stop()``. It reads a ``MirrorHub``:

    GET  /                         the mirror page (static HTML, CSS, JS; no CDN, no build step)
    GET  /static/<name>            the page's files (a fixed list; nothing else is reachable)
    GET  /api/state                the public message as JSON
    GET  /api/stream               WebSocket: the public message now and after every change
    GET  /seat/<token>             the same page for one seat
    GET  /api/seat/<token>/state   that seat's message (its own private view)
    GET  /api/seat/<token>/stream  WebSocket for that seat
    POST /api/seat/<token>/action  a private action for that seat (a Somnicum Goal card)

Every client has one sender task that always sends the newest message and skips the ones it
was too slow to take, with a time limit per send: a slow or dead phone costs the Table nothing
and is dropped. Streams and requests in flight are capped per address and in total.

>>> from companion.config import MirrorConfig
>>> server = MirrorServer(MirrorConfig(interfaces=["127.0.0.1"]), MirrorHub(), port=0, announce=False)
>>> server.start(); server.url.startswith("http://127.0.0.1:"); server.stop()
True
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from companion.config import Config, MirrorConfig
from companion.net.announce import Announcer, host_label, txt_record
from companion.net.hub import MirrorHub, SeatRefused, Snapshot, to_json_bytes
from companion.net.phones import PhoneLink, phone_link

log = logging.getLogger(__name__)

STATIC_FILES = {
    "index.html": "text/html; charset=utf-8",
    "mirror.css": "text/css; charset=utf-8",
    "mirror.js": "text/javascript; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
TOKEN_PATTERN = r"[A-Za-z0-9_-]{16,64}"
MAX_BODY = 16 * 1024  # the largest request body anyone may send (an action is far smaller)
SEAT_GONE = 4404  # WebSocket close code: this seat link belongs to a game no longer shown

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    # seat links carry their token in the path; it must never leave in a Referer header
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}


# A seat link of a game no longer shown, opened afresh: said in words, not JSON.
EXPIRED_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dreamtable</title><link rel="stylesheet" href="/static/mirror.css"></head>
<body><main><section class="card idle"><div class="moon" aria-hidden="true">&#9790;</div>
<h1>This seat link has expired</h1>
<p>It belonged to a game that is no longer on the table. Scan the new code on the table's
Phones screen.</p><p><a href="/">Follow the table without a seat</a></p></section></main></body>
</html>
""".encode()


class MirrorError(RuntimeError):
    """The mirror could not start (a port already taken, a bad interface address)."""


def _check_interfaces(interfaces: list[str]) -> list[str]:
    for address in interfaces:
        try:
            ipaddress.ip_address(address)
        except ValueError:
            raise MirrorError(
                f"[mirror] interfaces: {address!r} is not an IP address (e.g. \"127.0.0.1\")"
            ) from None
    return interfaces


class MirrorServer:
    """The mirror page and its announcement, run beside the app.

    ``config`` is the whole ``Config`` or its ``mirror`` section; ``port`` and ``interfaces``
    override it (``port=0`` picks a free port, for tests). ``announce=False`` leaves zeroconf
    off. ``send_timeout`` is how long one phone may take to accept one message before it is
    dropped; ``heartbeat`` how often an idle stream says it is alive.
    """

    def __init__(
        self,
        config: Config | MirrorConfig,
        hub: MirrorHub,
        *,
        port: int | None = None,
        interfaces: list[str] | None = None,
        announce: bool = True,
        host_name: str | None = None,
        send_timeout: float = 5.0,
        heartbeat: float = 15.0,
    ) -> None:
        mirror = config.mirror if isinstance(config, Config) else config
        self.hub = hub
        self.port = mirror.port if port is None else port
        self.interfaces = _check_interfaces(list(mirror.interfaces if interfaces is None else interfaces))
        self.max_clients = mirror.max_clients
        self.max_clients_per_address = mirror.max_clients_per_address
        self.announce = announce
        self.host_name = host_name
        self.send_timeout = send_timeout
        self.heartbeat = heartbeat
        self.announcer: Announcer | None = None
        self._static: dict[str, bytes] = {}
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: web.AppRunner | None = None
        self._ready = threading.Event()
        self._start_error: BaseException | None = None
        self._stopped: asyncio.Event | None = None
        self._latest: Snapshot = hub.snapshot()
        self._changed: asyncio.Event | None = None
        self._unlisten: Callable[[], None] | None = None
        self._in_flight: Counter[str] = Counter()
        self._total = 0
        self._sockets: set[web.WebSocketResponse] = set()
        self._txt_wake: asyncio.Event | None = None
        self._background: set[asyncio.Task[Any]] = set()

    # -- the face the app uses ---------------------------------------------------------------

    @property
    def url(self) -> str:
        host = self.interfaces[0] if self.interfaces else "127.0.0.1"
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    @property
    def clients(self) -> int:
        """Streams and requests being served right now."""
        return self._total

    def start(self) -> None:
        """Starts serving (and announcing); returns once the port is open."""
        if self._thread is not None:
            raise MirrorError("the mirror is already running")
        self._static = {
            name: resources.files("companion.net.static").joinpath(name).read_bytes()
            for name in STATIC_FILES
        }
        self._ready.clear()
        self._thread = threading.Thread(target=self._run, name="mirror", daemon=True)
        self._thread.start()
        self._ready.wait()
        if self._start_error is not None:
            self._thread.join()
            self._thread = None
            error, self._start_error = self._start_error, None
            if isinstance(error, MirrorError):
                raise error
            raise MirrorError(f"the mirror could not start on port {self.port}: {error}") from error

    def stop(self) -> None:
        """Says goodbye over zeroconf, closes every stream and the port; safe to call twice."""
        thread, loop = self._thread, self._loop
        if thread is None or loop is None:
            return
        if self._stopped is not None:
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(self._stopped.set)
        thread.join()
        self._thread = None

    def phone_link(self, seat: int | None = None, scale: int = 8) -> PhoneLink:
        """The QR target for the mirror, or for one seat of the game now shown."""
        path = "/" if seat is None else f"/seat/{self.hub.seat_token(seat)}"
        return phone_link(
            self.port, path, interfaces=self.interfaces, host_name=self.host_name, scale=scale
        )

    @property
    def local_name(self) -> str:
        """The ``.local`` host name the mirror is announced under."""
        if self.announcer is not None:
            return self.announcer.server.rstrip(".")
        return f"{host_label(self.host_name)}.local"

    # -- the loop thread ---------------------------------------------------------------------

    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        asyncio.set_event_loop(loop)
        try:
            loop.run_until_complete(self._serve())
        except BaseException as err:  # reported to start() or logged; the thread must end
            if not self._ready.is_set():
                self._start_error = err
            else:
                log.exception("mirror: stopped on an error")
        finally:
            self._ready.set()
            with contextlib.suppress(Exception):
                loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()
            self._loop = None

    async def _serve(self) -> None:
        self._stopped = asyncio.Event()
        self._changed = asyncio.Event()
        self._txt_wake = asyncio.Event()
        loop = asyncio.get_running_loop()
        self._latest = self.hub.snapshot()
        self._unlisten = self.hub.listen(
            lambda snapshot: self._from_thread(loop, snapshot)
        )
        try:
            await self._open()
            if self.announce:
                self.announcer = Announcer(
                    self.port, interfaces=self.interfaces, host_name=self.host_name
                )
                # probing a name takes about two seconds: the page is served meanwhile
                self._spawn(self._announce())
            self._ready.set()
            # the address phones use (the LAN's, not loopback when every interface is bound)
            link = self.phone_link()
            log.info("mirror: serving %s (also %s)", link.url, link.local_url)
            await self._stopped.wait()
        finally:
            if self._unlisten is not None:
                self._unlisten()
            await self._close()

    async def _open(self) -> None:
        app = web.Application(client_max_size=MAX_BODY, middlewares=[self._limits])
        app.on_response_prepare.append(self._headers)
        app.router.add_get("/", self._page)
        app.router.add_get("/static/{name}", self._static_file)
        app.router.add_get("/api/state", self._state)
        app.router.add_get("/api/stream", self._stream)
        app.router.add_get(f"/seat/{{token:{TOKEN_PATTERN}}}", self._seat_page)
        app.router.add_get(f"/api/seat/{{token:{TOKEN_PATTERN}}}/state", self._seat_state)
        app.router.add_get(f"/api/seat/{{token:{TOKEN_PATTERN}}}/stream", self._seat_stream)
        app.router.add_post(f"/api/seat/{{token:{TOKEN_PATTERN}}}/action", self._seat_action)
        # access_log off: seat links carry their token in the path
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, keepalive_timeout=15, shutdown_timeout=1
        )
        await self._runner.setup()
        hosts: list[str | None] = list(self.interfaces) or [None]
        try:
            for host in hosts:
                site = web.TCPSite(self._runner, host, self.port)
                await site.start()
                if self.port == 0:  # the first site picked a free port; the others share it
                    self.port = int(self._runner.addresses[0][1])
        except OSError as err:
            await self._runner.cleanup()
            where = ", ".join(h or "every interface" for h in hosts)
            raise MirrorError(f"the mirror cannot listen on port {self.port} ({where}): {err.strerror or err}") from err

    async def _close(self) -> None:
        for task in list(self._background):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.announcer is not None:
            try:
                await self.announcer.stop()
            except Exception:
                log.exception("mirror: zeroconf goodbye failed")
        # every stream handler sees the stop and says goodbye itself (close code 1001)
        deadline = asyncio.get_running_loop().time() + 2
        while self._sockets and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    def _spawn(self, coro: Awaitable[Any]) -> None:
        task = asyncio.ensure_future(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _from_thread(self, loop: asyncio.AbstractEventLoop, snapshot: Snapshot) -> None:
        # called on whichever thread changed the hub (the Table's subscriber thread)
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody to tell
            loop.call_soon_threadsafe(self._changed_on_loop, snapshot)

    def _changed_on_loop(self, snapshot: Snapshot) -> None:
        if snapshot.version < self._latest.version:
            return
        self._latest = snapshot
        assert self._changed is not None and self._txt_wake is not None
        # wake every sender at once, then give the next change a fresh event to wait on
        changed, self._changed = self._changed, asyncio.Event()
        changed.set()
        self._txt_wake.set()

    def _txt(self, snapshot: Snapshot) -> dict[str, str]:
        return txt_record(snapshot.summary, snapshot.status, snapshot.game)

    async def _announce(self) -> None:
        assert self._txt_wake is not None and self.announcer is not None
        try:
            await self.announcer.start(self._txt(self._latest))
        except Exception:
            log.exception("mirror: the zeroconf announcement failed; the page is still served")
            return
        while True:
            await self._txt_wake.wait()
            self._txt_wake.clear()
            try:
                await self.announcer.update(self._txt(self._latest))
            except Exception:
                log.exception("mirror: zeroconf update failed")

    # -- middleware and headers --------------------------------------------------------------

    @web.middleware
    async def _limits(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        peer = request.remote or "?"
        if self._total >= self.max_clients or self._in_flight[peer] >= self.max_clients_per_address:
            return web.json_response(
                {"error": "too_many_clients", "message": "Too many phones are connected; try again soon."},
                status=503,
                headers={"Retry-After": "5"},
            )
        self._total += 1
        self._in_flight[peer] += 1
        try:
            return await handler(request)
        finally:
            self._total -= 1
            self._in_flight[peer] -= 1
            if self._in_flight[peer] <= 0:
                del self._in_flight[peer]

    async def _headers(self, request: web.Request, response: web.StreamResponse) -> None:
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        response.headers.setdefault("Cache-Control", "no-store")

    # -- handlers ----------------------------------------------------------------------------

    def _file(self, name: str) -> web.Response:
        return web.Response(
            body=self._static[name], headers={"Content-Type": STATIC_FILES[name]}
        )

    async def _page(self, request: web.Request) -> web.Response:
        return self._file("index.html")

    async def _static_file(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._static:  # a fixed list: no path ever reaches the file system
            raise web.HTTPNotFound(text="no such file\n")
        return self._file(name)

    async def _state(self, request: web.Request) -> web.Response:
        return web.Response(body=self._latest.public, content_type="application/json")

    async def _stream(self, request: web.Request) -> web.StreamResponse:
        return await self._run_stream(request, lambda snapshot: snapshot.public)

    def _seat(self, request: web.Request) -> int:
        seat = self.hub.seat_for(request.match_info["token"])
        if seat is None:
            raise web.HTTPNotFound(
                text=json.dumps(
                    {"error": "unknown_seat", "message": "This seat link is not valid for the game now played."}
                ),
                content_type="application/json",
            )
        return seat

    async def _seat_page(self, request: web.Request) -> web.Response:
        if self.hub.seat_for(request.match_info["token"]) is None:
            return web.Response(status=404, body=EXPIRED_PAGE, content_type="text/html", charset="utf-8")
        return self._file("index.html")

    async def _seat_state(self, request: web.Request) -> web.Response:
        seat = self._seat(request)
        return web.Response(
            body=self.hub.seat_message(self._latest, seat), content_type="application/json"
        )

    async def _seat_stream(self, request: web.Request) -> web.StreamResponse:
        token = request.match_info["token"]
        seat = self._seat(request)

        def encode(snapshot: Snapshot) -> bytes | None:
            if self.hub.seat_for(token) != seat:
                return None  # the game changed: this link is dead
            return self.hub.seat_message(snapshot, seat)

        return await self._run_stream(request, encode)

    async def _seat_action(self, request: web.Request) -> web.Response:
        token = request.match_info["token"]
        self._seat(request)
        if request.content_type != "application/json":
            return _refusal("bad_request", "Send the action as application/json.", 415)
        if request.content_length is not None and request.content_length > MAX_BODY:
            return _refusal("too_large", "That request is too large.", 413)
        try:
            action = json.loads(await request.read())
        except (ValueError, UnicodeDecodeError):
            return _refusal("bad_request", "The action is not valid JSON.", 400)
        except web.HTTPRequestEntityTooLarge:
            return _refusal("too_large", "That request is too large.", 413)
        loop = asyncio.get_running_loop()
        try:
            # Table.submit blocks until the action is applied: keep it off the loop
            outcome = await loop.run_in_executor(None, self.hub.submit, token, action)
        except SeatRefused as refused:
            return _refusal(refused.code, refused.message, 403)
        if not getattr(outcome, "accepted", False):
            error = getattr(outcome, "error", None)
            body = error.to_json() if hasattr(error, "to_json") else {"code": "refused", "message": str(error)}
            return web.json_response({"accepted": False, "error": body}, status=422)
        return web.json_response({"accepted": True, "seq": getattr(outcome, "seq", None)})

    async def _run_stream(
        self, request: web.Request, encode: Callable[[Snapshot], bytes | None]
    ) -> web.StreamResponse:
        ws = web.WebSocketResponse(
            heartbeat=self.heartbeat, compress=False, max_msg_size=1024, timeout=2
        )
        await ws.prepare(request)
        self._sockets.add(ws)
        receiver = asyncio.ensure_future(self._ignore_incoming(ws))
        sender = asyncio.ensure_future(self._send_newest(ws, encode, request.transport))
        assert self._stopped is not None
        stopping = asyncio.ensure_future(self._stopped.wait())
        try:
            await asyncio.wait({receiver, sender, stopping}, return_when=asyncio.FIRST_COMPLETED)
            for task in (receiver, sender, stopping):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            ending = sender.result() if sender.done() and not sender.cancelled() else None
            if ending == "slow":
                # it could not take one message in send_timeout: no goodbye, it would not read one
                if request.transport is not None:
                    request.transport.abort()
            elif not ws.closed:
                if ending == "gone":
                    code, why = SEAT_GONE, b"this seat link has expired"
                elif self._stopped.is_set():
                    code, why = 1001, b"the table is closing the mirror"
                else:
                    code, why = 1000, b""
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(ws.close(code=code, message=why), 2)
        finally:
            self._sockets.discard(ws)
        return ws

    async def _ignore_incoming(self, ws: web.WebSocketResponse) -> None:
        # phones only ever send pings (answered by aiohttp) and closes; anything else is ignored
        async for message in ws:
            if message.type == WSMsgType.ERROR:
                return

    async def _send(
        self, ws: web.WebSocketResponse, transport: asyncio.BaseTransport | None, data: bytes
    ) -> None:
        """One text frame, given at most ``send_timeout`` when the phone is behind."""
        if isinstance(transport, asyncio.WriteTransport):
            _low, high = transport.get_write_buffer_limits()
            if transport.get_write_buffer_size() == 0 and len(data) < high:
                # the phone has taken everything so far and this frame cannot pause the
                # transport, so the write cannot wait: no timer needed (it costs at 100 phones)
                await ws.send_frame(data, WSMsgType.TEXT)
                return
        async with asyncio.timeout(self.send_timeout):
            await ws.send_frame(data, WSMsgType.TEXT)

    async def _send_newest(
        self,
        ws: web.WebSocketResponse,
        encode: Callable[[Snapshot], bytes | None],
        transport: asyncio.BaseTransport | None,
    ) -> str:
        """Sends the newest message whenever there is one; returns why it stopped."""
        sent = -1
        try:
            while not ws.closed:
                snapshot = self._latest
                if snapshot.version != sent:
                    data = encode(snapshot)
                    if data is None:
                        return "gone"
                    await self._send(ws, transport, data)
                    sent = snapshot.version
                    continue
                assert self._changed is not None
                try:
                    async with asyncio.timeout(self.heartbeat):
                        await self._changed.wait()
                except TimeoutError:
                    await self._send(ws, transport, to_json_bytes({"heartbeat": True, "version": sent}))
        except TimeoutError:
            return "slow"  # it reconnects by itself once its link recovers, and gets the newest
        except (ConnectionError, RuntimeError):
            return "closed"
        return "closed"


def _refusal(code: str, message: str, status: int) -> web.Response:
    return web.json_response({"accepted": False, "error": {"code": code, "message": message}}, status=status)
