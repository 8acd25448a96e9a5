"""Complex compositions for every edition and mode (issue 3, point 6): engine/rules/compose.py.

Sources, quoted by file and section: 001_30b8f356e0d93ba4.txt (base rulebook, English),
002_e232164e7c8dd598.txt (Season 2, French), 000_f9f1d5a43eaf8620.txt (Ultimate, English),
003_f72be89fec97774d.txt (online adaptation). Decisions: docs/compositions.md.
"""

from __future__ import annotations

import copy
import json
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from importlib import resources

import pytest

from companion import words
from companion.engine import compose
from companion.engine.kernel.catalogue import box as box_contents
from companion.engine.rules.compose import CatalogueError, CompositionError

ALL = compose.compositions_catalogue()
ROOMS = compose.rooms_catalogue()
WITH_FREE_SLOTS = [c for c in ALL.values() if not c.is_complete]
SETUPS = [
    (edition, mode, players)
    for edition in compose.EDITIONS
    for mode in compose.MODES
    for players in compose.legal_players(edition, mode)
]


def raw(name: str) -> dict:
    text = resources.files("companion.engine").joinpath("data").joinpath(name).read_text("utf-8")
    return json.loads(text)


def colour_counts(rooms: dict[str, int]) -> Counter[str]:
    counts: Counter[str] = Counter()
    for rid, n in rooms.items():
        counts[ROOMS[rid].colour] += n
    return counts


def first_of(preferred: Sequence[str]):
    """A chooser that takes the first preferred kind on offer, else the first option."""

    def choose(options: Sequence[str]) -> str:
        for rid in preferred:
            if rid in options:
                return rid
        return options[0]

    return choose


# --- the box ---------------------------------------------------------------------------------


def test_box_sizes_match_the_rulebooks() -> None:
    """001 GAME CONTENT: "32 room tiles"; 002 CONTENU DU JEU: "15 tuiles de salles" added to a base
    box; 000 GAME CONTENT: "47 Room tiles"."""
    totals = {e: sum(box_contents(e).values()) for e in compose.EDITIONS}
    assert totals == {"base": 32, "season2": 32 + 15, "ultimate": 47}


def test_base_box_is_the_printed_list() -> None:
    """001 COMPOSITION OF THE COMPLEX lists the box: "8 Empty chambers, 2 Dark chambers, 2 Cold
    chambers, 2 Trapped chambers, 2 Flooded chambers, 2 Acid baths, 2 Vortex chambers, 2 Mortal
    chambers, 2 Prison cells, 2 Twin chambers, 1 Vision chamber, 1 Control room, 1 Illusion
    chamber, 1 Moving room, 1 Central room, 1 Room 25"."""
    box = {rid: n for rid, n in box_contents("base").items() if n}
    assert box == {
        "empty": 8,
        "dark": 2,
        "cold": 2,
        "trapped": 2,
        "flooded": 2,
        "acid": 2,
        "vortex": 2,
        "mortal": 2,
        "prison": 2,
        "twin": 2,
        "vision": 1,
        "control": 1,
        "illusion": 1,
        "moving": 1,
        "central": 1,
        "room25": 1,
    }


def test_season2_tiles_are_the_fewest_its_texts_need() -> None:
    """002 never prints per-kind counts, but: "les trois salles Tunnel" (Salle tunnel), robots
    "jusqu'à deux simultanément (un par salle Robot activée)" (LES ROBOTS), and the examples use
    "2 salles M.A.C.", "2 salles Pivot", "2 salles Broyeur"; every other one of the "10 nouveaux
    types de salles" at least once. Those minima add up to the 15 tiles of the box, so they are
    the counts (Ultimate holds the same 47 tiles)."""
    s2 = box_contents("season2")
    new = {
        "tunnel": 3,
        "robot": 2,
        "mac": 2,
        "pivoting": 2,
        "shredder": 2,
        "regeneration": 1,
        "paranoia": 1,
        "mirror": 1,
        "timer": 1,
        "jamming": 1,
        "key": 1,
    }
    assert {rid: s2[rid] for rid in new} == new
    added = sum(new.values()) - box_contents("base")["twin"]
    assert added == 15
    assert box_contents("ultimate") == s2


