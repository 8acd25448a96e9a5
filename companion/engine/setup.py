"""Setting a game up (001_30b8f356e0d93ba4.txt, SETUP, Construction of the Complex, GAME MODES;
000_f9f1d5a43eaf8620.txt, SETUP, CONSTRUCTION OF THE COMPLEX; 002, MODES).

`new_game` turns a setup description into the game's first events: the complex dealt (or left
to the physical tiles), the seats and the turn order, and the roles dealt in Suspicion.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from . import chance, compose, evolve, flow, grid, mac
from .catalogue import box, characters, rooms
from .context import Context, Refused
from .mac_deck import DeckError, deck_as_json, deck_from_data, load_deck
from .ruleset import Ruleset, make_ruleset, turns_for
from .state import RESERVED_EMPTY

DEFAULT_CHARACTERS = ("emmett", "franck", "max", "kevin", "jennifer", "alice", "sarah", "bruce")
DUO_ORDER = (("emmett", "kevin"), ("franck", "jennifer"), ("max", "alice"), ("sarah", "bruce"))
# Team mode seats alternate teams (A1, B1, A2, B2...): with 4 players each team holds a duo,
# with 6 players one character of each duo (001, Team Mode - Setup).
TEAM_CHARACTERS = {
    4: ("emmett", "franck", "kevin", "jennifer"),
    6: ("emmett", "kevin", "franck", "jennifer", "max", "alice"),
    8: ("emmett", "kevin", "franck", "jennifer", "max", "alice", "sarah", "bruce"),
}


def characters_per_seat(ruleset: Ruleset, players: int) -> int:
    """A duo each in Competition and in Cooperation with 2-3 players; four characters for one
    player (Solo, or Ultimate Cooperation alone); otherwise one."""
    mode = ruleset.mode
    if mode == "solo" or (mode == "cooperation" and players == 1):
        return 4
    if mode == "competition" or (mode == "cooperation" and players <= 3):
        return 2
    return 1


def _legal_players(ruleset: Ruleset) -> tuple[int, ...]:
    return compose.legal_players(ruleset.edition, ruleset.mode)


def _players_reason(ruleset: Ruleset) -> str:
    counts = _legal_players(ruleset)
    return (
        f"{ruleset.mode.capitalize()} ({ruleset.edition}) is for {counts[0]} to {counts[-1]} "
        "players."
    )


def _cast(ruleset: Ruleset) -> list[str]:
    """The characters of the edition's box."""
    return [
        c
        for c, entry in characters().items()
        if ruleset.edition != "base" or entry["box"] == "base"
    ]


def _default_seats(ruleset: Ruleset, players: int) -> list[dict]:
    per = characters_per_seat(ruleset, players)
    if ruleset.mode == "team":
        pool = list(TEAM_CHARACTERS[players])
    elif per == 2:
        pool = [c for duo in DUO_ORDER for c in duo]
    else:
        pool = list(DEFAULT_CHARACTERS)
    return [{"id": str(i + 1), "characters": pool[i * per : (i + 1) * per]} for i in range(players)]


