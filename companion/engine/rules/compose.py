"""Complex compositions: which room tiles to take out of the box for an edition, mode and table.

The compositions are data (data/compositions.json, data/rooms.json). Where a rulebook leaves
slots "of your choice" or "at random" by colour, `fill` picks the tiles one at a time through a
chooser handed in by the caller (a seeded `random.Random`, the engine's own generator or the host
picking by hand), so this module owns no randomness and the same choices give the same complex.
Quotes and decisions behind the data: docs/compositions.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import Any

from companion import words
from companion.words.said import Said, say

from ..kernel import catalogue
from ..kernel.ruleset import EDITIONS, MAC_LEVELS, MODES, TOGETHER_MODES, mac_level

COLOURS = ("blue", "green", "yellow", "red")
FREE_COLOURS = ("green", "yellow", "red")
COMPLEX_ROOMS = 23  # besides the Central room and Room 25 (001, COMPOSITION OF THE COMPLEX)
EXIT_CELLS = 12  # three cells around each corner (001 / 000, Construction of the Complex)
CENTRAL = "central"
ROOM25 = "room25"


Chooser = Callable[[Sequence[str]], str]
"""Picks one room id among the offered ones; the options hold one entry per tile left."""


class CatalogueError(ValueError):
    """A data file contradicts itself or the box: a packaging bug, reported before any game."""


class CompositionError(ValueError):
    """A request that no composition or box can satisfy, explained in words a host can act on:
    a code of the catalogue (`compose_error_<code>`, words/<lang>/compose.json) and its values,
    said in the reader's language (`text`); in the fallback language as a plain exception."""

    def __init__(self, code: str, /, **params: object) -> None:
        self.said = say(f"compose_error_{code}", **params)
        super().__init__(str(self.said))

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


def _room(rid: str) -> Said:
    return say(f"room_name_{rid}")


def _table(edition: str, mode: str) -> Said:
    """An edition and a mode as the pages name them ("Season 2 Suspicion")."""
    return say("compose_table", edition=say(f"edition_{edition}"), mode=say(f"mode_{mode}"))


@dataclass(frozen=True)
class Room:
    """A kind of room tile and how many tiles of it each edition's box holds."""

    id: str
    colour: str
    box: Mapping[str, int] = field(hash=False)
    replaces: str | None = None

    def name(self, lang: str = "") -> str:
        """The room as the rulebook of the language names it (the catalogue's)."""
        return catalogue.room_name(self.id, lang)

    def text(self, lang: str = "") -> str:
        """The room's effect as the rulebook of the language prints it."""
        return catalogue.room_text(self.id, lang)


@dataclass(frozen=True)
class Composition:
    """A suggested complex: named tiles, free slots per colour, and tiles set back in the box."""

    id: str
    edition: str
    rooms: Mapping[str, int] = field(hash=False)
    random: Mapping[str, int] = field(hash=False)
    removed: Mapping[str, int] = field(hash=False)
    level: str | None = None
    guards: int | None = None
    example_of: str | None = None
    wording: str | None = None
    source: str | None = None

    def name(self, lang: str = "") -> str:
        """The composition as the language names it (the catalogue's)."""
        return catalogue.composition_name(self.id, lang)

    @property
    def size(self) -> int:
        """Rooms besides the Central room and Room 25; the rules want 23."""
        return sum(self.rooms.values()) + sum(self.random.values())

    @property
    def is_complete(self) -> bool:
        """True when no slot is left to choose."""
        return not any(self.random.values())


@dataclass(frozen=True)
class TileLine:
    """One line of what to take out of the box; placement is 'centre', 'exit' or 'any'."""

    room: str
    colour: str
    count: int
    placement: str

    def name(self, lang: str = "") -> str:
        """The room of the line as the rulebook of the language names it."""
        return catalogue.room_name(self.room, lang)


@dataclass(frozen=True)
class TileList:
    """Everything a host needs to lay out the complex from the box."""

    edition: str
    composition: str
    lines: tuple[TileLine, ...]
    unfilled: Mapping[str, int] = field(hash=False)
    wording: str | None = None
    removed: Mapping[str, int] = field(hash=False, default_factory=dict)
    reserve: Mapping[str, int] = field(hash=False, default_factory=dict)

    @property
    def exit_zone(self) -> tuple[TileLine, ...]:
        """The lines set aside for the twelve exit-zone cells (Room 25 always among them)."""
        return tuple(line for line in self.lines if line.placement == "exit")

    @property
    def tiles(self) -> int:
        return sum(line.count for line in self.lines) + sum(self.unfilled.values())


