"""The state of a CHAINsomnia game: immutable data, its JSON form, and a scratch copy for apply.

``State`` is a frozen dataclass of tuples; ``apply`` copies it into a ``Work`` (the same fields,
assignable), lets the rules change that copy, and freezes it again. Chance and choices are
explicit: ``pending`` holds the dice, card draw or decision the game waits for, and ``queue``
holds the steps still to resolve after it (the rest of a Daemon's turn, fleeing characters...).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from companion.chainsomnia.castle import Cell, Geometry, build_geometry, door_sides
from companion.chainsomnia.catalog import Catalog, load_catalog

CAGE = 6  # chain tokens that cover every number of a Chain Gauge
HAND = 2  # Item cards a character may keep


@dataclass(frozen=True)
class Options:
    players: int
    characters: tuple[str, ...]  # turn order, leftmost board of the first seat first
    seats: tuple[tuple[str, ...], ...]  # the characters each seat controls
    mode: str  # normal | beginner
    dice: str  # virtual | physical
    decks: str  # digital | physical
    catalog_dir: str
    seed: int


@dataclass(frozen=True)
class Character:
    id: str
    cell: Cell
    chains: int
    ap: int
    items: tuple[str, ...] = ()
    omens: tuple[str, ...] = ()  # Good and Bad Omens kept beside the board
    bad_dreams: tuple[str, ...] = ()  # Bad Dreams in the Item area (Maledictum)
    melody_used: bool = False  # Chloe's ability: once per turn


@dataclass(frozen=True)
class PlacedTile:
    tile: str
    x: int
    y: int
    rotation: int
    doors: int  # door mask after rotation

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)


@dataclass(frozen=True)
class Stack:
    """The Bad Dream cards on one Room Tile, bottom first (the last is the top card)."""

    x: int
    y: int
    cards: tuple[str, ...]

    @property
    def cell(self) -> Cell:
        return (self.x, self.y)


@dataclass(frozen=True)
class Deck:
    """A face-down deck, read top first: known cards, then cards of unknown order, then known ones.

    A digital deck knows its whole order (``top``). A physical deck knows only what the rules
    put back in a known place (Charlotte's cards on top, tiles just above "Wake Up!"); the rest
    are ``unknown`` cards among the candidates in ``pool`` (a Castle deck's pool also holds the 4
    tiles boxed unseen at setup, so it may be larger than ``unknown``).
    """

    top: tuple[str, ...] = ()
    pool: tuple[str, ...] = ()
    unknown: int = 0
    bottom: tuple[str, ...] = ()

    @property
    def size(self) -> int:
        return len(self.top) + self.unknown + len(self.bottom)


@dataclass(frozen=True)
class Test:
    """A Research Test (Secret Nook) or Victory Test (Bad Dream) in progress."""

    kind: str  # research | victory
    who: str
    attribute: str
    at_least: int
    nook: int = -1
    card: str = ""
    rerolls: int = 0  # dice the Clover still lets this test reroll
    double_defeats: bool = False


@dataclass(frozen=True)
class Pending:
    """What the game waits for: a chance outcome (roll, draw) or a players' decision."""

    kind: str  # roll | keep_dice | clover | draw | vision | place_tile | flee | discard_excess | discard_items | choose_tile
    who: str
    count: int = 0
    dice: tuple[int, ...] = ()
    test: Test | None = None
    deck: str = ""
    cards: tuple[str, ...] = ()
    tile: str = ""
    options: tuple[tuple[int, ...], ...] = ()
    cell: Cell | None = None
    purpose: str = ""
    context: str = ""


@dataclass(frozen=True)
class Step:
    """One thing still to resolve, in order (the flow of turns and of Event cards)."""

    kind: str
    who: str = ""
    card: str = ""
    context: str = ""
    cell: Cell | None = None
    count: int = 0
    cards: tuple[str, ...] = ()
    target: str = ""
    where: str = ""
    deck: str = ""


@dataclass(frozen=True)
class State:
    options: Options
    rng: int
    round: int
    phase: str  # setup | players | daemon | over
    first: int  # index of the character with the First Player token
    turn: int  # index of the character whose turn it is
    played: int  # characters who have had their turn this round
    characters: tuple[Character, ...]
    castle: tuple[PlacedTile, ...]
    bad_dreams: tuple[Stack, ...]
    howling: tuple[str, ...]  # Howling cards beside the Event deck
    castle_deck: Deck
    event_deck: Deck
    item_deck: Deck
    bad_dream_discard: tuple[str, ...]
    item_discard: tuple[str, ...]
    boxed: tuple[str, ...]  # room tiles put back in the box unseen at setup (digital decks)
    queue: tuple[Step, ...]
    pending: Pending | None
    result: str  # "" | victory | defeat
    cause: str  # why the game ended
    catalog: Catalog = field(compare=False, repr=False)
    geo: Geometry | None = field(default=None, compare=False, repr=False)

    def geometry(self) -> Geometry:
        if self.geo is None:
            geo = build_geometry((p.cell, p.doors) for p in self.castle)
            object.__setattr__(self, "geo", geo)  # a cache of derived data, not game state
            return geo
        return self.geo

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)

    @property
    def current(self) -> Character:
        return self.characters[self.turn]


STATE_FIELDS = tuple(f.name for f in dataclasses.fields(State) if f.name not in ("catalog", "geo"))


@cache
def _index(order: tuple[str, ...]) -> dict[str, int]:
    return {cid: i for i, cid in enumerate(order)}


