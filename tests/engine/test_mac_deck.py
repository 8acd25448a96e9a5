"""The M.A.C. deck: the default reconstruction against the rule texts, and deck-file validation.

Tests that check a sentence of the rules quote it (seed file name and section); tests that
check a choice of the reconstruction say so and point at docs/mac-deck.md.
"""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from companion.engine import start
from companion.engine.kernel import grid
from companion.engine.kernel.mac_cards import CHARACTER_IDS, Deck, DeckError, Line, MacCard
from companion.engine.kernel.mac_deck import deck_as_json, deck_from_data, format_deck, load_deck

MOVABLE_LINES = [("row", i) for i in (0, 1, 3, 4)] + [("col", i) for i in (0, 1, 3, 4)]
ROW_DIRECTIONS = ("east", "west")
COL_DIRECTIONS = ("north", "south")
MADNESS_KINDS_IN_TEXT = {
    "blackout",
    "jamming",
    "rewind",
    "robot",
    "time_bomb",
    "lock_on",
    "disabled_rooms",
    "chaos",
    "acceleration",
    "panic",
}


@pytest.fixture(scope="module")
def deck() -> Deck:
    return load_deck()


def physical(deck: Deck, kind: str) -> list[MacCard]:
    """One MacCard per physical card of this kind (a definition with count 2 appears twice)."""
    return [deck.by_id(card_id) for card_id in deck.expand() if deck.by_id(card_id).kind == kind]


# --- the default deck against the rule texts --------------------------------------------------


def test_default_deck_has_58_cards(deck: Deck) -> None:
    """002_e232164e7c8dd598.txt, CONTENU DU JEU: "• 58 cartes M.A.C"."""
    assert deck.size == 58
    assert len(deck.expand()) == 58