@dataclass(frozen=True)
class _Use:
    edition: str
    mode: str
    players: tuple[int, ...]
    compositions: tuple[str, ...]


@dataclass(frozen=True)
class _Catalogues:
    rooms: Mapping[str, Room]
    compositions: Mapping[str, Composition]
    uses: tuple[_Use, ...]
    exit_zone: Mapping[str, frozenset[str]]
    tiles: Mapping[str, int]

    def box(self, edition: str) -> dict[str, int]:
        return {rid: room.box[edition] for rid, room in self.rooms.items()}


# ---------------------------------------------------------------------------------------------
# Loading and validation


@cache
def _catalogues() -> _Catalogues:
    return _build(catalogue.load("rooms.json"), catalogue.load("compositions.json"))


def validate_catalogues(
    rooms_data: Mapping[str, Any], compositions_data: Mapping[str, Any]
) -> None:
    """Check raw catalogue data as loaded from JSON; raise CatalogueError naming each fault.

    Public so that owners who correct the data files against their own box can check them.
    """
    _build(rooms_data, compositions_data)


def _fail(problems: list[str]) -> None:
    if problems:
        raise CatalogueError("; ".join(problems))


def _counts(value: Any, what: str, problems: list[str]) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        problems.append(f"{what} must be an object of counts")
        return {}
    result: dict[str, int] = {}
    for key, count in value.items():
        if not isinstance(count, int) or isinstance(count, bool) or count <= 0:
            problems.append(f"{what}: count for {key!r} must be a positive integer, not {count!r}")
            continue
        result[key] = count
    return result


def _build_rooms(rooms_data: Mapping[str, Any]) -> dict[str, Room]:
    problems: list[str] = []
    entries = rooms_data.get("rooms")
    if not isinstance(entries, list):
        raise CatalogueError("rooms.json: 'rooms' must be a list")
    rooms: dict[str, Room] = {}
    for entry in entries:
        rid = entry.get("id")
        if not isinstance(rid, str) or not rid.isascii() or not rid.isalnum() or rid != rid.lower():
            problems.append(f"room id {rid!r} must be lowercase ASCII letters and digits")
            continue
        if rid in rooms:
            problems.append(f"room {rid!r} is listed twice")
            continue
        if entry.get("colour") not in COLOURS:
            problems.append(
                f"room {rid!r} has colour {entry.get('colour')!r}, not one of {COLOURS}"
            )
        box = entry.get("box")
        if not isinstance(box, Mapping):
            problems.append(f"room {rid!r} has no 'box' counts")
            box = {}
        for edition in EDITIONS:
            count = box.get(edition)
            if not isinstance(count, int) or isinstance(count, bool) or count < 0:
                problems.append(f"room {rid!r} has no tile count for edition {edition!r}")
        for edition in box:
            if edition not in EDITIONS:
                problems.append(f"room {rid!r} counts tiles for unknown edition {edition!r}")
        if catalogue.room_name(rid) == rid.replace("_", " "):
            problems.append(f"room {rid!r} has no name in the catalogue (room_name_{rid})")
        rooms[rid] = Room(
            id=rid,
            colour=str(entry.get("colour", "")),
            box=MappingProxyType({e: int(box.get(e, 0) or 0) for e in EDITIONS}),
            replaces=entry.get("replaces"),
        )
    for rid in (CENTRAL, ROOM25):
        if rid not in rooms:
            problems.append(f"rooms.json has no {rid!r} room")
        else:
            for edition in EDITIONS:
                if rooms[rid].box[edition] != 1:
                    problems.append(f"{rid!r} must have exactly one tile in edition {edition!r}")
    for room in rooms.values():
        if room.replaces is not None and room.replaces not in rooms:
            problems.append(f"room {room.id!r} replaces unknown room {room.replaces!r}")
    _fail(problems)
    return rooms


