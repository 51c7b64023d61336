"""CHAINsomnia in the table's words: the labels of the choices, and what to do physically.

Pure functions of the public view and the catalog (names, doors, card texts); no rules. The
rules decide what is legal and what happened (events); this module only says it for people:
"Move to the Library (north)", "Put Creaking Doll on the Library".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.chainsomnia.castle import door_mask, door_sides

ACTION_WORDS = {
    "explore": "Explore a new Room",
    "move": "Move to an adjacent Room",
    "search": "Search a Secret Nook",
    "use_item": "Use an Item",
    "give_item": "Give an Item",
    "discard_item": "Discard an Item",
    "give_chains": "Give chains",
    "take_chains": "Take chains",
    "ability": "Use an Ability",
    "defeat": "Defeat a Bad Dream",
    "end_turn": "End the turn",
    # answers to what the game waits for
    "roll": "Roll the dice (virtual)",
    "dice": "Give the dice",
    "keep_dice": "Keep 2 dice",
    "keep_roll": "Keep the roll",
    "reroll": "Reroll 1 die (Clover)",
    "draw": "The card drawn",
    "vision": "Keep 1 card",
    "place_tile": "Place the tile",
    "flee": "Flee",
    "discard_items": "Discard Items",
    "choose_tile": "Choose a Room",
}
ABILITY_WORDS = {
    "secret_royal_command": "Secret Royal Command",
    "melody_of_a_brilliant_singer": "Melody of a Brilliant Singer",
    "fortune_of_a_bold_entrepreneur": "Fortune of a Bold Entrepreneur",
    "vision_of_a_young_sage": "Vision of a Young Sage",
    "pride_of_the_aristocrat": "Pride of the Aristocrat",
    "tact_of_an_empathetic_girl": "Tact of an Empathetic Girl",
}
# The order kinds of action are offered in: the turn's own actions, then ending it.
ACTION_ORDER = [
    "explore", "move", "search", "defeat", "use_item", "ability", "give_item", "give_chains",
    "take_chains", "discard_item", "end_turn",
]
SIDE_WORDS = {(0, 1): "north", (1, 0): "east", (0, -1): "south", (-1, 0): "west"}
ATTRIBUTE_WORDS = {"strength": "Strength", "intelligence": "Intelligence", "luck": "Luck"}
REWARD_WORDS = {
    "draw_items": "draw an Item",
    "remove_chains": "remove chains",
    "discard_top_bad_dream": "discard a Bad Dream",
}
DECK_WORDS = {"castle": "Castle deck", "event": "Event deck", "item": "Item deck"}


def ordered(actions: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The legal actions in the order the touchscreen offers them (stable within a kind)."""
    rank = {kind: i for i, kind in enumerate(ACTION_ORDER)}
    return [dict(a) for a in sorted(actions, key=lambda a: rank.get(a.get("type", ""), -1))]


def room_article(name: str) -> str:
    return f"the {name} tile" if name in ("CHAINsomnia", "Wake Up!") else f"the {name}"


def _chains(n: int) -> str:
    return f"{n} chain{'s' if n != 1 else ''}"


