"""Phones at the table: the live mirror page, private seat views, and the zeroconf announcement.

The mirror is a Table subscriber. ``MirrorHub`` turns the Table's updates into the messages
phones receive; ``MirrorServer`` serves them (aiohttp, on its own loop and thread) and announces
itself over zeroconf; ``phone_link`` gives the Phones screen its QR code.

    hub = MirrorHub()
    server = MirrorServer(config, hub)
    server.start()
    hub.attach(table)                  # when a game starts or resumes; hub.detach() when it ends
    link = server.phone_link()         # link.url, link.local_url, link.png (QR code)
    seat = server.phone_link(seat=0)   # a private seat page of the game now shown
    server.stop()

The names are imported on first use, so ``companion`` commands that never serve do not pay
for aiohttp and zeroconf.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from companion.net.hub import MirrorHub, SeatRefused, Snapshot
    from companion.net.phones import PhoneLink, phone_link
    from companion.net.server import MirrorError, MirrorServer

_WHERE = {
    "MirrorHub": "companion.net.hub",
    "SeatRefused": "companion.net.hub",
    "Snapshot": "companion.net.hub",
    "PhoneLink": "companion.net.phones",
    "phone_link": "companion.net.phones",
    "MirrorError": "companion.net.server",
    "MirrorServer": "companion.net.server",
}

__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'companion.net' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
