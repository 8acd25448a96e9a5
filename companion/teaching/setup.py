"""The physical set-up of a new game, one step per Next (issue 32, point 1): which steps a game
needs (`setup.json`) and their parameters, all public (tiles, counts, characters, turns), so
the host page, the table page, the OLED and the voice may show and say every one of them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, TypedDict

from companion.engine import PublicView, compose, make_ruleset
from companion.engine.kernel.catalogue import characters, room_name
from companion.engine.rules.setup import role_tiles
from companion.words import text

# The reversible board's side by mode (001, SETUP: "10 turns side" for Suspicion, Competition
# and Team, "8 turns side" for Cooperation and Solo; 000, COUNTDOWN likewise).
_BOARD_SIDE = {"suspicion": 10, "competition": 10, "team": 10, "cooperation": 8, "solo": 8}


class SetupStepView(TypedDict):
    """One step of the physical set-up as an update carries it: public ids and numbers only,
    each screen putting it into its own words (`setup_<key>`)."""

    id: str
    key: str
    params: dict[str, object]


@dataclass(frozen=True)
class SetupStep:
    """One step of the set-up: its id (its words are `setup_<key>`), its parameters (ids and
    numbers only, put into words by `step_text`) and the rulebook section it is written from."""

    id: str
    key: str
    source: str
    params: Mapping[str, object] = field(default_factory=dict)

    def as_dict(self) -> SetupStepView:
        """The step as an update carries it (the session's public part)."""
        return {"id": self.id, "key": self.key, "params": dict(self.params)}


def _load() -> tuple[dict[str, Any], ...]:
    data = json.loads(resources.files(__package__).joinpath("setup.json").read_text("utf-8"))
    return tuple(data["steps"])


STEPS: tuple[dict[str, Any], ...] = _load()


def _facts(view: PublicView) -> dict[str, object]:
    """What a step's `when` may name, from the new game's public view."""
    ruleset = view["ruleset"]
    settings = ruleset["settings"]
    return {
        "edition": ruleset["edition"],
        "mode": ruleset["mode"],
        "tracking": ruleset["tracking"],
        "mac": bool(view.get("mac")),
        "mac_deck": settings["mac_deck"],
        "adrenaline": settings["adrenaline"],
        "talents": settings["talents"],
    }


def _applies(when: Mapping[str, object], facts: Mapping[str, object]) -> bool:
    return all(
        facts[name] in wanted if isinstance(wanted, list) else facts[name] == wanted
        for name, wanted in when.items()
    )


def _tiles(view: PublicView, composition: object, guards: object) -> compose.TileList:
    """The tile list of the game's composition: the one named, else the first suggested (as
    the engine chose it, rules/setup.py `_composition`)."""
    ruleset = view["ruleset"]
    if isinstance(composition, str):
        return compose.tile_list(compose.get_composition(composition))
    players = len({entry["seat"] for entry in view["characters"].values()})
    found = compose.compositions_for(
        ruleset["edition"], ruleset["mode"], players, guards=guards if guards in (1, 2) else None
    )
    return compose.tile_list(found[0])


def _params(step: str, view: PublicView, setup: Mapping[str, object]) -> dict[str, object]:
    """A step's parameters; only public facts of the new game."""
    ruleset = view["ruleset"]
    seats = sorted({entry["seat"] for entry in view["characters"].values()})
    if step in ("compose", "set_aside"):
        tiles = _tiles(view, setup.get("composition"), setup.get("guards"))
        if step == "set_aside":
            return {"rooms": [line.room for line in tiles.exit_zone]}
        rooms = [{"room": line.room, "count": line.count} for line in tiles.lines]
        return {
            "composition": tiles.composition,
            "count": tiles.tiles,
            "rooms": rooms,
            "free": dict(tiles.unfilled),
        }
    if step == "material":
        owned: dict[str, list[str]] = {seat: [] for seat in seats}
        for character, entry in view["characters"].items():
            owned[entry["seat"]].append(character)
        return {"seats": owned}
    if step == "countdown":
        side = _BOARD_SIDE[ruleset["mode"]]
        return {"side": side, "turns": view["turns_left"], "order": list(view["order"])}
    if step == "roles_tiles":
        rules = make_ruleset(ruleset["edition"], ruleset["mode"], ruleset["tracking"])
        dealt = role_tiles(rules, len(seats), setup.get("guards"))
        return {"prisoners": dealt.count("prisoner"), "guards": dealt.count("guard")}
    if step == "mac_physical":
        return {"level": view["mac"]["level"]}
    return {}


def setup_steps(view: PublicView, setup: Mapping[str, object]) -> tuple[SetupStep, ...]:
    """The set-up steps of a new game, from its public view (edition, mode, tracking, seats and
    their characters, turns, M.A.C. deck) and the host's setup (its composition and guards)."""
    facts = _facts(view)
    found = []
    for entry in STEPS:
        if not _applies(entry["when"], facts):
            continue
        params = _params(entry["id"], view, setup)
        key = f"{entry['id']}_{params['level']}" if "level" in params else entry["id"]
        found.append(SetupStep(entry["id"], key, entry["source"], params))
    return tuple(found)


def step_text(step: SetupStepView, lang: str) -> str:
    """A step (as `SetupStep.as_dict` gives it) in one short sentence, for the OLED and the
    voice: rooms and characters named as the language's rulebook prints them."""
    params = step["params"]
    values: dict[str, object] = dict(params)
    rooms, order = params.get("rooms"), params.get("order")
    if step["id"] == "set_aside" and isinstance(rooms, list):
        values["rooms"] = [room_name(str(r), lang) for r in rooms]
    if step["id"] == "countdown" and isinstance(order, list) and order:
        last = str(order[-1])
        values["last"] = characters().get(last, {}).get("name", last)
    return text(lang, f"setup_{step['key']}", **values)