def test_twin_chambers_are_the_tunnel_rooms() -> None:
    """000 ROOMS, Tunnel chamber: "This room has the same effect as the Tunnel chamber from the
    base game"; 004 SALLE JUMELLE and 002 Salle tunnel carry the same "transporteur moléculaire"
    line. The two base tiles count as Tunnel rooms once Season 2 rules apply."""
    assert ROOMS["tunnel"].replaces == "twin"
    for edition in ("season2", "ultimate"):
        assert box_contents(edition)["twin"] == 0
        for comp in ALL.values():
            if comp.edition == edition:
                assert "twin" not in comp.rooms


def test_colours_follow_the_season2_and_ultimate_lists() -> None:
    """000 ROOMS: "green rooms = safe", "yellow rooms = obstacle", "red rooms = mortal danger";
    the per-room lists in shared/design.md (Editions and rule decisions)."""
    expected = {
        "blue": {"central", "room25", "key"},
        "green": {
            "empty",
            "vision",
            "control",
            "moving",
            "twin",
            "tunnel",
            "robot",
            "regeneration",
        },
        "yellow": {"dark", "cold", "prison", "vortex", "pivoting", "jamming", "mirror", "mac"},
        "red": {
            "mortal",
            "acid",
            "trapped",
            "flooded",
            "shredder",
            "timer",
            "paranoia",
            "illusion",
        },
    }
    actual: dict[str, set[str]] = {c: set() for c in compose.COLOURS}
    for room in ROOMS.values():
        actual[room.colour].add(room.id)
    assert actual == expected


# --- the compositions ------------------------------------------------------------------------


@pytest.mark.parametrize("comp", ALL.values(), ids=list(ALL))
def test_every_composition_has_23_rooms(comp: compose.Composition) -> None:
    """001 COMPOSITION OF THE COMPLEX: "Additionally to the Central room and Room 25, take the 23
    rooms corresponding to the mode and the difficulty chosen"; the Season 2 and Ultimate tables
    add up to 23 in every column once the Central room and Room 25 are set apart."""
    assert comp.size == 23
    assert "central" not in comp.rooms and "room25" not in comp.rooms


@pytest.mark.parametrize("comp", ALL.values(), ids=list(ALL))
def test_no_composition_asks_more_than_the_box(comp: compose.Composition) -> None:
    """A complex is taken out of one box (000 CONSTRUCTION OF THE COMPLEX): named tiles plus the
    tiles set back must exist, and each colour must keep enough tiles for its free slots."""
    box = box_contents(comp.edition)
    for rid in set(comp.rooms) | set(comp.removed):
        assert comp.rooms.get(rid, 0) + comp.removed.get(rid, 0) <= box[rid], rid
    for colour, count in comp.random.items():
        left = sum(
            box[rid] - comp.rooms.get(rid, 0) - comp.removed.get(rid, 0)
            for rid, room in ROOMS.items()
            if room.colour == colour
        )
        assert count <= left, colour


