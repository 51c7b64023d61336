"""Somnicum's actions: checking and applying each one, and listing those legal now.

An action is a JSON object with a "type". Every action may carry "seat" (the seat sending it): it
is then refused unless that seat is the one to act. Only the actions of the current phase are
legal (see ``state``); choices and chance outcomes are answered by their own action types:

- chance (physical table only): lay_card {card}, enter_goal {goal, seat?}, draw_token {token},
  draw_meeting {card};
- choices: place_flywheels {gap}, pay_token {token}, keep_meeting {card};
- a turn: add_particle {token, level, return?}, move_flywheel {flywheel, steps},
  attach {level}, play_meeting {card}, end_turn {}.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.rules import IllegalAction
from companion.somnicum import attach as dreams
from companion.somnicum import setup, turn
from companion.somnicum.bag import give_token, kinds, same_kind_in, without
from companion.somnicum.catalog import Catalog
from companion.somnicum.field import neighbours, opposite
from companion.somnicum.meetings import PLAY_PHASES, free_steps, keep, play, same_card_in, single_token, why_not_playable
from companion.somnicum.state import FLYWHEELS, Draft, SomnicumState
from companion.somnicum.text import pending_text

Action = dict[str, Any]
Event = dict[str, Any]

# type -> (phases it is legal in, required fields, optional fields)
ACTIONS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "lay_card": (("lay_field",), ("card",), ()),
    "enter_goal": (("deal_goals",), ("goal",), ()),
    "draw_token": (("draw_tokens",), ("token",), ()),
    "draw_meeting": (("draw_meetings",), ("card",), ()),
    "place_flywheels": (("place_flywheels",), ("gap",), ()),
    "add_particle": (("turn",), ("token", "level"), ("return",)),
    "move_flywheel": (("turn",), ("flywheel", "steps"), ()),
    "pay_token": (("pay",), ("token",), ()),
    "attach": (("attach",), ("level",), ()),
    "keep_meeting": (("keep_meeting",), ("card",), ()),
    "play_meeting": (PLAY_PHASES, ("card",), ()),
    "end_turn": (("end_turn",), (), ()),
}
_ALWAYS_ALLOWED = ("type", "seat", "game")
_INT_FIELDS = ("gap", "level", "steps", "seat")


_ALLOWED = {
    kind: frozenset((*required, *optional, *_ALWAYS_ALLOWED)) for kind, (_p, required, optional) in ACTIONS.items()
}


def _check_fields(kind: str, action: Mapping[str, Any]) -> None:
    _phases, required, optional = ACTIONS[kind]
    for key in required:
        if key not in action:
            raise IllegalAction("bad_action", f'A {kind} action needs "{key}".')
    if not _ALLOWED[kind].issuperset(action):
        extra = sorted(set(action) - _ALLOWED[kind])
        raise IllegalAction("bad_action", f'A {kind} action has no field "{extra[0]}".')
    for key in (*required, *optional):
        if key not in action:
            continue
        value = action[key]
        if key in _INT_FIELDS:
            if not isinstance(value, int) or isinstance(value, bool):
                raise IllegalAction("bad_action", f'"{key}" must be a whole number, not {value!r}.')
        elif not isinstance(value, str) or not value:
            raise IllegalAction("bad_action", f'"{key}" must be a non-empty string, not {value!r}.')


def apply(catalog: Catalog, state: SomnicumState, action: Mapping[str, Any]) -> tuple[SomnicumState, list[Event]]:
    if type(action) is not dict and not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", 'An action must be an object with a "type".')
    kind = action["type"]
    if kind not in ACTIONS:
        raise IllegalAction("unknown_action", f"Somnicum has no action {kind!r} (known: {', '.join(ACTIONS)}).")
    if state.phase == "over":
        raise IllegalAction("game_over", "The game is over: the third round has ended.")
    _check_fields(kind, action)
    if state.phase not in ACTIONS[kind][0]:
        raise IllegalAction("not_now", f"Not now: {pending_text(catalog, state)}.")
    seat = action.get("seat")
    if kind == "enter_goal" and seat is not None:
        # Goal cards are dealt face down at once: each seat enters its own, in any order.
        if not 0 <= seat < len(state.players) or state.players[seat].goal:
            raise IllegalAction("not_your_turn", f"Seat {seat} has no Goal card to enter now.")
    elif seat is not None and seat != state.actor:
        who = state.players[seat].name if 0 <= seat < len(state.players) else f"seat {seat}"
        raise IllegalAction("not_your_turn", f"{who} cannot act now: {pending_text(catalog, state)}.")
    g = Draft(state, catalog)
    _HANDLERS[kind](g, action)
    return g.freeze(), g.events


# -- chance outcomes at a physical table -------------------------------------------------------


def _lay_card(g: Draft, action: Mapping[str, Any]) -> None:
    card = action["card"]
    if card not in g.deck:
        spec = g.cat.dream_cards.get(card)
        twin = next((c for c in g.deck if spec and g.cat.dream_cards[c].entry == spec.entry), None)
        if twin is None:
            where = "is not a Dream card" if spec is None else "is not among the cards put aside"
            raise IllegalAction("no_such_card", f"{card!r} {where}: the field is laid from the cards put aside.")
        card = twin
    g.deck = without(g.deck, card)
    g.field = g.field + (card,)
    g.to_draw -= 1
    g.emit({"type": "field_card_laid", "round": g.round, "position": len(g.field) - 1,
            "card": card, "name": g.cat.card_name(card)})
    if g.to_draw == 0:
        setup.after_field(g)


def _enter_goal(g: Draft, action: Mapping[str, Any]) -> None:
    goal = action["goal"]
    seat = action.get("seat", g.actor)
    if goal not in g.cat.goals:
        raise IllegalAction("no_such_goal", f"{goal!r} is not a Goal card.")
    if goal not in g.goal_box:
        # Only a misread card gets here; saying whose it is would give a secret away.
        raise IllegalAction("goal_taken", "That Goal card is already entered for another seat: check your card.")
    g.goal_box = without(g.goal_box, goal)
    g.set_player(seat, goal=goal)
    g.emit({"type": "goal_dealt", "seat": seat, "player": g.players[seat].name})
    setup.deal_goals(g)


def _draw_token(g: Draft, action: Mapping[str, Any]) -> None:
    token = same_kind_in(g.cat.token_kind, g.bag, action["token"])
    if token is None:
        raise IllegalAction("not_in_bag", f"No Sleep Sand token like {action['token']!r} is left in the bag.")
    reason = g.draw_reason
    g.to_draw -= 1
    if reason == "gap":
        g.draw_reason = ""
        turn.lay_gap_token(g, token)
        turn.after_gap(g)
        return
    seat = g.actor
    give_token(g, seat, token)
    g.emit({
        "type": "tokens_drawn", "seat": seat, "player": g.players[seat].name, "count": 1,
        "blank_backs": int(g.cat.tokens[token].back == "blank"), "reason": reason,
    })
    if g.to_draw:
        return
    g.draw_reason = ""
    if reason == "start":
        setup.starting_tokens(g, setup.seats_from_first(g).index(seat) + 1)
    elif reason == "flywheel":
        turn.after_flywheel_draw(g)
    else:  # a Meeting card's draw: back to where the turn was
        g.phase, g.actor, g.resume = g.resume, g.turn, ""


def _draw_meeting(g: Draft, action: Mapping[str, Any]) -> None:
    card = same_card_in(g.cat, g.meeting_deck, action["card"])
    if card is None:
        raise IllegalAction("no_such_meeting", f"No Meeting card like {action['card']!r} is left in the Meeting deck.")
    g.meeting_deck = without(g.meeting_deck, card)
    g.offered = g.offered + (card,)
    g.to_draw -= 1
    g.emit({"type": "meetings_drawn", "seat": g.turn, "player": g.players[g.turn].name, "count": 1})
    if g.to_draw == 0:
        turn.after_meetings_drawn(g)


# -- choices -----------------------------------------------------------------------------------


def _place_flywheels(g: Draft, action: Mapping[str, Any]) -> None:
    gap = action["gap"]
    size = len(g.field)
    if not 0 <= gap < size:
        raise IllegalAction(
            "no_such_gap", f"The field has {size} places between cards, numbered 0 to {size - 1}; not {gap}."
        )
    g.flywheels = (gap, opposite(size, gap))
    name = g.cat.card_name
    g.emit({
        "type": "flywheels_placed", "seat": g.actor, "player": g.players[g.actor].name,
        "gaps": list(g.flywheels),
        "black": [name(c) for c in neighbours(g.field, g.flywheels[0])],
        "white": [name(c) for c in neighbours(g.field, g.flywheels[1])],
    })
    turn.start_turn(g, g.first_player)


def _pay_token(g: Draft, action: Mapping[str, Any]) -> None:
    turn.pay_token(g, action["token"])


def _keep_meeting(g: Draft, action: Mapping[str, Any]) -> None:
    keep(g, action["card"])
    turn.after_meetings(g)


# -- the turn ----------------------------------------------------------------------------------


def _add_particle(g: Draft, action: Mapping[str, Any]) -> None:
    turn.add_particle(g, action["token"], action["level"], action.get("return"))


def _move_flywheel(g: Draft, action: Mapping[str, Any]) -> None:
    turn.move_flywheel(g, action["flywheel"], action["steps"])


def _attach(g: Draft, action: Mapping[str, Any]) -> None:
    turn.attach(g, action["level"])


def _play_meeting(g: Draft, action: Mapping[str, Any]) -> None:
    play(g, g.turn, action["card"])


def _end_turn(g: Draft, action: Mapping[str, Any]) -> None:
    turn.next_turn(g)


_HANDLERS: dict[str, Callable[[Draft, Mapping[str, Any]], None]] = {
    "lay_card": _lay_card,
    "enter_goal": _enter_goal,
    "draw_token": _draw_token,
    "draw_meeting": _draw_meeting,
    "place_flywheels": _place_flywheels,
    "add_particle": _add_particle,
    "move_flywheel": _move_flywheel,
    "pay_token": _pay_token,
    "attach": _attach,
    "keep_meeting": _keep_meeting,
    "play_meeting": _play_meeting,
    "end_turn": _end_turn,
}


# -- what may be done now ----------------------------------------------------------------------


def _distinct_entries(pool: tuple[str, ...], entry_of: Callable[[str], str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in pool:
        entry = entry_of(item)
        if entry not in seen:
            seen.add(entry)
            out.append(item)
    return out


def particle_actions(catalog: Catalog, state: SomnicumState) -> list[Action]:
    """Every distinct particle placement open to the current player (rules A and B)."""
    player = state.players[state.turn]
    if state.placements <= 0 or not player.supply:
        return []
    targets = dreams.rightmost(player.dream)
    if not targets:
        return []
    tokens = catalog.tokens
    token_kind = catalog.token_kind
    # One token of each kind, the second token of a kind held twice, the kinds of each particle.
    first: dict[str, str] = {}
    second: dict[str, str] = {}
    by_particle: dict[str, list[str]] = {}
    for token in player.supply:
        kind = token_kind[token]
        if kind not in first:
            first[kind] = token
            by_particle.setdefault(tokens[token].particle, []).append(token)
        elif kind not in second:
            second[kind] = token
    one_token = single_token(catalog, player)
    out: list[Action] = []
    for level, placed in targets:
        spec = catalog.dream_cards[placed.card]
        for token in first.values():
            info = tokens[token]
            if spec.nightmare or spec.storyline == info.storyline:
                out.append({"type": "add_particle", "token": token, "level": level})
                continue
            if one_token:
                out.append({"type": "add_particle", "token": token, "level": level})
            # Rule B: the identical token going back, of the same kind or the other back.
            for other in by_particle[info.particle]:
                if other == token:
                    other = second.get(token_kind[token], "")
                    if not other:
                        continue
                out.append({"type": "add_particle", "token": token, "level": level, "return": other})
    return out


def meeting_actions(catalog: Catalog, state: SomnicumState) -> list[Action]:
    player = state.players[state.turn]
    out: list[Action] = []
    if not player.hand:
        return out
    for card in _distinct_entries(player.hand, lambda m: catalog.meetings[m].entry):
        if why_not_playable(state, catalog.meetings[card]) is None:
            out.append({"type": "play_meeting", "card": card})
    return out


def move_actions(catalog: Catalog, state: SomnicumState) -> list[Action]:
    player = state.players[state.turn]
    most = min(len(state.field), free_steps(catalog, state, player) + len(player.supply))
    return [
        {"type": "move_flywheel", "flywheel": flywheel, "steps": steps}
        for flywheel in FLYWHEELS
        for steps in range(1, most + 1)
    ]


def legal_actions(catalog: Catalog, state: SomnicumState) -> list[Action]:
    """Every action legal now; each names the seat that makes it ("seat"), except laying the field.

    Tokens, Meeting and Dream cards that cannot be told apart appear once. At a physical table
    ``enter_goal`` lists every Goal card for every seat still without one, so that the list shown
    on a phone gives away nobody's Goal card; one already entered for another seat is refused.
    """
    phase = state.phase
    if phase == "turn":
        out = particle_actions(catalog, state) + meeting_actions(catalog, state) + move_actions(catalog, state)
    elif phase == "attach":
        levels = dreams.open_levels(state.players[state.turn].dream)
        out = [{"type": "attach", "level": level} for level in levels] + meeting_actions(catalog, state)
    elif phase == "end_turn":
        out = meeting_actions(catalog, state) + [{"type": "end_turn"}]
    elif phase == "pay":
        supply = state.players[state.turn].supply
        out = [{"type": "pay_token", "token": t} for t in kinds(catalog.token_kind, supply)]
    elif phase == "keep_meeting":
        offered = _distinct_entries(state.offered, lambda m: catalog.meetings[m].entry)
        out = [{"type": "keep_meeting", "card": m} for m in offered]
    elif phase == "place_flywheels":
        out = [{"type": "place_flywheels", "gap": gap} for gap in range(len(state.field))]
    elif phase == "draw_tokens":
        out = [{"type": "draw_token", "token": t} for t in kinds(catalog.token_kind, state.bag)]
    elif phase == "draw_meetings":
        deck = _distinct_entries(state.meeting_deck, lambda m: catalog.meetings[m].entry)
        out = [{"type": "draw_meeting", "card": m} for m in deck]
    elif phase == "lay_field":
        deck = _distinct_entries(state.deck, lambda c: catalog.dream_cards[c].entry)
        return [{"type": "lay_card", "card": c} for c in deck]
    elif phase == "deal_goals":
        return [
            {"type": "enter_goal", "seat": seat, "goal": goal}
            for seat, player in enumerate(state.players)
            if not player.goal
            for goal in sorted(catalog.goals)
        ]
    else:
        return []
    seat = state.actor
    for action in out:
        action["seat"] = seat
    return out


def chance_outcomes(catalog: Catalog, state: SomnicumState) -> list[tuple[Action, float]]:
    """At a chance node (a physical table naming what was drawn): each outcome and its chance.

    Empty when the game does not wait for chance. A simulator of a physical table samples these.
    """
    phase = state.phase
    if phase == "draw_tokens":
        pool: tuple[str, ...] = state.bag
        weights: dict[str, int] = {}
        first: dict[str, str] = {}
        for token in pool:
            key = catalog.tokens[token].kind
            first.setdefault(key, token)
            weights[first[key]] = weights.get(first[key], 0) + 1
        return [({"type": "draw_token", "token": t, "seat": state.actor}, n / len(pool)) for t, n in weights.items()]
    if phase == "draw_meetings":
        counts: dict[str, int] = {}
        firsts: dict[str, str] = {}
        for card in state.meeting_deck:
            entry = catalog.meetings[card].entry
            firsts.setdefault(entry, card)
            counts[firsts[entry]] = counts.get(firsts[entry], 0) + 1
        total = len(state.meeting_deck)
        return [({"type": "draw_meeting", "card": c, "seat": state.actor}, n / total) for c, n in counts.items()]
    if phase == "lay_field":
        return [({"type": "lay_card", "card": c}, 1 / len(state.deck)) for c in state.deck]
    if phase == "deal_goals":
        return [
            ({"type": "enter_goal", "seat": state.actor, "goal": g}, 1 / len(state.goal_box))
            for g in state.goal_box
        ]
    return []
