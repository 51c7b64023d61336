"""Event cards, Item draws and card effects: what happens when a card is drawn or used.

Drawing is a step (``take``) that may wait for a chance outcome (a physical deck's card) and,
for Charlotte or the Mirror of Truth, a decision (keep 1 of 3, put the others back in order).
An Event card then resolves: Omens apply their effects and stay beside the drawer's board;
Bad Dreams go on a tile (frightening the others there, trapping the drawer), into the drawer's
Item area (Maledictum) or beside the Event deck (Howling). Effects are the catalog's small
vocabulary (``add_chains``, ``draw_items``, ``move``...) interpreted here.
"""

from __future__ import annotations

from companion.chainsomnia import rng
from companion.chainsomnia.castle import Cell
from companion.chainsomnia.catalog import Effect
from companion.chainsomnia.state import CAGE, HAND, Deck, Pending, Step, Work

VISION_ABILITY = "vision_of_a_young_sage"
HOWLING_IMMUNE_ABILITY = "tact_of_an_empathetic_girl"


def cell_json(cell: Cell | None) -> list[int] | None:
    return None if cell is None else [cell[0], cell[1]]


# --- chains ---------------------------------------------------------------------------------------


def change_chains(w: Work, cid: str, delta: int, why: str) -> int:
    """Adds (or removes) chains, never above 6 or below 0; returns the change really made."""
    c = w.char(cid)
    new = max(0, min(CAGE, c.chains + delta))
    if new == c.chains:
        return 0
    w.set_char(cid, chains=new)
    w.emit("chains", character=cid, name=w.name(cid), before=c.chains, after=new, why=why)
    if new >= CAGE > c.chains:
        w.emit("caged", character=cid, name=w.name(cid))
    elif c.chains >= CAGE > new:
        w.emit("freed", character=cid, name=w.name(cid))
    return new - c.chains


# --- decks ----------------------------------------------------------------------------------------


def deck_of(w: Work, name: str) -> Deck:
    return getattr(w, f"{name}_deck")


def set_deck(w: Work, name: str, deck: Deck) -> None:
    setattr(w, f"{name}_deck", deck)


def next_known(deck: Deck) -> tuple[str | None, Deck]:
    """The top card if its identity is known, with the deck without it; (None, deck) otherwise."""
    if deck.top:
        return deck.top[0], Deck(deck.top[1:], deck.pool, deck.unknown, deck.bottom)
    if deck.unknown:
        return None, deck
    if deck.bottom:
        return deck.bottom[0], Deck((), (), 0, deck.bottom[1:])
    return None, deck


def take_from_pool(deck: Deck, card: str) -> Deck:
    pool = list(deck.pool)
    pool.remove(card)
    unknown = deck.unknown - 1
    # once every unknown card is drawn, the remaining candidates were never in the deck
    return Deck(deck.top, tuple(pool) if unknown else (), unknown, deck.bottom)


def refill_item_deck(w: Work) -> None:
    """An empty Item deck is remade from its discard pile (ruling: the rulebook is silent)."""
    if w.item_deck.size or not w.item_discard:
        return
    cards = tuple(sorted(w.item_discard))
    if w.options.decks == "digital":
        w.rng, order = rng.shuffled(w.rng, cards)
        w.item_deck = Deck(top=order)
    else:
        w.item_deck = Deck(pool=cards, unknown=len(cards))
    w.item_discard = ()
    w.emit("item_deck_remade", size=len(cards))


def has_vision(w: Work, cid: str) -> bool:
    if w.board(cid).ability == VISION_ABILITY:
        return True
    return any(w.catalog.item_cards[i].passive.vision for i in w.char(cid).items)


