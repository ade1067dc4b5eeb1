"""The room spread over processes, played as people play it: a table host and two gateways (real
processes on a real PostgreSQL and nats-server), alice and bob each in a tmux pane running the
OpenSSH client, alice through one gateway and bob through the other.

One story, in order: a hand across the two gateways; alice's gateway killed with SIGKILL (bob sees
her disconnected; she logs in through the other gateway and is back in her seat); the table host
killed with SIGKILL mid-hand (both screens say the table is reconnecting; a new host takes the
table over, voids the cut-off hand and seats them again with the stacks they began it with; play
resumes). No chip is lost: the ledger check is clean and the money is what it was.
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardroom.store.audit import check_store
from cardroom.store.postgres import PostgresStore
from tests.bus.test_roles import ROOT, start_host
from tests.tmux import EXIT_MARK, MISSING, Tmux, free_port, keygen, ssh_command

pytestmark = pytest.mark.skipif(bool(MISSING), reason=f"needs {', '.join(MISSING)} on PATH "
                                "(a real terminal multiplexer and the OpenSSH client)")

TABLE = "Spread Hold'em $2/$4"
START = 100_000          # each account's starting money, in cents


def config_text() -> str:
    return f'''
[server]
host = "127.0.0.1"
max_per_ip = 20

[room]
starting_money = "{START // 100}"

[[tables]]
name = "{TABLE}"
game = "holdem"
structure = "fixed"
stakes = ["2", "4"]
seats = 6
rake_percent = 0
'''


def start_gateway(config: Path, url: str, nats: str, port: int, key: Path, data: Path) -> subprocess.Popen:
    data.mkdir(parents=True, exist_ok=True)
    out = data / "out.txt"
    with out.open("w") as f:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "serve", "--role", "gateway", "--config", str(config),
             "--store", url, "--nats", nats, "--port", str(port), "--host-key", str(key),
             "--data-dir", str(data), "--headless", "--log-stderr"],
            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=f, stderr=subprocess.STDOUT)
    end = time.monotonic() + 30
    while "players connect with" not in out.read_text():
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            pytest.fail(f"the gateway did not start: {out.read_text()}")
        time.sleep(0.05)
    return proc


def stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def wait_gone(tmux: Tmux, target: str, text: str, timeout: float) -> str:
    end = time.monotonic() + timeout
    while True:
        screen = tmux.screen(target)
        if text not in screen:
            return screen
        assert time.monotonic() < end, f"{target}: still shows {text!r}:\n{screen}"
        time.sleep(0.15)


def wait_either(tmux: Tmux, target: str, *choices: tuple[str, ...], timeout: float = 10.0) -> str:
    """The pane's text once it shows every text of one of `choices`."""
    deadline = time.monotonic() + timeout
    while True:
        text = tmux.screen(target)
        if any(all(t in text for t in texts) for texts in choices):
            return text
        if time.monotonic() > deadline:
            raise AssertionError(f"{target}: never showed any of {choices!r}; the pane:\n{text}")
        time.sleep(0.15)


def actor_of(tmux: Tmux, names, timeout: float = 15.0) -> str:
    """The player whose turn it is in a hand under way (posting any blind asked for meanwhile)."""
    end = time.monotonic() + timeout
    while True:
        for name in names:
            screen = tmux.screen(name)
            if "Post the blind of" in screen:
                tmux.keys(name, "Enter")
            elif "Your turn" in screen and "hand #" in screen:
                return name
        assert time.monotonic() < end, "no hand started: " + "\n".join(tmux.screen(n) for n in names)
        time.sleep(0.15)


