"""Issue 32, point 1: the physical set-up of a chosen game, one step per Next, each from its
rulebook's set-up section (seeds: 001 base en, 002 Saison 2 fr, 000 Ultimate en)."""

from __future__ import annotations

import pytest

from companion import engine, words
from companion.engine.kernel.catalogue import room_name
from companion.hardware import screens
from companion.hardware.screens import HEIGHT, SMALL, WIDTH
from companion.teaching.setup import STEPS, setup_steps, step_text


def _steps(setup: dict) -> dict[str, dict]:
    started = engine.start({**setup, "seed": 1})
    assert started.state is not None, started.refusal
    found = setup_steps(engine.public_view(started.state), setup)
    return {step.id: step.as_dict() for step in found}


def test_base_cooperation_001_construction_of_the_complex_then_material_countdown_figures():
    """001, Construction of the Complex: the composition's tiles, the Central room, Vision
    chamber and Room 25 set aside, 12 in a cross, the rest on the exit zones; 001, SETUP: the
    8 turns side for Cooperation; no role tiles and no M.A.C. deck in a base Cooperation."""
    steps = _steps({"edition": "base", "mode": "cooperation", "players": 4})
    assert list(steps) == [
        "compose", "central", "set_aside", "cross", "exit_zones", "material", "countdown",
        "figures", "clue",
    ]  # fmt: skip
    assert steps["compose"]["params"]["count"] == 25
    assert steps["compose"]["params"]["composition"] == "beginner"
    assert set(steps["set_aside"]["params"]["rooms"]) == {"room25", "vision"}
    assert steps["countdown"]["params"]["side"] == 8
    assert steps["countdown"]["params"]["turns"] == 8
    assert sorted(steps["material"]["params"]["seats"]) == ["1", "2", "3", "4"]


def test_base_cooperation_with_two_players_gives_each_seat_a_duo_001_cooperation_setup():
    """001, Cooperation Mode, Setup: "For 2 and 3 players: Each player chooses a character duo"."""
    seats = _steps({"edition": "base", "mode": "cooperation", "players": 2})["material"]
    assert [len(owned) for owned in seats["params"]["seats"].values()] == [2, 2]


def test_season2_cooperation_has_the_mac_deck_002_les_cartes_mac():
    """002, Mode Coopération, Niveau standard: M.A.C. cards drawn before each programming; the
    companion's virtual deck keeps the box's deck out, a physical one is shuffled without the
    Madness cards (002, "Enlevez les cartes M.A.C. Madness")."""
    virtual = _steps({"edition": "season2", "mode": "cooperation", "players": 4})
    assert "mac_virtual" in virtual and "mac_physical" not in virtual
    assert {"adrenaline", "talents"} <= set(virtual)
    physical = _steps(
        {"edition": "season2", "mode": "cooperation", "players": 4,
         "settings": {"mac_deck": "physical"}}
    )  # fmt: skip
    assert physical["mac_physical"]["key"] == "mac_physical_standard"
    assert "mac_virtual" not in physical


def test_a_game_without_mac_cards_has_no_deck_step():
    for edition, mode in (("base", "suspicion"), ("ultimate", "suspicion")):
        steps = _steps({"edition": edition, "mode": mode, "players": 5})
        assert not {"mac_virtual", "mac_physical"} & set(steps)


def test_ultimate_suspicion_000_equipment_countdown_and_roles():
    """000, EQUIPMENT FOR EACH PLAYER (an Adrenaline token, the special ability token) and
    COUNTDOWN (SUSPICION 10 turns side); 001, Suspicion Mode, Role distribution: the companion
    deals the roles to the phones when it tracks the game ("dealt")."""
    steps = _steps({"edition": "ultimate", "mode": "suspicion", "players": 7})
    assert {"adrenaline", "talents", "roles_dealt"} <= set(steps)
    assert "roles_tiles" not in steps
    assert steps["countdown"]["params"] == {
        "side": 10, "turns": 9, "order": steps["countdown"]["params"]["order"]
    }  # fmt: skip
    assert len(steps["countdown"]["params"]["order"]) == 7


def test_role_tiles_on_the_table_count_as_001_role_distribution_says():
    """001, Role distribution: "4 players: Shuffle 4 Prisoner tiles and 1 Guard card"."""
    steps = _steps({"edition": "base", "mode": "suspicion", "players": 4, "tracking": "physical"})
    assert steps["roles_tiles"]["params"] == {"prisoners": 4, "guards": 1}
    assert "roles_dealt" not in steps


def test_every_step_names_its_rulebook_section():
    assert all(step["source"].strip() for step in STEPS)
    assert len({step["id"] for step in STEPS}) == len(STEPS)


SETUPS = [
    {"edition": "base", "mode": "suspicion", "players": 6, "tracking": "physical"},
    {"edition": "season2", "mode": "cooperation", "players": 4,
     "settings": {"mac_deck": "physical", "mac": "madness"}},
    {"edition": "ultimate", "mode": "suspicion", "players": 8},
    {"edition": "base", "mode": "solo", "players": 1},
]  # fmt: skip


@pytest.mark.parametrize("lang", words.languages())
def test_each_step_is_a_sentence_in_every_language_that_fits_the_oled(lang: str) -> None:
    """Every step of these games in words, no field left unfilled, and whole on the OLED's
    set-up screen (below its top line, as screens.draw_setup_step wraps it: no ellipsis)."""
    seen = set()
    for setup in SETUPS:
        for step in _steps(setup).values():
            said = step_text(step, lang)
            seen.add(step["key"])
            assert "{" not in said and not said.startswith("setup_"), said
            _, lines = screens._fit_lines(said, screens.SIZES, WIDTH, HEIGHT - SMALL - 2)
            assert not any(line.endswith(screens.ELLIPSIS) for line in lines), (lang, lines)
    assert {"mac_physical_madness", "roles_tiles", "talents", "roles_dealt"} <= seen


@pytest.mark.parametrize("lang", words.languages())
def test_the_rooms_set_aside_are_one_list_joined_by_the_languages_and(lang: str) -> None:
    """001, Construction of the Complex: "Set aside the Vision chamber and Room 25"; the names
    are handed as a list and joined by the catalogue's list filler (`{rooms|and}`), so every
    language says its own "and" between the last two and its comma before (three rooms here,
    as a composition with more exit-zone rooms would have)."""
    game = _steps({"edition": "base", "mode": "cooperation", "players": 4})["set_aside"]
    three = {**game, "params": {"rooms": ["room25", "vision", "key"]}}
    for step in (game, three):
        names = [room_name(room, lang) for room in step["params"]["rooms"]]
        lists = words.settings(lang)["lists"]
        joined = lists[""].join(names[:-1]) + lists["and"] + names[-1]
        assert joined in step_text(step, lang)
