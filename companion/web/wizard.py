"""What the host's setup wizard needs to know before a game exists: the players a mode allows,
the characters each seat plays, the compositions and the tiles to take out of the box."""

from __future__ import annotations

from typing import Any

from companion.engine import (
    EDITIONS,
    MODES,
    characters_per_seat,
    compose,
    make_ruleset,
    refusal_text,
    turns_for,
)
from companion.words.pages import names, text


def _players(edition: str, mode: str) -> list[int]:
    try:
        return list(compose.legal_players(edition, mode))
    except (compose.CompositionError, ValueError):
        return []


def options(
    edition: str, mode: str, players: int, composition: str | None, lang: str
) -> dict[str, Any]:
    """The wizard's choices for one table, with the tile list of the chosen composition. Bad
    choices give an "error" in plain words rather than an exception."""
    found: dict[str, Any] = {
        "editions": list(EDITIONS),
        "modes": list(MODES),
        # The seats of the last game: kept (the default) or picked again; see docs/web.md.
        "seat_claims": ["keep", "clear"],
    }
    if edition not in EDITIONS:
        said = {"edition": edition[:20], "choices": list(EDITIONS)}
        return {**found, "error": refusal_text("unknown_edition", said, lang)}
    if mode not in MODES:
        said = {"mode": mode[:20], "choices": list(MODES)}
        return {**found, "error": refusal_text("unknown_mode", said, lang)}
    legal = _players(edition, mode)
    found["players"] = legal
    if players not in legal:
        said = {"mode": text(lang, f"mode_{mode}"), "players": [str(n) for n in legal]}
        return {**found, "error": text(lang, "wizard_players", **said)}
    ruleset = make_ruleset(edition, mode)
    per = characters_per_seat(ruleset, players)
    found["characters_per_seat"] = per
    found["turns"] = turns_for(edition, mode, per * players)
    try:
        choices = compose.compositions_for(edition, mode, players)
        chosen = compose.get_composition(composition) if composition else choices[0]
        tiles = compose.tile_list(chosen)
    except compose.CompositionError as error:
        return {**found, "error": error.text(lang)}
    found["compositions"] = [c.id for c in choices]
    found["composition_names"] = {c.id: c.name(lang) for c in choices}
    found["composition"] = tiles.composition
    found["tiles"] = [
        {
            "room": line.room,
            "name": names(lang)["rooms"].get(line.room, line.room),
            "colour": line.colour,
            "count": line.count,
            "placement": line.placement,
        }
        for line in tiles.lines
    ]
    found["free_slots"] = dict(tiles.unfilled)
    return found
