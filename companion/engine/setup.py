"""Setting a game up (001_30b8f356e0d93ba4.txt, SETUP, Construction of the Complex, GAME MODES).

`new_game` turns a setup description into the game's first events: the complex dealt (or left
to the physical tiles), the seats and the turn order, and the roles dealt in Suspicion.
"""

from __future__ import annotations

from collections import Counter

from . import chance, evolve, flow, grid
from .catalogue import box, characters, compositions, rooms
from .context import Context, Refused
from .ruleset import PLAYERS, Ruleset, make_ruleset

DEFAULT_COMPOSITION = {
    "suspicion": "expert-suspicion",
    "competition": "expert-competition",
    "team": "expert-competition",
    "cooperation": "beginner",
    "solo": "beginner",
}
DEFAULT_CHARACTERS = ("emmett", "franck", "max", "kevin", "jennifer", "alice")
DUO_ORDER = (("emmett", "kevin"), ("franck", "jennifer"), ("max", "alice"))
# Team mode seats alternate teams (A1, B1, A2, B2...): with 4 players each team holds a duo,
# with 6 players one character of each duo (001, Team Mode - Setup).
TEAM_CHARACTERS = {
    4: ("emmett", "franck", "kevin", "jennifer"),
    6: ("emmett", "kevin", "franck", "jennifer", "max", "alice"),
}


def characters_per_seat(mode: str, players: int) -> int:
    """Cooperation 2-3 players and Competition: a duo each; Solo: four; otherwise one."""
    if mode == "solo":
        return 4
    if mode == "competition" or (mode == "cooperation" and players <= 3):
        return 2
    return 1


def _seats(ruleset: Ruleset, setup: dict) -> list[dict]:
    mode = ruleset.mode
    raw = setup.get("seats")
    if raw is None:
        players = setup.get("players", min(PLAYERS[mode]))
        if not isinstance(players, int) or players not in PLAYERS[mode]:
            raise Refused(_players_reason(mode))
        per = characters_per_seat(mode, players)
        if mode == "team":
            pool = list(TEAM_CHARACTERS[players])
        elif per == 2:
            pool = [c for duo in DUO_ORDER for c in duo]
        else:
            pool = list(DEFAULT_CHARACTERS)
        raw = [
            {"id": str(i + 1), "characters": pool[i * per : (i + 1) * per]} for i in range(players)
        ]
    if not isinstance(raw, list) or len(raw) not in PLAYERS[mode]:
        raise Refused(_players_reason(mode))
    per = characters_per_seat(mode, len(raw))
    seats, seen = [], set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("characters"), list):
            raise Refused('Each seat needs an "id" and a list of "characters".')
        sid = str(entry.get("id", len(seats) + 1))
        chosen = entry["characters"]
        if len(chosen) != per:
            raise Refused(f"In {mode} with {len(raw)} players each seat plays {per} character(s).")
        for cid in chosen:
            if cid not in characters() or characters()[cid]["box"] != "base":
                known = ", ".join(c for c in characters() if characters()[c]["box"] == "base")
                raise Refused(f"{cid!r} is not a character of the base game ({known}).")
            if cid in seen:
                raise Refused(f"{cid} is played by two seats.")
            seen.add(cid)
        if per == 2 and characters()[chosen[0]]["duo"] != characters()[chosen[1]]["duo"]:
            raise Refused(
                f"Seat {sid}: a duo is the Scientist and the Nerd, the Dude and the Bimbo, or the "
                "Colossus and the Little Girl (001, Cooperation Mode - Setup)."
            )
        if sid in {s["id"] for s in seats}:
            raise Refused(f"Two seats are called {sid}.")
        seats.append({"id": sid, "characters": list(chosen)})
    if mode == "team":
        _check_teams(seats)
    return seats


