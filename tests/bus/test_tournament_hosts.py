"""Which table host deals which tournament (issue 38, "Several processes"): each of config.toml's
tournaments is one host's at a time, by its lease, as a table is; the host holding it opens its
instances, so two hosts never open two; `--tournaments` gives a host a subset; a host that steps
down frees it, and another takes it with its registrations where they were. Table hosts as roles
in this process on a real PostgreSQL and nats-server, players through a Gateway."""

from __future__ import annotations

import os
import subprocess
import sys

from cardroom.bus.client import Gateway
from cardroom.bus.connection import connect
from cardroom.config import load_config
from cardroom.roles.tablehost import TableHostRole, spec_lease
from cardroom.store.audit import check_store
from cardroom.store.leases import Leases
from cardroom.store.postgres import PostgresStore
from cardroom.store.tournaments import fence_name
from tests.bus.conftest import until
from tests.bus.test_roles import ROOT, TABLE
from tests.bus.test_tournament_takeover import CUP, CUP_CONFIG

OTHER = "Other Sit & Go"
CONFIG = CUP_CONFIG + CUP_CONFIG[CUP_CONFIG.index("[[tournaments]]"):].replace(CUP, OTHER)


async def test_one_host_deals_a_tournament_and_another_takes_it_when_it_steps_down(tmp_path, pg_cluster, nats_server):
    url = pg_cluster.new_database()
    (tmp_path / "config.toml").write_text(CONFIG)
    config = load_config(tmp_path / "config.toml")
    a = TableHostRole(config, url, nats_server.url, owner="host-a")
    b = TableHostRole(config, url, nats_server.url, owner="host-b", tournaments=[CUP])
    store = PostgresStore(url)
    nc = await connect(nats_server.url, name="gateway")
    gateway = Gateway(nc, store, tables=[TABLE], tournaments=config.tournaments)
    try:
        await a.start()
        await b.start()
        for role in (a, b):
            role._tasks[0].cancel()      # their lease loops: the claims below are this test's
        for _ in range(3):               # b tries again and again: a holds both
            await b.claim_tournaments()
        assert set(a.cups) == {CUP, OTHER} and b.cups == {} and not b.room.tournaments.all()
        owners = Leases(store).owners()
        assert {owners[spec_lease(n)].owner for n in (CUP, OTHER)} == {"host-a"}
        registering = store.tournaments(("registering",))
        assert sorted(r.name for r in registering) == sorted([CUP, OTHER])     # one each, never two
        assert all(owners[fence_name(r.id)].owner == "host-a" for r in registering)

        await gateway.start()
        ann, bob = await gateway.login("ann"), await gateway.login("bob")
        number = next(r.id for r in registering if r.name == CUP)
        await until(lambda: {r.number for r in ann.tournaments()} == {r.id for r in registering},
                    what="the gateway lists both")
        await ann.register(number)
        await bob.register(number)
        epoch = gateway._tourneys[number].epoch

        await a.shutdown()               # steps down: its leases free at once
        await b.claim_tournaments()
        assert set(b.cups) == {CUP}, "b may deal only --tournaments' own"
        assert Leases(store).owners()[fence_name(number)].owner == "host-b"
        await until(lambda: gateway._tourneys[number].epoch != epoch, what="b's lobby of it")
        view = ann.tournament(number)
        assert view.registered and {p.name for p in view.players} == {"ann", "bob"}
        assert view.summary.state == "registering" and view.summary.entries == 2
        before = store.balance(bob.account_id)
        await bob.unregister(number)     # at b now
        assert store.balance(bob.account_id) == before + 1_100
        assert sum(r.name == CUP for r in store.tournaments(("registering",))) == 1
        assert check_store(store) == []
    finally:
        await gateway.close()
        await nc.close()
        await b.shutdown()
        if not a.stop.is_set():
            await a.shutdown()
        store.close()


def test_a_bad_tournaments_name_is_one_clear_line_at_start(tmp_path):
    (tmp_path / "config.toml").write_text(CONFIG)
    done = subprocess.run([sys.executable, "-m", "cardroom", "serve", "--role", "tables", "--config",
                           str(tmp_path / "config.toml"), "--store", "postgresql://nobody@127.0.0.1:1/none",
                           "--tournaments", f"Nope,{CUP}", "--data-dir", str(tmp_path / "d")],
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.strip() == (f"cardroom serve: --tournaments: no tournament called 'Nope' in the config (its "
                                   f"tournaments: {CUP!r}, {OTHER!r})"), done.stderr


async def test_an_instance_whose_lease_could_not_be_claimed_as_it_opened_is_claimed_next(tmp_path, pg_cluster,
                                                                                         nats_server):
    """A sit & go's next instance opens as the last one starts; its lease is claimed then, on the
    loop. The database failing that moment costs nothing: the lease loop's next turn claims it,
    and players register for it."""
    from cardroom.room.ports import StoreUnavailable

    url = pg_cluster.new_database()
    (tmp_path / "config.toml").write_text(CUP_CONFIG)
    config = load_config(tmp_path / "config.toml")
    a = TableHostRole(config, url, nats_server.url, owner="host-a")
    store = PostgresStore(url)
    nc = await connect(nats_server.url, name="gateway")
    gateway = Gateway(nc, store, tables=[TABLE], tournaments=config.tournaments)
    try:
        await a.start()
        a._tasks[0].cancel()
        await gateway.start()
        clients = [await gateway.login(n) for n in ("ann", "bob", "cid", "dee", "eve")]
        await until(lambda: len(clients[0].tournaments()) == 1, what="the sit & go listed")
        first = clients[0].tournaments()[0].number
        claim = a.leases.claim

        def failing(owner, name, ttl, **kw):
            if name != fence_name(first):
                raise StoreUnavailable("the database is away a moment")
            return claim(owner, name, ttl, **kw)
        a.leases.claim = failing
        for c in clients[:4]:
            await c.register(first)              # the fourth starts it; the next one opens
        (nxt,) = [t.number for t in a.room.tournaments.all() if t.number != first]
        assert fence_name(nxt) not in a.cup_leases
        a.leases.claim = claim
        await a.claim_tournaments()
        assert fence_name(nxt) in a.cup_leases and Leases(store).owners()[fence_name(nxt)].owner == "host-a"
        await until(lambda: nxt in {r.number for r in clients[4].tournaments()}, what="the next one listed")
        assert await clients[4].register(nxt) == 1
        assert check_store(store) == []
    finally:
        await gateway.close()
        await nc.close()
        await a.shutdown()
        store.close()
