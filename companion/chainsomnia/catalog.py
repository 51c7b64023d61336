"""The CHAINsomnia catalog: characters, room tiles, Event cards and Item cards as data.

The box's card lists are not published, so every number an owner may need to correct lives in
TOML under ``companion/data/chainsomnia/`` (or a directory of their own). Card behaviour is a
small vocabulary of effects, passive powers and defeat conditions that the engine interprets;
``docs/CATALOG.md`` describes it. ``load_catalog`` returns the whole catalog or raises the first
``CatalogError``; ``check_catalog`` collects every error, each naming file, entry and field.

>>> catalog = load_catalog()
>>> len(catalog.tiles), len(catalog.event_cards), len(catalog.item_cards)
(22, 40, 20)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.catalog import DATA_DIR, CatalogCache, CatalogError, EntryReader, read_copies, read_entries, read_tables

CATALOG_DIR = DATA_DIR / "chainsomnia"
FILES = ("characters.toml", "tiles.toml", "events.toml", "items.toml")

ATTRIBUTES = ("strength", "intelligence", "luck")
SIDES = ("north", "east", "south", "west")
DOOR_COLOURS = ("bronze", "silver", "gold", "none")
TILE_KINDS = ("chainsomnia", "wake_up", "room")
ABILITIES = {
    "secret_royal_command": "Secret Royal Command",
    "melody_of_a_brilliant_singer": "Melody of a Brilliant Singer",
    "fortune_of_a_bold_entrepreneur": "Fortune of a Bold Entrepreneur",
    "vision_of_a_young_sage": "Vision of a Young Sage",
    "pride_of_the_aristocrat": "Pride of the Aristocrat",
    "tact_of_an_empathetic_girl": "Tact of an Empathetic Girl",
}
EVENT_KINDS = ("bad_dream", "good_omen", "bad_omen")
BAD_DREAM_SIZES = ("small", "medium", "large")
PLACES = ("tile", "item_area", "beside_event_deck")
ITEM_TYPES = ("consumable", "equipable")
# Effect vocabulary: what ``do`` may say, and which ``who``/``where`` each accepts.
EFFECTS = (
    "add_chains",
    "remove_chains",
    "draw_items",
    "discard_items",
    "draw_events",
    "discard_top_bad_dream",
    "move",
    "gain_ap",
)
WHO = ("self", "target", "room", "others_in_room", "all")
WHERE = ("adjacent", "any", "any_free", "with_character")
DEFEAT_HOW = ("test", "discard_items", "take_chains", "all_characters_here")
REACH = ("adjacent", "not_here", "anywhere")


@dataclass(frozen=True)
class Effect:
    """One thing a card or a Secret Nook does: ``do`` to ``who`` ``count`` times, ``where``."""

    do: str
    who: str = "self"
    count: int = 1
    where: str = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"do": self.do, "who": self.who, "count": self.count}
        if self.where:
            data["where"] = self.where
        return data


@dataclass(frozen=True)
class Passive:
    """What a card does while it is in a character's Item area (equipables, Maledictum)."""

    on_turn_start: tuple[Effect, ...] = ()
    bonus: tuple[tuple[str, int], ...] = ()  # (attribute, amount) added to tests
    reroll: int = 0  # dice the holder may reroll once per test (Clover)
    double_defeats: bool = False  # a double on a Victory Test defeats the Bad Dream (Clover)
    vision: bool = False  # draw up to 3 Event/Item cards, keep 1 (Mirror of Truth)

    def bonus_for(self, attribute: str) -> int:
        return sum(amount for name, amount in self.bonus if name == attribute)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if self.on_turn_start:
            data["on_turn_start"] = [e.to_json() for e in self.on_turn_start]
        if self.bonus:
            data["bonus"] = dict(self.bonus)
        if self.reroll:
            data["reroll"] = self.reroll
        if self.double_defeats:
            data["double_defeats"] = True
        if self.vision:
            data["vision"] = True
        return data


