"""Somnicum's seeded generator (SplitMix64): its whole state is one int kept in the game state.

With a digital field and bag it picks the Dream cards laid out, the Sleep Sand tokens drawn, the
Goal and Meeting cards dealt. Replaying a journal therefore gives exactly the same game, and no
global ``random`` is involved.

>>> state, index = below(seed_state(7), 10)
>>> 0 <= index < 10
True
"""

from __future__ import annotations

MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a game started with `seed` (any int, negative included)."""
    return seed & MASK


def next_u64(state: int) -> tuple[int, int]:
    """The next state and a 64-bit output."""
    state = (state + _GOLDEN) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """The next state and a whole number in 0..n-1 (n >= 1).

    Multiply-and-shift rather than modulo: no division, and the bias is far below 1e-15 for a
    bag of 72 tokens.
    """
    # next_u64, inlined: this is the simulator's innermost call.
    state = (state + _GOLDEN) & MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, ((z ^ (z >> 31)) * n) >> 64
