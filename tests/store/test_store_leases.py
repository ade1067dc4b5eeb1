"""Table leases (`cardroom.store.leases`, PostgreSQL only): who deals each table of a room of
several table hosts. Each host here is its own store (its own connections), as each host process
is; leases run out on PostgreSQL's clock, so the tests wait for that with a deadline."""

import threading
import time

import pytest

from cardroom.room.ports import Refused, StoreUnavailable
from cardroom.store import SqliteStore

TTL = 0.3          # short leases, so the tests that need one to expire wait little


@pytest.fixture
def pg_url(pg_cluster):
    return pg_cluster.new_database()


@pytest.fixture
def hosts(pg_url):
    """Leases(store) for each host asked for, each on a store of its own."""
    from cardroom.store.leases import Leases
    from cardroom.store.postgres import PostgresStore

    opened = []

    def host():
        opened.append(PostgresStore(pg_url))
        return Leases(opened[-1])

    yield host
    for s in opened:
        s.close()


def wait_until(condition, deadline=5.0):
    """Poll `condition` until it holds; fail at the deadline (a lease that never runs out)."""
    end = time.monotonic() + deadline
    while not condition():
        assert time.monotonic() < end, "the condition did not hold in time"
        time.sleep(0.01)


def expired_for(leases, table, seconds=0.0):
    return lambda: leases.owners()[table].seconds_left <= -seconds


def test_a_free_table_is_claimed_and_the_holder_is_listed(hosts):
    a, b = hosts(), hosts()
    token = a.claim("host-a", "T1", 10)
    assert isinstance(token, int)
    held = a.owners()["T1"]
    assert held.owner == "host-a" and held.token == token and 9 < held.seconds_left <= 10
    assert b.owners()["T1"][:2] == ("host-a", token)   # one truth, seen from either host
    assert b.claim("host-b", "T1", 10) is None        # live: not b's to take
    assert a.owners()["T1"].owner == "host-a"


def test_the_holder_claiming_again_extends_its_lease_with_the_same_token(hosts):
    a = hosts()
    token = a.claim("host-a", "T1", 1)
    assert a.claim("host-a", "T1", 30) == token
    assert a.owners()["T1"].seconds_left > 20


