"""The data folder `cardroom serve` works in: one server at a time, for its owner's eyes only.

The database holds every hole card and the deck order of the hand in progress, and the log names
every player, so the folder is 0700 and the server's files in it 0600. They are tightened at every
start: a folder made by an older cardroom, or by hand, was 0755 with 0644 files. Only the server's
own files are touched; the folder may also hold the config and whatever else its owner keeps there.

A second server on the same folder would void the first one's hand in progress and cash out its
seats under it, so a server holds an exclusive lock on `cardroom.lock` for its whole life (the
kernel drops it when the process ends, however it ends).
"""

from __future__ import annotations

import fcntl
import logging
import os
import stat
from pathlib import Path

log = logging.getLogger("cardroom.datadir")

DB_NAME = "cardroom.sqlite3"
LOG_NAME = "cardroom.log"
HOST_KEY = "host_keys/ssh_host_ed25519_key"
LOCK_NAME = "cardroom.lock"


class DataDirInUse(Exception):
    """Another server holds the data folder's lock."""


def _tighten(path: Path, mode: int) -> None:
    try:
        now = stat.S_IMODE(path.stat().st_mode)
    except FileNotFoundError:
        return
    if now & ~mode:
        path.chmod(mode)
        log.warning("%s was readable by others (mode %o): now %o", path, now, mode)


def _private_files(folder: Path) -> list[Path]:
    """The files of the server's in the folder: the database (with its WAL and shared memory),
    the log and its rotated copies, the lock, the host key."""
    return [folder / f"{DB_NAME}{tail}" for tail in ("", "-wal", "-shm", "-journal")] + [
        *sorted(folder.glob(f"{LOG_NAME}*")), folder / LOCK_NAME, folder / HOST_KEY]


class DataDir:
    """A claimed data folder: the lock is held until `release()` (or the process ends)."""

    def __init__(self, path: Path, lock_fd: int) -> None:
        self.path = path
        self._lock_fd: int | None = lock_fd

    @property
    def database(self) -> Path:
        return self.path / DB_NAME

    def tighten(self) -> None:
        """The folder 0700, the server's files 0600 (call again once the files exist)."""
        _tighten(self.path, 0o700)
        _tighten(self.path / Path(HOST_KEY).parent, 0o700)
        for f in _private_files(self.path):
            _tighten(f, 0o600)

    def release(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)     # closing the only descriptor drops the flock
            self._lock_fd = None


def claim(path: Path) -> DataDir:
    """Create (0700) and lock the data folder, and tighten what is already in it. Raises
    DataDirInUse, naming the other server's process, while another server holds it."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    fd = os.open(path / LOCK_NAME, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise DataDirInUse(f"another cardroom server (process {holder}) is serving {path}: "
                           "stop it first, or give this one another --data-dir") from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.write(fd, f"{os.getpid()}\n".encode())
    data = DataDir(path, fd)
    data.tighten()
    if not data.database.exists():
        # Made here, 0600, rather than by SQLite under the umask: its WAL and shared-memory files
        # take the database's mode when SQLite creates them.
        os.close(os.open(data.database, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600))
    return data
