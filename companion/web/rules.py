"""Rules at a tap: `/rules`, every rule of an edition on one searchable page that needs no game,
and `GET /api/rules`, the same as JSON for the taps of every page (static/rules.js). Without
`?edition=` the rules are the running game's, its own settings deciding each disputed point
(the ruleset is in the public view: no secret); with no game, the base edition's."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from flask import Blueprint, jsonify, render_template, request

from companion import engine, words
from companion.words.fill import PLACEHOLDER
from companion.words.pages import table, text

from . import parts
from .guard import lang
from .openapi import EDITION, described, get
from .pages import script_texts
from .replies import refusal

blueprint = Blueprint("rules", __name__)
SETTING_FIELDS = frozenset(f.name for f in fields(engine.Settings))
BOOK = re.compile(r"\b(\d{3})(?: / (\d{3}))?\b")  # "000", "001 / 004": rule source files
PAGE_PATH = re.compile(r"/(?!/)[A-Za-z0-9/_.-]*")  # a page of this companion, never another site


def _books() -> dict[str, str]:
    """The rule sources by file number, as a reader of the page's language names them."""
    return {
        "000": text(lang(), "rules_book_ultimate"),
        "001": text(lang(), "rules_book_base_en"),
        "002": text(lang(), "rules_book_season"),
        "003": text(lang(), "rules_book_summary"),
        "004": text(lang(), "rules_book_base_fr"),
    }


def cited(source: str, books: dict[str, str], here: str) -> str:
    """A source as a reader cites it: each file number replaced by the book's name (of a book
    in two languages, "001 / 004", the one in the reader's) and each of the project's own words
    (`{tile_text}`) by the catalogue's `rules_cite_` text, the book's headings and quotes as
    printed; only the parts citing a rulebook in the reader's language (its folder's
    `rulebooks`) where the source has some, unless that is the fallback language's."""
    parts = [part.strip() for part in source.split(";")]
    own = set(words.settings(here).get("rulebooks", ()))

    def in_own(part: str) -> bool:
        return any(n in own for m in BOOK.finditer(part) for n in m.groups() if n)

    if words.offered(here) != words.fallback() and any(in_own(part) for part in parts):
        parts = [part for part in parts if in_own(part)]

    def name(found: re.Match) -> str:
        numbers = [n for n in found.groups() if n]
        mine = [n for n in numbers if n in own]
        return books.get((mine or numbers)[0], found[0])

    def said(found: re.Match) -> str:
        return text(here, f"rules_cite_{found[1]}")

    # Word by word, not the whole source through `fill`: its French spacing before ":" would
    # change an English heading as printed ("ROOMS: Central room").
    return "; ".join(PLACEHOLDER.sub(said, BOOK.sub(name, part)) for part in parts)


def _rule(rule: dict, books: dict[str, str], here: str) -> dict:
    """A rule as JSON, its sources cited in the page's language."""
    for point in rule["points"]:
        for reading in (point["chosen"], *point["others"]):
            reading["source"] = cited(reading["source"], books, here)
    return {**rule, "source": cited(rule["source"], books, here)}


def _game_rules() -> tuple[str, engine.Settings | None, bool]:
    """The current game's edition and settings, else the base edition's defaults; the flag
    says whether there is a game."""
    view = parts.session().snapshot("public")["view"]
    ruleset: Mapping[str, Any] = (view.get("ruleset") if view else None) or {}
    edition = ruleset.get("edition")
    if edition not in engine.EDITIONS:
        return "base", None, False
    given = ruleset.get("settings") or {}
    settings = engine.Settings(**{k: v for k, v in given.items() if k in SETTING_FIELDS})
    return edition, settings, True


def _chosen() -> tuple[str, engine.Settings | None, bool] | None:
    """The edition asked for (`?edition=`, its defaults), else the game's; None when the asked
    edition is not one of the three. The flag says whether they are the running game's."""
    asked = request.args.get("edition")
    if asked is None:
        return _game_rules()
    return (asked, None, False) if asked in engine.EDITIONS else None


def _rules(edition: str, settings: engine.Settings | None, chosen: str) -> dict[str, Any]:
    found = engine.rule_texts(chosen, edition, settings)
    cards = {card.id: f"card:{card.kind}" for card in engine.load_deck().cards}
    books = _books()
    return {
        "edition": edition,
        "lang": chosen,
        "rules": [_rule(rule.as_dict(), books, chosen) for rule in found],
        "cards": cards if edition != "base" else {},
    }


def _refused_edition() -> Any:
    return refusal(lang(), "rules_unknown_edition", 400, editions=", ".join(engine.EDITIONS))


@blueprint.get("/api/rules")
@described(
    "/api/rules",
    get(
        "Every rule of an edition in the caller's language: the current game's (its "
        "settings decide each disputed point), else the base game's; 400 for an edition "
        "not one of the three",
        parameters=(EDITION,),
    ),
)
def rules_json() -> Any:
    chosen = _chosen()
    if chosen is None:
        return _refused_edition()
    edition, settings, of_game = chosen
    return jsonify({**_rules(edition, settings, lang()), "game": of_game})


@blueprint.get("/rules")
@described("/rules", get("The rules page, searchable, without a game", "text/html", (EDITION,)))
def rules_page() -> Any:
    chosen = _chosen()
    if chosen is None:
        return _refused_edition()
    edition, settings, of_game = chosen
    here = lang()
    return render_template(
        "rules.html",
        lang=here,
        t=table(here),
        colon=words.colon(here),
        page="rules",
        texts=script_texts(here),
        found=_rules(edition, settings, here),
        editions=engine.EDITIONS,
        of_game=of_game,
        back=_back(),
    )


def _back() -> str:
    """Where "Back to the game" leads: the page whose Rules link opened this one (`?back=`, a
    path of this companion), else the phone's page."""
    asked = request.args.get("back", "")
    return asked if PAGE_PATH.fullmatch(asked) else "/"