class Words:
    """Labels for one view of the game (rebuilt for every frame; cheap)."""

    def __init__(self, view: Mapping[str, Any], catalog: Any | None = None) -> None:
        self.view = view
        self.catalog = catalog
        self.rooms = {tuple(t["at"]): t for t in view.get("castle", [])}
        self.characters = {c["id"]: c for c in view.get("characters", [])}
        self.pending = view.get("pending") or {}
        self.current = self.characters.get(view.get("turn") or "") or self.characters.get(
            self.pending.get("character", "")
        )

    # -- names ------------------------------------------------------------------------------

    def name(self, character: str) -> str:
        return str(self.characters.get(character, {}).get("name", character))

    def card(self, card: str) -> str:
        for c in self.characters.values():
            for group in ("items", "omens", "bad_dreams"):
                for held in c.get(group, []):
                    if held["id"] == card:
                        return str(held["name"])
        for tile in self.rooms.values():
            for dream in tile.get("bad_dreams", []):
                if dream["id"] == card:
                    return str(dream["name"])
        if self.catalog is not None:
            return str(self.catalog.card_name(card))
        return card.replace("_", " ")

    def card_text(self, card: str) -> str:
        if self.catalog is None:
            return ""
        for deck in (self.catalog.event_cards, self.catalog.item_cards):
            if card in deck:
                return str(deck[card].text)
        return ""

    def room(self, cell: Sequence[int]) -> str:
        tile = self.rooms.get((cell[0], cell[1]))
        return str(tile["name"]) if tile else f"({cell[0]}, {cell[1]})"

    def direction(self, frm: Sequence[int] | None, to: Sequence[int]) -> str:
        if not frm:
            return ""
        return SIDE_WORDS.get((to[0] - frm[0], to[1] - frm[1]), "")

    def here(self) -> Sequence[int] | None:
        return self.current.get("cell") if self.current else None

    def pending_prompt(self) -> str:
        """What the game waits for, with what a Test needs to succeed."""
        p = self.pending
        text = str(p.get("text", "Choose."))
        test = p.get("test")
        who = self.characters.get(p.get("character", ""))
        if test and who and p.get("kind") in ("roll", "keep_dice", "clover"):
            attribute = test.get("attribute", "")
            value = who.get("attributes", {}).get(attribute, "?")
            text += (f": {ATTRIBUTE_WORDS.get(attribute, attribute)} {value} + 2 dice, "
                     f"{test.get('at_least')}+ succeeds.")
        if p.get("kind") in ("keep_dice", "clover") and p.get("dice"):
            text += f" Rolled: {', '.join(str(d) for d in p['dice'])}."
        return text

    # -- the labels of the choices ----------------------------------------------------------

    def label(self, key: str, value: Any, missing: bool) -> str:
        if key == "type":
            if value == "ability" and self.current:
                return ABILITY_WORDS.get(self.current.get("ability", ""), "Use an Ability")
            return ACTION_WORDS.get(str(value), str(value).replace("_", " ").capitalize())
        if missing:
            return "none"
        if key in ("to", "tile") and isinstance(value, list):
            return self.cell_choice(value)
        if key == "at" and isinstance(value, list):
            return self.placement(value)
        if key == "rotation":
            return self.rotation(int(value))
        if key == "nook":
            return self.nook(int(value))
        if key in ("item", "card", "keep"):
            return self.card(str(value))
        if key in ("target", "to", "from", "character") and isinstance(value, str):
            return self.name(value)
        if key == "count":
            return _chains(int(value))
        if key == "values":
            return " and ".join(str(v) for v in value)
        if key == "die":
            dice = self.pending.get("dice") or []
            shown = f" (the {dice[value]})" if isinstance(value, int) and value < len(dice) else ""
            return f"Reroll die {int(value) + 1}{shown}"
        if key == "items":
            return ", ".join(self.card(i) for i in value)
        if key == "back":
            return "then back on top: " + ", ".join(self.card(c) for c in value)
        return f"{key.replace('_', ' ')}: {value}"

    def cell_choice(self, cell: Sequence[int]) -> str:
        room = self.room(cell)
        side = self.direction(self.pending.get("from") or self.here(), cell)
        who = [c["name"] for c in self.characters.values() if list(c.get("cell", [])) == list(cell)]
        extra = []
        if side:
            extra.append(side)
        if who and self.view.get("pending") is None:
            extra.append("with " + ", ".join(who))
        dreams = self.rooms.get((cell[0], cell[1]), {}).get("bad_dreams", [])
        if dreams:
            extra.append("Bad Dream")
        return f"{room}" + (f" ({'; '.join(extra)})" if extra else "")

    def placement(self, at: Sequence[int]) -> str:
        frm = self.pending.get("from")
        side = self.direction(frm, at)
        if side and frm:
            return f"{side.capitalize()} of {room_article(self.room(frm))}"
        return f"At ({at[0]}, {at[1]})"

    def tile_doors(self, rotation: int) -> list[str]:
        tile = (self.pending.get("tile") or {}).get("id")
        if self.catalog is None or tile not in getattr(self.catalog, "tiles", {}):
            return []
        return door_sides(door_mask(self.catalog.tiles[tile].doors, rotation))

    def rotation(self, rotation: int) -> str:
        doors = self.tile_doors(rotation)
        turn = ["as printed", "a quarter turn right", "half a turn", "a quarter turn left"][rotation % 4]
        return f"Doors {', '.join(doors)} ({turn})" if doors else turn.capitalize()

    def nook(self, index: int) -> str:
        here = self.here()
        tile = self.rooms.get((here[0], here[1])) if here else None
        nooks = tile.get("nooks", []) if tile else []
        if index >= len(nooks):
            return f"Nook {index + 1}"
        nook = nooks[index]
        chain = " (takes a chain)" if nook.get("chain") else ""
        reward = ""
        if self.catalog is not None and tile is not None and tile["tile"] in self.catalog.tiles:
            effects = self.catalog.tiles[tile["tile"]].nooks[index].reward
            reward = ": " + ", ".join(REWARD_WORDS.get(e.do, e.do.replace("_", " ")) for e in effects)
        return f"{ATTRIBUTE_WORDS.get(nook['attribute'], nook['attribute'])} {nook['at_least']}+{reward}{chain}"