@dataclass(frozen=True)
class Nook:
    """A Secret Nook: a Research Test on ``attribute`` at ``at_least`` or more, and its reward."""

    attribute: str
    at_least: int
    chain: bool
    reward: tuple[Effect, ...]


@dataclass(frozen=True)
class CharacterBoard:
    id: str
    name: str
    difficulty: int
    strength: int
    intelligence: int
    luck: int
    chain_gauge: tuple[int, ...]  # the AP number printed on each of the 6 spaces, left to right
    ability: str
    provisional: bool

    def attribute(self, name: str) -> int:
        return int(getattr(self, name))


@dataclass(frozen=True)
class Tile:
    id: str
    name: str
    kind: str
    doors: tuple[str, ...]  # sides with a door before rotation
    door_colour: str
    nooks: tuple[Nook, ...]
    provisional: bool


@dataclass(frozen=True)
class Defeat:
    """How a Bad Dream is defeated, from where, and for how many AP."""

    how: str
    attribute: str = ""
    at_least: int = 0
    count: int = 0
    ap: int = 1
    reach: str = "adjacent"


@dataclass(frozen=True)
class EventCard:
    id: str  # one physical card: "howling_1"
    entry: str  # the catalog entry it comes from: "howling"
    name: str
    kind: str
    size: str
    chain: bool
    place: str
    defeat: Defeat | None
    effects: tuple[Effect, ...]
    held: Passive
    text: str
    provisional: bool

    @property
    def is_bad_dream(self) -> bool:
        return self.kind == "bad_dream"

    @property
    def is_howling(self) -> bool:
        return self.kind == "bad_dream" and self.place == "beside_event_deck"


@dataclass(frozen=True)
class ItemCard:
    id: str
    entry: str
    name: str
    type: str
    stars: int
    use: tuple[Effect, ...]
    ap_cost: int | None  # printed exception to the usual cost (consumable 1, equipable 0)
    passive: Passive
    text: str
    provisional: bool

    @property
    def usable(self) -> bool:
        return bool(self.use)


@dataclass(frozen=True)
class Catalog:
    directory: str
    characters: dict[str, CharacterBoard] = field(hash=False)
    tiles: dict[str, Tile] = field(hash=False)
    event_cards: dict[str, EventCard] = field(hash=False)
    item_cards: dict[str, ItemCard] = field(hash=False)
    wake_up: str = field(default="", compare=False)  # the "Wake Up!" tile's id, looked up often

    @property
    def room_tiles(self) -> list[str]:
        return [t.id for t in self.tiles.values() if t.kind == "room"]

    def tile_of_kind(self, kind: str) -> str:
        return next(t.id for t in self.tiles.values() if t.kind == kind)

    def card_name(self, card: str) -> str:
        if card in self.event_cards:
            return self.event_cards[card].name
        if card in self.item_cards:
            return self.item_cards[card].name
        if card in self.tiles:
            return self.tiles[card].name
        return card




def load_catalog(dir: str | Path | None = None) -> Catalog:  # noqa: A002 - the agreed name
    """Loads (once per directory) and validates a CHAINsomnia catalog; raises CatalogError."""
    return _CATALOGS.load(dir)


def check_catalog(dir: str | Path | None = None) -> list[CatalogError]:  # noqa: A002
    """Every error in a catalog directory (an empty list when it is sound)."""
    return _CATALOGS.check(dir)


def _read_catalog(directory: Path, errors: list[CatalogError]) -> Catalog | None:
    tables = read_tables(directory, FILES, errors)
    characters = read_entries(directory / "characters.toml", tables["characters.toml"], _character, errors)
    tiles = read_entries(directory / "tiles.toml", tables["tiles.toml"], _tile, errors)
    events = read_copies(directory / "events.toml", tables["events.toml"], _event, errors, most=20)
    items = read_copies(directory / "items.toml", tables["items.toml"], _item, errors, most=20)
    if not errors:
        _check_whole(directory, characters, tiles, events, items, errors)
    if errors:
        return None
    wake_up = next(t.id for t in tiles.values() if t.kind == "wake_up")
    return Catalog(str(directory), characters, tiles, events, items, wake_up)






