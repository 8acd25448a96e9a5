"""Words, not ids (issue 21, points 11 to 13), rendered by the pages' own scripts in headless
Chromium: every text of both languages with the values that trip grammar (0, 1 and 2 of
something, a name starting with a vowel, a colon), cells and lines as people name them, rooms
that fit their cell on a phone, compositions named in the page's language."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from serving import Serve, host_of

from companion import words

from .test_browser import PHONE

# What each field of a text is filled with: the values that trigger the special cases.
VALUES = {"n": 1, "name": "Emmett", "who": "Emmett", "seat": "2", "seats": "1", "cell": "A1"}


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Serve]:
    running = Serve(tmp_path_factory.mktemp("words")).wait_ready()
    yield running
    running.stop()


def page_in(served: Serve, browser, locale: str, path: str = "/table"):
    page = browser.new_context(locale=locale, **PHONE).new_page()
    page.goto(served.url + path)
    page.wait_for_load_state("load")  # the deferred scripts have run
    return page


def rendered(page) -> dict[str, str]:
    """Every text of the page's table, filled with VALUES (other fields with a word)."""
    return page.evaluate(
        """(values) => Object.fromEntries(Object.keys(R25.texts.t).map((key) => {
            const fields = {};
            const found = R25.texts.t[key].matchAll(/\\{([a-z_]+)[^}]*\\}/g);
            for (const [, f] of found) fields[f] = values[f] ?? "x";
            return [key, R25.t(key, fields)];
        }))""",
        VALUES,
    )


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_every_text_renders_whole(served, browser, locale):
    texts = rendered(page_in(served, browser, locale))
    assert len(texts) > 250
    unfilled = {k: v for k, v in texts.items() if re.search(r"\{[a-z_]+\}", v)}
    assert unfilled == {}
    # A count is said by the language's plural rules, never as "robot(s)".
    assert [v for v in texts.values() if "(s)" in v] == []


def test_french_typography_and_elision(served, browser):
    page = page_in(served, browser, "fr-FR")
    texts = rendered(page)
    # A no-break space before : ; ? ! in every French text, whichever catalogue it came from.
    unspaced = r"(?<![\u00a0\u202f])[:;?!]([\s)\]»]|$)"
    loose = {k: v for k, v in texts.items() if re.search(unspaced, v)}
    assert loose == {}
    said = page.evaluate(
        """() => [R25.withName("whose_action", "emmett"), R25.withName("whose_action", "kevin"),
                  R25.t("log_role_revealed", { who: "Alice" }),
                  R25.withName("talent_needed", "emmett"), R25.colon("Carte en jeu") + "x",
                  R25.typography("(le mot « expect » ?)")]"""
    )
    assert said == [
        "Action d'Emmett",
        "Action de Kevin",
        "Le rôle d'Alice est révélé.",
        "Choisissez ce que fait le talent d'Emmett avant de valider.",
        "Carte en jeu\u00a0: x",
        "(le mot « expect »\u00a0?)",
    ]


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en-GB", ["0 turns left", "1 turn left", "2 turns left", "Winning seat: 3",
                   "Winning seats: 1, 3", "1 robot", "2 robots", "1 card to draw"]),
        ("fr-FR", ["0 tour restant", "1 tour restant", "2 tours restants",
                   "Place gagnante\u00a0: 3", "Places gagnantes\u00a0: 1, 3", "1 robot",
                   "2 robots", "1 carte à piocher"]),
    ],
)  # fmt: skip
def test_counts_follow_each_languages_plural_rules(served, browser, locale, expected):
    page = page_in(served, browser, locale)
    said = page.evaluate(
        """() => [R25.tn("turns_left_label", 0), R25.tn("turns_left_label", 1),
                  R25.tn("turns_left_label", 2), R25.tn("winning_seats", 1, { seats: "3" }),
                  R25.tn("winning_seats", 2, { seats: "1, 3" }), R25.tn("robots_n", 1),
                  R25.tn("robots_n", 2), R25.tn("mac_draw_pile", 1)]"""
    )
    assert said == expected


@pytest.mark.parametrize(
    ("locale", "row", "column"), [("en-GB", "row 2", "column D"), ("fr-FR", "ligne 2", "colonne D")]
)
def test_cells_and_lines_are_named_as_people_name_them(served, browser, locale, row, column):
    page = page_in(served, browser, locale)
    said = page.evaluate(
        """() => [R25.cellName(0), R25.cellName(7), R25.cellName(24), R25.cellName("C2"),
                  R25.describe({ type: "act", cell: 0 }), R25.lineName("row2"),
                  R25.lineName("colD"), R25.describe({ type: "act", line: "colD" })]"""
    )
    assert said == ["A1", "C2", "E5", "C2", "A1", row, column, column]