def test_two_gateways_a_gateway_killed_and_a_table_host_killed_mid_hand(tmp_path, pg_cluster, nats_server):
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(config_text())
    for name in ("alice", "bob"):
        keygen(tmp_path / name)
    key = tmp_path / "host_key"
    ports = {"alice": free_port(), "bob": free_port()}
    tmux = Tmux()
    host = start_host(config, url, nats_server.url, tmp_path / "host")
    gateways = {name: start_gateway(config, url, nats_server.url, ports[name], key, tmp_path / f"gw-{name}")
                for name in ("alice", "bob")}
    store = PostgresStore(url)
    try:
        # -- a hand across the two gateways ---------------------------------------------------
        for name in ("alice", "bob"):
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
                 ssh_command(ports[name], tmp_path / name, name))
        for name in ("alice", "bob"):
            tmux.wait(name, f"Welcome, {name}", timeout=20)
            tmux.keys(name, "Enter")
            tmux.wait(name, "Tables", TABLE)
            tmux.keys(name, "j")
            tmux.wait(name, f"Buy in at {TABLE}")
            tmux.keys(name, "Enter")
            tmux.wait(name, f"{name} (seat")
        actor = actor_of(tmux, ("alice", "bob"))
        other = "bob" if actor == "alice" else "alice"
        tmux.keys(actor, "f")
        tmux.wait(other, f"{actor} folds")

        # -- alice's gateway killed: disconnected, then back through the other gateway --------
        gateways["alice"].send_signal(signal.SIGKILL)
        gateways["alice"].wait()
        tmux.wait("alice", EXIT_MARK, timeout=10)                # her ssh saw the connection drop
        tmux.wait("bob", "(disconnected)", timeout=20)      # the host heard her gateway fall silent
        login_to_seat(tmux, "alice", ports["bob"], tmp_path / "alice")
        wait_gone(tmux, "bob", "(disconnected)", timeout=10)

        # -- the table host killed mid-hand ---------------------------------------------------
        actor = actor_of(tmux, ("alice", "bob"))
        mid = tmux.screen(actor)
        hand_id = re.search(r"hand #(\S+)", mid).group(1)
        assert store.get_hand(hand_id).status == "in_progress"
        began = {s.account_id: s.start_cents for s in store.get_hand(hand_id).seats}
        host.send_signal(signal.SIGKILL)
        host.wait()
        for name in ("alice", "bob"):
            tmux.wait(name, "[reconnecting]", "The table is reconnecting", timeout=15)
        host = start_host(config, url, nats_server.url, tmp_path / "host2")
        # The dead host's lease runs out (10 s) before the new one may deal the table.
        for name in ("alice", "bob"):
            wait_gone(tmux, name, "[reconnecting]", timeout=30)
        end = time.monotonic() + 15
        while store.get_hand(hand_id).status != "void":
            assert time.monotonic() < end, store.get_hand(hand_id)
            time.sleep(0.1)
        # Seated again with the stacks they began the cut-off hand with (the next hand waits
        # for its blinds, which nobody has posted yet).
        assert {h.account_id: h.chips_cents for h in store.table_holdings(TABLE)} == began
        for name in ("alice", "bob"):
            tmux.wait(name, f"{name} (seat", TABLE)
        actor_of(tmux, ("alice", "bob"), timeout=30)              # and play resumes
        assert store.total_money() == store.expected_money() == 2 * START   # balances, tables, escrow
        assert check_store(store) == []
    finally:
        tmux.kill()
        for proc in [host, *gateways.values()]:
            stop(proc)
        store.close()


def test_one_live_session_per_account_across_gateways(tmp_path, pg_cluster, nats_server):
    """alice logs in through one gateway, then through the other: the first session ends saying
    why (its ssh exits), as a second login does in one process; the second plays on."""
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(config_text())
    keygen(tmp_path / "alice")
    key = tmp_path / "host_key"
    ports = [free_port(), free_port()]
    tmux = Tmux()
    host = start_host(config, url, nats_server.url, tmp_path / "host")
    gateways = [start_gateway(config, url, nats_server.url, p, key, tmp_path / f"gw{i}")
                for i, p in enumerate(ports)]
    try:
        tmux("new-session", "-d", "-s", "first", "-x", "100", "-y", "30",
             ssh_command(ports[0], tmp_path / "alice", "alice"))
        tmux.wait("first", "Welcome, alice", timeout=20)
        tmux("new-session", "-d", "-s", "second", "-x", "100", "-y", "30",
             ssh_command(ports[1], tmp_path / "alice", "alice"))
        tmux.wait("second", "Welcome, alice", timeout=20)
        first = tmux.wait("first", EXIT_MARK, timeout=15)
        assert "logged in from somewhere else" in first, first
        tmux.keys("second", "Enter")
        tmux.wait("second", "Tables", TABLE)             # the newer session goes on
    finally:
        tmux.kill()
        for proc in [host, *gateways]:
            stop(proc)


