"""`cardroom serve --role tables` as a real process on a real PostgreSQL and nats-server: players
reach its tables through a Gateway, and a host killed with SIGKILL leaves no chip lost -- the
restarted host voids what was unfinished and seats everyone again with the same chips.

(The gateway role's SSH sessions are not played here: the TUI still calls the client
synchronously, so a RemoteClient cannot drive it yet.)
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardroom.bus.client import Gateway
from cardroom.bus.connection import connect
from cardroom.config import ServerConfig
from cardroom.store.audit import check_store
from cardroom.store.leases import Leases
from cardroom.store.postgres import PostgresStore
from tests.bus.conftest import until

ROOT = Path(__file__).resolve().parents[2]
TABLE = "Planet Hold'em $2/$4"
CONFIG = f'''
[server]
host = "127.0.0.1"
port = 2222

[room]
starting_money = "1000.00"

[[tables]]
name = "{TABLE}"
game = "holdem"
structure = "fixed"
stakes = ["2", "4"]
seats = 10
'''


def start_host(config: Path, url: str, nats: str, data: Path) -> subprocess.Popen:
    """A table host process; its output goes to a file (a pipe nobody reads would fill and stop it)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    data.mkdir(parents=True, exist_ok=True)
    out = data / "out.txt"
    with out.open("w") as f:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "serve", "--role", "tables", "--config", str(config),
             "--store", url, "--nats", nats, "--data-dir", str(data), "--log-stderr"],
            env=env, stdout=f, stderr=subprocess.STDOUT)
    end = time.monotonic() + 30
    while time.monotonic() < end and proc.poll() is None:
        if "cardroom table host" in out.read_text():
            return proc
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"the table host did not start: {out.read_text()}")


def test_sqlite_is_refused(tmp_path):
    (tmp_path / "config.toml").write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "cardroom", "serve", "--role", "tables", "--config",
                           str(tmp_path / "config.toml"), "--data-dir", str(tmp_path / "d")],
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert done.returncode == 2
    assert "needs a PostgreSQL store" in done.stderr


def test_a_bad_tables_name_is_one_clear_line_at_start(tmp_path):
    """Issue 34, point 15: `--tables Nope` put a traceback in the log. It is refused before
    anything starts, in one line naming the config's tables; the log has nothing."""
    (tmp_path / "config.toml").write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "cardroom", "serve", "--role", "tables", "--config",
                           str(tmp_path / "config.toml"), "--store", "postgresql://nobody@127.0.0.1:1/none",
                           "--tables", f"Nope,{TABLE}", "--data-dir", str(tmp_path / "d")],
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"cardroom serve: --tables: no table called 'Nope' in the config (its "
                                   f"tables: {TABLE!r})"), done.stderr
    log = tmp_path / "d" / "cardroom.log"
    assert not log.exists() or "Traceback" not in log.read_text()


# Deep: the default run kills a host mid-hand in test_a_live_host_takes_over_the_tables_of_one_killed_mid_hand
# and in test_gateways_e2e (a live host takes over); this one restarts the same config (17 s).
@pytest.mark.deep
async def test_host_killed_and_restarted_seats_players_again(tmp_path, pg_cluster, nats_server):
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    host = start_host(config, url, nats_server.url, tmp_path / "host")
    store = PostgresStore(url)
    nc = await connect(nats_server.url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[TABLE])
    await gateway.start()
    try:
        alice = await gateway.login("alice")
        bob = await gateway.login("bob")
        for client, seat in ((alice, 1), (bob, 2)):
            await client.watch(TABLE)
            assert await client.join(TABLE, seat) == seat
            await client.set_auto_blind(TABLE, True)   # Auto Blind starts off: no hand without it
            await client.buy_in(TABLE, 10000)
        await until(lambda: TABLE in alice.my_tables() and TABLE in bob.my_tables(), what="seated")
        # The ledger's buy-ins, not the table's chips: a hand dealt at once puts every stack in
        # its escrow and the table then holds no chips of either (1 full run in 2 under load).
        await until(lambda: {e.account_id for e in store.ledger(limit=20) if e.kind == "buy_in"}
                    == {alice.account_id, bob.account_id}, what="both buy-ins recorded")
        total = 2 * 100000       # both starting sums: on the table, in a hand's escrow, or kept
        await until(lambda: alice.view(TABLE).hand_id and alice.view(TABLE).phase == "bet",
                    deadline=15, what="a hand under way, for the kill to cut off")

        leases = Leases(store)
        first = leases.owners()[TABLE]
        killed_at = store.ledger(limit=1)[0].seq
        host.send_signal(signal.SIGKILL)       # mid-hand or between hands: no chip may be lost
        host.wait()
        host = start_host(config, url, nats_server.url, tmp_path / "host2")
        await until(lambda: leases.owners()[TABLE].token > first.token, deadline=30,
                    what="the new host claims the table once the dead one's lease expired")
        await until(lambda: len([h for h in store.table_holdings(TABLE) if h.chips_cents]) == 2,
                    deadline=10, what="both seated again by the new host")
        # The new host voids, cashes everyone out and buys them in again, a write at a time: the
        # sums below read the store once that is done, not between its cash-outs and buy-ins.
        await until(lambda: {e.account_id for e in store.ledger(limit=20)
                             if e.kind == "buy_in" and e.seq > killed_at} == {alice.account_id, bob.account_id},
                    deadline=10, what="both bought in again by the new host")
        # At their seats, as the new host tells their gateway. (The store's table chips were read
        # here once: the new host deals a hand at once, its stacks then in the hand's escrow, and
        # the read found no chips on the table 1 time in 5.)
        await until(lambda: alice.view(TABLE).my_seat == 1 and bob.view(TABLE).my_seat == 2
                    and alice.view(TABLE).status != "reconnecting", deadline=15,
                    what="both in their seats at the new host")
        # Every cent the two began with, wherever it is (balances, table chips, a hand's escrow,
        # the rake): the store's own sums, each one read.
        assert store.total_money() == store.expected_money() == total
        assert check_store(store) == []
    finally:
        await gateway.close()
        await nc.close()
        host.terminate()
        try:
            host.wait(15)
        except subprocess.TimeoutExpired:
            host.kill()
        store.close()