def _check_teams(seats: list[dict]) -> None:
    for team in (seats[0::2], seats[1::2]):
        duos = [characters()[seat["characters"][0]]["duo"] for seat in team]
        if len(team) == 2 and duos[0] != duos[1]:
            raise Refused(
                "Team mode with 4 players: teammates (seats 1 and 3, seats 2 and 4) play a duo "
                "(001, Team Mode - Setup)."
            )
        if len(team) == 3 and len(set(duos)) != 3:
            raise Refused(
                "Team mode with 6 players: each team takes one character of each duo "
                "(001, Team Mode - Setup)."
            )


def _players_reason(mode: str) -> str:
    counts = PLAYERS[mode]
    return f"{mode.capitalize()} is for {counts[0]} to {counts[-1]} players."


def turn_order(seats: list[dict], first: str) -> list[str]:
    """Markers from the first player round the table; with duos a second placement round so
    that a player's two characters are never neighbours (001, Cooperation Mode - Setup)."""
    ids = [s["id"] for s in seats]
    if first not in ids:
        raise Refused(f"The first player {first!r} is not one of the seats ({', '.join(ids)}).")
    start = ids.index(first)
    ordered = seats[start:] + seats[:start]
    per = len(ordered[0]["characters"])
    if len(ordered) == 1:
        return list(ordered[0]["characters"])
    return [seat["characters"][i] for i in range(per) for seat in ordered]


def _composition(ruleset: Ruleset, setup: dict) -> Counter:
    chosen = setup.get("composition", DEFAULT_COMPOSITION[ruleset.mode])
    if isinstance(chosen, str):
        if chosen not in compositions():
            raise Refused(f"Unknown composition {chosen!r}: {', '.join(compositions())}.")
        counts = Counter(compositions()[chosen]["rooms"])
    elif isinstance(chosen, dict) and isinstance(chosen.get("rooms"), dict):
        counts = Counter(chosen["rooms"])
    else:
        raise Refused('A composition is a name or {"rooms": {room: count}}.')
    counts["central"] += 1
    counts["room25"] += 1
    _check_box(ruleset, counts, "composition")
    if counts["vision"] != 1:
        raise Refused("The construction needs the Vision chamber exactly once.")
    if sum(counts.values()) != 25:
        raise Refused(
            f"A composition has 23 rooms besides the Central room and Room 25, "
            f"not {sum(counts.values()) - 2}."
        )
    return counts


def _check_box(ruleset: Ruleset, counts: Counter, what: str) -> None:
    available = box(ruleset.edition)
    for kind, n in counts.items():
        if kind not in rooms():
            raise Refused(f"The {what} names {kind!r}, which is not a room.")
        if n < 0 or n > available.get(kind, 0):
            raise Refused(
                f"The {what} asks {n} {kind} but the {ruleset.edition} box has "
                f"{available.get(kind, 0)}."
            )


def _deal(rng: int, counts: Counter) -> tuple[int, list[str]]:
    """Construction of the Complex: 12 of the 22 shuffled rooms on the inner cells, then the
    other 10 with the Vision chamber and Room 25 shuffled onto the 12 exit-zone cells."""
    rest = [kind for kind, n in sorted(counts.items()) for _ in range(n)]
    for kind in ("central", "vision", "room25"):
        rest.remove(kind)
    rng, rest = chance.shuffled(rng, rest)
    inner, outer = rest[:12], [*rest[12:], "vision", "room25"]
    rng, outer = chance.shuffled(rng, outer)
    layout = [""] * 25
    layout[grid.CENTRE] = "central"
    for c, kind in zip(grid.INNER, inner, strict=True):
        layout[c] = kind
    for c, kind in zip(grid.EXIT_ZONES, outer, strict=True):
        layout[c] = kind
    return rng, layout


def _rigged(ruleset: Ruleset, rows: object) -> list[str]:
    if not (
        isinstance(rows, list)
        and len(rows) == 5
        and all(isinstance(r, list) and len(r) == 5 for r in rows)
    ):
        raise Refused("A rigged complex is 5 rows of 5 room names.")
    layout = [kind for row in rows for kind in row]
    if layout[grid.CENTRE] != "central":
        raise Refused("The Central room stands in the middle of the complex (C3).")
    _check_box(ruleset, Counter(layout), "rigged complex")
    if layout.count("room25") != 1:
        raise Refused("The complex holds Room 25 exactly once: it is the way out.")
    return layout


