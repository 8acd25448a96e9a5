"""What each mode counts as a win, and the identity reveals of Suspicion.

Sources: 001_30b8f356e0d93ba4.txt, GAME MODES (Suspicion, Team, Cooperation, Competition,
Solo) and Escape the Complex.
"""

from __future__ import annotations

from ..kernel.catalogue import characters as character_catalogue
from ..kernel.context import Context
from ..kernel.ruleset import TOGETHER_MODES
from ..kernel.state import GameState


def display(cid: str) -> str:
    return character_catalogue().get(cid, {}).get("name", cid)


def _outcome(result: str, winners: list[str], reason: str, **params: object) -> dict:
    """Who won and why, the reason a code with parameters as refusals are (said in each
    reader's language by the catalogue: `reason_<code>` in companion/words/<lang>/reasons.json)."""
    return {
        "result": result,
        "winners": sorted(set(winners)),
        "reason": reason,
        "reason_params": params,
    }


def _seats_of(state: GameState, cids: list[str]) -> list[str]:
    return [state.characters[c].seat for c in cids]


def teams(state: GameState) -> dict[str, list[str]]:
    """Who wins together: a seat in Competition, a team in Team mode, every prisoner otherwise."""
    mode = state.ruleset.mode
    if mode == "competition":
        return {seat.id: list(seat.characters) for seat in state.seats.values()}
    if mode == "team":
        found: dict[str, list[str]] = {}
        for i, seat in enumerate(state.seats.values()):
            found.setdefault("AB"[i % 2], []).extend(seat.characters)
        return found
    return {"prisoners": [c.id for c in state.characters.values() if c.role == "prisoner"]}


def _may_leave(
    state: GameState, members: list[str], inside: set[str], outside_counts: bool = False
) -> int:
    """How many of a side's members are missing, or -1 when the side may not leave now.
    Only in Suspicion does a prisoner who 'didn't reach Room 25 in time' count as missing
    (001, Suspicion Mode - Victory conditions); in Competition and Team only the eliminated."""
    alive_outside = [c for c in members if state.characters[c].alive and c not in inside]
    if alive_outside and not outside_counts:
        return -1
    missing = [c for c in members if not state.characters[c].alive or c not in inside]
    if not missing:
        return 0
    if len(missing) == 1 and state.last_turn:
        return 1
    return -1


def escape_outcome(state: GameState, inside: list[str]) -> dict | None:
    """The outcome if Room 25 leaves now with these characters, or None if it may not leave."""
    mode = state.ruleset.mode
    inside_set = set(inside)
    if mode in ("suspicion",):
        if _may_leave(state, teams(state)["prisoners"], inside_set, outside_counts=True) < 0:
            return None
        winners = _seats_of(state, teams(state)["prisoners"])
        return _outcome("prisoners", winners, "prisoners_took_room25")
    if mode in TOGETHER_MODES:
        if key_missing(state):
            return None
        everyone = list(state.characters)
        dead = [c for c in everyone if not state.characters[c].alive]
        living_outside = [c for c in everyone if state.characters[c].alive and c not in inside_set]
        if living_outside:
            return None
        if not dead:
            return _outcome("complete_victory", list(state.seats), "everyone_escaped")
        partial = mode == "cooperation" and state.ruleset.settings.cooperation_partial_victory
        if partial and len(dead) == 1:
            return _outcome("partial_victory", list(state.seats), "escaped_one_eliminated")
        return None
    winners = []
    for side, members in teams(state).items():
        if _may_leave(state, members, inside_set) >= 0 and any(c in inside_set for c in members):
            winners.append(side)
    if not winners:
        return None
    seats = [s for side in winners for s in _sides_seats(state, side)]
    kind = _side_kind(state)
    return _outcome(mode, seats, f"{kind}s_escaped", **{f"{kind}s": winners})


def key_in_play(state: GameState) -> bool:
    """The Key room is 'used only for Cooperation mode' (000); 'Uniquement en mode coopération
    & Solo' (002) - setting `key_room_in_solo`."""
    mode = state.ruleset.mode
    return mode == "cooperation" or (mode == "solo" and state.ruleset.settings.key_room_in_solo)


def key_missing(state: GameState) -> bool:
    """'You cannot escape with the Room 25 if the Key room has not been activated' (000,
    Cooperation). Only a complex that holds a Key room can ask for it."""
    return key_in_play(state) and not state.key_activated and bool(state.composition.get("key"))


def _sides_seats(state: GameState, side: str) -> list[str]:
    return _seats_of(state, teams(state)[side])


def _side_kind(state: GameState) -> str:
    """What a side is called: a team in Team mode, a player (a seat) in Competition."""
    return "team" if state.ruleset.mode == "team" else "player"