def _id_check(r: EntryReader) -> None:
    if not r.entry.replace("_", "").isalnum() or not r.entry.islower():
        raise r.error(None, "entry names must be lower-case letters, digits and underscores")


def _character(r: EntryReader) -> CharacterBoard:
    _id_check(r)
    gauge = r._get("chain_gauge", None)  # noqa: SLF001 - a list of ints has no reader of its own
    if (
        not isinstance(gauge, list)
        or len(gauge) != 6
        or not all(isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 9 for n in gauge)
    ):
        raise r.error("chain_gauge", f"must list the 6 AP numbers of the gauge (1 to 9), not {gauge!r}")
    if any(a < b for a, b in zip(gauge, gauge[1:])):
        raise r.error("chain_gauge", "numbers must not rise from left to right: the first visible number is the highest")
    return CharacterBoard(
        id=r.entry,
        name=r.str("name"),
        difficulty=r.int("difficulty", 1, low=1, high=3),
        strength=r.int("strength", low=0, high=9),
        intelligence=r.int("intelligence", low=0, high=9),
        luck=r.int("luck", low=0, high=9),
        chain_gauge=tuple(gauge),
        ability=r.str("ability", choices=ABILITIES),
        provisional=r.bool("provisional", False),
    )


def _effect(r: EntryReader, field_name: str, data: Any) -> Effect:
    if not isinstance(data, dict):
        raise r.error(field_name, f"each effect must be a table like {{ do = \"add_chains\", count = 1 }}, not {data!r}")
    sub = EntryReader(r.file, r.entry, data)
    try:
        do = sub.str("do", choices=EFFECTS)
        who = sub.str("who", "self", choices=WHO)
        count = sub.int("count", 1, low=1, high=6)
        where = sub.str("where", "", choices=WHERE)
        sub.finish()
    except CatalogError as err:
        raise r.error(f"{field_name}.{err.field}", str(err).rsplit(": ", 1)[-1]) from None
    if do in ("discard_top_bad_dream", "move") and not where:
        raise r.error(f"{field_name}.where", f'"{do}" needs where = one of {", ".join(WHERE)}')
    if do in ("draw_items", "discard_items", "draw_events", "gain_ap", "discard_top_bad_dream", "move") and who != "self":
        raise r.error(f"{field_name}.who", f'"{do}" acts for the card\'s holder: who must be "self"')
    return Effect(do, who, count, where)


def _effects(r: EntryReader, field_name: str) -> tuple[Effect, ...]:
    value = r._get(field_name, [])  # noqa: SLF001
    if not isinstance(value, list):
        raise r.error(field_name, f"must be a list of effects, not {value!r}")
    return tuple(_effect(r, f"{field_name}[{i}]", e) for i, e in enumerate(value))


def _passive(r: EntryReader, field_name: str) -> Passive:
    value = r._get(field_name, {})  # noqa: SLF001
    if not isinstance(value, dict):
        raise r.error(field_name, f"must be a table, not {value!r}")
    sub = EntryReader(r.file, r.entry, value)
    try:
        on_start_raw = sub._get("on_turn_start", [])  # noqa: SLF001
        if not isinstance(on_start_raw, list):
            raise sub.error("on_turn_start", "must be a list of effects")
        on_start = tuple(_effect(r, f"{field_name}.on_turn_start[{i}]", e) for i, e in enumerate(on_start_raw))
        bonus_raw = sub.table("bonus", {})
        bonus = []
        for attribute, amount in bonus_raw.items():
            if attribute not in ATTRIBUTES:
                raise sub.error("bonus", f"attributes are {', '.join(ATTRIBUTES)}, not {attribute!r}")
            if not isinstance(amount, int) or isinstance(amount, bool) or not -5 <= amount <= 5:
                raise sub.error("bonus", f"{attribute} must be a whole number from -5 to 5")
            bonus.append((attribute, amount))
        passive = Passive(
            on_turn_start=on_start,
            bonus=tuple(bonus),
            reroll=sub.int("reroll", 0, low=0, high=2),
            double_defeats=sub.bool("double_defeats", False),
            vision=sub.bool("vision", False),
        )
        sub.finish()
    except CatalogError as err:
        if err.field and not err.field.startswith(field_name):
            raise r.error(f"{field_name}.{err.field}", str(err).rsplit(": ", 1)[-1]) from None
        raise
    return passive


