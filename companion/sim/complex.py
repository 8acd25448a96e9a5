"""The complex as a heuristic player pictures it: cells, neighbours, lines and the ways through.

Taken once from the engine's `grid` (public), with what the planner asks of it thousands of times
a game worked out at import: exit distances, edges, quarters, Manhattan distances."""

from __future__ import annotations

import functools
from typing import Final

from companion.engine import grid

SIZE: Final = grid.SIZE
CENTRE: Final = grid.CENTRE
NAMES: Final = grid.NAMES
INDEX: Final = {name: c for c, name in enumerate(NAMES)}
ADJ: Final = grid.ADJACENT
NEIGHBOURS: Final = tuple(tuple(a.values()) for a in ADJ)


EDGE: Final = tuple(row in (0, 4) or col in (0, 4) for row, col in map(grid.row_col, grid.CELLS))


def _exit_distances() -> tuple[int, ...]:
    """Slides needed to bring a room at each cell into an exit zone (the Central room: never)."""
    dist = [99] * (SIZE * SIZE)
    queue: list[int] = list(grid.EXIT_ZONES)
    for c in queue:
        dist[c] = 0
    for c in queue:
        row, col = divmod(c, SIZE)
        for direction, n in ADJ[c].items():
            along_row = direction in ("east", "west")
            if (along_row and row == 2) or (not along_row and col == 2) or n == CENTRE:
                continue
            if dist[n] > dist[c] + 1:
                dist[n] = dist[c] + 1
                queue.append(n)
    return tuple(dist)


EXIT_DIST: Final = _exit_distances()


LINES: Final = {
    (axis, index): tuple(int(c) for c in grid.line_cells(axis, index))
    for axis in ("row", "col")
    for index in range(SIZE)
}


def line_cells(axis: str, index: int) -> tuple[int, ...]:
    """The cells of a row or a column, in order."""
    return LINES[axis, index]


def slide_of(cell: int, direction: str) -> tuple[str, int]:
    """The line a Control played from this cell moves in this direction."""
    row, col = divmod(cell, SIZE)
    return ("row", row) if direction in ("east", "west") else ("col", col)


def slid(tiles: tuple[int, ...], axis: str, index: int, direction: str) -> tuple[int, ...]:
    return tuple(grid.slide(tiles, axis, index, direction))


SECTOR: Final = tuple(
    0 if r < 2 and c >= 2 else 1 if r >= 2 and c > 2 else 2 if r > 2 and c <= 2 else 3
    for r, c in (divmod(cell, SIZE) for cell in range(SIZE * SIZE))
)


MANHATTAN: Final = tuple(
    tuple(abs(a // SIZE - b // SIZE) + abs(a % SIZE - b % SIZE) for b in range(SIZE * SIZE))
    for a in range(SIZE * SIZE)
)


@functools.cache
def sharing(allies: int) -> tuple[tuple[tuple[float, ...], ...], ...]:
    """For each of so many allies sharing the exploring, standing at each cell, what a room at
    each cell is to him (`Knowledge._share`): its distance, 0.6 more outside his quarter of the
    complex, and a hundredth for each ally before him, so that ties go in their order. The same
    few tables every decision."""
    return tuple(
        tuple(
            tuple(
                MANHATTAN[at][c] + (0.0 if SECTOR[c] % allies == i else 0.6) + i * 0.01
                for c in range(SIZE * SIZE)
            )
            for at in range(SIZE * SIZE)
        )
        for i in range(allies)
    )


INF: Final = 1e9


def dijkstra(sources: dict[int, float], tiles: tuple[int, ...], cost: list[float]) -> list[float]:
    """Cost to reach a source from every cell, paying each room's cost (`cost`, by tile number)
    on entering it. On 25 cells a queue of the cells whose cost fell (each relaxed again until
    nothing improves) is quicker than a heap, and finds the same sums: every path is added up
    from its source. A cell is queued each time its cost falls: a later visit of a cell already
    relaxed at its cost lowers nothing, and costs less than flags of the cells queued."""
    dist = [INF] * 25
    step = [cost[t] for t in tiles]
    step[CENTRE] = 1.0
    for c, d in sources.items():
        dist[c] = d
    queue = list(sources)
    for u in queue:  # a list walked while it grows: each cell queued is reached in turn
        paid = step[u]
        if paid >= INF:
            continue
        nd = dist[u] + paid
        for v in NEIGHBOURS[u]:
            if nd < dist[v]:
                dist[v] = nd
                queue.append(v)
    return dist