def _seats(ruleset: Ruleset, setup: dict) -> list[dict]:
    raw = setup.get("seats")
    if raw is None:
        players = setup.get("players", min(_legal_players(ruleset)))
        if not isinstance(players, int) or players not in _legal_players(ruleset):
            raise Refused(_players_reason(ruleset))
        raw = _default_seats(ruleset, players)
    if not isinstance(raw, list) or len(raw) not in _legal_players(ruleset):
        raise Refused(_players_reason(ruleset))
    per = characters_per_seat(ruleset, len(raw))
    cast = _cast(ruleset)
    seats: list[dict] = []
    seen: set[str] = set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("characters"), list):
            raise Refused('Each seat needs an "id" and a list of "characters".')
        sid = str(entry.get("id", len(seats) + 1))
        chosen = entry["characters"]
        if len(chosen) != per:
            raise Refused(
                f"In {ruleset.mode} with {len(raw)} players each seat plays {per} character(s)."
            )
        for cid in chosen:
            if cid not in cast:
                raise Refused(
                    f"{cid!r} is not a character of the {ruleset.edition} edition "
                    f"({', '.join(cast)})."
                )
            if cid in seen:
                raise Refused(f"{cid} is played by two seats.")
            seen.add(cid)
        if per == 2 and characters()[chosen[0]]["duo"] != characters()[chosen[1]]["duo"]:
            raise Refused(
                f"Seat {sid}: a duo is the Scientist and the Nerd, the Dude and the Bimbo, or the "
                "Colossus and the Little Girl (001, Cooperation Mode - Setup), or Sarah and Bruce."
            )
        if sid in {s["id"] for s in seats}:
            raise Refused(f"Two seats are called {sid}.")
        seats.append({"id": sid, "characters": list(chosen)})
    if ruleset.mode == "team":
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


def turn_order(seats: list[dict], first: str) -> list[str]:
    """Markers from the first player round the table; with duos a second placement round so
    that a player's two characters are never neighbours (001, Cooperation Mode - Setup)."""
    ids = [s["id"] for s in seats]
    if first not in ids:
        raise Refused(f"The first player {first!r} is not one of the seats ({', '.join(ids)}).")
    start = ids.index(first)
    ordered = seats[start:] + seats[:start]
    if len(ordered) == 1:
        return list(ordered[0]["characters"])
    per = len(ordered[0]["characters"])
    return [seat["characters"][i] for i in range(per) for seat in ordered]


def _reserve(ruleset: Ruleset, seats: list[dict]) -> dict[str, int]:
    if not ruleset.settings.talents:
        return {}
    playing = {c for seat in seats for c in seat["characters"]}
    empties = sum(n for cid, n in RESERVED_EMPTY.items() if cid in playing)
    return {"empty": empties} if empties else {}


def _composition(ruleset: Ruleset, setup: dict, seats: list[dict], rng: int) -> tuple[int, Counter]:
    """The 25 rooms: a named composition (free slots drawn at random by colour from the box),
    or one given room by room."""
    chosen = setup.get("composition")
    reserve = _reserve(ruleset, seats)
    if isinstance(chosen, dict):
        if not isinstance(chosen.get("rooms"), dict):
            raise Refused('A composition is a name or {"rooms": {room: count}}.')
        counts = Counter(chosen["rooms"])
    else:
        try:
            if chosen is None:
                composition = compose.compositions_for(
                    ruleset.edition, ruleset.mode, len(seats), guards=setup.get("guards")
                )[0]
            elif isinstance(chosen, str):
                composition = compose.get_composition(chosen)
            else:
                raise Refused('A composition is a name or {"rooms": {room: count}}.')
            state = [rng]

            def choose(options: Sequence[str]) -> str:
                state[0], pick = chance.choice(state[0], options)
                return pick

            counts = Counter(compose.fill(composition, choose, reserve=reserve))
            rng = state[0]
        except compose.CompositionError as error:
            raise Refused(f"Composition: {error}.") from None
    counts["central"] += 1
    counts["room25"] += 1
    _check_box(ruleset, counts, "composition", reserve)
    if ruleset.edition == "base" and counts["vision"] != 1:
        raise Refused("The base construction needs the Vision chamber exactly once.")
    if sum(counts.values()) != 25:
        raise Refused(
            f"A composition has 23 rooms besides the Central room and Room 25, "
            f"not {sum(counts.values()) - 2}."
        )
    return rng, counts


def _check_box(
    ruleset: Ruleset, counts: Counter, what: str, reserve: dict[str, int] | None = None
) -> None:
    available = box(ruleset.edition)
    for kind, n in counts.items():
        if kind not in rooms():
            raise Refused(f"The {what} names {kind!r}, which is not a room.")
        kept = (reserve or {}).get(kind, 0)
        have = available.get(kind, 0) - kept
        if n < 0 or n > have:
            aside = f" once Sarah and Bruce keep their {kept}" if kept else ""
            raise Refused(
                f"The {what} asks {n} {kind} but the {ruleset.edition} box has {have}{aside}."
            )