def _build(rooms_data: Mapping[str, Any], compositions_data: Mapping[str, Any]) -> _Catalogues:
    rooms = _build_rooms(rooms_data)
    problems: list[str] = []

    editions = compositions_data.get("editions")
    if not isinstance(editions, Mapping):
        raise CatalogueError("compositions.json: 'editions' must be an object")
    exit_zone: dict[str, frozenset[str]] = {}
    tiles: dict[str, int] = {}
    for edition in EDITIONS:
        info = editions.get(edition)
        if not isinstance(info, Mapping):
            problems.append(f"compositions.json: edition {edition!r} is not described")
            continue
        zone = info.get("exit_zone", [])
        unknown = [rid for rid in zone if rid not in rooms]
        if unknown:
            problems.append(f"edition {edition!r}: exit zone names unknown rooms {unknown}")
        if ROOM25 not in zone:
            problems.append(f"edition {edition!r}: Room 25 must go to the exit zones")
        exit_zone[edition] = frozenset(zone)
        total = sum(room.box[edition] for room in rooms.values())
        tiles[edition] = total
        if info.get("tiles") != total:
            problems.append(
                f"edition {edition!r}: the rulebook's box holds {info.get('tiles')} room tiles "
                f"but rooms.json counts {total}"
            )
    for edition in editions:
        if edition not in EDITIONS:
            problems.append(f"compositions.json describes unknown edition {edition!r}")
    _fail(problems)

    compositions: dict[str, Composition] = {}
    for entry in compositions_data.get("compositions", []):
        comp = _build_composition(entry, rooms, problems)
        if comp is None:
            continue
        if comp.id in compositions:
            problems.append(f"composition {comp.id!r} is listed twice")
            continue
        compositions[comp.id] = comp
    _fail(problems)

    cats = _Catalogues(
        rooms=MappingProxyType(rooms),
        compositions=MappingProxyType(compositions),
        uses=(),
        exit_zone=MappingProxyType(exit_zone),
        tiles=MappingProxyType(tiles),
    )
    for comp in compositions.values():
        problems.extend(_box_problems(cats, comp))
        if comp.example_of is not None:
            parent = compositions.get(comp.example_of)
            if parent is None:
                problems.append(
                    f"composition {comp.id!r} is an example of unknown {comp.example_of!r}"
                )
            elif parent.edition != comp.edition:
                problems.append(f"example {comp.id!r} and {parent.id!r} are of different editions")
            elif not comp.is_complete:
                problems.append(f"example {comp.id!r} must name all its rooms")
            else:
                problems.extend(
                    f"example {comp.id!r} does not fit {parent.id!r}: {p}"
                    for p in _filled_problems(cats, parent, comp.rooms, {})
                )
    _fail(problems)

    uses = _build_uses(compositions_data.get("uses"), compositions, problems)
    _fail(problems)
    return _Catalogues(
        rooms=cats.rooms,
        compositions=cats.compositions,
        uses=uses,
        exit_zone=cats.exit_zone,
        tiles=cats.tiles,
    )


def _build_composition(
    entry: Mapping[str, Any], rooms: Mapping[str, Room], problems: list[str]
) -> Composition | None:
    cid = entry.get("id")
    if not isinstance(cid, str) or not cid:
        problems.append(f"a composition has no id: {entry!r:.80}")
        return None
    where = f"composition {cid!r}"
    if catalogue.composition_name(cid) == cid:
        problems.append(f"{where} has no name in the catalogue (composition_{cid})")
    edition = entry.get("edition")
    if edition not in EDITIONS:
        problems.append(f"{where} has unknown edition {edition!r}")
        return None
    fixed = _counts(entry.get("rooms"), f"{where} rooms", problems)
    free = _counts(entry.get("random"), f"{where} random", problems)
    removed = _counts(entry.get("removed"), f"{where} removed", problems)
    before = len(problems)
    for rid in [*fixed, *removed]:
        if rid not in rooms:
            problems.append(f"{where} names unknown room {rid!r}")
    for rid in (CENTRAL, ROOM25):
        if rid in fixed:
            problems.append(
                f"{where} lists {rid!r}: the Central room and Room 25 come with every complex; "
                f"list only the {COMPLEX_ROOMS} others"
            )
    for colour in free:
        if colour not in FREE_COLOURS:
            problems.append(
                f"{where} has random slots of colour {colour!r}, not one of {FREE_COLOURS}"
            )
    level = entry.get("level")
    if level is not None and level not in MAC_LEVELS:
        problems.append(f"{where} has unknown level {level!r}")
    guards = entry.get("guards")
    if guards not in (None, 1, 2):
        problems.append(f"{where} has {guards!r} guards; Suspicion plays with 1 or 2")
    size = sum(fixed.values()) + sum(free.values())
    if size != COMPLEX_ROOMS:
        problems.append(
            f"{where} has {size} rooms besides the Central room and Room 25, not {COMPLEX_ROOMS}"
        )
    if len(problems) > before:
        return None
    return Composition(
        id=cid,
        edition=edition,
        rooms=MappingProxyType(fixed),
        random=MappingProxyType(free),
        removed=MappingProxyType(removed),
        level=level,
        guards=guards,
        example_of=entry.get("example_of"),
        wording=entry.get("wording"),
        source=entry.get("source"),
    )


