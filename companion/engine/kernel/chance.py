"""A small seeded generator whose whole state is one integer.

Keeping the generator inside the game state (and its value inside the events that draw from
it) makes replay and undo reproduce every shuffle; one integer is cheap to copy and to store.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")
MASK = (1 << 64) - 1


def next_value(state: int) -> tuple[int, int]:
    """SplitMix64: return (new state, 64-bit output)."""
    state = (state + 0x9E3779B97F4A7C15) & MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n), by rejection so that no value is favoured."""
    limit = (MASK + 1) - ((MASK + 1) % n)
    while True:
        state, value = next_value(state)
        if value < limit:
            return state, value % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, list[T]]:
    """Fisher-Yates shuffle of a copy."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        state, j = below(state, i + 1)
        result[i], result[j] = result[j], result[i]
    return state, result


def choice(state: int, items: Sequence[T]) -> tuple[int, T]:
    state, i = below(state, len(items))
    return state, items[i]
