"""Fencing (PostgreSQL): a table host's store (`PostgresStore(url, lease_owner=...)`) writes a
table's money only while that host holds the table's lease, checked in the write's own
transaction -- so a host that lost its table never writes to it, even racing the new owner's claim.
Each host is its own store, as each host process is; every test ends with the ledger check."""

import json
import random
import threading
import time

import pytest

from cardroom.room.ports import HandStart, LeaseLost, Refused, SeatStack, StoreUnavailable
from cardroom.store import open_store
from cardroom.store.audit import check_store

TTL = 0.3
LOST = "this table host no longer holds table T"


@pytest.fixture
def pg_url(pg_cluster):
    return pg_cluster.new_database()


@pytest.fixture
def room(pg_url):
    """`room.host(owner)`: (its fenced store, its Leases); `room.plain`: a store with no lease owner
    (the accounts' side: a gateway); ann and bob with 10,000 each."""
    from cardroom.store.leases import Leases

    class Hosts:     # not a cardroom Room: the stores of table hosts over one database
        opened = []

        def host(self, owner):
            s = open_store(pg_url, lease_owner=owner)
            self.opened.append(s)
            return s, Leases(s)

    r = Hosts()
    r.plain = open_store(pg_url)
    r.opened.append(r.plain)
    r.ann = r.plain.get_or_create("ann", 10_000).id
    r.bob = r.plain.get_or_create("bob", 10_000).id
    yield r
    for s in r.opened:
        s.close()


def wait_until(condition, deadline=5.0):
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, "the condition did not hold in time"
        time.sleep(0.01)


def expired(leases, table="T"):
    return lambda: leases.owners()[table].seconds_left <= 0


def balanced(store):
    assert check_store(store) == []
    assert store.total_money() == store.expected_money()


def dump(store):
    with store.db.transaction(write=False) as c:
        return {t: sorted(map(tuple, c.execute(f"SELECT * FROM {t}").fetchall()), key=repr)
                for t in ("accounts", "table_chips", "hands", "hand_seats", "ledger", "house")}


def start(store, r, table="T", stacks=(1_000, 1_000)):
    return store.begin_hand(HandStart(table, (SeatStack(1, r.ann, stacks[0]),
                                              SeatStack(2, r.bob, stacks[1])))).hand_id


def test_the_host_holding_the_lease_writes_its_tables_money(room):
    a, leases = room.host("host-a")
    assert leases.claim("host-a", "T", 30) is not None
    a.buy_in(room.ann, "T", 2_000, seat=1)
    a.buy_in(room.bob, "T", 2_000, seat=2)
    hand = start(a, room)
    assert a.settle_hand(hand, {room.ann: 300, room.bob: -300}, 0, json.dumps([])).status == "settled"
    a.void_hand(start(a, room), "test")
    a.cash_out(room.ann, "T", 2_300)
    assert a.table_holdings("T") == [(room.bob, 1_700, 2)]
    balanced(a)


def test_a_host_that_lost_its_table_to_another_is_refused_and_the_ledger_is_untouched(room):
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    a_leases.claim("host-a", "T", TTL)
    a.buy_in(room.ann, "T", 2_000, seat=1)
    a.buy_in(room.bob, "T", 2_000, seat=2)
    hand = start(a, room)
    wait_until(expired(b_leases))
    assert b_leases.claim("host-b", "T", 30) is not None
    before = dump(a)
    for write in (lambda: a.settle_hand(hand, {room.ann: 500, room.bob: -500}, 0, json.dumps([])),
                  lambda: a.void_hand(hand, "settlement refused"),
                  lambda: a.buy_in(room.ann, "T", 100, seat=1),
                  lambda: a.cash_out(room.ann, "T", 100)):
        with pytest.raises(LeaseLost, match=f"^{LOST}$"):
            write()
    assert dump(a) == before
    balanced(a)
    # The new owner voids the cut-off hand: the stacks are back at their seats.
    assert b.void_hand(hand, "table taken over").status == "void"
    assert b.table_holdings("T") == [(room.ann, 2_000, 1), (room.bob, 2_000, 2)]
    balanced(b)