GATEWAY_FAREWELL = "This server is restarting: log in again to return to your seat"


def login_to_seat(tmux: Tmux, name: str, port: int, key: Path) -> None:
    """`name` logs in again (his pane's ssh had exited) and goes to his table: his seat is there.
    Enter on the welcome screen opens the lobby, or at once the table if it is waiting for him
    (his blind or his decision came while he was away): either is fine."""
    tmux("respawn-pane", "-k", "-t", name, ssh_command(port, key, name))
    tmux.wait(name, f"Welcome, {name}", timeout=20)
    tmux.keys(name, "Enter")
    end = time.monotonic() + 10
    while f"{name} (seat" not in (screen := tmux.screen(name)):   # the lobby, or his table at once
        if "Tables" in screen and TABLE in screen:
            tmux.keys(name, "]")                          # the next of my tables: my seat kept
            tmux.wait(name, f"{name} (seat", TABLE)
            return
        assert time.monotonic() < end, screen
        time.sleep(0.15)


def test_a_rolling_restart_of_the_gateways_keeps_every_seat(tmp_path, pg_cluster, nats_server):
    """Issue 34, point 14: SIGTERM of a gateway ended its players' ssh with a blank screen. Now
    they read that the server is restarting and how to come back (their ssh exits 0), log in
    through the other gateway and are at their seats with their chips; then the other way round."""
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(config_text())
    for name in ("alice", "bob"):
        keygen(tmp_path / name)
    key = tmp_path / "host_key"
    ports = [free_port(), free_port()]
    tmux = Tmux()
    host = start_host(config, url, nats_server.url, tmp_path / "host")
    gateways = [start_gateway(config, url, nats_server.url, p, key, tmp_path / f"gw{i}")
                for i, p in enumerate(ports)]
    store = PostgresStore(url)
    try:
        for name, port in (("alice", ports[0]), ("bob", ports[1])):
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
                 ssh_command(port, tmp_path / name, name))
        for name in ("alice", "bob"):
            tmux.wait(name, f"Welcome, {name}", timeout=20)
            tmux.keys(name, "Enter")
            tmux.wait(name, "Tables", TABLE)
            tmux.keys(name, "j")
            tmux.wait(name, f"Buy in at {TABLE}")
            tmux.keys(name, "Enter")
            tmux.wait(name, f"{name} (seat")
        end = time.monotonic() + 15
        while len([h for h in store.table_holdings(TABLE) if h.chips_cents]) < 2:
            assert time.monotonic() < end, store.table_holdings(TABLE)
            time.sleep(0.1)

        def chips() -> dict[int, int]:
            return {h.account_id: h.chips_cents for h in store.table_holdings(TABLE) if h.chips_cents}

        # -- the first gateway restarted: alice reads why, and comes back through the second --
        gateways[0].send_signal(signal.SIGTERM)
        screen = tmux.wait("alice", EXIT_MARK, timeout=15)
        assert GATEWAY_FAREWELL in screen and f"{EXIT_MARK}0" in screen, screen
        assert gateways[0].wait(15) == 0
        before = chips()
        login_to_seat(tmux, "alice", ports[1], tmp_path / "alice")
        gateways[0] = start_gateway(config, url, nats_server.url, ports[0], key, tmp_path / "gw0b")
        # -- then the second: both read it, and come back through the first -----------------
        gateways[1].send_signal(signal.SIGTERM)
        for name in ("alice", "bob"):
            screen = tmux.wait(name, EXIT_MARK, timeout=15)
            assert GATEWAY_FAREWELL in screen and f"{EXIT_MARK}0" in screen, screen
        assert gateways[1].wait(15) == 0
        for name in ("alice", "bob"):
            login_to_seat(tmux, name, ports[0], tmp_path / name)
        # At their seats with their chips (none moved while nobody was there to play).
        assert chips() == before and len(before) == 2
        assert store.total_money() == store.expected_money() == 2 * START
        assert check_store(store) == []
    finally:
        tmux.kill()
        for proc in [host, *gateways]:
            stop(proc)
        store.close()


