"""A player's dream in Somnicum: up to three levels of Dream cards, with gaps between them.

Level 1 is the top row; levels 2 and 3 lie below it, each card under a pair of neighbouring
cards of the level above that has no gap between them (an inverted pyramid). This module only
models a dream and checks that it could have been built; ``scoring`` counts it.

>>> row = DreamRow((DreamCard(stars=2, particles=("cloud",)), DreamCard(stars=1, particles=("moon",))), (True,))
>>> row.gapless_pairs()
0
"""

from __future__ import annotations

from dataclasses import dataclass, field

LEVELS = 3


@dataclass(frozen=True)
class DreamCard:
    """One Dream card as it lies in a dream.

    ``particles`` are the dream particles printed on the card; ``tokens`` are the particles of
    Sleep Sand tokens placed on it during play (they help attach cards, not the goal).
    """

    stars: int
    particles: tuple[str, ...]
    tokens: tuple[str, ...] = ()
    nightmare: bool = False
    name: str = ""
    storyline: str = ""
    meeting: bool = False

    def all_particles(self) -> frozenset[str]:
        """Printed particles plus token particles: what counts when attaching a card."""
        return frozenset(self.particles) | frozenset(self.tokens)


@dataclass(frozen=True)
class DreamRow:
    """The cards of one level, left to right; ``gaps[i]`` is a gap between card i and i+1."""

    cards: tuple[DreamCard, ...] = ()
    gaps: tuple[bool, ...] = ()

    def __post_init__(self) -> None:
        expected = max(len(self.cards) - 1, 0)
        if len(self.gaps) != expected:
            raise ValueError(f"a row of {len(self.cards)} cards has {expected} places for gaps")

    def gapless_pairs(self) -> int:
        """How many neighbouring pairs have no gap: the places a card of the next level can go."""
        return sum(1 for gap in self.gaps if not gap)

    def gapless_pair_indices(self) -> tuple[int, ...]:
        """Left-card indices of the neighbouring pairs with no gap, left to right."""
        return tuple(i for i, gap in enumerate(self.gaps) if not gap)

    def is_isolated(self, index: int) -> bool:
        """True when the card has a gap on every side that has a neighbour.

        The rulebook: "Dream cards that have a gap on both sides (on the right and left; only on
        the right if the card is the first in its row, or only on the left if it is the last in its
        row)". A card alone in its row has no neighbour and so no gap: it is not isolated.
        """
        if len(self.cards) < 2:
            return False
        left = self.gaps[index - 1] if index > 0 else True
        right = self.gaps[index] if index < len(self.cards) - 1 else True
        return left and right


@dataclass(frozen=True)
class Dream:
    """A whole dream: ``levels[0]`` is level 1 (the top row), down to level 3."""

    levels: tuple[DreamRow, ...] = field(default_factory=lambda: (DreamRow(),) * LEVELS)

    def __post_init__(self) -> None:
        if len(self.levels) != LEVELS:
            raise ValueError(f"a dream has {LEVELS} levels, not {len(self.levels)}")

    def impossible_level(self) -> int | None:
        """The first level (1-based) holding more cards than the level above has gapless pairs.

        Each card of level 2 or 3 lies under its own gapless pair of the level above, so no
        dream that was built by the rules can break this.
        """
        for depth in range(1, LEVELS):
            if len(self.levels[depth].cards) > self.levels[depth - 1].gapless_pairs():
                return depth + 1
        return None

    def cards(self) -> list[tuple[int, int, DreamCard]]:
        """Every card as (level 1..3, position 1.., card)."""
        return [
            (depth + 1, position + 1, card)
            for depth, row in enumerate(self.levels)
            for position, card in enumerate(row.cards)
        ]
