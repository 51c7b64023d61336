"""``apply`` and ``legal_actions``: one action in, the next state and its events out.

An action either answers what the state is waiting for (dice, a drawn card, a players'
decision) or, when nothing is pending, is one of the current character's actions. Afterwards
the queued steps run until the game waits again: the rest of a Daemon's turn, the next turn,
the next round. While a decision is pending its answers are the only legal actions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

from companion.chainsomnia import rng
from companion.chainsomnia.actions import cell_arg, int_arg, legal_player_actions, player_action, str_arg
from companion.chainsomnia.daemon import (
    begin_turn,
    check_end,
    daemon_turn,
    end_round,
    end_turn,
    next_turn,
    place_tile,
    start_turn,
    tile_drawn,
)
from companion.chainsomnia.dice import dice_chosen, dice_rolled, resolve_test
from companion.chainsomnia.events import (
    apply_effect,
    check_hand,
    deck_of,
    deliver,
    discard_item,
    finish_tile_effect,
    flee,
    gain_item,
    move_character,
    put_back_on_top,
    resolve_event,
    set_deck,
    take,
    take_from_pool,
)
from companion.chainsomnia.state import CAGE, Pending, State, Step, Test, Work
from companion.chainsomnia.view import DECK_NAMES, waiting_text
from companion.rules import IllegalAction

STEPS: dict[str, Callable[[Work, Step], None]] = {
    "start_turn": start_turn,
    "begin_turn": begin_turn,
    "next_turn": next_turn,
    "daemon": daemon_turn,
    "end_round": end_round,
    "take": take,
    "tile_drawn": tile_drawn,
    "event": resolve_event,
    "flee": flee,
    "gain_item": gain_item,
    "effect": apply_effect,
}

def run(w: Work) -> None:
    """Resolves queued steps until the game waits for an action or is over."""
    while True:
        check_end(w)
        if w.phase == "over" or w.pending is not None:
            return
        if not w.queue:
            c = w.current
            if w.phase == "players" and c.chains >= CAGE:
                # caged during their own turn: no further action, whatever AP is left
                end_turn(w, c.id, "caged")
                continue
            return
        step = w.queue[0]
        w.queue = w.queue[1:]
        STEPS[step.kind](w, step)


def start(state: State) -> State:
    """Runs a new game's setup steps until the first decision or the first turn."""
    w = Work(state)
    run(w)
    return w.freeze()


def apply(state: State, action: Mapping[str, Any]) -> tuple[State, list[dict[str, Any]]]:
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", 'An action is an object with a "type", like {"type": "end_turn"}')
    if state.phase == "over":
        raise IllegalAction("game_over", "The game is over")
    w = Work(state)
    if w.pending is not None:
        answer(w, action)
    else:
        player_action(w, action)
    run(w)
    return w.freeze(), w.events


# --- answers to what is pending -------------------------------------------------------------------


def expect(w: Work, p: Pending, action: Mapping[str, Any], *kinds: str) -> str:
    kind = action["type"]
    if kind not in kinds:
        text = waiting_text(w.freeze(), p)
        raise IllegalAction("pending", f"First this: {text} (answer with {' or '.join(repr(k) for k in kinds)})")
    named = action.get("character")
    if named is not None and not isinstance(named, str):
        raise IllegalAction("bad_action", f'"character" must be a character id, not {named!r}')
    if named is not None and named != p.who:
        raise IllegalAction("not_your_choice", f"This choice belongs to {w.name(p.who)}")
    return kind


def dice_values(action: Mapping[str, Any], allowed: tuple[int, ...]) -> tuple[int, ...]:
    values = action.get("values")
    if (
        not isinstance(values, list)
        or not all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in values)
    ):
        raise IllegalAction("bad_dice", f'"values" must list dice from 1 to 6, not {values!r}')
    if len(values) not in allowed:
        raise IllegalAction("bad_dice", f"{' or '.join(map(str, allowed))} dice are needed, not {len(values)}")
    return tuple(values)


def answer(w: Work, action: Mapping[str, Any]) -> None:
    p = w.pending
    assert p is not None
    ANSWERS[p.kind](w, p, action)


