"""A tournament in a room of several processes (issue 38, "Several processes" and "Nothing is lost
in a crash"): one table host process deals it (it holds the tournament's lease and every one of
its tables), players register and play through a Gateway, and the host is killed with SIGKILL
mid-hand. A second host takes the tournament over once the lease runs out: the hands in progress
are void (stacks back to their start) and the tournament resumes where it was -- the same players
with the same chips, the same level and time left -- and play goes on; the ledger audit
(buy-ins taken = prize pool = prizes paid + to be decided) passes. Real PostgreSQL and NATS."""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import time

import pytest

from cardroom.bus.client import Gateway
from cardroom.bus.connection import connect
from cardroom.config import ServerConfig, load_config
from cardroom.roles import frontdoor
from cardroom.roles.gateway import GatewayRole
from cardroom.roles.tablehost import spec_lease
from cardroom.room.api import RoomError
from cardroom.store.audit import check_store
from cardroom.store.leases import Leases
from cardroom.store.postgres import PostgresStore
from cardroom.ssh.extras import Folder
from cardroom.store.tournaments import fence_name
from tests.bus.conftest import until
from tests.bus.test_roles import CONFIG, start_host

CUP = "Takeover Sit & Go"
KEY = "SHA256:" + "k" * 43
CUP_CONFIG = CONFIG + f'''
[[tournaments]]
name = "{CUP}"
game = "holdem"
structure = "no"
kind = "sit-and-go"
seats = 4
table_size = 2
starting_chips = 1500
buy_in = "10"
fee = "1"
levels = [{{ blinds = [10, 20], minutes = 10 }}, {{ blinds = [20, 40], minutes = 10 }}]
payouts = [{{ entrants = 4, percent = [65, 35] }}]
'''


async def play(clients, stop: asyncio.Event, shove: bool = False) -> None:
    """Each player checks, else calls, whenever asked, at every table he sits at (`shove`: bets
    or raises all in whenever he may, so players go out and tables balance and break)."""
    while not stop.is_set():
        for c in clients:
            for table in c.my_tables():
                try:
                    v = c.view(table)
                    lg = v.legal
                    if lg is None or v.status == "reconnecting" or lg.phase != "bet":
                        continue
                    if shove and lg.max_to and lg.raise_kind:
                        await c.act(table, lg.raise_kind, lg.max_to, decision=v.decision)
                    else:
                        await c.act(table, "check" if lg.check else "call", decision=v.decision)
                except RoomError:
                    pass
        await asyncio.sleep(0.02)


def stored(store: PostgresStore, number: int) -> tuple[int, dict]:
    record = store.tournament(number)
    return record.version, json.loads(record.snapshot)


def settled_hands(store: PostgresStore, number: int) -> int:
    with store.db.transaction(write=False) as c:
        return c.execute("SELECT COUNT(*) FROM hands WHERE tournament_id = ? AND status = 'settled'",
                         (number,)).fetchone()[0]


