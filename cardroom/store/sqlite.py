"""The SQLite dialect of the store (`cardroom.store.sql`): `SqliteStore(path)`, the default.

Durability: WAL journal, ``synchronous=FULL`` (a commit survives power loss), foreign keys on,
a busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
(other threads, other processes such as an admin tool) queue instead of interleaving and a
check-then-write inside a transaction cannot race: no write ever has to run again.

Threads: one ``SqliteDb`` owns two connections (opened with ``check_same_thread=False``),
one for writes and one for reads, each serialised by its own lock, so it is safe to call from
any thread. A write may wait for the busy timeout (another process holding the database) and
for an fsync, so the room sends its writes through one writer thread (`cardroom.room.writer`);
a read never waits for a writer under WAL, nor (having its own connection and lock) for a
write of this process that is queued behind one. Several processes or several ``SqliteStore``
objects on one file are also fine (SQLite's locking + the busy timeout).
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from cardroom.room.ports import Refused, StoreCorrupt, StoreUnavailable
from cardroom.store import migrations
from cardroom.store.sql import SqlStore, utc_now

MIN_SQLITE = (3, 37, 0)  # STRICT tables
DEFAULT_BUSY_TIMEOUT_MS = 5_000
T = TypeVar("T")

# The store's sequences. Hands: AUTOINCREMENT's own (never reused; migration 4 put it past every
# older, random, id); the hand's row is then written with this number. Logins: a one-row counter.
SEQUENCES = {
    "hand_ids": "SELECT COALESCE(MAX(seq), 0) + 1 FROM sqlite_sequence WHERE name = 'hands'",
    "session_numbers": "UPDATE session_numbers SET last = last + 1 WHERE id = 1 RETURNING last",
}


class SqliteDb:
    """A SQLite file, opened, checked and migrated: the store's `Database` (module docstring)."""

    def __init__(self, path: str | os.PathLike[str], *,
                 busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
                 integrity_check: bool = True) -> None:
        """Raises StoreUnavailable (or StoreCorrupt) with a clear message if the file cannot be
        opened, is not a database, fails ``PRAGMA quick_check``, is from a newer version, or
        cannot use WAL: the caller must then refuse to deal."""
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreUnavailable(f"SQLite {sqlite3.sqlite_version} is too old; cardroom needs "
                                   f"{'.'.join(map(str, MIN_SQLITE))} or newer")
        self.path = Path(path)
        self.where = f"the database {self.path}"
        self._lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._conn = self._connect(busy_timeout_ms)
        try:
            self._configure(busy_timeout_ms, integrity_check)
            self._reader = self._connect(busy_timeout_ms)
        except BaseException:
            self._conn.close()
            raise
        self._reader.execute("PRAGMA query_only = ON")

    def _connect(self, busy_timeout_ms: int) -> sqlite3.Connection:
        try:
            return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=busy_timeout_ms / 1000)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open {self.where}: {e}") from e

    def _configure(self, busy_timeout_ms: int, integrity_check: bool) -> None:
        c = self._conn
        where = self.where
        try:
            c.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            mode = c.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreUnavailable(f"{where} cannot use WAL journaling (got {mode!r})")
            c.execute("PRAGMA synchronous = FULL")
            c.execute("PRAGMA foreign_keys = ON")
            if integrity_check:
                problems = [row[0] for row in c.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise StoreCorrupt(f"{where} failed its integrity check: "
                                       + "; ".join(problems[:5]))
            migrations.migrate(c)
        except migrations.SchemaTooNew as e:
            raise StoreUnavailable(f"{where}: {e}") from e
        except sqlite3.DatabaseError as e:
            msg = str(e)
            if "locked" in msg or "busy" in msg:
                raise StoreUnavailable(f"{where} is busy (locked by another process): {e}") from e
            if isinstance(e, sqlite3.OperationalError) and "unable to open" in msg:
                raise StoreUnavailable(f"cannot open {where}: {e}") from e
            raise StoreCorrupt(f"{where} is corrupted or not a cardroom database: {e}") from e

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._conn.close()
            self._reader.close()

    def settings(self) -> dict[str, object]:
        with self._lock:
            q = lambda p: self._conn.execute(f"PRAGMA {p}").fetchone()[0]  # noqa: E731
            return {
                "journal_mode": q("journal_mode"),
                "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(q("synchronous")),
                "foreign_keys": bool(q("foreign_keys")),
                "busy_timeout_ms": q("busy_timeout"),
                "user_version": q("user_version"),
            }

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """BEGIN IMMEDIATE for writes (they queue: module docstring), a consistent snapshot for
        reads. sqlite3 errors are translated to StoreErrors so the room never sees sqlite3."""
        with self._lock if write else self._read_lock:
            c = self._conn if write else self._reader
            try:
                c.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield c
                    c.execute("COMMIT")
                finally:
                    if c.in_transaction:
                        c.execute("ROLLBACK")
            except sqlite3.IntegrityError as e:
                raise Refused(f"the database refused the change: {e}") from e
            except sqlite3.Error as e:
                msg = str(e)
                if "locked" in msg or "busy" in msg:
                    raise StoreUnavailable(f"the database is busy: {e}") from e
                raise StoreUnavailable(f"the database failed: {e}") from e

    @staticmethod
    def retried(call: Callable[[], T]) -> T:
        return call()     # BEGIN IMMEDIATE: writers queue, and never lose a race

    @staticmethod
    def fence(c: sqlite3.Connection, table: str) -> None:
        """Nothing to fence: a SQLite room is one process, which deals every table itself."""

    @staticmethod
    def next_value(c: sqlite3.Connection, sequence: str) -> int:
        return c.execute(SEQUENCES[sequence]).fetchone()[0]


class SqliteStore(SqlStore):
    """The store in one SQLite file (`SqliteDb`): opened (created if need be), checked and
    migrated; raises StoreUnavailable or StoreCorrupt if it cannot be used."""

    def __init__(self, path: str | os.PathLike[str], *,
                 clock: Callable[[], datetime] = utc_now,
                 busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
                 integrity_check: bool = True) -> None:
        db = SqliteDb(path, busy_timeout_ms=busy_timeout_ms, integrity_check=integrity_check)
        super().__init__(db, clock=clock)  # type: ignore[arg-type]  # a Database takes only its own connections
        self.path = db.path


__all__ = ["SqliteDb", "SqliteStore"]
