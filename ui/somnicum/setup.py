"""Somnicum's setup: two to four players, who starts, and whether the app deals the field,
the tokens and the Goal cards (digital) or the players name what they draw (real cards)."""

from __future__ import annotations

from typing import Any

from kivy.properties import NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.textinput import TextInput

from ui.screens.base import BaseScreen
from ui.widgets import TToggle, clear_and_fill, label

DECK_WORDS = {"digital": "The app deals (digital)", "physical": "Real cards and bag"}


class SomnicumSetupScreen(BaseScreen):
    name = "somnicum_setup"
    count = NumericProperty(2)
    first = NumericProperty(0)
    decks = StringProperty("digital")

    def prepare(self, **_: Any) -> None:
        self.decks = "digital"  # laying 16 to 24 cards by name is slow: real cards are a choice
        self.names = [f"Player {i + 1}" for i in range(4)]
        self.build()

    def build(self) -> None:
        theme = self.app.theme
        rows: list[Any] = [label("[b]Players[/b]", "big")]
        rows.append(self._choices("count", [(str(n), n) for n in (2, 3, 4)], self.count, self.set_count))
        rows.append(label("[b]Names[/b] (tap to change)", "big"))
        self.name_inputs = []
        for i in range(int(self.count)):
            field = TextInput(text=self.names[i], multiline=False, size_hint_y=None, height=theme.target,
                              font_size=theme.font_body, padding=[theme.pad, theme.pad * 1.4], write_tab=False)
            field.bind(text=lambda w, text, i=i: self.names.__setitem__(i, text))
            self.name_inputs.append(field)
            rows.append(field)
        rows.append(label("[b]Who saw a dream last?[/b] They start.", "big"))
        rows.append(self._choices("first", [(f"Player {n + 1}", n) for n in range(int(self.count))],
                                  self.first, lambda v: setattr(self, "first", v)))
        rows.append(label("[b]Cards, tokens and Goal cards[/b]", "big"))
        rows.append(self._choices("decks", [(DECK_WORDS[d], d) for d in ("digital", "physical")],
                                  self.decks, lambda v: setattr(self, "decks", v)))
        clear_and_fill(self.ids.form, rows)

    def _choices(self, group: str, options: list[tuple[str, Any]], current: Any, chosen: Any) -> Any:
        theme = self.app.theme
        grid = GridLayout(cols=min(len(options), 4), spacing=theme.gap, size_hint_y=None)
        grid.bind(minimum_height=grid.setter("height"))
        for text, value in options:
            toggle = TToggle(text=text, group=f"som-setup-{group}", payload=value, allow_no_selection=False)
            toggle.state = "down" if value == current else "normal"
            toggle.bind(on_release=lambda w: chosen(w.payload))
            grid.add_widget(toggle)
        return grid

    def set_count(self, count: int) -> None:
        self.count = count
        self.first = min(int(self.first), count - 1)
        self.build()

    def options(self) -> dict[str, Any]:
        names: list[str] = []
        for i in range(int(self.count)):
            name = self.names[i].strip() or f"Player {i + 1}"
            while name in names:
                name += " (2)"
            names.append(name)
        options: dict[str, Any] = {"players": names, "decks": self.decks, "first_player": int(self.first)}
        catalog = self.app.settings_config.data.catalog
        if catalog:
            options["catalog"] = f"{catalog}/somnicum"
        return options

    def start(self) -> None:
        self.app.go("somnicum_table", new=self.options())
