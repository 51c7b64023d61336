"""Helpers for the Somnicum rules tests: games set up just so, and actions applied in a row.

Tests build a state by starting a real game and then laying out what the clause needs (the
field, the flywheels, a player's tokens and dream), the way a table sets up a rulebook example.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from companion.somnicum import RULES
from companion.somnicum.catalog import load_catalog
from companion.somnicum.state import PlacedCard, Row, SomnicumState

CATALOG = load_catalog()
ALL_TOKENS = tuple(sorted(CATALOG.tokens))


def start(players: Any = 2, seed: int = 1, **options: Any) -> SomnicumState:
    return RULES.new_game({"players": players, "seed": seed, **options})


def apply(state: SomnicumState, *actions: dict[str, Any]) -> tuple[SomnicumState, list[dict[str, Any]]]:
    """Applies each action in turn; returns the last state and every event."""
    events: list[dict[str, Any]] = []
    for action in actions:
        state, new = RULES.apply(state, action)
        events += new
    return state, events


def row(*cards: str | tuple[str, tuple[str, ...]], gaps: str = "", under: tuple[int, ...] = ()) -> Row:
    """A dream row: cards (an id, or (id, token ids on it)); `gaps` marks each place between two
    cards with "-" (continuous) or "g" (a gap with no token)."""
    placed = []
    for index, card in enumerate(cards):
        card_id, tokens = (card, ()) if isinstance(card, str) else card
        placed.append(PlacedCard(card_id, tuple(tokens), under[index] if under else -1))
    marks = gaps or "-" * max(len(cards) - 1, 0)
    assert len(marks) == max(len(cards) - 1, 0)
    return Row(tuple(placed), tuple(None if m == "-" else "" for m in marks))


def at_turn(
    field: tuple[str, ...],
    flywheels: tuple[int, int] = (0, 0),
    supplies: tuple[tuple[str, ...], ...] = (),
    dreams: tuple[tuple[Row, ...], ...] = (),
    hands: tuple[tuple[str, ...], ...] = (),
    in_front: tuple[tuple[str, ...], ...] = (),
    players: int = 2,
    seat: int = 0,
    round: int = 1,
    seed: int = 1,
    **changes: Any,
) -> SomnicumState:
    """A state at the start of `seat`'s turn with exactly this field, these tokens and dreams.

    Every card and token not placed here is moved where it belongs (cards put aside, tokens in
    the bag), so the state keeps every invariant.
    """
    state = start(players, seed)
    people = list(state.players)
    for index, person in enumerate(people):
        people[index] = replace(
            person,
            supply=tuple(sorted(supplies[index])) if index < len(supplies) else (),
            dream=dreams[index] if index < len(dreams) else (Row(), Row(), Row()),
            hand=hands[index] if index < len(hands) else (),
            in_front=in_front[index] if index < len(in_front) else (),
        )
    used_tokens = {t for p in people for t in p.supply}
    used_cards = set(field)
    used_meetings = set()
    for person in people:
        used_meetings |= set(person.hand) | set(person.in_front)
        for level in person.dream:
            used_tokens |= {t for c in level.cards for t in c.tokens}
            used_tokens |= {g for g in level.gaps if g}
            used_cards |= {c.card for c in level.cards}
    state = replace(
        state,
        players=tuple(people),
        field=tuple(field),
        flywheels=flywheels,
        deck=tuple(sorted(set(CATALOG.dream_cards) - used_cards)),
        out_of_play=(),
        bag=tuple(t for t in ALL_TOKENS if t not in used_tokens),
        meeting_deck=tuple(sorted(set(CATALOG.meetings) - used_meetings)),
        round=round,
        turn=seat,
        actor=seat,
        phase="turn",
        placements=1,
        **changes,
    )
    return state


def seat_action(state: SomnicumState, action: dict[str, Any]) -> dict[str, Any]:
    return {**action, "seat": state.actor}
