"""The complex as a 5x5 grid of cells, its lines, exit zones and slides.

Cells are numbered 0..24 row by row, and named A1..E5 (column letter, row number) with A1 the
top-left corner as seen from the side of the table where the companion sits. Directions are
compass words (north is the top edge) so that scenario files read naturally.

A cell (`Cell`) is a place on the grid; the room tile standing there has its own id
(`state.TileId`) and moves when a line slides. Both are numbers, so they are distinct types: a
type checker refuses one where the other is meant. Outside the engine a cell is its name, "C3".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NewType, TypeVar

Cell = NewType("Cell", int)  # 0..24, row by row
_T = TypeVar("_T")  # whatever stands at each cell and slides with it

SIZE = 5
CENTRE = Cell(12)
CELLS = tuple(Cell(c) for c in range(SIZE * SIZE))
DIRECTIONS = ("north", "south", "east", "west")
STEP = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
AXIS_DIRECTIONS = {"row": ("east", "west"), "col": ("north", "south")}
MOVABLE = (0, 1, 3, 4)


def cell(row: int, col: int) -> Cell:
    return Cell(row * SIZE + col)


ROWS = tuple(CELLS[row * SIZE : (row + 1) * SIZE] for row in range(SIZE))  # top row first


def row_col(c: Cell) -> tuple[int, int]:
    return divmod(c, SIZE)


def _name(c: Cell) -> str:
    row, col = row_col(c)
    return f"{'ABCDE'[col]}{row + 1}"


NAMES = tuple(_name(c) for c in CELLS)
NAMED = dict(zip(NAMES, CELLS, strict=True)) | dict(
    zip((n.lower() for n in NAMES), CELLS, strict=True)
)


def name(c: Cell) -> str:
    """Spreadsheet-style name of a cell: columns A..E, rows 1..5 (A1 top-left, C3 the centre)."""
    return NAMES[c]


def parse_cell(value: object) -> Cell:
    """Accept a cell as 'C3', [row, col] or an index; raise ValueError with a plain reason."""
    if isinstance(value, str) and value in NAMED:
        return NAMED[value]
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a cell")
    if isinstance(value, int):
        if 0 <= value < len(CELLS):
            return Cell(value)
        raise ValueError(f"cell {value} is outside the complex (0..24)")
    if (
        isinstance(value, (list, tuple))
        and len(value) == 2
        and all(isinstance(v, int) for v in value)
    ):
        row, col = value
        if 0 <= row < SIZE and 0 <= col < SIZE:
            return cell(row, col)
    raise ValueError(f"{value!r} is not a cell: write it like 'C3' (column A-E, row 1-5)")


def _adjacent(c: Cell) -> dict[str, Cell]:
    row, col = row_col(c)
    found = {}
    for direction in DIRECTIONS:
        dr, dc = STEP[direction]
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE:
            found[direction] = cell(row + dr, col + dc)
    return found


ADJACENT = tuple(_adjacent(c) for c in CELLS)


def neighbour(c: Cell, direction: str) -> Cell | None:
    return ADJACENT[c].get(direction)


def neighbours(c: Cell) -> dict[str, Cell]:
    """Adjacent cells by direction: no diagonals, no wrapping round the edges."""
    return dict(ADJACENT[c])


def direction_to(a: Cell, b: Cell) -> str | None:
    for direction, n in ADJACENT[a].items():
        if n == b:
            return direction
    return None


def is_exit_zone(c: Cell) -> bool:
    """The 12 edge cells that end a movable line: three around each corner."""
    row, col = row_col(c)
    return (row in (0, 4) and col != 2) or (col in (0, 4) and row != 2)


EXIT_ZONES = tuple(c for c in CELLS if is_exit_zone(c))
INNER = tuple(c for c in CELLS if c != CENTRE and not is_exit_zone(c))


def _line_key(axis: str, index: int) -> str:
    return f"row{index + 1}" if axis == "row" else f"col{'ABCDE'[index]}"


LINE_KEYS = {
    (axis, index): _line_key(axis, index) for axis in ("row", "col") for index in range(SIZE)
}


def line_key(axis: str, index: int) -> str:
    """Lines are named like the cells they hold: rows row1..row5, columns colA..colE."""
    return LINE_KEYS[axis, index]


def parse_line(key: str) -> tuple[str, int]:
    if key.startswith("row") and key[3:] in ("1", "2", "3", "4", "5"):
        return "row", int(key[3:]) - 1
    if key.startswith("col") and len(key) == 4 and key[3] in "ABCDE":
        return "col", "ABCDE".index(key[3])
    raise ValueError(f"{key!r} is not a line: write row1..row5 or colA..colE")


# The cells of each line, top or left first, worked out once: every slide reads its line's end.
LINE_CELLS: dict[tuple[str, int], tuple[Cell, ...]] = {
    **{("row", index): ROWS[index] for index in range(SIZE)},
    **{("col", index): CELLS[index::SIZE] for index in range(SIZE)},
}


def line_cells(axis: str, index: int) -> list[Cell]:
    return list(LINE_CELLS[axis, index])


def _lines_through(c: Cell) -> tuple[tuple[str, int], ...]:
    row, col = row_col(c)
    found = []
    if row in MOVABLE:
        found.append(("row", row))
    if col in MOVABLE:
        found.append(("col", col))
    return tuple(found)


LINES_THROUGH = tuple(_lines_through(c) for c in CELLS)


def lines_through(c: Cell) -> tuple[tuple[str, int], ...]:
    """The movable lines containing a cell (none for the Central room's row and column)."""
    return LINES_THROUGH[c]


# Every slide of a movable line, (axis, index, direction, the line's key), and those of the
# lines through each cell: what a Control may ask, read from a table rather than built.
Slide = tuple[str, int, str, str]
LINE_SLIDES: tuple[Slide, ...] = tuple(
    (axis, index, direction, line_key(axis, index))
    for axis in ("row", "col")
    for index in MOVABLE
    for direction in AXIS_DIRECTIONS[axis]
)
SLIDES_THROUGH: tuple[tuple[Slide, ...], ...] = tuple(
    tuple(s for s in LINE_SLIDES if (s[0], s[1]) in LINES_THROUGH[c]) for c in CELLS
)


def leading_cell(axis: str, index: int, direction: str) -> Cell:
    """The cell whose tile leaves the line's end when it slides in this direction."""
    cells = LINE_CELLS[axis, index]
    return cells[-1] if direction in ("east", "south") else cells[0]


def slide(cells: Sequence[_T], axis: str, index: int, direction: str) -> list[_T]:
    """Tiles after a slide: every tile moves one rank and the one pushed off re-enters opposite."""
    return [cells[source] for source in SLIDES[axis, index, direction]]


def _sources(axis: str, index: int, direction: str) -> tuple[Cell, ...]:
    """For each cell after this slide, the cell whose tile comes to it."""
    positions = line_cells(axis, index)
    shift = -1 if direction in ("east", "south") else 1
    sources = list(CELLS)
    for k, c in enumerate(positions):
        sources[c] = positions[(k + shift) % SIZE]
    return tuple(sources)


def _destinations(sources: tuple[Cell, ...]) -> tuple[Cell, ...]:
    """For each cell before a slide, the cell its tile goes to (`sources` read the other way)."""
    found = list(CELLS)
    for c, source in enumerate(sources):
        found[source] = CELLS[c]
    return tuple(found)


# Every slide a game may ask for, worked out once: the planner tries thousands a game. For
# each cell, where its tile comes from (`SLIDES`) and where it goes (`SLID_TO`: a character
# standing there goes with it).
SLIDES = {
    (axis, index, direction): _sources(axis, index, direction)
    for axis in AXIS_DIRECTIONS
    for index in range(SIZE)
    for direction in DIRECTIONS
}
SLID_TO = {key: _destinations(sources) for key, sources in SLIDES.items()}