def _build_uses(
    entries: Any, compositions: Mapping[str, Composition], problems: list[str]
) -> tuple[_Use, ...]:
    if not isinstance(entries, list):
        problems.append("compositions.json: 'uses' must be a list")
        return ()
    uses: list[_Use] = []
    for entry in entries:
        edition, mode = entry.get("edition"), entry.get("mode")
        where = f"use ({edition!r}, {mode!r})"
        if edition not in EDITIONS or mode not in MODES:
            problems.append(f"{where}: unknown edition or mode")
            continue
        players = entry.get("players")
        if (
            not isinstance(players, list)
            or not players
            or not all(isinstance(n, int) and 1 <= n <= 8 for n in players)
        ):
            problems.append(f"{where}: players must be a list of numbers from 1 to 8")
            continue
        ids = entry.get("compositions")
        if not isinstance(ids, list) or not ids:
            problems.append(f"{where}: no compositions")
            continue
        for cid in ids:
            comp = compositions.get(cid)
            if comp is None:
                problems.append(f"{where} names unknown composition {cid!r}")
            elif comp.edition != edition:
                problems.append(
                    f"{where} offers {cid!r}, a composition of edition {comp.edition!r}"
                )
        uses.append(_Use(edition, mode, tuple(players), tuple(ids)))
    return tuple(uses)


def _box_problems(cats: _Catalogues, comp: Composition) -> list[str]:
    """Named and set-back tiles must exist in the box, and enough must be left for each colour."""
    problems: list[str] = []
    box = cats.box(comp.edition)
    for rid in sorted(set(comp.rooms) | set(comp.removed)):
        wanted = comp.rooms.get(rid, 0) + comp.removed.get(rid, 0)
        if wanted > box[rid]:
            problems.append(
                f"composition {comp.id!r} asks {wanted} {cats.rooms[rid].name()} tiles "
                f"(named or set back) but the {comp.edition} box has {box[rid]}"
            )
    for colour, count in comp.random.items():
        left = sum(
            max(0, box[rid] - comp.rooms.get(rid, 0) - comp.removed.get(rid, 0))
            for rid, room in cats.rooms.items()
            if room.colour == colour
        )
        if count > left:
            problems.append(
                f"composition {comp.id!r} wants {count} more {colour} rooms but only {left} "
                f"{colour} tiles are left in the {comp.edition} box"
            )
    return problems


def _filled_problems(
    cats: _Catalogues, comp: Composition, rooms: Mapping[str, int], reserve: Mapping[str, int]
) -> list[Said]:
    """Why `rooms` is not a valid complex for `comp` (empty when it is)."""
    problems: list[Said] = []
    unknown = sorted(rid for rid in rooms if rid not in cats.rooms)
    if unknown:
        return [say("compose_problem_unknown_rooms", rooms=", ".join(map(repr, unknown)))]
    for rid in (CENTRAL, ROOM25):
        if rooms.get(rid):
            problems.append(
                say("compose_problem_not_complex", room=_room(rid), count=COMPLEX_ROOMS)
            )
    total = sum(rooms.values())
    if total != COMPLEX_ROOMS:
        problems.append(say("compose_problem_total", total=total, count=COMPLEX_ROOMS))
    for rid, count in comp.rooms.items():
        if rooms.get(rid, 0) < count:
            has = rooms.get(rid, 0)
            problems.append(say("compose_problem_needs", count=count, room=_room(rid), has=has))
    extra: Counter[str] = Counter()
    for rid, count in rooms.items():
        extra[cats.rooms[rid].colour] += count - comp.rooms.get(rid, 0)
    for colour in COLOURS:
        if extra[colour] != comp.random.get(colour, 0):
            problems.append(
                say("compose_problem_colour", extra=extra[colour],
                    colour=say(f"compose_colour_{colour}"), left=comp.random.get(colour, 0))
            )  # fmt: skip
    box = cats.box(comp.edition)
    for rid in cats.rooms:
        used = rooms.get(rid, 0) + comp.removed.get(rid, 0) + reserve.get(rid, 0)
        if used > box[rid]:
            problems.append(
                say("compose_problem_box", used=rooms.get(rid, 0), room=_room(rid),
                    edition=say(f"edition_{comp.edition}"), box=box[rid],
                    removed=comp.removed.get(rid, 0), kept=reserve.get(rid, 0))
            )  # fmt: skip
    return problems


