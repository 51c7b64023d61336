"""zeroconf on loopback: a python-zeroconf browser finds the mirror, reads and follows its TXT."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator

import pytest
from zeroconf import ServiceBrowser, ServiceStateChange, Zeroconf

from companion import __version__
from companion.config import MirrorConfig
from companion.net import MirrorServer
from companion.net.announce import SERVICE_TYPES, host_label


class Watcher:
    """Records what a zeroconf browser bound to 127.0.0.1 hears about our services."""

    def __init__(self, zc: Zeroconf) -> None:
        self.zc = zc
        self.lock = threading.Lock()
        self.present: dict[str, str] = {}  # name -> type
        self.removed: set[str] = set()
        self.updates: list[str] = []

    def __call__(self, zeroconf: Zeroconf, service_type: str, name: str, state_change: ServiceStateChange) -> None:
        with self.lock:
            if state_change is ServiceStateChange.Removed:
                self.present.pop(name, None)
                self.removed.add(name)
            else:
                self.present[name] = service_type
                if state_change is ServiceStateChange.Updated:
                    self.updates.append(name)

    def txt(self, name: str) -> dict[str, str]:
        info = self.zc.get_service_info(self.present.get(name) or name.split(".", 1)[1], name, timeout=3000)
        assert info is not None, name
        return {k: v for k, v in info.decoded_properties.items() if v is not None}

    def ours(self, host: str) -> list[str]:
        with self.lock:
            return sorted(n for n in self.present if n.startswith(f"Dreamtable on {host}"))


@pytest.fixture
def watcher() -> Iterator[Watcher]:
    """A zeroconf browser on loopback only, for both service types."""
    zc = Zeroconf(interfaces=["127.0.0.1"])
    watcher = Watcher(zc)
    browser = ServiceBrowser(zc, list(SERVICE_TYPES), handlers=[watcher])
    yield watcher
    browser.cancel()
    zc.close()


def test_both_services_are_found_followed_and_removed(hub, table, watcher, until):
    host = f"dt-{secrets.token_hex(4)}"  # so parallel runs on one machine do not meet
    server = MirrorServer(
        MirrorConfig(interfaces=["127.0.0.1"]), hub, port=0, host_name=host
    )
    server.start()
    try:
        names = until(lambda: len(watcher.ours(host)) == 2 and watcher.ours(host), timeout=10)
        assert {name.split(".", 1)[1] for name in names} == set(SERVICE_TYPES)
        for name in names:
            txt = watcher.txt(name)
            assert txt == {"path": "/", "game": "none", "state": "idle", "version": __version__}
        info = watcher.zc.get_service_info("_dreamtable._tcp.local.", f"Dreamtable on {host}._dreamtable._tcp.local.")
        assert info is not None and info.port == server.port
        assert info.parsed_addresses() == ["127.0.0.1"] and info.server == f"{host}.local."
        # a game starts: the TXT record says so
        hub.attach(table)
        until(lambda: watcher.txt(names[0]).get("game") == "mirrortest", timeout=10)
        txt = watcher.txt(f"Dreamtable on {host}._http._tcp.local.")
        assert txt["state"] == "playing" and txt["round"] == "1" and txt["players"] == "2"
        assert watcher.updates
        # and the round moves on
        table.submit({"type": "advance"})
        table.submit({"type": "advance"})
        until(lambda: watcher.txt(names[1]).get("round") == "2", timeout=10)
    finally:
        server.stop()
    until(lambda: set(names) <= watcher.removed, timeout=10)
    assert watcher.ours(host) == []


def test_the_host_name_becomes_one_dns_label():
    assert host_label("kitchen-pi.example.org") == "kitchen-pi"
    assert host_label("Table One") == "Table-One"
    assert host_label("...") == "dreamtable"
