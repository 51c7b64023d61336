"""A character's board as the player has it in front of them: the Chain Gauge with the cage at
its end, the AP left, the attributes, the Items and the Omens kept."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Line, Rectangle, RoundedRectangle
from kivy.properties import BooleanProperty, DictProperty, ListProperty
from kivy.uix.widget import Widget

from ui import theme as colours
from ui.chainsomnia.castle_map import text_texture
from ui.widgets import Panel, label

CAGE = 6
CHAIN = (0.55, 0.57, 0.66, 1)


class ChainGauge(Widget):
    """Six spaces, the first ``chains`` of them covered by chain tokens, then the Cage.

    The first uncovered number is the AP the character gets at the start of a turn.
    """

    gauge = ListProperty([5, 4, 3, 3, 2, 1])
    chains = ListProperty([0])  # a list so kv can bind; chains[0] is the count

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, gauge=self.redraw, chains=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        chains = self.chains[0] if self.chains else 0
        spaces = len(self.gauge) + 1  # the Cage after the numbers
        gap = max(self.width * 0.012, 2)
        box = (self.width - gap * (spaces - 1)) / spaces
        h = self.height
        font = max(min(h * 0.62, box * 0.7), 9)
        with self.canvas:
            for i, number in enumerate(self.gauge):
                x = self.x + i * (box + gap)
                covered = i < chains
                first_visible = i == chains
                Color(*(CHAIN if covered else (colours.ACCENT if first_visible else colours.PANEL_LIGHT)))
                RoundedRectangle(pos=(x, self.y), size=(box, h), radius=[h * 0.2])
                if covered:
                    # a chain link: two overlapping rings
                    Color(0.15, 0.15, 0.22, 1)
                    r = min(box, h) * 0.22
                    Line(ellipse=(x + box / 2 - r * 1.6, self.y + h / 2 - r, r * 2, r * 2), width=1.6)
                    Line(ellipse=(x + box / 2 - r * 0.4, self.y + h / 2 - r, r * 2, r * 2), width=1.6)
                else:
                    tex = text_texture(str(number), font, bold=True)
                    Color(*(colours.ACCENT_TEXT if first_visible else colours.TEXT))
                    Rectangle(texture=tex, pos=(x + (box - tex.width) / 2, self.y + (h - tex.height) / 2), size=tex.size)
            x = self.x + len(self.gauge) * (box + gap)
            caged = chains >= CAGE
            Color(*(colours.DANGER if caged else (0.30, 0.12, 0.14, 1)))
            RoundedRectangle(pos=(x, self.y), size=(box, h), radius=[h * 0.2])
            Color(*(colours.TEXT if caged else (0.75, 0.45, 0.45, 1)))
            bars = 3
            for b in range(bars):
                bx = x + box * (b + 1) / (bars + 1)
                Line(points=[bx, self.y + h * 0.15, bx, self.y + h * 0.85], width=1.5)


class CharacterBoard(Panel):
    """One character's board; ``character`` is its entry of the public view."""

    character = DictProperty({})
    active = BooleanProperty(False)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", **kwargs)
        theme = App.get_running_app().theme
        self.padding = [theme.pad * 0.8, theme.pad * 0.5]
        self.spacing = theme.gap * 0.5
        self.head = label("", "body")
        self.head.max_lines = 1
        self.head.shorten = True
        self.head.shorten_from = "right"
        self.gauge = ChainGauge(size_hint_y=None, height=theme.font_body * 1.25)
        self.held = label("", "small")
        self.held.max_lines = 1
        self.held.shorten = True
        self.held.shorten_from = "right"
        for widget in (self.head, self.gauge, self.held):
            self.add_widget(widget)

    def show(self, character: Mapping[str, Any], colour: Any, active: bool, seat_name: str = "") -> None:
        self.character = dict(character)
        self.active = active
        self.fill = list(colours.PANEL_LIGHT if active else colours.PANEL)
        self.outline = list(colours.ACCENT if active else (0, 0, 0, 0))
        name = character["name"]
        ap = f"[b]{character.get('ap', 0)} AP[/b]" if active else f"{character.get('ap', 0)} AP"
        self.head.text = f"[color={colours.hex_colour(colour)}][b]{name}[/b][/color]  {ap}"
        self.gauge.gauge = list(character.get("chain_gauge") or [5, 4, 3, 3, 2, 1])
        self.gauge.chains = [int(character.get("chains", 0))]
        attrs = character.get("attributes", {})
        held = [i["name"] for i in character.get("items", [])]
        held += [f"[color={colours.hex_colour(colours.DANGER)}]{b['name']}[/color]" for b in character.get("bad_dreams", [])]
        omens = [o["name"] for o in character.get("omens", [])]
        parts = [f"S{attrs.get('strength', '?')} I{attrs.get('intelligence', '?')} L{attrs.get('luck', '?')}"]
        danger = colours.hex_colour(colours.DANGER)
        if character.get("caged"):
            parts.insert(0, f"[color={danger}][b]CAGED[/b][/color]")
        elif character.get("trapped"):
            parts.insert(0, f"[color={danger}][b]Trapped[/b][/color]")
        parts.append(", ".join(held) if held else "no Items")
        if omens:
            parts.append("Omens: " + ", ".join(omens))
        self.held.text = "  ·  ".join(parts)
