"""The shapes of what leaves the engine: the views, their changes and the events.

These are the contract with the table server, the phones and the OLED: every key listed here is
present in every view (a value may be None where the comment says so), and nothing else is. They
are TypedDicts so that type checkers and readers see the shape; at run time the views are plain
dictionaries ready for JSON. `docs/engine.md` ("Views") explains who sees what.
"""

from typing import Literal, NotRequired, TypedDict

Phase = Literal["clue", "programming", "action", "over"]


class RulesetView(TypedDict):
    edition: str  # base, season2, ultimate
    mode: str  # suspicion, cooperation, competition, team, solo
    tracking: str  # countdown, dealt, physical
    settings: dict[str, object]  # every field of `ruleset.Settings`
    turns: int


class WaitingView(TypedDict, total=False):
    """What the game waits for, as every audience reads it (face/waiting.py); before a game
    only its `phase` ("none"), or nothing at all."""

    phase: str  # clue, programming, action, choice, over (none: no game)
    seats: list[str]
    locked_in: list[str]
    character: str | None
    round: int | None
    choice: str | None


class CellView(TypedDict):
    """One cell of the complex, as everybody sees it (the room only when it is face up)."""

    cell: str  # "A1".."E5"
    tile: int  # which tile stands here: a tile keeps its id when lines slide
    room: str | None  # the room, face up only (full view: always)
    revealed: bool
    sealed: bool  # a sealed Flooded chamber, a Shredder: nobody may enter
    corridor: str | None  # a face-up Pivoting room's exits: "north-south" or "east-west"
    reminders: list[str]  # the seats whose reminder token lies on this room
    occupants: list[str]  # the living characters in it, in the order of the game's characters
    robots: int
    locked: bool  # one of Emmett's Lock tokens lies on it


class CharacterView(TypedDict):
    """A character as every seat sees him; his own seat (and the full view) sees more."""

    seat: str
    alive: bool
    cell: str | None  # None without a tracked board, once eliminated, or once escaped
    role: str | None  # prisoner or guard; None while it is another seat's secret
    exposed: bool  # a guard who exposed himself
    locked_in: bool  # his programming is locked in this turn
    played: list[str]  # the action tokens revealed this turn
    trapped: bool  # in the Trapped chamber he must leave with his next action
    adrenaline: bool  # still holds his Adrenaline token
    lost_tokens: list[str]  # action tokens lost for the rest of the game (Punishment)
    hidden: bool  # Alice (or Bruce mimicking her) hidden until his next action
    reserve: int  # Empty rooms in reserve for Sabotage (Sarah two, Bruce one at the start)
    flooded_since: int | None  # the turn he entered the Flooded chamber he is still in
    paranoia: list[str] | None  # a Paranoia pile: which tokens are left (sorted; full: in order)
    # His own seat and the full view only:
    program: NotRequired[list[str]]  # the tokens still to play this turn, in order
    single_action: NotRequired[bool]  # one token, played in the first or the second round
    adrenaline_programmed: NotRequired[bool]  # plays the adrenaline round this turn
    talent_choice: NotRequired[str | None]  # a talent's option chosen while programming


class PendingView(TypedDict):
    kind: str  # what is to be chosen: see `choices.KINDS`
    seat: str  # who chooses ("host" for the table)
    character: str | None
    options: list[object]


class MacView(TypedDict, total=False):
    """The M.A.C. deck as everybody sees it; an empty dict in a game without the deck."""

    level: str  # standard or madness
    draw_pile: int | None  # cards left to draw (None: a physical deck)
    discard: list[str]
    in_play: list[str]
    current: str | None  # the card being applied
    jammed: bool  # Jamming this turn
    accelerated: bool  # Acceleration this turn


class PublicView(TypedDict):
    """What the OLED and the table page show: nobody's secret."""

    version: int  # counts the public events only (see docs/engine.md, "Versions")
    ruleset: RulesetView
    phase: Phase
    turn: int
    turns_left: int
    last_turn: bool
    alarm: bool
    round: int  # 1, 2, or 3 for the adrenaline round
    current: str | None  # the character whose action it is
    order: list[str]  # turn order of the living characters, first player first
    complex: list[list[CellView]] | None  # five rows of five cells; None without a board
    characters: dict[str, CharacterView]
    controls: dict[str, str]  # line key -> direction controlled this turn
    jammed: bool  # someone stands in a face-up Jamming room: no table talk
    key_activated: bool
    deaths: list[str]  # eliminated characters, in order
    clues_taken: list[str]  # seats that took their starting clue
    clues: dict[str, str]  # seat -> the cell it looked at for its clue (public, not the room)
    pending: PendingView | None
    outcome: dict | None  # once over: {"result": ..., ...}
    mac: MacView