# ---------------------------------------------------------------------------------------------
# Public look-ups


def rooms_catalogue() -> dict[str, Room]:
    """Every room kind, by id, in catalogue order (a fresh dict: callers may keep or change it)."""
    return dict(_catalogues().rooms)


def compositions_catalogue() -> dict[str, Composition]:
    """Every composition of every edition, by id."""
    return dict(_catalogues().compositions)


def exit_zone_rooms(edition: str) -> frozenset[str]:
    """The room kinds the edition's setup sets aside for the exit zones."""
    _check_edition(edition)
    return _catalogues().exit_zone[edition]


def legal_players(edition: str, mode: str) -> tuple[int, ...]:
    """Numbers of players the edition's rules allow for the mode (empty if it has no such mode)."""
    _check_edition(edition)
    _check_mode(mode)
    found = {
        n
        for use in _catalogues().uses
        if (use.edition, use.mode) == (edition, mode)
        for n in use.players
    }
    return tuple(sorted(found))


def compositions_for(
    edition: str,
    mode: str,
    players: int,
    *,
    guards: int | None = None,
    level: str | None = None,
) -> list[Composition]:
    """The compositions a host may pick for this table, suggestions first, examples after.

    `guards` (Suspicion) and `level` (Cooperation, Solo) narrow the list; a composition that
    does not depend on them stays in it.
    """
    level = mac_level(level)
    legal = legal_players(edition, mode)
    label = _table(edition, mode)
    if not legal:
        raise CompositionError("no_mode", table=label)
    if players not in legal:
        raise CompositionError("players", table=label, legal=_spell(legal), players=players)
    cats = _catalogues()
    ids: list[str] = []
    for use in cats.uses:
        if (use.edition, use.mode) == (edition, mode) and players in use.players:
            ids.extend(cid for cid in use.compositions if cid not in ids)
    found = [cats.compositions[cid] for cid in ids]
    found = [c for c in found if guards is None or c.guards in (None, guards)]
    found = [c for c in found if level is None or c.level in (None, level)]
    if not found:
        raise CompositionError(
            "no_composition", table=label, players=players, guards=guards, level=level
        )
    return sorted(found, key=lambda c: c.example_of is not None)


def get_composition(composition_id: str) -> Composition:
    """One composition by id, with a clear error for a typo."""
    comps = _catalogues().compositions
    if composition_id not in comps:
        shown = composition_id if len(composition_id) <= 60 else composition_id[:57] + "..."
        raise CompositionError("unknown", composition=shown)
    return comps[composition_id]


def check_table_options(
    edition: str, mode: str, *, guards: int | None = None, level: str | None = None
) -> None:
    """Refuse a choice that the table's edition and mode do not have, rather than ignore it:
    the 1-or-2 guards choice is Suspicion's from Season 2 on (002, MODES; 000, SUSPICION
    SETUP), the M.A.C. level Cooperation's and Solo's from Season 2 on (002 and 000)."""
    _check_edition(edition)
    _check_mode(mode)
    if guards is not None and (edition == "base" or mode != "suspicion"):
        raise CompositionError("no_guards", table=_table(edition, mode))
    if level is not None and (edition == "base" or mode not in TOGETHER_MODES):
        raise CompositionError("no_level", table=_table(edition, mode))


def composition_for_table(
    edition: str,
    mode: str,
    players: int,
    composition_id: str | None = None,
    *,
    guards: int | None = None,
    level: str | None = None,
) -> tuple[Composition, list[Composition]]:
    """The composition for this table (the one named, or the first suggested) and the other
    ones it could use; a named one that is not for this table is refused, naming those that
    are."""
    check_table_options(edition, mode, guards=guards, level=level)
    if guards is not None and players != 5:
        raise CompositionError("guards_players", players=players)
    options = compositions_for(edition, mode, players, guards=guards, level=level)
    if composition_id is None:
        return options[0], options[1:]
    chosen = get_composition(composition_id)
    if chosen not in options:
        listed = [c.id for c in options]
        raise CompositionError(
            "not_for_table", composition=chosen.id, table=_table(edition, mode),
            players=players, listed=listed,
        )  # fmt: skip
    return chosen, [c for c in options if c is not chosen]


