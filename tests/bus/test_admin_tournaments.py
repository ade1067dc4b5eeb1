"""The operators' tournament commands over the bus (issue 38, "Operators" and "Several processes"):
an admin on one Gateway lists the tournaments a TableHost deals, shows one, starts it now,
pauses, resumes and cancels it, for players registered through another Gateway -- each the
same lines, the same records and the same log as in one process (tests/admin/
test_tournament_commands.py), done by the host that owns the tournament."""

from __future__ import annotations

import logging

import pytest

from cardroom.admin.commands import AdminContext, execute
from cardroom.bus.admin import HostAdmin, RemoteRoomAdmin
from cardroom.bus.client import Gateway
from cardroom.bus.host import TableHost
from cardroom.store.sqlite import SqliteStore
from tests.bus.conftest import until
from tests.room.tournaments.helpers import START, audit_clean, room_with, sit_and_go

BOSS = "SHA256:" + "B" * 43


@pytest.fixture
async def spread(tmp_path, bus):
    """A host dealing two sit & gos; gateway `a` for the admin, gateway `b` for the players; and
    the same commands in one process (`local`), to compare."""
    room, store, clock = room_with(tmp_path, sit_and_go(4, 2), sit_and_go(3, name="Other Go"))
    host = TableHost(room, await bus("tables"), lobby_every=0.2)
    await host.start()
    host_admin = HostAdmin(host, every=0.1)
    await host_admin.start()
    made = []
    for name in ("a", "b"):
        g = Gateway(await bus(name), SqliteStore(tmp_path / "room.sqlite3"), timeout=2.0, gateway_id=f"gw-{name}")
        await g.start()
        ra = RemoteRoomAdmin(g, timeout=2.0, every=0.1)
        await ra.start()
        made.append((g, ra))
    (ga, admin), (gb, _) = made
    ctx = AdminContext(ga.room, ga.store, BOSS, lambda: None, room_admin=admin)
    local = AdminContext(room, store, BOSS, lambda: None)
    await until(lambda: len(admin.tournaments()) == 2, what="the admin's gateway hears the tournaments")
    yield room, store, clock, ctx, local, gb, host
    for g, ra in made:
        await ra.close()
        await g.close()
        g.store.close()
    await host_admin.close()
    await host.stop()
    store.close()


async def same(ctx, local, command: str, host) -> list[str]:
    """`command`'s lines over the bus, once the gateway has the host's latest; the same in one process."""
    made = host.tournaments._made
    gateway = ctx.room_admin.gateway
    await until(lambda: all(gateway._tourneys.get(n) is not None and gateway._tourneys[n].n == k
                            for n, k in made.items()), what="the gateway has the host's latest lobbies")
    remote, here = await execute(ctx, command), await execute(local, command)
    assert remote == here, (remote, here)
    return list(remote.lines)


async def test_tournaments_and_tournament_read_as_in_one_process(spread):
    room, store, clock, ctx, local, gb, host = spread
    lines = await same(ctx, local, "tournaments", host)
    assert lines[0] == "#1 Test: Texas Hold'em No Limit, $10+$1, 0/4 entries, registering, prize pool $0"
    for name in ("ann", "bob", "cat", "dan"):
        await (await gb.login(name)).register(1)
    shown = await same(ctx, local, "tournament Test", host)
    assert "running" in shown[0] and shown[1] == "level 1 (10/20)"
    assert sum("1,500 chips  table Test #1 table" in line for line in shown) == 4
    assert await same(ctx, local, "tournament #1", host) == shown
    assert await same(ctx, local, "tournament Nope", host) == [
        "no tournament called 'Nope' (tournaments: Other Go, Test)"]


async def test_start_pause_resume_and_cancel_are_done_at_the_host_and_logged(spread, caplog):
    caplog.set_level(logging.INFO, logger="cardroom.admin")
    room, store, clock, ctx, local, gb, host = spread
    ann, bob = await gb.login("ann"), await gb.login("bob")
    await ann.register(2)
    refused = await execute(ctx, "start Other Go now")
    assert not refused.ok and "needs two players" in refused.lines[0]
    await bob.register(2)
    done = await execute(ctx, "start Other Go now")
    assert done.ok and "running" in done.lines[1], done
    t = room.tournaments.get(2)
    assert t.director.state == "running" and len(t.tables) == 1 and store.tournament(2).state == "running"
    assert (await execute(ctx, "pause Other Go")).ok
    frozen = t.director.elapsed(t.now())
    clock.advance(90)
    assert t.director.paused and t.director.elapsed(t.now()) == frozen
    again = await execute(ctx, "pause Other Go")
    assert not again.ok and "already paused" in again.lines[0]
    assert (await execute(ctx, "resume Other Go")).ok and not t.director.paused
    # A tournament's table is its tournament's over the bus too: paused with the tournament.
    table = next(iter(t.tables.values()))
    await until(lambda: any(x.name == table.name and x.tournament == 2 for x in ctx.room_admin.tables()),
                what="the admin hears the tournament's table")
    refused = await execute(ctx, f"pause {table.name}")
    assert not refused.ok and "a table of tournament #2" in refused.lines[0]
    cancelled = await execute(ctx, "cancel #2 the server is moving")
    assert cancelled.ok and "cancelled" in cancelled.lines[1]
    assert store.tournament(2).state == "cancelled"
    assert sum(store.balance(c.account_id) for c in (ann, bob)) == 2 * START - 2 * 100   # the pool shared, fees kept
    logged = [r.getMessage() for r in caplog.records if r.name == "cardroom.admin"]
    assert any("'start Other Go now' done" in m for m in logged)
    assert any("'pause Other Go' refused: " in m and "already paused" in m for m in logged)
    assert any("'cancel #2 the server is moving' done" in m for m in logged)
    audit_clean(store)


async def test_cancel_before_the_start_refunds_everyone_through_the_other_gateway(spread):
    room, store, clock, ctx, local, gb, host = spread
    clients = [await gb.login(n) for n in ("ann", "bob")]
    for c in clients:
        await c.register(1)
    done = await execute(ctx, "cancel Test the server is moving")
    assert done.ok and "cancelled" in done.lines[1]
    for c in clients:
        assert store.balance(c.account_id) == START
        await until(lambda c=c: any("Test was cancelled: your buy-in and fee, $11, are back in your balance" in p
                                    for p in c.pages), what="each is told, on his gateway")
    assert not (await execute(ctx, "cancel #1")).ok            # already over
    audit_clean(store)


async def test_no_host_dealing_it_is_said_and_changes_nothing(spread):
    room, store, clock, ctx, local, gb, host = spread
    await host.stop()
    await host.nc.flush()            # its unsubscriptions are the server's before the admin asks
    refused = await execute(ctx, "start Test now")
    assert not refused.ok and "no table host deals tournament #1 now: nothing was done" in refused.lines[0]
    assert room.tournaments.get(1).director.state == "registering"