def _deal(ruleset: Ruleset, rng: int, counts: Counter) -> tuple[int, list[str]]:
    """Construction of the Complex: Room 25, the Vision chamber (and in Ultimate the Key,
    Moving and Robot rooms; in Season 2 the Robot rooms) are set aside; 12 of the others,
    shuffled, go on the inner cells; the rest, with the set-aside rooms, shuffled onto the 12
    exit-zone cells."""
    aside_kinds = compose.exit_zone_rooms(ruleset.edition) | {"vision", "room25"}
    aside = [kind for kind in sorted(aside_kinds) for _ in range(counts.get(kind, 0))]
    rest = [
        kind
        for kind, n in sorted(counts.items())
        if kind not in aside_kinds and kind != "central"
        for _ in range(n)
    ]
    if len(aside) > len(grid.EXIT_ZONES):
        raise Refused("More rooms must go to the exit zones than there are exit-zone cells.")
    rng, rest = chance.shuffled(rng, rest)
    inner, outer = rest[:12], [*rest[12:], *aside]
    rng, outer = chance.shuffled(rng, outer)
    layout = [""] * 25
    layout[grid.CENTRE] = "central"
    for c, kind in zip(grid.INNER, inner, strict=True):
        layout[c] = kind
    for c, kind in zip(grid.EXIT_ZONES, outer, strict=True):
        layout[c] = kind
    return rng, layout


def _rigged(ruleset: Ruleset, rows: object, reserve: dict[str, int]) -> list[str]:
    if not (
        isinstance(rows, list)
        and len(rows) == 5
        and all(isinstance(r, list) and len(r) == 5 for r in rows)
    ):
        raise Refused("A rigged complex is 5 rows of 5 room names.")
    layout = [kind for row in rows for kind in row]
    if layout[grid.CENTRE] != "central":
        raise Refused("The Central room stands in the middle of the complex (C3).")
    _check_box(ruleset, Counter(layout), "rigged complex", reserve)
    if layout.count("room25") != 1:
        raise Refused("The complex holds Room 25 exactly once: it is the way out.")
    return layout


def role_tiles(ruleset: Ruleset, players: int, guards: object = None) -> list[str]:
    """Suspicion role tiles. Base (001, Role distribution): 4 players, 4 prisoners and 1 guard;
    5 or 6 players, 4 prisoners and 2 guards - one tile more than players at 4 and 5, for doubt.
    Season 2 (002, MODES): at 5 players choose 1 or 2 guards; 7 and 8 players add 1 and 2
    prisoner tiles. Ultimate (000, SUSPICION SETUP): exact counts, 1 or 2 guards at 5."""
    setting = ruleset.settings.role_tiles
    if setting == "doubt" or (setting == "season2" and players == 4):
        return ["prisoner"] * 4 + ["guard"] * (1 if players == 4 else 2)
    count = {4: 1, 5: guards if guards in (1, 2) else 2}.get(players, 2)
    return ["prisoner"] * (players - count) + ["guard"] * count


def _settings(setup: dict) -> dict:
    """The table's settings, with the defaults that depend on the mode: Cooperation and Solo of
    Season 2 and Ultimate play the M.A.C. deck at the standard level; at the Madness level,
    'Play without the reminder and Adrenaline tokens' (000). In Solo the reminder tokens stay:
    002 says so ('en mode solo, continuez d'utiliser les balises'), and the Jamming card's Solo
    effect on them (000, 002) supposes it."""
    given = setup.get("settings") or {}
    if not isinstance(given, dict):
        raise Refused("Settings are given as {name: value}.")
    settings = dict(given)
    edition, mode = setup.get("edition", "base"), setup.get("mode", "suspicion")
    if edition != "base" and mode in ("cooperation", "solo"):
        settings.setdefault("mac", "standard")
    if settings.get("mac") == "madness":
        settings.setdefault("adrenaline", False)
        if mode == "cooperation":
            settings.setdefault("reminder_tokens", False)
    return settings


