"""The seven actions of a player's turn, each checked against the rulebook, and their listing.

a) explore, b) move, c) search a Secret Nook, d) use an Item, e) give an Item (and discard
Items), f) give or take chains, g) use an Ability, plus defeating a Bad Dream and ending the
turn. Each ``do_*`` function refuses with an ``IllegalAction`` whose sentence cites the rule,
or changes the Work copy; ``legal_player_actions`` lists exactly what the same checks allow.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from itertools import combinations
from typing import Any

from companion.chainsomnia.castle import Cell
from companion.chainsomnia.daemon import end_turn
from companion.chainsomnia.dice import start_test
from companion.chainsomnia.events import (
    cell_json,
    change_chains,
    check_hand,
    defeat_bad_dream,
    discard_item,
    discard_top,
    effect_step,
    move_character,
    tile_options,
)
from companion.chainsomnia.state import CAGE, Step, Test, Work
from companion.rules import IllegalAction

ROYAL_COMMAND = "secret_royal_command"
MELODY = "melody_of_a_brilliant_singer"
PRIDE = "pride_of_the_aristocrat"
TACT = "tact_of_an_empathetic_girl"


# --- reading an action ----------------------------------------------------------------------------


def field(action: Mapping[str, Any], key: str) -> Any:
    if key not in action:
        raise IllegalAction("bad_action", f'A "{action.get("type")}" action needs a "{key}" field')
    return action[key]


def cell_arg(action: Mapping[str, Any], key: str) -> Cell:
    value = field(action, key)
    if (
        not isinstance(value, (list, tuple))
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise IllegalAction("bad_action", f'"{key}" must be a cell [x, y], not {value!r}')
    return (value[0], value[1])


def str_arg(action: Mapping[str, Any], key: str) -> str:
    value = field(action, key)
    if not isinstance(value, str):
        raise IllegalAction("bad_action", f'"{key}" must be a string id, not {value!r}')
    return value


def int_arg(action: Mapping[str, Any], key: str) -> int:
    value = field(action, key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise IllegalAction("bad_action", f'"{key}" must be a whole number, not {value!r}')
    return value


def character_arg(w: Work, action: Mapping[str, Any], key: str) -> str:
    cid = str_arg(action, key)
    if cid not in w.index:
        raise IllegalAction("no_such_character", f"{cid!r} is not a character in this game ({', '.join(w.index)})")
    return cid


# --- shared rules ---------------------------------------------------------------------------------


def ability(w: Work, cid: str) -> str:
    return w.board(cid).ability


def in_reach(w: Work, a: Cell, b: Cell) -> bool:
    """Actions d) to f) reach a character in the same Room or an adjacent one."""
    return a == b or w.geometry().adjacent(a, b)


def pay(w: Work, cid: str, cost: int, what: str) -> None:
    c = w.char(cid)
    if c.ap < cost:
        raise IllegalAction("no_ap", f"{w.name(cid)} has {c.ap} AP left and {what} costs {cost} AP")
    if cost:
        w.set_char(cid, ap=c.ap - cost)
        w.emit("ap", character=cid, name=w.name(cid), before=c.ap, after=c.ap - cost, why=what)


def item_cost(w: Work, cid: str, item: str) -> int:
    """Consumables cost 1 AP, equipables 0; Vane pays 0, except a cost printed on the card (FAQ)."""
    card = w.catalog.item_cards[item]
    if card.ap_cost is not None:
        return card.ap_cost
    if ability(w, cid) == PRIDE:
        return 0
    return 1 if card.type == "consumable" else 0


def give_cost(w: Work, cid: str) -> int:
    return 0 if ability(w, cid) == PRIDE else 1


def chain_cost(w: Work, cid: str) -> int:
    return 0 if ability(w, cid) == TACT else 1


def top_cards(w: Work) -> Iterator[tuple[str, Cell | None, str]]:
    """Bad Dreams that may be attacked: each tile's top card, and every Bad Dream in an Item area."""
    for s in w.bad_dreams:
        yield s.cards[-1], s.cell, ""
    for c in w.characters:
        for card in c.bad_dreams:
            yield card, None, c.id


