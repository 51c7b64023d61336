"""Where a Dream card may be attached to a dream, and whether it joins without a gap.

Rulebook, "Attaching the Dream Card": a card is always attached on the right of its row; the dream
is continuous when the two cards share a dream particle (tokens on them included), otherwise a
gap token lies between them. A card of level 2 or 3 lies under a pair of cards of the level above
with no gap between them: the first card of a level under the leftmost such pair, each later one
under the next such pair to the right ("the first available pair of cards without a gap, counting
from the left" when the next pair has a gap). So each level offers at most one place.

This module also turns a dream of the game state into the ``dream.Dream`` the scoring reads.
"""

from __future__ import annotations

from companion.somnicum.catalog import Catalog
from companion.somnicum.dream import Dream, DreamRow
from companion.somnicum.state import LEVELS, PlacedCard, Row


def next_pair(dream: tuple[Row, ...], level: int) -> int | None:
    """For level 2 or 3: the pair of the level above (its left card's index) the next card of
    `level` would lie under, or None when there is no free pair without a gap."""
    above = dream[level - 2]
    row = dream[level - 1]
    start = row.cards[-1].under + 1 if row.cards else 0
    gaps = above.gaps
    for index in range(start, len(gaps)):
        if gaps[index] is None:
            return index
    return None


def open_levels(dream: tuple[Row, ...]) -> list[int]:
    """The levels a card may be attached to now: level 1 always, 2 and 3 under a free gapless pair."""
    levels = [1]
    for level in range(2, LEVELS + 1):
        if next_pair(dream, level) is not None:
            levels.append(level)
    return levels


def particles_of(catalog: Catalog, placed: PlacedCard) -> frozenset[str]:
    """A card's printed particles and those of the tokens placed on it."""
    spec = catalog.dream_cards[placed.card]
    if not placed.tokens:
        return frozenset(spec.particles)
    tokens = catalog.tokens
    return frozenset(spec.particles) | {tokens[t].particle for t in placed.tokens}


def joins(catalog: Catalog, left: PlacedCard, card: str) -> bool:
    """True when `card` attached right of `left` shares a dream particle with it (continuous)."""
    new = catalog.dream_cards[card].particles
    printed = catalog.dream_cards[left.card].particles
    for particle in new:
        if particle in printed:
            return True
    token_particle = catalog.token_particle
    return any(token_particle[t] in new for t in left.tokens)


def needs_gap(catalog: Catalog, dream: tuple[Row, ...], level: int, card: str) -> bool:
    """Whether attaching `card` to `level` puts a gap token on its left."""
    row = dream[level - 1]
    return bool(row.cards) and not joins(catalog, row.cards[-1], card)


def attach(dream: tuple[Row, ...], level: int, card: str, gap: str | None) -> tuple[Row, ...]:
    """The dream with `card` added at the right of `level` (`gap`: the gap token, or None)."""
    row = dream[level - 1]
    under = -1
    if level > 1:
        pair = next_pair(dream, level)
        if pair is None:
            raise ValueError(f"level {level} has no free pair without a gap above it")
        under = pair
    # Built field by field: this runs on every turn, and frozen dataclasses are slow to make.
    placed = object.__new__(PlacedCard)
    placed.__dict__.update(card=card, tokens=(), under=under)
    new_row = object.__new__(Row)
    new_row.__dict__.update(cards=row.cards + (placed,), gaps=row.gaps + (gap,) if row.cards else ())
    return dream[: level - 1] + (new_row,) + dream[level:]


def rightmost(dream: tuple[Row, ...]) -> list[tuple[int, PlacedCard]]:
    """The rightmost card of each level that has cards, as (level, card)."""
    return [(depth + 1, row.cards[-1]) for depth, row in enumerate(dream) if row.cards]


def pyramid_problem(dream: tuple[Row, ...]) -> str | None:
    """Why `dream` could not have been built by the rules, or None when it is a legal pyramid."""
    for depth, row in enumerate(dream):
        if len(row.gaps) != max(len(row.cards) - 1, 0):
            return f"level {depth + 1}: {len(row.cards)} cards but {len(row.gaps)} places between them"
        if depth == 0:
            if any(c.under != -1 for c in row.cards):
                return "level 1: a card lies under another"
            continue
        above = dream[depth - 1]
        last = -1
        for position, placed in enumerate(row.cards):
            pair = placed.under
            if pair <= last:
                return f"level {depth + 1}, card {position + 1}: not right of the card before it"
            if pair >= len(above.gaps) or above.gaps[pair] is not None:
                return f"level {depth + 1}, card {position + 1}: not under a pair without a gap"
            last = pair
    return None


def to_dream(catalog: Catalog, dream: tuple[Row, ...]) -> Dream:
    """The dream as the scoring code reads it (token particles on cards, gaps as booleans)."""
    tokens = catalog.tokens
    rows = []
    for row in dream:
        cards = tuple(
            catalog.dream_cards[p.card].dream_card(tuple(tokens[t].particle for t in p.tokens))
            for p in row.cards
        )
        rows.append(DreamRow(cards, tuple(g is not None for g in row.gaps)))
    return Dream(tuple(rows))
