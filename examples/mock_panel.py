"""The button panel without a Pi: gpiozero's mock pins pressed by the program itself.

Shows what the app receives for a tap, a bouncing contact, and a long hold of `back`.

    python examples/mock_panel.py
"""

from __future__ import annotations

import time

from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.config import load_config_text
from hardware.buttons import ButtonPanel
from hardware.inputs import InputQueue

Device.pin_factory = MockFactory()
inputs = InputQueue()
panel = ButtonPanel.open(load_config_text('[buttons]\nlayout = "default"'), inputs)
confirm, back = Device.pin_factory.pin(17), Device.pin_factory.pin(27)


def show(what: str) -> None:
    time.sleep(0.1)
    print(f"{what:<32} -> {[e.control for e in inputs.drain()]}")


confirm.drive_low(); confirm.drive_high(); show("tap confirm")  # noqa: E702
for _ in range(5):  # a contact bouncing for 5 ms
    confirm.drive_low(); confirm.drive_high()  # noqa: E702
show("bouncing confirm")
back.drive_low(); time.sleep(0.2); back.drive_high(); show("short press of back")  # noqa: E702
back.drive_low(); time.sleep(1.3); back.drive_high(); show("hold back for 1.3 s")  # noqa: E702
panel.close()
