"""What a seat may do now, as ready-made commands (the engine's `legal_moves`)."""

from __future__ import annotations

from functools import cache
from itertools import permutations

from ..kernel import grid
from ..kernel.context import Refused
from ..kernel.state import HOST, TALENT, Character, GameState
from ..rules import actions, board, flow, talents


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
    physical = state.ruleset.tracking == "physical"  # else every tile is known to the engine
    for option in actions.options(state, cid, action):
        command = {"type": "act", "seat": seat, "character": cid, "action": action, **option}
        if not physical:
            found.append(command)
            continue
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
    """Every command this seat may send now (reports aside, which only the table knows), in
    its plain form: any of them may also carry the `version` it was made against, and a
    `program` may carry `"lock_in": false` to lock in later with `lock`."""
    if seat != HOST and seat not in state.seats:
        raise Refused("unknown_seat", seat=str(seat)[:20])
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
    if seat == HOST:
        return []
    characters = [state.characters[cid] for cid in state.seats[seat].characters]
    mine = [c for c in characters if c.alive and flow.must_lock_in(state, c)]
    waiting = [c for c in mine if not c.locked]
    found = [] if flow.by_tokens(state) else _programmes(state, seat, waiting)
    if waiting and (flow.by_tokens(state) or all(flow.programmed(state, c) for c in waiting)):
        found.append({"type": "lock", "seat": seat})
    if len(waiting) < len(mine):
        found.append({"type": "unlock", "seat": seat})
    return found


def _programmes(state: GameState, seat: str, waiting: list[Character]) -> list[dict]:
    found: list[dict] = []
    for c in waiting:
        base = {"type": "program", "seat": seat, "character": c.id}
        boosts = [False, True] if flow.may_program_adrenaline(state, c) else [False]
        if flow.programs_adrenaline_only(state, c) or not state.tracked:
            found.extend({**base, "adrenaline": True} if b else base for b in boosts)
            continue
        held = tuple(flow.tokens(state, c))
        # Kevin in Ultimate names his ability when he programs his talent token.
        choices = talents.programming_choices(state, c.id) if TALENT in held else ()
        for boost in boosts:
            head = {**base, "adrenaline": True} if boost else base
            for tokens in _orders(held, c.limit):
                command = {**head, "actions": list(tokens)}
                if choices and TALENT in tokens:
                    found.extend({**command, "talent_choice": choice} for choice in choices)
                else:
                    found.append(command)
    return found


@cache
def _orders(held: tuple[str, ...], limit: int) -> tuple[tuple[str, ...], ...]:
    """Every programme of these tokens: one token, or two different ones in order. Few token
    sets occur, so each is worked out once."""
    return tuple(tokens for n in range(1, limit + 1) for tokens in permutations(held, n))


def _turn(state: GameState, seat: str) -> list[dict]:
    c = state.characters[state.current]
    if not state.tracked:
        if seat not in (HOST, c.seat):
            return []
        told = [{"type": "next", "seat": seat}]
        if seat == c.seat and flow.may_pass(state, c):
            told.append({"type": "pass", "seat": seat, "character": c.id})
        return told
    if c.seat != seat:
        return _reminders(state, seat)
    found: list[dict] = []
    if not flow.chooses(state, c):
        token = flow.due_token(c)
        assert token is not None
        plays = _action_commands(state, seat, c.id, token)
        if c.single_action and state.round == 1:
            # Playing it now when it cannot be completed loses it; waiting keeps it.
            plays = plays or [{"type": "act", "seat": seat, "character": c.id, "action": token}]
            plays.append({"type": "wait", "seat": seat, "character": c.id})
        found.extend(plays)
    else:
        for action in flow.free_actions(state, c):
            plays = _action_commands(state, seat, c.id, action)
            if not plays and flow.reveals_tokens(state, c):
                # A token turned over that cannot be completed is played, and lost.
                plays = [{"type": "act", "seat": seat, "character": c.id, "action": action}]
            found.extend(plays)
        if flow.may_pass(state, c):
            found.append({"type": "pass", "seat": seat, "character": c.id})
    if (
        state.ruleset.mode == "suspicion"
        and c.role == "guard"
        and c.exposed_turn is None
        and flow.may_expose_now(state)
    ):
        found.append({"type": "expose", "seat": seat, "character": c.id})
    return found + _reminders(state, seat)


def _reminders(state: GameState, seat: str) -> list[dict]:
    """A reminder token, during the player's own turn: right before or after his action."""
    if (
        not state.ruleset.settings.reminder_tokens
        or flow.jammed_solo(state)
        or seat not in state.seats
        or len(state.seats[seat].reminders) >= len(state.seats[seat].characters)
        or not flow.reminder_turn(state, seat)
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
        field = pending["field"]
        return [
            {**base, field: option.split() if field == "cells" else option}
            for option in pending["options"]
        ]
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
