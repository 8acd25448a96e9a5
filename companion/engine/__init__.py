"""The rules of Room 25 as pure Python: commands in, events out, views per seat.

    result = start({"mode": "suspicion", "players": 5, "seed": 7})
    result = apply(result.state, {"type": "clue", "seat": "1", "cell": "C2"})
    seat_view(result.state, "1")

No I/O, threads, clocks or hardware here: randomness comes from a seeded generator kept in the
state, and hidden facts from the players' reports.

Three folders, one layer each: `kernel/` holds what every rule stands on (the state and the fold
of events, the context a command is decided on, chance, the grid, rulesets, catalogues, refusal
texts); `rules/` holds the game itself (actions, rooms, characters and talents, robots, the
M.A.C., the turn cycle, setup); `face/` is what the world calls (start and apply, typed commands
and their schema, legal commands, waiting, views, writing a position down). Outside the engine,
only the names below are used.
"""

from .face.commands import COMMAND_SCHEMA, COMMAND_TYPES, SPECS, Command, wire
from .face.game import Result, apply, start
from .face.legal import legal_commands
from .face.position import set_position
from .face.reading import parse
from .face.shapes import FullView, PublicView, SeatView, WaitingView
from .face.views import (
    PUBLIC,
    Views,
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
from .face.waiting import Waiting, waiting_for
from .kernel import grid
from .kernel.context import Refused
from .kernel.evolve import evolve, replay
from .kernel.grid import name as cell_name
from .kernel.grid import parse_cell
from .kernel.mac_cards import DeckError
from .kernel.mac_deck import deck_as_json, deck_warnings, format_deck, load_deck
from .kernel.mac_schema import deck_schema
from .kernel.refusals import Refusal, ability_names, refusal_text
from .kernel.rule_texts import RuleText, rule_text, rule_texts
from .kernel.rule_texts import subjects as rule_subjects
from .kernel.ruleset import (
    EDITIONS,
    MAC_LEVELS,
    MODES,
    Ruleset,
    Settings,
    mac_level,
    make_ruleset,
    turns_for,
)
from .kernel.state import ACTIONS, HOST, SEAT_IDS, GameState
from .rules import compose
from .rules.setup import characters_per_seat

__all__ = [
    "ACTIONS",
    "COMMAND_SCHEMA",
    "COMMAND_TYPES",
    "EDITIONS",
    "HOST",
    "MAC_LEVELS",
    "MODES",
    "PUBLIC",
    "SEAT_IDS",
    "SPECS",
    "Command",
    "DeckError",
    "FullView",
    "GameState",
    "PublicView",
    "Refusal",
    "Refused",
    "Result",
    "RuleText",
    "Ruleset",
    "SeatView",
    "Settings",
    "Views",
    "Waiting",
    "WaitingView",
    "ability_names",
    "apply",
    "apply_changes",
    "cell_name",
    "changes_for",
    "changes_for_seats",
    "characters_per_seat",
    "compose",
    "deck_as_json",
    "deck_schema",
    "deck_warnings",
    "events_for",
    "evolve",
    "format_deck",
    "full_view",
    "grid",
    "legal_commands",
    "load_deck",
    "mac_level",
    "make_ruleset",
    "notebook",
    "parse",
    "parse_cell",
    "public_view",
    "refusal_text",
    "replay",
    "rule_subjects",
    "rule_text",
    "rule_texts",
    "seat_view",
    "set_position",
    "start",
    "turns_for",
    "views_for",
    "waiting_for",
    "wire",
]
