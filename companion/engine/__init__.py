"""The rules of Room 25 as pure Python: commands in, events out, views per seat.

    result = start({"mode": "suspicion", "players": 5, "seed": 7})
    result = apply(result.state, {"type": "clue", "seat": "1", "cell": "C2"})
    seat_view(result.state, "1")

No I/O, threads, clocks or hardware here: randomness comes from a seeded generator kept in the
state, and hidden facts from the players' reports.
"""

from . import robots  # noqa: F401  (registers the Robot and Shredder rooms)
from .commands import COMMAND_SCHEMA, COMMAND_TYPES, Command, parse, wire
from .context import Refused
from .evolve import replay
from .game import Result, apply, start
from .legal import legal_commands
from .refusals import Refusal
from .ruleset import EDITIONS, MODES, Ruleset, Settings, make_ruleset
from .state import ACTIONS, HOST, GameState
from .views import (
    PUBLIC,
    apply_changes,
    changes_for,
    changes_for_seats,
    events_for,
    full_view,
    notebook,
    public_view,
    seat_view,
    views_for,
)
from .waiting import Waiting, waiting_for

__all__ = [
    "ACTIONS",
    "COMMAND_SCHEMA",
    "COMMAND_TYPES",
    "EDITIONS",
    "HOST",
    "MODES",
    "PUBLIC",
    "Command",
    "GameState",
    "Refusal",
    "Refused",
    "Result",
    "Ruleset",
    "Settings",
    "Waiting",
    "apply",
    "apply_changes",
    "changes_for",
    "changes_for_seats",
    "events_for",
    "full_view",
    "legal_commands",
    "make_ruleset",
    "notebook",
    "parse",
    "public_view",
    "replay",
    "seat_view",
    "start",
    "views_for",
    "waiting_for",
    "wire",
]
