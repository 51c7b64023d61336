"""What is true of every Somnicum state the rules can reach; the property tests and
``companion somnicum simulate --check`` look after every action.

- the 72 Sleep Sand tokens are all somewhere, once: bag, supplies, on cards, in gaps;
- every Dream, Meeting and Goal card is somewhere, once;
- the field and the flywheels agree (placed flywheels stand in one of the field's gaps);
- every dream is a legal inverted pyramid;
- the turn's bookkeeping fits its phase.
"""

from __future__ import annotations

from collections import Counter

from companion.somnicum.attach import pyramid_problem
from companion.somnicum.catalog import Catalog
from companion.somnicum.setup import FIELD_SIZE, ROUNDS
from companion.somnicum.state import NOT_PLACED, SomnicumState

PHASES = (
    "lay_field", "deal_goals", "draw_tokens", "place_flywheels", "turn", "pay", "attach",
    "draw_meetings", "keep_meeting", "end_turn", "over",
)


def token_places(state: SomnicumState) -> dict[str, int]:
    """How many tokens lie where: bag, supplies, cards, gaps (they add up to the box's 72)."""
    on_cards = gaps = supplies = 0
    for player in state.players:
        supplies += len(player.supply)
        for row in player.dream:
            for placed in row.cards:
                on_cards += len(placed.tokens)
            for gap in row.gaps:
                gaps += bool(gap)
    return {"bag": len(state.bag), "supplies": supplies, "cards": on_cards, "gaps": gaps}


def _once(what: str, found: list[str], expected: dict[str, object]) -> list[str]:
    """Each of `expected` (catalog ids) once in `found`, or what is wrong."""
    unique = set(found)
    if len(unique) == len(found) == len(expected) and expected.keys() >= unique:
        return []  # the usual case, checked quickly
    problems = []
    counts = Counter(found)
    twice = sorted(k for k, n in counts.items() if n > 1)
    if twice:
        problems.append(f"{what} in two places at once: {', '.join(twice[:5])}")
    missing = sorted(set(expected) - set(counts))
    if missing:
        problems.append(f"{what} lost: {', '.join(missing[:5])}")
    strange = sorted(set(counts) - set(expected))
    if strange:
        problems.append(f"{what} not in the catalog: {', '.join(strange[:5])}")
    return problems


def problems(catalog: Catalog, state: SomnicumState) -> list[str]:
    """Every broken invariant, in words (an empty list for a sound state)."""
    out: list[str] = []
    players = state.players
    n = len(players)
    # Every token, card and Meeting card, wherever it lies; one pass over the dreams.
    tokens = list(state.bag)
    cards = [*state.field, *state.deck, *state.out_of_play]
    if state.taken:
        cards.append(state.taken)
    meetings = [*state.meeting_deck, *state.meeting_discard, *state.offered]
    goals = list(state.goal_box)
    for player in players:
        tokens += player.supply
        meetings += player.hand
        meetings += player.in_front
        if player.goal:
            goals.append(player.goal)
        for row in player.dream:
            for placed in row.cards:
                cards.append(placed.card)
                tokens += placed.tokens
            tokens += [g for g in row.gaps if g]
        problem = pyramid_problem(player.dream)
        if problem:
            out.append(f"{player.name}'s dream: {problem}")
    out += _once("Sleep Sand token", tokens, catalog.tokens)
    if list(state.bag) != sorted(state.bag):
        out.append("the bag is not kept sorted")
    out += _once("Dream card", cards, catalog.dream_cards)
    out += _once("Meeting card", meetings, catalog.meetings)
    out += _once("Goal card", goals, catalog.goals)
    # Field, flywheels, phase.
    if state.phase not in PHASES:
        out.append(f"unknown phase {state.phase!r}")
    if not 1 <= state.round <= ROUNDS:
        out.append(f"round {state.round} is not 1 to {ROUNDS}")
    size = len(state.field)
    playing = state.phase in ("turn", "pay", "draw_tokens", "attach", "draw_meetings", "keep_meeting", "end_turn")
    if state.phase == "draw_tokens" and state.draw_reason == "start":
        playing = False
    if size > FIELD_SIZE[n]:
        out.append(f"{size} cards on a field of {FIELD_SIZE[n]}")
    if state.phase == "place_flywheels" and size != FIELD_SIZE[n]:
        out.append(f"the flywheels are placed on a field of {size} cards, not {FIELD_SIZE[n]}")
    if state.phase == "turn" and size <= n:
        out.append(f"a turn starts with {size} cards on the field: the round should have ended")
    if playing:
        for name, gap in zip(("black", "white"), state.flywheels):
            if not 0 <= gap < max(size, 1):
                out.append(f"the {name} flywheel stands in gap {gap} of a field of {size} cards")
    elif state.flywheels != (NOT_PLACED, NOT_PLACED):
        out.append("the flywheels stand on the field before they are placed")
    if state.phase == "turn" and (state.taken or state.moved):
        out.append("a turn that has not moved holds a taken card")
    if state.phase == "attach" and not state.taken:
        out.append("nothing to attach")
    if state.phase == "over" and (state.field or state.taken):
        out.append("the game is over with cards still in play")
    if state.phase != "over" and not (0 <= state.turn < n):
        out.append(f"turn {state.turn} is not a seat")
    return out
