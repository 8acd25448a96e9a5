"""Checking expectations against a game: each returns the list of what did not hold."""

from __future__ import annotations

import json

from companion.engine import GameState, cell_name, full_view, parse_cell, public_view, seat_view


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


def check(
    state: GameState,
    expect: dict,
    events: list[dict] | None = None,
    placed_tokens: dict[str, int] | None = None,
) -> list[str]:
    """What of `expect` does not hold in `state`; `events` (the game's so far) and the
    position's `placed_tokens` for what only they record: how many Control tokens lie out."""
    full = full_view(state)
    problems: list[str] = []
    cells = {entry["cell"]: entry for row in full["complex"] or [] for entry in row}
    if cells:
        expect = _cells_named(expect)
    for key, value in expect.items():
        if not cells and key in (*CELL_KEYED, *CELL_LISTS, "reminders"):
            problems.append(f"{key}: this game has no board to look at (countdown tracking)")
            continue
        if key in (
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
        ):
            problems.extend(_subset(value, dict(full)[key], key))
        elif key == "positions":
            for cid, cell in value.items():
                seen = full["characters"].get(cid)
                standing = seen["cell"] if seen else None
                if standing != (None if cell is None else _at(cell)):
                    problems.append(f"{cid} is at {standing}, expected {cell}")
        elif key == "eliminated":
            dead = sorted(c for c, v in full["characters"].items() if not v["alive"])
            if dead != sorted(value):
                problems.append(f"eliminated are {dead}, expected {sorted(value)}")
        elif key == "revealed":
            for cell, room in value.items():
                entry = cells[cell]
                if not entry["revealed"] or entry["room"] != room:
                    shown = entry["room"] if entry["revealed"] else "hidden"
                    problems.append(f"{cell} shows {shown}, expected {room} revealed")
        elif key == "hidden":
            problems.extend(
                f"{cell} is revealed, expected hidden" for cell in value if cells[cell]["revealed"]
            )
        elif key == "rooms":
            for cell, room in value.items():
                if cells[cell]["room"] != room:
                    problems.append(f"{cell} holds {cells[cell]['room']}, expected {room}")
        elif key == "robots":
            robots = sorted(cell for cell, e in cells.items() for _ in range(e["robots"]))
            if robots != sorted(value):
                problems.append(f"robots are at {robots}, expected {sorted(value)}")
        elif key == "locks":
            locks = sorted(cell for cell, e in cells.items() if e["locked"])
            if locks != sorted(value):
                problems.append(f"Lock tokens are on {locks}, expected {sorted(value)}")
        elif key == "corridors":
            for cell, corridor in value.items():
                if cells[cell]["corridor"] != corridor:
                    problems.append(
                        f"{cell}'s corridor is {cells[cell]['corridor']}, expected {corridor}"
                    )
        elif key == "sealed":
            problems.extend(f"{cell} is not sealed" for cell in value if not cells[cell]["sealed"])
        elif key == "unsealed":
            problems.extend(f"{cell} is still sealed" for cell in value if cells[cell]["sealed"])
        elif key == "control_tokens":
            lying = control_tokens(events or [], placed_tokens)
            for line, count in value.items():
                if lying.get(line, 0) != count:
                    problems.append(
                        f"{lying.get(line, 0)} Control token(s) beside {line}, expected {count}"
                    )
        elif key == "action_limits":
            for cid, limit in value.items():
                if cid not in state.characters:
                    problems.append(f"{cid!r} is not a character of this game")
                elif state.characters[cid].limit != limit:
                    problems.append(
                        f"{cid} may program {state.characters[cid].limit} action(s), "
                        f"expected {limit}"
                    )
        elif key == "reminders":
            for seat, wanted in value.items():
                actual = sorted(e["cell"] for e in cells.values() if seat in e["reminders"])
                expected = sorted(
                    _at(c)
                    for c in (
                        [] if wanted is None else wanted if isinstance(wanted, list) else [wanted]
                    )
                )
                if actual != expected:
                    problems.append(f"seat {seat}'s reminders are on {actual}, expected {expected}")
        elif key == "controls":
            problems.extend(_subset(value, full["controls"], "controls"))
        elif key == "roles_public":
            public = public_view(state)["characters"]
            for cid, role in value.items():
                if cid not in public:
                    problems.append(f"{cid!r} is not a character of this game")
                    continue
                shown = public[cid]["role"]
                if shown != role:
                    problems.append(f"{cid}'s public role is {shown}, expected {role}")
        elif key == "pending":
            problems.extend(_subset(value, full["pending"], "pending"))
        elif key == "outcome":
            problems.extend(_subset(value, full["outcome"], "outcome"))
        elif key == "characters":
            problems.extend(_subset(value, full["characters"], "characters"))
        elif key == "mac":
            problems.extend(_subset(value, full["mac"], "mac"))
        elif key == "views":
            for spec in value:
                problems.extend(_check_view(state, spec))
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
