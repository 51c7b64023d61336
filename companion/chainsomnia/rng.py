"""The game's own seeded generator (SplitMix64), whose whole state is one int in the game state.

Digital decks are shuffled and virtual dice rolled from it, so replaying a journal gives exactly
the same game. No global ``random`` is involved.

>>> state, value = below(42, 6)
>>> 0 <= value < 6
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A number in 0..n-1 (the modulo bias is below 1e-17 for a die or a deck)."""
    state, value = next_u64(state)
    return state, value % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, tuple[T, ...]]:
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)


def dice(state: int, count: int) -> tuple[int, tuple[int, ...]]:
    values = []
    for _ in range(count):
        state, v = below(state, 6)
        values.append(v + 1)
    return state, tuple(values)
