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
    origin: Cell | None = None  # the new tile of the exploration an effect's draw follows


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
        c = self.characters[i]
        get = changes.get
        # spelled out: this runs for every chain, AP and move, and dataclasses.replace is slow
        new = Character(
            c.id,
            get("cell", c.cell),
            get("chains", c.chains),
            get("ap", c.ap),
            get("items", c.items),
            get("omens", c.omens),
            get("bad_dreams", c.bad_dreams),
            get("melody_used", c.melody_used),
        )
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
        # every field is set, so the frozen dataclass's __init__ (one setattr per field) is skipped
        d = self.__dict__
        state = object.__new__(State)
        state.__dict__.update({name: d[name] for name in STATE_FIELDS}, catalog=self.catalog, geo=self.geo)
        return state


# --- JSON ------------------------------------------------------------------------------------------
# Encoders and decoders are built once per type from the dataclasses' type hints, so that a
# journal writing every state stays cheap.


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls) if f.compare)


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind is tuple:
        return [_encode(v) for v in value]
    if kind in (str, int, bool) or value is None:
        return value
    return {name: _encode(getattr(value, name)) for name in _field_names(kind)}


class _Bad(ValueError):
    """A decoding error; ``path`` grows as it travels up to the state."""

    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path, self.message = path, message

    def under(self, name: str) -> _Bad:
        return _Bad(f"{name}{'' if self.path.startswith('[') else '.'}{self.path}" if self.path else name, self.message)


def _check(test: Any, message: str) -> Any:
    def decode(value: Any) -> Any:
        if not test(value):
            raise _Bad("", message)
        return value

    return decode


@cache
def _decoder(kind: Any) -> Any:
    origin = typing.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        (inner_kind,) = [a for a in typing.get_args(kind) if a is not type(None)]
        inner = _decoder(inner_kind)
        return lambda value: None if value is None else inner(value)
    if origin is tuple:
        args = typing.get_args(kind)
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])

            def decode_list(value: Any) -> Any:
                if not isinstance(value, list):
                    raise _Bad("", "must be a list")
                out = []
                for i, v in enumerate(value):
                    try:
                        out.append(item(v))
                    except _Bad as err:
                        raise err.under(f"[{i}]") from None
                return tuple(out)

            return decode_list
        items = [_decoder(a) for a in args]

        def decode_fixed(value: Any) -> Any:
            if not isinstance(value, list) or len(value) != len(items):
                raise _Bad("", f"must be a list of {len(items)}")
            return tuple(d(v) for d, v in zip(items, value))

        return decode_fixed
    if dataclasses.is_dataclass(kind):
        hints = typing.get_type_hints(kind)
        fields = [(name, _decoder(hints[name])) for name in _field_names(kind)]

        def decode_object(value: Any) -> Any:
            if not isinstance(value, dict):
                raise _Bad("", "must be an object")
            out = {}
            for name, decode in fields:
                if name not in value:
                    raise _Bad(name, "missing")
                try:
                    out[name] = decode(value[name])
                except _Bad as err:
                    raise err.under(name) from None
            return kind(**out)

        return decode_object
    if kind is bool:
        return _check(lambda v: isinstance(v, bool), "must be true or false")
    if kind is int:
        return _check(lambda v: isinstance(v, int) and not isinstance(v, bool), "must be a whole number")
    if kind is str:
        return _check(lambda v: isinstance(v, str), "must be a string")
    raise TypeError(f"cannot decode {kind!r}")


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


@cache
def _state_hints() -> dict[str, Any]:
    return typing.get_type_hints(State)


def state_from_json(data: dict[str, Any]) -> State:
    if not isinstance(data, dict) or data.get("game") != "chainsomnia":
        raise ValueError('not a CHAINsomnia state (expected "game": "chainsomnia")')
    if data.get("version") != 1:
        raise ValueError(f"unknown CHAINsomnia state version {data.get('version')!r}")
    hints = _state_hints()
    values = {}
    for name in STATE_FIELDS:
        if name not in data:
            raise ValueError(f"state.{name}: missing")
        raw = data[name]
        if name == "castle" and isinstance(raw, list):
            raw = [{k: v for k, v in p.items() if k not in DERIVED_TILE_KEYS} if isinstance(p, dict) else p for p in raw]
        try:
            values[name] = _decoder(hints[name])(raw)
        except _Bad as err:
            raise ValueError(f"{err.under('state.' + name)}") from None
    catalog = load_catalog(values["options"].catalog_dir or None)
    return State(**values, catalog=catalog)