def test_a_hand_is_not_begun_on_a_table_another_host_now_holds(room):
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    a_leases.claim("host-a", "T", TTL)
    a.buy_in(room.ann, "T", 2_000, seat=1)
    a.buy_in(room.bob, "T", 2_000, seat=2)
    wait_until(expired(b_leases))
    b_leases.claim("host-b", "T", 30)
    before = dump(a)
    with pytest.raises(LeaseLost, match=LOST):
        start(a, room)
    assert dump(a) == before
    start(b, room)
    balanced(b)


def test_a_lease_left_to_expire_fences_its_host_even_before_anyone_claims_it(room):
    a, leases = room.host("host-a")
    leases.claim("host-a", "T", TTL)
    a.buy_in(room.ann, "T", 2_000, seat=1)
    wait_until(expired(leases))
    with pytest.raises(LeaseLost, match=LOST):
        a.cash_out(room.ann, "T", 2_000)
    assert a.table_chips(room.ann, "T") == 2_000
    balanced(a)


def test_a_table_host_cannot_write_a_table_it_never_claimed(room):
    a, leases = room.host("host-a")
    leases.claim("host-a", "other", 30)
    with pytest.raises(LeaseLost, match=LOST):
        a.buy_in(room.ann, "T", 1_000, seat=1)
    assert a.balance(room.ann) == 10_000 and a.table_holdings("T") == []
    a.buy_in(room.ann, "other", 1_000, seat=1)
    balanced(a)


def test_a_store_without_a_lease_owner_is_not_fenced(room):
    """A single process, a gateway: writes as before, leases or not."""
    _, b_leases = room.host("host-b")
    b_leases.claim("host-b", "T", 30)
    room.plain.buy_in(room.ann, "T", 1_000, seat=1)
    room.plain.buy_in(room.ann, "unleased", 1_000)
    assert room.plain.holdings(room.ann) == {"T": 1_000, "unleased": 1_000}
    balanced(room.plain)


def test_a_lease_owner_needs_a_postgresql_store(tmp_path):
    with pytest.raises(StoreUnavailable, match="PostgreSQL"):
        open_store(tmp_path / "room.sqlite3", lease_owner="host-a")


# ------------------------------------------------------------------------------- races


