"""Table talk between allies.

The rules let players say how dangerous a room they looked at is, never which room it is (001,
Look: "You are allowed to give indications about the room's danger level"). Allies (everyone in
Cooperation and Solo, a team in Team mode) share a `Table`; nobody talks in Suspicion or
Competition."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Table:
    """What allies have said aloud: the danger level of rooms they have seen, by tile."""

    levels: dict[int, str] = field(default_factory=dict)
