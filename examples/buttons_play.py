"""A CHAINsomnia game from the button panel (or typed key names without GPIO), kept in memory.

    python examples/buttons_play.py
"""

from __future__ import annotations

import dataclasses

from companion.config import load_config
from companion.focus import Focus, press_on_table, seat_names_from_view
from companion.journal import Journal
from companion.table import Table
from hardware.buttons import ButtonPanel
from hardware.inputs import InputQueue
from hardware.keyboard import input_for_key

config = load_config()
if not config.buttons:
    config = dataclasses.replace(config, buttons={"layout": "default"})
table = Table.new(Journal(":memory:"), "chainsomnia", {"players": 2, "mode": "beginner"})
focus = Focus.of(table.legal_actions(), seat_names=seat_names_from_view(table.view()))
inputs = InputQueue()
panel = ButtonPanel.open(config, inputs)
if not panel.active:
    print("No GPIO: type a key per line (enter, backspace, right, left, space, r, u, 1-4)")

while not table.over:
    print(" / ".join(focus.breadcrumb()) or "Choose:", *[("> " if i == focus.index else "  ")
          + o.label for i, o in enumerate(focus.menu())], sep="\n  ")
    try:
        event = inputs.get() if panel.active else input_for_key(input("key? ").strip() or "enter")
    except (EOFError, KeyboardInterrupt):
        break
    if event is None:
        continue
    focus, effect, outcome = press_on_table(table, focus, event.control, event.seat,
                                            source=event.source)
    if outcome is not None:
        print(outcome.text if outcome.accepted else f"Refused: {outcome.error.message}")
    elif effect.note:
        print(effect.note)
print(table.result() or "Game left unfinished.")
