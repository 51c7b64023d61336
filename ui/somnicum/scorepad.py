"""The Somnicum score pad's sheet: each player's dream as entered by touch, scored by
``companion.somnicum.scoring``.

For groups who only want the tally at the end. A card is entered by what scoring needs: its
stars, whether it is a Nightmare, and which of the player's Goal particles it shows. Whether a
dream could have been built is asked of ``Dream.impossible_level`` (the inverted pyramid rule);
this module holds no rule of its own.

>>> sheet = PlayerSheet("Karl", goal=("cloud", "octopus", "dragon"))
>>> sheet = sheet.add_card(1, PadCard(2, particles=("cloud",)))
>>> sheet.tally().dream.levels[0].cards[0].stars
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.somnicum.dream import LEVELS, Dream, DreamCard, DreamRow
from companion.somnicum.scoring import FinalScores, PlayerTally, final_scores


class SheetRefusal(ValueError):
    """A change the rules of a dream do not allow; the message says which rule."""


@dataclass(frozen=True)
class PadCard:
    stars: int
    nightmare: bool = False
    particles: tuple[str, ...] = ()  # the Goal particles this card shows

    def dream_card(self) -> DreamCard:
        return DreamCard(stars=self.stars, particles=self.particles, nightmare=self.nightmare)


@dataclass(frozen=True)
class PlayerSheet:
    """One player's entries: up to three rows of cards, the gaps between them, and the rest."""

    name: str
    goal: tuple[str, ...] = ()
    rows: tuple[tuple[PadCard, ...], ...] = ((), (), ())
    gaps: tuple[tuple[bool, ...], ...] = ((), (), ())  # gaps[level][i]: between card i and i+1
    meetings_unplayed: int = 0
    meeting_vp: int = 0
    sand: int = 0

    def dream(self) -> Dream:
        return Dream(tuple(
            DreamRow(tuple(c.dream_card() for c in cards), gaps)
            for cards, gaps in zip(self.rows, self.gaps)
        ))

    def tally(self) -> PlayerTally:
        return PlayerTally(
            name=self.name, dream=self.dream(), goal=self.goal,
            meetings_unplayed=self.meetings_unplayed, meeting_vp=self.meeting_vp, sand=self.sand,
        )

    def _checked(self, sheet: PlayerSheet, level: int) -> PlayerSheet:
        bad = sheet.dream().impossible_level()
        if bad is not None:
            above = sheet.dream().levels[bad - 2]
            raise SheetRefusal(
                f"Level {bad} cannot hold {len(sheet.rows[bad - 1])} cards: each card of level {bad} "
                f"lies under a pair of level-{bad - 1} cards with no gap between them, and level "
                f"{bad - 1} has {above.gapless_pairs()} such pair{'s' if above.gapless_pairs() != 1 else ''}."
            )
        return sheet

    def add_card(self, level: int, card: PadCard) -> PlayerSheet:
        """Adds a card at the right end of ``level`` (1 to 3), with no gap before it."""
        index = level - 1
        rows, gaps = list(self.rows), list(self.gaps)
        if rows[index]:
            gaps[index] = gaps[index] + (False,)
        rows[index] = rows[index] + (card,)
        return self._checked(replace(self, rows=tuple(rows), gaps=tuple(gaps)), level)

    def set_card(self, level: int, position: int, card: PadCard) -> PlayerSheet:
        rows = list(self.rows)
        cards = list(rows[level - 1])
        cards[position] = card
        rows[level - 1] = tuple(cards)
        return replace(self, rows=tuple(rows))

    def remove_card(self, level: int, position: int) -> PlayerSheet:
        """Takes a card out; the gap on its left (or right, for the first card) goes with it."""
        index = level - 1
        rows, gaps = list(self.rows), list(self.gaps)
        cards, row_gaps = list(rows[index]), list(gaps[index])
        cards.pop(position)
        if row_gaps:
            row_gaps.pop(position - 1 if position > 0 else 0)
        rows[index], gaps[index] = tuple(cards), tuple(row_gaps)
        return self._checked(replace(self, rows=tuple(rows), gaps=tuple(gaps)), level)

    def toggle_gap(self, level: int, between: int) -> PlayerSheet:
        """Puts a gap token between card ``between`` and the next one, or takes it away."""
        index = level - 1
        gaps = list(self.gaps)
        row_gaps = list(gaps[index])
        row_gaps[between] = not row_gaps[between]
        gaps[index] = tuple(row_gaps)
        return self._checked(replace(self, gaps=tuple(gaps)), level)

    def with_goal(self, goal: Sequence[str]) -> PlayerSheet:
        """A new Goal card; each card keeps only the particles that are still on it."""
        goal = tuple(goal)
        rows = tuple(
            tuple(replace(c, particles=tuple(p for p in c.particles if p in goal)) for c in cards)
            for cards in self.rows
        )
        return replace(self, goal=goal, rows=rows)

    @property
    def card_count(self) -> int:
        return sum(len(cards) for cards in self.rows)


@dataclass(frozen=True)
class ScorePad:
    players: tuple[PlayerSheet, ...] = field(default_factory=tuple)

    @classmethod
    def for_players(cls, names: Sequence[str]) -> ScorePad:
        return cls(tuple(PlayerSheet(name) for name in names))

    def with_player(self, index: int, sheet: PlayerSheet) -> ScorePad:
        players = list(self.players)
        players[index] = sheet
        return replace(self, players=tuple(players))

    def scores(self) -> FinalScores:
        return final_scores([p.tally() for p in self.players])


EMPTY_ROWS: tuple[tuple[PadCard, ...], ...] = ((),) * LEVELS