def take(w: Work, s: Step) -> None:
    """Draws 1 card (3 for a vision) one at a time, then delivers it or asks which to keep."""
    deck = deck_of(w, s.deck)
    cards = s.cards
    count = s.count
    if not cards:
        if s.deck == "item":
            refill_item_deck(w)
            deck = w.item_deck
        if deck.size == 0:
            if s.deck == "event":
                w.result, w.cause = "defeat", "event_deck_empty"  # the flow ends the game
            else:
                w.emit("deck_empty", deck=s.deck, who=s.who)
            return
        count = 1
        if s.deck != "castle" and has_vision(w, s.who):
            count = min(3, deck.size)
    while len(cards) < count:
        card, rest = next_known(deck)
        if card is None:
            # a physical deck: the card's identity is the chance outcome
            set_deck(w, s.deck, deck)
            w.push(Step(s.kind, s.who, s.card, s.context, s.cell, count, cards, s.target, s.where, s.deck, s.origin))
            w.pending = Pending("draw", s.who, deck=s.deck, purpose=s.context, cards=cards, count=count)
            return
        deck = rest
        cards = cards + (card,)
    set_deck(w, s.deck, deck)
    if len(cards) > 1:
        w.pending = Pending("vision", s.who, deck=s.deck, cards=cards, cell=s.cell, context=s.context)
        w.emit("vision", character=s.who, name=w.name(s.who), deck=s.deck, count=len(cards))
        return
    deliver(w, s.who, s.deck, cards[0], s.context, s.cell)


def deliver(w: Work, who: str, deck: str, card: str, context: str, cell: Cell | None) -> None:
    if deck == "event":
        w.push(Step("event", who, card, context, cell))
    elif deck == "item":
        w.push(Step("gain_item", who, card))
    else:
        w.push(Step("tile_drawn", who, card, context))


def put_back_on_top(w: Work, deck_name: str, cards: tuple[str, ...]) -> None:
    deck = deck_of(w, deck_name)
    set_deck(w, deck_name, Deck(cards + deck.top, deck.pool, deck.unknown, deck.bottom))


def howling_count(w: Work, who: str, context: str) -> int:
    """Extra Event cards for Howling; Timi ignores them for her own exploring and Daemon draws."""
    if context in ("explore", "daemon") and w.board(who).ability == HOWLING_IMMUNE_ABILITY:
        return 0
    return len(w.howling)


def draw_events(w: Work, who: str, context: str, base: int, cell: Cell | None) -> None:
    extra = howling_count(w, who, context)
    count = base + extra
    w.emit("draw_events", character=who, name=w.name(who), count=count, howling=extra, context=context)
    w.push(*[Step("take", who, context=context, cell=cell, count=1, deck="event") for _ in range(count)])


# --- Event cards ----------------------------------------------------------------------------------


def resolve_event(w: Work, s: Step) -> None:
    card = w.catalog.event_cards[s.card]
    who = s.who
    w.emit("event_drawn", card=card.id, name=card.name, kind=card.kind, character=who, who_name=w.name(who), context=s.context)
    if card.kind != "bad_dream":
        # the Omen is laid beside the drawer's board while its effects apply
        w.set_char(who, omens=w.char(who).omens + (card.id,))
        w.emit("omen_kept", card=card.id, name=card.name, character=who, who_name=w.name(who))
        w.push(*[effect_step(e, who, card.id, origin=s.cell) for e in card.effects])
        return
    if card.place == "beside_event_deck":
        w.howling = w.howling + (card.id,)
        w.emit("howling", card=card.id, name=card.name, count=len(w.howling))
    elif card.place == "item_area":
        w.set_char(who, bad_dreams=w.char(who).bad_dreams + (card.id,))
        w.emit("bad_dream_held", card=card.id, name=card.name, character=who, who_name=w.name(who))
    else:
        # on the new tile when the draw follows an exploration, else on the drawer's tile
        place_bad_dream(w, who, card.id, s.cell if s.cell is not None else w.char(who).cell)
    if card.chain:
        change_chains(w, who, 1, f"the Chain icon of {card.name}")
    w.push(*[effect_step(e, who, card.id, origin=s.cell) for e in card.effects])


