"""What a seat may do now, as ready-made commands (the engine's `legal_moves`)."""

from __future__ import annotations

from itertools import permutations

from . import actions, board, flow, grid, talents
from .state import HOST, TALENT, GameState


def _with_room(state: GameState, command: dict, cell: int | None) -> list[dict]:
    """A command that shows a physical tile nobody has reported yet must name the room on it."""
    if cell is None:
        return [command]
    if state.ruleset.tracking != "physical" or state.tile_at(cell).revealed:
        return [command]
    return [{**command, "room": kind} for kind in board.reportable(state)]


def _action_commands(state: GameState, seat: str, cid: str, action: str) -> list[dict]:
    here = state.where(cid)
    assert here is not None
    found = []
    for option in actions.options(state, cid, action):
        command = {"type": "act", "seat": seat, "character": cid, "action": action, **option}
        shown = None
        if action in ("look", "move", "push"):
            shown = grid.neighbour(here, option["direction"])
            if action == "look" and state.tile_at(shown).revealed:
                shown = None
        elif action == TALENT:
            shown = talents.shown_cell(state, cid, option)
        found.extend(_with_room(state, command, shown))
    return found


def legal_commands(state: GameState, seat: str) -> list[dict]:
    """Every command this seat may send now (reports aside, which only the table knows)."""
    if state.outcome is not None:
        return []
    if state.pending is not None:
        return _choices(state, seat)
    if state.phase == "clue":
        if seat not in state.seats or state.seats[seat].clue is not None:
            return []
        found = []
        for cell in grid.neighbours(grid.CENTRE).values():
            found.extend(
                _with_room(state, {"type": "clue", "seat": seat, "cell": grid.name(cell)}, cell)
            )
        return found
    if state.phase == "programming":
        return _programming(state, seat)
    if state.phase == "action" and state.current is not None:
        return _turn(state, seat)
    return []


def _programming(state: GameState, seat: str) -> list[dict]:
    found = []
    for c in state.living():
        if c.seat != seat or c.locked:
            continue
        base = {"type": "program", "seat": seat, "character": c.id}
        if flow.programs_adrenaline_only(state, c):
            found.extend([base, {**base, "adrenaline": True}])
            continue
        if not flow.programs(state, c):
            continue
        boosts = [False]
        if state.ruleset.settings.adrenaline and c.adrenaline and not _in_cold(state, c.id):
            boosts.append(True)
        for boost in boosts:
            head = {**base, "adrenaline": True} if boost else base
            if not state.tracked:
                found.append(head)
                continue
            held = flow.tokens(state, c)
            for n in range(1, c.limit + 1):
                for tokens in permutations(held, n):
                    found.extend(_with_choice(state, {**head, "actions": list(tokens)}, c.id))
    return found


def _with_choice(state: GameState, command: dict, cid: str) -> list[dict]:
    """Kevin in Ultimate names his ability when he programs his talent token."""
    choices = talents.programming_choices(state, cid) if TALENT in command["actions"] else ()
    return [{**command, "talent_choice": c} for c in choices] or [command]


def _in_cold(state: GameState, cid: str) -> bool:
    cell = state.where(cid) if state.tracked else None
    cold = cell is not None and state.tile_at(cell).revealed and state.tile_at(cell).kind == "cold"
    return cold and state.ruleset.settings.cold_forbids_adrenaline


def _turn(state: GameState, seat: str) -> list[dict]:
    c = state.characters[state.current]
    if not state.tracked:
        return [{"type": "next", "seat": seat}] if seat in (HOST, c.seat) else []
    if c.seat != seat:
        return _reminders(state, seat)
    found: list[dict] = []
    if not flow.chooses(state, c):
        token = flow.due_token(c)
        assert token is not None
        plays = _action_commands(state, seat, c.id, token)
        if c.flexible and state.round == 1:
            # Playing it now when it cannot be completed loses it; waiting keeps it.
            plays = plays or [{"type": "act", "seat": seat, "character": c.id, "action": token}]
            plays.append({"type": "wait", "seat": seat, "character": c.id})
        found.extend(plays)
    else:
        for action in flow.free_actions(state, c):
            found.extend(_action_commands(state, seat, c.id, action))
        if flow.may_pass(state, c):
            found.append({"type": "pass", "seat": seat, "character": c.id})
    if (
        state.ruleset.mode == "suspicion"
        and c.role == "guard"
        and c.exposed_turn is None
        and (state.ruleset.settings.guard_exposure == "any_time" or state.alarm)
    ):
        found.append({"type": "expose", "seat": seat, "character": c.id})
    return found + _reminders(state, seat)


def _reminders(state: GameState, seat: str) -> list[dict]:
    """A reminder token, during the player's own turn: right before or after his action."""
    holders = [state.current, state.previous]
    jammed_solo = state.mac is not None and state.mac.jammed and state.ruleset.mode == "solo"
    if (
        not state.ruleset.settings.reminder_tokens
        or jammed_solo
        or seat not in state.seats
        or len(state.seats[seat].reminders) >= len(state.seats[seat].characters)
        or not any(cid and state.characters[cid].seat == seat for cid in holders)
    ):
        return []
    mine = state.seats[seat].reminders
    return [
        {"type": "reminder", "seat": seat, "cell": grid.name(cell)}
        for cell in grid.CELLS
        if not state.tile_at(cell).revealed and state.cells[cell] not in mine
    ]


def _choices(state: GameState, seat: str) -> list[dict]:
    pending = state.pending
    assert pending is not None
    if pending["seat"] not in (HOST, seat):
        return []
    base = {"type": "choose", "seat": seat}
    if pending["kind"] == "android":
        pushed = _with_room(state, {**base, "answer": "pushed"}, state.cell_of(pending["tile"]))
        return [*pushed, {**base, "answer": "stays"}]
    if "field" in pending:
        return [{**base, pending["field"]: option} for option in pending["options"]]
    if pending["kind"] == "robot":
        return _robot_orders(state, base, pending["options"])
    if pending["kind"] == "control":
        found = []
        for option in pending["options"]:
            line, direction = option.split()
            found.append({**base, "line": line, "direction": direction})
        return found
    shows = pending["kind"] in ("vision", "illusion")
    found = []
    for name in pending["options"]:
        command = {**base, "cell": name}
        found.extend(_with_room(state, command, grid.parse_cell(name)) if shows else [command])
    return found


def _robot_orders(state: GameState, base: dict, options: list[dict]) -> list[dict]:
    """A robot order that shows a physical tile (the robot's room, the pushed character's)
    names the room on it."""
    found = []
    for order in options:
        step = grid.neighbour(grid.parse_cell(order["robot"]), order["direction"])
        found.extend(_with_room(state, {**base, **order}, step))
    return found
