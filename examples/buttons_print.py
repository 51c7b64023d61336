"""Print each press of the button panel: wiring check for a Pi owner.

Uses the [buttons] section of your config, or the default layout of docs/HARDWARE.md when it has
none. Press Ctrl+C to stop. Try holding `back` for a second: it sends `undo`.

    python examples/buttons_print.py
"""

from __future__ import annotations

import dataclasses

from companion.config import load_config
from companion.logs import setup_logging
from hardware.buttons import ButtonPanel
from hardware.inputs import InputQueue

setup_logging("INFO")
config = load_config()
if not config.buttons:
    config = dataclasses.replace(config, buttons={"layout": "default"})

inputs = InputQueue()
panel = ButtonPanel.open(config, inputs)
if not panel.active:
    raise SystemExit("No GPIO here: see the log line above, or set GPIOZERO_PIN_FACTORY")
for spec in panel.specs:
    print(f"{spec.name:>9}: GPIO{spec.pin} (pin {spec.physical_pin})")

try:
    while True:
        event = inputs.get()
        if event is not None:
            seat = f" {event.seat + 1}" if event.seat is not None else ""
            print(f"{event.control}{seat}" + ("  (held)" if event.long else ""))
except KeyboardInterrupt:
    panel.close()
