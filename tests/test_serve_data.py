"""`cardroom serve` and its data folder, as real processes: one server per folder, the folder and
the server's files private to their owner, and a database whose ledger does not add up refused."""

from __future__ import annotations

import os
import select
import signal
import sqlite3
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardroom.store import SqliteStore

ROOT = Path(__file__).resolve().parents[1]
READY = b"players connect with"


def _config(folder: Path) -> Path:
    path = folder / "config.toml"
    path.write_text('[server]\nhost = "127.0.0.1"\nport = 0\n\n'
                    '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    return path


class Server:
    """`cardroom serve --headless` in a process of its own, on `data`."""

    def __init__(self, config: Path, data: Path) -> None:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "serve", "--headless", "--config", str(config),
             "--data-dir", str(data)],
            env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.out = b""

    def serving(self, timeout: float = 30) -> bool:
        """Wait until it says it serves (True) or ends (False)."""
        deadline = time.monotonic() + timeout
        while READY not in self.out and time.monotonic() < deadline:
            ready, _, _ = select.select([self.proc.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 4096)
                if not chunk:
                    break
                self.out += chunk
        return READY in self.out

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        return self.proc.returncode

    def ended(self, timeout: float = 30) -> tuple[int, str]:
        """(exit code, stderr) of a server expected to stop by itself; stdout goes to `out`."""
        try:
            out, err = self.proc.communicate(timeout=timeout)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
        self.out += out
        return self.proc.returncode, err.decode()


def _ledger_rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    finally:
        conn.close()


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_second_server_on_the_same_data_folder_refuses_to_start(tmp_path):
    """It used to start, void the first server's hand in progress and cash out its seats under it."""
    config, data = _config(tmp_path), tmp_path / "data"
    first = Server(config, data)
    try:
        assert first.serving(), first.out
        rows = _ledger_rows(data / "cardroom.sqlite3")
        second = Server(config, data)
        code, err = second.ended()
        assert code == 1, err
        assert f"another cardroom server (process {first.proc.pid}) is serving {data}" in err
        assert "Nothing was served." in err and "Traceback" not in err
        assert READY not in second.out
        assert first.proc.poll() is None                     # the first one serves on, untouched
        assert _ledger_rows(data / "cardroom.sqlite3") == rows
    finally:
        assert first.stop() == 0
    again = Server(config, data)                             # the lock goes with its server
    try:
        assert again.serving(), again.out
    finally:
        again.stop()


def test_the_data_folder_is_private_and_an_old_one_is_tightened(tmp_path):
    """The database holds every hole card and the deck order of the hand in progress: a folder
    and files made under a 022 umask (0755, 0644), as before, are closed to everyone else."""
    config, data = _config(tmp_path), tmp_path / "data"
    data.mkdir(mode=0o755)
    data.chmod(0o755)
    old = os.umask(0o022)
    try:
        SqliteStore(data / "cardroom.sqlite3").close()
        (data / "cardroom.log").write_text("an old log\n")
    finally:
        os.umask(old)
    assert _mode(data / "cardroom.sqlite3") == 0o644 and _mode(data) == 0o755
    server = Server(config, data)
    try:
        assert server.serving(), server.out
        assert _mode(data) == 0o700 and _mode(data / "host_keys") == 0o700
        for name in ("cardroom.sqlite3", "cardroom.sqlite3-wal", "cardroom.sqlite3-shm",
                     "cardroom.log", "cardroom.lock", "host_keys/ssh_host_ed25519_key"):
            assert _mode(data / name) == 0o600, name
        assert _mode(config) == 0o644          # not the server's: left as its owner made it
    finally:
        assert server.stop() == 0


def test_a_fresh_data_folder_is_private_from_the_start(tmp_path):
    config, data = _config(tmp_path), tmp_path / "fresh"
    server = Server(config, data)
    try:
        assert server.serving(), server.out
        assert _mode(data) == 0o700
        assert {p.name: _mode(p) for p in data.iterdir() if p.is_file()} == dict.fromkeys(
            ["cardroom.sqlite3", "cardroom.sqlite3-wal", "cardroom.sqlite3-shm", "cardroom.log",
             "cardroom.lock"], 0o600)
    finally:
        assert server.stop() == 0


@pytest.fixture
def tampered(tmp_path):
    """A data folder whose database had bob's balance raised by $500 by hand in SQL."""
    data = tmp_path / "data"
    data.mkdir()
    store = SqliteStore(data / "cardroom.sqlite3")
    ann = store.get_or_create("ann", 100_000)
    store.get_or_create("bob", 100_000)
    store.buy_in(ann.id, "T", 20_000)      # chips a start would cash out: it must not get that far
    store.close()
    conn = sqlite3.connect(data / "cardroom.sqlite3")
    with conn:
        conn.execute("UPDATE accounts SET balance_cents = balance_cents + 50000 WHERE name = 'bob'")
    conn.close()
    return data


def test_serve_refuses_a_database_whose_ledger_does_not_add_up(tmp_path, tampered):
    db = tampered / "cardroom.sqlite3"
    rows = _ledger_rows(db)
    server = Server(_config(tmp_path), tampered)
    code, err = server.ended()
    assert code == 1, err
    assert READY not in server.out
    assert "does not add up" in err
    assert "'bob' has a balance of $1,500, the ledger gives $1,000: $500 more than the ledger records" in err
    assert "Nothing was served." in err and "Traceback" not in err
    assert _ledger_rows(db) == rows          # nothing voided, nothing cashed out
