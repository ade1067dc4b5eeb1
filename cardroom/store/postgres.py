"""The PostgreSQL dialect of the store (`cardroom.store.sql`), for a room of several processes or
machines (`cardroom serve --store postgresql://...`): `PostgresStore(url)`.

Every rule and query is the SQL layer's, so money, the ledger, hands, bans and the audit are one
code. What differs is here: the driver (psycopg 3, its `%s` placeholders), the schema and its
versions (`pgschema`), the sequences, and transactions:

* a write is one SERIALIZABLE transaction. Two processes buying in from one balance at once
  cannot both pass the balance check: PostgreSQL fails one with a serialization failure, and the
  whole call runs again (a few times, backing off: `retried`) and then sees the other's buy-in --
  what SQLite's BEGIN IMMEDIATE gives by making writers queue;
* a read is one REPEATABLE READ, READ ONLY transaction: one snapshot, never waiting for writes;
* a table host's store (`lease_owner=`) fences its writes to a table's money by the host's lease
  of the table, in the write's own transaction (`cardroom.store.leases` says why that is enough).

As with SQLite, one connection writes and one reads, each behind its own lock, so any thread
may call; the room sends writes through its writer thread. A connection that broke (PostgreSQL
restarted) is opened again by the next call, which then goes on; a call while the server is
away, or whose connection broke mid-transaction, raises StoreUnavailable, as when SQLite is busy.
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from typing import Any, TypeVar

import psycopg
from psycopg import errors as pg_errors
from psycopg.conninfo import conninfo_to_dict

from cardroom.room.ports import LeaseLost, Refused, StoreUnavailable
from cardroom.store import pgschema
from cardroom.store.migrations import SchemaTooNew
from cardroom.store.sql import SqlStore, utc_now

RETRIES = 8                  # serialization failures before a write gives up (StoreUnavailable)
CONNECT_TIMEOUT_S = 5
T = TypeVar("T")


class _Conflict(StoreUnavailable):
    """A write lost a race with another transaction; it is run again from the start."""


def describe(url: str) -> str:
    """The database a URL names, for messages: never its password."""
    try:
        info = conninfo_to_dict(url)
    except psycopg.ProgrammingError:
        return "a PostgreSQL database (the URL is malformed)"
    where = str(info.get("host") or "the local socket")
    if "port" in info:
        where += f":{info['port']}"
    return f"the PostgreSQL database {info.get('dbname', '(default)')!r} on {where}"


@functools.lru_cache(maxsize=512)
def _placeholders(sql: str) -> str:
    """The store's SQL with psycopg's placeholders: `?` becomes `%s` (that SQL has no other `?`,
    and no `%`)."""
    return sql.replace("?", "%s")


class _Connection:
    """A psycopg connection that runs the store's SQL (`?` placeholders)."""

    def __init__(self, raw: psycopg.Connection) -> None:
        self.raw = raw

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor:
        return self.raw.execute(_placeholders(sql), params or None)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        self.raw.cursor().executemany(_placeholders(sql), rows)

    @property
    def in_transaction(self) -> bool:
        return self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE

    def close(self) -> None:
        self.raw.close()


# Sequences are PostgreSQL's own (pgschema); nextval never hands out a number twice.
SEQUENCES = {name: f"SELECT nextval('{name}')" for name in ("hand_ids", "session_numbers")}


