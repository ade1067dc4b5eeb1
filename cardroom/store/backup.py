"""`cardroom backup`: a consistent copy of the room's database, taken while the room runs.

SQLite's online backup API (`sqlite3.Connection.backup`) copies the database through SQLite
itself, every page in one step under one read transaction: the copy is the database as of one
commit, whatever the room writes meanwhile (in WAL mode the room's writers are not held up).
Copying the file with cp can catch a page half-written and leaves behind the commits still in
the -wal file.

The copy is made beside its destination under a temporary name, checked (SQLite's integrity
check, then the ledger audit: every balance, table stake and escrow agrees with the ledger and no
money was made or lost) and only then renamed into place: a file at the destination is always a
whole, checked backup. An existing file is never overwritten. The copy is its owner's alone (0600,
as the database is, whatever the umask): it holds every account and key of the room.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

from cardroom.room.ports import ConservationError, StoreUnavailable
from cardroom.store.sqlite import SqliteStore

__all__ = ["BackupError", "backup"]

BUSY_SECONDS = 30.0      # how long to wait for a writer that holds the database (a checkpoint)


class BackupError(Exception):
    """The backup could not be made; the message says why. Nothing was left at the destination."""


def backup(source: str | os.PathLike[str], dest: str | os.PathLike[str], *,
           now: datetime | None = None) -> Path:
    """Copy the database `source` to `dest`: a file that does not exist yet, or a folder (the copy
    is then ``cardroom-YYYYMMDD-HHMMSS.sqlite3`` in it, UTC). Returns the file written."""
    source, dest = Path(source), Path(dest)
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    if dest.is_dir():
        stamp = (now or datetime.now(UTC)).strftime("%Y%m%d-%H%M%S")
        dest = dest / f"cardroom-{stamp}.sqlite3"
    if dest.exists():
        raise BackupError(f"{dest} already exists: a backup never overwrites a file")
    if not dest.parent.is_dir():
        raise BackupError(f"there is no folder {dest.parent} to write the backup in")
    part = dest.with_name(dest.name + ".part")
    try:
        _copy(source, part)
        _check(part)
        os.replace(part, dest)
    except BaseException:
        for leftover in (part, *(part.with_name(part.name + end) for end in ("-wal", "-shm"))):
            leftover.unlink(missing_ok=True)
        raise
    return dest


def _copy(source: Path, part: Path) -> None:
    # mode=rw: never create a database where the room's should be.
    uri = f"file:{quote(str(source.resolve()))}?mode=rw"
    # The file exists, 0600, before SQLite opens it: SQLite would create it by the umask (0644 as
    # a rule), and its journal files take the database file's mode.
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)         # a .part left by a backup that stopped keeps its old mode
    finally:
        os.close(fd)
    try:
        src = sqlite3.connect(uri, uri=True, timeout=BUSY_SECONDS)
        try:
            out = sqlite3.connect(part)
            try:
                src.backup(out)      # every page in one step: one committed state
            finally:
                out.close()
        finally:
            src.close()
    except sqlite3.Error as e:
        raise BackupError(f"cannot copy {source}: {e}") from e


def _check(part: Path) -> None:
    try:
        store = SqliteStore(part)      # refuses a copy that fails SQLite's integrity check
    except StoreUnavailable as e:
        raise BackupError(f"the copy is not a sound database: {e}") from e
    try:
        store.audit()
    except ConservationError as e:
        raise BackupError(f"the copy's ledger does not add up: {e}") from e
    finally:
        store.close()
