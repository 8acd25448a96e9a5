"""The game itself: the four actions, the rooms, the characters and their talents, robots, the
M.A.C. deck in play, the turn cycle, the modes' victories and setting a game up. A new room's
effect goes in `rooms.py` (base rooms) or `new_rooms.py` (Season 2 and Ultimate rooms), filed
with `@rooms.effect(kind)`.

`load()` fills every table of rules: the face calls it once, before any game."""

from __future__ import annotations

from importlib import import_module

# The modules that file rules in the tables (kernel/registry.py): room effects, leave and
# robot effects, pending choices' answers, talents, M.A.C. card effects and panics.
FILING = ("rooms", "new_rooms", "shredder", "robots", "abilities", "mac")


def load() -> None:
    """File every rule in its table, by importing the modules that hold them (once: Python
    keeps a module it has imported)."""
    for name in FILING:
        import_module(f"{__name__}.{name}")
