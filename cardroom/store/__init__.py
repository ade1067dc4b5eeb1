"""Storage behind the room's ports (`cardroom.room.ports`): accounts, the ledger, hand histories.

Every rule and query is written once (`cardroom.store.sql.SqlStore`) over a database of one
dialect. SQLite is the default: `SqliteStore(path)` opens, checks and migrates the file. For a
room of several processes or machines, `PostgresStore(url)` (`cardroom.store.postgres`, the `pg`
extra) keeps the same data in PostgreSQL with the same rules, and there a room of several table hosts
shares out its tables by leases (`cardroom.store.leases`, which fence each host's writes).
`open_store` picks one by what it is given.
Both raise `StoreUnavailable` / `StoreCorrupt` when they cannot open -- in which case the room must
refuse to deal.
"""

from __future__ import annotations

import os

from cardroom.room.ports import StoreUnavailable
from cardroom.room.ports import is_store_url as is_url
from cardroom.store.migrations import LATEST_VERSION
from cardroom.store.sql import SqlStore
from cardroom.store.sqlite import SqliteStore

__all__ = ["LATEST_VERSION", "SqlStore", "SqliteStore", "is_url", "open_store"]


def open_store(where: str | os.PathLike[str], *, lease_owner: str | None = None) -> SqlStore:
    """The store at `where`: a postgresql:// URL, or the path of a SQLite file. `lease_owner`
    (PostgreSQL only): the table host whose leases fence its writes (`cardroom.store.leases`)."""
    if not is_url(where):
        if lease_owner is not None:
            raise StoreUnavailable("table leases need a PostgreSQL store: a SQLite room is one"
                                   " process, which deals every table itself")
        return SqliteStore(where)
    try:
        from cardroom.store.postgres import PostgresStore
    except ImportError as e:
        raise StoreUnavailable("a postgresql:// store needs psycopg 3: "
                               "pip install 'cardroom[pg]'") from e
    return PostgresStore(str(where), lease_owner=lease_owner)
