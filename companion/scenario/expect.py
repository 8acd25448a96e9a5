"""Checking expectations against a game: each returns the list of what did not hold."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.engine import GameState, cell_name, full_view, parse_cell, public_view, seat_view
from companion.engine.face.shapes import CellView


def _at(cell: object) -> str:
    """A cell as the views name it ("C3"), however the scenario wrote it (the loader checked
    that it is one)."""
    return cell_name(parse_cell(cell))


def control_tokens(events: list[dict], placed: dict[str, int] | None = None) -> dict[str, int]:
    """The Control tokens lying beside each line now: one per slide that placed a token since
    the last countdown took them all away (003, "All Control tokens are removed"). The engine
    keeps one direction per line; the count comes from the events, and from `placed` (the
    position's `control_tokens`) for the tokens already out when the position was written."""
    tokens: dict[str, int] = {}
    for event in events:
        if event["type"] == "countdown":
            tokens = {}
        elif event["type"] == "position_set" and "controls" in event:
            tokens = {line: (placed or {}).get(line, 1) for line in event["controls"]}
        elif event["type"] == "slid" and event.get("token"):
            tokens[event["line"]] = tokens.get(event["line"], 0) + 1
    return tokens


def _subset(expected: object, actual: object, path: str) -> list[str]:
    """Every key and value given in `expected` must be in `actual` (lists compared whole)."""
    if isinstance(expected, dict) and isinstance(actual, dict):
        problems = []
        for key, value in expected.items():
            if key not in actual:
                problems.append(f"{path}.{key} is missing")
            else:
                problems.extend(_subset(value, actual[key], f"{path}.{key}"))
        return problems
    if expected != actual:
        return [f"{path} is {actual!r}, expected {expected!r}"]
    return []


@dataclass(frozen=True)
class _Seen:
    """What an expectation is checked against: the game's state, its full view, its cells by
    name, and (for the Control tokens) the game's events and the position's tokens."""

    state: GameState
    full: dict
    cells: dict[str, CellView]
    events: list[dict]
    placed: dict[str, int] | None


def _positions(seen: _Seen, value: dict) -> list[str]:
    problems = []
    for cid, cell in value.items():
        found = seen.full["characters"].get(cid)
        standing = found["cell"] if found else None
        if standing != (None if cell is None else _at(cell)):
            problems.append(f"{cid} is at {standing}, expected {cell}")
    return problems


def _eliminated(seen: _Seen, value: list) -> list[str]:
    dead = sorted(c for c, v in seen.full["characters"].items() if not v["alive"])
    return [] if dead == sorted(value) else [f"eliminated are {dead}, expected {sorted(value)}"]


def _revealed(seen: _Seen, value: dict) -> list[str]:
    problems = []
    for cell, room in value.items():
        entry = seen.cells[cell]
        if not entry["revealed"] or entry["room"] != room:
            shown = entry["room"] if entry["revealed"] else "hidden"
            problems.append(f"{cell} shows {shown}, expected {room} revealed")
    return problems


def _hidden(seen: _Seen, value: list) -> list[str]:
    return [
        f"{cell} is revealed, expected hidden" for cell in value if seen.cells[cell]["revealed"]
    ]


def _rooms(seen: _Seen, value: dict) -> list[str]:
    cells = seen.cells
    return [
        f"{cell} holds {cells[cell]['room']}, expected {room}"
        for cell, room in value.items()
        if cells[cell]["room"] != room
    ]


def _robots(seen: _Seen, value: list) -> list[str]:
    robots = sorted(cell for cell, e in seen.cells.items() for _ in range(e["robots"]))
    return [] if robots == sorted(value) else [f"robots are at {robots}, expected {sorted(value)}"]


def _locks(seen: _Seen, value: list) -> list[str]:
    locks = sorted(cell for cell, e in seen.cells.items() if e["locked"])
    if locks == sorted(value):
        return []
    return [f"Lock tokens are on {locks}, expected {sorted(value)}"]


def _corridors(seen: _Seen, value: dict) -> list[str]:
    cells = seen.cells
    return [
        f"{cell}'s corridor is {cells[cell]['corridor']}, expected {corridor}"
        for cell, corridor in value.items()
        if cells[cell]["corridor"] != corridor
    ]


def _sealed(seen: _Seen, value: list) -> list[str]:
    return [f"{cell} is not sealed" for cell in value if not seen.cells[cell]["sealed"]]


def _unsealed(seen: _Seen, value: list) -> list[str]:
    return [f"{cell} is still sealed" for cell in value if seen.cells[cell]["sealed"]]


def _control_tokens(seen: _Seen, value: dict) -> list[str]:
    lying = control_tokens(seen.events, seen.placed)
    return [
        f"{lying.get(line, 0)} Control token(s) beside {line}, expected {count}"
        for line, count in value.items()
        if lying.get(line, 0) != count
    ]


def _action_limits(seen: _Seen, value: dict) -> list[str]:
    characters = seen.state.characters
    problems = []
    for cid, limit in value.items():
        if cid not in characters:
            problems.append(f"{cid!r} is not a character of this game")
        elif characters[cid].limit != limit:
            problems.append(
                f"{cid} may program {characters[cid].limit} action(s), expected {limit}"
            )
    return problems


def _reminders(seen: _Seen, value: dict) -> list[str]:
    problems = []
    for seat, wanted in value.items():
        actual = sorted(e["cell"] for e in seen.cells.values() if seat in e["reminders"])
        listed = [] if wanted is None else wanted if isinstance(wanted, list) else [wanted]
        expected = sorted(_at(c) for c in listed)
        if actual != expected:
            problems.append(f"seat {seat}'s reminders are on {actual}, expected {expected}")
    return problems


def _roles_public(seen: _Seen, value: dict) -> list[str]:
    public = public_view(seen.state)["characters"]
    problems = []
    for cid, role in value.items():
        if cid not in public:
            problems.append(f"{cid!r} is not a character of this game")
            continue
        shown = public[cid]["role"]
        if shown != role:
            problems.append(f"{cid}'s public role is {shown}, expected {role}")
    return problems


def _views(seen: _Seen, value: list) -> list[str]:
    return [problem for spec in value for problem in _check_view(seen.state, spec)]


# Expectations compared, as given, with the same key of the full view.
SUBSETS = (
    "turn",
    "turns_left",
    "alarm",
    "phase",
    "round",
    "current",
    "order",
    "deaths",
    "jammed",
    "key_activated",
    "controls",
    "pending",
    "outcome",
    "characters",
    "mac",
)
# Every other expectation, by its key: what of it does not hold.
CHECKS: dict[str, Callable[[_Seen, Any], list[str]]] = {
    "positions": _positions,
    "eliminated": _eliminated,
    "revealed": _revealed,
    "hidden": _hidden,
    "rooms": _rooms,
    "robots": _robots,
    "locks": _locks,
    "corridors": _corridors,
    "sealed": _sealed,
    "unsealed": _unsealed,
    "control_tokens": _control_tokens,
    "action_limits": _action_limits,
    "reminders": _reminders,
    "roles_public": _roles_public,
    "views": _views,
}


def check(
    state: GameState,
    expect: dict,
    events: list[dict] | None = None,
    placed_tokens: dict[str, int] | None = None,
) -> list[str]:
    """What of `expect` does not hold in `state`; `events` (the game's so far) and the
    position's `placed_tokens` for what only they record: how many Control tokens lie out."""
    full = full_view(state)
    cells = {entry["cell"]: entry for row in full["complex"] or [] for entry in row}
    if cells:
        expect = _cells_named(expect)
    seen = _Seen(state, dict(full), cells, events or [], placed_tokens)
    problems: list[str] = []
    for key, value in expect.items():
        if not cells and key in (*CELL_KEYED, *CELL_LISTS, "reminders"):
            problems.append(f"{key}: this game has no board to look at (countdown tracking)")
        elif key in SUBSETS:
            problems.extend(_subset(value, seen.full[key], key))
        elif key in CHECKS:
            problems.extend(CHECKS[key](seen, value))
        else:
            problems.append(f"unknown expectation {key!r}")
    return problems


CELL_KEYED = ("revealed", "rooms", "corridors")
CELL_LISTS = ("hidden", "sealed", "unsealed", "robots", "locks")


def _cells_named(expect: dict) -> dict:
    """Cells written "c3" or [2, 2] in an expectation, named the one way the views name them."""
    named = dict(expect)
    for key in CELL_KEYED:
        if isinstance(named.get(key), dict):
            named[key] = {_at(cell): v for cell, v in named[key].items()}
    for key in CELL_LISTS:
        if isinstance(named.get(key), list):
            named[key] = [_at(cell) for cell in named[key]]
    return named


def _check_view(state: GameState, spec: dict) -> list[str]:
    seat = spec.get("seat")
    view = public_view(state) if seat in (None, "public") else seat_view(state, str(seat))
    label = f"view of {seat or 'the table'}"
    problems = _subset(spec.get("includes", {}), view, label)
    text = json.dumps(view)
    for fragment in spec.get("excludes_text", []):
        if fragment in text:
            problems.append(f"{label} contains {fragment!r}")
    for path, value in spec.get("excludes", {}).items():
        node: object = view
        for part in path.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node == value:
            problems.append(f"{label} shows {path} = {value!r}")
    return problems