S2_SUSPICION = "002 MODES : SUSPICION, COMPÉTITION ET PAR ÉQUIPE, table SALLES"
EXPECTED = {
    # 002 table: "VERT 5 au choix | JAUNE 1 salle Brouillage + 7 au choix | ROUGE 2 salles
    # Mortelles + 1 salle Chrono + 7 au choix" (Suspicion avec 1 gardien, 4 à 5 joueurs).
    "s2-suspicion-1-guard": (
        {"jamming": 1, "mortal": 2, "timer": 1},
        {"green": 5, "yellow": 7, "red": 7},
        {},
    ),
    # "1 salle Régénération + 1 salle Robot + 5 au choix | 1 salle Brouillage + 7 au choix |
    # 1 salle Mortelle + 2 salles Broyeur + 5 au choix" (avec 2 gardiens, 5 à 8 joueurs).
    "s2-suspicion-2-guards": (
        {"regeneration": 1, "robot": 1, "jamming": 1, "mortal": 1, "shredder": 2},
        {"green": 5, "yellow": 7, "red": 5},
        {},
    ),
    # "1 salle Régénération + 5 au choix | 2 salles Prison + 5 au choix | 2 salles Mortelles +
    # 8 au choix" (Modes Compétition ou par équipe).
    "s2-competition-team": (
        {"regeneration": 1, "prison": 2, "mortal": 2},
        {"green": 5, "yellow": 5, "red": 8},
        {},
    ),
    # 002 MODES : COOPERATION ET SOLO, COMPOSITION DU COMPLEXE: "Retirez l'une des 2 salles
    # Vortex. En mode solo, retirez également Brouillage et Miroir." BLEU "+ salle Clé"; NIVEAU
    # STANDARD "2 salles Tunnel +1 Salle Robot + 1 Salle Vide | 2 salles Pivot + 5 au choix ou au
    # hasard | 2 salles Mortelles + 1 salle Chrono + 8 au choix ou au hasard".
    "s2-cooperation-standard": (
        {"key": 1, "tunnel": 2, "robot": 1, "empty": 1, "pivoting": 2, "mortal": 2, "timer": 1},
        {"yellow": 5, "red": 8},
        {"vortex": 1},
    ),
    # NIVEAU MADNESS: "2 salles Tunnel +1 Salle Robot | 2 salles Pivot + 5 ... | 2 salles
    # Mortelles + 1 salle Chrono + 1 salle Paranoïa + 8 au choix ou au hasard".
    "s2-cooperation-madness": (
        {"key": 1, "tunnel": 2, "robot": 1, "pivoting": 2, "mortal": 2, "timer": 1, "paranoia": 1},
        {"yellow": 5, "red": 8},
        {"vortex": 1},
    ),
    "s2-solo-standard": (
        {"key": 1, "tunnel": 2, "robot": 1, "empty": 1, "pivoting": 2, "mortal": 2, "timer": 1},
        {"yellow": 5, "red": 8},
        {"vortex": 1, "jamming": 1, "mirror": 1},
    ),
    "s2-solo-madness": (
        {"key": 1, "tunnel": 2, "robot": 1, "pivoting": 2, "mortal": 2, "timer": 1, "paranoia": 1},
        {"yellow": 5, "red": 8},
        {"vortex": 1, "jamming": 1, "mirror": 1},
    ),
    # 000 GAME MODE 1 : SUSPICION, table ROOMS: same columns as Season 2, "of your choice".
    "ultimate-suspicion-1-guard": (
        {"jamming": 1, "mortal": 2, "timer": 1},
        {"green": 5, "yellow": 7, "red": 7},
        {},
    ),
    "ultimate-suspicion-2-guards": (
        {"regeneration": 1, "robot": 1, "jamming": 1, "mortal": 1, "shredder": 2},
        {"green": 5, "yellow": 7, "red": 5},
        {},
    ),
    # 000 GAME MODE 2: COOPERATION: "BLUE Central room + Room 25 + Key room | GREEN 2 Tunnel rooms
    # +1 Robot room + 1 Empty room | YELLOW 2 Pivoting room + 5 of your choice or random | RED 2
    # Mortal rooms + 1 Timer room + 8 of your choice or random". No room is removed.
    "ultimate-cooperation": (
        {"key": 1, "tunnel": 2, "robot": 1, "empty": 1, "pivoting": 2, "mortal": 2, "timer": 1},
        {"yellow": 5, "red": 8},
        {},
    ),
    # Carried over from the Season 2 column (docs/compositions.md).
    "ultimate-competition-team": (
        {"regeneration": 1, "prison": 2, "mortal": 2},
        {"green": 5, "yellow": 5, "red": 8},
        {},
    ),
}


@pytest.mark.parametrize("cid", list(EXPECTED))
def test_suggestions_are_the_printed_tables(cid: str) -> None:
    """Each Season 2 / Ultimate suggestion is its column, read literally (quotes beside
    EXPECTED). The online adaptation's 6-player column (003 Game Setup: "1 Mortal rooms + 2
    Shredder rooms + 7 random tiles") would give 25 rooms, so the rulebooks' 5 is kept."""
    comp = ALL[cid]
    assert (dict(comp.rooms), dict(comp.random), dict(comp.removed)) == EXPECTED[cid]


def test_base_compositions_are_kept() -> None:
    """shared/design.md, Editions and rule decisions: the reconstructed Beginner, Expert
    Competition and Expert Suspicion lists (001 COMPOSITION OF THE COMPLEX lost its icons)."""
    assert dict(ALL["beginner"].rooms) == {
        "empty": 8,
        "dark": 2,
        "cold": 2,
        "trapped": 2,
        "flooded": 2,
        "acid": 2,
        "vortex": 2,
        "mortal": 1,
        "control": 1,
        "vision": 1,
    }
    assert dict(ALL["expert-competition"].rooms) == {
        "empty": 4,
        "dark": 2,
        "cold": 2,
        "trapped": 2,
        "flooded": 2,
        "acid": 2,
        "twin": 2,
        "prison": 2,
        "mortal": 1,
        "vortex": 1,
        "control": 1,
        "illusion": 1,
        "vision": 1,
    }
    assert dict(ALL["expert-suspicion"].rooms) == {
        "empty": 6,
        "dark": 2,
        "cold": 2,
        "trapped": 2,
        "flooded": 2,
        "acid": 2,
        "mortal": 2,
        "vortex": 1,
        "control": 1,
        "illusion": 1,
        "moving": 1,
        "vision": 1,
    }
    for cid in ("beginner", "expert-competition", "expert-suspicion"):
        assert ALL[cid].is_complete and ALL[cid].edition == "base"