def place_bad_dream(w: Work, who: str, card: str, cell: Cell) -> None:
    stack = w.stack_at(cell)
    w.set_stack(cell, stack + (card,))
    name = w.catalog.event_cards[card].name
    w.emit("bad_dream_placed", card=card, name=name, at=cell_json(cell), room=w.room_name(cell), on_top_of=stack[-1] if stack else None)
    frightened = [c.id for c in w.characters if c.cell == cell and c.id != who]
    if w.char(who).cell == cell:
        w.emit("trapped", character=who, name=w.name(who), room=w.room_name(cell))
    for cid in frightened:
        w.emit("frightened", character=cid, name=w.name(cid), room=w.room_name(cell))
    w.push(*[Step("flee", cid, cell=cell) for cid in frightened])


def flee(w: Work, s: Step) -> None:
    c = w.char(s.who)
    if c.cell != s.cell:
        return
    options = w.geometry().neighbours.get(s.cell, ())
    if not options:
        w.emit("cannot_flee", character=s.who, name=w.name(s.who), room=w.room_name(s.cell))
        return
    w.pending = Pending("flee", s.who, options=tuple(options), cell=s.cell)


def move_character(w: Work, cid: str, to: Cell, how: str) -> None:
    c = w.char(cid)
    w.set_char(cid, cell=to)
    w.emit("moved", character=cid, name=w.name(cid), frm=cell_json(c.cell), frm_room=w.room_name(c.cell), to=cell_json(to), room=w.room_name(to), how=how)


def defeat_bad_dream(w: Work, card: str, by: str, how: str) -> None:
    """Sends a Bad Dream from its tile stack or Item area to the Bad Dream discard pile."""
    name = w.catalog.event_cards[card].name
    for s in w.bad_dreams:
        if card in s.cards:
            w.set_stack(s.cell, tuple(c for c in s.cards if c != card))
            w.bad_dream_discard = w.bad_dream_discard + (card,)
            w.emit("bad_dream_defeated", card=card, name=name, at=cell_json(s.cell), room=w.room_name(s.cell), by=by, how=how)
            if len(s.cards) == 1:
                w.emit("room_freed", at=cell_json(s.cell), room=w.room_name(s.cell))
            return
    for c in w.characters:
        if card in c.bad_dreams:
            w.set_char(c.id, bad_dreams=tuple(x for x in c.bad_dreams if x != card))
            w.bad_dream_discard = w.bad_dream_discard + (card,)
            w.emit("bad_dream_defeated", card=card, name=name, holder=c.id, holder_name=w.name(c.id), by=by, how=how)
            return


def discard_top(w: Work, cell: Cell, by: str, how: str) -> None:
    stack = w.stack_at(cell)
    if stack:
        defeat_bad_dream(w, stack[-1], by, how)


def check_phantasms(w: Work) -> None:
    """Bad Dreams discarded "when all characters are on this tile", if they are the top card.

    Not while characters frightened off that tile have still to flee: placing a Phantasm where
    everyone stands frightens the others away at once, it does not discard the Phantasm.
    """
    fleeing = {s.cell for s in w.queue if s.kind == "flee"}
    if w.pending is not None and w.pending.kind == "flee":
        fleeing.add(w.pending.cell)
    changed = True
    while changed:
        changed = False
        for s in w.bad_dreams:
            if s.cell in fleeing:
                continue
            top = w.catalog.event_cards[s.cards[-1]]
            if top.defeat is not None and top.defeat.how == "all_characters_here":
                if all(c.cell == s.cell for c in w.characters):
                    defeat_bad_dream(w, top.id, "", "all_characters_here")
                    changed = True
                    break


# --- Items ----------------------------------------------------------------------------------------


def gain_item(w: Work, s: Step) -> None:
    c = w.char(s.who)
    w.set_char(s.who, items=c.items + (s.card,))
    w.emit("item_gained", card=s.card, name=w.catalog.item_cards[s.card].name, character=s.who, who_name=w.name(s.who), frm=s.context or "item_deck")
    check_hand(w, s.who)


def check_hand(w: Work, cid: str) -> None:
    if len(w.char(cid).items) > HAND:
        w.pending = Pending("discard_excess", cid, count=len(w.char(cid).items) - HAND)


