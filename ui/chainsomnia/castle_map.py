"""The castle as the players laid it: tiles, doors and their colours, Bad Dream stacks, characters.

Drawn from the public view on every update (``show``), scaled to fit. Cells the current choice
can point at (where to move, flee, place the new tile) are outlined, and a tap on one of them
sends ``on_cell``. North is up, as the engine's grid: y grows north.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kivy.app import App
from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle
from kivy.properties import ListProperty
from kivy.uix.widget import Widget

from ui import theme as colours

Cell = tuple[int, int]

TILE_FILL = (0.22, 0.24, 0.40, 1)
START_FILL = (0.30, 0.17, 0.36, 1)
WAKE_UP_FILL = (0.13, 0.42, 0.30, 1)
WALL = (0.05, 0.05, 0.10, 1)
DOOR_NONE = (0.75, 0.75, 0.82, 1)
SIDES = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}

_texture_cache: dict[tuple[str, int, bool], Any] = {}


def text_texture(text: str, size: float, bold: bool = False) -> Any:
    """A label texture, kept: the same room names are drawn on every update."""
    key = (text, int(size), bold)
    texture = _texture_cache.get(key)
    if texture is None:
        label = CoreLabel(text=text, font_size=int(size), bold=bold)
        label.refresh()
        texture = label.texture
        if len(_texture_cache) > 400:
            _texture_cache.clear()
        _texture_cache[key] = texture
    return texture


def fitted_texture(text: str, size: float, width: float, bold: bool = False, smallest: float = 10) -> Any:
    """The text at the largest size that fits ``width``; cut short with an ellipsis if even the
    smallest size is too wide."""
    while True:
        texture = text_texture(text, size, bold)
        if texture.width <= width:
            return texture
        if size <= smallest:
            break
        size = max(smallest, size * 0.85)
    while len(text) > 2:
        text = text[:-2].rstrip() + "\u2026"
        texture = text_texture(text, size, bold)
        if texture.width <= width:
            return texture
        text = text[:-1]
    return texture


class CastleMap(Widget):
    """Draws ``view["castle"]``; ``targets`` are the cells a tap may choose now."""

    targets = ListProperty([])  # cells offered by the current choice
    ghosts = ListProperty([])  # cells without a tile yet that a new tile may go to

    __events__ = ("on_cell",)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.view: Mapping[str, Any] = {}
        self._origin = (0.0, 0.0)
        self._cell_size = 1.0
        self._min = (0, 0)
        self.bind(pos=self._redraw, size=self._redraw)

    def show(self, view: Mapping[str, Any], targets: Iterable[Sequence[int]] = (),
             ghosts: Iterable[Sequence[int]] = ()) -> None:
        self.view = view
        self.targets = [tuple(c) for c in targets]
        self.ghosts = [tuple(c) for c in ghosts]
        self.redraw()

    def on_cell(self, cell: Cell) -> None:
        pass

    # -- geometry ---------------------------------------------------------------------------

    def cells(self) -> list[Cell]:
        placed = [tuple(t["at"]) for t in self.view.get("castle", [])]
        return placed + [c for c in self.ghosts if c not in placed]

    def layout(self) -> None:
        cells = self.cells() or [(0, 0)]
        xs, ys = [c[0] for c in cells], [c[1] for c in cells]
        # a little margin on every side, so a tile at the edge is not cut off
        min_x, max_x, min_y, max_y = min(xs), max(xs), min(ys), max(ys)
        columns, rows = max_x - min_x + 1.4, max_y - min_y + 1.4
        theme = App.get_running_app().theme
        size = min(self.width / columns, self.height / rows, theme.target * 2.6)
        self._cell_size = max(size, 1.0)
        self._min = (min_x, min_y)
        used_w, used_h = (columns - 0.4) * self._cell_size, (rows - 0.4) * self._cell_size
        self._origin = (self.x + (self.width - used_w) / 2, self.y + (self.height - used_h) / 2)

    def cell_pos(self, cell: Sequence[int]) -> tuple[float, float]:
        s = self._cell_size
        return (self._origin[0] + (cell[0] - self._min[0]) * s, self._origin[1] + (cell[1] - self._min[1]) * s)

    def cell_at(self, x: float, y: float) -> Cell:
        s = self._cell_size
        return (int((x - self._origin[0]) // s) + self._min[0], int((y - self._origin[1]) // s) + self._min[1])

    def cell_centre(self, cell: Sequence[int]) -> tuple[float, float]:
        x, y = self.cell_pos(cell)
        return x + self._cell_size / 2, y + self._cell_size / 2

    # -- drawing ----------------------------------------------------------------------------

    def _redraw(self, *_: Any) -> None:
        self.redraw()

    def redraw(self) -> None:
        self.canvas.clear()
        if not self.view:
            return
        self.layout()
        s = self._cell_size
        theme = App.get_running_app().theme
        inset = s * 0.05
        colour_of = {c["id"]: colours.SEAT_COLOURS[i % len(colours.SEAT_COLOURS)]
                     for i, c in enumerate(self.view.get("characters", []))}
        turn = self.view.get("turn")
        with self.canvas:
            for ghost in self.ghosts:
                x, y = self.cell_pos(ghost)
                Color(*colours.FOCUS[:3], 0.18)
                RoundedRectangle(pos=(x + inset, y + inset), size=(s - 2 * inset, s - 2 * inset), radius=[s * 0.08])
            for tile in self.view.get("castle", []):
                self._draw_tile(tile, s, inset, theme)
            for target in self.targets:
                x, y = self.cell_pos(target)
                Color(*colours.FOCUS)
                Line(rounded_rectangle=(x + inset / 2, y + inset / 2, s - inset, s - inset, s * 0.1), width=max(2.0, s * 0.035))
            by_cell: dict[Cell, list[Mapping[str, Any]]] = {}
            for character in self.view.get("characters", []):
                by_cell.setdefault(tuple(character["cell"]), []).append(character)
            for cell, here in by_cell.items():
                self._draw_characters(cell, here, s, colour_of, turn)

    def _draw_tile(self, tile: Mapping[str, Any], s: float, inset: float, theme: Any) -> None:
        x, y = self.cell_pos(tile["at"])
        kind = tile.get("kind")
        fill = START_FILL if kind == "chainsomnia" else WAKE_UP_FILL if kind == "wake_up" else TILE_FILL
        Color(*fill)
        RoundedRectangle(pos=(x + inset, y + inset), size=(s - 2 * inset, s - 2 * inset), radius=[s * 0.08])
        door = colours.DOOR_COLOURS.get(tile.get("door_colour", ""), DOOR_NONE)
        bar_long, bar_thick = s * 0.34, max(s * 0.09, 4)
        for side in tile.get("door_sides", []):
            dx, dy = SIDES[side]
            cx, cy = x + s / 2 + dx * (s / 2 - inset), y + s / 2 + dy * (s / 2 - inset)
            w, h = (bar_long, bar_thick) if dy else (bar_thick, bar_long)
            Color(*door)
            Rectangle(pos=(cx - w / 2, cy - h / 2), size=(w, h))
        # the room's name along the top
        name = fitted_texture(tile["name"], max(min(s * 0.2, theme.font_body), 10), s - 3 * inset, bold=True)
        Color(*colours.TEXT)
        Rectangle(texture=name, pos=(x + (s - name.width) / 2, y + s - inset * 2.2 - name.height), size=name.size)
        dreams = tile.get("bad_dreams", [])
        if dreams:
            self._draw_bad_dreams(x, y, s, inset, dreams, theme)

    def _draw_bad_dreams(self, x: float, y: float, s: float, inset: float,
                         dreams: Sequence[Mapping[str, Any]], theme: Any) -> None:
        """A stack: one card per Bad Dream, offset, the top one named."""
        card_w, card_h = s - 5 * inset, s * 0.27
        base_x, base_y = x + 2.5 * inset, y + 2.2 * inset
        step = s * 0.035
        for depth in range(len(dreams)):
            offset = (len(dreams) - 1 - depth) * step
            Color(*(colours.DANGER if depth == len(dreams) - 1 else (0.55, 0.18, 0.16, 1)))
            RoundedRectangle(pos=(base_x + offset, base_y + offset), size=(card_w, card_h), radius=[s * 0.04])
        top = dreams[-1]["name"] + (f" +{len(dreams) - 1}" if len(dreams) > 1 else "")
        texture = fitted_texture(top, max(min(s * 0.16, theme.font_small), 9), card_w - inset, bold=True, smallest=10)
        Color(*colours.TEXT)
        Rectangle(texture=texture, pos=(base_x + (card_w - texture.width) / 2, base_y + (card_h - texture.height) / 2), size=texture.size)

    def _draw_characters(self, cell: Cell, here: Sequence[Mapping[str, Any]], s: float,
                         colour_of: Mapping[str, Any], turn: str | None) -> None:
        x, y = self.cell_pos(cell)
        count = len(here)
        radius = min(s * 0.14, (s * 0.86) / (2.2 * max(count, 1)))
        gap = radius * 2.2
        start = x + s / 2 - gap * (count - 1) / 2
        cy = y + s * 0.52
        for i, character in enumerate(here):
            cx = start + i * gap
            if character["id"] == turn:
                Color(*colours.ACCENT)
                Ellipse(pos=(cx - radius * 1.3, cy - radius * 1.3), size=(radius * 2.6, radius * 2.6))
            Color(*(colours.DANGER if character.get("caged") else (0.05, 0.05, 0.1, 1)))
            Ellipse(pos=(cx - radius * 1.08, cy - radius * 1.08), size=(radius * 2.16, radius * 2.16))
            Color(*colour_of.get(character["id"], colours.TEXT))
            Ellipse(pos=(cx - radius, cy - radius), size=(radius * 2, radius * 2))
            initial = text_texture(character["name"][:2], max(radius * 1.05, 9), bold=True)
            Color(0.05, 0.05, 0.1, 1)
            Rectangle(texture=initial, pos=(cx - initial.width / 2, cy - initial.height / 2), size=initial.size)

    # -- touch ------------------------------------------------------------------------------

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or not self.view:
            return False
        cell = self.cell_at(*touch.pos)
        if cell in self.targets:
            self.dispatch("on_cell", cell)
            return True
        return False
