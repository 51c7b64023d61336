"""The focus model on its own: how next / confirm / back walk through the legal actions.

No hardware: the presses are written out. The app feeds the same presses from the panel, the
keyboard or the touchscreen.

    python examples/focus_walk.py
"""

from __future__ import annotations

from companion.focus import Focus, route_to

legal = [
    {"type": "move", "character": "chloe", "to": [1, 0]},
    {"type": "move", "character": "chloe", "to": [0, 1]},
    {"type": "ability", "character": "ryan", "target": "chloe", "to": [2, 2]},
    {"type": "ability", "character": "ryan", "target": "isaac", "to": [2, 2]},
    {"type": "end_turn"},
]
focus = Focus.of(legal, seat_names={"chloe": 0, "ryan": 1, "isaac": 2})


def show(focus: Focus) -> None:
    lines = [("> " if i == focus.index else "  ") + o.label for i, o in enumerate(focus.menu())]
    print(" / ".join(focus.breadcrumb()) or "(top)", "|", "  ".join(lines))


show(focus)
for control, seat in [("next", None), ("confirm", None), ("seat", 2), ("back", None),
                      ("previous", None), ("confirm", None)]:
    focus, effect = focus.press(control, seat)
    print(f"{control:>8}: {effect.kind} {effect.action or effect.note}")
    show(focus)
target = legal[3]
print("to send", target, "press:", " ".join(route_to(focus, target)))
