"""Special talents (Season 2 and Ultimate): the fifth action token, one per character.

Each character's talent is an entry of `TALENTS`: what completes it now (`options`) and what it
does (`resolve`). Talents are never played in the Central room nor through adrenaline
(000, SPECIAL ABILITIES: "Special Abilities CANNOT be used in the Central Room NOR using
Adrenaline"). A character whose talent has no entry cannot complete it: the token is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from . import grid
from .context import Context
from .state import GameState


@dataclass(frozen=True)
class Talent:
    name: str
    options: Callable[[GameState, str], list[dict]]
    resolve: Callable[[Context, str, dict], None]


TALENTS: dict[str, Talent] = {}


def talent(character: str, name: str) -> Callable:
    """Register a character's talent from a module-level pair of functions."""

    def register(cls: type) -> type:
        TALENTS[character] = Talent(name, cls.options, cls.resolve)
        return cls

    return register


def options(state: GameState, cid: str) -> list[dict]:
    if state.where(cid) == grid.CENTRE or cid not in TALENTS:
        return []
    return TALENTS[cid].options(state, cid)


def resolve(ctx: Context, cid: str, params: dict) -> None:
    TALENTS[cid].resolve(ctx, cid, params)