def death_outcome(state: GameState) -> dict | None:
    """An outcome that eliminations alone decide, checked after every elimination."""
    mode = state.ruleset.mode
    dead = [c for c in state.characters.values() if not c.alive]
    if mode == "suspicion":
        prisoners_dead = [c for c in dead if c.role == "prisoner"]
        if len(prisoners_dead) >= 2:
            guards = [c.id for c in state.characters.values() if c.role == "guard"]
            return _outcome("guards", _seats_of(state, guards), "two_prisoners_eliminated")
        return None
    if mode == "solo" and dead:
        return _outcome("defeat", [], "a_prisoner_eliminated")
    if mode == "cooperation":
        allowed = 1 if state.ruleset.settings.cooperation_partial_victory else 0
        if len(dead) > allowed:
            return _outcome("defeat", [], "too_many_eliminated")
        return None
    if mode in ("competition", "team"):
        alive_sides = [
            side
            for side, members in teams(state).items()
            if any(state.characters[c].alive for c in members)
        ]
        if len(alive_sides) == 1:
            side = alive_sides[0]
            kind = _side_kind(state)
            return _outcome(mode, _sides_seats(state, side), f"{kind}_last_alive", **{kind: side})
        if not alive_sides:
            return _outcome("defeat", [], "everyone_eliminated")
    return None


def countdown_outcome(state: GameState, in_room25: set[str]) -> dict:
    """The end of the last turn without an escape."""
    mode = state.ruleset.mode
    if mode == "suspicion":
        guards = [c.id for c in state.characters.values() if c.role == "guard"]
        if not guards:
            return _outcome("defeat", [], "countdown_no_guard")
        return _outcome("guards", _seats_of(state, guards), "countdown")
    if mode == "team":
        counts = {
            side: sum(1 for c in members if c in in_room25)
            for side, members in teams(state).items()
        }
        best = max(counts.values())
        leaders = [side for side, n in counts.items() if n == best]
        if best > 0 and len(leaders) == 1:
            return _outcome(
                "team",
                _sides_seats(state, leaders[0]),
                "countdown_team_ahead",
                team=leaders[0],
            )
        return _outcome("draw", [], "countdown_teams_level")
    return _outcome("defeat", [], "countdown")


def reveal_after_death(ctx: Context) -> None:
    """Suspicion, 'A character death': reveal the dead in order only as far as needed to tell
    whether two prisoners are dead (the base text's two steps, carried on for later deaths)."""
    state = ctx.state
    if state.ruleset.mode != "suspicion":
        return
    revealed_prisoners = 0
    hidden = []
    for cid in state.deaths:
        c = state.characters[cid]
        if c.role_public:
            revealed_prisoners += c.role == "prisoner"
        else:
            hidden.append(c)
    while hidden and revealed_prisoners + len(hidden) >= 2:
        c = hidden.pop(0)
        revealed_prisoners += c.role == "prisoner"
        ctx.emit({"type": "role_revealed", "character": c.id, "role": c.role, "reason": "death"})


def guards_played_with(state: GameState) -> int:
    """The number of guards the table knows it plays with, for 'When playing with a single
    guard ... with two guards' (000, Take off the masks): a public fact, never the deal itself.
    With one tile per player (`role_tiles: exact`, and Season 2 from 5 players) the guard tiles
    put in are the guards dealt. With the base game's spare tile ("doubt": 4 prisoner tiles and
    1 guard tile at 4 players, 2 at 5 and 6; Season 2 keeps it at 4 players) no one knows
    whether the spare was a guard: the table plays with the guard tiles it shuffled in, so
    whether masks come off never tells how many guards were dealt."""
    tiles, players = state.ruleset.settings.role_tiles, len(state.seats)
    if tiles == "doubt" or (tiles == "season2" and players == 4):
        return 1 if players == 4 else 2
    return sum(1 for c in state.characters.values() if c.role == "guard")


def take_off_masks(ctx: Context, in_room25: set[str]) -> None:
    """Suspicion, 'Take off the masks': those outside Room 25 reveal who they are."""
    state = ctx.state
    if state.ruleset.mode != "suspicion" or not in_room25:
        return
    living = state.living()
    outside = [c for c in living if c.id not in in_room25]
    if state.ruleset.settings.masks == "majority":
        due = len(living) - len(outside) > len(living) / 2
    else:
        due = 0 < len(outside) <= max(guards_played_with(state), 1)
    if due:
        for c in outside:
            if not c.role_public:
                ctx.emit(
                    {"type": "role_revealed", "character": c.id, "role": c.role, "reason": "masks"}
                )