def test_exactly_two_time_bombs(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, MADNESS CARDS, Time bomb: "If the second Time Bomb card is drawn
    this turn, all characters in red rooms die immediately."
    002_e232164e7c8dd598.txt, cartes madness, Bombe à retardement: "La première carte tirée est
    posée à la vue de tous. Si la deuxième carte est tirée, tous les personnages présents dans une
    salle rouge meurent immédiatement." A first and a second card, and no third.
    """
    assert len(physical(deck, "time_bomb")) == 2


def test_one_disabled_rooms_card_per_colour(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, MADNESS CARDS, disabled rooms: "All unoccupied rooms of the color
    shown on the card (green, yellow, or red) are turned face-down."
    002_e232164e7c8dd598.txt, cartes madness, salles désactivées: "de la couleur indiquée sur la
    carte (Vert, Jaune ou Rouge)".
    """
    colours = sorted(card.colour or "" for card in physical(deck, "disabled_rooms"))
    assert colours == ["green", "red", "yellow"]


def test_every_movable_line_moves_both_ways(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, BASIC CARDS, Complex Movement: "Move the row marked on the map
    with a box (like the Control action)." Any line a Control action can move, in either direction,
    is a line the complex can move by itself; the reconstruction covers them all.
    """
    seen = {
        (card.line.axis, card.line.index, card.direction)
        for card in physical(deck, "complex_movement")
        if card.line is not None
    }
    expected = {
        (axis, index, direction)
        for axis, index in MOVABLE_LINES
        for direction in (ROW_DIRECTIONS if axis == "row" else COL_DIRECTIONS)
    }
    assert seen == expected


def test_no_card_moves_a_central_line(deck: Deck) -> None:
    """003_f72be89fec97774d.txt, Control: "the Central room CANNOT be moved and always stays at the
    Complex's center. Therefore, it is IMPOSSIBLE to use the Control action to move a central line
    (containing the Central Room)." A row moves east/west, a column north/south.
    """
    movement = physical(deck, "complex_movement")
    assert movement
    for card in movement:
        assert card.line is not None
        assert card.line.index in (0, 1, 3, 4), card.id
        allowed = ROW_DIRECTIONS if card.line.axis == "row" else COL_DIRECTIONS
        assert card.direction in allowed, card.id


def test_both_additional_symbols_appear(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, BASIC CARDS, "Additional symbols: Achieve the effect twice (move
    the row two spaces). Draw a new card immediately and apply its effect."
    Cooperation: "draw 2 M.A.C. cards (or more if the cards tell you to draw again)".
    """
    movement = physical(deck, "complex_movement")
    assert any(card.twice for card in movement)
    assert any(card.draw_again for card in movement)
    assert all(card.steps == (2 if card.twice else 1) for card in movement)


def test_punishment_cards_picture_two_different_characters(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, BASIC CARDS, PUNISHMENT: "Both characters pictured on the card
    lose one of the following Action tokens for the remainder of the game: Look, Control, or
    Special Ability."
    002_e232164e7c8dd598.txt, cartes de base, Sanction: "Chacun des deux personnages indiqués sur
    la carte perd pour toute la partie un de ses jetons Action".
    """
    punishments = physical(deck, "punishment")
    assert punishments
    valid = {"emmett", "kevin", "franck", "jennifer", "max", "alice", "sarah", "bruce"}
    for card in punishments:
        assert card.characters is not None
        assert len(set(card.characters)) == 2, card.id
        assert set(card.characters) <= valid, card.id


def test_standard_cards_are_movement_and_punishment_and_most_numerous(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, M.A.C. CARDS: "Barrier cards are the most numerous. They include
    complex movement cards and Punishment cards. Madness cards are more varied".
    002_e232164e7c8dd598.txt, LES CARTES M.A.C.: "Les cartes Obstacles sont les plus nombreuses,
    elles comportent des cartes Mouvement du complexe, et des cartes Sanction."
    """
    standard_kinds = {card.kind for card in deck.cards if card.level == "standard"}
    madness_kinds = {card.kind for card in deck.cards if card.level == "madness"}
    assert standard_kinds == {"complex_movement", "punishment"}
    assert not standard_kinds & madness_kinds
    levels = deck.count_by_level()
    assert levels["standard"] > levels["madness"]
    assert levels["standard"] + levels["madness"] == deck.size


def test_every_madness_card_described_is_in_the_deck(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, MADNESS CARDS describes Blackout, Jamming, Rewind, ROBOT, Time
    bomb, LOCK ON, disabled rooms, Chaos, accélération and paniC; 002_e232164e7c8dd598.txt,
    cartes madness, the same ten (Panne générale ... panique).
    """
    madness_kinds = {card.kind for card in deck.cards if card.level == "madness"}
    assert madness_kinds == MADNESS_KINDS_IN_TEXT


def test_standard_level_removes_the_madness_cards(deck: Deck) -> None:
    """000_f9f1d5a43eaf8620.txt, GAME MODE 2: COOPERATION: "Play only with basic M.A.C cards."
    002_e232164e7c8dd598.txt, MODES : COOPERATION ET SOLO, Niveau standard: "Enlevez les cartes
    M.A.C. Madness."
    """
    standard = deck.without_madness()
    assert standard.size == deck.count_by_level()["standard"]
    assert {card.level for card in standard.cards} == {"standard"}
    assert deck.size == 58  # the full deck is left as it was


# --- choices of the reconstruction (docs/mac-deck.md), not sentences of the rules ---------------


def test_reconstruction_counts_per_kind(deck: Deck) -> None:
    """Reconstruction choice (docs/mac-deck.md, section "Default deck"): 32 Complex Movement,
    13 Punishment, and one of each Madness card except the two Time bombs and the three Disabled
    rooms colours. A change to the default must update the docs too.
    """
    assert deck.count_by_kind() == {
        "complex_movement": 32,
        "punishment": 13,
        "blackout": 1,
        "jamming": 1,
        "rewind": 1,
        "robot": 1,
        "time_bomb": 2,
        "lock_on": 1,
        "disabled_rooms": 3,
        "chaos": 1,
        "acceleration": 1,
        "panic": 1,
    }


def test_reconstruction_movement_is_even(deck: Deck) -> None:
    """Reconstruction choice: each line and direction twice, one copy plain and the other with
    one symbol; every direction has as many "x2" and "draw again" cards as the others.
    """
    movement = physical(deck, "complex_movement")
    per_line_direction = Counter((c.line, c.direction) for c in movement)
    assert set(per_line_direction.values()) == {2}
    assert not any(c.twice and c.draw_again for c in movement)
    plain = Counter(c.direction for c in movement if not (c.twice or c.draw_again))
    twice = Counter(c.direction for c in movement if c.twice)
    again = Counter(c.direction for c in movement if c.draw_again)
    for direction in ("north", "south", "east", "west"):
        assert (plain[direction], twice[direction], again[direction]) == (4, 2, 2), direction


def test_reconstruction_punishment_spreads_the_characters(deck: Deck) -> None:
    """Reconstruction choice: no pair pictured twice, every character on 3 or 4 cards, and the
    four duos of characters.json each on one card.
    """
    pairs = [frozenset(c.characters or ()) for c in physical(deck, "punishment")]
    assert len(pairs) == len(set(pairs))
    pictured = Counter(name for pair in pairs for name in pair)
    assert set(pictured) == set(CHARACTER_IDS)
    assert set(pictured.values()) <= {3, 4}
    for duo in (("emmett", "kevin"), ("franck", "jennifer"), ("max", "alice"), ("sarah", "bruce")):
        assert frozenset(duo) in pairs, duo


# --- display ------------------------------------------------------------------------------------


def test_every_card_has_a_name_and_text_in_english_and_french(deck: Deck) -> None:
    """Every card can be announced on the OLED and the phones in both languages, its words
    from the catalogue (the default deck file holds none)."""
    for card in deck.cards:
        d = card.display
        for value in (d.name("en"), d.name("fr"), d.text("en"), d.text("fr")):
            assert isinstance(value, str) and value.strip(), card.id
        assert d.text("en") != d.text("fr"), card.id
        assert d.fields()["name_fr"] == d.name("fr") and d.fields()["text_en"] == d.text("en")


def test_composed_texts_follow_the_card_fields(deck: Deck) -> None:
    """Complex Movement and Punishment texts come from the fields, so they cannot disagree."""
    french = {"north": "nord", "south": "sud", "east": "est", "west": "ouest"}
    for card in physical(deck, "complex_movement"):
        assert card.line is not None and card.direction is not None
        text_en, text_fr = card.display.text("en"), card.display.text("fr")
        assert card.line.name in text_en and card.line.name in text_fr
        assert card.direction in text_en
        assert french[card.direction] in text_fr
        assert ("two steps" in text_en) == card.twice
        assert ("draw another card" in text_en) == card.draw_again
        assert ("x2" in card.display.name("en")) == card.twice
    for card in physical(deck, "punishment"):
        assert card.characters is not None
        for name in card.characters:
            assert name.capitalize() in card.display.text("en")
            assert name.capitalize() in card.display.name("fr")


def test_lines_are_named_like_the_cells_they_hold(deck: Deck) -> None:
    """Players see one numbering: a card's line is row1..row5 or colA..colE, as its cells are
    A1..E5 (the deck listing, the card texts and the Control chamber's options agree)."""
    for card in physical(deck, "complex_movement"):
        assert card.line is not None
        names = [grid.name(grid.cell(row, col)) for row, col in card.line.cells()]
        if card.line.axis == "row":
            assert card.line.name == f"row{names[0][1]}"
            assert {name[1] for name in names} == {names[0][1]}
        else:
            assert card.line.name == f"col{names[0][0]}"
            assert {name[0] for name in names} == {names[0][0]}
        axis, label = (
            ("row", card.line.name[3:])
            if card.line.axis == "row"
            else ("column", card.line.name[3:])
        )
        assert card.details().startswith(f"{axis} {label} {card.direction}")
    top_row = next(c for c in physical(deck, "complex_movement") if c.line == Line("row", 0))
    assert top_row.details().split()[:2] == ["row", "1"]


def test_minimap_draws_the_line_and_its_arrow(deck: Deck) -> None:
    """The mini-map marks exactly the card's line, and the arrow's head is the edge it moves to."""
    heads = {"north": ("row", 0), "south": ("row", 4), "east": ("col", 4), "west": ("col", 0)}
    for card in physical(deck, "complex_movement"):
        minimap = card.minimap()
        assert minimap is not None and card.line is not None
        rows = minimap.rows()
        assert len(rows) == 5 and all(len(r) == 5 for r in rows)
        marked = {(r, c) for r in range(5) for c in range(5) if rows[r][c] in "^v<>"}
        assert marked == set(card.line.cells())
        assert rows[2][2] == "o"
        tail, head = minimap.arrow
        which, value = heads[card.direction or ""]
        assert head[0 if which == "row" else 1] == value, card.id
        assert tail != head and {tail, head} <= marked
    assert deck.by_id("blackout").minimap() is None


def test_minimap_of_a_known_card(deck: Deck) -> None:
    """The top row moving east: arrows along row 0, from (0, 0) to (0, 4)."""
    minimap = deck.by_id("move-row0-east").minimap()
    assert minimap is not None
    assert minimap.rows() == (">>>>>", ".....", "..o..", ".....", ".....")
    assert minimap.arrow == ((0, 0), (0, 4))
    column = deck.by_id("move-col1-north").minimap()
    assert column is not None
    assert column.rows() == (".^...", ".^...", ".^o..", ".^...", ".^...")
    assert column.arrow == ((4, 1), (0, 1))


# --- API ----------------------------------------------------------------------------------------


def test_expand_is_stable_and_follows_the_counts(deck: Deck) -> None:
    ids = deck.expand()
    assert ids == load_deck().expand()
    assert Counter(ids) == {card.id: card.count for card in deck.cards}
    assert ids[0] == deck.cards[0].id
    first = ids.index("time-bomb")
    assert ids[first : first + 2] == ["time-bomb", "time-bomb"]


def test_by_id(deck: Deck) -> None:
    assert deck.by_id("time-bomb").count == 2
    with pytest.raises(KeyError, match="no-such-card"):
        deck.by_id("no-such-card")


def test_deck_as_json_lists_counts_and_loads_back(deck: Deck, tmp_path: Path) -> None:
    """What the phones receive is itself a valid deck file that gives back the same deck."""
    data = deck_as_json(deck)
    json.dumps(data)
    assert sum(entry["count"] for entry in data["cards"]) == 58
    movement = [e for e in data["cards"] if e["kind"] == "complex_movement"]
    assert all("minimap" in e for e in movement)
    path = tmp_path / "copy.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert load_deck(path).cards == deck.cards


def test_format_deck_is_a_readable_table(deck: Deck) -> None:
    table = format_deck(deck)
    lines = table.splitlines()
    assert lines[0].split() == ["count", "level", "kind", "details"]
    assert lines[-1] == "58 cards: 45 standard, 13 madness"
    assert any(line.split()[:4] == ["2", "Madness", "Time", "bomb"] for line in lines)
    assert any(line.endswith("row 1 east, twice") for line in lines)
    assert any(line.endswith("column A south, draw again") for line in lines)
    assert any(
        line.endswith("Strafe                  Emmett und Kevin")
        for line in format_deck(deck, "de").splitlines()
    )
    assert any(line.endswith("Disabled rooms    green") for line in lines)


@pytest.mark.parametrize(
    ("lang", "details"),
    [
        ("en", ["row 1 east, twice", "column D north", "Emmett and Kevin", "green"]),
        (
            "fr",
            ["rangée 1 vers l'est, deux fois", "colonne D vers le nord", "Emmett et Kevin", "vert"],
        ),
        ("de", ["Reihe 1 nach Osten, zweimal", "Spalte D nach Norden", "Emmett und Kevin", "grün"]),
    ],
)
def test_the_tables_details_are_said_in_the_language(
    deck: Deck, lang: str, details: list[str]
) -> None:
    """Issue 30: the details column is the catalogue's words, not the deck file's ids."""
    ids = ("move-row0-east-x2", "move-col3-north", "punish-emmett-kevin", "disabled-green")
    assert [deck.by_id(card).details(lang) for card in ids] == details
    assert "Blackout" not in format_deck(deck, "fr") and "Folie" in format_deck(deck, "fr")


def test_character_ids_match_the_engine_catalogue() -> None:
    """The deck's character ids are the ones of data/characters.json."""
    text = resources.files("companion.engine").joinpath("data/characters.json").read_text("utf-8")
    ids = [c["id"] for c in json.loads(text)["characters"]]
    assert sorted(ids) == sorted(CHARACTER_IDS)


# --- owner files ----------------------------------------------------------------------------


def movement(card_id: str = "c1", **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": card_id,
        "count": 1,
        "kind": "complex_movement",
        "level": "standard",
        "line": {"axis": "row", "index": 0},
        "direction": "east",
    }
    entry.update(changes)
    return entry


def punishment(card_id: str = "p1", **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": card_id,
        "count": 1,
        "kind": "punishment",
        "level": "standard",
        "characters": ["emmett", "kevin"],
    }
    entry.update(changes)
    return entry


def disabled(card_id: str = "d1", **changes: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "id": card_id,
        "count": 1,
        "kind": "disabled_rooms",
        "level": "madness",
        "colour": "green",
        "name_en": "Disabled rooms: green",
        "name_fr": "Salles désactivées : vertes",
        "text_en": "Unoccupied green rooms are turned face down.",
        "text_fr": "Les salles vertes inoccupées sont retournées.",
    }
    entry.update(changes)
    return entry


def write(tmp_path: Path, cards: list[Any], name: str = "deck.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps({"_about": "test deck", "cards": cards}), encoding="utf-8")
    return path


def test_owner_file_overrides_the_default(tmp_path: Path) -> None:
    """An owner's own count loads as given; the helpers below are valid as they stand."""
    path = write(tmp_path, [movement(count=3), punishment(), disabled()])
    owner = load_deck(path)
    assert owner.size == 5
    assert owner.expand() == ["c1", "c1", "c1", "p1", "d1"]
    assert owner.about == "test deck"
    assert owner.source == str(path)
    assert load_deck().size == 58


def test_owner_file_in_yaml(tmp_path: Path) -> None:
    path = tmp_path / "deck.yaml"
    path.write_text(
        "cards:\n"
        "  - id: up\n"
        "    count: 2\n"
        "    kind: complex_movement\n"
        "    level: basic\n"
        "    line: {axis: col, index: 4}\n"
        "    direction: north\n"
        "    draw_again: true\n",
        encoding="utf-8",
    )
    card = load_deck(path).by_id("up")
    assert card.count == 2 and card.draw_again and not card.twice
    assert card.minimap() is not None


def test_a_game_set_to_the_basic_level_plays_the_standard_level() -> None:
    setup = {"edition": "season2", "mode": "cooperation", "players": 4, "seed": 1}
    basic = start({**setup, "settings": {"mac": "basic"}})
    assert basic.ok and basic.state.ruleset.settings.mac == "standard"
    assert basic.events == start({**setup, "settings": {"mac": "standard"}}).events


def test_a_line_may_be_named_like_the_cells_it_holds() -> None:
    """A deck file may name a line as players see it ("row4", "colA"), the same line as the
    object form that counts from 0."""
    cards = [movement(line="row4"), movement("c2", line="colA", direction="north")]
    named = deck_from_data({"cards": cards}, "t")
    assert [card.line for card in named.cards] == [Line("row", 3), Line("col", 0)]


def test_the_rulebooks_basic_cards_read_as_standard() -> None:
    """000 names the standard level's cards "BASIC CARDS": a deck file may say either word, and
    the companion says "standard"."""
    deck = deck_from_data({"cards": [movement(level="basic"), punishment(level="standard")]}, "t")
    assert [card.level for card in deck.cards] == ["standard", "standard"]
    assert format_deck(deck).splitlines()[-1] == "2 cards: 2 standard, 0 madness"


def test_owner_may_rename_a_card(tmp_path: Path) -> None:
    """A display field given in the file wins over the composed one; the others are composed."""
    card = load_deck(write(tmp_path, [movement(name_fr="Le complexe bouge")])).by_id("c1")
    assert card.display.name("fr") == "Le complexe bouge"
    assert card.display.name("en") == "Complex Movement"


INVALID = [
    pytest.param(
        [movement(kind="blakout", level="madness")],
        ["card 1 (id 'c1'), field 'kind'", "unknown kind 'blakout'", "did you mean 'blackout'"],
        id="unknown-kind",
    ),
    pytest.param(
        [movement(line={"axis": "row", "index": 5})],
        ["card 1 (id 'c1'), field 'line'", "index 5 is off the 5x5 grid"],
        id="line-index-off-grid",
    ),
    pytest.param(
        [movement(line="row3")],
        ["field 'line'", "row3 is the central row", "row1, row2, row4, row5"],
        id="line-named-central",
    ),
    pytest.param(
        [movement(line="row0")],
        ["field 'line'", "'row0' is not a movable line", "colA, colB, colD or colE"],
        id="line-named-from-zero",
    ),
    pytest.param(
        [movement(line={"axis": "col", "index": -1}, direction="north")],
        ["field 'line'", "index -1 is off the 5x5 grid"],
        id="line-index-negative",
    ),
    pytest.param(
        [movement(line={"axis": "row", "index": "1"})],
        ["field 'line'", "index must be a whole number", "the text '1'"],
        id="line-index-not-a-number",
    ),
    pytest.param(
        [movement(line={"axis": "row", "index": 2})],
        ["card 1 (id 'c1'), field 'line'", "index 2 is the central row", "never moves"],
        id="central-row",
    ),
    pytest.param(
        [movement(line={"axis": "col", "index": 2}, direction="south")],
        ["field 'line'", "index 2 is the central column"],
        id="central-column",
    ),
    pytest.param(
        [movement(line={"axis": "diagonal", "index": 1})],
        ["field 'line'", "axis must be 'row' or 'col'"],
        id="unknown-axis",
    ),
    pytest.param(
        [movement(direction="north")],
        ["card 1 (id 'c1'), field 'direction'", "'north' does not move a row", "'east' or 'west'"],
        id="row-moving-north",
    ),
    pytest.param(
        [movement(line={"axis": "col", "index": 3}, direction="east")],
        ["field 'direction'", "'east' does not move a column", "'north' or 'south'"],
        id="column-moving-east",
    ),
    pytest.param(
        [movement(direction="up")],
        ["field 'direction'", "unknown direction 'up'"],
        id="unknown-direction",
    ),
    pytest.param(
        [movement("dup"), punishment("dup")],
        ["card 2 (id 'dup'), field 'id'", "already the id of card 1"],
        id="duplicate-id",
    ),
    pytest.param(
        [{k: v for k, v in movement().items() if k != "count"}],
        ["card 1 (id 'c1')", "field 'count' is missing"],
        id="missing-count",
    ),
    pytest.param(
        [movement(count=0)],
        ["card 1 (id 'c1'), field 'count'", "must be at least 1, not 0"],
        id="zero-count",
    ),
    pytest.param(
        [movement(count=-2)],
        ["field 'count'", "must be at least 1, not -2"],
        id="negative-count",
    ),
    pytest.param(
        [movement(count="2")],
        ["field 'count'", "whole number", "the text '2'"],
        id="count-as-text",
    ),
    pytest.param(
        [movement(count=True)],
        ["field 'count'", "whole number", "not true"],
        id="count-as-boolean",
    ),
    pytest.param(
        [movement(count=None)],
        ["field 'count'", "whole number", "not null"],
        id="count-null",
    ),
    pytest.param(
        [punishment(characters=["emmet", "kevin"])],
        ["card 1 (id 'p1'), field 'characters'", "unknown character 'emmet'", "'emmett'"],
        id="unknown-character",
    ),
    pytest.param(
        [punishment(characters=["max", "max"])],
        ["field 'characters'", "names 'max' twice"],
        id="same-character-twice",
    ),
    pytest.param(
        [punishment(characters=["max"])],
        ["field 'characters'", "exactly two characters", "names 1"],
        id="one-character",
    ),
    pytest.param(
        [{k: v for k, v in punishment().items() if k != "characters"}],
        ["card 1 (id 'p1')", "field 'characters' is missing"],
        id="missing-characters",
    ),
    pytest.param(
        [punishment(level="madness")],
        ["field 'level'", "'madness' does not match kind 'punishment'", "standard card"],
        id="level-does-not-match-kind",
    ),
    pytest.param(
        [movement(level="hard")],
        ["field 'level'", "must be 'standard' or 'madness'"],
        id="unknown-level",
    ),
    pytest.param(
        [movement(x2=True)],
        ["card 1 (id 'c1'), field 'x2'", "unknown field"],
        id="unknown-field",
    ),
    pytest.param(
        [movement(twice="yes")],
        ["field 'twice'", "must be true or false"],
        id="symbol-not-boolean",
    ),
    pytest.param(
        [{k: v for k, v in disabled().items() if k != "colour"} | {"color": "red"}],
        ["field 'color'", "did you mean 'colour'", "field 'colour' is missing"],
        id="colour-misspelt",
    ),
    pytest.param(
        [disabled(colour="blue")],
        ["card 1 (id 'd1'), field 'colour'", "'blue' is not a colour of a Disabled rooms card"],
        id="disabled-blue",
    ),
    pytest.param(
        [punishment(line={"axis": "row", "index": 0})],
        ["field 'line'", "does not apply to a 'punishment' card"],
        id="field-of-another-kind",
    ),
    pytest.param(
        [{k: v for k, v in disabled().items() if not k.startswith("text_")}],
        ["card 1 (id 'd1')", "field text_en missing", "must carry its name and text"],
        id="madness-card-without-text",
    ),
    pytest.param(
        [movement(id="")],
        ["card 1, field 'id'", "non-empty text"],
        id="empty-id",
    ),
    pytest.param(
        ["move-row0-east"],
        ["card 1: must be an object"],
        id="card-not-an-object",
    ),
    pytest.param([], ["'cards'", "the list is empty"], id="no-cards"),
]


@pytest.mark.parametrize(("cards", "expected"), INVALID)
def test_invalid_deck_file(tmp_path: Path, cards: list[Any], expected: list[str]) -> None:
    """Each broken deck gives a DeckError naming the file, the card, the field and the problem."""
    path = write(tmp_path, cards)
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    message = str(caught.value)
    assert message.startswith(str(path))
    for part in expected:
        assert part in message
    assert isinstance(caught.value, ValueError)


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = write(tmp_path, [movement("a", count=0), punishment("b", characters=["bob", "max"])])
    with pytest.raises(DeckError) as caught:
        load_deck(path)
    assert len(caught.value.problems) == 2
    assert "2 problems" in str(caught.value)
    assert "card 1 (id 'a')" in str(caught.value.problems[0])
    assert "card 2 (id 'b')" in str(caught.value.problems[1])


def test_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "deck.json"
    path.write_text('{"cards": [\n  {"id": "a",}\n]}', encoding="utf-8")
    with pytest.raises(DeckError, match=r"not valid JSON \(line 2"):
        load_deck(path)


def test_file_that_is_not_valid_yaml(tmp_path: Path) -> None:
    path = tmp_path / "deck.yml"
    path.write_text("cards: [\n  - id: a\n", encoding="utf-8")
    with pytest.raises(DeckError, match="not valid YAML"):
        load_deck(path)


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(DeckError, match="no deck file at this path"):
        load_deck(tmp_path / "nowhere.json")


def test_top_level_must_be_an_object_with_cards() -> None:
    with pytest.raises(DeckError, match="top level must be an object"):
        deck_from_data([movement()], source="upload")
    with pytest.raises(DeckError, match="'cards' list is missing"):
        deck_from_data({"card": []}, source="upload")
    with pytest.raises(DeckError, match="unknown field 'card'"):
        deck_from_data({"card": [], "cards": [movement()]}, source="upload")


def test_a_deck_read_again_reuses_its_cards_words() -> None:
    """A replay reads its game's deck from `game_created` every time: the words of its cards,
    composed and typeset in every language, are made once a process and then handed out again
    (issue 29: composing them was most of a replay's time), the same words either way."""
    data = deck_as_json(load_deck())
    first, again = deck_from_data(data), deck_from_data(data)
    assert [card.display for card in first.cards] == [card.display for card in again.cards]
    for a, b in zip(first.cards, again.cards, strict=True):
        assert a.display.names is b.display.names and a.display.texts is b.display.texts