def test_two_gateways_listen_on_one_port_with_one_key(tmp_path, pg_cluster, nats_server):
    from tests.pgcluster import free_port

    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    port = free_port()
    procs, outs = [], []
    try:
        for n in (1, 2):
            out = tmp_path / f"gw{n}.txt"
            with out.open("w") as f:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "cardroom", "serve", "--role", "gateway", "--config", str(config),
                     "--store", url, "--nats", nats_server.url, "--port", str(port), "--host-key",
                     str(tmp_path / "host_key"), "--data-dir", str(tmp_path / f"gw{n}"), "--headless"],
                    env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=f, stderr=subprocess.STDOUT))
            outs.append(out)
            end = time.monotonic() + 30
            while "players connect with" not in out.read_text():
                assert procs[-1].poll() is None and time.monotonic() < end, out.read_text()
                time.sleep(0.05)
        prints = [line for out in outs for line in out.read_text().splitlines() if "fingerprint" in line]
        assert len(prints) == 2 and prints[0] == prints[1]      # one host key for both
        assert all(p.poll() is None for p in procs)             # the second bind did not fail
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()


async def test_a_live_host_takes_over_the_tables_of_one_killed_mid_hand(tmp_path, pg_cluster, nats_server):
    """Two table hosts for the same tables: the first holds them, the second waits. The first is
    killed with SIGKILL during a hand: once its lease runs out the second claims the table, voids
    the hand (stacks back) and seats both players again; the players' clients go on with it."""
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    first = start_host(config, url, nats_server.url, tmp_path / "host1")
    store = PostgresStore(url)
    leases = Leases(store)
    await until(lambda: TABLE in leases.owners(), deadline=10, what="the first host holds the table")
    second = start_host(config, url, nats_server.url, tmp_path / "host2")
    nc = await connect(nats_server.url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[TABLE])
    await gateway.start()
    try:
        alice = await gateway.login("alice")
        bob = await gateway.login("bob")
        for client, seat in ((alice, 1), (bob, 2)):
            await client.watch(TABLE)
            await client.join(TABLE, seat)
            await client.buy_in(TABLE, 10000)
            await client.set_auto_blind(TABLE, True)
        await until(lambda: alice.view(TABLE).hand_id and alice.view(TABLE).phase == "bet",
                    deadline=15, what="a hand under way")
        hand_id = alice.view(TABLE).hand_id
        owner = leases.owners()[TABLE]
        first.send_signal(signal.SIGKILL)
        first.wait()
        killed = time.monotonic()
        takeover = ServerConfig().takeover_seconds
        await until(lambda: leases.owners()[TABLE].owner != owner.owner, deadline=takeover + 10,
                    what="the live host claims the table once the dead one's lease expired")
        claimed = time.monotonic() - killed
        await until(lambda: store.get_hand(hand_id).status == "void", deadline=10, what="the hand void")
        await until(lambda: alice.view(TABLE).my_seat == 1 and bob.view(TABLE).my_seat == 2
                    and alice.view(TABLE).status != "reconnecting", deadline=15,
                    what="both in their seats at the new host")
        dealt_again = time.monotonic() - killed
        words = f"Hand #{hand_id} is void (the table host dealing it went away): every player has the" \
                " stack he began it with back"
        for c in (alice, bob):
            await until(lambda c=c: any(line.text == words for line in c.view(TABLE).chat)
                        and any(words in page for page in c.pages), what=f"{c.name} is told of the void")
        print(f"killed host's table claimed after {claimed:.1f} s, both seated again after {dealt_again:.1f} s")
        # [server] takeover_seconds is the bound the operator is promised: the dead host's lease
        # runs out at most lease_seconds (16) after the kill, and the live host claims at its next
        # try; config.py keeps that under the bound with seconds to spare for a loaded machine.
        assert claimed <= takeover, f"claimed {claimed:.1f} s after the kill"
        assert check_store(store) == []
        assert store.total_money() == store.expected_money()
    finally:
        await gateway.close()
        await nc.close()
        for host in (first, second):
            host.terminate()
            try:
                host.wait(15)
            except subprocess.TimeoutExpired:
                host.kill()
        store.close()


