"""Words for the table: one log line per action, and what to put back physically on undo.

Both read only the action and its events (events carry the names they need), so a journal
can narrate or undo an old action without the state it was applied to.

>>> put_back({"type": "move", "to": [1, 0]}, [{"type": "moved", "name": "Chloe", "frm": [0, 0],
...     "frm_room": "CHAINsomnia", "to": [1, 0], "room": "Library", "how": "move"}])
['Move Chloe back to the CHAINsomnia tile']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

DECKS = {"castle": "Castle deck", "event": "Event deck", "item": "Item deck"}
Event = Mapping[str, Any]


def _chains(n: int) -> str:
    return f"{n} chain{'s' if n != 1 else ''}"


def _room(name: str) -> str:
    return f"the {name} tile" if name in ("CHAINsomnia", "Wake Up!") else f"the {name}"


def _sentence(e: Event) -> str | None:
    """A short clause for the log line, or None when the event is not worth telling."""
    t = e["type"]
    if t == "moved":
        verb = {"move": "moves to", "fled": "flees to"}.get(e["how"], "is moved to")
        extra = "" if e["how"] in ("move", "fled") else f" ({e['how']})"
        return f"{e['name']} {verb} {_room(e['room'])}{extra}"
    if t == "tile_placed":
        return f"the {e['name']} is placed at ({e['at'][0]}, {e['at'][1]})"
    if t == "tile_returned":
        return f"the {e['name']} fits nowhere and goes back just above Wake Up!" if e["above_wake_up"] else "Wake Up! fits nowhere and goes back"
    if t == "event_drawn":
        return f"{e['who_name']} draws {e['name']}"
    if t == "bad_dream_placed":
        return f"{e['name']} lands on {_room(e['room'])}"
    if t == "bad_dream_held":
        return f"{e['name']} goes into {e['who_name']}'s Item area"
    if t == "howling":
        return f"Howling now {e['count']}"
    if t == "frightened":
        return f"{e['name']} is frightened"
    if t == "trapped":
        return f"{e['name']} is trapped"
    if t == "test":
        result = "success" if e["success"] else "failure"
        double = ", a double" if e["double"] else ""
        return f"{e['kind'].capitalize()} Test {'+'.join(map(str, e['dice']))}+{e['value']}={e['total']} vs {e['at_least']}{double}: {result}"
    if t == "bad_dream_defeated":
        return f"{e['name']} is defeated"
    if t == "item_gained":
        return f"{e['who_name']} gains {e['name']}"
    if t == "item_given":
        return f"{e['frm_name']} gives {e['name']} to {e['to_name']}"
    if t == "item_used":
        return f"{e['who_name']} uses {e['name']}"
    if t == "item_discarded":
        return f"{e['who_name']} discards {e['name']}" if e["why"] != "used" else None
    if t == "chains":
        diff = e["after"] - e["before"]
        return f"{e['name']} {'takes' if diff > 0 else 'loses'} {_chains(abs(diff))} ({e['after']}/6)"
    if t == "caged":
        return f"{e['name']} is caught in a Cage"
    if t == "freed":
        return f"{e['name']} is out of the Cage"
    if t == "vision_kept":
        return f"{e['name']} keeps {e['kept_name']} and puts {len(e['back'])} back"
    if t == "turn_started":
        return f"{e['name']}'s turn ({e['ap']} AP)"
    if t == "turn_skipped":
        return f"{e['name']} is caged and skips the turn"
    if t == "daemon_turn":
        return "the Daemon's turn"
    if t == "round_ended":
        return f"round {e['round']} ends, {e['to_name']} takes the First Player token"
    if t == "ap" and e["after"] > e["before"]:
        return f"{e['name']} gains {e['after'] - e['before']} AP"
    if t in ("victory", "defeat"):
        return str(e["text"])
    if t == "cannot_flee":
        return f"{e['name']} has nowhere to flee"
    if t == "no_effect":
        return f"{e['name']} has no effect"
    return None


def _action_clause(action: Mapping[str, Any], events: Sequence[Event]) -> str:
    t = action.get("type")
    first = events[0] if events else {}
    if t == "explore":
        return f"{first.get('name', 'A character')} explores"
    if t == "search":
        e = next((e for e in events if e["type"] == "search"), first)
        return f"{e.get('name', 'A character')} searches a Secret Nook in {_room(e.get('room', 'room'))}"
    if t == "defeat":
        e = next((e for e in events if e["type"] == "defeat_attempt"), first)
        return f"{e.get('who_name', 'A character')} attacks {e.get('name', 'a Bad Dream')}"
    if t == "ability":
        e = next((e for e in events if e["type"] == "ability"), first)
        return f"{e.get('name', 'A character')} uses {e.get('ability', 'an ability')}"
    if t == "end_turn":
        e = next((e for e in events if e["type"] == "turn_ended"), first)
        return f"{e.get('name', 'The character')} ends the turn"
    if t == "roll" or t == "dice":
        e = next((e for e in events if e["type"] == "dice"), first)
        return f"{e.get('name', 'The table')} rolls {', '.join(map(str, e.get('values', action.get('values', []))))}"
    if t == "draw":
        # The events tell the draw by the card's name; the id is only a fallback.
        if any(_sentence(e) for e in events):
            return ""
        named = next((e["name"] for e in events if e.get("name") and action.get("card") in (e.get("card"), e.get("tile"), e.get("item"))), None)
        return f"{named} is drawn" if named else "a card is drawn"
    if t == "give_chains" or t == "take_chains":
        e = next((e for e in events if e["type"] == "chains_passed"), first)
        return f"{e.get('frm_name', '?')} passes {_chains(e.get('count', 0))} to {e.get('to_name', '?')}"
    return ""


def describe(action: Mapping[str, Any], events: Sequence[Event]) -> str:
    parts = []
    head = _action_clause(action, events)
    if head:
        parts.append(head)
    for e in events:
        clause = _sentence(e)
        if clause and clause not in parts:
            parts.append(clause)
    if not parts:
        return str(action.get("type", "action")).replace("_", " ").capitalize() + "."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def put_back(action: Mapping[str, Any], events: Sequence[Event]) -> list[str]:
    """Sentences telling the players how to undo the action's physical traces, latest first."""
    out: list[str] = []
    placed_tiles = {e["tile"] for e in events if e["type"] in ("tile_placed", "tile_returned")}
    settled_cards = {e["card"] for e in events if e["type"] in ("bad_dream_placed", "howling", "bad_dream_held", "omen_kept")}
    for e in reversed(events):
        t = e["type"]
        if t == "chains":
            diff = e["after"] - e["before"]
            if diff > 0:
                out.append(f"Take {_chains(diff)} off {e['name']}")
            elif diff < 0:
                out.append(f"Put {_chains(-diff)} back on {e['name']}")
        elif t == "moved":
            out.append(f"Move {e['name']} back to {_room(e['frm_room'])}")
        elif t == "tile_placed":
            out.append(f"Put the {e['name']} tile back on top of the Castle deck")
        elif t == "tile_returned":
            where = "from just above Wake Up!" if e["above_wake_up"] else "from the bottom of the Castle deck"
            out.append(f"Take the {e['name']} tile {where} and put it back on top of the Castle deck")
        elif t == "tile_drawn" and e["tile"] not in placed_tiles:
            out.append(f"Put the {e['name']} tile back on top of the Castle deck")
        elif t == "bad_dream_placed":
            out.append(f"Take {e['name']} off {_room(e['room'])} and put it back on top of the Event deck")
        elif t == "howling":
            out.append(f"Take {e['name']} from beside the Event deck and put it back on top of the Event deck")
        elif t == "bad_dream_held":
            out.append(f"Take {e['name']} from {e['who_name']}'s Item area and put it back on top of the Event deck")
        elif t == "omen_kept":
            out.append(f"Take {e['name']} from beside {e['who_name']}'s board and put it back on top of the Event deck")
        elif t == "event_drawn" and e["card"] not in settled_cards:
            out.append(f"Put {e['name']} back on top of the Event deck")
        elif t == "vision_kept":
            order = ", then ".join(e["drawn_names"])
            out.append(f"Take the top {len(e['drawn'])} cards of the {DECKS[e['deck']]} and stack them back with {order} from the top")
        elif t == "item_gained":
            out.append(f"Put {e['name']} from {e['who_name']}'s Item area back on top of the Item deck")
        elif t == "item_discarded":
            out.append(f"Take {e['name']} from the Item discard pile back into {e['who_name']}'s Item area")
        elif t == "item_given":
            out.append(f"Give {e['name']} back from {e['to_name']} to {e['frm_name']}")
        elif t == "item_deck_remade":
            out.append("Lay the Item deck back out as the Item discard pile")
        elif t == "bad_dream_defeated":
            if e.get("holder"):
                out.append(f"Take {e['name']} from the Bad Dream discard pile back into {e['holder_name']}'s Item area")
            else:
                out.append(f"Take {e['name']} from the Bad Dream discard pile and put it back on top of the stack on {_room(e['room'])}")
        elif t == "ap":
            out.append(f"Set {e['name']}'s AP marker back to {e['before']}")
        elif t == "turn_ended" and e["ap_lost"]:
            out.append(f"Set {e['name']}'s AP marker back to {e['ap_lost']}")
        elif t == "round_ended":
            out.append(f"Give the First Player token back to {e['frm_name']}")
    return out
