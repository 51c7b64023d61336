"""What a seat (or the public table, the phones' mirror) may see of a CHAINsomnia game.

Everything on the table is public in this cooperative game: the castle, the Bad Dream stacks,
every board, Item area and discard pile (FAQ: players may look at them at any time). What is
face down is not: deck order, the tiles boxed at setup and the generator's seed never leave the
engine. The cards Charlotte (or the Mirror of Truth's holder) looks at are shown only to the
seat that controls her.
"""

from __future__ import annotations

from typing import Any

from companion.chainsomnia.castle import door_sides
from companion.chainsomnia.state import CAGE, Pending, State

DECK_NAMES = {"castle": "Castle deck", "event": "Event deck", "item": "Item deck"}


def _card(state: State, card: str) -> dict[str, Any]:
    return {"id": card, "name": state.catalog.card_name(card)}


def seat_of(state: State, cid: str) -> int:
    for i, seat in enumerate(state.options.seats):
        if cid in seat:
            return i
    raise KeyError(cid)


def waiting_text(state: State, p: Pending) -> str:
    who = state.catalog.characters[p.who].name
    if p.kind == "roll":
        test = p.test
        what = f"{test.kind.capitalize()} Test" if test else "Test"
        return f"Roll {p.count} {'die' if p.count == 1 else 'dice'} for {who}'s {what}"
    return {
        "keep_dice": f"{who} keeps 2 of the 3 dice",
        "clover": f"{who} may reroll 1 die with the Clover, or keep the roll",
        "draw": f"Draw a card from the {DECK_NAMES.get(p.deck, p.deck)} for {who}",
        "vision": f"{who} keeps 1 of the {len(p.cards)} cards and puts the others back on top in any order",
        "place_tile": f"Place the {state.catalog.card_name(p.tile)} tile",
        "flee": f"{who} is frightened: choose where {who} flees",
        "discard_excess": f"{who} has more than 2 Items: discard one",
        "discard_items": f"{who} discards {p.count} Item(s)",
        "choose_tile": f"{who} chooses a Room",
    }.get(p.kind, p.kind)


def pending_json(state: State, p: Pending, seat: int | None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "kind": p.kind,
        "character": p.who,
        "name": state.catalog.characters[p.who].name,
        "seat": seat_of(state, p.who),
        "text": waiting_text(state, p),
    }
    if p.kind in ("roll",):
        out["count"] = p.count
        out["kept"] = list(p.dice)
    if p.kind in ("keep_dice", "clover"):
        out["dice"] = list(p.dice)
    if p.test is not None:
        out["test"] = {
            "kind": p.test.kind,
            "attribute": p.test.attribute,
            "at_least": p.test.at_least,
            "card": p.test.card or None,
            "nook": p.test.nook if p.test.kind == "research" else None,
        }
    if p.kind in ("draw", "vision"):
        out["deck"] = p.deck
        out["count"] = len(p.cards) if p.kind == "vision" else p.count
        if seat is not None and seat == out["seat"]:
            out["cards"] = [_card(state, c) for c in p.cards]
    if p.kind == "place_tile":
        out["tile"] = _card(state, p.tile)
        out["options"] = [{"at": [x, y], "rotation": r} for x, y, r in p.options]
    if p.kind in ("flee", "choose_tile"):
        out["options"] = [list(o) for o in p.options]
        if p.kind == "choose_tile":
            out["purpose"] = p.purpose
    if p.kind in ("discard_excess", "discard_items"):
        out["count"] = p.count
    if p.cell is not None:
        out["from"] = list(p.cell)
    return out


def view(state: State, seat: int | None) -> dict[str, Any]:
    if seat is not None and not (isinstance(seat, int) and 0 <= seat < len(state.options.seats)):
        raise ValueError(f"seat must be None or 0 to {len(state.options.seats) - 1}, not {seat!r}")
    cat = state.catalog
    stacks = {s.cell: s.cards for s in state.bad_dreams}
    characters = []
    for c in state.characters:
        board = cat.characters[c.id]
        characters.append(
            {
                "id": c.id,
                "name": board.name,
                "seat": seat_of(state, c.id),
                "cell": list(c.cell),
                "room": cat.tiles[next(p.tile for p in state.castle if p.cell == c.cell)].name,
                "chains": c.chains,
                "chain_gauge": list(board.chain_gauge),
                "ap": c.ap,
                "caged": c.chains >= CAGE,
                "trapped": c.cell in stacks,
                "ability": board.ability,
                "attributes": {"strength": board.strength, "intelligence": board.intelligence, "luck": board.luck},
                "items": [dict(_card(state, i), type=cat.item_cards[i].type) for i in c.items],
                "omens": [dict(_card(state, o), kind=cat.event_cards[o].kind) for o in c.omens],
                "bad_dreams": [_card(state, b) for b in c.bad_dreams],
            }
        )
    castle = []
    for p in state.castle:
        tile = cat.tiles[p.tile]
        castle.append(
            {
                "tile": p.tile,
                "name": tile.name,
                "kind": tile.kind,
                "at": [p.x, p.y],
                "rotation": p.rotation,
                "door_sides": door_sides(p.doors),
                "door_colour": tile.door_colour,
                "nooks": [{"attribute": n.attribute, "at_least": n.at_least, "chain": n.chain} for n in tile.nooks],
                "bad_dreams": [_card(state, b) for b in stacks.get(p.cell, ())],
            }
        )
    return {
        "game": "chainsomnia",
        "seat": seat,
        "round": state.round,
        "phase": state.phase,
        "result": state.result,
        "cause": state.cause,
        "players": state.options.players,
        "mode": state.options.mode,
        "dice": state.options.dice,
        "decks_mode": state.options.decks,
        "seats": [list(s) for s in state.options.seats],
        "first_player": state.characters[state.first].id,
        "turn": state.characters[state.turn].id if state.phase == "players" else None,
        "characters": characters,
        "castle": castle,
        "howling": [_card(state, h) for h in state.howling],
        "howling_count": len(state.howling),
        "decks": {"castle": state.castle_deck.size, "event": state.event_deck.size, "item": state.item_deck.size},
        "discards": {
            "bad_dreams": [_card(state, b) for b in state.bad_dream_discard],
            "items": [_card(state, i) for i in state.item_discard],
        },
        "pending": pending_json(state, state.pending, seat) if state.pending else None,
    }
