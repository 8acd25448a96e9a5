"""Checking expectations against a game: each returns the list of what did not hold."""

from __future__ import annotations

import json

from companion.engine import GameState, full_view, public_view, seat_view


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


def check(state: GameState, expect: dict) -> list[str]:
    full = full_view(state)
    problems: list[str] = []
    cells = {entry["cell"]: entry for row in full["complex"] or [] for entry in row}
    for key, value in expect.items():
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
            problems.extend(_subset(value, full[key], key))
        elif key == "positions":
            for cid, cell in value.items():
                actual = full["characters"].get(cid, {}).get("cell")
                if actual != cell:
                    problems.append(f"{cid} is at {actual}, expected {cell}")
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
            shown = sorted(cell for cell, e in cells.items() for _ in range(e["robots"]))
            if shown != sorted(value):
                problems.append(f"robots are at {shown}, expected {sorted(value)}")
        elif key == "locks":
            shown = sorted(cell for cell, e in cells.items() if e["locked"])
            if shown != sorted(value):
                problems.append(f"Lock tokens are on {shown}, expected {sorted(value)}")
        elif key == "corridors":
            for cell, corridor in value.items():
                if cells[cell]["corridor"] != corridor:
                    problems.append(
                        f"{cell}'s corridor is {cells[cell]['corridor']}, expected {corridor}"
                    )
        elif key == "sealed":
            problems.extend(f"{cell} is not sealed" for cell in value if not cells[cell]["sealed"])
        elif key == "reminders":
            for seat, wanted in value.items():
                actual = sorted(e["cell"] for e in cells.values() if seat in e["reminders"])
                expected = sorted(
                    [] if wanted is None else wanted if isinstance(wanted, list) else [wanted]
                )
                if actual != expected:
                    problems.append(f"seat {seat}'s reminders are on {actual}, expected {expected}")
        elif key == "controls":
            problems.extend(_subset(value, full["controls"], "controls"))
        elif key == "roles_public":
            for cid, role in value.items():
                shown = public_view(state)["characters"][cid]["role"]
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
