"""A throw-away PostgreSQL cluster for the tests: initdb in a temporary folder, started on a free
port, reachable only from 127.0.0.1 (trust), stopped and deleted at the end of the session.

Where the server binaries are absent the tests that need it skip, saying so; in CI (env CI set)
they fail instead, so CI cannot pass by skipping them (`.ci/run` installs the `postgresql`
package). As root (CI, these machines) the cluster runs as the `postgres` user, which initdb needs.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

# Fast and disposable: nothing here needs to survive a power cut.
SERVER_OPTIONS = ("-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
                  " -c max_connections=200 -c listen_addresses=127.0.0.1")


def pg_bin() -> Path | None:
    """The folder of initdb and pg_ctl: on the PATH, or Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).parent
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if (Path(folder) / "initdb").exists():
            return Path(folder)
    return None


def missing(why: str) -> None:
    """Skip (outside CI) or fail (in CI) the tests that need PostgreSQL."""
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is needed in CI and {why}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {why} (apt-get install postgresql)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A running cluster; `url(db)` connects to one of its databases as its superuser.
    `stop_server()` and `start_server()` stop it and run it again on the same port and data (a
    database restarted under the room); `stop()` ends it for good and deletes it."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.folder = Path(tempfile.mkdtemp(prefix="cardroom-pg-"))
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self.user = "postgres" if self.as_root else os.environ.get("USER", "postgres")
        if self.as_root:
            shutil.chown(self.folder, "postgres", "postgres")
        self.data = self.folder / "data"
        self._run("initdb", "-D", str(self.data), "-U", self.user, "--auth=trust", "-E", "UTF8",
                  "--no-sync")
        self.start_server()

    def start_server(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-w", "-l", str(self.folder / "log"),
                  "-o", f"-p {self.port} -k {self.folder} {SERVER_OPTIONS}", "start")

    def stop_server(self, mode: str = "fast") -> None:
        """Stop the server: `fast` ends every session (their transactions roll back), as a restart
        by an operator does; `immediate` is a crash (recovery runs at the next start)."""
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def _run(self, tool: str, *args: str) -> None:
        cmd = [str(self.bindir / tool), *args]
        if self.as_root:
            cmd = ["runuser", "-u", "postgres", "--", *cmd]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            log = self.folder / "log"
            raise RuntimeError(f"{tool} failed: {done.stderr or done.stdout}"
                               + (log.read_text() if log.exists() else ""))

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{self.user}@127.0.0.1:{self.port}/{db}"

    def stop(self) -> None:
        try:
            self.stop_server("immediate")
        finally:
            # Removed by a process of its own that the tests do not wait for: the session's
            # cluster holds a database per test (2.3 GB after tests/store and the tournaments, all
            # of it unflushed under fsync=off), and removing it took 10 to 100 s at the end of a run.
            subprocess.Popen(["rm", "-rf", str(self.folder)], start_new_session=True,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