def test_rulebook_examples_fit_their_suggestions() -> None:
    """002 "Exemple de complexe SUSPICION 1 gardien", "... SUSPICION 2 gardiens" and "...
    COOPERATION - niveau standard" are complete complexes: each must satisfy its column. Their
    "salle Mystère" is read as the Illusion room (shared/design.md)."""
    examples = [c for c in ALL.values() if c.example_of]
    assert {c.id for c in examples} == {
        "s2-suspicion-1-guard-example",
        "s2-suspicion-2-guards-example",
        "s2-cooperation-standard-example",
    }
    for example in examples:
        assert example.is_complete
        compose.check(ALL[example.example_of], example.rooms)
    assert ALL["s2-suspicion-1-guard-example"].rooms["illusion"] == 1
    assert ALL["s2-suspicion-2-guards-example"].rooms["illusion"] == 1
    assert colour_counts(dict(ALL["s2-suspicion-2-guards-example"].rooms)) == {
        "green": 7,
        "yellow": 8,
        "red": 8,
    }


def test_key_room_only_in_cooperation_and_solo() -> None:
    """002 SALLE CLE: "Uniquement en mode coopération & Solo"; 000 GAME MODE 2: COOPERATION:
    "You cannot escape with the Room 25 if the Key room has not been activated". The base game
    has no Key room."""
    for edition, mode, players in SETUPS:
        for comp in compose.compositions_for(edition, mode, players):
            has_key = comp.rooms.get("key", 0) == 1
            needs_key = edition != "base" and mode in ("cooperation", "solo")
            assert has_key == needs_key, (edition, mode, comp.id)


# --- who plays what --------------------------------------------------------------------------


LEGAL = {
    # 001 GAME MODES: "Suspicion (4 to 6 players), Cooperation (2 to 6 players), Competition
    # (2 or 3 players), Team (4 or 6 players), Solo (1 player)".
    "base": {
        "suspicion": (4, 5, 6),
        "cooperation": (2, 3, 4, 5, 6),
        "competition": (2, 3),
        "team": (4, 6),
        "solo": (1,),
    },
    # 002 MODES : SUSPICION...: "jusqu'à 8 joueurs", Compétition "jusqu'à 4 joueurs, avec 2
    # personnages chacun", par équipe "à 8 joueurs (2 équipes de 4 joueurs)"; COOPERATION ET
    # SOLO: "4 personnages (mode solo, 2 ou 4 joueurs) ... 6 personnages (3 ou 6 joueurs)".
    "season2": {
        "suspicion": (4, 5, 6, 7, 8),
        "cooperation": (2, 3, 4, 5, 6),
        "competition": (2, 3, 4),
        "team": (4, 6, 8),
        "solo": (1,),
    },
    # 000 SUSPICION SETUP: 4 to 8 players; COOPERATION setup: "NUMBER OF PLAYERS 1 ... 6";
    # Solo is its one-player row; Competition and Team carried over from Season 2.
    "ultimate": {
        "suspicion": (4, 5, 6, 7, 8),
        "cooperation": (1, 2, 3, 4, 5, 6),
        "competition": (2, 3, 4),
        "team": (4, 6, 8),
        "solo": (1,),
    },
}


def test_legal_player_counts() -> None:
    """Player counts per edition and mode as the rulebooks give them (quotes beside LEGAL)."""
    for edition in compose.EDITIONS:
        for mode in compose.MODES:
            assert compose.legal_players(edition, mode) == LEGAL[edition][mode], (edition, mode)


@pytest.mark.parametrize(("edition", "mode", "players"), SETUPS)
def test_a_composition_for_every_legal_setup(edition: str, mode: str, players: int) -> None:
    """001 COMPOSITION OF THE COMPLEX: "take the 23 rooms corresponding to the mode and the
    difficulty chosen": every legal table gets at least one suggestion of its own edition."""
    found = compose.compositions_for(edition, mode, players)
    assert found
    assert all(c.edition == edition for c in found)
    assert not found[0].example_of  # suggestions come before rulebook examples


