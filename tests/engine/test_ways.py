"""The ways an action can be completed, asked for one direction (a command's own, which `play`
checks before listing the others) and for a Control from the grid's table of slides: both must
be what the whole list says."""

from __future__ import annotations

import random
from collections.abc import Iterator

from companion.engine import GameState, apply, legal_commands, start
from companion.engine.kernel import grid
from companion.engine.kernel.state import ACTIONS
from companion.engine.rules import actions, board

SETUPS = [
    {"edition": "base", "mode": "suspicion", "players": 6},
    {"edition": "season2", "mode": "cooperation", "players": 4},
    {"edition": "ultimate", "mode": "competition", "players": 4},
    {"edition": "season2", "mode": "solo", "players": 1},
]


def _positions(games: int) -> Iterator[GameState]:
    """The positions of random legal games."""
    for number in range(games):
        setup = SETUPS[number % len(SETUPS)]
        rng = random.Random(number)
        state = start({**setup, "seed": number}).state
        while state.outcome is None:
            yield state
            options = [c for seat in state.seats for c in legal_commands(state, seat)]
            state = apply(state, rng.choice(options)).state


def test_the_ways_towards_a_direction_are_those_of_the_whole_list() -> None:
    asked = found = 0
    for state in _positions(12):
        for c in state.living():
            if c.tile is None:
                continue
            for action in ACTIONS:
                every = actions.options(state, c.id, action)
                for towards in (*grid.DIRECTIONS, "upwards"):
                    one = actions.options(state, c.id, action, towards)
                    assert one == [w for w in every if w["direction"] == towards], (action, towards)
                    asked += 1
                    found += bool(one)
    assert asked > 5000 and 0 < found < asked


def test_a_control_slides_the_lines_through_its_cell_the_way_they_may_go() -> None:
    """A line already moved this turn moves only the same way again (001, Control)."""
    state = start({"mode": "suspicion", "players": 5, "seed": 1}).state
    rng = random.Random(5)
    for _ in range(40):
        moved = rng.sample(sorted(grid.LINE_KEYS.values()), 3)
        state.controls = {key: rng.choice(grid.DIRECTIONS) for key in moved}
        for cell in grid.CELLS:
            expected = [
                (axis, index, direction)
                for axis, index in grid.lines_through(cell)
                for direction in grid.AXIS_DIRECTIONS[axis]
                if state.controls.get(grid.line_key(axis, index)) in (None, direction)
            ]
            assert board.line_moves(state, cell) == expected
        every = [
            (axis, index, direction)
            for axis in ("row", "col")
            for index in grid.MOVABLE
            for direction in grid.AXIS_DIRECTIONS[axis]
            if state.controls.get(grid.line_key(axis, index)) in (None, direction)
        ]
        assert board.line_moves(state) == every
