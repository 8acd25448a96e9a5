"""The table's history: every game of the journal (date, edition, mode, composition, players,
result, the names the host typed), and per edition, mode, players and composition how this
table fares beside the simulator. The host page (`GET /api/host/history`) and `room25 stats`
print the same, from here.

A game counts in the rates once it has an outcome. A rigged game (its seed, roles or complex
chosen by hand) is listed but not counted: chance did not deal it. A complex given room by room,
or a game tracked by the countdown alone, has no simulated rate (the simulator deals a named
composition).
"""

from __future__ import annotations

import json
import time
from collections import Counter
from collections.abc import Callable
from typing import NotRequired, TypedDict

from companion.engine import compose
from companion.engine.kernel.catalogue import composition_name
from companion.session.archive import outcome_of
from companion.session.journal import GameRecord, Journal
from companion.words import colon, counted, text

from .names import seats_of

CUSTOM = "custom"  # a complex given room by room, or none (countdown tracking)

# The simulated rates of a setup: what they are, or None while they are worked out.
Rates = Callable[[dict], dict | None]


class HistoryGame(TypedDict):
    """One game of the history, as the host page and `room25 stats` show it."""

    game: str
    date: str  # local time, minutes
    status: str
    edition: str  # the setup's (the engine accepted it), "base" when it names none
    mode: str  # the setup's, "suspicion" when it names none
    composition: str  # its id, or `CUSTOM`
    players: int | None
    result: object  # the outcome's, None before it is over
    winners: object  # the outcome's seats
    rigged: bool
    names: dict[str, str]  # seat -> the name the host typed
    composition_name: NotRequired[str]  # the web's, in the page's language


class HistoryGroup(TypedDict):
    """The games of one edition, mode, players and composition, with this table's rates and
    the simulator's (None while they are worked out, or when it cannot play the setup)."""

    edition: str
    mode: str
    players: int | None
    composition: str
    mac: object  # the M.A.C. level the simulator plays
    games: int
    counts: dict[str, int]  # result -> games
    rates: dict[str, float]  # result -> share of the games
    simulated: dict | None  # the simulator's cache entry (`Simulated.cached`)
    simulating: bool
    composition_name: NotRequired[str]  # the web's, in the page's language
    chart: NotRequired[str]  # the web's SVG chart


class TableHistory(TypedDict):
    """What `table_history` finds: the games, oldest first, and their groups, most played
    first."""

    games: list[HistoryGame]
    groups: list[HistoryGroup]


def composition_of(setup: dict) -> str:
    """The composition id a game was dealt from: the one named, else the first one the
    wizard suggests for its table (as the engine picks it), else `custom`."""
    chosen = setup.get("composition")
    if isinstance(chosen, str):
        return chosen
    if chosen is not None or "complex" in setup or setup.get("tracking") == "countdown":
        return CUSTOM
    edition, mode = setup.get("edition", "base"), setup.get("mode", "suspicion")
    players = len(seats_of(setup))
    try:
        return compose.compositions_for(edition, mode, players, guards=setup.get("guards"))[0].id
    except compose.CompositionError:
        return CUSTOM


def _row(record: GameRecord, names: dict[str, str]) -> HistoryGame:
    setup = record.setup
    outcome = outcome_of(record)
    return {
        "game": record.id,
        "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(record.created)),
        "status": record.status,
        "edition": str(setup.get("edition", "base")),
        "mode": str(setup.get("mode", "suspicion")),
        "composition": composition_of(setup),
        "players": len(seats_of(setup)) or None,
        "result": outcome.get("result") if outcome else None,
        "winners": outcome.get("winners", []) if outcome else [],
        "rigged": bool(record.options.get("rigged")),
        "names": names,
    }


def simulation_setup(row: HistoryGame, setup: dict) -> dict | None:
    """The setup `room25 simulate` plays for a game's group, or None when it cannot."""
    if row["composition"] == CUSTOM or not row["players"]:
        return None
    found = {
        "edition": row["edition"],
        "mode": row["mode"],
        "players": row["players"],
        "composition": row["composition"],
    }
    if setup.get("guards") is not None:
        found["guards"] = setup["guards"]
    mac = (setup.get("settings") or {}).get("mac")
    if mac is not None:
        found["settings"] = {"mac": mac}
    return found


def _rates(counts: Counter, games: int) -> dict[str, float]:
    return {result: counts[result] / games for result in sorted(counts)} if games else {}