@pytest.mark.parametrize("edition", ["season2", "ultimate"])
def test_suspicion_guards_by_player_count(edition: str) -> None:
    """002: "La difficulté des salles est augmentée lorsqu'il n'y a qu'un seul gardien ... Pour
    les parties à 5 joueurs, il vous faut désormais choisir en début de partie si vous intégrez 1
    ou 2 gardiens"; 000 table ROOMS: "with 1 guard (4 or 5 players)", "with 2 guards (5 to 8
    players)"."""

    def guards(players: int, **kw: int) -> set[int | None]:
        return {c.guards for c in compose.compositions_for(edition, "suspicion", players, **kw)}

    assert guards(4) == {1}
    assert guards(5) == {1, 2}
    assert guards(5, guards=2) == {2}
    for players in (6, 7, 8):
        assert guards(players) == {2}
    with pytest.raises(CompositionError):
        compose.compositions_for(edition, "suspicion", 4, guards=2)


def test_cooperation_levels_in_season2() -> None:
    """002 COMPOSITION DU COMPLEX: columns "NIVEAU STANDARD" and "NIVEAU MADNESS"."""
    standard = compose.compositions_for("season2", "cooperation", 4, level="standard")
    madness = compose.compositions_for("season2", "cooperation", 4, level="madness")
    assert {c.id for c in madness} == {"s2-cooperation-madness"}
    assert "s2-cooperation-standard" in {c.id for c in standard}
    assert "paranoia" in madness[0].rooms and "empty" not in madness[0].rooms


@pytest.mark.parametrize(
    ("edition", "mode", "players"),
    [
        ("base", "suspicion", 7),
        ("season2", "suspicion", 9),
        ("base", "team", 5),
        ("season2", "competition", 5),
        ("ultimate", "solo", 2),
        ("base", "cooperation", 1),
    ],
)
def test_illegal_tables_are_refused(edition: str, mode: str, players: int) -> None:
    """A table the rules do not allow gets a plain refusal, not an empty list."""
    with pytest.raises(CompositionError, match="played by"):
        compose.compositions_for(edition, mode, players)


def test_unknown_names_are_refused() -> None:
    with pytest.raises(CompositionError, match="unknown edition"):
        compose.compositions_for("season3", "suspicion", 4)
    with pytest.raises(CompositionError, match="unknown mode"):
        compose.compositions_for("base", "deathmatch", 4)
    with pytest.raises(CompositionError, match="unknown composition"):
        compose.get_composition("expert")


# --- filling the free slots ------------------------------------------------------------------


@pytest.mark.parametrize("comp", WITH_FREE_SLOTS, ids=[c.id for c in WITH_FREE_SLOTS])
def test_random_fill_respects_colours_and_box(comp: compose.Composition) -> None:
    """002 / 000: free slots are "au choix ou au hasard" per colour line: each fill keeps the
    named tiles, adds exactly the free count of each colour, and never takes more tiles of a
    kind than the box holds once the set-back tiles are out."""
    box = box_contents(comp.edition)
    for seed in range(150):
        rooms = compose.fill(comp, random.Random(seed))
        assert sum(rooms.values()) == 23
        for rid, n in comp.rooms.items():
            assert rooms[rid] >= n
        extra = {rid: n - comp.rooms.get(rid, 0) for rid, n in rooms.items()}
        assert colour_counts(extra) + Counter() == Counter(comp.random)
        for rid, n in rooms.items():
            assert n + comp.removed.get(rid, 0) <= box[rid], (seed, rid)
        assert "central" not in rooms and "room25" not in rooms


def test_random_fill_draws_from_the_whole_colour() -> None:
    """ "5 random tiles" (003 Game Setup) means any tile of the colour left in the box: over many
    seeds every green kind still in the box turns up in the 1-guard Suspicion complex."""
    comp = ALL["s2-suspicion-1-guard"]
    seen: set[str] = set()
    for seed in range(300):
        seen |= set(compose.fill(comp, random.Random(seed)))
    greens = {
        rid for rid, n in box_contents("season2").items() if n and ROOMS[rid].colour == "green"
    }
    assert greens <= seen