def start_role(role: str, config: Path, url: str, nats: str, data: Path, *more: str) -> tuple[subprocess.Popen, Path]:
    """A table host or gateway process, not waited for; its output goes to data/out.txt."""
    data.mkdir(parents=True, exist_ok=True)
    out = data / "out.txt"
    with out.open("w") as f:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cardroom", "serve", "--role", role, "--config", str(config), "--store", url,
             "--nats", nats, "--data-dir", str(data), "--headless", *more],
            env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=f, stderr=subprocess.STDOUT)
    return proc, out


def wait_for_text(proc: subprocess.Popen, out: Path, text: str, seconds: float = 30) -> str:
    end = time.monotonic() + seconds
    while text not in out.read_text():
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            pytest.fail(f"never said {text!r}: {out.read_text()}")
        time.sleep(0.05)
    return out.read_text()


def test_a_gateway_says_on_its_terminal_that_the_bus_does_not_answer(tmp_path, pg_cluster):
    """Issue 34, point 16: a gateway started without --nats (or with the wrong one) waited for
    127.0.0.1:4222 for ever without a word. It says at once, on its terminal, what it waits for
    and how to name another; once a server is there it goes on and serves."""
    from tests.natsserver import start_server
    from tests.pgcluster import free_port

    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    nats_port = free_port()
    gateway, out = start_role("gateway", config, pg_cluster.new_database(), f"nats://127.0.0.1:{nats_port}",
                              tmp_path / "gw", "--port", str(free_port()))
    server = None
    try:
        said = wait_for_text(gateway, out, "does not answer", 20)
        assert (f"cardroom serve: the NATS server at nats://127.0.0.1:{nats_port} does not answer" in said
                and "waiting for it" in said and "--nats URL" in said), said
        assert said.count("does not answer") == 1          # said once, not at every try
        server = start_server(port=nats_port)
        wait_for_text(gateway, out, "players connect with", 30)
    finally:
        stop_quietly(gateway)
        if server is not None:
            server.close()


async def test_a_nats_url_with_a_user_and_password(tmp_path, pg_cluster):
    """README: NATS bound to 127.0.0.1 with a user and password in the URL. A host and a gateway
    given such a URL serve (a player's gateway plays through it), the password is in none of
    their output, and a wrong password is said as the bus not answering."""
    from tests.natsserver import start_server
    from tests.pgcluster import free_port

    server = start_server("--user", "cardroom", "--pass", "s3cret-word")
    url = pg_cluster.new_database()
    config = tmp_path / "config.toml"
    config.write_text(CONFIG)
    good = f"nats://cardroom:s3cret-word@127.0.0.1:{server.port}"
    procs = []
    store = PostgresStore(url)
    nc = None
    try:
        host = start_host(config, url, good, tmp_path / "host")
        procs.append(host)
        gateway, gw_out = start_role("gateway", config, url, good, tmp_path / "gw", "--port", str(free_port()))
        procs.append(gateway)
        wait_for_text(gateway, gw_out, "players connect with")
        nc = await connect(good, name="test-gateway")
        players = Gateway(nc, store, tables=[TABLE])
        await players.start()
        alice = await players.login("alice")
        await alice.watch(TABLE)
        assert await alice.join(TABLE, 1) == 1
        await alice.buy_in(TABLE, 10000)
        await until(lambda: TABLE in alice.my_tables(), what="seated through the bus with a password")
        await players.close()
        wrong, wrong_out = start_role("gateway", config, url, good.replace("s3cret-word", "guess"),
                                      tmp_path / "gw-wrong", "--port", str(free_port()))
        procs.append(wrong)
        said = wait_for_text(wrong, wrong_out, "does not answer", 20)
        assert "nats://cardroom:***@127.0.0.1" in said and "uthoriz" in said, said
        outs = [tmp_path / d / "out.txt" for d in ("host", "gw", "gw-wrong")]
        assert all("s3cret-word" not in o.read_text() and "guess" not in o.read_text() for o in outs)
        assert "nats://cardroom:***@127.0.0.1" in gw_out.read_text()
    finally:
        if nc is not None:
            await nc.close()
        for p in procs:
            stop_quietly(p)
        store.close()
        server.close()


def stop_quietly(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