async def test_a_tournaments_host_killed_mid_hand_is_taken_over_where_it_was(tmp_path, pg_cluster, nats_server):
    url = pg_cluster.new_database()
    path = tmp_path / "config.toml"
    path.write_text(CUP_CONFIG)
    config = load_config(path)
    first = start_host(path, url, nats_server.url, tmp_path / "host1")
    store = PostgresStore(url)
    leases = Leases(store)
    await until(lambda: spec_lease(CUP) in leases.owners(), deadline=10, what="the first host holds the tournament")
    second = start_host(path, url, nats_server.url, tmp_path / "host2")
    nc = await connect(nats_server.url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[t.name for t in config.tables], tournaments=config.tournaments)
    await gateway.start()
    stop = asyncio.Event()
    players = None
    try:
        clients = [await gateway.login("ann", KEY)] + [await gateway.login(name) for name in ("bob", "cid", "dee")]
        await until(lambda: [r.name for r in clients[0].tournaments()] == [CUP], what="the tournament listed")
        number = clients[0].tournaments()[0].number
        for c in clients:
            await c.register(number)
        await until(lambda: all(len(c.my_tables()) == 1 for c in clients), what="everyone seated")
        tables = sorted({c.my_tables()[0] for c in clients})
        assert len(tables) == 2 and all(c.view(c.my_tables()[0]).tournament.number == number for c in clients)
        players = asyncio.get_running_loop().create_task(play(clients, stop))
        # Play until the tournament's clock has run a while and a hand is under way.
        await until(lambda: stored(store, number)[1]["clock"] >= 12 and settled_hands(store, number) >= 2,
                    deadline=60, what="hands played and the clock running")
        await until(lambda: any(c.view(c.my_tables()[0]).phase == "bet" for c in clients), what="a hand under way")
        stop.set()
        await players
        live = {c.view(c.my_tables()[0]).hand_id for c in clients if c.view(c.my_tables()[0]).phase == "bet"}
        owner = leases.owners()[spec_lease(CUP)].owner
        epoch = gateway._tourneys[number].epoch
        first.send_signal(signal.SIGKILL)
        first.wait()
        killed = time.monotonic()
        _, before = stored(store, number)       # what the dead host recorded last: the resume's
        assert check_store(store) == []         # the ledger adds up, before anyone recovers
        await until(lambda: leases.owners()[spec_lease(CUP)].owner != owner,
                    deadline=ServerConfig().takeover_seconds + 10, what="the live host claims the tournament")
        claimed = time.monotonic()
        # Its instance's lease (renewed by the dead host a moment after the tournament's) next.
        await until(lambda: leases.owners()[fence_name(number)].owner == leases.owners()[spec_lease(CUP)].owner,
                    deadline=5, what="the live host claims the instance")
        await until(lambda: all(store.get_hand(h).status == "void" for h in live), what="the cut-off hands void")
        # The new host's lobby: the same players with the same chips, at the same level.
        await until(lambda: gateway._tourneys[number].epoch != epoch, what="the new host's lobby")
        view = clients[0].tournament(number)
        names = {c.account_id: c.name for c in clients}
        assert {p.name: p.chips for p in view.players} == {names[p]: chips for _, p, chips, _, _ in before["entries"]}
        assert view.level == before["stage"][0] + 1 and view.summary.state == "running"
        assert sum(p.chips for p in view.players) == 4 * 1500
        # Everyone in his seat again at the new host, each told which hand was void.
        await until(lambda: all(len(c.my_tables()) == 1 and c.view(c.my_tables()[0]).status != "reconnecting"
                                and c.view(c.my_tables()[0]).my_seat is not None for c in clients),
                    deadline=15, what="everyone seated again at the new host")
        assert sorted({c.my_tables()[0] for c in clients}) == tables
        for hand_id in live:
            words = f"Hand #{hand_id} is void (the table host dealing it went away)"
            await until(lambda w=words: any(any(w in p for p in c.pages) for c in clients),
                        what="the void told")
        # The clock goes on from the time it had: its first checkpoint at the new host.
        version = stored(store, number)[0]
        await until(lambda: stored(store, number)[0] > version, deadline=15, what="a checkpoint at the new host")
        after = stored(store, number)[1]["clock"]
        assert before["clock"] <= after <= before["clock"] + (time.monotonic() - claimed) + 2, (before["clock"], after)
        print(f"\ntournament taken over {claimed - killed:.1f} s after the kill; clock {before['clock']:.1f} s "
              f"-> {after:.1f} s")
        # And play goes on there.
        hands = settled_hands(store, number)
        stop.clear()
        players = asyncio.get_running_loop().create_task(play(clients, stop))
        await until(lambda: settled_hands(store, number) > hands, deadline=30, what="a hand played after the takeover")
        stop.set()
        await players
        players = None
        assert check_store(store) == []
        assert store.total_money() == store.expected_money()
        # Ann's summary in her SFTP folder as a gateway role serves it (frontdoor's extras).
        role = GatewayRole(config, url, nats_server.url)
        try:
            extras = frontdoor.extras(role.store, config, role._admin_context, role._summaries)
            folder = Folder(extras, KEY)
            (day,) = await folder.days()
            text = (await folder.files(day))[f"tournament-{number}.txt"].decode()
        finally:
            role.store.close()
        assert text.startswith(f"PokerStars Tournament #{number}") and "4 players" in text, text
        assert await clients[0].tournament_summary(number) == text
    finally:
        stop.set()
        if players is not None:
            with contextlib.suppress(Exception):
                await players
        await gateway.close()
        await nc.close()
        for host in (first, second):
            host.terminate()
            try:
                host.wait(15)
            except subprocess.TimeoutExpired:
                host.kill()
        store.close()


MOVES = "Takeover Moves"
MOVES_CONFIG = CONFIG + f'''
[[tournaments]]
name = "{MOVES}"
game = "holdem"
structure = "no"
kind = "sit-and-go"
seats = 6
table_size = 3
starting_chips = 1500
buy_in = "10"
fee = "1"
levels = [{{ blinds = [10, 20], minutes = 10 }}, {{ blinds = [20, 40], minutes = 10 }}]
payouts = [{{ entrants = 6, percent = [65, 35] }}]
'''