# -- what to do at the table, event by event --------------------------------------------------


def instruction(event: Mapping[str, Any], words: Words | None = None) -> str | None:
    """What the players do physically after this event, or None when nothing is to be done."""
    t = event.get("type")
    e = event
    if t == "daemon_turn":
        return f"The Daemon's turn. {e['name']} holds the First Player token and draws for the Daemon."
    if t == "draw_events":
        howling = f" ({e['howling']} more for Howling)" if e.get("howling") else ""
        count = e["count"]
        return f"{e['name']} draws {count} Event card{'s' if count != 1 else ''}{howling}."
    if t == "event_drawn":
        text = words.card_text(e["card"]) if words else ""
        return f"{e['who_name']} draws {e['name']}." + (f" {text}" if text else "")
    if t == "bad_dream_placed":
        under = f", on top of {words.card(e['on_top_of'])}" if words and e.get("on_top_of") else ""
        return f"Put {e['name']} on {room_article(e['room'])}{under}."
    if t == "bad_dream_held":
        return f"Put {e['name']} in {e['who_name']}'s Item area."
    if t == "howling":
        return (f"Put {e['name']} face up beside the Event deck: {e['count']} Howling, so every "
                f"draw is now {e['count'] + 1} Event cards.")
    if t == "omen_kept":
        return f"Put {e['name']} beside {e['who_name']}'s Action Overview card."
    if t == "frightened":
        return f"{e['name']} is frightened and must flee {room_article(e['room'])}."
    if t == "trapped":
        return f"{e['name']} is trapped in {room_article(e['room'])} and stays there."
    if t == "cannot_flee":
        return f"{e['name']} has nowhere to flee and stays in {room_article(e['room'])}."
    if t == "moved":
        return f"Move {e['name']} to {room_article(e['room'])}."
    if t == "chains":
        diff = e["after"] - e["before"]
        if diff > 0:
            return f"Add {_chains(diff)} to {e['name']}'s Chain Gauge ({e['after']} of 6)."
        if diff < 0:
            return f"Take {_chains(-diff)} off {e['name']}'s Chain Gauge ({e['after']} of 6)."
        return None
    if t == "caged":
        return f"{e['name']} is caught in a Cage!"
    if t == "freed":
        return f"{e['name']} is out of the Cage."
    if t == "item_gained":
        return f"{e['who_name']} takes {e['name']} into their Item area."
    if t == "item_discarded":
        return f"{e['who_name']} puts {e['name']} on the Item discard pile."
    if t == "bad_dream_defeated":
        return f"{e['name']} is defeated: put it on the Bad Dream discard pile."
    if t == "tile_drawn":
        return f"Draw the top Room Tile: the {e['name']}."
    if t == "tile_placed":
        return f"The {e['name']} is placed."
    if t == "tile_returned":
        return f"The {e['name']} fits nowhere: slide it back into the Castle deck just above Wake Up!."
    if t == "round_ended":
        return f"Round {e['round']} ends: pass the First Player token to {e['to_name']}."
    if t == "turn_started":
        return f"{e['name']}'s turn: set the AP marker to {e['ap']}."
    if t == "turn_skipped":
        return f"{e['name']} is in a Cage and skips the turn."
    if t == "deck_empty":
        return f"The {DECK_WORDS.get(e.get('deck', ''), 'deck')} is empty."
    if t == "no_effect":
        return f"{e['name']} has no effect."
    if t in ("victory", "defeat"):
        return str(e.get("text", ""))
    return None


