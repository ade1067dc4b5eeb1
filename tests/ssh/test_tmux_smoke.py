"""Smoke test through a real terminal: `python -m cardroom serve` as a subprocess, the OpenSSH
client inside tmux panes (alice and bob), keys typed with `tmux send-keys`, the screen read with
`tmux capture-pane -p`. Log in, lobby, join and buy in, a hand between two players, a fold, the
admin panel over SSH (alice's key is an admin), quit, and the terminal is given back (the pane is
off the alternate screen and the table is gone).

Set CARDROOM_TMUX_CAPTURE=path to keep the text of the table screen mid-hand.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tmux import EXIT_MARK, MISSING, Tmux, free_port, keygen, ssh_command

pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)} on PATH "
                                "(a real terminal multiplexer and the OpenSSH client)")

ROOT = Path(__file__).resolve().parents[2]
TABLE = "Smoke Hold'em $2/$4"


def _server(tmp: Path, port: int, admin: str) -> subprocess.Popen:
    config = tmp / "config.toml"
    config.write_text(f"""
[server]
host = "127.0.0.1"
port = {port}
max_per_ip = 20
admins = ["{admin}"]

[room]
starting_money = "500"

[[tables]]
name = "{TABLE}"
game = "holdem"
structure = "fixed"
stakes = ["2", "4"]
seats = 6
rake_percent = 0
""")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-m", "cardroom", "serve", "--config", str(config), "--headless",
                             "--port", str(port), "--data-dir", str(tmp)],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"the server exited: {proc.stdout.read()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("the server never listened")


def test_two_players_over_real_ssh_in_tmux(tmp_path):
    started = time.monotonic()
    admin = keygen(tmp_path / "alice")
    keygen(tmp_path / "bob")
    port = free_port()
    tmux = Tmux()
    server = _server(tmp_path, port, admin)
    try:
        for name in ("alice", "bob"):
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", ssh_command(port, tmp_path / name, name))

        # alice: welcome, lobby, the admin panel, then join and buy in.
        tmux.wait("alice", "Welcome, alice", timeout=15)
        tmux.keys("alice", "Enter")
        lobby = tmux.wait("alice", "Tables", TABLE)
        assert "Admin" in lobby                      # her key is in server.admins
        tmux.keys("alice", "F12")
        tmux.wait("alice", "cardroom admin")
        tmux.keys("alice", "who", "Enter")
        tmux.wait("alice", "> who", "alice", "online (1 session)")
        tmux.keys("alice", "Escape")
        tmux.wait("alice", "Tables", TABLE)
        tmux.keys("alice", "j")
        tmux.wait("alice", f"Buy in at {TABLE}")
        tmux.keys("alice", "Enter")
        tmux.wait("alice", "alice (seat", "Waiting for the next hand")

        # bob: not an admin; joins, and a hand starts.
        tmux.wait("bob", "Welcome, bob", timeout=15)
        tmux.keys("bob", "Enter")
        assert "Admin" not in tmux.wait("bob", "Tables", TABLE)
        tmux.keys("bob", "j")
        tmux.wait("bob", f"Buy in at {TABLE}")
        tmux.keys("bob", "Enter")

        # Auto Blind starts off (seed 000): each is asked for his blind before the deal.
        for name in ("alice", "bob"):
            tmux.wait(name, "Post the blind of")
            tmux.keys(name, "Enter")

        deadline = time.monotonic() + 10
        actor = None
        while actor is None:
            for name in ("alice", "bob"):
                text = tmux.screen(name)
                if "Your turn" in text and "hand #" in text:
                    actor, mid_hand = name, text
            assert time.monotonic() < deadline, "no hand started"
            time.sleep(0.15)
        other = "bob" if actor == "alice" else "alice"
        assert "f Fold" in mid_hand and "Pot $" in mid_hand and f"{actor} (seat" in mid_hand
        if os.environ.get("CARDROOM_TMUX_CAPTURE"):
            Path(os.environ["CARDROOM_TMUX_CAPTURE"]).write_text(mid_hand)
        tmux.keys(actor, "f")
        tmux.wait(other, f"{actor} folds")

        # Quit: the app ends, ssh exits 0, and the terminal is back (no alternate screen, no table).
        for name in ("alice", "bob"):
            tmux.keys(name, "C-q")
        for name in ("alice", "bob"):
            text = tmux.wait(name, f"{EXIT_MARK}0")
            assert TABLE not in text and "Fold" not in text, text
            assert tmux("display", "-p", "-t", name, "#{alternate_on}").strip() == "0"
            assert tmux("display", "-p", "-t", name, "#{cursor_flag}").strip() == "1"   # cursor shown
    finally:
        tmux.kill()
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    assert server.returncode == 0, server.stdout.read()      # a graceful shutdown on SIGTERM
    assert time.monotonic() - started < 40


def test_at_shutdown_every_real_ssh_client_reads_the_farewell_and_exits_0(tmp_path):
    """Issue 35: at shutdown some OpenSSH clients printed a bare "Disconnected by application" and
    exited 255. SIGTERM (as `shutdown now`) gives every player the farewell line, and each ssh
    closes the connection itself and exits 0, at the table, in a dialog or in the lobby."""
    names = ("alice", "bob", "carol", "dave")
    for name in names:
        keygen(tmp_path / name)
    port = free_port()
    tmux = Tmux()
    server = _server(tmp_path, port, "SHA256:" + "x" * 43)
    try:
        for name in names:
            tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", ssh_command(port, tmp_path / name, name))
        for name in names:
            tmux.wait(name, f"Welcome, {name}", timeout=15)
        for name in names[:3]:
            tmux.keys(name, "Enter")
            tmux.wait(name, "Tables", TABLE)
        for name in names[:2]:
            tmux.keys(name, "j")                            # alice and bob in the buy-in dialog
            tmux.wait(name, f"Buy in at {TABLE}")
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=30) == 0
        for name in names:
            text = tmux.wait(name, EXIT_MARK, timeout=15)
            assert f"{EXIT_MARK}0" in text and "Disconnected" not in text, text
            assert "The card room has closed" in " ".join(text.split())
    finally:
        tmux.kill()
        if server.poll() is None:
            server.kill()
            server.wait()