def where_is(w: Work, card: str) -> tuple[Cell | None, str, bool]:
    """(cell, holder, is_top) of a Bad Dream in play; raises when it is not in play."""
    for s in w.bad_dreams:
        if card in s.cards:
            return s.cell, "", s.cards[-1] == card
    for c in w.characters:
        if card in c.bad_dreams:
            return None, c.id, True
    raise IllegalAction("no_such_bad_dream", f"{w.catalog.card_name(card)} is not on a tile or in an Item area")


def reach_refusal(w: Work, cid: str, card: str, cell: Cell | None) -> str | None:
    defeat = w.catalog.event_cards[card].defeat
    assert defeat is not None
    if cell is None:
        return None
    here = w.char(cid).cell
    name, who = w.catalog.event_cards[card].name, w.name(cid)
    if defeat.reach == "anywhere":
        return None
    if cell == here:
        return f"{who} cannot defeat {name} from its own tile: only Malice may be defeated there (Defeating Bad Dreams)"
    if defeat.reach == "adjacent" and not w.geometry().adjacent(here, cell):
        return f"{who} cannot defeat {name}: the {w.room_name(cell)} is not adjacent to the {w.room_name(here)} (Defeating Bad Dreams)"
    return None


# --- the actions ----------------------------------------------------------------------------------


