"""Games out of the journal: the history list, a game exported as one JSON file, and such a file
rebuilt into its end state (`room25 games`, `room25 export GAME`, `room25 replay FILE`).

An export of a game the table saw end holds everything (seed, commands, every event): the secrets
are out anyway at the end. An export of a game still being played, or set aside by a new game
(it may be resumed, so its secrets are as secret as a running game's), holds only what the whole
table may see: the setup without what deals the hidden parts (the seed, rigged roles, a rigged
complex or M.A.C. deck), and the public record of events, so a player handed the file learns
nothing of the others' roles, rooms or programming. The games list is as careful while a game
runs: its `commands` counts only the commands the table saw (a seat's private programme is not
one).
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import TypedDict, TypeGuard, cast

from companion import engine
from companion.words.said import say

from .journal import GameRecord, Journal, JournalError
from .shapes import Export, ExportHead, FinishedExport, GameListing, OpenExport

EXPORT_FORMAT = "room25-game"
EXPORT_VERSION = 1
# The table saw these end: over by the rules, or ended by the host. An abandoned game (replaced
# by a new one) may still be resumed, so its secrets are not told, to the host neither.
SEEN_OVER = ("over", "ended")
# Setup fields that deal what the table must not know until the game is over.
SECRET_SETUP = ("seed", "roles", "complex", "deck")
# The fields an export's readers take, and what JSON gives back for each (`shapes.Export`):
# a file from disk is checked against them once, where it is read.
NUMBER = (int, float)
HEAD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "game": str,
    "status": str,
    "setup": dict,
    "options": dict,
    "created": NUMBER,
    "ended": (*NUMBER, type(None)),
    "outcome": (dict, type(None)),
    "complete": bool,
}
FINISHED_FIELDS: dict[str, type | tuple[type, ...]] = {"seed": int, "start": list, "commands": list}
COMMAND_FIELDS: dict[str, type | tuple[type, ...]] = {
    "seq": int,
    "command": dict,
    "source": str,
    "version": int,
    "accepted": NUMBER,
    "undone": bool,
    "events": list,
}
OPEN_FIELDS: dict[str, type | tuple[type, ...]] = {"public_events": list}


class RebuiltGame(TypedDict):
    """A finished game's export rebuilt into its end state (`room25 replay FILE` prints it)."""

    game: str
    status: str
    commands: int  # those kept (not undone)
    undone: int
    version: int
    waiting: engine.WaitingView
    commands_agree: bool  # applying the commands again gave the journal's events
    view: engine.FullView


def seen_over(exported: Export) -> TypeGuard[FinishedExport]:
    """Whether an export is of a game the table saw end, with every command in it: what the
    reveal, the replay and the recap may tell."""
    return exported["status"] in SEEN_OVER and exported["complete"]


class ExportError(Exception):
    """A file that is not a game export this companion can rebuild: a code of the catalogue
    (`cli_export_error_<code>`, words/<lang>/cli.json) and its values, said in the reader's
    language (`text`); in the fallback language as a plain exception."""

    def __init__(self, code: str, /, **params: object) -> None:
        self.said = say(f"cli_export_error_{code}", **params)
        super().__init__(str(self.said))

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


def listing(journal: Journal) -> list[GameListing]:
    """Every game, oldest first, without secrets."""
    counts = journal.command_counts()
    games = journal.games()
    for g in games:
        if g.status not in SEEN_OVER:
            with contextlib.suppress(JournalError):  # a damaged row: every command counted
                counts[g.id] = _public_commands(journal, g.id)
    return [
        {
            "game": g.id,
            "status": g.status,
            "edition": g.setup.get("edition", "base"),
            "mode": g.setup.get("mode", "suspicion"),
            "tracking": g.setup.get("tracking", "dealt"),
            "players": g.setup.get("players"),
            "outcome": outcome_of(g),
            "created": g.created,
            "ended": g.ended,
            "commands": counts.get(g.id, 0),
        }
        for g in games
    ]


def outcome_of(record: GameRecord) -> dict[str, object] | None:
    """A game's outcome read back: the JSON object the session wrote once it was over, else
    None (still playing, or a row the companion did not write)."""
    found = json.loads(record.outcome) if record.outcome else None
    return found if isinstance(found, dict) else None


def _public_commands(journal: Journal, game: str) -> int:
    """How many commands of a running game the table saw: those with a public event."""
    return sum(
        any(event.get("private") is None for event in c.events) for c in journal.commands(game)
    )


