"""Editions, modes and the settings where the sources disagree.

Every point on which the rulebooks differ is a named setting whose default depends on the
edition; docs/rules.md quotes the sources behind each default.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace

EDITIONS = ("base",)
MODES = ("suspicion", "cooperation", "competition", "team", "solo")
TRACKING = ("dealt", "physical", "countdown")

# Players per mode (001_30b8f356e0d93ba4.txt, GAME MODES).
PLAYERS = {
    "suspicion": (4, 5, 6),
    "cooperation": (2, 3, 4, 5, 6),
    "competition": (2, 3),
    "team": (4, 6),
    "solo": (1,),
}
# Reversible board side (001, SETUP): 10 turns for Suspicion, Competition, Team; 8 otherwise.
TURNS = {"suspicion": 10, "competition": 10, "team": 10, "cooperation": 8, "solo": 8}


@dataclass(frozen=True, slots=True)
class Settings:
    """Rule points that vary by edition or by the table's choice."""

    # Flooded chamber deadline: "second_action_next_turn" (001 ROOMS, Flooded chamber) or
    # "end_of_next_turn" (004 tile text, Season 2 sheet).
    flooded_deadline: str = "second_action_next_turn"
    # Control chamber slide obeys "same direction only" and places a Control token.
    control_chamber_uses_token: bool = True
    # Only a Control *action* takes Room 25 out; the Control chamber's slide wraps it.
    control_chamber_can_exit: bool = False
    # A revealed guard in the Cold chamber plays a single action (Season 2 / Ultimate).
    cold_limits_revealed_guard: bool = False
    # Guard exposure: "any_time" during his turn (base) or "after_alarm" (Ultimate).
    guard_exposure: str = "any_time"
    # "Take off the masks": "majority" of living characters in Room 25 (base).
    masks: str = "majority"
    # Suspicion role tiles: "doubt" = one more tile than players at 4-5 players (base).
    role_tiles: str = "doubt"
    # Cooperation: a partial victory with exactly one character eliminated (base).
    cooperation_partial_victory: bool = True
    # Solo: actions are played immediately, without programming (001 Solo Mode).
    solo_programming: bool = False
    # The alarm applies on the 10-turn side (001 SETUP / Alert!).
    alarm: bool = True
    # Reminder tokens in play (001 COMPOSITION OF THE COMPLEX allows playing without them).
    reminder_tokens: bool = True


# Season 2 and Ultimate add their defaults here as they are implemented (issue 3); until then
# their differing points can be played as overrides of the base edition.
EDITION_DEFAULTS: dict[str, dict[str, object]] = {"base": {}}


@dataclass(frozen=True, slots=True)
class Ruleset:
    edition: str
    mode: str
    tracking: str
    settings: Settings

    @property
    def turns(self) -> int:
        return TURNS[self.mode]

    @property
    def has_alarm(self) -> bool:
        return self.settings.alarm and self.turns == 10

    def as_dict(self) -> dict[str, object]:
        return {
            "edition": self.edition,
            "mode": self.mode,
            "tracking": self.tracking,
            "settings": asdict(self.settings),
        }


SETTING_NAMES = frozenset(f.name for f in fields(Settings))


def make_ruleset(
    edition: str, mode: str, tracking: str = "dealt", overrides: dict | None = None
) -> Ruleset:
    """Build a ruleset; raise ValueError with a plain reason for an unknown name."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}: choose one of {', '.join(MODES)}")
    if tracking not in TRACKING:
        raise ValueError(f"unknown tracking {tracking!r}: choose one of {', '.join(TRACKING)}")
    values = dict(EDITION_DEFAULTS[edition])
    for key, value in (overrides or {}).items():
        if key not in SETTING_NAMES:
            raise ValueError(f"unknown setting {key!r}")
        values[key] = value
    return Ruleset(edition, mode, tracking, replace(Settings(), **values))