def test_two_hosts_claiming_at_once_exactly_one_wins(hosts):
    """Two processes at the same instant, on each of several tables: one token, one None."""
    a, b = hosts(), hosts()
    tables = [f"T{i}" for i in range(12)]
    got = {"host-a": {}, "host-b": {}}
    barrier = threading.Barrier(2)

    def run(leases, owner):
        for t in tables:
            barrier.wait()
            got[owner][t] = leases.claim(owner, t, 10)

    threads = [threading.Thread(target=run, args=x) for x in ((a, "host-a"), (b, "host-b"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    owners = a.owners()
    for t in tables:
        won = [o for o in got if got[o][t] is not None]
        assert len(won) == 1, (t, got)
        assert owners[t].owner == won[0] and owners[t].token == got[won[0]][t]


def test_an_expired_lease_is_taken_with_a_greater_token_and_its_renewal_finds_it_lost(hosts):
    a, b = hosts(), hosts()
    first = a.claim("host-a", "T1", TTL)
    a.claim("host-a", "T2", 30)
    assert b.claim("host-b", "T1", 10) is None
    wait_until(expired_for(b, "T1"))
    second = b.claim("host-b", "T1", 10)
    assert second is not None and second > first
    assert a.renew("host-a", 10) == {"T2"}           # T1 is lost: a must stop dealing it
    assert a.owners()["T1"][:2] == ("host-b", second)
    assert a.claim("host-a", "T1", 10) is None


def test_a_lease_left_to_expire_is_not_renewed_even_if_nobody_took_it(hosts):
    """Its tenure is over (the host should have stopped the table): renewing does not bring it
    back; claiming it again does, as a new tenure with a new token."""
    a = hosts()
    first = a.claim("host-a", "T1", TTL)
    wait_until(expired_for(a, "T1"))
    assert a.renew("host-a", 10) == set()
    second = a.claim("host-a", "T1", 10, after_expiry=60)   # its own: no wait after expiry
    assert second > first
    assert a.renew("host-a", 10) == {"T1"}


def test_another_hosts_table_is_taken_only_once_expired_for_after_expiry(hosts):
    a, b = hosts(), hosts()
    a.claim("host-a", "T1", TTL)
    wait_until(expired_for(b, "T1"))
    assert b.claim("host-b", "T1", 10, after_expiry=30) is None   # expired, but not for 30 s
    wait_until(expired_for(b, "T1", 0.2))
    assert b.claim("host-b", "T1", 10, after_expiry=0.2) is not None
    assert b.owners()["T1"].owner == "host-b"


def test_renew_extends_only_the_owners_own_leases(hosts):
    a, b = hosts(), hosts()
    a.claim("host-a", "T1", 1)
    a.claim("host-a", "T2", 1)
    b.claim("host-b", "T3", 1)
    assert a.renew("host-a", 30) == {"T1", "T2"}
    left = a.owners()
    assert left["T1"].seconds_left > 20 and left["T2"].seconds_left > 20
    assert left["T3"].seconds_left <= 1
    assert a.renew("host-nobody", 30) == set()


def test_a_released_table_is_free_at_once_and_its_token_still_grows(hosts):
    a, b = hosts(), hosts()
    first = a.claim("host-a", "T1", 30)
    assert b.release("host-b", "T1") is False                 # not b's: nothing changes
    assert a.owners()["T1"].owner == "host-a"
    assert a.release("host-a", "T1") is True
    assert "T1" not in a.owners()
    second = b.claim("host-b", "T1", 30, after_expiry=60)     # no wait: released, not expired
    assert second > first
    assert a.release("host-a", "T1") is False


def test_the_token_increases_on_every_change_of_owner(hosts):
    a, b = hosts(), hosts()
    tokens = [a.claim("host-a", "T1", TTL)]
    for leases, owner in ((b, "host-b"), (a, "host-a"), (b, "host-b")):
        wait_until(expired_for(leases, "T1"))
        tokens.append(leases.claim(owner, "T1", TTL))
    assert tokens == sorted(set(tokens)) and None not in tokens


def test_two_hosts_racing_for_an_expired_lease_exactly_one_takes_it(hosts):
    a, b, c = hosts(), hosts(), hosts()
    old = a.claim("host-a", "T1", TTL)
    wait_until(expired_for(a, "T1"))
    got = {}
    barrier = threading.Barrier(2)

    def run(leases, owner):
        barrier.wait()
        got[owner] = leases.claim(owner, "T1", 10)

    threads = [threading.Thread(target=run, args=x) for x in ((b, "host-b"), (c, "host-c"))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    won = [o for o, token in got.items() if token is not None]
    assert len(won) == 1 and got[won[0]] > old
    assert a.owners()["T1"].owner == won[0]


@pytest.mark.parametrize("call", [
    lambda x: x.claim("", "T1", 10),
    lambda x: x.claim("host-a", "", 10),
    lambda x: x.claim("host-a", "T1", 0),
    lambda x: x.claim("host-a", "T1", -1),
    lambda x: x.claim("host-a", "T1", float("inf")),
    lambda x: x.claim("host-a", "T1", True),
    lambda x: x.claim("host-a", "T1", "10"),
    lambda x: x.claim("host-a", "T1", 10, after_expiry=-1),
    lambda x: x.renew("host-a", float("nan")),
    lambda x: x.renew(None, 10),
])
def test_bad_arguments_are_refused_and_change_nothing(hosts, call):
    a = hosts()
    with pytest.raises(Refused):
        call(a)
    assert a.owners() == {}


def test_leases_need_postgresql(tmp_path):
    from cardroom.store.leases import Leases

    with SqliteStore(tmp_path / "room.sqlite3") as s, pytest.raises(StoreUnavailable, match="PostgreSQL"):
        Leases(s)
