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
"""

from __future__ import annotations

from companion.net.hub import MirrorHub, SeatRefused, Snapshot
from companion.net.phones import PhoneLink, phone_link
from companion.net.server import MirrorError, MirrorServer

__all__ = [
    "MirrorError",
    "MirrorHub",
    "MirrorServer",
    "PhoneLink",
    "SeatRefused",
    "Snapshot",
    "phone_link",
]
