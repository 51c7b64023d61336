"""The flow of a game: players' turns, the Daemon's turn, the end of the round, the end of the game.

Each round the characters play in order from the First Player; a character caged at the start
of their turn is skipped (after start-of-turn powers such as the Light Stone, FAQ). Then the
First Player draws 1 Event card plus 1 per Howling for the Daemon, applied one by one, and the
First Player token passes to the next character. Exploring (drawing and laying a Room Tile, then
drawing Events) is resolved here too, as the same kind of steps.
"""

from __future__ import annotations

from companion.chainsomnia.castle import door_mask, placements
from companion.chainsomnia.events import check_phantasms, draw_events, effect_step
from companion.chainsomnia.state import CAGE, Deck, Pending, PlacedTile, Step, Work


def caged(w: Work, cid: str) -> bool:
    return w.char(cid).chains >= CAGE


def ap_for(w: Work, cid: str) -> int:
    """The first (highest) visible number of the Chain Gauge; 0 in a Cage."""
    chains = w.char(cid).chains
    return 0 if chains >= CAGE else w.board(cid).chain_gauge[chains]


def cage_limit(w: Work) -> int:
    """How many caged characters lose the game: all of them, or 2 with 1 or 2 players."""
    return 2 if w.options.players <= 2 else len(w.characters)


def start_turn(w: Work, s: Step) -> None:
    w.phase = "players"
    cid = s.who
    c = w.char(cid)
    effects = []
    for item in c.items:
        effects += [effect_step(e, cid, item) for e in w.catalog.item_cards[item].passive.on_turn_start]
    for card in c.bad_dreams:
        effects += [effect_step(e, cid, card) for e in w.catalog.event_cards[card].held.on_turn_start]
    # start-of-turn powers apply before the Cage is looked at (FAQ: the Light Stone applies first)
    w.push(*effects, Step("begin_turn", cid))


def begin_turn(w: Work, s: Step) -> None:
    cid = s.who
    if caged(w, cid):
        w.set_char(cid, ap=0)
        w.emit("turn_skipped", character=cid, name=w.name(cid), round=w.round, why="caged")
        w.push(Step("next_turn"))
        return
    ap = ap_for(w, cid)
    w.set_char(cid, ap=ap, melody_used=False)
    w.emit("turn_started", character=cid, name=w.name(cid), round=w.round, ap=ap)


def end_turn(w: Work, cid: str, why: str) -> None:
    c = w.char(cid)
    w.set_char(cid, ap=0)
    w.emit("turn_ended", character=cid, name=w.name(cid), ap_lost=c.ap, why=why)
    w.push(Step("next_turn"))


def next_turn(w: Work, s: Step) -> None:
    w.played += 1
    if w.played >= len(w.characters):
        w.push(Step("daemon"))
        return
    w.turn = (w.turn + 1) % len(w.characters)
    w.push(Step("start_turn", w.characters[w.turn].id))


def daemon_turn(w: Work, s: Step) -> None:
    w.phase = "daemon"
    drawer = w.characters[w.first].id
    w.emit("daemon_turn", character=drawer, name=w.name(drawer), round=w.round)
    draw_events(w, drawer, "daemon", 1, None)
    w.queue = w.queue + (Step("end_round"),)


def end_round(w: Work, s: Step) -> None:
    n = len(w.characters)
    before = w.characters[w.first].id
    w.first = (w.first + 1) % n
    after = w.characters[w.first].id
    w.emit("round_ended", round=w.round, first_player_from=before, first_player_to=after, frm_name=w.name(before), to_name=w.name(after))
    w.round += 1
    w.played = 0
    w.turn = w.first
    w.push(Step("start_turn", after))


# --- exploring -----------------------------------------------------------------------------------


def tile_drawn(w: Work, s: Step) -> None:
    tile = w.catalog.tiles[s.card]
    against = (0, 0) if s.context == "setup" else w.char(s.who).cell
    options = placements(w.geometry().doors, tile.doors, against)
    w.emit("tile_drawn", tile=tile.id, name=tile.name, character=s.who, context=s.context, fits=bool(options))
    if options:
        w.pending = Pending("place_tile", s.who, tile=tile.id, options=tuple(options), context=s.context, cell=against)
        return
    return_tile(w, tile.id)
    if s.context == "explore":
        # no new tile: each Bad Dream goes on the tile the explorer occupies when it is drawn
        draw_events(w, s.who, "explore", 1, None)


def return_tile(w: Work, tile: str) -> None:
    """A tile that fits nowhere goes back into the Castle deck just above "Wake Up!"."""
    deck = w.castle_deck
    wake_up = w.catalog.wake_up
    bottom = deck.bottom
    if tile == wake_up:
        bottom = bottom + (tile,)
    elif bottom and bottom[-1] == wake_up:
        bottom = bottom[:-1] + (tile, wake_up)
    else:
        bottom = bottom + (tile,)
    w.castle_deck = Deck(deck.top, deck.pool, deck.unknown, bottom)
    w.emit("tile_returned", tile=tile, name=w.catalog.tiles[tile].name, above_wake_up=tile != wake_up)


def place_tile(w: Work, who: str, tile_id: str, x: int, y: int, rotation: int, context: str) -> None:
    tile = w.catalog.tiles[tile_id]
    w.place(PlacedTile(tile_id, x, y, rotation, door_mask(tile.doors, rotation)))
    w.emit("tile_placed", tile=tile_id, name=tile.name, at=[x, y], rotation=rotation, character=who, context=context)
    if context == "explore":
        draw_events(w, who, "explore", 1, (x, y))


# --- the end --------------------------------------------------------------------------------------


def check_end(w: Work) -> None:
    if w.phase == "over":
        return
    if w.result:  # decided while drawing (an exhausted Event deck)
        finish(w)
        return
    if w.bad_dreams:
        check_phantasms(w)
    cages = 0
    for c in w.characters:
        if c.chains >= CAGE:
            cages += 1
    if cages and cages >= cage_limit(w):
        w.result, w.cause = "defeat", "caged"
    elif not w.bad_dreams and not any(c.bad_dreams for c in w.characters):
        wake_up = w.catalog.wake_up
        cell = next((p.cell for p in w.castle if p.tile == wake_up), None)
        if cell is not None and any(c.cell == cell for c in w.characters):
            w.result, w.cause = "victory", "woke_up"
    if w.result:
        finish(w)


def end_text(result: str, cause: str) -> str:
    """The end of the game in the players' words."""
    if result == "victory":
        return "Every Bad Dream is defeated and a character is on Wake Up!: the players escape!"
    if cause == "caged":
        return "Too many characters are caught in the Daemon's Cages: the players lose."
    return "The Event deck is exhausted: the players lose."


def finish(w: Work) -> None:
    w.phase = "over"
    w.queue = ()
    w.pending = None
    if not any(e["type"] in ("victory", "defeat") for e in w.events):
        w.emit(w.result, cause=w.cause, text=end_text(w.result, w.cause))

