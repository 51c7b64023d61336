"""What Somnicum says to the players: the pending decision, one log line per action, and what to
put back on the table when an action is undone.

Every sentence is built from public facts only (events never carry a token's face, a Goal card or
an unplayed Meeting card), so the log can be shown on the table's screen and on every phone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.somnicum.catalog import Catalog
from companion.somnicum.setup import FIELD_SIZE
from companion.somnicum.state import SomnicumState

Event = dict[str, Any]

def plural(count: int, word: str, many: str | None = None) -> str:
    return f"{count} {word if count == 1 else (many or word + 's')}"


def pending_text(catalog: Catalog, state: SomnicumState) -> str:
    """What the game waits for, in words (public: no secret is named)."""
    phase = state.phase
    if phase == "over":
        return "the game is over"
    who = state.players[state.actor].name if state.actor >= 0 else ""
    if phase == "lay_field":
        size = FIELD_SIZE[len(state.players)]
        return f"the field of round {state.round} is being laid out: name Dream card {len(state.field) + 1} of {size}"
    if phase == "deal_goals":
        return f"{who} is being dealt a secret Goal card: name it"
    if phase == "draw_tokens":
        if state.draw_reason == "gap":
            return f"{who} draws a gap token from the bag: name it"
        kind = "starting " if state.draw_reason == "start" else ""
        return f"{who} draws {plural(state.to_draw, kind + 'Sleep Sand token')} from the bag: name each"
    if phase == "place_flywheels":
        return f"{who}, to the right of the first player, places the flywheels between two cards"
    if phase == "turn":
        return f"{who}'s turn: add a particle if you wish, then move a flywheel"
    if phase == "pay":
        return f"{who} pays {plural(state.owed, 'Sleep Sand token')} for the steps beyond the free ones"
    if phase == "attach":
        return f"{who} attaches {catalog.card_name(state.taken)} to their dream"
    if phase == "draw_meetings":
        return f"{who} draws {plural(state.to_draw, 'Meeting card')}: name each"
    if phase == "keep_meeting":
        return f"{who} keeps one of {plural(len(state.offered), 'Meeting card')}"
    if phase == "end_turn":
        return f"{who} may play Meeting cards, then ends the turn"
    return phase


def _pair(names: Sequence[str]) -> str:
    return f"{names[0]} and {names[1]}" if names[0] != names[1] else names[0]


def _fragment(event: Event, paid: int) -> str | None:
    kind = event["type"]
    player = event.get("player", "")
    if kind == "field_laid":
        return f"Round {event['round']}: the field is laid out with {len(event['cards'])} Dream cards"
    if kind == "field_card_laid":
        return f"field card {event['position'] + 1}: {event['name']}"
    if kind == "goal_dealt":
        return f"{player} is dealt a secret Goal card"
    if kind == "tokens_drawn":
        what = plural(event["count"], "Sleep Sand token")
        if event["reason"] == "start":
            what = plural(event["count"], "starting Sleep Sand token")
        text = f"{player} draws {what}"
        if event["reason"] == "flywheel" and event["blank_backs"]:
            text += f" ({event['blank_backs']} with a blank back)"
        return text
    if kind == "flywheels_placed":
        return (f"{player} places the black flywheel between {_pair(event['black'])} "
                f"and the white one between {_pair(event['white'])}")
    if kind == "turn_started":
        return f"{player}'s turn"
    if kind == "particle_added":
        text = f"{player} adds a {event['particle']} particle to {event['card_name']} (level {event['level']})"
        if event["returned"]:
            text += ", returning an identical token to the bag"
        return text
    if kind == "meeting_played":
        return f"{player} plays {event['name']}"
    if kind == "flywheel_moved":
        text = (f"{player} moves the {event['flywheel']} flywheel {plural(event['steps'], 'step')} "
                f"and takes {event['card_name']}")
        if paid:
            text += f", paying {plural(paid, 'Sleep Sand token')}"
        return text
    if kind == "token_paid":
        return None  # counted into the move (or the pay_token line)
    if kind == "round_ending":
        return "no card is left between the flywheels and a blank back was drawn: the round ends after this card"
    if kind == "card_attached":
        how = "with a gap" if event["gap"] else "continuous"
        if event["joined_by_meeting"]:
            how = "continuous thanks to a Meeting card"
        if event["position"] == 1:
            how = "as its first card"
        return f"{player} attaches {event['card_name']} to level {event['level']} ({how})"
    if kind == "gap_token_laid":
        return f"a gap token lies beside {event['card_name']}"
    if kind == "gap_without_token":
        return "the bag is empty: the gap has no token"
    if kind == "meetings_drawn":
        return f"{player} draws {plural(event['count'], 'Meeting card')}"
    if kind == "meeting_kept":
        text = f"{player} keeps a Meeting card"
        if event["discarded"]:
            text += " and discards " + ", ".join(d["name"] for d in event["discarded"]) + " face up"
        return text
    if kind == "round_ended":
        return f"Round {event['round']} ends: {event['why']}"
    if kind == "round_started":
        return f"Round {event['round']}: {player} is the first player"
    if kind == "game_over":
        winners = event["winners"]
        verb = "wins" if len(winners) == 1 else "share the victory"
        return f"Game over: {', '.join(winners)} {verb}"
    return None


def describe(action: dict[str, Any], events: Sequence[Event]) -> str:
    """One log line for an accepted action."""
    paid = sum(1 for e in events if e["type"] == "token_paid")
    parts = []
    if action.get("type") == "pay_token" and not any(e["type"] == "flywheel_moved" for e in events):
        player = next((e["player"] for e in events if e["type"] == "token_paid"), "")
        parts.append(f"{player} pays {plural(paid, 'Sleep Sand token')}")
    if action.get("type") == "end_turn":
        parts.append("The turn ends")
    for event in events:
        fragment = _fragment(event, paid)
        if fragment:
            parts.append(fragment)
    if not parts:
        return f"Somnicum: {action.get('type', 'action')}."
    text = "; ".join(parts)
    return text[0].upper() + text[1:] + "."


def _back(event: Event) -> list[str]:
    kind = event["type"]
    player = event.get("player", "")
    if kind == "field_laid":
        return [f"Gather the {len(event['cards'])} Dream cards of the round {event['round']} field and "
                "put them back with the cards put aside."]
    if kind == "field_card_laid":
        return [f"Take {event['name']} (field card {event['position'] + 1}) off the field, back to the cards put aside."]
    if kind == "goal_dealt":
        return [f"{player} gives back the Goal card just dealt, unseen by the others."]
    if kind == "tokens_drawn":
        return [f"Return {plural(event['count'], 'Sleep Sand token')} to the bag: the ones {player} just drew."]
    if kind == "flywheels_placed":
        return ["Take both flywheels off the field."]
    if kind == "particle_added":
        out = [f"Take the {event['particle']} token off {event['card_name']} (level {event['level']}) "
               f"back into {player}'s supply."]
        if event["returned"]:
            out.append(f"{player} takes a {event['particle']} token back out of the bag.")
        return out
    if kind == "meeting_played":
        where = "from in front of them" if event["kind"] == "permanent" else "from the discards"
        return [f"{player} takes {event['name']} back {where} into their hand, face down."]
    if kind == "flywheel_moved":
        return [
            f"Put the Dream card {event['card_name']} back on the field between {_pair(event['beside'])}.",
            f"Move the {event['flywheel']} flywheel back {plural(event['steps'], 'step')}, "
            f"to between {_pair(event['from'])}.",
        ]
    if kind == "token_paid":
        return [f"{player} takes back out of the bag the Sleep Sand token they paid."]
    if kind == "card_attached":
        return [f"{player} takes {event['card_name']} back from level {event['level']} of their dream, "
                "to attach it again."]
    if kind == "gap_token_laid":
        return [f"Return 1 Sleep Sand token to the bag: the gap token beside {event['card_name']} "
                f"on level {event['level']} of {player}'s dream."]
    if kind == "meetings_drawn":
        return [f"Shuffle the {plural(event['count'], 'Meeting card')} {player} drew back into the Meeting deck."]
    if kind == "meeting_kept":
        if not event["discarded"]:
            return [f"{player} takes back the Meeting card just kept, to be offered it again."]
        names = ", ".join(d["name"] for d in event["discarded"])
        return [f"{player} takes {names} back from beside the Meeting deck, with the card kept, to choose again."]
    if kind == "round_ended":
        left = ", ".join(c["name"] for c in event["left"])
        return [f"Lay {left} back on the field as they lay at the end of round {event['round']}, "
                "with both flywheels where they stood."]
    return []


def put_back(action: dict[str, Any], events: Sequence[Event]) -> list[str]:
    """What the players undo on the table, last change first, when this action is undone."""
    out: list[str] = []
    for event in reversed(events):
        out.extend(_back(event))
    return out
