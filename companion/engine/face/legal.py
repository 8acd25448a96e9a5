"""What a seat may do now, as ready-made commands (the engine's `legal_moves`)."""

from __future__ import annotations

from functools import cache
from itertools import permutations

from ..kernel import grid
from ..kernel.context import Refused
from ..kernel.state import HOST, TALENT, Character, GameState
from ..rules import actions, board, choices, flow, talents
from .reading import shared


def _action_commands(state: GameState, seat: str, cid: str, action: str) -> list[dict]:
    ways = actions.options(state, cid, action)
    head = {"type": "act", "seat": seat, "character": cid, "action": action}
    if state.ruleset.tracking != "physical":  # every tile is known to the engine
        if action == TALENT:  # a talent's options may hold lists: made afresh
            return [{**head, **option} for option in ways]
        return [_act_offer(seat, cid, action, tuple(option.items())) for option in ways]
    here = state.here(cid)
    found = []
    for option in ways:
        command = {**head, **option}
        shown = None
        if action in ("look", "move", "push"):
            shown = grid.neighbour(here, option["direction"])
            if action == "look" and shown is not None and state.tile_at(shown).revealed:
                shown = None
        elif action == TALENT:
            shown = talents.shown_cell(state, cid, option)
        found.extend(board.with_room(state, command, shown))
    return found


@cache
def _act_offer(seat: str, cid: str, action: str, option: tuple[tuple[str, str], ...]) -> dict:
    """A basic action's command (a direction, and a target to push): the same few come back
    turn after turn, so each is built once, shared, and read once (`reading.shared`)."""
    return shared({"type": "act", "seat": seat, "character": cid, "action": action, **dict(option)})


@cache
def _told(kind: str, seat: str, cid: str | None = None) -> dict:
    """A command that names no more than its seat and character (lock, unlock, wait, pass,
    expose, next), built once and shared like the other offers."""
    if cid is None:
        return shared({"type": kind, "seat": seat})
    return shared({"type": kind, "seat": seat, "character": cid})


def legal_commands(state: GameState, seat: object) -> list[dict[str, object]]:
    """Every command this seat may send now (reports aside, which only the table knows), in
    its plain form: any of them may also carry the `version` it was made against, and a
    `program` may carry `"lock_in": false` to lock in later with `lock`. Like views, the
    commands are values that later calls may hand out again: copy one before changing it
    (`{**command, "version": v}`)."""
    if not isinstance(seat, str) or (seat != HOST and seat not in state.seats):
        # `object`: what a client sent; the compiled build would raise on a non-text seat.
        raise Refused("unknown_seat", seat=str(seat)[:20])
    if state.outcome is not None:
        return []
    if state.pending is not None:
        return choices.offers(state, seat)
    if state.phase == "clue":
        if seat not in state.seats or state.seats[seat].clue is not None:
            return []
        found = []
        for cell in grid.neighbours(grid.CENTRE).values():
            clue = {"type": "clue", "seat": seat, "cell": grid.name(cell)}
            found.extend(board.with_room(state, clue, cell))
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
        found.append(_told("lock", seat))
    if len(waiting) < len(mine):
        found.append(_told("unlock", seat))
    return found


def _programmes(state: GameState, seat: str, waiting: list[Character]) -> list[dict]:
    found: list[dict] = []
    for c in waiting:
        boost = flow.may_program_adrenaline(state, c)
        if flow.programs_adrenaline_only(state, c) or not state.tracked:
            found.extend(_offers(seat, c.id, boost))
            continue
        held = tuple(flow.tokens(state, c))
        # Kevin in Ultimate names his ability when he programs his talent token.
        abilities = talents.programming_choices(state, c.id) if TALENT in held else ()
        found.extend(_offers(seat, c.id, boost, held, c.limit, abilities))
    return found


@cache
def _offers(
    seat: str,
    cid: str,
    boost: bool,
    held: tuple[str, ...] | None = None,
    limit: int = 0,
    abilities: tuple[str, ...] = (),
) -> tuple[dict, ...]:
    """A character's programmes: one of the tokens he holds, or two different ones in order
    (none when he programs only his Adrenaline), each with the Adrenaline too when he may
    program it. The same few arguments come back turn after turn, so each list is built once
    and its commands are shared by every call (see `legal_commands`)."""
    base: dict = {"type": "program", "seat": seat, "character": cid}
    heads = [base, {**base, "adrenaline": True}] if boost else [base]
    if held is None:
        return tuple(shared(head) for head in heads)
    found: list[dict] = []
    for head in heads:
        for tokens in (t for n in range(1, limit + 1) for t in permutations(held, n)):
            command = {**head, "actions": list(tokens)}
            if abilities and TALENT in tokens:
                found.extend({**command, "talent_choice": a} for a in abilities)
            else:
                found.append(command)
    return tuple(shared(command) for command in found)


def _turn(state: GameState, seat: str) -> list[dict]:
    assert state.current is not None, "only while a character's action is due"
    c = state.characters[state.current]
    if not state.tracked:
        if seat not in (HOST, c.seat):
            return []
        told = [_told("next", seat)]
        if seat == c.seat and flow.may_pass(state, c):
            told.append(_told("pass", seat, c.id))
        return told + _exposure(state, seat, c)
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
            plays.append(_told("wait", seat, c.id))
        found.extend(plays)
    else:
        for action in flow.free_actions(state, c):
            plays = _action_commands(state, seat, c.id, action)
            if not plays and flow.reveals_tokens(state, c):
                # A token turned over that cannot be completed is played, and lost.
                plays = [{"type": "act", "seat": seat, "character": c.id, "action": action}]
            found.extend(plays)
        if flow.may_pass(state, c):
            found.append(_told("pass", seat, c.id))
    return found + _exposure(state, seat, c) + _reminders(state, seat)


def _exposure(state: GameState, seat: str, c: Character) -> list[dict]:
    """A guard may expose himself during his own turn, whatever the table tracks."""
    if (
        c.seat == seat
        and state.ruleset.mode == "suspicion"
        and c.role == "guard"
        and c.exposed_turn is None
        and flow.may_expose_now(state)
    ):
        return [_told("expose", seat, c.id)]
    return []


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
    mine, tiles, offers = state.seats[seat].reminders, state.tiles, _reminder_offers(seat)
    return [
        offers[cell]
        for cell, tile in enumerate(state.cells)
        if not tiles[tile].revealed and tile not in mine
    ]


@cache
def _reminder_offers(seat: str) -> tuple[dict, ...]:
    """A seat's reminder token on each cell: built once, shared by every call."""
    return tuple(
        shared({"type": "reminder", "seat": seat, "cell": grid.name(c)}) for c in grid.CELLS
    )
