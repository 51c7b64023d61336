"""What must hold after every action of any CHAINsomnia game, whatever the players do.

The simulator and the property test call ``violations(before, action, after, events)`` after
every action; an empty list means the rules kept their promises: chains 0 to 6, a hand of 2 at
rest, AP never negative, every placed tile's doors and walls lined up, nobody moving into or out
of a Bad Dream room by a move, and every card in exactly one place.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from companion.chainsomnia.castle import SIDE_BITS, opposite, step
from companion.chainsomnia.state import CAGE, HAND, State


def violations(before: State | None, action: Mapping[str, Any] | None, after: State, events: Sequence[Mapping[str, Any]]) -> list[str]:
    found: list[str] = []
    p = after.pending
    cells = {}
    for placed in after.castle:
        if placed.cell in cells:
            found.append(f"two tiles at {placed.cell}")
        cells[placed.cell] = placed.doors
    for cell, mask in cells.items():
        for side in range(4):
            other = cells.get(step(cell, side))
            if other is not None and bool(mask & SIDE_BITS[side]) != bool(other & SIDE_BITS[opposite(side)]):
                found.append(f"the tiles at {cell} and {step(cell, side)} do not line up")
    for c in after.characters:
        if not 0 <= c.chains <= CAGE:
            found.append(f"{c.id} has {c.chains} chains")
        if c.ap < 0:
            found.append(f"{c.id} has {c.ap} AP")
        if len(c.items) > HAND and not (p is not None and p.kind == "discard_excess" and p.who == c.id):
            found.append(f"{c.id} holds {len(c.items)} Items at rest")
        if c.cell not in cells:
            found.append(f"{c.id} stands on no tile at {c.cell}")
    for s in after.bad_dreams:
        if not s.cards:
            found.append(f"an empty Bad Dream stack at {s.cell}")
        if s.cell not in cells:
            found.append(f"a Bad Dream stack on no tile at {s.cell}")
    if before is not None and action is not None and action.get("type") == "move":
        stacks_before = {s.cell for s in before.bad_dreams}
        mover = before.current
        if mover.cell in stacks_before:
            found.append(f"{mover.id} moved out of a Bad Dream room")
        for e in events:
            if e["type"] == "moved" and e["how"] == "move" and tuple(e["to"]) in stacks_before:
                found.append(f"{e['character']} moved into a Bad Dream room")
    if after.phase != "over" and not after.pending and after.phase != "players":
        found.append(f"waiting in phase {after.phase} with nothing pending")
    if after.phase == "over" and after.result not in ("victory", "defeat"):
        found.append("the game is over without a result")
    found += _card_count(before, after)
    return found


def _card_places(s: State) -> tuple[Counter[str], Counter[str], Counter[str]]:
    """Where every Event, Item and tile card is (digital decks know them all)."""
    events: Counter[str] = Counter(s.event_deck.top + s.event_deck.bottom)
    items: Counter[str] = Counter(s.item_deck.top + s.item_deck.bottom)
    tiles: Counter[str] = Counter(s.castle_deck.top + s.castle_deck.bottom + s.boxed)
    tiles.update(p.tile for p in s.castle)
    events.update(s.howling)
    events.update(s.bad_dream_discard)
    items.update(s.item_discard)
    for st in s.bad_dreams:
        events.update(st.cards)
    for c in s.characters:
        events.update(c.omens)
        events.update(c.bad_dreams)
        items.update(c.items)
    for queued in s.queue:
        (events if queued.deck == "event" else items).update(queued.cards)
        if queued.kind == "event":
            events[queued.card] += 1
        elif queued.kind == "gain_item":
            items[queued.card] += 1
        elif queued.kind == "tile_drawn":
            tiles[queued.card] += 1
    p = s.pending
    if p is not None and p.kind == "vision":
        (events if p.deck == "event" else items).update(p.cards)
    if p is not None and p.kind == "place_tile":
        tiles[p.tile] += 1
    return events, items, tiles


# the last state counted, so a game checked action after action counts each state once
_LAST: list[Any] = [None, None]


def _card_count(before: State | None, after: State) -> list[str]:
    """No card is in two places, and no card appears or vanishes (digital decks only)."""
    if after.options.decks != "digital":
        return []
    found = []
    now = _card_places(after)
    was = _LAST[1] if before is not None and _LAST[0] is before else (_card_places(before) if before is not None else None)
    _LAST[0], _LAST[1] = after, now
    for name, seen in zip(("Event", "Item", "tile"), now):
        doubles = sorted(c for c, n in seen.items() if n > 1)
        if doubles:
            found.append(f"{name} cards in two places: {doubles}")
    if was is not None:
        for name, old, seen in zip(("Event", "Item", "tile"), was, now):
            if not dict.__eq__(old, seen):  # a plain dict comparison: Counter's own is slow
                found.append(f"{name} cards appeared {sorted((seen - old).elements())} or vanished {sorted((old - seen).elements())}")
    return found