def answer_roll(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    kind = expect(w, p, action, "roll", "dice")
    assert p.test is not None
    if kind == "roll":
        if w.options.dice != "virtual":
            raise IllegalAction("physical_dice", 'This table rolls real dice: give their values with {"type": "dice", "values": [...]}')
        w.rng, values = rng.dice(w.rng, p.count)
    else:
        if w.options.dice == "virtual":
            raise IllegalAction("virtual_dice", 'This table plays with virtual dice: the app rolls them with {"type": "roll"}')
        # Isaac may roll 3 or just 2 real dice; a reroll is 1 die
        allowed = (2, 3) if p.count == 3 else (p.count,)
        values = dice_values(action, allowed)
    w.pending = None
    dice_rolled(w, p.test, p.dice, values, "virtual" if kind == "roll" else str(action.get("source") or "physical"))


def answer_keep_dice(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "keep_dice")
    assert p.test is not None
    kept = dice_values(action, (2,))
    rest = list(p.dice)
    for v in kept:
        if v not in rest:
            raise IllegalAction("bad_dice", f"Keep 2 of the dice rolled ({', '.join(map(str, p.dice))}), not {list(kept)}")
        rest.remove(v)
    w.pending = None
    w.emit("dice_kept", character=p.who, name=w.name(p.who), kept=list(kept), dropped=rest)
    dice_chosen(w, p.test, kept)


def answer_clover(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    kind = expect(w, p, action, "reroll", "keep_roll")
    test = p.test
    assert test is not None
    w.pending = None
    if kind == "keep_roll":
        resolve_test(w, test, p.dice)
        return
    die = int_arg(action, "die")
    if die not in (0, 1):
        raise IllegalAction("bad_dice", '"die" is 0 or 1: which of the 2 dice to reroll')
    kept = (p.dice[1 - die],)
    w.emit("reroll", character=p.who, name=w.name(p.who), rerolled=p.dice[die], kept=list(kept))
    test = Test(test.kind, test.who, test.attribute, test.at_least, test.nook, test.card, test.rerolls - 1, test.double_defeats)
    w.pending = Pending("roll", p.who, count=1, dice=kept, test=test)


def card_entry(w: Work, deck: str, card: str) -> str:
    if deck == "event":
        return w.catalog.event_cards[card].entry
    if deck == "item":
        return w.catalog.item_cards[card].entry
    return card


def answer_draw(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "draw")
    card = str_arg(action, "card")
    deck = deck_of(w, p.deck)
    if card not in deck.pool:
        # a camera or a player may name a card by its entry ("howling"): any unseen copy will do
        card = next((c for c in deck.pool if card_entry(w, p.deck, c) == card), card)
    if card not in deck.pool:
        raise IllegalAction("not_in_deck", f"{w.catalog.card_name(card)} cannot be drawn: it is not among the cards still unseen in the {DECK_NAMES[p.deck]}")
    set_deck(w, p.deck, take_from_pool(deck, card))
    w.pending = None
    head = w.queue[0]
    w.queue = (dataclasses.replace(head, cards=head.cards + (card,)),) + w.queue[1:]


def answer_vision(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "vision")
    keep = str_arg(action, "keep")
    back = action.get("back")
    if keep not in p.cards:
        raise IllegalAction("bad_choice", f"Keep one of the cards drawn: {', '.join(w.catalog.card_name(c) for c in p.cards)}")
    others = sorted(c for c in p.cards if c != keep)
    if not isinstance(back, list) or not all(isinstance(c, str) for c in back) or sorted(back) != others:
        raise IllegalAction("bad_choice", '"back" must list the other drawn cards, in the order they go back on top of the deck (top first)')
    w.pending = None
    put_back_on_top(w, p.deck, tuple(back))
    w.emit("vision_kept", character=p.who, name=w.name(p.who), deck=p.deck, drawn=list(p.cards), drawn_names=[w.catalog.card_name(c) for c in p.cards], kept=keep, kept_name=w.catalog.card_name(keep), back=list(back), back_names=[w.catalog.card_name(c) for c in back])
    deliver(w, p.who, p.deck, keep, p.context, p.cell)


def answer_place_tile(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "place_tile")
    at = cell_arg(action, "at")
    rotation = int_arg(action, "rotation")
    if (at[0], at[1], rotation) not in p.options:
        cells = sorted({(x, y) for x, y, _ in p.options})
        where = ", ".join(f"({x}, {y})" for x, y in cells)
        raise IllegalAction(
            "tile_does_not_fit",
            f"The {w.catalog.card_name(p.tile)} cannot go at ({at[0]}, {at[1]}) turned {rotation}: it must be placed "
            f"against the {w.room_name(p.cell) if p.cell else 'room'} through one of its doors with every door and "
            f"wall lined up (possible: {where})",
        )
    w.pending = None
    place_tile(w, p.who, p.tile, at[0], at[1], rotation, p.context)


def answer_flee(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "flee")
    to = cell_arg(action, "to")
    if to not in p.options:
        raise IllegalAction("bad_choice", f"{w.name(p.who)} must flee to a Room adjacent to the {w.room_name(p.cell) if p.cell else 'room'}")
    w.pending = None
    move_character(w, p.who, to, "fled")


def answer_discard_excess(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "discard_item")
    item = str_arg(action, "item")
    if item not in w.char(p.who).items:
        raise IllegalAction("not_your_item", f"{w.name(p.who)} has no {w.catalog.card_name(item)}")
    w.pending = None
    discard_item(w, p.who, item, "more than 2 Items")
    check_hand(w, p.who)


def answer_discard_items(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "discard_items")
    items = action.get("items")
    own = w.char(p.who).items
    if not isinstance(items, list) or not all(isinstance(i, str) for i in items) or len(set(items)) != p.count or len(items) != p.count or any(i not in own for i in items):
        raise IllegalAction("bad_choice", f"{w.name(p.who)} must discard exactly {p.count} of their own Items")
    w.pending = None
    for item in items:
        discard_item(w, p.who, item, w.catalog.card_name(p.purpose) if p.purpose else "an effect")


def answer_choose_tile(w: Work, p: Pending, action: Mapping[str, Any]) -> None:
    expect(w, p, action, "choose_tile")
    cell = cell_arg(action, "tile")
    if cell not in p.options:
        raise IllegalAction("bad_choice", f"Choose one of the Rooms offered: {', '.join(w.room_name(c) for c in p.options)}")  # type: ignore[arg-type]
    w.pending = None
    finish_tile_effect(w, p.who, p.purpose, cell, p.cards[0] if p.cards else "")


ANSWERS: dict[str, Callable[[Work, Pending, Mapping[str, Any]], None]] = {
    "roll": answer_roll,
    "keep_dice": answer_keep_dice,
    "clover": answer_clover,
    "draw": answer_draw,
    "vision": answer_vision,
    "place_tile": answer_place_tile,
    "flee": answer_flee,
    "discard_excess": answer_discard_excess,
    "discard_items": answer_discard_items,
    "choose_tile": answer_choose_tile,
}

# --- listing --------------------------------------------------------------------------------------

_DICE_COMBOS = {n: [list(c) for c in combinations_with_replacement(range(1, 7), n)] for n in (1, 2, 3)}


def legal_actions(state: State) -> list[dict[str, Any]]:
    if state.phase == "over":
        return []
    w = Work(state)
    p = w.pending
    if p is None:
        out = legal_player_actions(w) if w.phase == "players" else []
        if state.geo is None:
            object.__setattr__(state, "geo", w.geo)  # keep the derived geometry for next time
        return out
    kind = p.kind
    if kind == "roll":
        if w.options.dice == "virtual":
            return [{"type": "roll"}]
        # Isaac may give 2 real dice instead of 3 (ruling)
        counts = (2, 3) if p.count == 3 else (p.count,)
        return [{"type": "dice", "values": v} for n in counts for v in _DICE_COMBOS[n]]
    if kind == "keep_dice":
        pairs = sorted({tuple(sorted((p.dice[i], p.dice[j]))) for i in range(3) for j in range(i + 1, 3)})
        return [{"type": "keep_dice", "values": list(pair)} for pair in pairs]
    if kind == "clover":
        return [{"type": "keep_roll"}, {"type": "reroll", "die": 0}, {"type": "reroll", "die": 1}]
    if kind == "draw":
        return [{"type": "draw", "card": c} for c in deck_of(w, p.deck).pool]
    if kind == "vision":
        out = []
        for keep in p.cards:
            others = [c for c in p.cards if c != keep]
            for order in permutations(others):
                out.append({"type": "vision", "keep": keep, "back": list(order)})
        return out
    if kind == "place_tile":
        return [{"type": "place_tile", "at": [x, y], "rotation": r} for x, y, r in p.options]
    if kind == "flee":
        return [{"type": "flee", "character": p.who, "to": [x, y]} for x, y in p.options]
    if kind == "discard_excess":
        return [{"type": "discard_item", "character": p.who, "item": i} for i in w.char(p.who).items]
    if kind == "discard_items":
        return [{"type": "discard_items", "items": list(c)} for c in combinations(w.char(p.who).items, p.count)]
    if kind == "choose_tile":
        return [{"type": "choose_tile", "tile": [x, y]} for x, y in p.options]
    return []