@pytest.mark.parametrize("locale", ["en-GB", "fr-FR"])
def test_every_room_fits_its_cell_on_a_phone_and_the_board_has_coordinates(served, browser, locale):
    page = page_in(served, browser, locale, "/")
    found = page.evaluate(
        """() => {
            const ids = Object.keys(R25.texts.names.rooms);
            const spill = [];
            const box = document.createElement("div");
            box.className = "board";
            document.getElementById("main").prepend(box);
            for (let start = 0; start < ids.length; start += 25) {
                const complex = [0, 1, 2, 3, 4].map((r) => [0, 1, 2, 3, 4].map((c) => ({
                    cell: "ABCDE"[c] + (r + 1), room: ids[(start + r * 5 + c) % ids.length],
                    occupants: [], reminders: [], robots: 0 })));
                Board.draw(box, { complex }, { coords: true, short: true });
                for (const cell of box.querySelectorAll(".cell")) {
                    const name = cell.querySelector(".room");
                    // A word wider than its cell spills out of the name's line box.
                    const wide = name.scrollWidth > name.clientWidth;
                    const tall = cell.scrollHeight > cell.clientHeight + 1;
                    if (wide || tall) spill.push(name.textContent);
                }
            }
            const coords = [...box.querySelectorAll(".coord")].map((c) => c.textContent).join("");
            return { spill, coords, width: box.querySelector(".cell").clientWidth };
        }"""
    )
    assert found["spill"] == []
    assert re.sub(r"\d", "", found["coords"]) == "ABCDE"
    assert re.sub(r"\D", "", found["coords"]) == "12345"


def test_compositions_are_named_in_the_pages_language(served):
    host = host_of(served)
    host.post("/api/language", {"lang": "fr"})
    status, options = host.get("/api/host/wizard?edition=base&mode=suspicion&players=5")
    assert status == 200
    assert options["composition_names"]["beginner"] == "Débutant"
    host.post("/api/language", {"lang": "en"})
    _, options = host.get("/api/host/wizard?edition=base&mode=suspicion&players=5")
    assert options["composition_names"]["expert-suspicion"] == "Expert: Suspicion mode"


def test_revealed_rooms_show_their_colour_and_a_symbol_drawn_by_the_project(served, browser):
    page = browser.new_context(viewport={"width": 1920, "height": 1080}).new_page()
    page.goto(served.url + "/table")
    page.wait_for_load_state("load")
    found = page.evaluate(
        """() => {
            const colours = R25.texts.names.colours;
            const ids = Object.keys(colours);
            const complex = [0, 1, 2, 3, 4].map((r) => [0, 1, 2, 3, 4].map((c) => ({
                cell: "ABCDE"[c] + (r + 1), room: r === 4 ? null : ids[(r * 5 + c) % ids.length],
                occupants: [], reminders: [], robots: 0 })));
            const box = document.createElement("div");
            box.className = "board";
            document.getElementById("main").prepend(box);
            Board.draw(box, { complex }, { coords: true });
            return [...box.querySelectorAll(".cell")].map((cell) => {
                const svg = cell.querySelector("svg.symbol");
                const room = complex.flat().find((c) => c.cell === cell.dataset.cell).room;
                return { colour: room ? colours[room] : null,
                         symbol: svg ? svg.getAttribute("class") : null,
                         drawn: svg ? svg.querySelector("path").getAttribute("d").length : 0,
                         shown: svg ? svg.getBoundingClientRect().width : 0 };
            });
        }"""
    )
    revealed = [c for c in found if c["colour"]]
    assert len(revealed) == 20 and {c["colour"] for c in revealed} >= {"green", "yellow", "red"}
    assert all(c["symbol"] == f"symbol s-{c['colour']}" for c in revealed), revealed
    assert all(c["drawn"] > 10 and c["shown"] > 10 for c in revealed)
    assert all(c["symbol"] is None for c in found if not c["colour"])  # a hidden room shows none


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("en-GB", "Free slots of your choice: 1 green and 5 yellow."),
        ("fr-FR", "Emplacements libres à votre choix\u00a0: 1 verte et 5 jaunes."),
        ("de-DE", "Freie Plätze nach Wahl: 1 grüner und 5 gelbe."),
    ],
)
def test_a_counted_colour_agrees_with_its_count(served, browser, locale, expected):
    """The wizard's and the set-up step's free slots: "5 jaunes", not "5 jaune"."""
    page = page_in(served, browser, locale)
    assert page.evaluate("() => R25.freeSlots({ green: 1, yellow: 5 })") == expected


# Values that meet each rule of `fill`: a name starting with a vowel (elision), a cell (none),
# a list (the language's words), a count.
BOTH_VALUES = [
    {"n": 1, "name": "Alice", "who": "Emmett", "seat": "8", "cell": "A3", "seats": ["1", "3"]},
    {"n": 2, "name": "Max", "who": "Alice", "seat": "1", "cell": "E5", "seats": ["Alice"]},
]


@pytest.mark.parametrize("lang", words.languages())
def test_the_pages_fill_and_count_every_text_as_python_does(served, browser, lang) -> None:
    """Issue 30, point 1: one way to fill a text, and one set of plural rules. The pages' script
    (words.js, Intl.PluralRules) and Python (`companion.words`: the folder's language.json)
    give the same sentence for every text a page gets, and the same plural category for every
    count from 0 to 1000."""
    page = page_in(served, browser, lang)
    assert page.evaluate("R25.texts.lang") == lang
    table = page.evaluate("R25.texts.t")
    for values in BOTH_VALUES:
        asked = {
            key: {f: values.get(f, "x") for f in words.placeholders(text)}
            for key, text in table.items()
        }
        in_script = page.evaluate(
            "(asked) => Object.fromEntries(Object.entries(asked).map(([key, params]) =>"
            " [key, R25Words.fill(R25.texts.language, R25.texts.t[key], params)]))",
            asked,
        )
        in_python = {key: words.fill(lang, table[key], params) for key, params in asked.items()}
        assert {k: v for k, v in in_script.items() if v != in_python[k]} == {}
    counted = page.evaluate(
        "(lang) => Array.from({ length: 1001 }, (_, n) => new Intl.PluralRules(lang).select(n))",
        lang,
    )
    assert counted == [words.plural(lang, n) for n in range(1001)]
