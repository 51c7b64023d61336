"""Game Setup: characters and seats, chains, decks, the CHAINsomnia tile and the First Player.

Options (all optional but ``players``):

- ``players``: 1 to 4. Solo controls 3 characters, 2 players 2 each, 3 and 4 players 1 each.
- ``characters``: ids in turn order (the first seat's leftmost board first); random if absent.
- ``mode``: ``normal`` (16 room tiles + Wake Up!) or ``beginner`` (5 + Wake Up!).
- ``dice``: ``virtual`` (the app rolls) or ``physical`` (``camera``/``typed`` mean physical).
- ``decks``: ``digital`` (shuffled from the seed) or ``physical`` (each drawn card is reported).
- ``seed``: the generator's seed (default 0).
- ``castle_deck``/``event_deck``/``item_deck``: an explicit digital deck, top first (the
  Castle deck without Wake Up!, which is always added last).
- ``first_player``: the character who starts with the First Player token.
- ``catalog_dir``: a catalog directory of the owner's own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.catalog import CatalogError
from companion.chainsomnia import rng
from companion.chainsomnia.castle import door_mask
from companion.chainsomnia.catalog import Catalog, load_catalog
from companion.chainsomnia.state import Character, Deck, Options, PlacedTile, State, Step
from companion.rules import IllegalAction

CHARACTERS_FOR = {1: 3, 2: 4, 3: 3, 4: 4}
SEAT_SIZES = {1: (3,), 2: (2, 2), 3: (1, 1, 1), 4: (1, 1, 1, 1)}
TILES_FOR = {"normal": 16, "beginner": 5}
KNOWN_OPTIONS = {
    "players", "characters", "mode", "dice", "decks", "seed", "castle_deck", "event_deck",
    "item_deck", "first_player", "catalog_dir",
}
DICE = {"virtual": "virtual", "physical": "physical", "camera": "physical", "typed": "physical"}


def bad(message: str) -> IllegalAction:
    return IllegalAction("bad_setup", message)


def _choice(options: Mapping[str, Any], key: str, allowed: Mapping[str, str] | tuple[str, ...], default: str) -> str:
    value = options.get(key, default)
    if value not in allowed:
        raise bad(f'setup option "{key}" must be one of {", ".join(allowed)}, not {value!r}')
    return allowed[value] if isinstance(allowed, Mapping) else value


def _deck_list(options: Mapping[str, Any], key: str, allowed: set[str]) -> tuple[str, ...] | None:
    value = options.get(key)
    if value is None:
        return None
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad(f'setup option "{key}" must be a list of card ids, top first')
    for card in value:
        if card not in allowed:
            raise bad(f'setup option "{key}": {card!r} is not a card of that deck')
    if len(set(value)) != len(value):
        raise bad(f'setup option "{key}" lists a card twice')
    return tuple(value)


def new_game(options: Mapping[str, Any]) -> State:
    if not isinstance(options, Mapping):
        raise bad("setup options must be an object")
    unknown = sorted(set(options) - KNOWN_OPTIONS)
    if unknown:
        raise bad(f'unknown setup option "{unknown[0]}" (known: {", ".join(sorted(KNOWN_OPTIONS))})')
    players = options.get("players")
    if players not in CHARACTERS_FOR or isinstance(players, bool):
        raise bad(f'setup option "players" must be 1, 2, 3 or 4, not {players!r}')
    try:
        catalog = load_catalog(options.get("catalog_dir") or None)
    except CatalogError as err:
        raise bad(f"the catalog cannot be used: {err}") from None
    mode = _choice(options, "mode", ("normal", "beginner"), "normal")
    dice = _choice(options, "dice", DICE, "virtual")
    decks = _choice(options, "decks", ("digital", "physical"), "digital")
    seed = options.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise bad(f'setup option "seed" must be a whole number, not {seed!r}')
    state = rng.seed_state(seed)

    count = CHARACTERS_FOR[players]
    chosen = options.get("characters")
    if chosen is None:
        state, order = rng.shuffled(state, sorted(catalog.characters))
        chosen_t = tuple(order[:count])
    else:
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise bad('setup option "characters" must be a list of character ids')
        for cid in chosen:
            if cid not in catalog.characters:
                raise bad(f'setup option "characters": no character {cid!r} (known: {", ".join(catalog.characters)})')
        if len(set(chosen)) != len(chosen):
            raise bad('setup option "characters" lists a character twice')
        if len(chosen) != count:
            raise bad(f"{players} player(s) play {count} characters, but {len(chosen)} are listed")
        chosen_t = tuple(chosen)
    seats, i = [], 0
    for size in SEAT_SIZES[players]:
        seats.append(chosen_t[i : i + size])
        i += size

    first_player = options.get("first_player", chosen_t[0])
    if first_player not in chosen_t:
        raise bad(f'setup option "first_player" must be one of the characters in play, not {first_player!r}')
    first = chosen_t.index(first_player)

    chains = 1 if players == 3 else 2
    start = (0, 0)
    characters = tuple(
        Character(cid, start, chains, catalog.characters[cid].chain_gauge[chains]) for cid in chosen_t
    )

    state, castle_deck, boxed = _castle_deck(catalog, options, mode, decks, state)
    state, event_deck = _card_deck(options, "event_deck", sorted(catalog.event_cards), decks, state)
    state, item_deck = _card_deck(options, "item_deck", sorted(catalog.item_cards), decks, state)

    chainsomnia = catalog.tiles[catalog.tile_of_kind("chainsomnia")]
    castle = (PlacedTile(chainsomnia.id, 0, 0, 0, door_mask(chainsomnia.doors, 0)),)
    queue: tuple[Step, ...] = ()
    if players in (1, 3):
        # solo and 3 players: 3 tiles laid against the CHAINsomnia tile, without Event cards
        queue = tuple(Step("take", chosen_t[first], context="setup", count=1, deck="castle") for _ in range(3))
    queue += (Step("start_turn", chosen_t[first]),)
    return State(
        options=Options(players, chosen_t, tuple(seats), mode, dice, decks, str(options.get("catalog_dir") or ""), seed),
        rng=state,
        round=1,
        phase="setup",
        first=first,
        turn=first,
        played=0,
        characters=characters,
        castle=castle,
        bad_dreams=(),
        howling=(),
        castle_deck=castle_deck,
        event_deck=event_deck,
        item_deck=item_deck,
        bad_dream_discard=(),
        item_discard=(),
        boxed=boxed,
        queue=queue,
        pending=None,
        result="",
        cause="",
        catalog=catalog,
    )


def _castle_deck(catalog: Catalog, options: Mapping[str, Any], mode: str, decks: str, state: int) -> tuple[int, Deck, tuple[str, ...]]:
    rooms = sorted(catalog.room_tiles)
    wake_up = catalog.tile_of_kind("wake_up")
    explicit = _deck_list(options, "castle_deck", set(rooms))
    if explicit is not None:
        return state, Deck(top=explicit, bottom=(wake_up,)), tuple(r for r in rooms if r not in explicit)
    size = min(TILES_FOR[mode], len(rooms))
    if decks == "physical":
        return state, Deck(pool=tuple(rooms), unknown=size, bottom=(wake_up,)), ()
    state, order = rng.shuffled(state, rooms)
    return state, Deck(top=order[:size], bottom=(wake_up,)), tuple(sorted(order[size:]))


def _card_deck(options: Mapping[str, Any], key: str, cards: list[str], decks: str, state: int) -> tuple[int, Deck]:
    explicit = _deck_list(options, key, set(cards))
    if explicit is not None:
        return state, Deck(top=explicit)
    if decks == "physical":
        return state, Deck(pool=tuple(cards), unknown=len(cards))
    state, order = rng.shuffled(state, cards)
    return state, Deck(top=order)