def _waiting_for_a_lock(url):
    import psycopg

    with psycopg.connect(url, autocommit=True) as conn:
        return conn.execute("SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                            " AND datname = current_database()").fetchone()[0] > 0


def test_a_claim_waits_for_a_settlement_in_flight_which_commits_first(room, pg_url):
    """A's settlement has checked its lease and is writing when the lease runs out; B's claim
    waits for it, and everything B reads after its claim includes the settlement."""
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    a_leases.claim("host-a", "T", TTL)
    a.buy_in(room.ann, "T", 2_000, seat=1)
    a.buy_in(room.bob, "T", 2_000, seat=2)
    hand = start(a, room)
    inside, go_on = threading.Event(), threading.Event()
    collect = a._collect_rake

    def paused(c, h, rake):              # inside the settlement, after its fence
        inside.set()
        assert go_on.wait(10)
        collect(c, h, rake)

    a._collect_rake = paused
    got = {}
    settling = threading.Thread(target=lambda: got.setdefault("settle", a.settle_hand(
        hand, {room.ann: 500, room.bob: -550}, 50, json.dumps([]))))
    settling.start()
    assert inside.wait(10)
    wait_until(expired(b_leases))
    claiming = threading.Thread(target=lambda: got.setdefault("claim", b_leases.claim("host-b", "T", 30)))
    claiming.start()
    wait_until(lambda: _waiting_for_a_lock(pg_url))
    assert "claim" not in got                          # held up by the settlement's lock
    go_on.set()
    settling.join(10)
    claiming.join(10)
    assert got["settle"].status == "settled" and got["claim"] is not None
    assert b.get_hand(hand).status == "settled"
    assert b.table_holdings("T") == [(room.ann, 2_500, 1), (room.bob, 1_450, 2)]
    balanced(b)


def test_a_settlement_that_began_before_a_claim_committed_is_refused_after_it(room):
    """A's settlement starts (its snapshot taken) while its lease is live; the lease runs out and
    B claims before A's fence reads it: A's write fails to serialize, runs again, is refused."""
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    a_leases.claim("host-a", "T", TTL)
    a.buy_in(room.ann, "T", 2_000, seat=1)
    a.buy_in(room.bob, "T", 2_000, seat=2)
    hand = start(a, room)
    before = dump(a)
    inside, go_on = threading.Event(), threading.Event()
    fence = a.db.fence

    def paused(c, table):                 # the hand read (the snapshot taken); the fence next
        inside.set()
        assert go_on.wait(10)
        fence(c, table)

    a.db.fence = paused
    got = {}

    def settle():
        try:
            got["settle"] = a.settle_hand(hand, {room.ann: 500, room.bob: -500}, 0, json.dumps([]))
        except Refused as e:
            got["settle"] = e

    settling = threading.Thread(target=settle)
    settling.start()
    assert inside.wait(10)
    wait_until(expired(b_leases))
    assert b_leases.claim("host-b", "T", 30) is not None
    go_on.set()
    settling.join(10)
    assert isinstance(got["settle"], LeaseLost), got
    assert dump(a) == before
    balanced(a)


def _race(room, a, a_leases, b, b_leases, table, lean):
    """One round: A settles once its lease has `lean` seconds left (or is gone), while B claims
    the table as soon as it can and at once reads the hand."""
    a_leases.claim("host-a", table, 0.15)
    for account, seat in ((room.ann, 1), (room.bob, 2)):
        a.buy_in(account, table, 500, seat=seat)
    hand = start(a, room, table, (500, 500))
    got = {}
    barrier = threading.Barrier(2)

    def settle():
        barrier.wait()
        wait_until(lambda: a_leases.owners()[table].owner != "host-a"
                   or a_leases.owners()[table].seconds_left <= lean)
        try:
            got["settled"] = a.settle_hand(hand, {room.ann: 100, room.bob: -100}, 0, "[]").status
        except LeaseLost:
            got["settled"] = None

    def claim():
        barrier.wait()
        end = time.monotonic() + 5
        while b_leases.claim("host-b", table, 30) is None:
            assert time.monotonic() < end
        got["b_saw"] = b.get_hand(hand).status

    threads = [threading.Thread(target=settle), threading.Thread(target=claim)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    return hand, got


def test_racing_claims_and_settlements_never_both_write(room):
    """Rounds of A settling just as its lease runs out while B claims the table as soon as it can
    and at once reads the hand. Whoever wins, never both: a settlement that went through
    committed before B's claim (B reads it settled), and one after B's claim is refused."""
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    rng = random.Random(7)
    for i in range(8):
        hand, got = _race(room, a, a_leases, b, b_leases, f"R{i}", rng.uniform(-0.005, 0.02))
        assert got["b_saw"] in ("in_progress", "settled"), got
        if got["b_saw"] == "in_progress":
            assert got["settled"] is None, f"A settled after B claimed: {got}"
            assert b.void_hand(hand, "taken over").status == "void"
        else:
            assert got["settled"] == "settled", got
        balanced(b)


def test_a_host_voids_the_cut_off_hand_of_its_table_only(room):
    """Host B takes over table U from a dead host and voids U's unfinished hand; host A's live
    hand at T is not touched, and B may not void T's (A's lease fences it)."""
    a, a_leases = room.host("host-a")
    b, b_leases = room.host("host-b")
    assert a_leases.claim("host-a", "T", 30) is not None
    assert b_leases.claim("host-b", "U", 30) is not None
    a.buy_in(room.ann, "T", 1_000, seat=1)
    a.buy_in(room.bob, "T", 1_000, seat=2)
    b.buy_in(room.ann, "U", 500, seat=1)
    live = start(a, room)
    cut = b.begin_hand(HandStart("U", (SeatStack(1, room.ann, 500),))).hand_id
    assert b.void_unfinished_hands(["U"]) == [cut]
    assert room.plain.get_hand(live).status == "in_progress"
    with pytest.raises(LeaseLost):
        b.void_unfinished_hands(["T"])
    assert room.plain.get_hand(live).status == "in_progress"
    balanced(room.plain)
