"""`cardroom hotseat` as a real process: it needs a terminal, and it leaves no temporary folder."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest


def _hotseat(tmp_path, **streams):
    """`cardroom hotseat` in a process of its own, making its temporary folders in tmp_path."""
    root = Path(__file__).resolve().parents[1]
    env = dict(os.environ, TMPDIR=str(tmp_path),
               PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    return subprocess.Popen([sys.executable, "-m", "cardroom", "hotseat", "--players", "alice",
                             "--bots", "1", "--seed", "1"], env=env, **streams)


def test_hotseat_without_a_terminal_exits_at_once_with_a_message(tmp_path):
    """It used to read end-of-file for ever at 100% CPU, and leave its temporary folder behind."""
    proc = _hotseat(tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 2
    assert err.decode().startswith("cardroom hotseat: it is played at a terminal, and stdin and "
                                   "stderr are not one") and "Traceback" not in err.decode()
    assert out == b"" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("ending", ["ctrl+q", "SIGTERM", "SIGHUP"])
def test_hotseat_removes_its_temporary_database_folder_when_it_ends(tmp_path, ending):
    """Quit from the keyboard, stopped with kill, or its terminal closed: the folder goes."""
    terminal, terminal_end = os.openpty()
    proc = _hotseat(tmp_path, stdin=terminal_end, stdout=terminal_end, stderr=terminal_end)
    shown = b""

    def read_until(done, timeout=30.0):
        nonlocal shown
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    shown += os.read(terminal, 65536)
                except OSError:        # the other end closed
                    break

    try:
        read_until(lambda: b"alice" in shown and list(tmp_path.glob("cardroom-*/hotseat.sqlite3")))
        folders = list(tmp_path.glob("cardroom-*"))
        assert len(folders) == 1 and (folders[0] / "hotseat.sqlite3").exists(), shown[-2000:]
        if ending == "ctrl+q":
            os.write(terminal, b"\x11")
        else:
            proc.send_signal(getattr(signal, ending))
        read_until(lambda: proc.poll() is not None)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    assert proc.returncode == 0
    assert list(tmp_path.iterdir()) == []