def test_fill_is_reproducible_and_leaves_global_random_alone() -> None:
    """design.md, Engine ideas: chance is an explicit input, so the same seed gives the same
    complex and the module owns no randomness."""
    comp = ALL["ultimate-cooperation"]
    random.seed(12345)
    before = random.getstate()
    first = compose.fill(comp, random.Random(7))
    assert random.getstate() == before
    assert compose.fill(comp, random.Random(7)) == first


def test_chooser_sees_one_option_per_tile() -> None:
    """A host choosing by hand (or the engine's own generator) gets every tile left, one entry
    each, so a uniform choice is uniform over the physical tiles."""
    offered: list[tuple[str, ...]] = []

    def choose(options: Sequence[str]) -> str:
        offered.append(tuple(options))
        return options[-1]

    comp = ALL["s2-suspicion-1-guard"]
    compose.fill(comp, choose)
    assert len(offered) == 5 + 7 + 7
    first_green = Counter(offered[0])
    assert first_green["empty"] == 8 and first_green["tunnel"] == 3 and first_green["robot"] == 2
    assert set(first_green) <= {rid for rid, r in ROOMS.items() if r.colour == "green"}
    first_red = Counter(offered[5 + 7])
    assert first_red["mortal"] == 0 and first_red["timer"] == 0  # all named already


def test_a_chooser_off_the_list_is_refused() -> None:
    with pytest.raises(CompositionError, match="not among"):
        compose.fill(ALL["s2-competition-team"], lambda options: "mortal")


def test_fill_of_a_complete_composition_is_the_composition() -> None:
    def never(options: Sequence[str]) -> str:
        raise AssertionError("no free slot to choose")

    assert compose.fill(ALL["beginner"], never) == dict(ALL["beginner"].rooms)


@pytest.mark.parametrize("cid", ["s2-solo-standard", "s2-solo-madness"])
def test_season2_solo_removals(cid: str) -> None:
    """002 COMPOSITION DU COMPLEXE: "Retirez l'une des 2 salles Vortex. En mode solo, retirez
    également Brouillage et Miroir." Even a chooser that wants them cannot get them."""
    rooms = compose.fill(ALL[cid], first_of(["jamming", "mirror", "vortex"]))
    assert "jamming" not in rooms and "mirror" not in rooms
    assert rooms["vortex"] == 1


@pytest.mark.parametrize("cid", ["s2-cooperation-standard", "s2-cooperation-madness"])
def test_season2_cooperation_keeps_one_vortex_at_most(cid: str) -> None:
    """002: "Retirez l'une des 2 salles Vortex" (Cooperation and Solo)."""
    rooms = compose.fill(ALL[cid], first_of(["vortex"]))
    assert rooms["vortex"] == 1
    other = next(
        rid
        for rid in rooms
        if ROOMS[rid].colour == "yellow"
        and rid != "vortex"
        and rooms[rid] > ALL[cid].rooms.get(rid, 0)
    )
    with pytest.raises(CompositionError, match="Vortex room but the Season 2 box has 2"):
        compose.check(ALL[cid], {**rooms, "vortex": 2, other: rooms[other] - 1})


def test_reserve_keeps_the_empty_rooms_of_sarah_and_bruce() -> None:
    """000 SETUP: "Sarah receives two empty rooms", "Bruce receives an empty room": with both in
    play, 3 of the 8 Empty tiles are not available for the complex."""
    comp = ALL["s2-suspicion-1-guard"]
    greedy = first_of(["empty"])
    assert compose.fill(comp, greedy)["empty"] == 5
    assert compose.fill(comp, greedy, reserve={"empty": 4})["empty"] == 4
    with pytest.raises(CompositionError, match="cannot supply"):
        compose.fill(comp, greedy, reserve={"jamming": 1})
    with pytest.raises(CompositionError):
        compose.check(comp, compose.fill(comp, greedy), reserve={"empty": 4})


# --- the tile list ---------------------------------------------------------------------------


def placements(tiles: compose.TileList) -> dict[str, str]:
    return {line.room: line.placement for line in tiles.lines}


def test_base_exit_zone_gets_vision_and_room25() -> None:
    """001 Construction of the Complex: "Set aside the Vision chamber and Room 25 ... The spaces
    thereby completed constitute the Exit Zones"."""
    tiles = compose.tile_list(ALL["expert-suspicion"])
    where = placements(tiles)
    assert where["central"] == "centre"
    assert {rid for rid, p in where.items() if p == "exit"} == {"room25", "vision"}
    assert where["moving"] == "any"  # only Ultimate sends the Moving chamber out
    assert tiles.tiles == 25