def table_history(journal: Journal, simulated: Rates) -> TableHistory:
    """The games, oldest first, and the groups of games with their rates and the simulator's."""
    names = journal.names()
    records = journal.games()
    games = [_row(r, names.get(r.id, {})) for r in records]
    # Per group: its first game (edition, mode, players, composition), the simulator's setup
    # and the results counted.
    counted: dict[str, tuple[HistoryGame, dict | None, Counter]] = {}
    for record, row in zip(records, games, strict=True):
        if row["result"] is None or row["rigged"]:
            continue
        sim = simulation_setup(row, record.setup)
        key = json.dumps(
            [row["edition"], row["mode"], row["players"], row["composition"], sim], sort_keys=True
        )
        counted.setdefault(key, (row, sim, Counter()))[2][row["result"]] += 1
    found: list[HistoryGroup] = []
    for first, setup, counts in counted.values():
        played = sum(counts.values())
        rates = simulated(setup) if setup is not None else None
        found.append(
            {
                "edition": first["edition"],
                "mode": first["mode"],
                "players": first["players"],
                "composition": first["composition"],
                "mac": ((setup or {}).get("settings") or {}).get("mac"),
                "games": played,
                "counts": dict(sorted(counts.items())),
                "rates": _rates(counts, played),
                "simulated": rates,
                "simulating": setup is not None and rates is None,
            }
        )
    found.sort(key=lambda g: (-g["games"], g["edition"], g["mode"], g["players"] or 0))
    return {"games": games, "groups": found}


def _percent(lang: str, rate: float | None) -> str:
    return "–" if rate is None else text(lang, "stats_percent", percent=round(rate * 100))


def composition_shown(lang: str, composition: str) -> str:
    """A composition by its name in `lang`, a custom complex as such (the terminal, the host's
    page)."""
    if composition == CUSTOM:
        return text(lang, "history_custom")
    return composition_name(composition, lang)


def _played(lang: str, row: HistoryGame | HistoryGroup) -> str:
    """The edition, mode, players and composition of a game or a group, in words."""
    mode, edition = text(lang, f"mode_{row['mode']}"), text(lang, f"edition_{row['edition']}")
    players = row["players"]
    seats = (
        counted(lang, "stats_players", players) if players else text(lang, "stats_players_unknown")
    )
    composition = composition_shown(lang, row["composition"])
    return text(
        lang, "stats_setup", mode=mode, edition=edition, players=seats, composition=composition
    )


def _game_line(lang: str, game: HistoryGame) -> str:
    result = text(
        lang, f"history_result_{game['result']}" if game["result"] else f"status_{game['status']}"
    )
    if game["rigged"]:
        result += f" ({text(lang, 'history_rigged')})"
    names = ", ".join(colon(lang).join((seat, name)) for seat, name in game["names"].items())
    return f"  {game['date']}  {_played(lang, game)}  {result}" + (f"  [{names}]" if names else "")


def _group_lines(lang: str, group: HistoryGroup) -> list[str]:
    simulated = group["simulated"]
    sim_games = (
        counted(lang, "stats_simulated", simulated["games"])
        if simulated
        else text(lang, "stats_not_simulated")
    )
    played = counted(
        lang, "stats_group", group["games"], setup=_played(lang, group), simulated=sim_games
    )
    lines = [f"  {played}"]
    sim_rates = simulated["results"] if simulated else {}
    results = {r: text(lang, f"history_result_{r}") for r in sorted({*group["rates"], *sim_rates})}
    width = max(map(len, results.values()), default=0)
    for result, name in results.items():
        table = _percent(lang, group["rates"].get(result, 0.0))
        sim = _percent(lang, sim_rates.get(result, 0.0) if simulated else None)
        lines.append(f"    {name:<{width}}  {table:>5} / {sim:>5}")
    return lines


def as_text(found: TableHistory, lang: str) -> str:
    """What `table_history` found, for a terminal (`room25 stats`) in its language: the games,
    then each group with its rates beside the simulator's."""
    lines = [text(lang, "stats_games" if found["games"] else "history_none")]
    lines.extend(_game_line(lang, g) for g in found["games"])
    if found["groups"]:
        lines.append(text(lang, "stats_fares"))
    for group in found["groups"]:
        lines.extend(_group_lines(lang, group))
    return "\n".join(lines)