def _tile(r: EntryReader) -> Tile:
    _id_check(r)
    doors = r.str_list("doors")
    for side in doors:
        if side not in SIDES:
            raise r.error("doors", f"sides are {', '.join(SIDES)}, not {side!r}")
    if len(set(doors)) != len(doors) or not doors:
        raise r.error("doors", "list each side with a door once, and at least one")
    nooks_raw = r._get("nooks", [])  # noqa: SLF001
    if not isinstance(nooks_raw, list):
        raise r.error("nooks", "must be a list of Secret Nooks")
    nooks = []
    for i, raw in enumerate(nooks_raw):
        where = f"nooks[{i}]"
        if not isinstance(raw, dict):
            raise r.error(where, "must be a table like { attribute = \"luck\", at_least = 9, reward = [...] }")
        sub = EntryReader(r.file, r.entry, raw)
        try:
            attribute = sub.str("attribute", choices=ATTRIBUTES)
            at_least = sub.int("at_least", low=2, high=20)
            chain = sub.bool("chain", False)
        except CatalogError as err:
            raise r.error(f"{where}.{err.field}", str(err).rsplit(": ", 1)[-1]) from None
        reward = _effects(sub, "reward")
        try:
            sub.finish()
        except CatalogError as err:
            raise r.error(f"{where}.{err.field}", str(err).rsplit(": ", 1)[-1]) from None
        if not reward:
            raise r.error(f"{where}.reward", "a Secret Nook needs a reward")
        nooks.append(Nook(attribute, at_least, chain, reward))
    return Tile(
        id=r.entry,
        name=r.str("name"),
        kind=r.str("kind", "room", choices=TILE_KINDS),
        doors=tuple(doors),
        door_colour=r.str("door_colour", choices=DOOR_COLOURS),
        nooks=tuple(nooks),
        provisional=r.bool("provisional", False),
    )


def _defeat(r: EntryReader) -> Defeat | None:
    raw = r._get("defeat", None)  # noqa: SLF001
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise r.error("defeat", "must be a table like { how = \"test\", attribute = \"strength\", at_least = 9 }")
    sub = EntryReader(r.file, r.entry, raw)
    try:
        how = sub.str("how", choices=DEFEAT_HOW)
        defeat = Defeat(
            how=how,
            attribute=sub.str("attribute", choices=ATTRIBUTES) if how == "test" else "",
            at_least=sub.int("at_least", low=2, high=20) if how == "test" else 0,
            count=sub.int("count", low=1, high=6) if how in ("discard_items", "take_chains") else 0,
            ap=sub.int("ap", 0 if how == "all_characters_here" else 1, low=0, high=3),
            reach=sub.str("reach", "adjacent", choices=REACH),
        )
        sub.finish()
    except CatalogError as err:
        raise r.error(f"defeat.{err.field}", str(err).rsplit(": ", 1)[-1]) from None
    return defeat