class Work:
    """A scratch copy of a State that the rules may change, collecting events as they go."""

    def __init__(self, state: State) -> None:
        self.__dict__.update(state.__dict__)  # every field, the catalog and the geometry cache
        self.catalog: Catalog = state.catalog
        self.geo: Geometry | None = state.geo
        self.events: list[dict[str, Any]] = []
        self.index = _index(state.options.characters)

    # --- reading -------------------------------------------------------------------------------

    def geometry(self) -> Geometry:
        if self.geo is None:
            self.geo = build_geometry((p.cell, p.doors) for p in self.castle)
        return self.geo

    def char(self, cid: str) -> Character:
        return self.characters[self.index[cid]]

    @property
    def current(self) -> Character:
        return self.characters[self.turn]

    def name(self, cid: str) -> str:
        return self.catalog.characters[cid].name

    def board(self, cid: str):  # noqa: ANN201 - catalog.CharacterBoard
        return self.catalog.characters[cid]

    def tile_at(self, cell: Cell) -> PlacedTile | None:
        for p in self.castle:
            if p.x == cell[0] and p.y == cell[1]:
                return p
        return None

    def room_name(self, cell: Cell) -> str:
        placed = self.tile_at(cell)
        return self.catalog.tiles[placed.tile].name if placed else f"({cell[0]}, {cell[1]})"

    def stack_at(self, cell: Cell) -> tuple[str, ...]:
        for s in self.bad_dreams:
            if s.x == cell[0] and s.y == cell[1]:
                return s.cards
        return ()

    def has_bad_dream(self, cell: Cell) -> bool:
        return bool(self.stack_at(cell))

    # --- changing --------------------------------------------------------------------------------

    def set_char(self, cid: str, **changes: Any) -> Character:
        i = self.index[cid]
        fields = dict(self.characters[i].__dict__)
        fields.update(changes)
        new = Character(**fields)
        self.characters = self.characters[:i] + (new,) + self.characters[i + 1 :]
        return new

    def set_stack(self, cell: Cell, cards: tuple[str, ...]) -> None:
        stacks = [s for s in self.bad_dreams if s.cell != cell]
        if cards:
            stacks.append(Stack(cell[0], cell[1], cards))
            stacks.sort(key=lambda s: (s.x, s.y))
        self.bad_dreams = tuple(stacks)

    def place(self, placed: PlacedTile) -> None:
        self.castle = self.castle + (placed,)
        self.geo = None

    def push(self, *steps: Step) -> None:
        """Steps to resolve next, before whatever was already queued."""
        self.queue = steps + self.queue

    def emit(self, kind: str, /, **data: Any) -> None:
        self.events.append({"type": kind, **data})

    def freeze(self) -> State:
        d = self.__dict__
        return State(**{name: d[name] for name in STATE_FIELDS}, catalog=self.catalog, geo=self.geo)


# --- JSON ------------------------------------------------------------------------------------------


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.compare}
    if isinstance(value, tuple):
        return [_encode(v) for v in value]
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(kind: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _decode(inner, value, where)
    if origin is tuple:
        args = typing.get_args(kind)
        if not isinstance(value, list):
            raise ValueError(f"{where}: must be a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], v, f"{where}[{i}]") for i, v in enumerate(value))
        if len(value) != len(args):
            raise ValueError(f"{where}: must have {len(args)} items")
        return tuple(_decode(a, v, f"{where}[{i}]") for i, (a, v) in enumerate(zip(args, value)))
    if dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise ValueError(f"{where}: must be an object")
        hints = _hints(kind)
        out = {}
        for f in dataclasses.fields(kind):
            if not f.compare:
                continue
            if f.name not in value:
                raise ValueError(f"{where}.{f.name}: missing")
            out[f.name] = _decode(hints[f.name], value[f.name], f"{where}.{f.name}")
        return kind(**out)
    if kind is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: must be true or false")
        return value
    if kind is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"{where}: must be a whole number")
        return value
    if kind is str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: must be a string")
        return value
    raise TypeError(f"{where}: cannot decode {kind!r}")


def state_to_json(state: State) -> dict[str, Any]:
    """The whole state, secrets included (for the journal); ``view`` is the public projection.

    Placed tiles also carry their name, door sides and door colour, derived from the catalog so
    a UI can draw the castle from this JSON alone; ``state_from_json`` ignores those.
    """
    data = {"game": "chainsomnia", "version": 1}
    data.update({name: _encode(getattr(state, name)) for name in STATE_FIELDS})
    for placed in data["castle"]:
        tile = state.catalog.tiles[placed["tile"]]
        placed["name"] = tile.name
        placed["door_sides"] = door_sides(placed["doors"])
        placed["door_colour"] = tile.door_colour
    return data


DERIVED_TILE_KEYS = ("name", "door_sides", "door_colour")


def state_from_json(data: dict[str, Any]) -> State:
    if not isinstance(data, dict) or data.get("game") != "chainsomnia":
        raise ValueError('not a CHAINsomnia state (expected "game": "chainsomnia")')
    if data.get("version") != 1:
        raise ValueError(f"unknown CHAINsomnia state version {data.get('version')!r}")
    hints = _hints(State)
    values = {}
    for name in STATE_FIELDS:
        if name not in data:
            raise ValueError(f"state.{name}: missing")
        raw = data[name]
        if name == "castle":
            raw = [{k: v for k, v in p.items() if k not in DERIVED_TILE_KEYS} for p in raw]
        values[name] = _decode(hints[name], raw, f"state.{name}")
    catalog = load_catalog(values["options"].catalog_dir or None)
    return State(**values, catalog=catalog)
