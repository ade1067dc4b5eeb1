"""Faults of the servers a scaled-out room runs on, none of which loses a chip: nats-server
stopped and started again on its port, PostgreSQL restarted under a table host. A real table
host process (`cardroom serve --role tables`) deals; a Gateway in this process plays two seats
with its RemoteClients; every test ends with the ledger audit clean and the money unchanged.
"""

from __future__ import annotations

import asyncio
import json
import contextlib
from contextlib import asynccontextmanager
import subprocess
import time
from pathlib import Path

import psycopg
import pytest

from cardroom.bus.client import Gateway, Unreachable
from cardroom.bus.connection import connect
from cardroom.config import ServerConfig
from cardroom.room.api import RoomError
from cardroom.room.ports import StoreError
from cardroom.store.audit import check_store
from cardroom.store.postgres import PostgresStore
from tests.bus.conftest import until
from tests.bus.test_roles import CONFIG, TABLE, start_host

TOTAL = 2 * 100000        # both players' starting money, wherever it is


@pytest.fixture
def own_nats():
    """A nats-server of this test's own: stopping it disturbs no other test."""
    from tests.natsserver import start_server
    server = start_server()
    yield server
    server.close()


@pytest.fixture
def own_pg():
    """A PostgreSQL cluster of this test's own (the session's serves every other test)."""
    from tests.pgcluster import Cluster, missing, pg_bin
    try:
        import psycopg  # noqa: F401
    except ImportError:
        missing("psycopg is not installed (pip install 'cardroom[pg]')")
    bindir = pg_bin()
    if bindir is None:
        missing("its server binaries (initdb, pg_ctl) are not installed")
    cluster = Cluster(bindir)
    yield cluster
    with contextlib.suppress(RuntimeError):    # a test that failed with the server stopped
        cluster.stop()


class Players:
    """Two seated players whose decisions are made as soon as they are asked (check, else call),
    by a task in this process; what the bus refused meanwhile is kept in `refused`."""

    def __init__(self, gateway: Gateway, clients) -> None:
        self.gateway = gateway
        self.clients = clients
        self.refused: list[tuple[float, RoomError]] = []   # (seconds the intent took, the error)
        self.acted = 0
        self._task: asyncio.Task | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._play())

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    async def _play(self) -> None:
        while True:
            for c in self.clients:
                try:
                    v = c.view(TABLE)
                except RoomError:
                    continue
                if v.legal is None and not v.sitting_out and not v.blind_prompt:
                    continue
                sent = time.monotonic()
                try:
                    if v.blind_prompt:
                        await c.post_blind(TABLE)
                    elif v.sitting_out:
                        await c.sit_in(TABLE)
                    else:
                        await c.act(TABLE, "check" if v.legal.check else "call")
                        self.acted += 1
                except RoomError as e:
                    self.refused.append((time.monotonic() - sent, e))
            await asyncio.sleep(0.02)     # the players' pace between looks at their views


async def seated_pair(gateway: Gateway, store: PostgresStore):
    alice = await gateway.login("alice")
    bob = await gateway.login("bob")
    for client, seat in ((alice, 1), (bob, 2)):
        await client.watch(TABLE)
        assert await client.join(TABLE, seat) == seat
        await client.buy_in(TABLE, 10000)
        await client.set_auto_blind(TABLE, True)
    await until(lambda: {h.account_id for h in store.table_holdings(TABLE) if h.chips_cents}
                == {alice.account_id, bob.account_id}, what="both buy-ins recorded")
    return alice, bob


def hands(store: PostgresStore) -> dict[str, int]:
    """How many hands the store has, by status."""
    with store.db.transaction(write=False) as c:
        return dict(c.execute("SELECT status, COUNT(*) FROM hands GROUP BY status").fetchall())


def money(store: PostgresStore, clients) -> int:
    """Every cent the players began with: their balances, the chips the store holds for them
    on the table, and the house's rake."""
    return (sum(store.balance(c.account_id) for c in clients) + store.rake_total()
            + sum(h.chips_cents for h in store.table_holdings(TABLE)))