def _event(r: EntryReader, card_id: str) -> EventCard:
    _id_check(r)
    kind = r.str("kind", choices=EVENT_KINDS)
    bad_dream = kind == "bad_dream"
    card = EventCard(
        id=card_id,
        entry=r.entry,
        name=r.str("name"),
        kind=kind,
        size=r.str("size", "small", choices=BAD_DREAM_SIZES) if bad_dream else "",
        chain=r.bool("chain", False),
        place=r.str("place", "tile", choices=PLACES) if bad_dream else "",
        defeat=_defeat(r),
        effects=_effects(r, "effects"),
        held=_passive(r, "held"),
        text=r.str("text", ""),
        provisional=r.bool("provisional", False),
    )
    if not bad_dream and card.defeat is not None:
        raise r.error("defeat", "only Bad Dream cards are defeated; omens apply at once")
    if bad_dream and card.place != "beside_event_deck" and card.defeat is None:
        raise r.error("defeat", "a Bad Dream placed on a tile or in an Item area needs a defeat condition")
    if card.held != Passive() and card.place != "item_area":
        raise r.error("held", "only Bad Dreams placed in the Item area act while held")
    if bad_dream and card.place == "item_area" and card.defeat is not None and card.defeat.reach == "adjacent":
        raise r.error("defeat.reach", "a Bad Dream in an Item area is on no tile: its reach must be \"anywhere\"")
    if card.defeat is not None and card.defeat.how == "all_characters_here" and card.place != "tile":
        raise r.error("defeat.how", "\"all_characters_here\" needs the card on a tile")
    return card


def _item(r: EntryReader, card_id: str) -> ItemCard:
    _id_check(r)
    item_type = r.str("type", choices=ITEM_TYPES)
    raw_cost = r._get("ap_cost", None)  # noqa: SLF001
    if raw_cost is not None and (not isinstance(raw_cost, int) or isinstance(raw_cost, bool) or not 0 <= raw_cost <= 3):
        raise r.error("ap_cost", f"must be a whole number from 0 to 3, not {raw_cost!r}")
    card = ItemCard(
        id=card_id,
        entry=r.entry,
        name=r.str("name"),
        type=item_type,
        stars=r.int("stars", low=1, high=3),
        use=_effects(r, "use"),
        ap_cost=raw_cost,
        passive=_passive(r, "passive"),
        text=r.str("text", ""),
        provisional=r.bool("provisional", False),
    )
    if item_type == "consumable" and not card.use:
        raise r.error("use", "a consumable Item needs an effect to apply when used")
    if item_type == "consumable" and card.passive != Passive():
        raise r.error("passive", "a consumable Item is discarded after use: it has no lasting power")
    return card


def _check_whole(
    directory: Path,
    characters: dict[str, CharacterBoard],
    tiles: dict[str, Tile],
    events: dict[str, EventCard],
    items: dict[str, ItemCard],
    errors: list[CatalogError],
) -> None:
    """Rules that concern a file as a whole (the box's counts, one CHAINsomnia tile...)."""
    tiles_file = str(directory / "tiles.toml")
    kinds = [t.kind for t in tiles.values()]
    for kind, name in (("chainsomnia", "CHAINsomnia"), ("wake_up", "Wake Up!")):
        if kinds.count(kind) != 1:
            errors.append(CatalogError(tiles_file, f"needs exactly one {name} tile (kind = \"{kind}\"), found {kinds.count(kind)}"))
    if kinds.count("room") < 5:
        errors.append(CatalogError(tiles_file, f"needs at least 5 room tiles for Beginner Mode, found {kinds.count('room')}"))
    for tile in tiles.values():
        if tile.kind == "chainsomnia" and len(tile.doors) < 3:
            errors.append(CatalogError(tiles_file, "the CHAINsomnia tile needs at least 3 doors (solo setup lays 3 tiles against it)", tile.id, "doors"))
    chars_file = str(directory / "characters.toml")
    if len(characters) < 4:
        errors.append(CatalogError(chars_file, f"needs at least 4 characters (a 4-player game), found {len(characters)}"))
    events_file = str(directory / "events.toml")
    if len(events) < 10:
        errors.append(CatalogError(events_file, f"needs at least 10 Event cards, found {len(events)}"))
    items_file = str(directory / "items.toml")
    if not items:
        errors.append(CatalogError(items_file, "needs at least 1 Item card"))
    clash = set(events) & set(items)
    for card in sorted(clash):
        errors.append(CatalogError(items_file, "an Item card and an Event card share this id", card))


# load_catalog and check_catalog above read through this cache.
_CATALOGS = CatalogCache(_read_catalog, CATALOG_DIR)
