"""Helpers for CHAINsomnia rule tests: a game to drive, and a way to lay out a scene.

``game(...)`` starts a real game through ``RULES.new_game`` (digital decks and real dice whose
values the test gives, unless told otherwise) and returns a ``Game`` whose ``do``/``refuse`` apply actions. ``arrange``
then lays out exactly the position a rulebook clause talks about (tiles, Bad Dreams, chains,
Items, the top of each deck), so each test reads like the sentence it checks.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from companion.chainsomnia import RULES
from companion.chainsomnia.castle import door_mask
from companion.chainsomnia.invariants import violations
from companion.chainsomnia.state import Deck, PlacedTile, Stack, State
from companion.rules import IllegalAction


class Game:
    def __init__(self, state: State) -> None:
        self.state = state
        self.events: list[dict[str, Any]] = []

    # --- driving -----------------------------------------------------------------------------
    def do(self, action_type: str, **fields: Any) -> list[dict[str, Any]]:
        return self.act({"type": action_type, **fields})

    def act(self, action: dict[str, Any]) -> list[dict[str, Any]]:
        before = self.state
        self.state, self.events = RULES.apply(self.state, action)
        assert violations(before, action, self.state, self.events) == []
        return self.events

    def refuse(self, action_type: str, **fields: Any) -> IllegalAction:
        before = self.state
        with pytest.raises(IllegalAction) as info:
            RULES.apply(self.state, {"type": action_type, **fields})
        assert self.state is before
        return info.value

    def legal(self) -> list[dict[str, Any]]:
        return RULES.legal_actions(self.state)

    def roll(self, *values: int) -> list[dict[str, Any]]:
        return self.do("dice", values=list(values))

    # --- reading -----------------------------------------------------------------------------
    def char(self, cid: str):  # noqa: ANN201
        return self.state.character(cid)

    def stack(self, x: int, y: int) -> tuple[str, ...]:
        for s in self.state.bad_dreams:
            if s.cell == (x, y):
                return s.cards
        return ()

    def types(self) -> list[str]:
        return [e["type"] for e in self.events]

    @property
    def pending(self):  # noqa: ANN201
        return self.state.pending

    # --- laying out a scene --------------------------------------------------------------------
    def arrange(
        self,
        tiles: Iterable[tuple[str, int, int, int]] = (),
        stacks: Mapping[tuple[int, int], Iterable[str]] | None = None,
        chars: Mapping[str, Mapping[str, Any]] | None = None,
        event_deck: Iterable[str] | None = None,
        item_deck: Iterable[str] | None = None,
        castle_deck: Iterable[str] | None = None,
        howling: Iterable[str] | None = None,
        turn: str | None = None,
    ) -> Game:
        s = self.state
        cat = s.catalog
        castle = s.castle + tuple(
            PlacedTile(t, x, y, r, door_mask(cat.tiles[t].doors, r)) for t, x, y, r in tiles
        )
        changes: dict[str, Any] = {"castle": castle, "geo": None}
        if stacks is not None:
            changes["bad_dreams"] = tuple(Stack(x, y, tuple(cards)) for (x, y), cards in sorted(stacks.items()) if cards)
        if chars:
            characters = []
            for c in s.characters:
                update = dict(chars.get(c.id, {}))
                if "cell" in update:
                    update["cell"] = tuple(update["cell"])
                for key in ("items", "bad_dreams", "omens"):
                    if key in update:
                        update[key] = tuple(update[key])
                characters.append(dataclasses.replace(c, **update))
            changes["characters"] = tuple(characters)
        # cards laid out in the scene leave the decks, so no card is ever in two places
        laid = {t for t, *_ in tiles}
        laid.update(card for cards in (stacks or {}).values() for card in cards)
        laid.update(howling or ())
        for update in (chars or {}).values():
            for key in ("items", "bad_dreams", "omens"):
                laid.update(update.get(key, ()))

        def without(deck: Deck) -> Deck:
            return Deck(tuple(c for c in deck.top if c not in laid), deck.pool, deck.unknown, tuple(c for c in deck.bottom if c not in laid))

        changes["event_deck"] = Deck(top=tuple(event_deck)) if event_deck is not None else without(s.event_deck)
        changes["item_deck"] = Deck(top=tuple(item_deck)) if item_deck is not None else without(s.item_deck)
        if castle_deck is not None:
            castle_deck = tuple(castle_deck)
            changes["castle_deck"] = Deck(top=castle_deck, bottom=(cat.tile_of_kind("wake_up"),))
            laid.update(castle_deck)
        else:
            changes["castle_deck"] = without(s.castle_deck)
        changes["boxed"] = tuple(t for t in s.boxed if t not in laid)
        if howling is not None:
            changes["howling"] = tuple(howling)
        if turn is not None:
            index = s.options.characters.index(turn)
            n = len(s.characters)
            changes["turn"] = index
            changes["played"] = (index - s.first) % n
        self.state = dataclasses.replace(s, **changes)
        return self


def new(players: int = 4, characters: list[str] | None = None, **options: Any) -> Game:
    if characters is None:
        characters = ["ryan", "chloe", "isaac", "timi"][: {1: 3, 2: 4, 3: 3, 4: 4}[players]]
        if players in (1, 3):
            characters = ["ryan", "chloe", "timi"]
    # real dice by default, so a test gives the values it needs; virtual dice are asked for
    setup = {"players": players, "characters": characters, "seed": options.pop("seed", 1), "dice": "physical"}
    setup.update(options)
    return Game(RULES.new_game(setup))


@pytest.fixture
def game():
    """A factory: ``game(players=4, characters=[...], **setup_options)`` -> Game."""
    return new