def stop_process(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


class Scaled:
    """A table host process and a Gateway here, two players seated and playing (`players`)."""

    def __init__(self, host, store, nc, gateway, players, out: Path) -> None:
        self.host, self.store, self.nc, self.gateway, self.players = host, store, nc, gateway, players
        self.out = out
        self.alice, self.bob = players.clients

    def log(self) -> str:
        """What the table host wrote so far."""
        return self.out.read_text()


@asynccontextmanager
async def scaled(tmp_path: Path, url: str, nats_url: str, config_text: str = CONFIG):
    """The room of a test, playing; at the end everything stops (the host steps down: chips back
    to the balances) and the ledger must be clean with every cent the players began with."""
    config = tmp_path / "config.toml"
    config.write_text(config_text)
    host = start_host(config, url, nats_url, tmp_path / "host")
    store = PostgresStore(url)
    nc = await connect(nats_url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[TABLE], timeout=2.0)
    await gateway.start()
    players = None
    try:
        alice, bob = await seated_pair(gateway, store)
        players = Players(gateway, [alice, bob])
        players.start()
        await until(lambda: hands(store).get("settled", 0) >= 1, deadline=30, what="a first hand settled")
        yield Scaled(host, store, nc, gateway, players, tmp_path / "host" / "out.txt")
    finally:
        if players is not None:
            await players.stop()
        await gateway.close()
        with contextlib.suppress(OSError):     # nats-py's close of a connection still reconnecting
            await nc.close()
        stop_process(host)
        store.close()
    check = PostgresStore(url)
    try:
        assert check_store(check) == []
        assert money(check, [alice, bob]) == TOTAL
        assert hands(check).get("in_progress", 0) == 0
    finally:
        check.close()


async def test_nats_restarted_everything_reconnects_and_hands_go_on(tmp_path, pg_cluster, own_nats):
    async with scaled(tmp_path, pg_cluster.new_database(), own_nats.url) as room:
        alice, bob, store, gateway = room.alice, room.bob, room.store, room.gateway
        await until(lambda: alice.view(TABLE).phase == "bet", deadline=10, what="a hand under way")

        own_nats.stop()
        gone = time.monotonic()
        await until(lambda: not room.nc.is_connected, what="the gateway sees the bus gone")
        sent = time.monotonic()
        with pytest.raises(Unreachable, match="not answering"):
            await alice.chat(TABLE, "anyone there?")
        assert time.monotonic() - sent < gateway.timeout + 1.0      # its timeout, never a hang
        # A login meanwhile goes on (the store has the account); what it subscribed and said
        # is sent when the bus is back.
        carol = await asyncio.wait_for(gateway.login("carol"), gateway.timeout + 1.0)
        await asyncio.sleep(max(0.0, 3.0 - (time.monotonic() - gone)))   # away a few seconds
        settled_before = hands(store).get("settled", 0)
        own_nats.start()
        back = time.monotonic()

        async def answered() -> bool:
            try:
                await bob.chat(TABLE, "back")
                return True
            except Unreachable:
                return False
        while not await answered():
            assert time.monotonic() - back < 20, "the room did not answer again within 20 s"
        answered_after = time.monotonic() - back
        await until(lambda: alice.view(TABLE).chat and alice.view(TABLE).chat[-1].text == "back",
                    what="alice's views flow again")
        await until(lambda: hands(store).get("settled", 0) >= settled_before + 2, deadline=30,
                    what="hands dealt and settled after the bus came back")
        await carol.watch(TABLE)
        await bob.chat(TABLE, "hello carol")
        await until(lambda: carol.view(TABLE).chat[-1].text == "hello carol", what="carol's views flow")
        assert (await gateway.login("dave")).name == "dave"
        print(f"NATS away {back - gone:.1f} s; the room answered {answered_after:.2f} s after it came"
              f" back; intents refused meanwhile: {len(room.players.refused)}; hands: {hands(store)}")


def protections_used(store: PostgresStore) -> int:
    """Protected all-ins counted against the players' daily quotas so far."""
    with store.db.transaction(write=False) as c:
        return c.execute("SELECT COALESCE(SUM(used), 0) FROM allin_protections").fetchone()[0]


async def test_nats_away_longer_than_the_clock_times_nobody_out(tmp_path, pg_cluster, own_nats):
    """Issue 34, point 13: during a NATS outage every screen says "reconnecting" and nobody can
    act, yet the clock ran on: the player to act was made a protected all-in (his day's quota)
    and sat out. The table host that lost the bus stops its tables' clocks, and once back runs
    them on with the time that was left; the gateway's players are not taken for disconnected."""
    config = CONFIG.replace("seats = 10", "seats = 10\naction_seconds = 8").replace(
        "[room]", "[room]\ncountdown_seconds = 5")
    async with scaled(tmp_path, pg_cluster.new_database(), own_nats.url, config) as room:
        store = room.store
        await room.players.stop()                     # nobody acts from now on
        await until(lambda: any(c.view(TABLE).legal is not None for c in (room.alice, room.bob)),
                    deadline=15, what="a player to act")
        actor = next(c for c in (room.alice, room.bob) if c.view(TABLE).legal is not None)
        other = room.bob if actor is room.alice else room.alice
        hand_id, left = actor.view(TABLE).hand_id, actor.view(TABLE).seconds_left
        used = protections_used(store)
        own_nats.stop()
        gone = time.monotonic()
        await asyncio.sleep(12)                       # longer than his 8 s clock
        own_nats.start()
        await until(lambda: room.nc.is_connected, deadline=20, what="the gateway back on the bus")
        while True:                                   # the host answers again
            try:
                await other.chat(TABLE, "back")
                break
            except Unreachable:
                assert time.monotonic() - gone < 40, "the host did not answer again"
        await until(lambda: actor.view(TABLE).status != "reconnecting"
                    and any(line.text == "back" for line in actor.view(TABLE).chat),
                    what="the actor's views flow again")
        v = actor.view(TABLE)
        assert v.hand_id == hand_id and v.legal is not None, (v.hand_id, v.message)   # still his decision
        assert 0 < v.seconds_left <= left and "timed out" not in v.message
        assert not v.sitting_out and protections_used(store) == used
        seat = next(s for s in v.seats if s.number == v.my_seat)
        assert seat.connected                          # not taken for a lost connection
        await actor.act(TABLE, "check" if v.legal.check else "call")
        room.players.start()
        settled = hands(store).get("settled", 0)
        await until(lambda: hands(store).get("settled", 0) > settled, deadline=30, what="play goes on")
        print(f"NATS away {time.monotonic() - gone:.1f} s; {left:.1f} s left before, {v.seconds_left:.1f} s after")


async def test_a_host_stopped_mid_hand_tells_everyone_the_hand_is_void(tmp_path, pg_cluster, own_nats):
    """Issue 34, point 12: whenever a hand is void, every player at the table is told which and
    why, and that the stacks are back. A table host stopped (SIGTERM) mid-hand voids it and gives
    every chip back: its players read both before it goes."""
    async with scaled(tmp_path, pg_cluster.new_database(), own_nats.url) as room:
        store = room.store
        await room.players.stop()                     # the hand stays in progress
        await until(lambda: room.alice.view(TABLE).phase == "bet", deadline=15, what="a hand under way")
        cut = in_progress(store)
        stop_process(room.host)
        assert room.host.returncode == 0
        words = f"Hand #{cut} is void (the table host dealing it is stopping): every player has the " \
                "stack he began it with back"
        for c in (room.alice, room.bob):
            await until(lambda c=c: any(words in page for page in c.pages), what=f"{c.name} is paged the void")
            chat = [line.text for line in c.view(TABLE).chat]
            assert words in chat and any("every chip on the table goes back" in line for line in chat), chat
        assert hand_status(store, cut) == "void"


def hand_status(store: PostgresStore, hand_id: str) -> str | None:
    try:
        record = store.get_hand(hand_id)
    except StoreError:
        return None              # the database is away
    return record.status if record is not None else None


def in_progress(store: PostgresStore) -> str:
    """The id of the hand the store has in progress (the table's only one)."""
    with store.db.transaction(write=False) as c:
        (hand_id,), = c.execute("SELECT id FROM hands WHERE status = 'in_progress'").fetchall()
    return hand_id


def void_hand(store: PostgresStore) -> str:
    """The id of the store's one void hand."""
    with store.db.transaction(write=False) as c:
        (hand_id,), = c.execute("SELECT id FROM hands WHERE status = 'void'").fetchall()
    return hand_id


def take_over_moves(store: PostgresStore, hand_id: str) -> list[tuple]:
    """The cash-outs and buy-ins written after the hand was voided."""
    try:
        with store.db.transaction(write=False) as c:
            return c.execute("SELECT kind, account_id, amount_cents FROM ledger WHERE seq >"
                             " (SELECT MAX(seq) FROM ledger WHERE hand_id = ? AND kind = 'hand_void')"
                             " AND kind IN ('cash_out', 'buy_in') ORDER BY seq", (hand_id,)).fetchall()
    except StoreError:
        return []


async def wait_for_db(store: PostgresStore, deadline: float = 20) -> None:
    def up() -> bool:
        try:
            store.rake_total()
            return True
        except StoreError:
            return False
    await until(up, deadline=deadline, what="the test's own store reconnects")


OUTAGE = ServerConfig().database_outage_seconds     # what a table host rides out by default (10 s)


@pytest.mark.parametrize("how", ["restart", "terminate"])
async def test_postgres_away_briefly_the_hand_is_recorded_late(tmp_path, own_pg, own_nats, how):
    """Stopped for [server] database_outage_seconds (10 s by default) and started again, or every
    connection ended: the table host's store connects again by itself, the hand whose end came
    meanwhile is recorded by the settlement's retries, no table is fenced and no hand is void.
    (Before: renewals every 3 s with a margin of 7 s fenced the table after 4-7 s, and the hand
    in progress was void, 3 tries in 4.)"""
    async with scaled(tmp_path, own_pg.url(), own_nats.url) as room:
        store = room.store
        await until(lambda: room.alice.view(TABLE).phase == "bet", deadline=10, what="a hand under way")
        cut = in_progress(store)
        gone = time.monotonic()
        if how == "restart":
            own_pg.stop_server()
            gone = time.monotonic()     # away from now: stopping takes a moment
            with pytest.raises(RoomError, match="records"):
                await room.alice.my_money()            # a store read of the gateway: a RoomError
            with pytest.raises(RoomError, match="records"):
                await room.gateway.login("carol")
            await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - gone)))   # away that long: the point
            own_pg.start_server()
        else:
            with psycopg.connect(own_pg.url(), autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                              " WHERE application_name = 'cardroom'")
        back = time.monotonic()
        await wait_for_db(store)
        await until(lambda: hand_status(store, cut) == "settled", deadline=20,
                    what="the cut hand recorded once the database is back")
        recorded = time.monotonic() - back
        settled = hands(store)["settled"]
        await until(lambda: hands(store).get("settled", 0) >= settled + 2, deadline=30,
                    what="hands go on being dealt and settled")
        assert (await room.gateway.login("carol")).name == "carol"
        assert "lost table" not in room.log() and hands(store).get("void", 0) == 0
        print(f"PostgreSQL {how}: away {back - gone:.1f} s; hand {cut} recorded {recorded:.1f} s"
              f" after; hands: {hands(store)}")


