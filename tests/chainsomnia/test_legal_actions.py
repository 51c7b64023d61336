"""``legal_actions(state)`` lists exactly what ``apply`` accepts, in positions met in real play.

Every listed action is accepted; well-formed actions built from the position's own cells,
characters, Items, cards and counts that are not listed are refused. Two spellings are the same
action: dice values in any order, and an action naming the character it belongs to or not. (A card
of a physical deck may also be named by its catalog entry, "howling" for any unseen Howling: the
listing names each card.)
"""

from __future__ import annotations

import json
from itertools import combinations, combinations_with_replacement, permutations
from typing import Any

from companion.chainsomnia import RULES
from companion.chainsomnia.simulate import Chooser, greedy_policy, random_policy
from companion.chainsomnia.state import State
from companion.rules import IllegalAction

Action = dict[str, Any]


def canonical(action: Action) -> str:
    a = {k: v for k, v in action.items() if k != "character"}
    if a["type"] in ("dice", "keep_dice"):
        a["values"] = sorted(a["values"])
    return json.dumps(a, sort_keys=True)


def cells_around(state: State) -> list[list[int]]:
    cells = {(p.x + dx, p.y + dy) for p in state.castle for dx, dy in ((0, 0), (1, 0), (-1, 0), (0, 1), (0, -1))}
    return [[x, y] for x, y in sorted(cells)]


def universe(state: State) -> list[Action]:
    """Well-formed actions about this position, legal or not."""
    cat = state.catalog
    cells = cells_around(state)
    chars = [c.id for c in state.characters]
    items = sorted({i for c in state.characters for i in c.items} | {next(iter(cat.item_cards))})
    p = state.pending
    out: list[Action] = []
    if p is not None:
        out += [{"type": "roll"}, {"type": "keep_roll"}]
        out += [{"type": "dice", "values": list(v)} for n in (1, 2, 3) for v in combinations_with_replacement(range(1, 7), n)]
        out += [{"type": "keep_dice", "values": list(v)} for v in combinations_with_replacement(range(1, 7), 2)]
        out += [{"type": "reroll", "die": d} for d in (0, 1, 2)]
        deck = {"event": cat.event_cards, "item": cat.item_cards, "castle": cat.tiles}.get(p.deck, cat.tiles)
        out += [{"type": "draw", "card": c} for c in deck]
        cards = list(p.cards)
        for keep in cards:
            others = [c for c in cards if c != keep]
            out += [{"type": "vision", "keep": keep, "back": list(o)} for o in permutations(others)]
            out.append({"type": "vision", "keep": keep, "back": others[:1]})
        out += [{"type": "place_tile", "at": c, "rotation": r} for c in cells for r in range(5)]
        out += [{"type": "flee", "to": c} for c in cells]
        out += [{"type": "choose_tile", "tile": c} for c in cells]
        out += [{"type": "discard_item", "item": i} for i in items]
        own = state.character(p.who).items
        out += [{"type": "discard_items", "items": list(c)} for n in range(4) for c in combinations(own, n)]
        out.append({"type": "end_turn"})
        return out
    out += [{"type": "end_turn"}, {"type": "explore"}]
    out += [{"type": "move", "to": c} for c in cells]
    out += [{"type": "search", "nook": n} for n in range(4)]
    for i in items:
        out.append({"type": "discard_item", "item": i})
        out.append({"type": "use_item", "item": i})
        out += [{"type": "use_item", "item": i, "target": t} for t in chars]
        out += [{"type": "use_item", "item": i, "tile": c} for c in cells]
        out += [{"type": "use_item", "item": i, "to": c} for c in cells]
        out += [{"type": "give_item", "item": i, "to": t} for t in chars]
    for t in chars:
        for n in range(8):
            out.append({"type": "give_chains", "to": t, "count": n})
            out.append({"type": "take_chains", "from": t, "count": n})
        out += [{"type": "ability", "target": t, "to": c} for c in cells]
    out += [{"type": "ability", "tile": c} for c in cells]
    cards = [card for s in state.bad_dreams for card in s.cards] + [b for c in state.characters for b in c.bad_dreams]
    cards += list(state.howling)
    hand = state.current.items
    for card in cards:
        out.append({"type": "defeat", "card": card})
        out += [{"type": "defeat", "card": card, "items": list(c)} for n in (1, 2, 3) for c in combinations(hand, n)]
        out += [{"type": "defeat", "card": card, "items": [i, i]} for i in hand]
    return out


def positions() -> list[State]:
    found = []
    setups = [
        {"players": 1, "decks": "physical", "dice": "physical"},
        {"players": 2, "characters": ["charlotte", "isaac", "ryan", "chloe"], "dice": "physical"},
        {"players": 3, "characters": ["vane", "timi", "isaac"]},
        {"players": 4, "characters": ["ryan", "vane", "timi", "charlotte"], "mode": "beginner"},
        {"players": 2, "characters": ["chloe", "timi", "vane", "isaac"], "decks": "physical"},
        {"players": 4, "characters": ["isaac", "chloe", "charlotte", "ryan"], "dice": "physical"},
    ]
    for seed, options in enumerate(setups):
        chooser = Chooser(seed)
        policy = greedy_policy if seed % 2 else random_policy
        state = RULES.new_game({**options, "seed": 100 + seed})
        for n in range(500):
            if RULES.is_over(state):
                break
            if n % 9 == 0 or state.pending is not None and n % 2 == 0:
                found.append(state)
            state, _ = RULES.apply(state, policy(state, RULES.legal_actions(state), chooser))
    return found


def test_legal_actions_lists_exactly_the_actions_apply_accepts():
    chooser = Chooser(1)
    checked = refused = 0
    kinds = set()
    for state in positions():
        legal = RULES.legal_actions(state)
        listed = {canonical(a) for a in legal}
        assert len(listed) == len(legal), "an action is listed twice"
        for action in legal if len(legal) <= 40 else [chooser.pick(legal) for _ in range(40)]:
            RULES.apply(state, action)  # raises if a listed action is refused
            checked += 1
        others = [a for a in universe(state) if canonical(a) not in listed]
        for _ in range(min(60, len(others))):
            action = chooser.pick(others)
            try:
                RULES.apply(state, action)
            except IllegalAction as refusal:
                assert refusal.message and refusal.code
                refused += 1
                kinds.add(action["type"])
            else:
                raise AssertionError(f"not listed but accepted: {action} (pending {state.pending})")
    assert checked > 1000 and refused > 1000
    assert {"move", "use_item", "give_item", "give_chains", "ability", "defeat", "dice", "place_tile"} <= kinds
