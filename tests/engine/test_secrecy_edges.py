"""Secrecy at the edges of Suspicion (docs/rules.md, "Take off the masks: how many guards" and
"Escape in Suspicion: what the table learns"): what the table sees may depend on hidden roles
only where the rulebook itself makes the table learn them."""

from __future__ import annotations

import pytest

from companion.engine import GameState, public_view
from companion.scenario import run_scenario

COMPLEX = [
    row.split()
    for row in (
        "empty  dark    empty   empty   room25",
        "cold   prison  empty   empty   empty",
        "dark   empty   central empty   vision",
        "cold   trapped flooded mortal  acid",
        "vortex acid    twin    twin    mortal",
    )
]

# Emmett and Franck wait in Room 25 (E1); Max, then Jennifer, walk in; Kevin looks about.
FIVE = {
    "position": {
        "turn": 7,
        "phase": "programming",
        "positions": {"emmett": "E1", "franck": "E1", "max": "E2", "kevin": "D2", "jennifer": "E2"},
    },
    "steps": [
        {"program": {"emmett": ["look"], "franck": ["look"], "max": ["move"], "kevin": ["look"]}},
        {"type": "program", "character": "jennifer", "actions": ["move"]},
        {"type": "act", "character": "emmett", "direction": "south"},
        {"type": "act", "character": "franck", "direction": "south"},
        {"type": "act", "character": "max", "direction": "north"},
        {"type": "act", "character": "kevin", "direction": "west"},
        {"type": "act", "character": "jennifer", "direction": "north"},
    ],
}
FOUR = {
    "position": {
        "turn": 7,
        "phase": "programming",
        "positions": {"emmett": "E1", "franck": "E1", "max": "E2", "kevin": "D2"},
    },
    "steps": [
        {"program": {"emmett": ["look"], "franck": ["look"], "max": ["move"], "kevin": ["look"]}},
        {"type": "act", "character": "emmett", "direction": "south"},
        {"type": "act", "character": "franck", "direction": "south"},
        {"type": "act", "character": "max", "direction": "north"},
        {"type": "act", "character": "kevin", "direction": "west"},
    ],
}


def _state_after(game: dict, players: int, roles: dict, settings: dict, steps: int) -> GameState:
    setup = {
        "mode": "suspicion",
        "players": players,
        "roles": roles,
        "settings": settings,
        "complex": COMPLEX,
    }
    if settings.get("role_tiles") == "exact" and players == 5:
        # One tile each: the table chose how many guards (000, SUSPICION SETUP).
        setup["guards"] = sum(role == "guard" for role in roles.values())
    doc = {"setup": setup, "position": game["position"], "steps": game["steps"][:steps]}
    result = run_scenario(doc)
    assert result.ok and result.state is not None, result.failures
    return result.state


def _unmasked_after_each_step(game: dict, players: int, roles: dict, settings: dict) -> list:
    """Who has shown his role to the table after each step (not what the role is)."""
    return [
        sorted(
            cid
            for cid, seen in public_view(_state_after(game, players, roles, settings, n))[
                "characters"
            ].items()
            if seen["role"] is not None
        )
        for n in range(len(game["steps"]) + 1)
    ]


@pytest.mark.parametrize(
    ("game", "players", "deals"),
    [
        (FIVE, 5, [{"kevin": "guard"}, {"kevin": "guard", "jennifer": "guard"}]),
        (FIVE, 5, [{"emmett": "guard"}, {"emmett": "guard", "max": "guard"}]),
        (FOUR, 4, [{}, {"kevin": "guard"}]),
    ],
)
def test_with_the_spare_role_tile_the_masks_never_tell_how_many_guards_were_dealt(
    game: dict, players: int, deals: list[dict]
) -> None:
    """Base role tiles (one left over at 4 and 5 players) with the Ultimate masks rule: games
    that differ only in the hidden deal unmask the same characters at the same moments."""
    settings = {"masks": "left_outside", "role_tiles": "doubt"}
    seen = [_unmasked_after_each_step(game, players, roles, settings) for roles in deals]
    assert all(s == seen[0] for s in seen)
    assert seen[0][-1], "the masks did come off at some point in this game"


def test_at_five_players_the_spare_tile_means_two_guards_are_played_with() -> None:
    """One guard dealt, but the table shuffled in two guard tiles: the masks come off as soon as
    two are left outside (Max walks in, step 5), as they would with two guards dealt."""
    settings = {"masks": "left_outside", "role_tiles": "doubt"}
    unmasked = _unmasked_after_each_step(FIVE, 5, {"kevin": "guard"}, settings)
    assert unmasked[4] == []
    assert unmasked[5] == ["jennifer", "kevin"]


def test_with_one_tile_each_the_guards_dealt_are_the_guards_played_with() -> None:
    """Ultimate tiles (`role_tiles: exact`, 1 guard chosen at 5 players): the count is public,
    so one guard means the masks wait until one alone is left outside."""
    settings = {"masks": "left_outside", "role_tiles": "exact"}
    setup_guards = {"kevin": "guard"}
    doc_state = _state_after(FIVE, 5, setup_guards, settings, len(FIVE["steps"]))
    assert public_view(doc_state)["characters"]["kevin"]["role"] == "guard"
    unmasked = _unmasked_after_each_step(FIVE, 5, setup_guards, settings)
    assert unmasked[5] == []  # two outside, one guard: not yet


LAST_TURN = {
    "position": {
        "turn": 10,
        "phase": "programming",
        "alarm": True,
        "positions": {"emmett": "E1", "franck": "E1", "max": "C3", "kevin": "C3"},
    },
    "steps": [
        {
            "program": {
                "emmett": ["control"],
                "franck": ["look"],
                "max": ["look"],
                "kevin": ["look"],
            }
        },
        {"type": "act", "character": "emmett", "direction": "east"},
    ],
}


def test_a_last_turn_escape_depends_on_the_roles_as_the_rulebook_says_and_shows_no_role() -> None:
    """Suspicion's last turn: Emmett pushes Room 25 out with Franck; Max and Kevin are outside.
    With one of them a guard, one prisoner is missing: the prisoners escape (001, Victory
    conditions). With both prisoners, it wraps round. The physical table learns the same thing
    when it checks the escape; the engine shows no role for it (docs/rules.md)."""
    settings = {"role_tiles": "doubt"}
    steps = len(LAST_TURN["steps"])
    escaped = _state_after(LAST_TURN, 4, {"max": "guard"}, settings, steps)
    assert escaped.outcome is not None and escaped.outcome["result"] == "prisoners"
    wrapped = _state_after(LAST_TURN, 4, {}, settings, steps)
    view = public_view(wrapped)
    assert view["outcome"] is None
    assert all(seen["role"] is None for seen in view["characters"].values())
    assert {view["characters"][c]["cell"] for c in ("emmett", "franck")} == {"A1"}
    room25 = [e["cell"] for row in view["complex"] for e in row if e.get("room") == "room25"]
    assert room25 == ["A1"]