async def test_postgres_away_past_the_lease_margin_voids_and_seats_again(tmp_path, own_pg, own_nats):
    """Away longer than the lease's margin: the host fences its table (it stops dealing), and
    once the database is back claims it again, voids the cut hand (stacks back) and seats both
    players again with the chips they began that hand with."""
    async with scaled(tmp_path, own_pg.url(), own_nats.url) as room:
        store, alice, bob = room.store, room.alice, room.bob
        await until(lambda: alice.view(TABLE).phase == "bet", deadline=10, what="a hand under way")
        own_pg.stop_server()
        gone = time.monotonic()
        await until(lambda: "lost table" in room.log(), deadline=OUTAGE + 15, what="the host fences its table")
        fenced = time.monotonic() - gone
        with pytest.raises(RoomError):
            await alice.chat(TABLE, "hello?")       # nobody deals the table now
        own_pg.start_server()
        back = time.monotonic()
        await wait_for_db(store)
        # The hand the outage cut: the one in progress as the server stopped (not read before the
        # stop: under load that hand could end before the stop reached the server, and the cut
        # hand be the next one).
        await until(lambda: hands(store).get("void", 0) == 1, deadline=20, what="the cut hand void")
        cut = void_hand(store)
        began = {s.account_id: s.start_cents for s in store.get_hand(cut).seats}
        await until(lambda: TABLE in alice.my_tables() and TABLE in bob.my_tables()
                    and alice.view(TABLE).hand_id != cut, deadline=20, what="both seated again")
        seated_after = time.monotonic() - back
        # Everyone at the table is told which hand is void, why, and that the stacks are back:
        # a line at the table and a page.
        words = f"Hand #{cut} is void (the card room's records were out of reach for too long): " \
                "every player has the stack he began it with back"
        for c in (alice, bob):
            await until(lambda c=c: any(line.text == words for line in c.view(TABLE).chat),
                        what=f"{c.name} reads the void at the table")
            await until(lambda c=c: any(words in page for page in c.pages), what=f"{c.name} is paged the void")
        # The take-over: each player's chips back to his balance, and bought in again (written
        # after the seat is shown), both at the stack he began the void hand with.
        expected = sorted((k, a, began[a]) for a in began for k in ("cash_out", "buy_in"))
        await until(lambda: sorted(take_over_moves(store, cut)) == expected, deadline=10,
                    what=f"the take-over's cash-outs and buy-ins {expected}")
        settled = hands(store)["settled"]
        await until(lambda: hands(store).get("settled", 0) >= settled + 1, deadline=30,
                    what="the table deals and settles again")
        await alice.chat(TABLE, "back")
        print(f"PostgreSQL away {back - gone:.1f} s (fenced after {fenced:.1f} s); both seated again"
              f" {seated_after:.1f} s after it came back; hands: {hands(store)}")