def exec_ssh(port: int, key: Path, name: str, *command: str) -> tuple[int, str, str]:
    """The OpenSSH client running one command (no terminal): its status, stdout and stderr."""
    done = subprocess.run(["ssh", "-F", "/dev/null", "-p", str(port), "-i", str(key), "-o", "StrictHostKeyChecking=no",
                           "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes",
                           "-o", "LogLevel=ERROR", f"{name}@127.0.0.1", *command],
                          capture_output=True, text=True, timeout=60)
    return done.returncode, done.stdout, done.stderr


async def test_admin_commands_over_exec_on_a_gateway(tmp_path, pg_cluster, nats_server):
    """Issue 34, point 11: `ssh boss@gateway who` said "'who' is not a command here", though the
    README promises the admin commands over exec. On a gateway they are the one process's: the
    same commands and checks, over the whole room, the key's fingerprint on the ledger's row."""
    from cardroom.bus.client import Gateway
    from cardroom.bus.connection import connect
    from tests.bus.conftest import until

    url = pg_cluster.new_database()
    boss = keygen(tmp_path / "boss")
    keygen(tmp_path / "alice")
    config = tmp_path / "config.toml"
    config.write_text(config_text().replace('max_per_ip = 20', f'max_per_ip = 20\nadmins = ["{boss}"]'))
    port = free_port()
    host = start_host(config, url, nats_server.url, tmp_path / "host")
    gateway = start_gateway(config, url, nats_server.url, port, tmp_path / "host_key", tmp_path / "gw")
    store = PostgresStore(url)
    nc = await connect(nats_server.url, name="players")
    players = Gateway(nc, PostgresStore(url), tables=[TABLE])   # carol plays through another gateway
    await players.start()
    try:
        carol = await players.login("carol")
        await carol.watch(TABLE)
        await carol.join(TABLE, 3)
        await carol.buy_in(TABLE, 10_000)
        await until(lambda: TABLE in carol.my_tables(), what="carol seated")
        loop = asyncio.get_running_loop()

        async def run(*command):
            return await loop.run_in_executor(None, exec_ssh, port, tmp_path / "boss", "boss", *command)

        end = time.monotonic() + 15
        while True:              # the gateway hears the host's tables and the other gateway's sessions
            status, out, err = await run("who")
            if status == 0 and "carol" in out and "seat 3" in out:
                break
            assert time.monotonic() < end, (status, out, err)
            await asyncio.sleep(0.5)
        assert TABLE in out
        status, out, err = await run("tables")
        assert status == 0 and TABLE in out and "1/6 seated" in out, (out, err)
        status, out, err = await run("credit", "carol", "5", "refund for hand 12")
        assert status == 0 and err == "" and "credited $5 to carol: refund for hand 12" in out, (out, err)
        entry = store.ledger(carol.account_id, limit=1)[0]
        assert (entry.kind, entry.amount_cents, entry.reason, entry.admin) == (
            "credit", 500, "refund for hand 12", boss)
        status, out, err = await run("credit", "nobody", "5", "x")             # the same checks
        assert status == 1 and out == "" and "no player" in err
        status, out, err = await loop.run_in_executor(None, exec_ssh, port, tmp_path / "alice", "alice",
                                                      "credit", "alice", "100", "free money")
        assert status == 1 and "credit is an admin command, and this key is not an admin's" in err
        assert store.total_money() == store.expected_money()
        assert check_store(store) == []
    finally:
        await players.close()
        players.store.close()
        await nc.close()
        for proc in (host, gateway):
            stop(proc)
        store.close()
