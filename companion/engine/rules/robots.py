"""Robots and the Robot room (000_f9f1d5a43eaf8620.txt, NEW ROOMS, robot room and ROBOTS;
002_e232164e7c8dd598.txt, LES ROBOTS and SALLE ROBOT).

A robot is a figure standing on a room tile: `GameState.robots` holds the tile under each, so a
robot rides with its room when a line slides or rooms are swapped, as the characters do. Robots
are public. They only move or push, on an order given by the player whose character entered a
Robot room; they never apply a room's effect, except the few rooms that act on them: every red
room destroys a robot, and `ROBOT_EFFECTS` holds what else a room does when a robot enters.
The Robot room's order and Alice's refusal of a push are choices (choices.py).
Destroyed robots go back to the supply and may come back into play.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..kernel import grid
from ..kernel.catalogue import colour
from ..kernel.context import Context
from ..kernel.grid import Cell
from ..kernel.registry import Filing, Table
from ..kernel.state import GameState, TileId
from . import actions, board, choices, pivoting, rooms, shredder, talents

RobotEffect = Callable[[Context, TileId, bool], None]  # (ctx, tile entered, revealed by the robot)
# What a room does when a robot enters it, besides a red room destroying it; any other room
# does nothing to a robot ("A robot never applies the effect of a room").
ROBOT_EFFECTS: Table[RobotEffect] = Table("room kind")


robot_effect: Filing[RobotEffect] = ROBOT_EFFECTS.register


def robot_cells(state: GameState) -> list[Cell]:
    """The cells holding at least one robot."""
    return sorted({state.cell_of(tile) for tile in state.robots})


def exits(state: GameState, cell: Cell) -> Mapping[str, Cell]:
    """The rooms a robot may move or push into from a cell, by direction. The Pivoting room's
    corridor restricts them (000: "Robots are also affected by the Pivoting room"; 002: "Seule
    la salle Pivot contraint ses actions à deux directions maximum")."""
    return pivoting.exits(state, cell, "move")


def orders(state: GameState) -> list[dict]:
    """Every order a robot of the complex can carry out now (000 ROBOTS, user manual: "A robot
    can only move or push"). Move: to an adjacent room, never one with a "Do Not Cross" marker
    ("It can enter a locked room but not in an inaccessible space"). Push: a character of its
    room who is not hidden, into an adjacent room he may enter (a locked one only for Emmett),
    never from a blue room ("This order is not possible if the robot is in a blue room")."""
    found: list[dict] = []
    for cell in robot_cells(state):
        robot = grid.name(cell)
        steps = exits(state, cell)
        for direction, step in steps.items():
            if not state.tile_at(step).sealed:
                found.append({"robot": robot, "order": "move", "direction": direction})
        if colour(state.tile_at(cell).room) == "blue":
            continue
        for target in state.occupants(state.cells[cell]):
            if not actions.pushable(state, target, None):
                continue
            for direction, step in steps.items():
                if board.may_enter(state, step, target):
                    push = {"robot": robot, "order": "push", "target": target}
                    found.append({**push, "direction": direction})
    return found


@rooms.effect("robot")
def _robot_room(ctx: Context, cid: str, tile_id: TileId) -> None:
    """000 robot room: "Every time a character enters this room, perform the following two
    actions: Place a robot figure in this room (Warning! There can only be one robot for each
    revealed Robot room in the complex). Give an order to any robot already in the complex".
    002 SALLE ROBOT: "Placez un robot dans la salle quand elle est révélée. Dans l'ordre, quand
    vous y entrez : Placez un nouveau robot s'il n'y en a plus dans le Complexe ; Donnez l'ordre
    à un robot en jeu de se déplacer ou de pousser un personnage." """
    if _brings_a_robot(ctx, tile_id):
        ctx.emit({"type": "robot_placed", "tile": tile_id, "cell": ctx.state.cell_of(tile_id)})
    ask_order(ctx, cid, tile_id)


def _brings_a_robot(ctx: Context, tile_id: TileId) -> bool:
    """Never more robots than revealed Robot rooms (000; 002 LES ROBOTS: "jusqu'à deux
    simultanément dans le Complexe (un par salle Robot activée)"). Within that limit, setting
    `robots_per_room`: every entry places one (000), or the room brings its robot when it is
    revealed and a later entry only when no robot is left in the complex (002)."""
    state = ctx.state
    robot_rooms = sum(1 for t in state.tiles.values() if t.revealed and t.kind == "robot")
    if len(state.robots) >= robot_rooms:
        return False
    if state.ruleset.settings.robots_per_room or not state.robots:
        return True
    return any(e["type"] == "room_revealed" and e["tile"] == tile_id for e in ctx.events)


def ask_order(ctx: Context, cid: str, tile_id: TileId) -> None:
    """The player of `cid` orders a robot of his choice, wherever it is ("regardless of its
    distance from this room"). Decision: the order is compulsory ("perform the following two
    actions"; 002 "Donnez l'ordre"); with no robot able to obey, nothing happens."""
    options = orders(ctx.state)
    if options:
        choices.ask(ctx, "robot", cid, options, tile_id)


@choices.answers("robot")
def _ordered(ctx: Context, pending: dict, order: dict) -> None:
    carry_out(ctx, pending["character"], order)


def carry_out(ctx: Context, cid: str, order: dict) -> None:
    """A robot obeys an order given by the player of `cid`."""
    state = ctx.state
    here = grid.parse_cell(order["robot"])
    step = grid.neighbour(here, order["direction"])
    assert step is not None
    ctx.emit({"type": "robot_ordered", "character": cid, **order})
    if order["order"] == "move":
        _move(ctx, state.cells[here], step)
    elif talents.may_refuse_robot_push(state, order["target"]):
        choices.ask(ctx, "android", order["target"], ANDROID, state.cells[step])
    else:
        # 000 ROBOTS, Push order: "The robot pushes a character into an adjacent room"; like any
        # pushed character he applies that room's effect.
        rooms.enter(ctx, order["target"], state.cells[step], how="robot")


ANDROID = ["pushed", "stays"]


@choices.answers("android")
def _android(ctx: Context, pending: dict, answer: str) -> None:
    """Alice's player says whether the robot's push goes ahead (talents.may_refuse_robot_push);
    pushed into a hidden physical tile, the answer names the room."""
    if answer == "pushed":
        rooms.enter(ctx, pending["character"], pending["tile"], how="robot")


def _move(ctx: Context, tile_id: TileId, cell: Cell) -> None:
    """000 ROBOTS, Move order: "The player moves the robot to a room adjacent to its current
    room. If the room is hidden, reveal it immediately." "A robot never applies the effect of a
    room (including Robot, Regeneration, Timer and Key rooms)." "A robot entering a red room is
    immediately destroyed." """
    state = ctx.state
    tile = state.tile_at(cell)
    kind = tile.kind if tile.revealed else board.identify(ctx, tile.id)
    assert kind is not None
    origin = state.cell_of(tile_id)
    ctx.emit({"type": "robot_moved", "tile": tile_id, "to": tile.id, "cell": cell})
    if kind == "pivoting":
        # The corridor lines up with the room the robot came from, as for a character.
        pivoting.turn_towards(ctx, tile.id, origin)
    if not tile.revealed:
        ctx.emit({"type": "room_revealed", "tile": tile.id, "room": kind, "cell": cell})
    if colour(kind) == "red":
        ctx.emit({"type": "robot_destroyed", "tile": tile.id, "cause": kind})
    effect = ROBOT_EFFECTS.get(kind)
    if effect is not None:
        effect(ctx, tile.id, not tile.revealed)


@robot_effect("shredder")
def _shredder(ctx: Context, tile_id: TileId, revealed: bool) -> None:
    """000 ROBOTS: "If a robot enters a Shredder Room or Acid Bath, all occupants including the
    robot are eliminated. A robot that reveals the Shredder room [...] also makes the room
    immediately unaccessible." """
    shredder.shred(ctx, tile_id)


@robot_effect("acid")
def _acid(ctx: Context, tile_id: TileId, revealed: bool) -> None:
    """000 ROBOTS: "If a robot enters a Shredder Room or Acid Bath, all occupants including the
    robot are eliminated." The bath stays accessible."""
    board.eliminate_all(ctx, ctx.state.occupants(tile_id), "acid")


@robot_effect("flooded")
def _flooded(ctx: Context, tile_id: TileId, revealed: bool) -> None:
    """000 ROBOTS: "A robot that reveals [...] the Flooded chamber also makes the room
    immediately unaccessible", as the chamber locks itself "Once revealed" (setting
    `flooded_seals`: "on_reveal"; with "on_enter" only a character entering locks it)."""
    state = ctx.state
    if revealed and state.ruleset.settings.flooded_seals == "on_reveal":
        ctx.emit({"type": "sealed", "tile": tile_id})
