"""Storage behind the room's ports (`cardroom.room.ports`): accounts, the ledger, hand histories.

SQLite is the default (and only) backend: `SqliteStore(path)` opens, checks and migrates the file,
or raises `StoreUnavailable` / `StoreCorrupt` -- in which case the room must refuse to deal.
"""

from cardroom.store.migrations import LATEST_VERSION
from cardroom.store.sqlite import SqliteStore

__all__ = ["LATEST_VERSION", "SqliteStore"]
