"""The state of a game of Somnicum: the field circle, the flywheels, the bag, the decks, each
player's dream, tokens and Meeting cards, and where the turn stands.

State is immutable. Inside one ``apply`` the rules change a :class:`Draft` (the same fields,
reassignable) and freeze it again, which keeps each action cheap. ``state_to_json`` and
``state_from_json`` round-trip exactly.

Where the turn stands is ``phase`` plus a few counters:

- ``lay_field`` (chance, physical field): the next Dream card laid on the field;
- ``deal_goals`` (chance, physical): each seat still without one enters its Goal card, in any
  order (``actor`` is the first of them);
- ``draw_tokens`` (chance, physical bag): ``to_draw`` more tokens for ``actor``, for ``draw_reason``;
- ``place_flywheels`` (choice): ``actor``, right of the first player, places the flywheels;
- ``turn``: ``turn`` may add a particle, play Meeting cards, and must move a flywheel;
- ``pay`` (choice): which Sleep Sand token pays the next step beyond the free ones (``owed``);
- ``attach``: the card ``taken`` must be attached to a level of the dream;
- ``draw_meetings`` (chance, physical deck): ``to_draw`` more Meeting cards;
- ``keep_meeting`` (choice): which of the ``offered`` Meeting cards to keep;
- ``end_turn``: Meeting cards may still be played, then the turn ends;
- ``over``: the third round has ended.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

LEVELS = 3
FLYWHEELS = ("black", "white")
NOT_PLACED = -1


@dataclass(frozen=True)
class PlacedCard:
    """A Dream card in a dream: its id, the tokens placed on it, and for levels 2 and 3 the
    pair of the level above it lies under (``under``: the left card's index)."""

    card: str
    tokens: tuple[str, ...] = ()
    under: int = -1


@dataclass(frozen=True)
class Row:
    """One level of a dream, left to right. ``gaps[i]`` lies between card i and i+1: None when the
    dream is continuous there, else the gap's token id ("" for a gap drawn from an empty bag)."""

    cards: tuple[PlacedCard, ...] = ()
    gaps: tuple[str | None, ...] = ()


EMPTY_DREAM: tuple[Row, ...] = (Row(),) * LEVELS


@dataclass(frozen=True)
class PlayerState:
    name: str
    supply: tuple[str, ...] = ()  # Sleep Sand token ids, sorted; faces are secret
    goal: str = ""  # Goal card id, secret ("" until dealt)
    dream: tuple[Row, ...] = EMPTY_DREAM
    hand: tuple[str, ...] = ()  # unplayed Meeting cards, secret
    in_front: tuple[str, ...] = ()  # permanent Meeting cards played face up


@dataclass(frozen=True)
class SomnicumState:
    catalog_dir: str  # "" for the catalog shipped with Dreamtable
    digital: bool  # True: the seeded generator lays cards and draws tokens; False: the table does
    rng: int
    players: tuple[PlayerState, ...]
    round: int
    first_player: int
    turn: int  # whose turn it is
    phase: str
    actor: int  # the seat that must act now (-1: the table, laying the field)
    field: tuple[str, ...]  # Dream cards clockwise
    flywheels: tuple[int, int]  # black, white: the gap before field[i]; NOT_PLACED before placing
    deck: tuple[str, ...]  # Dream cards put aside at setup, sorted
    out_of_play: tuple[str, ...]  # cards left on the field when a round ended
    bag: tuple[str, ...]  # Sleep Sand token ids, sorted
    meeting_deck: tuple[str, ...]  # sorted: a digital deck draws at random, so has no order
    meeting_discard: tuple[str, ...]  # face up beside the deck, in discard order
    goal_box: tuple[str, ...]  # Goal cards not dealt
    # -- this turn (reset at its start) --
    placements: int = 0  # particle placements still allowed
    bonus_steps: int = 0  # free steps from one-time Meeting cards
    continuous: bool = False  # the next card attached joins without a gap
    moved: str = ""  # the flywheel moved ("" before moving)
    steps: int = 0
    owed: int = 0  # tokens still to pay for steps
    to_draw: int = 0  # chance outcomes still awaited
    draw_reason: str = ""  # start | flywheel | effect | gap (tokens); meeting (Meeting cards)
    resume: str = ""  # the phase an effect's draw returns to
    drew_blank: bool = False  # a token drawn after this move has a blank back
    closed: bool = False  # after this move no card lies between the flywheels
    taken: str = ""  # the Dream card taken, until attached
    attached_level: int = 0
    offered: tuple[str, ...] = ()  # Meeting cards drawn, one to keep
    round_end: str = ""  # "" | "cards" | "flywheels": this turn ends the round
    ended_by: int = -1  # the seat whose turn ended the last round

    @property
    def over(self) -> bool:
        return self.phase == "over"


STATE_FIELDS = tuple(f.name for f in fields(SomnicumState))


class Draft:
    """A state being changed inside one action; ``freeze`` makes the next immutable state.

    The state's fields live in the draft's own ``__dict__``, which ``freeze`` hands over to the
    new state as it is: one copy per action, not two.
    """

    __slots__ = ("cat", "events", "__dict__")

    def __init__(self, state: SomnicumState, catalog: Any) -> None:
        self.__dict__ = state.__dict__.copy()
        self.cat = catalog
        self.events: list[dict[str, Any]] = []

    def freeze(self) -> SomnicumState:
        state = object.__new__(SomnicumState)
        object.__setattr__(state, "__dict__", self.__dict__)
        self.__dict__ = {}  # the draft is spent: the new state owns its fields now
        return state

    # typed access for the rules (the attributes themselves come from the state)
    players: tuple[PlayerState, ...]
    field: tuple[str, ...]
    flywheels: tuple[int, int]
    bag: tuple[str, ...]
    deck: tuple[str, ...]

    def emit(self, event: dict[str, Any]) -> None:
        self.events.append(event)

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def set_player(self, seat: int, **changes: Any) -> PlayerState:
        old = self.players[seat]
        new = object.__new__(PlayerState)
        new.__dict__.update(old.__dict__)
        new.__dict__.update(changes)
        self.players = self.players[:seat] + (new,) + self.players[seat + 1:]
        return new


def evolve(obj: Any, **changes: Any) -> Any:
    """A copy of a frozen dataclass with some fields changed (quicker than dataclasses.replace)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    new.__dict__.update(changes)
    return new


# -- JSON ---------------------------------------------------------------------------------------


def _row_to_json(row: Row) -> dict[str, Any]:
    return {
        "cards": [{"card": c.card, "tokens": list(c.tokens), "under": c.under} for c in row.cards],
        "gaps": list(row.gaps),
    }


def _row_from_json(data: Mapping[str, Any]) -> Row:
    return Row(
        tuple(PlacedCard(c["card"], tuple(c["tokens"]), c["under"]) for c in data["cards"]),
        tuple(data["gaps"]),
    )


def _player_to_json(player: PlayerState) -> dict[str, Any]:
    return {
        "name": player.name,
        "supply": list(player.supply),
        "goal": player.goal,
        "dream": [_row_to_json(row) for row in player.dream],
        "hand": list(player.hand),
        "in_front": list(player.in_front),
    }


def _player_from_json(data: Mapping[str, Any]) -> PlayerState:
    return PlayerState(
        name=data["name"],
        supply=tuple(data["supply"]),
        goal=data["goal"],
        dream=tuple(_row_from_json(row) for row in data["dream"]),
        hand=tuple(data["hand"]),
        in_front=tuple(data["in_front"]),
    )


def state_to_json(state: SomnicumState) -> dict[str, Any]:
    """Every field, as plain JSON data (the seed and the secrets included: this is not a view)."""
    data: dict[str, Any] = {"version": 1}
    for name in STATE_FIELDS:
        value = getattr(state, name)
        if name == "players":
            value = [_player_to_json(p) for p in value]
        elif isinstance(value, tuple):
            value = list(value)
        data[name] = value
    return data


def state_from_json(data: Mapping[str, Any]) -> SomnicumState:
    if data.get("version") != 1:
        raise ValueError(f"not a Somnicum state this version can read (version {data.get('version')!r})")
    values: dict[str, Any] = {}
    for name in STATE_FIELDS:
        value = data[name]
        if name == "players":
            value = tuple(_player_from_json(p) for p in value)
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    return SomnicumState(**values)
