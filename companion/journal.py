"""The journal: every game of CHAINsomnia and Somnicum saved action by action in one SQLite file.

One database holds all games. Each game is a row in ``games`` and a numbered list of entries:
seq 0 is the start (the setup options), then one entry per accepted Action or undo. An undo marks
the entries it takes back (``undone_by``) instead of deleting them, so the log keeps the whole
story. Every few actions the Table also stores a snapshot (the rules' ``state_to_json``) so that a
resume replays only the actions after it.

Safety: WAL mode with ``synchronous=FULL``, one transaction per Action, so an Action acknowledged
by the Table survives a power cut, and a kill at any instant leaves the file as it was before or
after that Action. A file that is not a journal, is damaged or comes from a newer Dreamtable is
refused with a :class:`JournalError` naming it, and left untouched. An older journal is copied
aside, then migrated.

>>> journal = Journal(":memory:")
>>> journal.unfinished()
[]
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA_VERSION = 2
# "DrmT": tells a Dreamtable journal apart from any other SQLite file.
APPLICATION_ID = 0x44726D54
SQLITE_FULL = 13
_NO_LIMIT = 2**62

_SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    game     TEXT NOT NULL,
    options  TEXT NOT NULL,             -- JSON: the setup, as given to new_game
    players  TEXT NOT NULL,             -- JSON list of names, for the resume menu
    round    INTEGER,
    started  REAL NOT NULL,             -- unix seconds
    updated  REAL NOT NULL,
    head     INTEGER NOT NULL,          -- seq of the newest entry
    status   TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    finished REAL,
    result   TEXT                       -- JSON: rules.result(state) once over
);
CREATE TABLE entries (
    game_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,
    kind      TEXT NOT NULL CHECK (kind IN ('start', 'action', 'undo')),
    action    TEXT NOT NULL,
    events    TEXT NOT NULL,
    text      TEXT NOT NULL,
    source    TEXT NOT NULL,
    at        REAL NOT NULL,
    undone_by INTEGER,                  -- seq of the undo that took this action back
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE snapshots (
    game_id INTEGER NOT NULL,
    seq     INTEGER NOT NULL,           -- the state after every standing action up to seq
    state   TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE INDEX games_by_status ON games (status, updated);
"""


class JournalError(Exception):
    """A journal file that cannot be used; the message names the file and what is wrong."""


class _NeedsRecovery(Exception):
    """A write-ahead journal left by a crash, which SQLite must recover before reading it."""


class JournalWriteError(JournalError):
    """A commit that failed (full disk, I/O error); nothing of it was written.

    ``reason`` is a short phrase for the players ("the disk is full").
    """

    def __init__(self, message: str, reason: str, code: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.code = code


class UnknownGameId(JournalError, LookupError):
    """No game with that id in this journal."""


def escaped(result: Mapping[str, Any]) -> bool | None:
    """Whether a cooperative game's result is an escape (True), a defeat (False), or neither.

    Reads ``"escaped": bool`` or an outcome word under ``"result"`` or ``"outcome"``
    (CHAINsomnia's result says ``"result": "victory" | "defeat"``).
    """
    if isinstance(result.get("escaped"), bool):
        return bool(result["escaped"])
    for key in ("result", "outcome"):
        word = result.get(key)
        if word in ("victory", "escaped", "escape"):
            return True
        if word in ("defeat", "defeated"):
            return False
    return None


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _when(seconds: float | None) -> datetime | None:
    return None if seconds is None else datetime.fromtimestamp(seconds, tz=timezone.utc)


def iso(moment: datetime | None) -> str | None:
    """A moment as ISO 8601 text, UTC, to the millisecond (the JSON outputs' format)."""
    return None if moment is None else moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True)