def _deck(ruleset: Ruleset, setup: dict, mac_rooms: bool) -> dict | None:
    """The M.A.C. deck of the game: the packaged reconstruction or the owner's own count. A
    complex with M.A.C. rooms needs the deck even when no card is drawn on a timetable; then
    only the basic cards ("Do not mix [the Madness cards] with the other M.A.C. cards unless
    ...", 000, M.A.C. room)."""
    level = ruleset.settings.mac
    if level == "off" and not mac_rooms:
        return None
    if level not in ("off", "standard", "madness"):
        raise Refused('The M.A.C. level is "off", "standard" or "madness".')
    try:
        deck = deck_from_data(setup["deck"], "deck") if "deck" in setup else load_deck()
    except DeckError as error:
        raise Refused(f"M.A.C. deck: {error}") from None
    deck = mac.deck_for(deck, level)
    return {
        "level": level,
        "physical": ruleset.settings.mac_deck == "physical",
        "cards": deck_as_json(deck)["cards"],
    }


def new_game(setup: dict) -> Context:
    """Start a game from a setup description; refuse it plainly if it is not a legal game."""
    if not isinstance(setup, dict):
        raise Refused("A game setup is an object with at least a mode.")
    settings = _settings(setup)
    try:
        ruleset = make_ruleset(
            setup.get("edition", "base"),
            setup.get("mode", "suspicion"),
            setup.get("tracking", "dealt"),
            settings,
        )
    except ValueError as error:
        raise Refused(str(error).capitalize() + ".") from None
    seed = setup.get("seed", 0)
    if not isinstance(seed, int):
        raise Refused("The seed is a whole number.")
    rng = seed & chance.MASK
    seats = _seats(ruleset, setup)
    order = turn_order(seats, str(setup.get("first", seats[0]["id"])))
    cast = [c for seat in seats for c in seat["characters"]]
    turns = turns_for(ruleset.edition, ruleset.mode, len(cast))
    ruleset = make_ruleset(ruleset.edition, ruleset.mode, ruleset.tracking, settings, turns)
    tracked = ruleset.tracking != "countdown"
    counts: Counter = Counter()
    layout: list[str | None] = []
    if "complex" in setup:
        layout = list(_rigged(ruleset, setup["complex"], _reserve(ruleset, seats)))
        counts = Counter(layout)
    elif tracked:
        rng, counts = _composition(ruleset, setup, seats, rng)
        if ruleset.tracking == "dealt":
            rng, dealt = _deal(ruleset, rng, counts)
            layout = list(dealt)
        else:
            layout = [None] * 25
            layout[grid.CENTRE] = "central"
    tiles = [(kind, i == grid.CENTRE) for i, kind in enumerate(layout)]
    deck = _deck(ruleset, setup, counts.get("mac", 0) > 0)
    roles: list[tuple[str, str, str]] = []
    if ruleset.mode == "suspicion":
        rigged_roles = setup.get("roles")
        if rigged_roles is not None:
            roles = _rigged_roles(seats, rigged_roles)
        else:
            rng, tiles_dealt = chance.shuffled(
                rng, role_tiles(ruleset, len(seats), setup.get("guards"))
            )
            roles = [(s["id"], s["characters"][0], tiles_dealt[i]) for i, s in enumerate(seats)]
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
        "mac": deck,
    }
    ctx = Context(evolve.created(created))
    ctx.events.append(created)
    if deck is not None and not deck["physical"]:
        pile = [card["id"] for card in deck["cards"] for _ in range(card["count"])]
        rng, pile = chance.shuffled(ctx.state.rng, pile)
        ctx.emit("mac_shuffled", pile=pile, rng=rng, private="engine")
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
