"""The journal: one SQLite file in the data directory holding every game, every accepted command
and its events, written durably (WAL, `synchronous=FULL`, one transaction per command) before
anyone is told that the command happened.

The seed of each game is kept here too: the journal is the server's own file. Exports meant for
players leave it out until the game is over (see `archive`).
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import orjson

from companion.words.said import Said, kind_of

log = logging.getLogger(__name__)

SCHEMA_VERSION = 3
# Times a journal whose COMMIT failed is closed and opened again to read back what its file holds.
REREADS = 10
# Connections kept for reads beside the writer's (`Journal.read`): a replay flood on many
# connections shares them, and what else reads (the host's history) never waits long for one.
READERS = 2
# The page caches, in KiB (SQLite's own default is 2,000 a connection). In WAL mode a reader's
# cache is emptied at its next read whenever the writer committed meanwhile, as it does at every
# tap, so a large one held pages no later read used: a read is one game, or one pass over the
# games, and the system keeps the file's pages anyway. The writer appends, at the right edge of
# each table and index. 1.3 MB of SQLite's after an evening, 0.33 MB with these (issue 29).
READER_CACHE_KB = 64
WRITER_CACHE_KB = 256

T = TypeVar("T")

# Each migration takes the journal from version i to i + 1; SCHEMA_VERSION is their number.
MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        setup TEXT NOT NULL,          -- the setup as given, without the seed
        seed INTEGER NOT NULL,        -- the server's secret until the game is over
        options TEXT NOT NULL,        -- the session's own settings (time limit...)
        status TEXT NOT NULL,         -- playing | over | ended | abandoned (see `end`)
        outcome TEXT,
        created REAL NOT NULL,
        ended REAL
    );
    CREATE TABLE commands (
        game TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,         -- 1, 2, ... in the order applied
        command TEXT NOT NULL,
        source TEXT NOT NULL,
        version INTEGER NOT NULL,     -- the game's version before the command
        accepted REAL NOT NULL,
        undone INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (game, seq)
    );
    CREATE TABLE events (
        game TEXT NOT NULL REFERENCES games(id),
        seq INTEGER NOT NULL,         -- the command's seq; 0 for the game's start
        n INTEGER NOT NULL,
        event BLOB NOT NULL,
        PRIMARY KEY (game, seq, n)
    );
    """,
    """
    CREATE TABLE seat_claims (
        seat TEXT PRIMARY KEY,
        digest TEXT NOT NULL          -- SHA-256 of the phone's seat secret, never the secret
    );
    """,
    """
    CREATE TABLE seat_names (
        game TEXT NOT NULL REFERENCES games(id),
        seat TEXT NOT NULL,
        name TEXT NOT NULL,           -- typed by the host; shown on the host page and recap only
        PRIMARY KEY (game, seat)
    );
    """,
)


class JournalError(Exception):
    """The journal cannot be used. `unreadable` when the file itself is the problem (damaged,
    not a journal, from a newer version): it is then moved aside; otherwise (permissions, a full
    or read-only disk) the file is fine and must be left where it is. `unsure` when a write
    failed and the file could not be read back to tell whether it holds the write.

    Why, as a code of the catalogue (`journal_error_<code>`, words/<lang>/journal.json) and its
    values, said in the reader's language (`text`): the terminal's for `room25 stats` and the
    commands beside it, the table's when `room25 serve` cannot start; in the fallback language
    as a plain exception (the logs)."""

    def __init__(
        self, code: str, /, unreadable: bool = False, unsure: bool = False, **params: object
    ) -> None:
        self.said = Said(f"journal_error_{code}", params)
        super().__init__(str(self.said))
        self.unreadable = unreadable
        self.unsure = unsure

    def text(self, lang: str = "") -> str:
        return self.said.text(lang)


# A failed write that the file holds all the same: the problem the disk reported.
Kept = str | None


@dataclass(frozen=True)
class GameRecord:
    id: str
    setup: dict[str, object]
    seed: int
    options: dict[str, object]
    status: str
    outcome: str | None
    created: float
    ended: float | None


@dataclass(frozen=True)
class CommandRecord:
    seq: int
    command: dict[str, object]
    source: str
    version: int
    accepted: float
    undone: bool
    events: list[dict[str, object]]


