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

from companion import engine

from .journal import GameRecord, Journal, JournalError
from .shapes import GameListing

EXPORT_FORMAT = "room25-game"
EXPORT_VERSION = 1
# The table saw these end: over by the rules, or ended by the host. An abandoned game (replaced
# by a new one) may still be resumed, so its secrets are not told, to the host neither.
SEEN_OVER = ("over", "ended")
# Setup fields that deal what the table must not know until the game is over.
SECRET_SETUP = ("seed", "roles", "complex", "deck")


def seen_over(exported: dict) -> bool:
    """Whether an export is of a game the table saw end, with every command in it: what the
    reveal, the replay and the recap may tell."""
    return exported.get("status") in SEEN_OVER and bool(exported.get("complete"))


class ExportError(Exception):
    """A file that is not a game export this companion can rebuild."""


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


def export(journal: Journal, game: str) -> dict | None:
    """One game as a JSON-ready dict (None: no such game)."""
    record = journal.game(game)
    if record is None:
        return None
    start = journal.start_events(game)
    commands = journal.commands(game)
    base = {
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
        return {
            **base,
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
    kept = [e for c in commands if not c.undone for e in c.events]
    setup = {k: v for k, v in record.setup.items() if k not in SECRET_SETUP}
    return {
        **base,
        "setup": setup,
        "complete": False,
        "public_events": engine.events_for([*start, *kept], None),
    }


def rebuild(exported: dict) -> dict:
    """The end state of an exported game, checked twice: by replaying its events, and by
    applying its commands again from the setup and seed (they must give the same events)."""
    if not isinstance(exported, dict) or exported.get("format") != EXPORT_FORMAT:
        raise ExportError("this file is not a Room 25 game export")
    if exported.get("format_version", 0) > EXPORT_VERSION:
        raise ExportError("this export was written by a newer companion")
    if not exported.get("complete"):
        raise ExportError(
            "this export is of a game still being played: it leaves out the game's secrets, "
            "so it cannot be rebuilt (export the game again once it is over)"
        )
    kept = [c for c in exported["commands"] if not c["undone"]]
    events = [*exported["start"], *(e for c in kept for e in c["events"])]
    state = engine.replay(events)
    result = engine.start({**exported["setup"], "seed": exported["seed"]})
    if result.state is None:
        raise ExportError(f"the setup is refused by this engine: {result.refusal}")
    again = result.state
    same = result.events == exported["start"]
    for c in kept:
        step = engine.apply(again, c["command"])
        same = same and step.ok and step.events == c["events"]
        if not step.ok:
            break
        again = step.state
    return {
        "game": exported.get("game"),
        "status": exported.get("status"),
        "commands": len(kept),
        "undone": len(exported["commands"]) - len(kept),
        "version": state.version,
        "waiting": engine.waiting_for(state).as_dict(),
        "commands_agree": same,
        "view": engine.full_view(state),
    }


def read_export(path: Path) -> dict:
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except OSError as error:
        raise ExportError(f"cannot read {path}: {error.strerror}") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ExportError(f"{path} is not JSON: {error}") from None
