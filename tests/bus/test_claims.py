"""A table host's claims never close a player's session (issue 34, point 10).

A host claims tables at its start, when it takes over a dead host's tables, and when it claims
again the tables it fenced (its database was away too long). Each claim starts its TableHost
anew, which asks the gateways who is online and opens a session for each seated account. A
session opened by the host it replaced must not read as a second login of the account: that
ended the player's ssh with "You logged in from somewhere else" (2 of 8 claims).

Here: a table host (the role, in this process) on a real PostgreSQL and nats-server, four
players seated at three tables through two Gateways, and the host fences and claims its tables
again and again. No session ends; every player keeps his seats and his views go on.
"""

from __future__ import annotations

import pytest

from cardroom.bus.client import Gateway
from cardroom.bus.connection import connect
from cardroom.config import load_config
from cardroom.roles.tablehost import TableHostRole
from cardroom.store.audit import check_store
from cardroom.store.postgres import PostgresStore
from tests.bus.conftest import until

TABLES = ("Claim One $2/$4", "Claim Two $2/$4", "Claim Three $2/$4")
CONFIG = '[server]\nhost = "127.0.0.1"\n\n[room]\nstarting_money = "1000.00"\n' + "".join(
    f'\n[[tables]]\nname = "{name}"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\nseats = 6\n'
    for name in TABLES)


async def claims_closing_sessions(tmp_path, url: str, nats_url: str, claims: int) -> None:
    (tmp_path / "config.toml").write_text(CONFIG)
    config = load_config(tmp_path / "config.toml")
    role = TableHostRole(config, url, nats_url, owner="claims-host")
    await role.start()
    role._tasks[0].cancel()     # its lease loop: the claims below are this test's, one at a time
    store = PostgresStore(url)
    connections, gateways, ended = [], [], []
    try:
        for n in (1, 2):
            nc = await connect(nats_url, name=f"gateway-{n}")
            connections.append(nc)
            g = Gateway(nc, PostgresStore(url), tables=list(TABLES), timeout=3.0, gateway_id=f"gw{n}")
            await g.start()
            gateways.append(g)
        players = []
        for i, name in enumerate(("alice", "bob", "carol", "dave")):
            client = await gateways[i % 2].login(name)
            client.on_end(lambda reason, name=name: ended.append((name, reason)))
            players.append(client)
            for table in (TABLES[i % 3], TABLES[(i + 1) % 3]):
                await client.watch(table)
                await client.join(table, 1 + i)
                await client.buy_in(table, 10000)
        await until(lambda: all(len(p.my_tables()) == 2 for p in players), what="everyone seated twice")
        for k in range(claims):
            role.fence(set(role.held))           # as when its renewals failed too long
            await role._restart_host()           # as the lease loop does after a fence
            await role.claim_free()              # claimed again: voided, everyone seated again
            assert role.held == set(TABLES)
            try:
                await until(lambda: all(len(p.my_tables()) == 2 and not p.closed for p in players)
                            or ended, what=f"claim {k + 1}: everyone seated again, no session ended")
            finally:
                assert not ended, f"claim {k + 1} ended sessions: {ended}"
                assert all(len(p.my_tables()) == 2 for p in players), \
                    f"claim {k + 1}: {[(p.name, p.my_tables()) for p in players]}"
        # Still playing: each player's chat line reaches his table's views.
        for i, p in enumerate(players):
            await p.chat(TABLES[i % 3], f"still here {i}")
        await until(lambda: all(any(line.text == f"still here {i}" for line in p.view(TABLES[i % 3]).chat)
                                for i, p in enumerate(players)), what="views flow after the claims")
        assert not ended and not any(p.closed for p in players)
    finally:
        for g in gateways:
            await g.close()
            g.store.close()
        for nc in connections:
            await nc.close()
        role.fence(set(role.held))     # its leases may have run out meanwhile: claimed to step down
        await role.claim_free()
        await role.shutdown()
        assert check_store(store) == []
        store.close()


async def test_claims_never_close_a_session(tmp_path, pg_cluster, nats_server):
    await claims_closing_sessions(tmp_path, pg_cluster.new_database(), nats_server.url, claims=10)


@pytest.mark.deep
async def test_fifty_claims_never_close_a_session(tmp_path, pg_cluster, nats_server):
    await claims_closing_sessions(tmp_path, pg_cluster.new_database(), nats_server.url, claims=50)