def discard_item(w: Work, cid: str, item: str, why: str) -> None:
    c = w.char(cid)
    items = list(c.items)
    items.remove(item)
    w.set_char(cid, items=tuple(items))
    w.item_discard = w.item_discard + (item,)
    w.emit("item_discarded", card=item, name=w.catalog.item_cards[item].name, character=cid, who_name=w.name(cid), why=why)


# --- effects --------------------------------------------------------------------------------------


def effect_step(e: Effect, holder: str, source: str, target: str = "", cell: Cell | None = None, origin: Cell | None = None) -> Step:
    return Step("effect", holder, source, e.do, cell, e.count, target=target or e.who, where=e.where, origin=origin)


def characters_for(w: Work, holder: str, who: str) -> list[str]:
    here = w.char(holder).cell
    if who == "self":
        return [holder]
    if who == "room":
        return [c.id for c in w.characters if c.cell == here]
    if who == "others_in_room":
        return [c.id for c in w.characters if c.cell == here and c.id != holder]
    if who == "all":
        return [c.id for c in w.characters]
    return [who]  # a chosen character's id


def tile_options(w: Work, holder: str, do: str, where: str) -> list[Cell]:
    here = w.char(holder).cell
    geo = w.geometry()
    if do == "discard_top_bad_dream":
        cells = geo.neighbours.get(here, ()) if where == "adjacent" else [s.cell for s in w.bad_dreams]
        return [cell for cell in cells if w.has_bad_dream(cell)]
    # move
    if where == "adjacent":
        cells = list(geo.neighbours.get(here, ()))
    elif where == "with_character":
        cells = sorted({c.cell for c in w.characters if c.id != holder})
    else:
        cells = [p.cell for p in w.castle]
    if where == "any_free":
        cells = [cell for cell in cells if not w.has_bad_dream(cell)]
    return [cell for cell in cells if cell != here]


def apply_effect(w: Work, s: Step) -> None:
    source = w.catalog.card_name(s.card) if s.card else "a Secret Nook"
    do, holder = s.context, s.who
    if do in ("add_chains", "remove_chains"):
        sign = 1 if do == "add_chains" else -1
        for cid in characters_for(w, holder, s.target):
            change_chains(w, cid, sign * s.count, source)
    elif do == "draw_items":
        w.push(*[Step("take", holder, context=s.card, count=1, deck="item") for _ in range(s.count)])
    elif do == "discard_items":
        items = w.char(holder).items
        if len(items) <= s.count:
            for item in items:
                discard_item(w, holder, item, source)
        else:
            w.pending = Pending("discard_items", holder, count=s.count, purpose=s.card)
    elif do == "draw_events":
        # Ruling: an effect's draw is raised by Howling like every draw while exploring or in the
        # Daemon's turn, and Timi does not ignore it (FAQ).
        # Ruling: cards drawn by an effect during an exploration follow it: their Bad Dreams go on
        # the new tile.
        draw_events(w, holder, "effect", s.count, s.origin)
    elif do == "gain_ap":
        c = w.char(holder)
        w.set_char(holder, ap=c.ap + s.count)
        w.emit("ap", character=holder, name=w.name(holder), before=c.ap, after=c.ap + s.count, why=source)
    elif do in ("discard_top_bad_dream", "move"):
        if s.cell is not None:
            finish_tile_effect(w, holder, do, s.cell, s.card)
            return
        options = tile_options(w, holder, do, s.where)
        if not options:
            w.emit("no_effect", card=s.card, name=source, do=do, character=holder)
            return
        w.pending = Pending("choose_tile", holder, options=tuple(options), purpose=do, cards=(s.card,) if s.card else ())


def finish_tile_effect(w: Work, holder: str, do: str, cell: Cell, source: str) -> None:
    how = w.catalog.card_name(source) if source else "a Secret Nook"
    if do == "discard_top_bad_dream":
        discard_top(w, cell, holder, how)
    else:
        move_character(w, holder, cell, how)
