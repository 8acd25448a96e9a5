"""Setting a game up (001_30b8f356e0d93ba4.txt, SETUP, Construction of the Complex, GAME MODES;
000_f9f1d5a43eaf8620.txt, SETUP, CONSTRUCTION OF THE COMPLEX; 002, MODES).

`new_game` turns a setup description into the game's first events: the complex dealt (or left
to the physical tiles), the seats and the turn order, and the roles dealt in Suspicion.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from ..kernel import chance, evolve, grid
from ..kernel.catalogue import box, characters, rooms
from ..kernel.context import Context, Refused
from ..kernel.mac_cards import DeckError
from ..kernel.mac_deck import deck_as_json, deck_from_data, load_deck
from ..kernel.ruleset import (
    EDITIONS,
    MODES,
    SETTING_CHOICES,
    SETTING_NAMES,
    TOGETHER_MODES,
    TRACKING,
    Ruleset,
    mac_level,
    make_ruleset,
    turns_for,
)
from ..kernel.state import RESERVED_EMPTY, SEAT_IDS
from . import compose, flow, mac

SEED_MAX = chance.MASK
# Every key a setup may hold: any other is refused by name, never ignored ("Seed" is not "seed").
SETUP_KEYS = frozenset(
    ("edition", "mode", "tracking", "settings", "seed", "seats", "players", "guards", "first",
     "complex", "composition", "roles", "deck")
)  # fmt: skip

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


def _players_refused(ruleset: Ruleset) -> Refused:
    counts = _legal_players(ruleset)
    return Refused(
        "players_count",
        mode=ruleset.mode,
        edition=ruleset.edition,
        low=counts[0],
        high=counts[-1],
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
        if not _whole(players) or players not in _legal_players(ruleset):
            raise _players_refused(ruleset)
        raw = _default_seats(ruleset, players)
    if not isinstance(raw, list) or len(raw) not in _legal_players(ruleset):
        raise _players_refused(ruleset)
    per = characters_per_seat(ruleset, len(raw))
    cast = _cast(ruleset)
    seats: list[dict] = []
    seen: set[str] = set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("characters"), list):
            raise Refused("seat_needs_characters")
        sid = _seat_id(entry.get("id", len(seats) + 1))
        chosen = entry["characters"]
        if len(chosen) != per:
            raise Refused("characters_per_seat", mode=ruleset.mode, players=len(raw), count=per)
        for cid in chosen:
            if not isinstance(cid, str) or cid not in cast:
                raise Refused(
                    "not_in_edition",
                    character=str(cid)[:20],
                    edition=ruleset.edition,
                    characters=cast,
                )
            if cid in seen:
                raise Refused("played_by_two_seats", character=cid)
            seen.add(cid)
        if per == 2 and _duos_required(ruleset) and not _one_duo(chosen):
            raise Refused("duo_needed", seat=sid)
        if sid in {s["id"] for s in seats}:
            raise Refused("two_seats_same_id", seat=sid)
        seats.append({"id": sid, "characters": list(chosen)})
    if ruleset.mode == "team":
        _check_teams(seats)
    return seats


def _duos_required(ruleset: Ruleset) -> bool:
    """Two characters a player: a duo in base and Season 2 ("Each player chooses a character
    duo", 001/004 Cooperation Mode - Setup; 002 changes only the countdown and the M.A.C.), any
    two in Ultimate Cooperation ("each player plays multiple characters. He plays this characters
    independentely", 000 COOPERATION, setup, which names no duo)."""
    return not (ruleset.edition == "ultimate" and ruleset.mode == "cooperation")


def _one_duo(chosen: list[str]) -> bool:
    return bool(characters()[chosen[0]]["duo"] == characters()[chosen[1]]["duo"])


def _seat_id(given: object) -> str:
    """A seat's id as the setup names it: "1" to "8" (a whole number 1 to 8 is written so)."""
    sid = str(given) if _whole(given) else given
    if not isinstance(sid, str) or sid not in SEAT_IDS:
        raise Refused("seat_id_pattern", seat=str(given)[:20])
    return sid


def _whole(value: object) -> bool:
    """A whole number as JSON gives it: an int, never a bool (True is an int to Python)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _check_teams(seats: list[dict]) -> None:
    for team in (seats[0::2], seats[1::2]):
        duos = [characters()[seat["characters"][0]]["duo"] for seat in team]
        if len(team) == 2 and duos[0] != duos[1]:
            raise Refused("team_duos_4")
        if len(team) == 3 and len(set(duos)) != 3:
            raise Refused("team_duos_6")


def turn_order(seats: list[dict], first: str) -> list[str]:
    """Markers from the first player round the table; with duos a second placement round so
    that a player's two characters are never neighbours (001, Cooperation Mode - Setup)."""
    ids = [s["id"] for s in seats]
    if first not in ids:
        raise Refused("first_player_not_a_seat", first=first[:20], seats=ids)
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
            raise Refused("composition_shape")
        for kind, n in chosen["rooms"].items():
            if not isinstance(kind, str):  # a YAML file may key a room by null or a number
                raise Refused("composition_unknown_room", room=str(kind)[:20])
            if not _whole(n):
                raise Refused("composition_count", room=kind, value=str(n)[:20])
        counts: Counter[str] = Counter(chosen["rooms"])
    else:
        try:
            if chosen is None:
                composition = compose.compositions_for(
                    ruleset.edition, ruleset.mode, len(seats), guards=setup.get("guards")
                )[0]
            elif isinstance(chosen, str):
                composition = compose.get_composition(chosen)
            else:
                raise Refused("composition_shape")
            state = [rng]

            def choose(options: Sequence[str]) -> str:
                state[0], pick = chance.choice(state[0], options)
                return pick

            counts = Counter(compose.fill(composition, choose, reserve=reserve))
            rng = state[0]
        except compose.CompositionError as error:
            raise Refused("composition_problem", problem=error.said) from None
    counts["central"] += 1
    counts["room25"] += 1
    _check_box(ruleset, counts, reserve)
    if ruleset.edition == "base" and counts["vision"] != 1:
        raise Refused("vision_once")
    if sum(counts.values()) != 25:
        raise Refused("composition_size", count=sum(counts.values()) - 2)
    return rng, counts


def _check_box(
    ruleset: Ruleset, counts: Counter, reserve: dict[str, int], rigged: bool = False
) -> None:
    """Every room named is a room, and the edition's box holds that many of it."""
    available = box(ruleset.edition)
    for kind, n in counts.items():
        if kind not in rooms():
            raise Refused(
                "complex_unknown_room" if rigged else "composition_unknown_room", room=kind[:20]
            )
        kept = reserve.get(kind, 0)
        have = available.get(kind, 0) - kept
        if n < 0 or n > have:
            asked = {"count": n, "room": kind, "edition": ruleset.edition, "have": have}
            if kept and rigged:
                raise Refused("complex_exceeds_box_kept", kept=kept, **asked)
            if kept:
                raise Refused("composition_exceeds_box_kept", kept=kept, **asked)
            raise Refused("complex_exceeds_box" if rigged else "composition_exceeds_box", **asked)


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
        raise Refused("exit_zone_overflow")
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
        and all(isinstance(kind, str) for r in rows for kind in r)
    ):
        raise Refused("complex_shape")
    layout = [kind for row in rows for kind in row]
    if layout[grid.CENTRE] != "central":
        raise Refused("central_in_middle")
    _check_box(ruleset, Counter(layout), reserve, rigged=True)
    if layout.count("room25") != 1:
        raise Refused("room25_once")
    return layout


def _check_built(ruleset: Ruleset, layout: list[str]) -> None:
    """Physical tiles are laid by the construction of the complex, which puts the set-aside
    rooms on the exit zones (`_deal`): the reports about them are checked against it
    (`board.reportable`), so a rigged physical complex must follow it too."""
    aside = compose.exit_zone_rooms(ruleset.edition)
    for cell in grid.INNER:
        if layout[cell] in aside:
            raise Refused("set_aside_for_exit_zones", room=layout[cell], cell=grid.name(cell))


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


def _check_guards(ruleset: Ruleset, players: int, setup: dict) -> None:
    """`guards` is the 5-player table's open choice of 1 or 2 guards (002, MODES : SUSPICION;
    000, SUSPICION SETUP): refused where it would be ignored, not taken silently."""
    if "guards" not in setup:
        return
    one_each = ruleset.settings.role_tiles != "doubt"
    if ruleset.mode != "suspicion" or players != 5 or not one_each:
        raise Refused("guards_choice")
    if setup["guards"] not in (1, 2) or isinstance(setup["guards"], bool):
        raise Refused("guards_choice")


def _settings(setup: dict) -> dict:
    """The table's settings, with the defaults that depend on the mode: Cooperation and Solo of
    Season 2 and Ultimate play the M.A.C. deck at the standard level; at the Madness level,
    'Play without the reminder and Adrenaline tokens' (000). In Solo the reminder tokens stay:
    002 says so ('en mode solo, continuez d'utiliser les balises'), and the Jamming card's Solo
    effect on them (000, 002) supposes it."""
    given = setup.get("settings") or {}
    if not isinstance(given, dict):
        raise Refused("settings_not_an_object")
    settings = dict(given)
    if "mac" in settings:
        settings["mac"] = mac_level(settings["mac"])
    edition, mode = setup.get("edition", "base"), setup.get("mode", "suspicion")
    if edition != "base" and mode in TOGETHER_MODES:
        settings.setdefault("mac", "standard")
    if settings.get("mac") == "madness":
        settings.setdefault("adrenaline", False)
        if mode == "cooperation":
            settings.setdefault("reminder_tokens", False)
    for key, value in settings.items():
        _check_setting(key, value)
    return settings


def _check_setting(key: object, value: object) -> None:
    """A setting the ruleset knows, with a value it takes (ruleset.SETTING_CHOICES)."""
    if key not in SETTING_NAMES:
        raise Refused("unknown_setting", setting=str(key)[:40])
    choices = SETTING_CHOICES.get(key)
    if choices is None and not isinstance(value, bool):
        raise Refused("setting_is_a_flag", setting=key, value=str(value)[:20])
    if choices is not None and value not in choices:
        raise Refused(
            "setting_is_one_of", setting=key, choices=list(choices), value=str(value)[:20]
        )


def _check_names(edition: object, mode: object, tracking: object) -> None:
    if not isinstance(edition, str) or edition not in EDITIONS:
        raise Refused("unknown_edition", edition=str(edition)[:20], choices=list(EDITIONS))
    if not isinstance(mode, str) or mode not in MODES:
        raise Refused("unknown_mode", mode=str(mode)[:20], choices=list(MODES))
    if not isinstance(tracking, str) or tracking not in TRACKING:
        raise Refused("unknown_tracking", tracking=str(tracking)[:20], choices=list(TRACKING))


def _seed(setup: dict) -> int:
    """The generator's first value. Every game names its seed: the table server draws 64 bits
    from the operating system and keeps them secret, since the seed decides the complex and
    the roles; a default would deal every unseeded game the same."""
    if "seed" not in setup:
        raise Refused("seed_missing")
    seed = setup["seed"]
    if not _whole(seed) or not 0 <= seed <= SEED_MAX:
        raise Refused("seed_not_a_number")
    return seed


def _deck(ruleset: Ruleset, setup: dict, mac_rooms: bool) -> dict | None:
    """The M.A.C. deck of the game: the packaged reconstruction or the owner's own count. A
    complex with M.A.C. rooms needs the deck even when no card is drawn on a timetable; then
    only the basic cards ("Do not mix [the Madness cards] with the other M.A.C. cards unless
    ...", 000, M.A.C. room)."""
    level = ruleset.settings.mac
    if level == "off" and not mac_rooms:
        return None
    if level not in SETTING_CHOICES["mac"]:
        raise Refused("mac_level")
    try:
        deck = deck_from_data(setup["deck"], "deck") if "deck" in setup else load_deck()
    except DeckError as error:
        raise Refused("mac_deck_problem", problem=error.said) from None
    deck = mac.deck_for(deck, level)
    return {
        "level": level,
        "physical": ruleset.settings.mac_deck == "physical",
        "cards": deck_as_json(deck)["cards"],
    }


def new_game(setup: object) -> Context:
    """Start a game from a setup description; refuse it plainly if it is not a legal game."""
    if not isinstance(setup, dict):
        raise Refused("setup_not_an_object")
    unknown = sorted(str(key) for key in setup if key not in SETUP_KEYS)
    if unknown:
        raise Refused("unknown_setup_key", key=unknown[0][:40])
    edition, mode = setup.get("edition", "base"), setup.get("mode", "suspicion")
    tracking = setup.get("tracking", "dealt")
    _check_names(edition, mode, tracking)
    settings = _settings(setup)
    ruleset = make_ruleset(edition, mode, tracking, settings)
    rng = _seed(setup)
    seats = _seats(ruleset, setup)
    _check_guards(ruleset, len(seats), setup)
    order = turn_order(seats, str(setup.get("first", seats[0]["id"])))
    cast = [c for seat in seats for c in seat["characters"]]
    # The length of the game waits for the cast; the settings were checked above.
    ruleset = replace(ruleset, turns=turns_for(ruleset.edition, ruleset.mode, len(cast)))
    tracked = ruleset.tracking != "countdown"
    counts: Counter = Counter()
    layout: list[str | None] = []
    if "complex" in setup:
        rigged = _rigged(ruleset, setup["complex"], _reserve(ruleset, seats))
        if ruleset.tracking == "physical":
            _check_built(ruleset, rigged)
        layout = list(rigged)
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
            _check_dealable(role_tiles(ruleset, len(seats), setup.get("guards")), roles)
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
        assert ctx.state.mac_deck is not None  # the fold built it from the event
        rng, pile = chance.shuffled(ctx.state.rng, ctx.state.mac_deck.expand())
        ctx.emit({"type": "mac_shuffled", "pile": pile, "rng": rng, "private": "engine"})
    for sid, cid, role in roles:
        ctx.emit(
            {"type": "role_dealt", "seat": sid, "character": cid, "role": role, "private": sid}
        )
    if not tracked:
        flow.start_programming(ctx)
    return ctx


def _check_dealable(tiles: list[str], roles: list[tuple[str, str, str]]) -> None:
    """Rigged roles are a deal the game's role tiles could make: no more guards, and no more
    prisoners, than tiles of each were shuffled (`role_tiles`: the edition, the mode's setting
    and the number of players decide them)."""
    for role in ("guard", "prisoner"):
        dealt = sum(1 for _sid, _cid, r in roles if r == role)
        if dealt > tiles.count(role):
            guards, prisoners = tiles.count("guard"), tiles.count("prisoner")
            raise Refused("roles_not_dealable", guards=guards, prisoners=prisoners)


def _rigged_roles(seats: list[dict], given: object) -> list[tuple[str, str, str]]:
    if not isinstance(given, dict):
        raise Refused("roles_shape")
    roles = []
    for seat in seats:
        cid = seat["characters"][0]
        role = given.get(cid, "prisoner")
        if role not in ("prisoner", "guard"):
            raise Refused("role_value", character=cid, role=str(role)[:20])
        roles.append((seat["id"], cid, role))
    return roles