class GameSummary:
    """One game as the resume menu and ``companion games list`` show it."""

    id: int
    game: str
    status: str  # "playing" | "finished"
    started: datetime
    updated: datetime
    players: list[str]
    round: int | None
    seq: int  # the newest entry
    options: dict[str, Any] = field(default_factory=dict)
    finished: datetime | None = None
    result: dict[str, Any] | None = None

    @property
    def over(self) -> bool:
        return self.status == "finished"

    @property
    def duration(self) -> float | None:
        """Seconds from the start to the end of a finished game."""
        if self.finished is None:
            return None
        return (self.finished - self.started).total_seconds()

    @property
    def winners(self) -> list[str]:
        """The winners' names; after a cooperative escape, every player (character) won."""
        result = self.result or {}
        if isinstance(result.get("winners"), list):
            return [str(w) for w in result["winners"]]
        return list(self.players) if escaped(result) is True else []

    @property
    def scores(self) -> dict[str, float]:
        result = self.result or {}
        raw = result.get("scores")
        if isinstance(raw, Mapping):
            return {str(k): v for k, v in raw.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        scores = {}
        # Somnicum's score sheet shape: "players": [{"name", "total", "breakdown"}]
        for player in result.get("players") or [] if isinstance(result.get("players"), list) else []:
            if isinstance(player, Mapping) and isinstance(player.get("total"), (int, float)):
                scores[str(player.get("name"))] = player["total"]
        return scores

    @property
    def escaped(self) -> bool | None:
        """CHAINsomnia: whether the players escaped (None when the result does not say)."""
        return escaped(self.result or {})

    @property
    def cause(self) -> str | None:
        result = self.result or {}
        cause = result.get("cause", result.get("defeat_cause"))
        return None if cause is None else str(cause)

    @property
    def rounds(self) -> int | None:
        rounds = (self.result or {}).get("rounds", (self.result or {}).get("round"))
        return rounds if isinstance(rounds, int) else self.round

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "game": self.game,
            "status": self.status,
            "started": iso(self.started),
            "updated": iso(self.updated),
            "players": self.players,
            "round": self.round,
            "seq": self.seq,
        }
        if self.over:
            out.update(
                finished=iso(self.finished),
                duration=self.duration,
                winners=self.winners,
                scores=self.scores,
                escaped=self.escaped,
                cause=self.cause,
                rounds=self.rounds,
                result=self.result,
            )
        return out


@dataclass(frozen=True)
class Entry:
    """One line of a game's journal: its start, an accepted Action, or an undo."""

    seq: int
    kind: str  # "start" | "action" | "undo"
    action: dict[str, Any]
    events: list[dict[str, Any]]
    text: str
    source: str
    at: datetime
    undone_by: int | None = None

    @property
    def undone(self) -> bool:
        return self.undone_by is not None

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "action": self.action,
            "events": self.events,
            "text": self.text,
            "source": self.source,
            "at": iso(self.at),
            "undone": self.undone,
            "undone_by": self.undone_by,
        }


# Migrations from an older schema version to the next one, run after a backup copy is made.
def _migrate_1_to_2(db: sqlite3.Connection) -> None:
    # Version 1 kept no history (no end time or result) and did not record where an Action
    # came from.
    db.execute("ALTER TABLE games ADD COLUMN finished REAL")
    db.execute("ALTER TABLE games ADD COLUMN result TEXT")
    db.execute("ALTER TABLE entries ADD COLUMN source TEXT NOT NULL DEFAULT 'unknown'")
    db.execute("UPDATE games SET finished = updated WHERE status = 'finished'")
    db.execute("CREATE INDEX IF NOT EXISTS games_by_status ON games (status, updated)")


_MIGRATIONS: dict[int, Callable[[sqlite3.Connection], None]] = {1: _migrate_1_to_2}