def role_tiles(ruleset: Ruleset, players: int, guards: object = None) -> list[str]:
    """Suspicion, Role distribution (001): 4 players, 4 prisoners and 1 guard; 5 or 6 players,
    4 prisoners and 2 guards - one tile more than players at 4 and 5, for doubt."""
    if ruleset.settings.role_tiles == "doubt":
        return ["prisoner"] * 4 + ["guard"] * (1 if players == 4 else 2)
    count = guards if guards in (1, 2) else (1 if players <= 4 else 2)
    return ["prisoner"] * (players - count) + ["guard"] * count


def new_game(setup: dict) -> Context:
    """Start a game from a setup description; refuse it plainly if it is not a legal game."""
    if not isinstance(setup, dict):
        raise Refused("A game setup is an object with at least a mode.")
    try:
        ruleset = make_ruleset(
            setup.get("edition", "base"),
            setup.get("mode", "suspicion"),
            setup.get("tracking", "dealt"),
            setup.get("settings"),
        )
    except ValueError as error:
        raise Refused(str(error).capitalize() + ".") from None
    seed = setup.get("seed", 0)
    if not isinstance(seed, int):
        raise Refused("The seed is a whole number.")
    rng = seed & chance.MASK
    seats = _seats(ruleset, setup)
    order = turn_order(seats, str(setup.get("first", seats[0]["id"])))
    tracked = ruleset.tracking != "countdown"
    counts = _composition(ruleset, setup) if tracked else Counter()
    layout: list[str | None] = []
    if "complex" in setup:
        layout = list(_rigged(ruleset, setup["complex"]))
        counts = Counter(layout)
    elif ruleset.tracking == "dealt":
        rng, dealt = _deal(rng, counts)
        layout = list(dealt)
    elif ruleset.tracking == "physical":
        layout = [None] * 25
        layout[grid.CENTRE] = "central"
    tiles = [(kind, i == grid.CENTRE) for i, kind in enumerate(layout)]
    roles: list[tuple[str, str, str]] = []
    if ruleset.mode == "suspicion":
        rigged_roles = setup.get("roles")
        if rigged_roles is not None:
            roles = _rigged_roles(seats, rigged_roles)
        else:
            rng, deck = chance.shuffled(rng, role_tiles(ruleset, len(seats), setup.get("guards")))
            roles = [(s["id"], s["characters"][0], deck[i]) for i, s in enumerate(seats)]
    created = {
        "type": "game_created",
        "ruleset": ruleset.as_dict(),
        "rng": rng,
        "seats": seats,
        "order": order,
        "tiles": [list(t) for t in tiles],
        "cells": list(range(25)) if tracked else [],
        "composition": dict(counts),
        "start": grid.CENTRE if tracked else None,
        "turns_left": ruleset.turns,
        "phase": "clue" if tracked else "programming",
    }
    ctx = Context(evolve.created(created))
    ctx.events.append(created)
    for sid, cid, role in roles:
        ctx.emit("role_dealt", seat=sid, character=cid, role=role, private=sid)
    if not tracked:
        flow.start_programming(ctx)
    return ctx


def _rigged_roles(seats: list[dict], given: object) -> list[tuple[str, str, str]]:
    if not isinstance(given, dict):
        raise Refused('Roles are given as {"character": "prisoner" or "guard"}.')
    roles = []
    for seat in seats:
        cid = seat["characters"][0]
        role = given.get(cid, "prisoner")
        if role not in ("prisoner", "guard"):
            raise Refused(f"{cid}'s role must be prisoner or guard, not {role!r}.")
        roles.append((seat["id"], cid, role))
    return roles
