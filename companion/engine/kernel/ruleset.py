"""Editions, modes and the settings where the sources disagree.

Every point on which the rulebooks differ is a named setting whose default depends on the
edition; docs/rules.md quotes the sources behind each default.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any

EDITIONS = ("base", "season2", "ultimate")
MODES = ("suspicion", "cooperation", "competition", "team", "solo")
TRACKING = ("dealt", "physical", "countdown")
# The modes where all the characters play together against the complex, on the board's short
# side (001, SETUP: "COOPERATION or SOLO modes: 8 turns side").
TOGETHER_MODES = ("cooperation", "solo")
# The modes played on the 10-turn side, where the alarm can go off (001, Alert!).
ALARM_MODES = ("suspicion", "competition", "team")
# The M.A.C. deck's levels, named as 002 names them ("Niveau standard", "niveau Madness", MODES :
# COOPERATION ET SOLO); a card's level is the lowest game level that plays it. 000 calls the
# standard cards "BASIC CARDS": wherever a user writes a level, "basic" reads as "standard".
MAC_LEVELS = ("standard", "madness")
MAC_LEVEL_SPELLINGS = {"basic": "standard"}


def mac_level(word: Any) -> Any:
    """A M.A.C. level as a user may write it, in the one word the companion uses (anything
    else unchanged, for the check that refuses it)."""
    return MAC_LEVEL_SPELLINGS.get(word, word) if isinstance(word, str) else word


@dataclass(frozen=True, slots=True)
class Settings:
    """Rule points that vary by edition or by the table's choice."""

    # Flooded chamber deadline: "second_action_next_turn" (001 ROOMS, Flooded chamber; 000) or
    # "end_of_next_turn" (004 tile text, Season 2 sheet).
    flooded_deadline: str = "second_action_next_turn"
    # Flooded chamber becomes inaccessible "on_enter" (001) or "on_reveal" (000: "Once revealed";
    # 002: a robot revealing it makes it inaccessible).
    flooded_seals: str = "on_enter"
    # Control chamber slide obeys "same direction only" and places a Control token.
    control_chamber_uses_token: bool = True
    # Only a Control *action* takes Room 25 out; the Control chamber's slide wraps it.
    control_chamber_can_exit: bool = False
    # A revealed guard in the Cold chamber plays a single action (002 tile, 000 Cold chamber).
    cold_limits_revealed_guard: bool = False
    # Guard exposure: "any_time" during his turn (001) or "after_alarm" (000).
    guard_exposure: str = "any_time"
    # An exposed guard loses his Adrenaline token (000, exposure of the guards).
    exposure_loses_adrenaline: bool = False
    # "Take off the masks": "majority" of living characters in Room 25 (001) or
    # "left_outside" (000: one guard, all others inside; two guards, two left outside).
    masks: str = "majority"
    # Suspicion role tiles: "doubt" (001: one more tile than players at 4-5 players),
    # "season2" (002: base tiles at 4 players, exact counts from 5 with 1 or 2 guards at 5),
    # "exact" (000 table).
    role_tiles: str = "doubt"
    # Cooperation: a partial victory with exactly one character eliminated (001).
    cooperation_partial_victory: bool = True
    # Solo: actions are played immediately, without programming (001 Solo Mode).
    solo_programming: bool = False
    # The alarm applies in the 10-turn modes (001 Alert!).
    alarm: bool = True
    # Reminder tokens in play (001 COMPOSITION OF THE COMPLEX allows playing without them).
    reminder_tokens: bool = True
    # Season 2 / Ultimate: special talents (the fifth token) and the Adrenaline token. The
    # Ultimate quick-start rules play without the ULTIMATE sections (000, QUICK START RULES).
    talents: bool = False
    adrenaline: bool = False
    # Season 2 / Ultimate: the Cold chamber forbids programming the Adrenaline token.
    cold_forbids_adrenaline: bool = True
    # M.A.C. deck: "off", "standard" (basic cards, two before each programming phase) or
    # "madness" (every card, one before each of the first player's actions); Cooperation and
    # Solo of Season 2 and Ultimate play "standard" unless the table chooses otherwise.
    mac: str = "off"
    # "virtual": the companion shuffles and draws; "physical": the table draws real cards and
    # says which one.
    mac_deck: str = "virtual"
    # Time bomb: the second card kills only if drawn in the same turn (000) or at any time (002).
    time_bomb_same_turn: bool = False
    # Robot room: True, a character entering places a robot while fewer robots are in play than
    # Robot rooms are revealed (000: "one robot for each revealed Robot room"); False, a Robot
    # room brings its robot when it is revealed, and later entries place one only when no robot
    # is left in the complex (002 tile: "s'il n'y en a plus dans le Complexe").
    robots_per_room: bool = True
    # Tunnel room, a character pushed or drawn in while both other Tunnel rooms are visible:
    # "must" move to the one his player chooses (002: "il doit choisir"; 000: "the player may
    # decide which of the other two he moves to" says who chooses, not whether he goes), or
    # "may" also stay where he was pushed (a table's reading of 000's "may").
    tunnel_choice: str = "must"
    # Pivoting room: what its corridor restricts besides Move, Look and Push (000: nothing else;
    # "carry": Max's Carry too (002, new rooms page: "ne peut se déplacer, regarder, pousser ou
    # porter que dans les deux directions du couloir"); "talents": every talent (002, sheet:
    # "ou exercer son talent").
    pivoting_corridor: str = "basic"
    # The Key room is used in Solo as well as in Cooperation (002: "Uniquement en mode
    # coopération & Solo"; 000: "used only for Cooperation mode").
    key_room_in_solo: bool = False
    # Jennifer's Call: "into" - no one is called into a Flooded chamber or a locked room, but
    # Emmett, immune to locks, may be called into a locked one (000: "cannot call someone
    # into"); "from" - Jennifer standing in a Flooded chamber or a locked room calls no one
    # (002: "ne peut pas appeler depuis une salle Inondable / verrouillée").
    call_blocked: str = "into"
    # Kevin picks Hack the complex or Hack a robot "reveal": when his token is revealed (002)
    # or "programming": when he programs it (000), the command's `talent_choice`.
    kevin_chooses: str = "reveal"
    # Emmett's Lock on his own room as well as an adjacent one (002: "une salle adjacente ou
    # celle qu'il occupe"; 000: "an adjacent visible non-Blue room").
    lock_own_room: bool = False
    # Emmett's Lock from the Central room, where both rulebooks forbid every talent; the
    # online adaptation's notes (003) say it should be allowed there. A table's choice.
    lock_from_central: bool = False
    # How the table programs (issue 7, not a rule point): "app", each character's programme is
    # sent from the player's phone; "tokens", the cardboard action tokens lie face down on the
    # pedestals, a seat only locks in, and each action is named when its token is revealed.
    programming: str = "app"


