"""Phones: the QR code and address of the mirror page, and each seat's private link.

The QR code holds the Pi's LAN address (phones often cannot resolve ``.local`` names); the
``.local`` address is the second line. A seat link opens that seat's private view (a Somnicum
player's Goal card) and is shown only here, on request.
"""

from __future__ import annotations

import io
from typing import Any

from kivy.core.image import Image as CoreImage
from kivy.properties import StringProperty

from ui import background
from ui.screens.base import BaseScreen
from ui.widgets import button, clear_and_fill


def png_texture(png: bytes) -> Any:
    texture = CoreImage(io.BytesIO(png), ext="png").texture
    texture.mag_filter = "nearest"  # a QR code must stay sharp when scaled up
    texture.min_filter = "nearest"
    return texture


class PhonesScreen(BaseScreen):
    name = "phones"
    headline = StringProperty("")
    address = StringProperty("")
    second_line = StringProperty("")

    def prepare(self, seat: int | None = None, **_: Any) -> None:
        self.show(seat)

    def show(self, seat: int | None = None) -> None:
        services = self.app.services
        server = services.mirror
        self.ids.qr.texture = None
        if server is None:
            self.headline = "The phones' mirror is not running."
            self.address = ""
            self.second_line = services.mirror_problem or (
                "Turn it on with [b][mirror] enabled = true[/b] in the config."
            )
            clear_and_fill(self.ids.seats, [])
            return
        self.headline = "Loading..."

        def link() -> Any:
            return server.phone_link(seat, scale=8)

        def shown(phone_link: Any) -> None:
            self.ids.qr.texture = png_texture(phone_link.png)
            who = self.app.seat_name(seat) if seat is not None else None
            self.headline = (
                f"Only {who} should scan this: it shows their secrets." if who
                else "Scan with a phone on this Wi-Fi to watch the game."
            )
            self.address = phone_link.url
            self.second_line = f"or type {phone_link.local_url}"
            self.show_seat_buttons(seat)

        def failed(error: BaseException) -> None:
            self.headline = "The link cannot be made."
            self.address = ""
            self.second_line = str(error)
            self.show_seat_buttons(None)

        background.later(link, shown, failed)

    def show_seat_buttons(self, current: int | None) -> None:
        seats = self.app.seat_names()
        rows = []
        if seats:
            rows.append(button("Everyone's page", lambda *_: self.show(None),
                               tone="accent" if current is None else "normal"))
            for index, name in enumerate(seats):
                rows.append(button(f"{name}'s private page", lambda w: self.show(w.payload), payload=index,
                                   tone="accent" if current == index else "normal"))
        clear_and_fill(self.ids.seats, rows)