def test_season2_exit_zone_gets_the_robot_rooms() -> None:
    """002 MODES : SUSPICION...: "En début de partie les salles Robots sont intégrées aux 12
    salles des zones de Sortie, comme pour la salle Vision"."""
    example = ALL["s2-suspicion-2-guards-example"]
    tiles = compose.tile_list(example)
    exits = {line.room: line.count for line in tiles.exit_zone}
    assert exits == {"room25": 1, "vision": 1, "robot": 2}


def test_ultimate_exit_zone_gets_key_vision_moving_robot() -> None:
    """000 CONSTRUCTION OF THE COMPLEX: "Put aside the ROOM 25 and the following rooms if you are
    using them: KEY, VISION, MOVING, ROBOT ... place them on the exit zones"."""
    comp = ALL["ultimate-cooperation"]
    tiles = compose.tile_list(comp, compose.fill(comp, random.Random(3)))
    assert {line.room for line in tiles.exit_zone} == {"room25", "key", "robot"}
    susp = ALL["ultimate-suspicion-1-guard"]
    rooms = compose.fill(susp, first_of(["vision", "moving", "robot"]))
    exits = {line.room: line.count for line in compose.tile_list(susp, rooms).exit_zone}
    assert exits == {"room25": 1, "vision": 1, "moving": 1, "robot": 2}
    assert sum(exits.values()) <= compose.EXIT_CELLS


def test_tile_list_without_a_fill_leaves_the_slots_per_colour() -> None:
    """ "Create a complex to your tastes" (000): a host may pick the free slots by hand."""
    tiles = compose.tile_list(ALL["ultimate-suspicion-2-guards"])
    assert dict(tiles.unfilled) == {"green": 5, "yellow": 7, "red": 5}
    assert tiles.tiles == 25


def test_tile_list_refuses_a_complex_that_breaks_the_composition() -> None:
    comp = ALL["s2-competition-team"]
    rooms = compose.fill(comp, random.Random(0))
    rooms["prison"] -= 1
    with pytest.raises(CompositionError, match="Prison"):
        compose.tile_list(comp, rooms)


def test_format_tile_list() -> None:
    """What the Pi prints: every kind with its count and colour, the exit zones marked, the tiles
    set back, in English or French."""
    comp = ALL["s2-solo-standard"]
    rooms = compose.fill(comp, random.Random(1))
    text = compose.format_tile_list(compose.tile_list(comp, rooms, reserve={"empty": 2}))
    lines = text.splitlines()
    assert lines[0] == "Season 2: Solo, standard level"
    assert "25 tiles" in lines[1]
    robot = next(line for line in lines if "Robot room" in line)
    assert robot.split() == ["green", "1", "Robot", "room", "exit", "zone"]
    assert any(line.startswith("First set back") and "Jamming room" in line for line in lines)
    assert any("Keep aside" in line and "2 Empty chamber" in line for line in lines)
    for rid, n in rooms.items():
        assert any(ROOMS[rid].name("en") in line and f" {n} " in line for line in lines), rid
    french = compose.format_tile_list(compose.tile_list(comp, rooms), lang="fr")
    assert "Salle robot" in french and "zone de sortie" in french
    unfilled = compose.format_tile_list(compose.tile_list(ALL["s2-suspicion-1-guard"]))
    assert any(line.split()[:2] == ["green", "5"] for line in unfilled.splitlines())


@pytest.mark.parametrize(
    ("lang", "five", "one"),
    [
        ("en", "more tiles of this colour", "more tile of this colour"),
        ("fr", "autres tuiles de cette couleur", "autre tuile de cette couleur"),
        ("de", "weitere Plättchen dieser Farbe", "weiteres Plättchen dieser Farbe"),
    ],
)
def test_free_slots_agree_with_their_count(lang: str, five: str, one: str) -> None:
    """A free slot's words follow its count by the language's plural rules (language.json)."""
    tiles = compose.tile_list(ALL["s2-suspicion-1-guard"])
    colour = words.text(lang, "compose_colour_green")
    for count, said in ((5, five), (1, one)):
        shown = compose.format_tile_list(replace(tiles, unfilled={"green": count}), lang=lang)
        rows = [line for line in shown.splitlines() if line.split()[:2] == [colour, str(count)]]
        row = rows[-1]  # after the named tiles' rows
        assert row.split(None, 2)[2].startswith(said), row