# What changes whenever a game's export would (its status, when it ended, its commands and which
# of them are undone): `Journal.mark`.
GameMark = tuple[str, float | None, int, int]


def dump(value: object) -> str:
    """Compact JSON text, as the journal's text columns hold it."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _object(found: object, what: str) -> dict[str, object]:
    """A setup, options, command or event (`what`) read back: the companion wrote a JSON object
    there, so anything else is a journal changed behind its back, said as such rather than
    failing later in whatever reads it."""
    if not isinstance(found, dict):
        value = Said(f"journal_value_{kind_of(found)}")  # never quoted: it may be a secret
        raise JournalError("not_object", found=value, what=Said(f"journal_part_{what}"))
    return found


class Journal:
    """One connection, used by one thread at a time (the session's writer, or the CLI), and a
    few read-only ones for reads from any thread (`read`)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None
        # Why the file could not be read back after a failed write (SQLite's reasons: the
        # reread's and the write's): from then on what it holds may differ from what the table
        # was told, so writes are refused until a restart.
        self._unsure: tuple[str, str] | None = None
        self._readers: Readers | None = None

    # -- opening -------------------------------------------------------------------------------

    def open(self) -> None:
        """Open (creating or migrating) the journal; JournalError says plainly what is wrong."""
        try:
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        except sqlite3.Error as error:
            raise JournalError("cannot_open", path=str(self.path), problem=str(error)) from None
        try:
            # Read what the file is before changing anything in it (WAL mode rewrites its header).
            found = db.execute("PRAGMA user_version").fetchone()[0]
            if found > SCHEMA_VERSION:
                raise JournalError(
                    "newer",
                    unreadable=True,
                    path=str(self.path),
                    found=found,
                    reads=SCHEMA_VERSION,
                )
            tables = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if found == 0 and tables:
                raise JournalError("not_journal", unreadable=True, path=str(self.path))
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute(f"PRAGMA cache_size=-{WRITER_CACHE_KB}")
            # Every step in one commit and WAL mode after it: a new journal then costs 35 writes
            # and syncs (60 before), so a card failing one in twenty opens it in 1.6 tries on
            # average (3.5 before, one start in a hundred needing more than OPEN_TRIES).
            if found < SCHEMA_VERSION:
                steps = ";".join(MIGRATIONS[found:])
                db.executescript(
                    f"BEGIN IMMEDIATE;{steps};PRAGMA user_version={SCHEMA_VERSION};COMMIT;"
                )
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("SELECT count(*) FROM games").fetchone()
        except sqlite3.OperationalError as error:  # permissions, a read-only or full disk
            db.close()
            raise JournalError("cannot_open", path=str(self.path), problem=str(error)) from None
        except sqlite3.DatabaseError as error:  # not a database, or a damaged one
            db.close()
            raise JournalError(
                "unreadable", unreadable=True, path=str(self.path), problem=str(error)
            ) from None
        except JournalError:
            db.close()
            raise
        self._db = db
        if self._readers is None:
            self._readers = Readers(self.path)

    def close(self) -> None:
        self._disconnect()
        if self._readers is not None:
            self._readers.close()

    def read(self, reading: Callable[[Journal], T], closed: T) -> T:
        """What `reading` finds in the journal, read on a read-only connection of its own in one
        transaction (a consistent picture of the file as last committed), from the calling
        thread: an export or a game list never waits behind the writer's commands, nor holds
        them up. `closed` when the journal is closed or cannot be read now (logged)."""
        if self._readers is None:
            return closed
        return self._readers.read(reading, closed)

    def _disconnect(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    @property
    def db(self) -> sqlite3.Connection:
        """The connection; one a failed read-back (`_settle`) left closed is opened again here,
        for reading once the card answers again."""
        if self._db is None:
            if self._unsure is None:
                raise JournalError("not_open")
            self.open()
        assert self._db is not None
        return self._db

    def _write(self, statements: Iterable[tuple[str, tuple]], landed: Callable[[], bool]) -> Kept:
        """One durable transaction; nothing of it is kept if any part fails, whatever fails (a
        text SQLite cannot encode raises UnicodeEncodeError, not an sqlite3 error): a
        transaction left open would refuse every later write.

        A failed COMMIT (an fsync the disk refused) may still have left the whole transaction in
        the WAL file, which the next start would replay: the file is then read back the way a
        restart reads it (`_settle`) and `landed` tells whether it holds this write. Kept, the
        problem is returned (None when all went well); not kept, JournalError: nothing changed,
        for good."""
        if self._unsure is not None:
            raise self._unsure_error(*self._unsure)
        db = self.db
        try:
            db.execute("BEGIN IMMEDIATE")
            for sql, params in statements:
                db.execute(sql, params)
            db.execute("COMMIT")
        except sqlite3.Error as error:
            problem = str(error)
            if self._settle(landed, problem):
                log.warning(
                    "the journal %s reported %s, but read back it holds the change: kept",
                    self.path,
                    problem,
                )
                return problem
            raise JournalError("cannot_write", path=str(self.path), problem=problem) from None
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return None

    def _settle(self, landed: Callable[[], bool], problem: str) -> bool:
        """Whether the file holds the write that just failed, as the next start would find it:
        the connection is closed (its shared memory forgotten) and the file opened again, which
        replays the WAL as recovery does. A file that cannot be read back after REREADS tries is
        left closed and said to be unsure: every later write is refused as unsure, since the
        table may lag what the file holds, until a restart reads the file as it is."""
        error: Exception | None = None
        # Every connection closed, the readers' too: while one stays open, the file's shared
        # memory outlives the writer and the WAL is not read again as a restart reads it.
        if self._readers is not None:
            self._readers.close()
            self._readers = None
        for attempt in range(REREADS):
            self._disconnect()
            try:
                self.open()
                return landed()
            except (JournalError, sqlite3.Error) as found:
                error = found
                time.sleep(0.01 * attempt)
        self._disconnect()
        self._unsure = (str(error), problem)
        raise self._unsure_error(*self._unsure)

    def _unsure_error(self, reread: str, problem: str) -> JournalError:
        return JournalError(
            "unsure", unsure=True, path=str(self.path), reread=reread, problem=problem
        )

    # -- seats held by phones ------------------------------------------------------------------

    def seat_claims(self) -> dict[str, str]:
        """Seat -> digest of the secret of the phone that holds it."""
        return dict(self.db.execute("SELECT seat, digest FROM seat_claims").fetchall())

    def claim_seat(self, seat: str, digest: str | None) -> None:
        """Give a seat to the phone whose secret has this digest (None: free it)."""

        def landed() -> bool:
            return self.seat_claims().get(seat) == digest

        if digest is None:
            self._write([("DELETE FROM seat_claims WHERE seat = ?", (seat,))], landed)
        else:
            self._write(
                [("INSERT OR REPLACE INTO seat_claims VALUES (?, ?)", (seat, digest))], landed
            )

    # -- players' names, per game and seat -----------------------------------------------------

    def names(self, game: str | None = None) -> dict[str, dict[str, str]]:
        """Game -> seat -> the name the host typed (games without names left out); only
        `game`'s when one is given."""
        found: dict[str, dict[str, str]] = {}
        for named, seat, name in self.db.execute(
            "SELECT game, seat, name FROM seat_names WHERE ? IS NULL OR game = ? "
            "ORDER BY game, seat",
            (game, game),
        ):
            found.setdefault(named, {})[seat] = name
        return found

    def set_names(self, game: str, names: dict[str, str]) -> Kept:
        """The game's names as a whole: seats left out have none."""
        return self._write(
            [
                ("DELETE FROM seat_names WHERE game = ?", (game,)),
                *(
                    ("INSERT INTO seat_names VALUES (?, ?, ?)", (game, seat, name))
                    for seat, name in names.items()
                ),
            ],
            lambda: self.names(game).get(game, {}) == names,
        )

    # -- writing -------------------------------------------------------------------------------

    def new_game(
        self, game: str, setup: dict, seed: int, options: dict, events: list[dict]
    ) -> Kept:
        now = time.time()
        return self._write(
            [
                (
                    "UPDATE games SET status='abandoned', ended=? WHERE status='playing'",
                    (now,),
                ),
                (
                    "INSERT INTO games VALUES (?, ?, ?, ?, 'playing', NULL, ?, NULL)",
                    (game, dump(setup), seed, dump(options), now),
                ),
                *self._events(game, 0, events),
            ],
            lambda: self.game(game) is not None,
        )

    def command(
        self,
        game: str,
        seq: int,
        command: dict,
        source: str,
        version: int,
        events: list[dict],
        outcome: str | None,
    ) -> Kept:
        """One accepted command and its events (and the game's end when it ended it)."""
        now = time.time()
        statements = [
            (
                "INSERT INTO commands VALUES (?, ?, ?, ?, ?, ?, 0)",
                (game, seq, dump(command), source, version, now),
            ),
            *self._events(game, seq, events),
        ]
        if outcome is not None:
            statements.append(
                (
                    "UPDATE games SET status='over', outcome=?, ended=? WHERE id=?",
                    (outcome, now, game),
                )
            )
        landed = "SELECT 1 FROM commands WHERE game=? AND seq=? AND accepted=?"
        return self._write(statements, lambda: self._found(landed, (game, seq, now)))

    def undo(self, game: str, seqs: list[int]) -> Kept:
        """Mark commands undone (kept in the journal); a game they had ended goes on."""
        landed = "SELECT 1 FROM commands WHERE game=? AND seq=? AND undone=1"
        return self._write(
            [
                *(
                    ("UPDATE commands SET undone=1 WHERE game=? AND seq=?", (game, seq))
                    for seq in seqs
                ),
                (
                    "UPDATE games SET status='playing', outcome=NULL, ended=NULL "
                    "WHERE id=? AND status='over'",
                    (game,),
                ),
            ],
            lambda: all(self._found(landed, (game, seq)) for seq in seqs),
        )

    def abandon(self, game: str) -> Kept:
        """A game that cannot be resumed: kept whole, no longer the one on the table."""
        return self._write(
            [
                (
                    "UPDATE games SET status='abandoned', ended=coalesce(ended, ?) "
                    "WHERE id=? AND status IN ('playing', 'over')",
                    (time.time(), game),
                )
            ],
            lambda: self._status(game) == "abandoned",
        )

    def reopen(self, game: str) -> Kept:
        """A game a new one replaced, played again: the game in play (if any) is replaced in
        its turn, kept whole and resumable the same way."""
        return self._write(
            [
                (
                    "UPDATE games SET status='abandoned', ended=? WHERE status='playing'",
                    (time.time(),),
                ),
                (
                    "UPDATE games SET status='playing', ended=NULL "
                    "WHERE id=? AND status='abandoned'",
                    (game,),
                ),
            ],
            lambda: self._status(game) == "playing",
        )

    def end(self, game: str) -> Kept:
        """The host takes the game off the table: `ended`, whether it was still being played or
        over by its outcome (its outcome is kept), so a restart does not put it back."""
        return self._write(
            [
                (
                    "UPDATE games SET status='ended', ended=coalesce(ended, ?) "
                    "WHERE id=? AND status IN ('playing', 'over')",
                    (time.time(), game),
                )
            ],
            lambda: self._status(game) == "ended",
        )

    def _found(self, sql: str, params: tuple) -> bool:
        return self.db.execute(sql, params).fetchone() is not None

    def _status(self, game: str) -> str | None:
        found = self.game(game)
        return None if found is None else found.status

    @staticmethod
    def _events(game: str, seq: int, events: list[dict]) -> list[tuple[str, tuple]]:
        return [
            ("INSERT INTO events VALUES (?, ?, ?, ?)", (game, seq, n, orjson.dumps(event)))
            for n, event in enumerate(events)
        ]

    # -- reading -------------------------------------------------------------------------------

    def games(self) -> list[GameRecord]:
        rows = self.db.execute("SELECT * FROM games ORDER BY created, rowid").fetchall()
        return [_game(row) for row in rows]

    def game(self, game: str) -> GameRecord | None:
        row = self.db.execute("SELECT * FROM games WHERE id=?", (game,)).fetchone()
        return _game(row) if row else None

    def on_the_table(self) -> GameRecord | None:
        """The game the table showed last: the newest game, when it is still being played or
        over by its outcome (its outcome screen); none once the host ended it or set it aside."""
        row = self.db.execute(
            "SELECT * FROM games ORDER BY created DESC, rowid DESC LIMIT 1"
        ).fetchone()
        found = _game(row) if row else None
        return found if found is not None and found.status in ("playing", "over") else None

    def start_events(self, game: str) -> list[dict[str, object]]:
        rows = self.db.execute(
            "SELECT event FROM events WHERE game=? AND seq=0 ORDER BY n", (game,)
        ).fetchall()
        return [_object(orjson.loads(row[0]), "event") for row in rows]

    def commands(self, game: str) -> list[CommandRecord]:
        """Every command of a game in order, undone ones included, each with its events."""
        events: dict[int, list[dict[str, object]]] = {}
        for seq, blob in self.db.execute(
            "SELECT seq, event FROM events WHERE game=? AND seq>0 ORDER BY seq, n", (game,)
        ):
            events.setdefault(seq, []).append(_object(orjson.loads(blob), "event"))
        return [
            CommandRecord(
                seq,
                _object(json.loads(cmd), "command"),
                source,
                version,
                accepted,
                bool(undone),
                events.get(seq, []),
            )
            for seq, cmd, source, version, accepted, undone in self.db.execute(
                "SELECT seq, command, source, version, accepted, undone FROM commands "
                "WHERE game=? ORDER BY seq",
                (game,),
            )
        ]

    def mark(self, game: str) -> GameMark | None:
        """The game's mark, in one query (None: no such game): what lets a reader keep what it
        built from an export until the game changes, without reading every command again."""
        row = self.db.execute(
            "SELECT status, ended, (SELECT count(*) FROM commands WHERE game=:id), "
            "(SELECT coalesce(sum(undone), 0) FROM commands WHERE game=:id) "
            "FROM games WHERE id=:id",
            {"id": game},
        ).fetchone()
        return None if row is None else (row[0], row[1], row[2], row[3])

    def command_counts(self) -> dict[str, int]:
        """Game id -> how many commands it has (undone ones included), in one query."""
        return dict(self.db.execute("SELECT game, count(*) FROM commands GROUP BY game"))


class Readers:
    """Up to READERS read-only journals (`PRAGMA query_only`), each used by one thread at a
    time, opened when first needed and kept; a reader waits for one when all are in use. In WAL
    mode they read what was committed while the writer writes."""

    def __init__(self, path: Path, size: int = READERS) -> None:
        self.path = path
        self._free = threading.Semaphore(size)
        self._lock = threading.Lock()
        self._idle: list[Journal] = []
        self._closed = False

    def _connect(self) -> Journal:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA query_only=1")
        db.execute(f"PRAGMA cache_size=-{READER_CACHE_KB}")
        reader = Journal(self.path)
        reader._db = db
        return reader

    def read(self, reading: Callable[[Journal], T], closed: T) -> T:
        with self._free:
            with self._lock:
                if self._closed:
                    return closed
                reader = self._idle.pop() if self._idle else None
            try:
                reader = reader or self._connect()
                db = reader.db
                db.execute("BEGIN")
                try:
                    return reading(reader)
                finally:
                    db.execute("ROLLBACK")  # it read only: nothing to keep
            except (sqlite3.Error, JournalError) as error:
                log.warning("the journal %s could not be read: %s", self.path, error)
                if reader is not None:
                    reader.close()
                reader = None
                return closed
            finally:
                self._give_back(reader)

    def _give_back(self, reader: Journal | None) -> None:
        if reader is None:
            return
        with self._lock:
            if not self._closed:
                self._idle.append(reader)
                return
        reader.close()

    def close(self) -> None:
        """Close the idle readers now, those in use as they are given back."""
        with self._lock:
            self._closed = True
            idle, self._idle = self._idle, []
        for reader in idle:
            reader.close()


def _game(row: tuple) -> GameRecord:
    gid, setup, seed, options, status, outcome, created, ended = row
    return GameRecord(
        gid,
        _object(json.loads(setup), "setup"),
        seed,
        _object(json.loads(options), "options"),
        status,
        outcome,
        created,
        ended,
    )


def move_aside(path: Path) -> Path:
    """Keep an unusable journal (and its WAL files) under a new name; never overwrite it."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    target = path.with_name(f"{path.name}.unreadable-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.unreadable-{stamp}-{n}")
    path.rename(target)
    for suffix in ("-wal", "-shm"):
        extra = path.with_name(path.name + suffix)
        if extra.exists():
            extra.rename(target.with_name(target.name + suffix))
    return target
