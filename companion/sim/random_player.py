"""The random policy: the engine's fuzzing baseline (prisoners essentially never win)."""

from __future__ import annotations

import random
from collections.abc import Callable


class RandomPlayer:
    """Any legal command, uniformly."""

    def __init__(self, seat: str, rng: random.Random) -> None:
        self.seat, self.rng = seat, rng

    following = False  # keeps no view: `observe` needs no changes

    def observe(self, changes: list[dict]) -> None:
        return None

    def choose(self, look: Callable[[], dict], legal: list[dict]) -> dict:
        return self.rng.choice(legal)