def export(journal: Journal, game: str) -> Export | None:
    """One game as a JSON-ready dict (None: no such game)."""
    record = journal.game(game)
    if record is None:
        return None
    start = journal.start_events(game)
    commands = journal.commands(game)
    head: ExportHead = {
        "format": EXPORT_FORMAT,
        "format_version": EXPORT_VERSION,
        "game": record.id,
        "status": record.status,
        "setup": record.setup,
        "options": record.options,
        "created": record.created,
        "ended": record.ended,
        "outcome": outcome_of(record),
        # The host's own file (the recap shows them); no public view is built from this key.
        "names": journal.names(game).get(game, {}),
    }
    if record.status in SEEN_OVER:
        finished: FinishedExport = {
            **head,
            "complete": True,
            "seed": record.seed,
            "start": start,
            "commands": [
                {
                    "seq": c.seq,
                    "command": c.command,
                    "source": c.source,
                    "version": c.version,
                    "accepted": c.accepted,
                    "undone": c.undone,
                    "events": c.events,
                }
                for c in commands
            ],
        }
        return finished
    kept = [e for c in commands if not c.undone for e in c.events]
    going: OpenExport = {
        **head,
        "setup": {k: v for k, v in record.setup.items() if k not in SECRET_SETUP},
        "complete": False,
        "public_events": engine.events_for([*start, *kept], None),
    }
    return going


def rebuild(exported: Export) -> RebuiltGame:
    """The end state of an exported game, checked twice: by replaying its events, and by
    applying its commands again from the setup and seed (they must give the same events)."""
    if exported["complete"] is False:
        raise ExportError("not_over")
    kept = [c for c in exported["commands"] if not c["undone"]]
    events = [*exported["start"], *(e for c in kept for e in c["events"])]
    state = engine.replay(events)
    result = engine.start({**exported["setup"], "seed": exported["seed"]})
    if result.state is None:
        raise ExportError("setup_refused", refusal=result.refusal)
    again = result.state
    same = result.events == exported["start"]
    for c in kept:
        step = engine.apply(again, c["command"])
        same = same and step.ok and step.events == c["events"]
        if not step.ok:
            break
        again = step.state
    return {
        "game": exported["game"],
        "status": exported["status"],
        "commands": len(kept),
        "undone": len(exported["commands"]) - len(kept),
        "version": state.version,
        "waiting": engine.waiting_for(state).as_dict(),
        "commands_agree": same,
        "view": engine.full_view(state),
    }


def read_export(path: Path) -> Export:
    """A game export read from a file (`room25 replay FILE`), checked once here: its format,
    its version and every field its readers take (`checked`)."""
    try:
        found = json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ExportError("unreadable", path=str(path), why=error.strerror) from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ExportError("not_json", path=str(path), why=str(error)) from None
    return checked(found)


def checked(found: object) -> Export:
    """`found` as an export, once its format, its version and its fields are what an export of
    this companion holds; else `ExportError` says what is wrong."""
    if not isinstance(found, dict) or found.get("format") != EXPORT_FORMAT:
        raise ExportError("not_export")
    version = found.get("format_version")
    if not isinstance(version, int):
        raise ExportError("no_version")
    if version > EXPORT_VERSION:
        raise ExportError("newer")
    damaged = _damaged(found)
    if damaged is not None:
        raise ExportError("damaged", field=damaged)
    return cast(Export, found)  # every field `Export` names was checked just above


def _damaged(found: dict) -> str | None:
    """The first field of an export that is missing or not of its kind, else None."""
    finished = found.get("complete") is True
    wrong = _wrong(found, {**HEAD_FIELDS, **(FINISHED_FIELDS if finished else OPEN_FIELDS)})
    if wrong is None and not isinstance(found.get("names", {}), dict):
        wrong = "names"
    if wrong is not None or not finished:
        return wrong or _events_wrong(found["public_events"], "public_events")
    for n, command in enumerate(found["commands"]):
        wrong = _wrong(command, COMMAND_FIELDS) if isinstance(command, dict) else ""
        if wrong is None:
            wrong = _events_wrong(command["events"], "events")
        if wrong is not None:
            return f"commands[{n}]" + (wrong and f".{wrong}")
    return _events_wrong(found["start"], "start")


def _wrong(found: dict, fields: dict[str, type | tuple[type, ...]]) -> str | None:
    return next((k for k, kind in fields.items() if not isinstance(found.get(k, ...), kind)), None)


def _events_wrong(events: list, key: str) -> str | None:
    """`key` when one of its events is not an object with a type."""
    shaped = all(isinstance(e, dict) and isinstance(e.get("type"), str) for e in events)
    return None if shaped else key
