"""Walk the seat lights, pulse the Daemon's red light, chirp the buzzer: wiring check for lights.

Uses the [lights] section of your config, or the default layout of docs/HARDWARE.md.

    python examples/lights_cycle.py
"""

from __future__ import annotations

import dataclasses
import time

from companion.config import load_config
from companion.logs import setup_logging
from hardware.lights import LightSignals, Lights

setup_logging("INFO")
config = load_config()
if not config.lights:
    config = dataclasses.replace(config, lights={"layout": "default"})

lights = Lights.open(config)
if not lights.active:
    raise SystemExit("No GPIO here: see the log line above, or set GPIOZERO_PIN_FACTORY")

for seat in range(4):
    print(f"seat {seat + 1}'s turn")
    lights.show(LightSignals(active_seat=seat))
    time.sleep(1.0)
print("the Daemon's turn")
lights.show(LightSignals(daemon_turn=True))
time.sleep(6.0)
print("a character is caged, then the game ends")
lights.show(LightSignals(chirps=1))
time.sleep(1.0)
lights.show(LightSignals(chirps=3))
time.sleep(1.0)
lights.close()
