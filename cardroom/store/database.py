"""What a dialect gives the store's SQL (`cardroom.store.sql`): a `Database` -- transactions on
connections that take `?` placeholders, sequences, the fence of a table host's writes, running a
write again when it loses a race -- implemented once per engine (`SqliteDb` in
`cardroom.store.sqlite`, `PostgresDb` in `cardroom.store.postgres`), and `writes`, which marks a
method that writes so that it runs again when it must.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class Connection(Protocol):
    """What the store's SQL runs on inside a transaction: `?` placeholders, rows as tuples."""

    def execute(self, sql: str, params: Sequence[Any] = ...) -> Any: ...
    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Any: ...


class Database(Protocol):
    """One dialect: a database the store's SQL runs on (`SqliteDb`, `PostgresDb`)."""

    where: str      # the database, for messages: never a password

    def transaction(self, *, write: bool = True) -> AbstractContextManager[Connection]:
        """One transaction: a write one (serialised with every other write), or a read one (one
        snapshot, never waiting for writes). Any exception rolls it back; the driver's errors
        come out as StoreErrors (Refused for a change the database refuses)."""

    def retried(self, call: Callable[[], T]) -> T:
        """`call()`, run again from the start while it loses races with other writers."""

    def fence(self, c: Connection, table: str) -> None:
        """First in every write to a table's money (buy-in, cash-out, begin/settle/void hand):
        refuse it (LeaseLost), in the same transaction, if this process may no longer write to
        the table."""

    def next_value(self, c: Connection, sequence: str) -> int:
        """The next number of `sequence` ("hand_ids", "session_numbers"), never reused."""

    def settings(self) -> dict[str, object]: ...
    def close(self) -> None: ...


def writes(method: Callable[..., T]) -> Callable[..., T]:
    """A method that writes (of an object with a `db`): run again, from its first line, when its
    transaction loses a race with another writer (PostgreSQL); SQLite's writers queue instead."""

    @functools.wraps(method)
    def run(self, *args, **kwargs):
        return self.db.retried(lambda: method(self, *args, **kwargs))

    return run


__all__ = ["Connection", "Database", "writes"]