# Deep: the same outage as the cash table's test above, with a tournament (18 s); the default run
# takes a tournament over after a kill -9 (test_tournament_takeover.py).
@pytest.mark.deep
async def test_postgres_away_past_the_lease_margin_a_tournament_is_dropped_and_taken_again(tmp_path, own_pg,
                                                                                           own_nats):
    """A tournament's host without its database past the lease's margin drops the tournament (its
    tables stop dealing); once the database is back it claims it again like a table: the cut
    hands void, told why, and the tournament goes on where its records have it. Nothing its
    dropped tables had on the way is written late over it (lobby.py `drop`)."""
    from tests.bus.test_tournament_takeover import CUP, CUP_CONFIG, play, settled_hands

    config = tmp_path / "config.toml"
    config.write_text(CUP_CONFIG)
    url = own_pg.url()
    host = start_host(config, url, own_nats.url, tmp_path / "host")
    store = PostgresStore(url)
    nc = await connect(own_nats.url, name="test-gateway")
    gateway = Gateway(nc, store, tables=[TABLE], timeout=2.0)
    await gateway.start()
    stop, task = asyncio.Event(), None
    try:
        clients = [await gateway.login(n) for n in ("ann", "bob", "cid", "dee")]
        await until(lambda: [r.name for r in clients[0].tournaments()] == [CUP], what="the tournament listed")
        number = clients[0].tournaments()[0].number
        for c in clients:
            await c.register(number)
        task = asyncio.get_running_loop().create_task(play(clients, stop))
        await until(lambda: settled_hands(store, number) >= 1, deadline=30, what="a hand played")
        stop.set()                 # the players wait: a hand waiting for one is cut for sure
        await task
        await until(lambda: any(c.view(t).legal is not None for c in clients for t in c.my_tables()),
                    what="a hand waiting for a player")
        cut = next(c.view(t).hand_id for c in clients for t in c.my_tables() if c.view(t).legal is not None)
        own_pg.stop_server()
        gone = time.monotonic()
        out = tmp_path / "host" / "out.txt"
        await until(lambda: f"lost tournament {CUP}" in out.read_text(), deadline=OUTAGE + 15,
                    what="the host drops the tournament")
        own_pg.start_server()
        await wait_for_db(store)
        await until(lambda: hand_status(store, cut) == "void", deadline=20, what="the cut hand void")
        words = f"Hand #{cut} is void (the card room's records were out of reach for too long)"
        await until(lambda: any(any(words in p for p in c.pages) for c in clients), what="the void told")
        stop.clear()
        task = asyncio.get_running_loop().create_task(play(clients, stop))
        settled = settled_hands(store, number)
        await until(lambda: settled_hands(store, number) > settled, deadline=30, what="the tournament goes on")
        stop.set()
        await task
        task = None
        snap = json.loads(store.tournament(number).snapshot)
        assert sum(e[2] for e in snap["entries"]) == 4 * 1500
        assert check_store(store) == [] and store.total_money() == store.expected_money()
        print(f"PostgreSQL away; the tournament dropped and taken again {time.monotonic() - gone:.1f} s after")
    finally:
        stop.set()
        if task is not None:
            with contextlib.suppress(Exception):
                await task
        await gateway.close()
        with contextlib.suppress(OSError):
            await nc.close()
        stop_process(host)
        store.close()
