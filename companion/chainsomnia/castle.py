"""The castle's geometry: a square grid of Room Tiles, their doors, rotations and adjacency.

Cells are ``(x, y)`` with x growing east and y growing north; the CHAINsomnia tile is at
``(0, 0)``. A tile's doors are a 4-bit mask (north=1, east=2, south=4, west=8); a rotation is a
number of quarter turns clockwise, so a door printed on the north edge of a tile rotated once
faces east. Two tiles are adjacent only through a door facing a door (rulebook: "If two Tiles are
not connected by a door ... they are not considered adjacent").

>>> door_mask(("north",), 1) == SIDE_BITS[1]
True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

Cell = tuple[int, int]

SIDE_NAMES = ("north", "east", "south", "west")
SIDE_BITS = (1, 2, 4, 8)
DELTAS = ((0, 1), (1, 0), (0, -1), (-1, 0))


def opposite(side: int) -> int:
    return (side + 2) % 4


def door_mask(doors: Iterable[str], rotation: int) -> int:
    mask = 0
    for name in doors:
        mask |= SIDE_BITS[(SIDE_NAMES.index(name) + rotation) % 4]
    return mask


def door_sides(mask: int) -> list[str]:
    return [SIDE_NAMES[s] for s in range(4) if mask & SIDE_BITS[s]]


def step(cell: Cell, side: int) -> Cell:
    dx, dy = DELTAS[side]
    return (cell[0] + dx, cell[1] + dy)


def side_towards(a: Cell, b: Cell) -> int:
    """The side of ``a`` that faces the orthogonal neighbour ``b``."""
    return DELTAS.index((b[0] - a[0], b[1] - a[1]))


@dataclass(frozen=True)
class Geometry:
    """Lookups derived from the placed tiles, computed once per castle layout."""

    doors: Mapping[Cell, int]  # cell -> door mask of the tile there
    neighbours: Mapping[Cell, tuple[Cell, ...]]  # cell -> adjacent cells (door facing door)

    def adjacent(self, a: Cell, b: Cell) -> bool:
        return b in self.neighbours.get(a, ())


def build_geometry(placed: Iterable[tuple[Cell, int]]) -> Geometry:
    doors = dict(placed)
    neighbours: dict[Cell, tuple[Cell, ...]] = {}
    for cell, mask in doors.items():
        adjacent = []
        for side in range(4):
            if not mask & SIDE_BITS[side]:
                continue
            other = step(cell, side)
            other_mask = doors.get(other)
            if other_mask is not None and other_mask & SIDE_BITS[opposite(side)]:
                adjacent.append(other)
        neighbours[cell] = tuple(adjacent)
    return Geometry(doors, neighbours)


def fits(doors: Mapping[Cell, int], cell: Cell, mask: int) -> bool:
    """Every side of ``cell`` touching a placed tile lines up: door to door, wall to wall."""
    for side in range(4):
        other = doors.get(step(cell, side))
        if other is None:
            continue
        mine = bool(mask & SIDE_BITS[side])
        theirs = bool(other & SIDE_BITS[opposite(side)])
        if mine != theirs:
            return False
    return True


def placements(doors: Mapping[Cell, int], tile_doors: Iterable[str], against: Cell) -> list[tuple[int, int, int]]:
    """Where a drawn tile may go against the room at ``against``: ``(x, y, rotation)`` options.

    Ruling (docs/RULINGS.md): the new tile goes on an empty cell beside the room
    through one of that room's doors, and every side it touches must line up.
    """
    tile_doors = tuple(tile_doors)
    masks = [door_mask(tile_doors, r) for r in range(4)]
    own = doors[against]
    options = []
    for side in range(4):
        if not own & SIDE_BITS[side]:
            continue
        cell = step(against, side)
        if cell in doors:
            continue
        for rotation, mask in enumerate(masks):
            if fits(doors, cell, mask):
                options.append((cell[0], cell[1], rotation))
    return options
