"""The Phones screen's link: the LAN address a phone scans, as a QR code that really decodes."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.net.phones import lan_ipv4, phone_link, qr_png


def decode(png: bytes) -> str:
    """The text a QR code holds, as two of OpenCV's decoders read it: the classic one misses
    about one random seat link in sixty (7 of 400) that the ArUco-based one reads, as a phone
    does; neither returns text the code does not hold."""
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_GRAYSCALE)
    assert image is not None, "not a PNG"
    for detector in (cv2.QRCodeDetectorAruco(), cv2.QRCodeDetector()):
        text, _points, _ = detector.detectAndDecode(image)
        if text:
            return text
    return ""


def test_the_qr_code_holds_the_lan_address_and_the_local_name_is_the_second_line():
    link = phone_link(8080, interfaces=["127.0.0.1"], host_name="kitchen.lan")
    assert link.url == "http://127.0.0.1:8080/"
    assert link.local_url == "http://kitchen.local:8080/"
    assert decode(link.png) == link.url


def test_a_seat_link_is_its_own_qr_code(mirror, hub, table):
    hub.attach(table)
    link = mirror.phone_link(seat=1)
    token = hub.seat_token(1)
    assert link.url == f"http://127.0.0.1:{mirror.port}/seat/{token}"
    assert decode(link.png) == link.url
    assert mirror.phone_link().url == f"http://127.0.0.1:{mirror.port}/"


def test_without_a_game_there_is_no_seat_to_link(mirror):
    with pytest.raises(LookupError):
        mirror.phone_link(seat=0)


def test_the_configured_address_wins_and_ipv6_is_not_put_in_a_qr_code():
    assert lan_ipv4(["::1", "127.0.0.1"]) == "127.0.0.1"
    # with no interface configured, some IPv4 address of this machine (loopback at worst)
    assert lan_ipv4([]).count(".") == 3


def test_a_page_path_must_be_absolute():
    with pytest.raises(ValueError):
        phone_link(8080, "seat/abc", interfaces=["127.0.0.1"])
    assert qr_png("x")[:8] == b"\x89PNG\r\n\x1a\n"
