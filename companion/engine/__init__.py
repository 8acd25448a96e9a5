"""The rules of Room 25 as pure Python: commands in, events out, views per seat.

    result = start({"mode": "suspicion", "players": 5, "seed": 7})
    result = apply(result.state, {"type": "clue", "seat": "1", "cell": "C2"})
    seat_view(result.state, "1")

No I/O, threads, clocks or hardware here: randomness comes from a seeded generator kept in the
state, and hidden facts from the players' reports.
"""

from . import robots  # noqa: F401  (registers the Robot and Shredder rooms)
from .evolve import replay
from .game import Result, apply, start
from .legal import legal_commands
from .ruleset import EDITIONS, MODES, Ruleset, Settings, make_ruleset
from .state import ACTIONS, HOST, GameState
from .views import events_for, full_view, notebook, public_view, seat_view

__all__ = [
    "ACTIONS",
    "EDITIONS",
    "HOST",
    "MODES",
    "GameState",
    "Result",
    "Ruleset",
    "Settings",
    "apply",
    "events_for",
    "full_view",
    "legal_commands",
    "make_ruleset",
    "notebook",
    "public_view",
    "replay",
    "seat_view",
    "start",
]
