"""The touchscreen's Phones screen: the address a phone scans to open the mirror or a seat.

Phones often cannot resolve ``.local`` names, so the QR code holds the Pi's LAN IPv4 address
(``http://192.168.1.23:8080/``); the ``.local`` address is offered as a second line to type.
Addresses are read from the network interfaces; nothing is sent anywhere to find them.

>>> link = phone_link(8080, interfaces=["127.0.0.1"], host_name="kitchen")
>>> link.url, link.local_url
('http://127.0.0.1:8080/', 'http://kitchen.local:8080/')
>>> link.png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import io
import ipaddress
from collections.abc import Sequence
from dataclasses import dataclass

import segno

from companion.net.announce import host_label, local_ipv4_addresses


@dataclass(frozen=True)
class PhoneLink:
    """What the Phones screen shows: the QR code's URL, the ``.local`` URL, the QR as PNG."""

    url: str
    local_url: str
    png: bytes


def lan_ipv4(interfaces: Sequence[str] = ()) -> str:
    """The address phones on the LAN should use.

    The first configured IPv4 address if any; otherwise a private (home network) address of
    this machine, then any other non-loopback one, then loopback.
    """
    for address in interfaces:
        ip = ipaddress.ip_address(address)
        if ip.version == 4 and not ip.is_unspecified:
            return address
    candidates = [ipaddress.ip_address(a) for a in local_ipv4_addresses()]
    outside = [ip for ip in candidates if not ip.is_loopback and not ip.is_link_local]
    private = [ip for ip in outside if ip.is_private]
    for group in (private, outside):
        if group:
            return str(group[0])
    return "127.0.0.1"


def qr_png(text: str, scale: int = 8) -> bytes:
    """A QR code of ``text`` as PNG bytes, dark on white with the standard quiet zone."""
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(buffer, kind="png", scale=scale, border=4)
    return buffer.getvalue()


def phone_link(
    port: int,
    path: str = "/",
    *,
    interfaces: Sequence[str] = (),
    host_name: str | None = None,
    scale: int = 8,
) -> PhoneLink:
    """The Phones screen's link for the mirror (``path="/"``) or a seat (``/seat/<token>``)."""
    if not path.startswith("/"):
        raise ValueError(f"a page path starts with '/', not {path!r}")
    url = f"http://{lan_ipv4(interfaces)}:{port}{path}"
    local_url = f"http://{host_label(host_name)}.local:{port}{path}"
    return PhoneLink(url, local_url, qr_png(url, scale))
