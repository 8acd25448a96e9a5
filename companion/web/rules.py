"""Rules at a tap: `/rules`, every rule of an edition on one searchable page that needs no game,
and `GET /api/rules`, the same as JSON for the taps of every page (static/rules.js). Without
`?edition=` the rules are the running game's, its own settings deciding each disputed point
(the ruleset is in the public view: no secret); with no game, the base edition's."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request

from companion import engine

from .guard import lang
from .i18n import table
from .pages import script_texts
from .replies import refusal

blueprint = Blueprint("rules", __name__)
SETTING_FIELDS = frozenset(f.name for f in fields(engine.Settings))


def _game_rules() -> tuple[str, engine.Settings | None, bool]:
    """The current game's edition and settings, else the base edition's defaults; the flag
    says whether there is a game."""
    view = current_app.extensions["room25.session"].snapshot("public").get("view") or {}
    ruleset = view.get("ruleset") or {}
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
    return {
        "edition": edition,
        "lang": chosen,
        "rules": [rule.as_dict() for rule in found],
        "cards": cards if edition != "base" else {},
    }


def _refused_edition() -> Any:
    return refusal(lang(), "rules_unknown_edition", 400, editions=", ".join(engine.EDITIONS))


@blueprint.get("/api/rules")
def rules_json() -> Any:
    chosen = _chosen()
    if chosen is None:
        return _refused_edition()
    edition, settings, of_game = chosen
    return jsonify({**_rules(edition, settings, lang()), "game": of_game})


@blueprint.get("/rules")
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
        page="rules",
        texts=script_texts(here),
        found=_rules(edition, settings, here),
        editions=engine.EDITIONS,
        of_game=of_game,
    )