# --- catalogue validation --------------------------------------------------------------------


def _broken(change) -> tuple[dict, dict]:
    rooms, comps = copy.deepcopy(raw("rooms.json")), copy.deepcopy(raw("compositions.json"))
    change(rooms, comps)
    return rooms, comps


def _comp(comps: dict, cid: str) -> dict:
    return next(c for c in comps["compositions"] if c["id"] == cid)


def _sum_22(rooms: dict, comps: dict) -> None:
    _comp(comps, "beginner")["rooms"]["empty"] = 7


def _too_many_mortal(rooms: dict, comps: dict) -> None:
    comp = _comp(comps, "s2-competition-team")
    comp["rooms"]["mortal"] = 3
    comp["random"]["red"] = 7


def _unknown_room(rooms: dict, comps: dict) -> None:
    comp = _comp(comps, "ultimate-cooperation")
    comp["rooms"]["mystery"] = 1
    comp["random"]["red"] = 7


def _central_listed(rooms: dict, comps: dict) -> None:
    _comp(comps, "beginner")["rooms"].update(central=1, empty=7)


def _blue_free_slot(rooms: dict, comps: dict) -> None:
    _comp(comps, "s2-suspicion-1-guard")["random"].update(blue=1, red=6)


def _red_short(rooms: dict, comps: dict) -> None:
    _comp(comps, "s2-cooperation-madness")["random"].update(red=10, yellow=3)


def _box_total(rooms: dict, comps: dict) -> None:
    next(x for x in rooms["rooms"] if x["id"] == "mac")["box"]["ultimate"] = 3


def _missing_count(rooms: dict, comps: dict) -> None:
    del next(x for x in rooms["rooms"] if x["id"] == "key")["box"]["season2"]


def _unknown_use(rooms: dict, comps: dict) -> None:
    comps["uses"][0]["compositions"].append("expert")


def _example_off(rooms: dict, comps: dict) -> None:
    example = _comp(comps, "s2-suspicion-1-guard-example")["rooms"]
    del example["timer"]  # the column names 1 Timer room
    example["acid"] = 2


def _unnamed(rooms: dict, comps: dict) -> None:
    _comp(comps, "beginner")["id"] = "nameless"


BROKEN = {
    "sums to 22": (_sum_22, "has 22 rooms"),
    "more than the box": (_too_many_mortal, "asks 3 Mortal chamber tiles"),
    "unknown room": (_unknown_room, "unknown room 'mystery'"),
    "central listed": (_central_listed, "come with every complex"),
    "blue free slot": (_blue_free_slot, "colour 'blue'"),
    "colour short": (_red_short, "only 9 red tiles are left"),
    "box total": (_box_total, "box holds 47 room tiles but rooms.json counts 48"),
    "missing edition count": (_missing_count, "no tile count for edition 'season2'"),
    "use of unknown composition": (_unknown_use, "unknown composition 'expert'"),
    "example off its column": (_example_off, "does not fit .*needs 1 Timer room"),
    "composition without a name": (_unnamed, r"no name in the catalogue \(composition_nameless\)"),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_broken_catalogues_are_refused(case: str) -> None:
    """Catalogue validation names the fault: a composition that does not sum to 23, asks more
    tiles than the box, names an unknown room, or a box that does not match the rulebook."""
    change, message = BROKEN[case]
    rooms, comps = _broken(change)
    with pytest.raises(CatalogueError, match=message):
        compose.validate_catalogues(rooms, comps)


def test_shipped_catalogues_are_valid() -> None:
    compose.validate_catalogues(raw("rooms.json"), raw("compositions.json"))


def test_base_room_entries_are_unchanged() -> None:
    """Issue 3: the base entries keep their ids, names and texts; only box counts were added."""
    base = [r for r in raw("rooms.json")["rooms"] if r["box"]["base"]]
    assert [r["id"] for r in base] == [
        "central",
        "room25",
        "empty",
        "vision",
        "moving",
        "control",
        "twin",
        "vortex",
        "dark",
        "cold",
        "prison",
        "illusion",
        "acid",
        "flooded",
        "trapped",
        "mortal",
    ]
    assert ROOMS["mortal"].text("en") == "When you enter this room, you are instantly killed."
    assert ROOMS["twin"].name("fr") == "Salle jumelle"