def do_explore(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    if w.castle_deck.size == 0:
        raise IllegalAction("castle_deck_empty", "The Castle deck is empty: there is no Room Tile left to explore")
    pay(w, cid, 1, "exploring a new Room")
    w.emit("explore", character=cid, name=w.name(cid), frm=cell_json(w.char(cid).cell))
    w.push(Step("take", cid, context="explore", count=1, deck="castle"))


def move_refusal(w: Work, cid: str, to: Cell) -> tuple[str, str] | None:
    here = w.char(cid).cell
    who = w.name(cid)
    if w.tile_at(to) is None:
        return "no_room", f"There is no Room Tile at ({to[0]}, {to[1]})"
    if to == here:
        return "same_room", f"{who} is already in the {w.room_name(to)}"
    if not w.geometry().adjacent(here, to):
        return "not_adjacent", (
            f"{who} cannot move to the {w.room_name(to)}: it is not adjacent to the {w.room_name(here)} "
            "(rooms are adjacent only through a door facing a door)"
        )
    if w.has_bad_dream(here):
        return "trapped", f"{who} cannot leave the {w.room_name(here)}: a Bad Dream is there (Bad Dreams prevent moving out of their tile)"
    if w.has_bad_dream(to):
        return "bad_dream_there", f"{who} cannot move into the {w.room_name(to)}: a Bad Dream is there"
    return None


def do_move(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    to = cell_arg(action, "to")
    refusal = move_refusal(w, cid, to)
    if refusal:
        raise IllegalAction(*refusal)
    pay(w, cid, 1, "moving")
    move_character(w, cid, to, "move")


def do_search(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    index = int_arg(action, "nook")
    c = w.char(cid)
    placed = w.tile_at(c.cell)
    assert placed is not None
    nooks = w.catalog.tiles[placed.tile].nooks
    if not 0 <= index < len(nooks):
        raise IllegalAction("no_such_nook", f"The {w.room_name(c.cell)} has {len(nooks) or 'no'} Secret Nook{'s' if len(nooks) != 1 else ''}: there is no nook {index}")
    nook = nooks[index]
    pay(w, cid, 1, "searching a Secret Nook")
    w.emit("search", character=cid, name=w.name(cid), room=w.room_name(c.cell), nook=index, attribute=nook.attribute, at_least=nook.at_least)
    if nook.chain:
        change_chains(w, cid, 1, "the Chain icon of a Secret Nook")
    start_test(w, Test("research", cid, nook.attribute, nook.at_least, nook=index))


def item_choices(w: Work, cid: str, item: str) -> tuple[list[str], list[Cell], list[Cell]]:
    """Who and where an Item's use may target: (targets, tiles to clear, rooms to move to)."""
    card = w.catalog.item_cards[item]
    c = w.char(cid)
    targets: list[str] = []
    clear: list[Cell] = []
    moves: list[Cell] = []
    for e in card.use:
        if e.who == "target":
            anywhere = ability(w, cid) == PRIDE
            targets = [o.id for o in w.characters if anywhere or in_reach(w, c.cell, o.cell)]
        if e.do == "discard_top_bad_dream":
            clear = tile_options(w, cid, e.do, e.where)
        if e.do == "move":
            moves = tile_options(w, cid, e.do, e.where)
    return targets, clear, moves


def do_use_item(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    item = str_arg(action, "item")
    c = w.char(cid)
    if item not in c.items:
        raise IllegalAction("not_your_item", f"{w.name(cid)} has no {w.catalog.card_name(item)} in their Item area")
    card = w.catalog.item_cards[item]
    if not card.use:
        raise IllegalAction("passive_item", f"The {card.name} works by itself while {w.name(cid)} holds it: it is not used as an action")
    targets, clear, moves = item_choices(w, cid, item)
    needs = {e.do for e in card.use} | {e.who for e in card.use}
    for key, need in (("target", "target"), ("tile", "discard_top_bad_dream"), ("to", "move")):
        if key in action and need not in needs:
            raise IllegalAction("bad_action", f'The {card.name} takes no "{key}": it does not choose one')
    target, tile = "", None
    if "target" in needs:
        target = character_arg(w, action, "target")
        if target not in targets:
            raise IllegalAction("out_of_reach", f"{w.name(cid)} cannot use the {card.name} on {w.name(target)}: Items reach a character in the same Room or an adjacent one")
    if "discard_top_bad_dream" in needs:
        tile = cell_arg(action, "tile")
        if tile not in clear:
            raise IllegalAction("no_target", f"The {card.name} cannot reach a Bad Dream at ({tile[0]}, {tile[1]})")
    if "move" in needs:
        tile = cell_arg(action, "to")
        if tile not in moves:
            raise IllegalAction("no_target", f"The {card.name} cannot take {w.name(cid)} to ({tile[0]}, {tile[1]})")
    pay(w, cid, item_cost(w, cid, item), f"using the {card.name}")
    w.emit("item_used", card=item, name=card.name, character=cid, who_name=w.name(cid), target=target or None, tile=cell_json(tile))
    if card.type == "consumable":
        discard_item(w, cid, item, "used")
    w.push(*[effect_step(e, cid, item, target if e.who == "target" else "", tile) for e in card.use])


def do_give_item(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    item = str_arg(action, "item")
    to = character_arg(w, action, "to")
    c = w.char(cid)
    if item not in c.items:
        raise IllegalAction("not_your_item", f"{w.name(cid)} has no {w.catalog.card_name(item)} to give")
    if to == cid:
        raise IllegalAction("same_character", f"{w.name(cid)} cannot give an Item to themselves")
    if ability(w, to) == PRIDE:
        raise IllegalAction("refuses_alms", f"{w.name(to)} cannot receive Items from other characters (Pride of the Aristocrat)")
    if ability(w, cid) != PRIDE and not in_reach(w, c.cell, w.char(to).cell):
        raise IllegalAction("out_of_reach", f"{w.name(cid)} cannot give an Item to {w.name(to)}: they must be in the same Room or an adjacent one")
    name = w.catalog.item_cards[item].name
    pay(w, cid, give_cost(w, cid), f"giving the {name}")
    w.set_char(cid, items=tuple(i for i in c.items if i != item))
    w.set_char(to, items=w.char(to).items + (item,))
    w.emit("item_given", card=item, name=name, frm=cid, frm_name=w.name(cid), to=to, to_name=w.name(to))
    check_hand(w, to)


def do_discard_item(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    item = str_arg(action, "item")
    if item not in w.char(cid).items:
        raise IllegalAction("not_your_item", f"{w.name(cid)} has no {w.catalog.card_name(item)} to discard")
    discard_item(w, cid, item, "by choice")


def chain_refusal(w: Work, giver: str, receiver: str, count: int, by: str) -> tuple[str, str] | None:
    if giver == receiver:
        return "same_character", "Chains are given to or taken from another character"
    if count < 1:
        return "bad_count", "Give or take at least 1 chain"
    g, r = w.char(giver), w.char(receiver)
    if ability(w, by) != TACT and not in_reach(w, g.cell, r.cell):
        return "out_of_reach", f"{w.name(giver)} and {w.name(receiver)} must be in the same Room or adjacent ones to pass chains"
    if g.chains < count:
        return "not_enough_chains", f"{w.name(giver)} has only {g.chains} chain{'s' if g.chains != 1 else ''}"
    if r.chains + count > CAGE:
        return "too_many_chains", f"{w.name(receiver)} cannot hold more than {CAGE} chains (Chains and Cages)"
    return None


def do_chains(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    giving = action["type"] == "give_chains"
    other = character_arg(w, action, "to" if giving else "from")
    count = int_arg(action, "count")
    giver, receiver = (cid, other) if giving else (other, cid)
    refusal = chain_refusal(w, giver, receiver, count, cid)
    if refusal:
        raise IllegalAction(*refusal)
    pay(w, cid, chain_cost(w, cid), "giving chains" if giving else "taking chains")
    w.emit("chains_passed", frm=giver, frm_name=w.name(giver), to=receiver, to_name=w.name(receiver), count=count, by=cid)
    change_chains(w, giver, -count, f"chains passed to {w.name(receiver)}")
    change_chains(w, receiver, count, f"chains passed from {w.name(giver)}")


def royal_command_refusal(w: Work, target: str, to: Cell) -> tuple[str, str] | None:
    if w.char(target).cell == to:
        return "same_room", f"{w.name(target)} is already in the {w.room_name(to)}"
    if not any(c.cell == to and c.id != target for c in w.characters):
        return "no_character_there", "Secret Royal Command moves a character to a Room Tile occupied by another character"
    return None


def do_ability(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    kind = ability(w, cid)
    if kind == ROYAL_COMMAND:
        target = character_arg(w, action, "target")
        to = cell_arg(action, "to")
        refusal = royal_command_refusal(w, target, to)
        if refusal:
            raise IllegalAction(*refusal)
        pay(w, cid, 1, "Secret Royal Command")
        w.emit("ability", character=cid, name=w.name(cid), ability="Secret Royal Command", target=target)
        move_character(w, target, to, "Secret Royal Command")
    elif kind == MELODY:
        tile = cell_arg(action, "tile")
        here = w.char(cid).cell
        if w.char(cid).melody_used:
            raise IllegalAction("once_per_turn", "Melody of a Brilliant Singer can only be used once per turn")
        if tile == here:
            raise IllegalAction("own_tile", f"{w.name(cid)} cannot use her Melody on the tile where she is (FAQ)")
        if not w.geometry().adjacent(here, tile):
            raise IllegalAction("not_adjacent", "Melody of a Brilliant Singer discards a Bad Dream from an adjacent Room Tile")
        if not w.has_bad_dream(tile):
            raise IllegalAction("no_bad_dream", f"There is no Bad Dream in the {w.room_name(tile)}")
        pay(w, cid, 1, "Melody of a Brilliant Singer")
        w.set_char(cid, melody_used=True)
        w.emit("ability", character=cid, name=w.name(cid), ability="Melody of a Brilliant Singer", tile=cell_json(tile))
        discard_top(w, tile, cid, "Melody of a Brilliant Singer")
    else:
        raise IllegalAction(
            "no_ability_action",
            f"{w.name(cid)}'s ability is not an action: only Ryan's and Chloe's abilities cost AP (g) Use an Ability)",
        )


def do_defeat(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    card = str_arg(action, "card")
    event = w.catalog.event_cards.get(card)
    if event is None or not event.is_bad_dream:
        raise IllegalAction("not_a_bad_dream", f"{card!r} is not a Bad Dream card")
    if event.is_howling:
        raise IllegalAction("howling", "Howling cards stay beside the Event deck: they are not defeated")
    cell, holder, is_top = where_is(w, card)
    defeat = event.defeat
    assert defeat is not None
    if not is_top and cell is not None:
        top = w.catalog.event_cards[w.stack_at(cell)[-1]].name
        raise IllegalAction("not_top_card", f"{event.name} is under {top} in the {w.room_name(cell)}: Bad Dreams are defeated one by one, from the top card")
    if defeat.how == "all_characters_here":
        raise IllegalAction("automatic", f"{event.name} is discarded by itself when every character is on its tile")
    refusal = reach_refusal(w, cid, card, cell)
    if refusal:
        raise IllegalAction("out_of_reach", refusal)
    items: tuple[str, ...] = ()
    if defeat.how == "discard_items":
        raw = field(action, "items")
        if not isinstance(raw, list) or not all(isinstance(i, str) for i in raw):
            raise IllegalAction("bad_action", '"items" must be a list of Item card ids')
        items = tuple(raw)
        own = w.char(cid).items
        if len(items) != defeat.count or len(set(items)) != len(items) or any(i not in own for i in items):
            raise IllegalAction("items_needed", f"To defeat {event.name}, {w.name(cid)} must discard {defeat.count} of their own Item card{'s' if defeat.count != 1 else ''}")
    elif "items" in action:
        raise IllegalAction("bad_action", f"{event.name} is not defeated by discarding Items: leave out \"items\"")
    if defeat.how == "take_chains" and w.char(cid).chains + defeat.count > CAGE:
        raise IllegalAction("too_many_chains", f"{w.name(cid)} cannot take {defeat.count} more chains: no more than {CAGE} (Chains and Cages)")
    pay(w, cid, defeat.ap, f"defeating {event.name}")
    w.emit("defeat_attempt", card=card, name=event.name, character=cid, who_name=w.name(cid), how=defeat.how)
    if defeat.how == "test":
        start_test(w, Test("victory", cid, defeat.attribute, defeat.at_least, card=card))
    elif defeat.how == "discard_items":
        for i in items:
            discard_item(w, cid, i, f"to defeat {event.name}")
        defeat_bad_dream(w, card, cid, "discarding Items")
    else:
        change_chains(w, cid, defeat.count, f"to defeat {event.name}")
        defeat_bad_dream(w, card, cid, "taking chains")


def do_end_turn(w: Work, cid: str, action: Mapping[str, Any]) -> None:
    end_turn(w, cid, "ended")


PLAYER_ACTIONS: dict[str, Callable[[Work, str, Mapping[str, Any]], None]] = {
    "explore": do_explore,
    "move": do_move,
    "search": do_search,
    "use_item": do_use_item,
    "give_item": do_give_item,
    "discard_item": do_discard_item,
    "give_chains": do_chains,
    "take_chains": do_chains,
    "ability": do_ability,
    "defeat": do_defeat,
    "end_turn": do_end_turn,
}


def player_action(w: Work, action: Mapping[str, Any]) -> None:
    kind = action["type"]
    handler = PLAYER_ACTIONS.get(kind)
    if handler is None:
        raise IllegalAction("unknown_action", f'"{kind}" is not an action of a CHAINsomnia turn ({", ".join(PLAYER_ACTIONS)})')
    cid = w.current.id
    named = action.get("character")
    if named is not None and not isinstance(named, str):
        raise IllegalAction("bad_action", f'"character" must be a character id, not {named!r}')
    if named is not None and named != cid:
        who = w.name(named) if named in w.index else repr(named)
        raise IllegalAction("not_your_turn", f"It is {w.name(cid)}'s turn, not {who}'s")
    if w.current.chains >= CAGE:
        raise IllegalAction("caged", f"{w.name(cid)} is caught in a Cage and cannot act (Chains and Cages)")
    handler(w, cid, action)


# --- listing --------------------------------------------------------------------------------------


def legal_player_actions(w: Work) -> list[dict[str, Any]]:
    """Every action the current character may take now; the same checks as the ``do_*`` above.

    Written for speed (the simulator calls it before every action): reach is computed once.
    """
    c = w.current
    cid = c.id
    if c.chains >= CAGE:
        return []
    out: list[dict[str, Any]] = [{"type": "end_turn"}]
    cat = w.catalog
    geo = w.geometry()
    here = c.cell
    ap = c.ap
    kind = cat.characters[cid].ability
    near = geo.neighbours.get(here, ())
    reach = {here, *near}
    stacked = {s.cell for s in w.bad_dreams}
    others = [o for o in w.characters if o.id != cid]
    for item in c.items:
        out.append({"type": "discard_item", "item": item})
    if ap >= 1:
        if w.castle_deck.size:
            out.append({"type": "explore"})
        if here not in stacked:
            for cell in near:
                if cell not in stacked:
                    out.append({"type": "move", "to": [cell[0], cell[1]]})
        placed = w.tile_at(here)
        assert placed is not None
        for i in range(len(cat.tiles[placed.tile].nooks)):
            out.append({"type": "search", "nook": i})
    for item in c.items:
        card = cat.item_cards[item]
        if not card.use or ap < item_cost(w, cid, item):
            continue
        targets, clear, moves = item_choices(w, cid, item)
        needs = {e.do for e in card.use} | {e.who for e in card.use}
        options: list[dict[str, Any]] = [{"type": "use_item", "item": item}]
        if "target" in needs:
            options = [dict(o, target=t) for o in options for t in targets]
        if "discard_top_bad_dream" in needs:
            options = [dict(o, tile=[x, y]) for o in options for (x, y) in clear]
        if "move" in needs:
            options = [dict(o, to=[x, y]) for o in options for (x, y) in moves]
        out.extend(options)
    if c.items and ap >= (0 if kind == PRIDE else 1):
        for o in others:
            if cat.characters[o.id].ability != PRIDE and (kind == PRIDE or o.cell in reach):
                out.extend({"type": "give_item", "item": item, "to": o.id} for item in c.items)
    if ap >= (0 if kind == TACT else 1):
        for o in others:
            if kind != TACT and o.cell not in reach:
                continue
            for n in range(1, min(c.chains, CAGE - o.chains) + 1):
                out.append({"type": "give_chains", "to": o.id, "count": n})
            for n in range(1, min(o.chains, CAGE - c.chains) + 1):
                out.append({"type": "take_chains", "from": o.id, "count": n})
    if ap >= 1 and kind == ROYAL_COMMAND:
        cells = sorted({o.cell for o in w.characters})
        for o in w.characters:
            for cell in cells:
                # to a tile where another character stands
                if cell != o.cell and any(x.cell == cell and x.id != o.id for x in w.characters):
                    out.append({"type": "ability", "target": o.id, "to": [cell[0], cell[1]]})
    if ap >= 1 and kind == MELODY and not c.melody_used:
        for cell in near:
            if cell in stacked:
                out.append({"type": "ability", "tile": [cell[0], cell[1]]})
    for card, cell, _holder in top_cards(w):
        defeat = cat.event_cards[card].defeat
        if defeat is None or defeat.how == "all_characters_here" or ap < defeat.ap:
            continue
        if cell is not None and defeat.reach != "anywhere":
            if cell == here or (defeat.reach == "adjacent" and cell not in reach):
                continue
        if defeat.how == "discard_items":
            for combo in combinations(c.items, defeat.count):
                out.append({"type": "defeat", "card": card, "items": list(combo)})
        elif defeat.how == "take_chains":
            if c.chains + defeat.count <= CAGE:
                out.append({"type": "defeat", "card": card})
        else:
            out.append({"type": "defeat", "card": card})
    return out