def daemon_steps(events: Sequence[Mapping[str, Any]], continuing: bool, words: Words | None = None) -> list[str]:
    """The Daemon's turn as steps: from its start in these events, or all of them if it was
    already under way (after a flee choice or a card drawn by hand)."""
    start = next((i for i, e in enumerate(events) if e.get("type") == "daemon_turn"), None)
    if start is None and not continuing:
        return []
    chosen = events[start:] if start is not None else events
    steps = []
    for event in chosen:
        text = instruction(event, words)
        if text and (not steps or steps[-1] != text):
            steps.append(text)
    return steps


# The abilities as the rulebook's character pages put them, shortened for a button's caption.
ABILITY_TEXT = {
    "secret_royal_command": "1 AP: move any character to a Room with another character.",
    "melody_of_a_brilliant_singer": "1 AP, once a turn: discard a Bad Dream from an adjacent Room.",
    "fortune_of_a_bold_entrepreneur": "Rolls 3 dice and keeps 2.",
    "vision_of_a_young_sage": "Draws up to 3 cards, keeps 1, puts the others back in any order.",
    "pride_of_the_aristocrat": "Uses and gives Items for 0 AP, at any range; receives none.",
    "tact_of_an_empathetic_girl": "Ignores Howling on her own draws; gives and takes chains free, at any range.",
}


def dots(difficulty: int) -> str:
    """The rulebook's difficulty dots (markup): one bright dot of three is the easiest."""
    lit = "[color=f2c14e]" + "\u2022" * difficulty + "[/color]"
    unlit = "[color=5a5e80]" + "\u2022" * max(3 - difficulty, 0) + "[/color]"
    return f"[b]{lit}{unlit}[/b]"


def setup_steps(view: Mapping[str, Any], catalog: Any | None = None) -> list[str]:
    """The rulebook's Game Setup, said for this game: what to lay out, one step at a time."""
    characters = view.get("characters", [])
    names = {c["id"]: c["name"] for c in characters}
    seats = view.get("seats", [])
    chains = characters[0]["chains"] if characters else 2
    steps = []
    if len(seats) == 1:
        steps.append(f"Solo: you play {', '.join(names[c] for c in seats[0])}.")
    else:
        steps.append("Characters: " + "; ".join(
            f"player {i + 1} takes {' and '.join(names[c] for c in seat)}" for i, seat in enumerate(seats)
        ) + ".")
    steps.append("Each player takes their characters' Boards and Tiles and an Action Overview card. "
                 "Put the unused boards and tiles back in the box.")
    steps.append(f"Put {chains} Chain token{'s' if chains != 1 else ''} on the first space"
                 f"{'s' if chains != 1 else ''} of every Chain Gauge; keep the other tokens within "
                 "reach. Put the dice in the centre.")
    steps.append("Put each AP marker on the first visible number of its Chain Gauge: " + ", ".join(
        f"{c['name']} {c['chain_gauge'][c['chains']]}" for c in characters) + ".")
    steps.append("Put the CHAINsomnia tile face up in the centre and every character tile on it.")
    mode, decks = view.get("mode"), view.get("decks_mode")
    if decks == "digital":
        steps.append("Digital decks: keep the Room Tiles, Event cards and Item cards sorted face up "
                     "beside you. The app says which one is drawn each time.")
    elif mode == "beginner":
        steps.append("Beginner mode: shuffle the 20 Room Tiles face down, take 5 without looking as "
                     "the Castle deck and add the Wake Up! tile face up under it. Shuffle the Event "
                     "and Item decks.")
    else:
        steps.append("Normal mode: shuffle the 20 Room Tiles face down and put the top 4 back in the "
                     "box without looking. The other 16 are the Castle deck; add the Wake Up! tile "
                     "face up under it. Shuffle the Event and Item decks.")
    if view.get("players") in (1, 3):
        steps.append("With 1 or 3 players, 3 Room Tiles are laid against the CHAINsomnia tile "
                     "before play, without Event cards: the app asks for each.")
    first = names.get(view.get("first_player", ""), "")
    if first:
        steps.append(f"Give the First Player token to {first}'s player.")
    return steps
