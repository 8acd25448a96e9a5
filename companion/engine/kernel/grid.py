"""The complex as a 5x5 grid of cells, its lines, exit zones and slides.

Cells are numbered 0..24 row by row, and named A1..E5 (column letter, row number) with A1 the
top-left corner as seen from the side of the table where the companion sits. Directions are
compass words (north is the top edge) so that scenario files read naturally.
"""

from __future__ import annotations

SIZE = 5
CENTRE = 12
CELLS = range(SIZE * SIZE)
DIRECTIONS = ("north", "south", "east", "west")
STEP = {"north": (-1, 0), "south": (1, 0), "east": (0, 1), "west": (0, -1)}
AXIS_DIRECTIONS = {"row": ("east", "west"), "col": ("north", "south")}
MOVABLE = (0, 1, 3, 4)


def cell(row: int, col: int) -> int:
    return row * SIZE + col


def row_col(c: int) -> tuple[int, int]:
    return divmod(c, SIZE)


def _name(c: int) -> str:
    row, col = row_col(c)
    return f"{'ABCDE'[col]}{row + 1}"


NAMES = tuple(_name(c) for c in CELLS)
NAMED = {n: c for c, n in enumerate(NAMES)} | {n.lower(): c for c, n in enumerate(NAMES)}


def name(c: int) -> str:
    """Spreadsheet-style name of a cell: columns A..E, rows 1..5 (A1 top-left, C3 the centre)."""
    return NAMES[c]


def parse_cell(value: object) -> int:
    """Accept a cell as 'C3', [row, col] or an index; raise ValueError with a plain reason."""
    if isinstance(value, str) and value in NAMED:
        return NAMED[value]
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a cell")
    if isinstance(value, int):
        if value in CELLS:
            return value
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


def _adjacent(c: int) -> dict[str, int]:
    row, col = row_col(c)
    found = {}
    for direction in DIRECTIONS:
        dr, dc = STEP[direction]
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE:
            found[direction] = cell(row + dr, col + dc)
    return found


ADJACENT = tuple(_adjacent(c) for c in CELLS)


def neighbour(c: int, direction: str) -> int | None:
    return ADJACENT[c].get(direction)


def neighbours(c: int) -> dict[str, int]:
    """Adjacent cells by direction: no diagonals, no wrapping round the edges."""
    return dict(ADJACENT[c])


def direction_to(a: int, b: int) -> str | None:
    for direction, n in neighbours(a).items():
        if n == b:
            return direction
    return None


def is_exit_zone(c: int) -> bool:
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


def line_cells(axis: str, index: int) -> list[int]:
    if axis == "row":
        return [cell(index, col) for col in range(SIZE)]
    return [cell(row, index) for row in range(SIZE)]


def _lines_through(c: int) -> tuple[tuple[str, int], ...]:
    row, col = row_col(c)
    found = []
    if row in MOVABLE:
        found.append(("row", row))
    if col in MOVABLE:
        found.append(("col", col))
    return tuple(found)


LINES_THROUGH = tuple(_lines_through(c) for c in CELLS)


def lines_through(c: int) -> tuple[tuple[str, int], ...]:
    """The movable lines containing a cell (none for the Central room's row and column)."""
    return LINES_THROUGH[c]


def leading_cell(axis: str, index: int, direction: str) -> int:
    """The cell whose tile leaves the line's end when it slides in this direction."""
    cells = line_cells(axis, index)
    return cells[-1] if direction in ("east", "south") else cells[0]


def slide(cells: list[int], axis: str, index: int, direction: str) -> list[int]:
    """Tiles after a slide: every tile moves one rank and the one pushed off re-enters opposite."""
    positions = line_cells(axis, index)
    tiles = [cells[c] for c in positions]
    tiles = tiles[-1:] + tiles[:-1] if direction in ("east", "south") else tiles[1:] + tiles[:1]
    result = list(cells)
    for c, tile in zip(positions, tiles, strict=True):
        result[c] = tile
    return result
