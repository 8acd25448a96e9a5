"""How far the host may undo: commands are taken back by replaying the game without them, but
never past something the table has already been shown, which nobody can unsee:

- a M.A.C. card drawn (`mac_drawn`) or the M.A.C. pile shuffled (`mac_shuffled`,
  `mac_reshuffled`): the order of the pile would be known;
- a hidden room revealed or looked at (`room_revealed`, `room_seen`) when the companion dealt
  the complex (with physical tiles the table reported the room itself, and a mistyped room is
  exactly what undo is for);
- a role revealed (`role_revealed`);
- and never past the start of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

SHOWN_ALWAYS = {
    "mac_drawn": "mac",
    "mac_shuffled": "shuffle",
    "mac_reshuffled": "shuffle",
    "role_revealed": "role",
}
SHOWN_WHEN_DEALT = {"room_revealed": "room", "room_seen": "room"}


def shown_to_table(events: Sequence[dict], dealt: bool) -> str | None:
    """What these events showed that cannot be taken back ("mac", "shuffle", "room", "role")."""
    for event in events:
        kind = event["type"]
        if kind in SHOWN_ALWAYS:
            return SHOWN_ALWAYS[kind]
        if dealt and kind in SHOWN_WHEN_DEALT:
            return SHOWN_WHEN_DEALT[kind]
    return None


def undoable(commands: Sequence[Sequence[dict]], dealt: bool) -> tuple[int, str | None]:
    """How many of the last commands (each given by its events, oldest first) may be undone,
    and what stops it further back (None: the start of the game)."""
    count = 0
    for events in reversed(commands):
        shown = shown_to_table(events, dealt)
        if shown is not None:
            return count, shown
        count += 1
    return count, None