# ---------------------------------------------------------------------------------------------
# Filling and checking


def fill(
    composition: Composition,
    rng: random.Random | Chooser,
    *,
    reserve: Mapping[str, int] | None = None,
) -> dict[str, int]:
    """The 23 rooms of one complex: the named tiles plus free slots picked tile by tile.

    Each free slot offers the tiles of its colour still in the box (after the named tiles, the
    ones the composition sets back, and `reserve`, e.g. the Empty rooms Sarah and Bruce receive),
    one option per tile, so `random.Random.choice` is uniform over physical tiles. Raises
    CompositionError when the box cannot supply the slots or the chooser answers off the list.
    """
    cats = _catalogues()
    choose = _chooser(rng)
    kept = _reserve(cats, reserve)
    box = cats.box(composition.edition)
    pool = {
        rid: box[rid]
        - composition.rooms.get(rid, 0)
        - composition.removed.get(rid, 0)
        - kept.get(rid, 0)
        for rid in cats.rooms
    }
    short = [rid for rid, n in pool.items() if n < 0]
    if short:
        raise CompositionError(
            "box_short", edition=say(f"edition_{composition.edition}"),
            composition=composition.id, rooms=[_room(rid) for rid in short],
        )  # fmt: skip
    result: Counter[str] = Counter(composition.rooms)
    for colour in FREE_COLOURS:
        for _ in range(composition.random.get(colour, 0)):
            options = tuple(
                rid
                for rid, room in cats.rooms.items()
                if room.colour == colour
                for _ in range(pool[rid])
            )
            if not options:
                raise CompositionError(
                    "no_tile_left", colour=say(f"compose_colour_{colour}"),
                    edition=say(f"edition_{composition.edition}"), composition=composition.id,
                    reserve=str(dict(kept)),
                )  # fmt: skip
            pick = choose(options)
            if pick not in options:
                raise CompositionError("chooser", pick=pick, colour=say(f"compose_colour_{colour}"))
            pool[pick] -= 1
            result[pick] += 1
    filled = {rid: result[rid] for rid in cats.rooms if result[rid]}
    problems = _filled_problems(cats, composition, filled, kept)
    if problems:  # a guard against the code above, not against the caller
        raise CompositionError("filled", composition=composition.id, problems=problems)
    return filled


def check(
    composition: Composition,
    rooms: Mapping[str, int],
    *,
    reserve: Mapping[str, int] | None = None,
) -> None:
    """Raise CompositionError unless `rooms` is a complex the composition and box allow.

    For complexes made by hand (a host choosing the free slots) or read back from a saved game.
    """
    cats = _catalogues()
    problems = _filled_problems(cats, composition, rooms, _reserve(cats, reserve))
    if problems:
        raise CompositionError("not_complex", composition=composition.id, problems=problems)


def tile_list(
    composition: Composition,
    rooms: Mapping[str, int] | None = None,
    *,
    reserve: Mapping[str, int] | None = None,
) -> TileList:
    """What to take out of the box: Central room, Room 25 and the 23 rooms, exit zones marked.

    Without `rooms`, a composition with free slots lists its named tiles and leaves the slots
    per colour in `unfilled`, for a host who picks them by hand.
    """
    cats = _catalogues()
    kept = _reserve(cats, reserve)
    if rooms is None:
        chosen: Mapping[str, int] = composition.rooms
        unfilled = dict(composition.random)
    else:
        check(composition, rooms, reserve=kept)
        chosen, unfilled = rooms, {}
    zone = cats.exit_zone[composition.edition]
    counts = {CENTRAL: 1, ROOM25: 1, **{rid: n for rid, n in chosen.items() if n}}
    order = {rid: i for i, rid in enumerate(cats.rooms)}
    lines = []
    for rid in sorted(counts, key=lambda r: (COLOURS.index(cats.rooms[r].colour), order[r])):
        room = cats.rooms[rid]
        placement = "centre" if rid == CENTRAL else "exit" if rid in zone else "any"
        lines.append(TileLine(rid, room.colour, counts[rid], placement))
    at_exit = sum(line.count for line in lines if line.placement == "exit")
    if at_exit > EXIT_CELLS:
        raise CompositionError("exit_cells", count=at_exit, cells=EXIT_CELLS)
    return TileList(
        edition=composition.edition,
        composition=composition.id,
        lines=tuple(lines),
        unfilled=MappingProxyType(unfilled),
        wording=composition.wording,
        removed=MappingProxyType(dict(composition.removed)),
        reserve=MappingProxyType(kept),
    )