class Journal:
    """The SQLite file that keeps every game (``":memory:"`` for tests).

    `snapshot_every`: the Table stores the state after this many actions, so a resume replays at
    most that many. `max_bytes` caps the file's size (a journal on a small card; tests use it to
    simulate a full disk). `clock` gives the time stamps (unix seconds). `durable=False` skips
    the flush to disk at each commit: only for building big journals in benchmarks, never for
    play (a power cut could then lose the last actions).

    >>> with Journal(":memory:") as journal:
    ...     journal.games()
    []
    """

    def __init__(
        self,
        path: str | Path,
        *,
        snapshot_every: int = 25,
        max_bytes: int | None = None,
        clock: Callable[[], float] = time.time,
        durable: bool = True,
    ) -> None:
        self.in_memory = str(path) == ":memory:"
        self.path = Path(path) if not self.in_memory else Path(":memory:")
        self.snapshot_every = max(1, snapshot_every)
        self.clock = clock
        self.backup_path: Path | None = None  # set when an older journal was migrated
        self._lock = threading.RLock()
        if not self.in_memory:
            self._check_file()
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise JournalError(f"{self.path}: its folder cannot be made: {err.strerror}") from None
        try:
            self._db = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=10.0
            )
        except sqlite3.Error as err:
            raise JournalError(f"{self.path}: cannot be opened: {err}") from None
        try:
            self._setup(max_bytes, durable)
        except JournalError:
            self._db.close()
            raise
        except sqlite3.Error as err:
            self._db.close()
            raise JournalError(f"{self.path}: cannot be used as a journal: {err}") from None

    # -- opening ---------------------------------------------------------------------------

    def _check_file(self) -> None:
        """Refuses a file that is not a healthy Dreamtable journal, without writing to it."""
        path = self.path
        if not path.exists():
            return
        if path.is_dir():
            raise JournalError(f"{path}: is a folder, not a journal file")
        try:
            with open(path, "rb") as f:
                header = f.read(100)
        except OSError as err:
            raise JournalError(f"{path}: cannot be read: {err.strerror}") from None
        if not header:
            return  # an empty file is an empty database to SQLite: a journal yet to be made
        if len(header) < 100 or not header.startswith(b"SQLite format 3\x00"):
            raise JournalError(
                f"{path}: is not a Dreamtable journal (not an SQLite database); it was left "
                "untouched: move it away or choose another database file in the config"
            )
        self._check_size(header, path.stat().st_size)
        # A read-only connection: it never writes to (or checkpoints into) the file. After a
        # crash (the power cut, the app killed) a write-ahead journal may need SQLite's recovery,
        # which rebuilds its index and so must write: SQLite refuses it a read-only connection
        # ("attempt to write a readonly database"). The check is then made on a read-write
        # connection, which recovers the log as the journal's own connection would.
        try:
            app_id, tables = self._inspect(path, "ro")
        except _NeedsRecovery:
            app_id, tables = self._inspect(path, "rw")
        if tables and app_id != APPLICATION_ID:
            raise JournalError(
                f"{path}: is an SQLite database but not a Dreamtable journal "
                f"(tables: {', '.join(sorted(tables)[:5])}); it was left untouched"
            )

    @staticmethod
    def _inspect(path: Path, mode: str) -> tuple[int, list[str]]:
        """The journal's application id and tables, after SQLite's integrity check, on a
        connection opened in ``mode`` ("ro", or "rw": never creates the file)."""
        try:
            check = sqlite3.connect(path.resolve().as_uri() + f"?mode={mode}", uri=True, timeout=10.0)
        except sqlite3.Error as err:
            raise JournalError(f"{path}: cannot be opened: {err}") from None
        try:
            problems = [row[0] for row in check.execute("PRAGMA quick_check(5)")]
            if problems != ["ok"]:
                raise JournalError(
                    f"{path}: the journal is damaged (integrity check: {'; '.join(problems)}); "
                    "it was left untouched: restore a backup or choose another database file"
                )
            app_id = check.execute("PRAGMA application_id").fetchone()[0]
            tables = [r[0] for r in check.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        except sqlite3.DatabaseError as err:
            if mode == "ro" and getattr(err, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise _NeedsRecovery from None
            raise JournalError(
                f"{path}: the journal is damaged or truncated ({err}); it was left untouched: "
                "restore a backup or choose another database file"
            ) from None
        finally:
            check.close()
        return app_id, tables

    def _check_size(self, header: bytes, size: int) -> None:
        """Refuses a file cut short: SQLite itself would read the missing bytes as zeros."""
        wal = self.path.with_name(self.path.name + "-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return  # a checkpoint may be under way; the write-ahead log still holds the pages
        page_size = int.from_bytes(header[16:18], "big")
        page_size = 65536 if page_size == 1 else page_size
        counted = int.from_bytes(header[28:32], "big")
        header_valid = header[24:28] == header[92:96] and counted > 0
        if size % page_size or (header_valid and size < counted * page_size):
            expected = f"; its header counts {counted * page_size}" if header_valid else ""
            raise JournalError(
                f"{self.path}: the journal is truncated ({size} bytes{expected}); it was left "
                "untouched: restore a backup or choose another database file"
            )

    def _setup(self, max_bytes: int | None, durable: bool) -> None:
        db = self._db
        if not self.in_memory:
            mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise JournalError(f"{self.path}: cannot use write-ahead logging (got {mode})")
        db.execute(f"PRAGMA synchronous={'FULL' if durable else 'OFF'}")
        if max_bytes is not None:
            page_size = db.execute("PRAGMA page_size").fetchone()[0]
            db.execute(f"PRAGMA max_page_count={max(1, max_bytes // page_size)}")
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if version == 0:
            self._create()
        elif version > SCHEMA_VERSION:
            raise JournalError(
                f"{self.path}: was written by a newer Dreamtable (journal schema {version}; this "
                f"version reads up to {SCHEMA_VERSION}); it was left untouched: update Dreamtable "
                "or choose another database file"
            )
        elif version < SCHEMA_VERSION:
            self._migrate(version)

    def _create(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            # Someone may have created it between our check and the lock.
            if db.execute("PRAGMA user_version").fetchone()[0] == 0:
                # One statement at a time: executescript() would commit half-way.
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def _migrate(self, version: int) -> None:
        backup = self.path.with_name(f"{self.path.name}.schema{version}-backup")
        n = 2
        while backup.exists():
            backup = self.path.with_name(f"{self.path.name}.schema{version}-backup{n}")
            n += 1
        target = sqlite3.connect(str(backup))
        try:
            self._db.backup(target)
        finally:
            target.close()
        self.backup_path = backup
        log.warning("%s: journal schema %d is older; copied to %s before migrating", self.path, version, backup)
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            while version < SCHEMA_VERSION:
                _MIGRATIONS[version](db)
                version += 1
            db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            db.execute("COMMIT")
        except sqlite3.Error as err:
            db.execute("ROLLBACK")
            raise JournalError(
                f"{self.path}: could not be migrated to journal schema {SCHEMA_VERSION} ({err}); "
                f"the file is unchanged and a copy is at {backup}"
            ) from None

    # -- plumbing --------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, what: str, statements: Callable[[sqlite3.Connection], Any]) -> Any:
        """Runs `statements` in one durable transaction; a failure leaves nothing behind."""
        with self._lock:
            db = self._db
            try:
                db.execute("BEGIN IMMEDIATE")
                value = statements(db)
                db.execute("COMMIT")
                return value
            except sqlite3.Error as err:
                if db.in_transaction:
                    try:
                        db.execute("ROLLBACK")
                    except sqlite3.Error:
                        log.exception("%s: rollback failed", self.path)
                if getattr(err, "sqlite_errorcode", None) == SQLITE_FULL or "full" in str(err):
                    reason, code = "the disk is full", "disk_full"
                else:
                    reason, code = f"the journal could not be written ({err})", "journal_write_failed"
                raise JournalWriteError(f"{self.path}: {what} not saved: {reason}", reason, code) from None
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, params).fetchall()
            except sqlite3.DatabaseError as err:
                raise JournalError(f"{self.path}: cannot be read: {err}") from None

    # -- writing (the Table calls these) ---------------------------------------------------

    def create_game(
        self,
        game: str,
        options: Mapping[str, Any],
        state: Mapping[str, Any],
        *,
        players: Sequence[str],
        round: int | None,
        text: str,
        source: str,
    ) -> tuple[int, float]:
        """Journals a new game: its setup as seq 0 and a snapshot of the first state."""
        at = self.clock()
        options_json = _dumps(dict(options))

        def statements(db: sqlite3.Connection) -> int:
            cursor = db.execute(
                "INSERT INTO games (game, options, players, round, started, updated, head, status)"
                " VALUES (?, ?, ?, ?, ?, ?, 0, 'playing')",
                (game, options_json, _dumps(list(players)), round, at, at),
            )
            game_id = int(cursor.lastrowid or 0)
            db.execute(
                "INSERT INTO entries (game_id, seq, kind, action, events, text, source, at)"
                " VALUES (?, 0, 'start', ?, '[]', ?, ?, ?)",
                (game_id, _dumps({"type": "start", "game": game, "options": dict(options)}), text, source, at),
            )
            db.execute(
                "INSERT INTO snapshots (game_id, seq, state) VALUES (?, 0, ?)",
                (game_id, _dumps(dict(state))),
            )
            return game_id

        return self._write("the new game", statements), at

    def record_action(
        self,
        game_id: int,
        seq: int,
        action: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        *,
        text: str,
        source: str,
        round: int | None,
        snapshot: Mapping[str, Any] | None = None,
        result: Mapping[str, Any] | None = None,
    ) -> float:
        """Commits one accepted Action (and the game's end, when `result` is given)."""
        at = self.clock()
        row = (game_id, seq, _dumps(dict(action)), _dumps([dict(e) for e in events]), text, source, at)
        snapshot_json = None if snapshot is None else _dumps(dict(snapshot))
        result_json = None if result is None else _dumps(dict(result))

        def statements(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO entries (game_id, seq, kind, action, events, text, source, at)"
                " VALUES (?, ?, 'action', ?, ?, ?, ?, ?)",
                row,
            )
            if snapshot_json is not None:
                db.execute(
                    "INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
                    (game_id, seq, snapshot_json),
                )
            if result_json is None:
                db.execute(
                    "UPDATE games SET head = ?, updated = ?, round = ? WHERE id = ?",
                    (seq, at, round, game_id),
                )
            else:
                db.execute(
                    "UPDATE games SET head = ?, updated = ?, round = ?, status = 'finished',"
                    " finished = ?, result = ? WHERE id = ?",
                    (seq, at, round, at, result_json, game_id),
                )

        self._write("the action", statements)
        return at

    def record_undo(
        self,
        game_id: int,
        seq: int,
        action: Mapping[str, Any],
        events: Sequence[Mapping[str, Any]],
        *,
        undone: Iterable[int],
        back_to: int,
        text: str,
        source: str,
        round: int | None,
    ) -> float:
        """Commits an undo: marks the `undone` entries and drops the snapshots after `back_to`."""
        at = self.clock()
        undone_seqs = [(seq, game_id, s) for s in undone]
        row = (game_id, seq, _dumps(dict(action)), _dumps([dict(e) for e in events]), text, source, at)

        def statements(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO entries (game_id, seq, kind, action, events, text, source, at)"
                " VALUES (?, ?, 'undo', ?, ?, ?, ?, ?)",
                row,
            )
            db.executemany(
                "UPDATE entries SET undone_by = ? WHERE game_id = ? AND seq = ?", undone_seqs
            )
            db.execute("DELETE FROM snapshots WHERE game_id = ? AND seq > ?", (game_id, back_to))
            # Undoing the last action of a finished game reopens it.
            db.execute(
                "UPDATE games SET head = ?, updated = ?, round = ?, status = 'playing',"
                " finished = NULL, result = NULL WHERE id = ?",
                (seq, at, round, game_id),
            )

        self._write("the undo", statements)
        return at

    def record_snapshot(self, game_id: int, seq: int, state: Mapping[str, Any]) -> None:
        """Stores the state after `seq` (used after a long replay, so the next one is short)."""
        state_json = _dumps(dict(state))
        self._write(
            "the snapshot",
            lambda db: db.execute(
                "INSERT OR REPLACE INTO snapshots (game_id, seq, state) VALUES (?, ?, ?)",
                (game_id, seq, state_json),
            ),
        )

    def delete(self, game_id: int) -> GameSummary:
        """Removes a game, its entries and snapshots; returns what it was."""
        summary = self.summary(game_id)

        def statements(db: sqlite3.Connection) -> None:
            for table in ("entries", "snapshots"):
                db.execute(f"DELETE FROM {table} WHERE game_id = ?", (game_id,))
            db.execute("DELETE FROM games WHERE id = ?", (game_id,))

        self._write("the deletion", statements)
        return summary

    # -- reading ---------------------------------------------------------------------------

    _SUMMARY_COLUMNS = (
        "id, game, status, started, updated, players, round, head, options, finished, result"
    )

    def _summary(self, row: tuple[Any, ...]) -> GameSummary:
        gid, game, status, started, updated, players, round_, head, options, finished, result = row
        loads = lambda text: self._loads(text, f"game {gid}")  # noqa: E731
        return GameSummary(
            id=gid,
            game=game,
            status=status,
            started=_when(started),  # type: ignore[arg-type]
            updated=_when(updated),  # type: ignore[arg-type]
            players=loads(players),
            round=round_,
            seq=head,
            options=loads(options),
            finished=_when(finished),
            result=None if result is None else loads(result),
        )

    def _loads(self, text: str, where: str) -> Any:
        try:
            return json.loads(text)
        except (TypeError, ValueError) as err:
            raise JournalError(f"{self.path}: {where} is damaged (not JSON: {err})") from None

    def _entry(self, game_id: int, row: tuple[Any, ...]) -> Entry:
        seq, kind, action, events, text, source, at, undone_by = row
        where = f"game {game_id} entry {seq}"
        return Entry(
            seq, kind, self._loads(action, where), self._loads(events, where), text, source,
            _when(at), undone_by,  # type: ignore[arg-type]
        )

    def games(self, status: str | None = None) -> list[GameSummary]:
        """Every game, newest first (only those with `status` when given)."""
        sql = f"SELECT {self._SUMMARY_COLUMNS} FROM games"
        params: tuple[Any, ...] = ()
        if status is not None:
            sql += " WHERE status = ?"
            params = (status,)
        return [self._summary(r) for r in self._read(sql + " ORDER BY updated DESC, id DESC", params)]

    def unfinished(self) -> list[GameSummary]:
        """The games a player may resume, the most recently played first."""
        return self.games("playing")

    def finished(self) -> list[GameSummary]:
        """The finished games with their results, for ``companion history``."""
        return self.games("finished")

    def summary(self, game_id: int) -> GameSummary:
        rows = self._read(f"SELECT {self._SUMMARY_COLUMNS} FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise UnknownGameId(f"{self.path}: there is no game {game_id}")
        return self._summary(rows[0])

    def entries(self, game_id: int, after: int = -1) -> list[Entry]:
        """A game's journal in order: start, actions and undos, with what each undo took back."""
        rows = self._read(
            "SELECT seq, kind, action, events, text, source, at, undone_by FROM entries"
            " WHERE game_id = ? AND seq > ? ORDER BY seq",
            (game_id, after),
        )
        return [self._entry(game_id, row) for row in rows]

    def standing_actions(
        self, game_id: int, after: int = 0, up_to: int | None = None
    ) -> list[tuple[int, dict[str, Any], list[dict[str, Any]]]]:
        """(seq, action, events) of the actions not undone, after `after` and up to `up_to`."""
        rows = self._read(
            "SELECT seq, action, events FROM entries WHERE game_id = ? AND kind = 'action'"
            " AND undone_by IS NULL AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, after, _NO_LIMIT if up_to is None else up_to),
        )
        where = f"game {game_id} entry"
        return [(seq, self._loads(a, f"{where} {seq}"), self._loads(e, f"{where} {seq}")) for seq, a, e in rows]

    def standing_entries(
        self, game_id: int, *, after: int = 0, newest: int | None = None
    ) -> list[Entry]:
        """The actions not undone after seq `after`, oldest first (only the `newest` few if given)."""
        sql = (
            "SELECT seq, kind, action, events, text, source, at, undone_by FROM entries"
            " WHERE game_id = ? AND kind = 'action' AND undone_by IS NULL AND seq > ?"
            " ORDER BY seq DESC"
        )
        params: tuple[Any, ...] = (game_id, after)
        if newest is not None:
            sql += " LIMIT ?"
            params += (newest,)
        rows = self._read(sql, params)
        return [self._entry(game_id, row) for row in reversed(rows)]

    def latest_snapshot(self, game_id: int, up_to: int | None = None) -> tuple[int, dict[str, Any]]:
        """The newest snapshot at or before `up_to`: (seq, state JSON)."""
        rows = self._read(
            "SELECT seq, state FROM snapshots WHERE game_id = ? AND seq <= ?"
            " ORDER BY seq DESC LIMIT 1",
            (game_id, _NO_LIMIT if up_to is None else up_to),
        )
        if not rows:
            raise JournalError(f"{self.path}: game {game_id} has no snapshot to start from")
        return rows[0][0], self._loads(rows[0][1], f"game {game_id} snapshot {rows[0][0]}")


def history(finished: Iterable[GameSummary]) -> dict[str, dict[str, Any]]:
    """Statistics per game over finished games: plays, wins, escape rate, best and average scores.

    Wins are counted per player name; a CHAINsomnia escape is a win for every player.
    """
    stats: dict[str, dict[str, Any]] = {}
    for summary in finished:
        s = stats.setdefault(
            summary.game,
            {"plays": 0, "wins": {}, "escapes": 0, "defeats": 0, "scores": [], "durations": [], "rounds": []},
        )
        s["plays"] += 1
        for name in summary.winners:
            s["wins"][name] = s["wins"].get(name, 0) + 1
        if summary.escaped is True:
            s["escapes"] += 1
        elif summary.escaped is False:
            s["defeats"] += 1
        s["scores"].extend(summary.scores.values())
        if summary.duration is not None:
            s["durations"].append(summary.duration)
        if summary.rounds is not None:
            s["rounds"].append(summary.rounds)
    out: dict[str, dict[str, Any]] = {}
    for game, s in sorted(stats.items()):
        decided = s["escapes"] + s["defeats"]
        scores, durations, rounds = s["scores"], s["durations"], s["rounds"]
        out[game] = {
            "plays": s["plays"],
            "wins": dict(sorted(s["wins"].items(), key=lambda kv: (-kv[1], kv[0]))),
            "escapes": s["escapes"],
            "escape_rate": (s["escapes"] / decided) if decided else None,
            "best_score": max(scores) if scores else None,
            "average_score": (sum(scores) / len(scores)) if scores else None,
            "average_rounds": (sum(rounds) / len(rounds)) if rounds else None,
            "average_duration": (sum(durations) / len(durations)) if durations else None,
        }
    return out
