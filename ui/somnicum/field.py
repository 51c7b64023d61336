"""Somnicum's playing field and dreams, drawn from the public view.

``FieldCircle``: the Dream cards in their circle, clockwise from the top, with the black and
white flywheels standing between cards; cards a move can reach and gaps where the flywheels may
be placed are outlined, and a tap on one chooses it. ``DreamView``: one player's dream as an
inverted pyramid, gap tokens drawn as red bars between cards.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from ui import theme as colours
from ui.chainsomnia.castle_map import fitted_texture, text_texture

STORYLINE_COLOURS = {
    "fairy_tale": (0.86, 0.47, 0.66, 1),
    "underwater": (0.25, 0.66, 0.72, 1),
    "space": (0.45, 0.45, 0.85, 1),
    "": (0.75, 0.22, 0.22, 1),  # a Nightmare belongs to no storyline
}


def card_colour(card: Mapping[str, Any]) -> tuple[float, ...]:
    if card.get("nightmare"):
        return STORYLINE_COLOURS[""]
    return STORYLINE_COLOURS.get(str(card.get("storyline", "")), colours.PANEL_LIGHT)


class FieldCircle(Widget):
    """The field; ``targets`` are card indices a tap may choose, ``gap_targets`` gap indices."""

    targets = ListProperty([])
    gap_targets = ListProperty([])

    __events__ = ("on_card", "on_gap")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: Mapping[str, Any] = {}
        self._centres: list[tuple[float, float]] = []
        self._gap_centres: list[tuple[float, float]] = []
        self._card_size = (1.0, 1.0)
        self.bind(pos=self._redraw, size=self._redraw)

    def on_card(self, index: int) -> None:
        pass

    def on_gap(self, index: int) -> None:
        pass

    def show(self, view: Mapping[str, Any], targets: Sequence[int] = (), gap_targets: Sequence[int] = ()) -> None:
        self.view = view
        self.targets = list(targets)
        self.gap_targets = list(gap_targets)
        self.redraw()

    def _redraw(self, *_: Any) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        field = self.view.get("field", []) if self.view else []
        self._centres, self._gap_centres = [], []
        if not field:
            return
        theme = App.get_running_app().theme
        n = len(field)
        cx, cy = self.center
        radius = min(self.width, self.height) / 2
        card_h = min(radius * 0.42, theme.target * 1.2)
        card_w = min(card_h * 0.72, 2 * math.pi * (radius - card_h / 2) / n * 0.85)
        card_h = min(card_h, card_w / 0.6)
        ring = radius - card_h / 2 - 2
        self._card_size = (card_w, card_h)
        for i in range(n):
            angle = math.pi / 2 - 2 * math.pi * (i + 0.5) / n  # clockwise from the top
            self._centres.append((cx + ring * math.cos(angle), cy + ring * math.sin(angle)))
        for g in range(n):
            angle = math.pi / 2 - 2 * math.pi * g / n
            inner = ring - card_h * 0.62
            self._gap_centres.append((cx + inner * math.cos(angle), cy + inner * math.sin(angle)))
        with self.canvas:
            for i, card in enumerate(field):
                x, y = self._centres[i]
                Color(*card_colour(card))
                RoundedRectangle(pos=(x - card_w / 2, y - card_h / 2), size=(card_w, card_h), radius=[card_w * 0.12])
                stars = text_texture(str(card.get("stars", "")), max(min(card_w * 0.6, theme.font_big), 9), bold=True)
                Color(0.05, 0.05, 0.1, 1)
                Rectangle(texture=stars, pos=(x - stars.width / 2, y - stars.height / 2), size=stars.size)
                if card.get("meeting"):
                    Color(*colours.ACCENT)
                    dot = card_w * 0.22
                    Ellipse(pos=(x + card_w / 2 - dot * 1.2, y + card_h / 2 - dot * 1.2), size=(dot, dot))
                if i in self.targets:
                    Color(*colours.FOCUS)
                    Line(rectangle=(x - card_w / 2 - 3, y - card_h / 2 - 3, card_w + 6, card_h + 6), width=2)
            for g in self.gap_targets:
                x, y = self._gap_centres[g]
                Color(*colours.FOCUS[:3], 0.5)
                Ellipse(pos=(x - card_w * 0.3, y - card_w * 0.3), size=(card_w * 0.6, card_w * 0.6))
            for name, fill, ink in (("black", (0.05, 0.05, 0.05, 1), (0.95, 0.95, 0.95, 1)),
                                    ("white", (0.96, 0.96, 0.96, 1), (0.05, 0.05, 0.05, 1))):
                gap = (self.view.get("flywheels", {}).get(name) or {}).get("gap")
                if gap is None or gap >= len(self._gap_centres):
                    continue
                x, y = self._gap_centres[gap]
                size = max(card_w * 0.55, 16)
                Color(*colours.ACCENT)
                Ellipse(pos=(x - size / 2 - 2, y - size / 2 - 2), size=(size + 4, size + 4))
                Color(*fill)
                Ellipse(pos=(x - size / 2, y - size / 2), size=(size, size))
                letter = text_texture(name[0].upper(), size * 0.6, bold=True)
                Color(*ink)
                Rectangle(texture=letter, pos=(x - letter.width / 2, y - letter.height / 2), size=letter.size)
            info = f"Round {self.view.get('round')} of {self.view.get('rounds', 3)}"
            texture = fitted_texture(info, theme.font_body, ring, bold=True)
            Color(*colours.TEXT)
            Rectangle(texture=texture, pos=(cx - texture.width / 2, cy + 2), size=texture.size)
            bag = f"Bag {self.view.get('bag', '?')} · aside {self.view.get('cards_put_aside', '?')}"
            texture = fitted_texture(bag, theme.font_small, ring)
            Color(*colours.TEXT_DIM)
            Rectangle(texture=texture, pos=(cx - texture.width / 2, cy - texture.height - 2), size=texture.size)

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or not self._centres:
            return False
        w, h = self._card_size
        for i in self.targets:
            x, y = self._centres[i]
            if abs(touch.x - x) <= max(w / 2, 24) and abs(touch.y - y) <= max(h / 2, 24):
                self.dispatch("on_card", i)
                return True
        for g in self.gap_targets:
            x, y = self._gap_centres[g]
            if math.hypot(touch.x - x, touch.y - y) <= max(w * 0.5, 24):
                self.dispatch("on_gap", g)
                return True
        return False

    def card_centre(self, index: int) -> tuple[float, float]:
        return self._centres[index]

    def gap_centre(self, index: int) -> tuple[float, float]:
        return self._gap_centres[index]


class DreamView(Widget):
    """One player's dream: level 1 on top, each lower card under the pair it lies beneath."""

    dream = ListProperty([])

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, dream=self.redraw)

    def redraw(self, *_: Any) -> None:
        self.canvas.clear()
        levels = self.dream or []
        widest = max((len(level.get("cards", [])) for level in levels), default=0)
        if widest == 0:
            return
        rows = 3
        gap = 3.0
        card_h = (self.height - gap * (rows - 1)) / rows
        card_w = min(card_h * 0.75, (self.width - gap) / (widest + 0.5) - gap)
        step = card_w + gap
        font = max(min(card_w * 0.65, card_h * 0.6), 8)
        slots: list[list[float]] = []
        with self.canvas:
            for depth, level in enumerate(levels[:rows]):
                y = self.top - (depth + 1) * card_h - depth * gap
                cards = level.get("cards", [])
                gaps = level.get("gaps", [])
                slots.append([])
                for i, card in enumerate(cards):
                    # a lower card sits under the pair of cards it was attached beneath
                    under = card.get("under")
                    above = slots[depth - 1] if depth else []
                    if isinstance(under, int) and under + 1 < len(above):
                        slot = (above[under] + above[under + 1]) / 2
                    else:
                        slot = i + 0.5 * depth
                    slots[depth].append(slot)
                    x = self.x + slot * step
                    Color(*card_colour(card))
                    Rectangle(pos=(x, y), size=(card_w, card_h))
                    stars = text_texture(str(card.get("stars", "")), font, bold=True)
                    Color(0.05, 0.05, 0.1, 1)
                    Rectangle(texture=stars, pos=(x + (card_w - stars.width) / 2, y + (card_h - stars.height) / 2), size=stars.size)
                    if i < len(gaps) and gaps[i]:
                        Color(*colours.DANGER)
                        Rectangle(pos=(x + card_w - 1, y + card_h * 0.1), size=(gap + 2, card_h * 0.8))