# Deep: the default run kills a tournament's host mid-hand here, and mid-hand and mid-move in
# one process (tests/room/tournaments/test_tournament_crash.py); this one is 21 s.
@pytest.mark.deep
async def test_a_tournaments_host_killed_mid_move_is_taken_over_as_recorded(tmp_path, pg_cluster, nats_server):
    """Players go all in until the host moves one of them between tables (balancing or a table
    broken: its log says so as the move is carried out in memory, its record on the writer's
    way); the host is killed at once. The next host deals the tournament as its last record has
    it -- with or without that move -- every player seated once with his chips; it is played to
    the end there; places and prizes add up and the ledger audit passes."""
    url = pg_cluster.new_database()
    path = tmp_path / "config.toml"
    path.write_text(MOVES_CONFIG)
    config = load_config(path)
    first = start_host(path, url, nats_server.url, tmp_path / "host1")
    store = PostgresStore(url)
    leases = Leases(store)
    await until(lambda: spec_lease(MOVES) in leases.owners(), deadline=10, what="the first host holds it")
    second = start_host(path, url, nats_server.url, tmp_path / "host2")
    nc = await connect(nats_server.url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[t.name for t in config.tables], tournaments=config.tournaments)
    await gateway.start()
    stop = asyncio.Event()
    players = None
    log = tmp_path / "host1" / "out.txt"
    try:
        clients = [await gateway.login(f"p{i}") for i in range(6)]
        await until(lambda: [r.name for r in clients[0].tournaments()] == [MOVES], what="the tournament listed")
        number = clients[0].tournaments()[0].number
        for c in clients:
            await c.register(number)
        players = asyncio.get_running_loop().create_task(play(clients, stop, shove=True))
        end = time.monotonic() + 90
        while " moves from table " not in log.read_text():
            assert time.monotonic() < end and first.poll() is None, "no move within 90 s"
            await asyncio.sleep(0.002)
        owner = leases.owners()[spec_lease(MOVES)].owner
        epoch = gateway._tourneys[number].epoch
        first.send_signal(signal.SIGKILL)        # the move in memory; its record on its way, or just done
        first.wait()
        stop.set()
        await players
        players = None
        version, before = stored(store, number)
        assert check_store(store) == []
        await until(lambda: leases.owners()[spec_lease(MOVES)].owner != owner,
                    deadline=ServerConfig().takeover_seconds + 10, what="the live host claims the tournament")
        await until(lambda: leases.owners()[fence_name(number)].owner != owner, deadline=10, what="and its instance")
        # Seated as recorded: each player in once, at the table and seat the record has, with its chips.
        seats = {p: (t["number"], s) for t in before["tables"] for s, p in
                 ((s, next(e[1] for e in before["entries"] if e[0] == entry)) for s, entry in t["seats"])}
        chips = {e[1]: e[2] for e in before["entries"] if not e[3]}
        await until(lambda: all(len(c.my_tables()) == (1 if c.account_id in chips else 0) for c in clients)
                    and all(c.view(c.my_tables()[0]).status != "reconnecting" for c in clients if c.my_tables()),
                    deadline=20, what="everyone still in seated once at the new host")
        for c in clients:
            if c.account_id not in chips:
                continue
            v = c.view(c.my_tables()[0])
            assert (v.tournament.table, v.my_seat) == seats[c.account_id], c.name
        await until(lambda: gateway._tourneys[number].epoch != epoch, what="the new host's lobby")
        view = clients[0].tournament(number)
        assert {p.name: p.chips for p in view.players if p.table is not None} == {
            c.name: chips[c.account_id] for c in clients if c.account_id in chips}
        # Played to the end at the new host.
        stop.clear()
        players = asyncio.get_running_loop().create_task(play(clients, stop, shove=True))
        await until(lambda: store.tournament(number).state == "finished", deadline=120, what="the tournament ends")
        stop.set()
        await players
        players = None
        entries = store.tournament_entries(number)
        assert sorted(e.place for e in entries) == list(range(1, 7))
        assert sum(e.prize_cents for e in entries) == 6 * 1_000 and store.tournament(number).pool_cents == 0
        assert check_store(store) == []
        assert store.total_money() == store.expected_money()
        print(f"\nkilled after a move; record version {version}; finished at the new host")
    finally:
        stop.set()
        if players is not None:
            with contextlib.suppress(Exception):
                await players
        await gateway.close()
        await nc.close()
        for host in (first, second):
            host.terminate()
            try:
                host.wait(15)
            except subprocess.TimeoutExpired:
                host.kill()
        store.close()
