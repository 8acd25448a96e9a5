"""Rules at a tap: what a room, a M.A.C. card, a talent, an action or a mode does, in English
or French, as a game's edition and settings decide it.

A rule's name and text come from the catalogue that already holds them (rooms.json for a room,
the default M.A.C. deck for a Madness card) or from `data/rule_texts.json`, which also lists the
points where the rulebooks disagree. A point tied to a setting reads the game's value as the
decision and every other value as the alternative, each with its source: the same setting the
engine's decisions follow, so the text a player reads cannot drift from what the engine plays.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cache

from companion import words

from .catalogue import box, characters, load, room_name, room_text, rooms
from .mac_cards import KIND_LEVELS
from .mac_deck import load_deck
from .ruleset import EDITIONS, MODES, Settings, make_ruleset
from .state import ACTIONS

# What a rule is about, in the order the /rules page lists them.
SUBJECTS = ("room", "card", "talent", "action", "mode")
# The actions of Season 2 and Ultimate besides the four basic ones.
NEW_ACTIONS = ("talent", "adrenaline")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way a rulebook reads a point: the setting's value (or "decision" / "other"), the
    text and where it is written."""

    value: str
    text: str
    source: str


@dataclass(frozen=True, slots=True)
class Point:
    """A point where the rulebooks disagree: the game's reading and the others."""

    about: str
    setting: str | None
    chosen: Reading
    others: tuple[Reading, ...]


@dataclass(frozen=True, slots=True)
class RuleText:
    id: str  # "room:flooded", "card:panic", "talent:jennifer", "action:look", "mode:solo"
    subject: str
    name: str
    text: str
    source: str
    points: tuple[Point, ...]

    def as_dict(self) -> dict:
        return asdict(self)


@cache
def _entries() -> dict[str, dict]:
    return dict(load("rule_texts.json")["texts"])


def _said(rule_id: str, part: str, lang: str) -> str | None:
    """A rule's words in the catalogue (`rule_<subject>_<id>_<part>`), or None."""
    return words.texts(lang).get("rule_" + rule_id.replace(":", "_") + "_" + part)


@cache
def _cards() -> dict[str, dict[str, str]]:
    """The first card of each kind in the default deck: its name and text in both languages."""
    found: dict[str, dict[str, str]] = {}
    for card in load_deck().cards:
        found.setdefault(card.kind, card.display.fields())
    return found


def subjects(edition: str) -> list[str]:
    """Every rule id an edition plays: the rooms of its box, and from Season 2 on the M.A.C.
    cards, the talents, the Special ability and the Adrenaline."""
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
    later = edition != "base"
    found = [f"room:{kind}" for kind, count in box(edition).items() if count]
    found += [f"card:{kind}" for kind in KIND_LEVELS] if later else []
    found += [f"talent:{cid}" for cid in characters()] if later else []
    found += [f"action:{a}" for a in (*ACTIONS, *(NEW_ACTIONS if later else ()))]
    return found + [f"mode:{mode}" for mode in MODES]


def _base(rule_id: str, lang: str) -> dict[str, str]:
    """Name and text from the catalogue that holds them, where one does."""
    subject, key = rule_id.split(":", 1)
    if subject == "room" and key in rooms():
        return {"name": room_name(key, lang), "text": room_text(key, lang)}
    if subject == "card" and key in _cards():
        card = _cards()[key]
        return {"name": card[f"name_{lang}"], "text": card[f"text_{lang}"]}
    if subject == "mode" and key in MODES:
        return {"name": words.texts(lang)[f"mode_{key}"], "text": ""}
    return {"name": "", "text": ""}


def _value(settings: Settings, setting: str) -> str:
    found = getattr(settings, setting)
    return str(found).lower() if isinstance(found, bool) else str(found)


def _point(rule_id: str, n: int, point: dict, lang: str, settings: Settings) -> Point:
    readings = [
        Reading(value, _said(rule_id, f"point{n}_{value}", lang) or "", r["source"])
        for value, r in point["readings"].items()
    ]
    setting = point.get("setting")
    wanted = _value(settings, setting) if setting else readings[0].value
    chosen = next(r for r in readings if r.value == wanted)
    others = tuple(r for r in readings if r is not chosen)
    return Point(_said(rule_id, f"point{n}_about", lang) or "", setting, chosen, others)


def rule_text(
    rule_id: str, lang: str = "", edition: str = "base", settings: Settings | None = None
) -> RuleText:
    """One rule in a language, as an edition and its settings (the edition's defaults when
    none are given) decide it; KeyError for a rule the catalogues do not know."""
    entry = _entries()[rule_id]
    lang = words.offered(lang)
    settings = settings or make_ruleset(edition, "suspicion").settings
    found = _base(rule_id, lang)
    own = entry.get("by_edition", {}).get(edition)
    text = _said(rule_id, f"{edition}_text" if own else "text", lang) or found["text"]
    points = tuple(
        _point(rule_id, n, point, lang, settings)
        for n, point in enumerate(entry.get("points", ()))
        if edition in point.get("editions", EDITIONS)
    )
    return RuleText(
        id=rule_id,
        subject=rule_id.split(":", 1)[0],
        name=_said(rule_id, "name", lang) or found["name"],
        text=text,
        source=own["source"] if own else entry["source"],
        points=points,
    )


@cache
def rule_texts(lang: str, edition: str, settings: Settings | None = None) -> tuple[RuleText, ...]:
    """Every rule an edition plays, in a language: made once for each language, edition and
    settings (each tap on a page asks for them)."""
    settings = settings or make_ruleset(edition, "suspicion").settings
    return tuple(rule_text(rule_id, lang, edition, settings) for rule_id in subjects(edition))
