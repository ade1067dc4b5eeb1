"""A sit & go over real OpenSSH clients (issue 38, "Tests and benchmark"): `python -m cardroom serve`
as a subprocess with a three-player sit & go in its config.toml, the OpenSSH client in three tmux
panes, keys typed with `tmux send-keys`, the screens read with `tmux capture-pane -p`.

Each player goes from the lobby to the tournaments (`t`), opens the sit & go (Enter) and registers
(`r`); the third registration starts it and every player's table opens by itself. They play by
checking and calling (`c`) whenever the bar says it is their turn; the stacks are one big blind
deep, so the hands are all-in and the sit & go ends in a few of them. Each player is told where he
finished in a dialog that stays; the winner's prize is in his balance."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.tmux import MISSING, Tmux, free_port, keygen, ssh_command

pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)} on PATH "
                                "(a real terminal multiplexer and the OpenSSH client)")

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("alice", "bob", "carol")
SNG = "Three Hander"


def _server(tmp: Path, port: int) -> subprocess.Popen:
    config = tmp / "config.toml"
    config.write_text(f"""
[server]
host = "127.0.0.1"
port = {port}
max_per_ip = 20

[room]
starting_money = "500"

[[tables]]
name = "Cash Hold'em $2/$4"
game = "holdem"
structure = "fixed"
stakes = ["2", "4"]
seats = 6
rake_percent = 0

[[tournaments]]
name = "{SNG}"
game = "holdem"
structure = "no"
kind = "sit-and-go"
seats = 3
table_size = 3
starting_chips = 100
buy_in = "10"
fee = "1"
levels = [
  {{ blinds = [50, 100], minutes = 1 }},
  {{ blinds = [100, 200], minutes = 1 }},
]
payouts = [{{ entrants = 2, percent = [70, 30] }}]
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


def test_three_players_register_over_real_ssh_and_play_a_sit_and_go_to_its_end(tmp_path):
    for name in NAMES:
        keygen(tmp_path / name)
    port = free_port()
    tmux = Tmux()
    server = _server(tmp_path, port)
    try:
        for name in NAMES:
            tmux("new-session", "-d", "-s", name, "-x", "80", "-y", "24", ssh_command(port, tmp_path / name, name))

        # Each player: the lobby, its tournaments, the sit & go's own lobby, and registers.
        for i, name in enumerate(NAMES):
            tmux.wait(name, f"Welcome, {name}", timeout=20)
            tmux.keys(name, "Enter")
            tmux.wait(name, "Tables", "t Tournaments")
            tmux.keys(name, "t")
            tmux.wait(name, "Tournaments", SNG, "when full")
            tmux.keys(name, "Enter")
            tmux.wait(name, f"{SNG} #1", "Not registered: r registers ($10 + $1)")
            tmux.keys(name, "r")
            if i < len(NAMES) - 1:
                tmux.wait(name, "You are registered", f"{i + 1} entr")

        # The third registration starts it: every player's table opens by itself, with its line.
        for name in NAMES:
            text = tmux.wait(name, f"{SNG} #1 table 1", "Lvl 1: 50/100", "3/3 left", timeout=15)
            assert " l Leave" not in text and "$" not in text.splitlines()[2]   # chips, not money

        # Play: check or call whenever it is one's turn, until everyone has been told his place.
        finished: dict[str, tuple[int, int]] = {}      # name -> (place, prize in cents)
        shared: dict[str, bool] = {}                   # the dialog says his prize is a share
        deadline = time.monotonic() + 120
        while len(finished) < len(NAMES):
            assert time.monotonic() < deadline, {n: tmux.screen(n) for n in NAMES}
            for name in NAMES:
                if name in finished:
                    continue
                text = tmux.screen(name)
                found = re.search(r"You finished (\d)\w\w of 3(?:: no prize| and won \$(\d+)(?:\.(\d\d))?)", text)
                if found:
                    place, dollars, cents = found.groups()
                    finished[name] = (int(place), int(dollars or 0) * 100 + int(cents or 0))
                    shared[name] = "(sharing the prizes" in text      # the dialog wraps the rest
                    tmux.wait(name, "Keep watching (Enter)", "Lobby (l)")
                elif "Your turn" in text:
                    tmux.keys(name, "c")
            time.sleep(0.2)

        # Places 1st to 3rd (two out on one hand with equal chips share theirs), the pool paid out.
        places = sorted(place for place, _ in finished.values())
        assert places == [1, 2, 3], finished
        assert sum(prize for _, prize in finished.values()) == 3_000, finished
        winner = next(n for n, (place, _) in finished.items() if place == 1)
        prize = finished[winner][1]
        assert prize >= 2_100, finished
        # Two out on the same hand with equal chips share the prizes of their places (2nd and
        # 3rd: $4.50 each), and their dialogs say so; else 2nd wins $9 and 3rd nothing.
        second, third = (next(n for n, (p, _) in finished.items() if p == k) for k in (2, 3))
        if finished[second][1] == finished[third][1]:
            assert shared[second] and shared[third], finished
        else:
            assert (finished[second][1], finished[third][1]) == (900, 0) and not shared[second], finished

        # The winner goes back to the lobby and finds the prize in his money: $500 - $11 + prize.
        tmux.keys(winner, "l")
        tmux.wait(winner, "t Tables", SNG)
        tmux.keys(winner, "m")
        balance = 50_000 - 1_100 + prize
        tmux.wait(winner, f"${balance // 100}" + (f".{balance % 100:02d}" if balance % 100 else ""))
        for name in NAMES:
            tmux.keys(name, "C-q")
    finally:
        tmux.kill()
        if server.poll() is None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
    assert server.returncode == 0, server.stdout.read()