class PostgresDb:
    """A PostgreSQL database, connected and migrated: the store's `Database` (module docstring)."""

    def __init__(self, url: str, *, lease_owner: str | None = None) -> None:
        """Raises StoreUnavailable with a clear message if the server cannot be reached, refuses
        the login, or holds a schema newer than this cardroom."""
        if lease_owner is not None and (not isinstance(lease_owner, str) or not lease_owner):
            raise ValueError(f"a lease owner is a table host's id (non-empty text), not {lease_owner!r}")
        self.lease_owner = lease_owner
        self.url = url
        self.where = describe(url)
        self._lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._conn = self._connect()
        try:
            try:
                pgschema.migrate(self._conn.raw)
            except SchemaTooNew as e:
                raise StoreUnavailable(f"{self.where}: {e}") from e
            except psycopg.Error as e:
                raise StoreUnavailable(f"{self.where} could not be prepared: {e}") from e
            self._reader = self._connect()
        except BaseException:
            self._conn.close()
            raise

    def _connect(self) -> _Connection:
        try:
            return _Connection(psycopg.connect(self.url, autocommit=True, prepare_threshold=None,
                                               connect_timeout=CONNECT_TIMEOUT_S,
                                               application_name="cardroom"))
        except psycopg.Error as e:
            raise StoreUnavailable(f"cannot connect to {self.where}: {e}") from e

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._conn.close()
            self._reader.close()

    def settings(self) -> dict[str, object]:
        """The server and schema versions and how writes are isolated, for diagnostics and tests."""
        with self.transaction(write=False) as c:
            return {"server_version": c.raw.info.server_version,
                    "schema_version": pgschema.schema_version(c.raw),
                    "write_isolation": "serializable"}

    @contextmanager
    def transaction(self, *, write: bool = True) -> Iterator[_Connection]:
        """SERIALIZABLE for writes (one that loses a race raises _Conflict, which `retried` runs
        again), REPEATABLE READ READ ONLY for reads; a broken connection is replaced first."""
        with self._lock if write else self._read_lock:
            try:
                c = self._begin("_conn" if write else "_reader", "BEGIN ISOLATION LEVEL SERIALIZABLE"
                                if write else "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
                try:
                    yield c
                    c.execute("COMMIT")
                finally:
                    if not c.raw.closed and c.in_transaction:
                        c.execute("ROLLBACK")
            except (pg_errors.SerializationFailure, pg_errors.DeadlockDetected) as e:
                raise _Conflict(f"{self.where}: the write lost a race: {e}") from e
            except (psycopg.IntegrityError, psycopg.DataError) as e:
                # DataError: a value PostgreSQL cannot hold, such as text with a NUL character.
                raise Refused(f"the database refused the change: {e}") from e
            except psycopg.Error as e:
                raise StoreUnavailable(f"{self.where} failed: {e}") from e

    def _begin(self, attr: str, begin: str) -> _Connection:
        """The connection `attr` with a transaction begun. One PostgreSQL dropped while it was
        idle (a restart, an admin ending sessions) is found so by BEGIN, which did nothing: it is
        replaced and the transaction begun on the new one, so the first call after a restart
        works like any other. A connection lost later, mid-transaction, fails the call (its
        commit may have happened: only the caller can tell)."""
        c = getattr(self, attr)
        if not (c.raw.closed or c.raw.broken):
            try:
                c.execute(begin)
                return c
            except psycopg.OperationalError:
                if not c.raw.broken:
                    raise
        c.close()
        c = self._connect()
        setattr(self, attr, c)
        c.execute(begin)
        return c

    @staticmethod
    def retried(call: Callable[[], T]) -> T:
        for attempt in range(RETRIES):
            try:
                return call()
            except _Conflict:
                if attempt == RETRIES - 1:
                    raise
                time.sleep(random.uniform(0, 0.002 * 2 ** attempt))
        raise AssertionError("unreachable")   # pragma: no cover

    def fence(self, c: _Connection, table: str) -> None:
        """Refuse the write unless this store's table host holds a live lease of `table`. FOR
        SHARE locks the lease row until this transaction ends: a claim of the table by another
        host waits for this write to commit, and a claim that committed first makes this row
        lock fail to serialize (the write runs again, and is refused). See store/leases.py."""
        if self.lease_owner is None:
            return
        row = c.execute("SELECT owner = ? AND expires_at > now() FROM table_leases"
                        " WHERE table_name = ? FOR SHARE", (self.lease_owner, table)).fetchone()
        if row is None or not row[0]:
            raise LeaseLost(f"this table host no longer holds table {table}")

    @staticmethod
    def next_value(c: _Connection, sequence: str) -> int:
        row = c.execute(SEQUENCES[sequence]).fetchone()
        if row is None:         # nextval() always answers: a database that does not is broken
            raise StoreUnavailable(f"the sequence {sequence} gave no value")
        return row[0]


class PostgresStore(SqlStore):
    """Accounts, the ledger and hand histories in a PostgreSQL database (`PostgresDb`).

    `lease_owner`: the id of the table host this store writes for (`cardroom.store.leases`).
    Then every buy-in, cash-out and begin/settle/void of a hand is refused (LeaseLost) unless
    that host holds a live lease of the table, checked inside the write's own transaction.
    None (one process, a gateway): no table is fenced."""

    def __init__(self, url: str, *, clock: Callable[[], datetime] = utc_now,
                 lease_owner: str | None = None) -> None:
        db = PostgresDb(url, lease_owner=lease_owner)
        super().__init__(db, clock=clock)  # type: ignore[arg-type]  # a Database takes only its own connections


__all__ = ["PostgresDb", "PostgresStore", "describe"]
