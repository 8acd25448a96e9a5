"""The four actions (001_30b8f356e0d93ba4.txt, Action descriptions): Look, Move, Push, Control.

`options` lists the ways an action can be completed now; an action with none is lost
(001, GAME CYCLE, 2. Action: "If one action cannot be completed, the action is lost").
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from ..kernel import grid
from ..kernel.context import Context, Refused, cell_named
from ..kernel.grid import Cell
from ..kernel.state import ACTIONS, TALENT, GameState
from . import board, pivoting, rooms, talents

if TYPE_CHECKING:
    from ..face.commands import Act


def options(state: GameState, cid: str, action: str, towards: str | None = None) -> list[dict]:
    """Every parameter set that completes the action for this character now; with `towards`,
    only those in that direction: a command's own way, checked without listing the others."""
    return list(ways(state, cid, action, towards))


def completable(state: GameState, cid: str, action: str) -> bool:
    """Whether the action has a way to be completed now: `ways` stops at the first it finds."""
    return next(ways(state, cid, action), None) is not None


def ways(state: GameState, cid: str, action: str, towards: str | None = None) -> Iterator[dict]:
    """The ways of `options` one at a time, so that a slot asking whether its token can be
    completed stops at the first: each action's rule is stated here once, for both."""
    if action == TALENT:
        yield from talents.options(state, cid)
        return
    here = state.here(cid)
    # Each action asks only what it needs: a Control neither the room nor its ways out.
    if action == "control":
        for _, _, d in board.line_moves(state, here):
            if towards is None or d == towards:
                yield {"direction": d}
        return
    if action == "push" and here == grid.CENTRE:
        return
    steps = pivoting.exits(state, here, action)
    if towards is not None:
        steps = {towards: steps[towards]} if towards in steps else {}
    if action == "push":
        tile = state.cells[here]
        for t in state.occupants(tile):
            if t != cid and pushable(state, t, cid):
                for d, cell in steps.items():
                    if board.may_enter(state, cell, t):
                        yield {"target": t, "direction": d}
        return
    room = board.kind_at(state, here)
    if action == "look":
        if room != "dark":
            for d in steps:
                yield {"direction": d}
        return
    if action == "move":
        for d, cell in steps.items():
            if board.may_enter(state, cell, cid) and (room != "prison" or prison_exit(state, cell)):
                yield {"direction": d}
        return
    raise ValueError(action)


def pushable(state: GameState, target: str, by: str | None) -> bool:
    """000, ALICE: "A hidden character cannot be pushed, carried, or called." BRUCE: mimicking
    her, "He remains visible to Alice, who can push him." `by` None: a robot pushes."""
    return not state.characters[target].hidden or (by == "alice" and target == "bruce")


def prison_exit(state: GameState, cell: Cell) -> bool:
    """Prison cell: leave only onto an adjacent occupied room or the adjacent Central room;
    a robot counts as an occupant (002 SALLE PRISON: "une salle adjacente occupée par un autre
    joueur ou un robot"; 000 ROBOTS: "the imprisoned character can move to it")."""
    tile = state.cells[cell]
    return cell == grid.CENTRE or bool(state.occupants(tile)) or state.robots_in(tile) > 0


def _direction(here: Cell, command: Act) -> str:
    if command.cell is not None and command.direction is None:
        target = cell_named(command.cell)
        direction = grid.direction_to(here, target)
        if direction is None:
            raise Refused("not_next_to", cell=grid.name(target), here=grid.name(here))
        return direction
    direction = command.direction
    if direction not in grid.DIRECTIONS:
        raise Refused("say_where")
    return direction


def resolve(ctx: Context, cid: str, action: str, command: Act, legal: list[dict]) -> None:
    """Carry out an action with the player's parameters, refusing any the rules forbid;
    `legal` is the action's `options` now: those in the command's direction, or all of them."""
    state = ctx.state
    if action == TALENT:
        talents.play(ctx, cid, command.parameters())
        return
    if action not in ACTIONS:
        raise Refused("not_an_action", action=str(action)[:20])
    here = state.here(cid)
    wanted: dict = {"direction": _direction(here, command)}  # compared with `legal`
    if action == "push":
        wanted["target"] = command.target
    if wanted not in legal:
        raise _why_not(state, cid, action, wanted)
    destination = grid.neighbour(here, wanted["direction"])
    ctx.record({"type": "action_played", "character": cid, "action": action, **wanted})
    if action == "look":
        assert destination is not None
        rooms.look_at(ctx, cid, destination)
    elif action == "move":
        assert destination is not None
        rooms.enter(ctx, cid, state.cells[destination], how="move")
    elif action == "push":
        assert destination is not None
        rooms.enter(ctx, wanted["target"], state.cells[destination], how="push")
    else:
        axis = "row" if wanted["direction"] in ("east", "west") else "col"
        row, col = grid.row_col(here)
        # M.A.C. Acceleration: 'any character that uses the Control action moves the line he
        # has selected twice in the chosen direction' this turn.
        times = 2 if state.mac is not None and state.mac.accelerated else 1
        for _ in range(times):
            if state.outcome is None:
                board.slide(ctx, axis, row if axis == "row" else col, wanted["direction"], True)


def _why_not(state: GameState, cid: str, action: str, wanted: dict) -> Refused:
    """Why an action is refused, from what the whole table can see."""
    here = state.here(cid)
    room = board.kind_at(state, here)
    destination = grid.neighbour(here, wanted["direction"])
    if action == "look" and room == "dark":
        return Refused("no_look_in_dark")
    if destination is None and action != "control":
        return Refused("no_room_that_way", direction=wanted["direction"], cell=grid.name(here))
    if action != "control" and wanted["direction"] not in pivoting.exits(state, here, action):
        corridor = state.tile_at(here).corridor
        assert corridor is not None, "only a Pivoting room's corridor closes a way out"
        return Refused("corridor_only_opens", directions=corridor.split("-"))
    if action == "push":
        if here == grid.CENTRE:
            return Refused("no_push_from_centre")
        target = wanted.get("target")
        if target not in state.occupants(state.cells[here]) or target == cid:
            return Refused("push_someone_in_your_room")
        if not pushable(state, target, cid):
            return Refused("hidden_cannot_be_pushed", character=target)
    if action == "control":
        axis = "row" if wanted["direction"] in ("east", "west") else "col"
        row, col = grid.row_col(here)
        if (row if axis == "row" else col) == grid.SIZE // 2:
            return Refused("centre_lines_fixed")
        return Refused("line_moved_other_way")
    mover = wanted.get("target", cid)
    if destination is not None and not board.may_enter(state, destination, mover):
        return board.inaccessible(state, destination)
    if room == "prison":
        return Refused("prison_exit")
    return Refused("not_possible_here")
