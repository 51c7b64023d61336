"""Typing in the real dice: a row of six faces per die, then Confirm.

Used when a Test waits for dice and the table rolls real dice without a camera (or the camera's
reading is being corrected). ``optional`` dice (Isaac's third die: he may roll 3 and keep 2, or
just roll 2) need not be given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from kivy.app import App
from kivy.properties import ListProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout

from ui.widgets import TToggle, button, label

FACES = ("1", "2", "3", "4", "5", "6")


class DicePad(BoxLayout):
    """``on_dice(values)`` is called with the faces chosen, in die order."""

    values = ListProperty([])

    def __init__(self, count: int, on_dice: Callable[[list[int]], Any], *, optional: int = 0,
                 extra: Sequence[Any] = (), **kwargs: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, **kwargs)
        theme = App.get_running_app().theme
        self.spacing = theme.gap
        self.count = count
        self.required = count - optional
        self.on_dice = on_dice
        self.values = [0] * count
        self.bind(minimum_height=self.setter("height"))
        for die in range(count):
            if die >= self.required:
                self.add_widget(label(f"Die {die + 1}, if rolled", "small", dim=True))
            row = GridLayout(cols=6, spacing=theme.gap * 0.6, size_hint_y=None, height=theme.small_target)
            for face in FACES:
                toggle = TToggle(text=face, group=f"die-{id(self)}-{die}", payload=(die, int(face)),
                                 font_role="big", height_scale=theme.small_target / theme.target)
                toggle.bind(on_release=self._picked)
                row.add_widget(toggle)
            self.add_widget(row)
        self.confirm = button("Choose the dice", self._confirm, tone="accent")
        self.confirm.disabled = True
        # kept in view below the faces by the screen showing the pad
        self.pinned = [self.confirm, *extra]

    def _picked(self, toggle: TToggle) -> None:
        die, face = toggle.payload
        values = list(self.values)
        values[die] = face if toggle.state == "down" else 0
        self.values = values
        given = [v for v in values if v]
        ready = all(values[: self.required]) and (
            all(values[self.required:]) or not any(values[self.required:])
        )
        self.confirm.disabled = not ready
        self.confirm.text = ("Confirm " + " and ".join(map(str, given))) if ready else "Choose the dice"

    def _confirm(self, *_: Any) -> None:
        self.on_dice([v for v in self.values if v])