EDITION_DEFAULTS: dict[str, dict[str, object]] = {
    "base": {},
    "season2": {
        "flooded_deadline": "end_of_next_turn",
        "flooded_seals": "on_reveal",
        "cold_limits_revealed_guard": True,
        "role_tiles": "season2",
        "cooperation_partial_victory": False,
        "solo_programming": True,
        "talents": True,
        "adrenaline": True,
        "robots_per_room": False,
        "pivoting_corridor": "carry",
        "key_room_in_solo": True,
        "call_blocked": "from",
        "lock_own_room": True,
    },
    "ultimate": {
        "flooded_seals": "on_reveal",
        "cold_limits_revealed_guard": True,
        "guard_exposure": "after_alarm",
        "exposure_loses_adrenaline": True,
        "masks": "left_outside",
        "role_tiles": "exact",
        "time_bomb_same_turn": True,
        "cooperation_partial_victory": False,
        "solo_programming": True,
        "talents": True,
        "adrenaline": True,
        "kevin_chooses": "programming",
    },
}


@dataclass(frozen=True, slots=True)
class Ruleset:
    edition: str
    mode: str
    tracking: str
    settings: Settings
    turns: int

    @property
    def has_alarm(self) -> bool:
        return self.settings.alarm and self.mode in ALARM_MODES

    def as_dict(self) -> dict[str, object]:
        return {
            "edition": self.edition,
            "mode": self.mode,
            "tracking": self.tracking,
            "settings": asdict(self.settings),
            "turns": self.turns,
        }


SETTING_NAMES = frozenset(f.name for f in fields(Settings))
# The values a word-valued setting takes; every other setting is true or false.
SETTING_CHOICES: dict[str, tuple[str, ...]] = {
    "flooded_deadline": ("second_action_next_turn", "end_of_next_turn"),
    "flooded_seals": ("on_enter", "on_reveal"),
    "guard_exposure": ("any_time", "after_alarm"),
    "masks": ("majority", "left_outside"),
    "role_tiles": ("doubt", "season2", "exact"),
    "mac": ("off", *MAC_LEVELS),
    "mac_deck": ("virtual", "physical"),
    "tunnel_choice": ("must", "may"),
    "pivoting_corridor": ("basic", "carry", "talents"),
    "call_blocked": ("into", "from"),
    "kevin_chooses": ("reveal", "programming"),
    "programming": ("app", "tokens"),
}


def _check_setting(key: str, value: object) -> None:
    choices = SETTING_CHOICES.get(key)
    if choices is None and not isinstance(value, bool):
        raise ValueError(f"setting {key!r} is true or false, not {value!r}")
    if choices is not None and value not in choices:
        raise ValueError(f"setting {key!r} is one of {', '.join(choices)}, not {value!r}")


def turns_for(edition: str, mode: str, characters: int) -> int:
    """Length of the game. Base: the board side, 10 or 8 turns (001, SETUP). Season 2 and
    Ultimate: Suspicion 10 turns up to 6 characters, 9 with 7, 8 with 8; Cooperation and Solo
    8 turns with 4 characters, 7 with 5, 6 with 6 (002 MODES; 000 COUNTDOWN table)."""
    if mode in TOGETHER_MODES:
        if edition == "base":
            return 8
        return {5: 7, 6: 6}.get(characters, 8)
    if mode == "suspicion" and edition != "base":
        return {7: 9, 8: 8}.get(characters, 10)
    return 10


def make_ruleset(
    edition: str,
    mode: str,
    tracking: str = "dealt",
    overrides: dict | None = None,
    turns: int | None = None,
) -> Ruleset:
    """Build a ruleset; raise ValueError with a plain reason for an unknown name."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
    if tracking not in TRACKING:
        raise ValueError(f"unknown tracking {tracking!r}: choose one of {', '.join(TRACKING)}")
    # Any: each value is checked against its setting by _check_setting, not by its type.
    values: dict[str, Any] = dict(EDITION_DEFAULTS[edition])
    for key, value in (overrides or {}).items():
        if key not in SETTING_NAMES:
            raise ValueError(f"unknown setting {key!r}")
        _check_setting(key, value)
        values[key] = value
    if turns is None:
        turns = turns_for(edition, mode, 4)
    return Ruleset(edition, mode, tracking, replace(Settings(), **values), turns)