class SeatView(PublicView):
    """A player's phone: the public view, his characters' secrets and his notebook."""

    seat: str
    notebook: dict[str, str]  # cell -> room he has seen there and that is still face down


class FullView(PublicView):
    """Tests and the end-of-game reveal: every secret."""

    notebooks: dict[str, dict[str, str]]  # seat -> notebook


class Change(TypedDict):
    """One part of a view replaced by its new value (`views.changes_for`).

    `path` is ["<top-level key>"], ["characters", character id] or ["complex", row, column]."""

    path: list[str | int]
    value: object


# Every event has a `type`; `private` names the only audience that sees it (a seat id, or a marker
# no seat can have such as "engine"); an event without it is public. Its other fields depend on
# its type, so it crosses the layers as a plain `dict[str, object]` (a TypedDict cannot leave its
# keys open) and this table is its shape: the fields of each type besides `type` and `private`,
# "name?" optional, "*" the parameters of the action played (its direction, target, cell...).
# Checked against random games of every edition and mode by tests/engine/test_views.py.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "game_created": (
        "ruleset",
        "seats",
        "tiles",
        "cells",
        "order",
        "composition",
        "turns_left",
        "phase",
        "start",
        "mac",
        "rng",
    ),
    "position_set": ("*",),  # a position written down: the state's own field names
    "role_dealt": ("seat", "character", "role", "rng?"),
    "role_revealed": ("character", "role", "reason"),
    "guard_exposed": ("character", "role"),
    "clue_taken": ("seat", "cell"),
    "room_seen": ("seat", "tile", "room"),
    "tile_identified": ("tile", "room"),
    "phase": ("phase", "round?", "limits?"),
    "limits": ("limits",),
    "locked_in": ("character",),
    "unlocked": ("character",),
    "adrenaline_may_follow": ("characters",),  # token programming: who may play the round
    "programmed": ("character", "tokens", "adrenaline", "talent_choice?"),
    "actor": ("character", "round"),
    "action_revealed": ("character", "action"),
    "action_played": ("character", "action", "*"),
    "action_lost": ("character", "action"),
    "looked": ("character", "cell"),
    "reported": ("event", "character"),
    "reports_withdrawn": ("tile", "cell"),  # the host's correction (physical tiles)
    "slot_done": ("character",),
    "adrenaline_used": ("character",),
    "adrenaline_lost": ("character", "cause"),
    "adrenaline_recovered": ("character",),
    "moved": ("character", "tile", "cell", "how", "origin"),
    "room_revealed": ("tile", "room", "cell"),
    "room_hidden": ("tile", "cell", "cause"),
    "room_destroyed": ("tile", "room", "cell"),
    "sealed": ("tile",),
    "corridor_turned": ("tile", "cell", "corridor"),
    "robot_placed": ("tile", "cell"),
    "robot_moved": ("tile", "to", "cell"),
    "robot_destroyed": ("tile", "cause"),
    "robot_ordered": ("character", "robot", "order", "direction", "target?"),
    "trapped": ("character", "tile"),
    "trap_cleared": ("character",),
    "flooding": ("character", "tile"),
    "flood_cleared": ("character",),
    "eliminated": ("character", "cause"),
    "regenerated": ("characters", "tile", "cell", "order", "slots"),
    "escaped": ("characters", "line?", "direction?"),
    "slid": ("cells", "line", "direction", "token"),
    "swapped": ("cells", "how"),
    "reminder_placed": ("seat", "tile", "cell"),
    "alarm": ("turns_left",),
    "turns_reduced": ("turns_left", "cause"),
    "countdown": ("order", "turn", "turns_left"),
    "pending": ("pending",),
    "pending_cleared": (),
    "game_over": ("outcome",),
    "key_activated": ("character", "tile"),
    "hid": ("character",),
    "carrying": ("character", "target"),
    "lock_placed": ("character", "tile", "cell", "moved_from"),
    "locks_removed": (),
    "empty_room_used": ("character", "tile"),
    "token_lost": ("character", "token"),
    "actions_cancelled": ("character", "cause"),
    "paranoia": ("character",),
    "paranoia_pile": ("character", "pile", "rng"),
    "token_drawn": ("character", "action"),
    "paranoia_ended": ("character",),
    "mac_shuffled": ("pile", "rng"),
    "mac_reshuffled": ("cards",),
    "mac_batch": ("count", "after", "drawer", "round"),
    "mac_batch_more": ("count", "drawer?"),
    "mac_batch_done": (),
    "mac_batch_over": ("reason",),
    "mac_drawn": ("card", "shown"),
    "mac_card_done": ("card", "stays"),
    "mac_move_ignored": ("card",),
    "jammed": ("reminders_removed",),
    "accelerated": (),
}
