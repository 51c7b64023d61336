"""zeroconf: how phones and other tables find the mirror on the LAN without typing an address.

The mirror is announced twice, as ``_http._tcp.local.`` (so generic discovery apps list it) and
as ``_dreamtable._tcp.local.`` (so Dreamtable tools can look for tables only). The instance name
comes from the host name; python-zeroconf renames it ("... -2") when another table already uses
it. The TXT record says where the page is and what is being played, and is re-announced when
that changes; both services say goodbye when the mirror stops.

The announcer runs on the mirror's asyncio loop (see ``server.py``).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import socket
from collections.abc import Mapping, Sequence
from typing import Any

import ifaddr
from zeroconf import IPVersion
from zeroconf.asyncio import AsyncServiceInfo, AsyncZeroconf

from companion import __version__

log = logging.getLogger(__name__)

SERVICE_TYPES = ("_http._tcp.local.", "_dreamtable._tcp.local.")
TXT_KEYS = ("path", "game", "state", "round", "players", "version")


def host_label(host_name: str | None = None) -> str:
    """The host name as one DNS label (``raspberrypi``), safe for ``<label>.local.``."""
    name = (host_name or socket.gethostname() or "dreamtable").split(".")[0]
    label = "".join(c if c.isalnum() or c == "-" else "-" for c in name).strip("-")
    return (label or "dreamtable")[:63]


def local_ipv4_addresses() -> list[str]:
    """Every IPv4 address of this machine's interfaces (ifaddr, which python-zeroconf uses)."""
    return [ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if isinstance(ip.ip, str)]


def announced_addresses(interfaces: Sequence[str] = ()) -> list[str]:
    """The IPv4 addresses to announce: the configured ones, or every non-loopback one.

    A machine with no LAN address at all announces loopback, so the mirror still works on it.
    """
    if interfaces:
        return [a for a in interfaces if ipaddress.ip_address(a).version == 4] or list(interfaces)
    found = [a for a in local_ipv4_addresses() if not ipaddress.ip_address(a).is_loopback]
    return found or ["127.0.0.1"]


def txt_record(summary: Mapping[str, Any], status: str, game: str | None, path: str = "/") -> dict[str, str]:
    """The TXT properties for a game summary (``hub.game_summary``) and status."""
    txt = {
        "path": path,
        "game": game or "none",
        "state": status,
        "version": __version__,
    }
    if "round" in summary:
        txt["round"] = str(summary["round"])
    if "players" in summary:
        txt["players"] = str(summary["players"])
    return txt


class Announcer:
    """Announces the mirror on ``port`` over mDNS; ``start``/``update``/``stop`` on one loop.

    >>> Announcer(8080, interfaces=["127.0.0.1"], host_name="kitchen").instance
    'Dreamtable on kitchen'
    """

    def __init__(
        self,
        port: int,
        *,
        interfaces: Sequence[str] = (),
        host_name: str | None = None,
    ) -> None:
        self.port = port
        self.interfaces = list(interfaces)
        self.host = host_label(host_name)
        self.instance = f"Dreamtable on {self.host}"
        self.server = f"{self.host}.local."
        self._zeroconf: AsyncZeroconf | None = None
        self._infos: list[AsyncServiceInfo] = []
        self._txt: dict[str, str] = {}

    @property
    def names(self) -> list[str]:
        """The registered service names (after any renaming)."""
        return [info.name for info in self._infos]

    def _info(self, type_: str, name: str, txt: Mapping[str, str]) -> AsyncServiceInfo:
        addresses = announced_addresses(self.interfaces)
        return AsyncServiceInfo(
            type_,
            name,
            parsed_addresses=addresses,
            port=self.port,
            properties=dict(txt),
            server=self.server,
        )

    async def start(self, txt: Mapping[str, str]) -> None:
        """Registers both services; returns once they are announced."""
        interfaces: Any = self.interfaces or None
        if interfaces is None:
            self._zeroconf = AsyncZeroconf(ip_version=IPVersion.V4Only)
        else:
            self._zeroconf = AsyncZeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
        self._txt = dict(txt)
        infos = [self._info(t, f"{self.instance}.{t}", self._txt) for t in SERVICE_TYPES]
        # both probe at once; allow_name_change: a second table becomes "Dreamtable on pi-2"
        waiters = await asyncio.gather(
            *(self._zeroconf.async_register_service(i, allow_name_change=True) for i in infos)
        )
        self._infos = infos  # registered: from now on stop() says goodbye for them
        await asyncio.gather(*waiters)
        log.info("zeroconf: announced %s", ", ".join(self.names))

    async def update(self, txt: Mapping[str, str]) -> bool:
        """Re-announces with new TXT properties; False when nothing changed."""
        if self._zeroconf is None or dict(txt) == self._txt:
            return False
        self._txt = dict(txt)
        fresh = [self._info(info.type, info.name, self._txt) for info in self._infos]
        waiters = [await self._zeroconf.async_update_service(info) for info in fresh]
        await asyncio.gather(*waiters)
        self._infos = fresh
        return True

    async def stop(self) -> None:
        """Says goodbye for both services and closes the sockets."""
        zc, self._zeroconf = self._zeroconf, None
        if zc is None:
            return
        try:
            waiters = [await zc.async_unregister_service(info) for info in self._infos]
            await asyncio.gather(*waiters)
        finally:
            self._infos = []
            await zc.async_close()