def format_tile_list(tiles: TileList, *, lang: str = "") -> str:
    """Plain text for the terminal (`room25 compose`): one line per kind, then how to lay out."""
    lang = lang or words.fallback()
    if lang not in words.languages():
        raise ValueError(f"unknown language {lang!r}: choose one of {', '.join(words.languages())}")
    found = words.texts(lang)
    text = {k.removeprefix("compose_"): v for k, v in found.items() if k.startswith("compose_")}
    colours = {c: text[f"colour_{c}"] for c in COLOURS}
    cats = _catalogues()
    width = max(len(line.name(lang)) for line in tiles.lines)
    edition = found[f"edition_{tiles.edition}"]
    name = catalogue.composition_name(tiles.composition, lang)
    title = name if name.startswith(edition) else f"{edition}{words.colon(lang)}{name}"
    out = [title, words.fill(lang, text["take"], {"n": tiles.tiles})]
    for line in tiles.lines:
        where = {"centre": text["centre"], "exit": text["exit"]}.get(line.placement, "")
        row = f"  {colours[line.colour]:<7} {line.count:>2}  {line.name(lang):<{width}}  {where}"
        out.append(row.rstrip())
    for colour in FREE_COLOURS:
        n = tiles.unfilled.get(colour, 0)
        if n:
            out.append(f"  {colours[colour]:<7} {n:>2}  {words.counted(lang, 'compose_free', n)}")
    if tiles.removed:
        out.append(words.fill(lang, text["removed"], {"items": _items(cats, tiles.removed, lang)}))
    if tiles.reserve:
        out.append(words.fill(lang, text["reserve"], {"items": _items(cats, tiles.reserve, lang)}))
    k = sum(line.count for line in tiles.exit_zone)
    others = tiles.tiles - 1 - k
    out.append(words.fill(lang, text["build"], {"k": k, "rest": others, "left": others - 12}))
    if tiles.unfilled:
        zone = cats.exit_zone[tiles.edition] - {ROOM25}
        pending = [
            cats.rooms[rid].name(lang)
            for rid in cats.rooms
            if rid in zone and cats.rooms[rid].colour in tiles.unfilled
        ]
        if pending:
            out.append(words.fill(lang, text["pending"], {"names": ", ".join(pending)}))
    if tiles.edition != "base":  # Key, Timer, Regeneration and sabotage leave an Empty room
        out.append(text["empty"])
    return "\n".join(out)


# ---------------------------------------------------------------------------------------------
# Helpers


def _check_edition(edition: str) -> None:
    if edition not in EDITIONS:
        raise CompositionError("edition", edition=edition, known=list(EDITIONS))


def _check_mode(mode: str) -> None:
    if mode not in MODES:
        raise CompositionError("mode", mode=mode, known=list(MODES))


def _chooser(rng: random.Random | Chooser) -> Chooser:
    if isinstance(rng, random.Random):
        return rng.choice
    if callable(rng):
        return rng
    raise TypeError("rng must be a random.Random or a chooser taking a sequence of room ids")


def _reserve(cats: _Catalogues, reserve: Mapping[str, int] | None) -> dict[str, int]:
    kept: dict[str, int] = {}
    for rid, count in (reserve or {}).items():
        if rid not in cats.rooms:
            raise CompositionError("reserve_room", room=rid)
        if not isinstance(count, int) or count < 0:
            raise CompositionError("reserve_count", count=repr(count), room=rid)
        if count:
            kept[rid] = count
    return kept


def _items(cats: _Catalogues, counts: Mapping[str, int], lang: str) -> str:
    return ", ".join(f"{n} {cats.rooms[rid].name(lang)}" for rid, n in counts.items())


def _spell(numbers: Iterable[int]) -> Said:
    """Numbers of players as a person says them: "2 to 8", "4 or 5"."""
    values = sorted(numbers)
    if values == list(range(values[0], values[-1] + 1)) and len(values) > 2:
        return say("compose_range", low=values[0], high=values[-1])
    return say("compose_either", numbers=values)
