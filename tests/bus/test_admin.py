"""The admin commands over the bus: an admin on one Gateway sees and acts on a table a TableHost
deals, and on players seated through another Gateway (real nats-server, in-process host)."""

from __future__ import annotations


import pytest

from cardroom.admin.commands import AdminContext, execute
from cardroom.bus import codec
from cardroom.bus.admin import HostAdmin, RemoteRoomAdmin, table_subject, table_to
from cardroom.bus.client import Gateway
from cardroom.bus.host import TableHost
from cardroom.room.api import RoomError
from cardroom.store.audit import check_store
from cardroom.store.sqlite import SqliteStore
from tests.bus.conftest import until
from tests.bus.play import TABLE
from tests.rooms import build_room, table_settings


@pytest.fixture
async def spread(tmp_path, bus):
    """A host dealing TABLE; gateway `a` for the admin, gateway `b` for the players."""
    room, store, clock = build_room(tmp_path / "room.sqlite3", table_settings(TABLE, seats=6), seed=5)
    host = TableHost(room, await bus("tables"), lobby_every=0.2)
    await host.start()
    host_admin = HostAdmin(host, every=0.1)
    await host_admin.start()
    made = []
    for name in ("a", "b"):
        gstore = SqliteStore(tmp_path / "room.sqlite3")
        g = Gateway(await bus(name), gstore, tables=[TABLE], timeout=2.0, gateway_id=f"gw-{name}")
        await g.start()
        ra = RemoteRoomAdmin(g, timeout=2.0, every=0.1)
        await ra.start()
        made.append((g, ra))
    yield room, store, clock, made, host_admin
    for g, ra in made:
        await ra.close()
        await g.close()
        g.store.close()
    await host_admin.close()
    await host.stop()
    store.close()


async def test_an_admin_on_one_gateway_acts_on_players_of_another(spread):
    room, store, clock, ((ga, admin), (gb, _)), _host_admin = spread
    ctx = AdminContext(ga.room, ga.store, "console", lambda: None, room_admin=admin)
    alice, bob = await gb.login("alice"), await gb.login("bob")
    for client, seat in ((alice, 1), (bob, 2)):
        await client.watch(TABLE)
        await client.join(TABLE, seat)
        await client.buy_in(TABLE, 10000)
    await until(lambda: len(admin.tables()) == 1 and len(admin.tables()[0].seats) == 2
                and {alice.account_id, bob.account_id} <= admin.sessions().keys(),
                what="the admin gateway hears the host's table and the other gateway's sessions")

    result = await execute(ctx, "tables")
    assert result.ok and "2/6 seated" in result.lines[0], result
    result = await execute(ctx, "who")
    assert result.ok and result.lines[0].startswith("2 online"), result
    assert any("alice" in line and TABLE in line for line in result.lines)

    result = await execute(ctx, f"pause {TABLE}")
    assert result.ok, result
    assert room.tables[TABLE].status == "paused"
    clock.advance(60)                                   # a paused table deals nothing
    assert room.tables[TABLE].hand is None

    await execute(ctx, "broadcast the room closes soon")
    await until(lambda: "the room closes soon" in bob.pages, what="the page reaches gateway b")

    result = await execute(ctx, "kick alice stalling")
    assert result.ok, result
    assert room.tables[TABLE].seat_of(alice.account_id) is None
    assert store.balance(alice.account_id) == room.settings.starting_money
    await until(lambda: alice.closed, what="alice's session on gateway b ends")
    assert check_store(store) == []


async def test_garbage_on_the_admin_subjects_changes_nothing(spread, bus):
    room, store, clock, ((ga, admin), _), _host_admin = spread
    nc = await bus("garbage")
    before = room.tables[TABLE].status
    for junk in (b"\xff", b"[]", codec.dumps({"op": "status", "table": TABLE, "status": "gone"}),
                 codec.dumps({"op": "kick", "table": TABLE, "a": "x", "reason": ""}),
                 codec.dumps({"op": "burn", "table": TABLE})):
        reply = codec.loads((await nc.request(table_subject(TABLE), junk, timeout=2)).data)
        assert reply["ok"] is False and reply["msg"]
    for junk in (b"\xff", codec.dumps({"op": "shutdown_in", "s": -1}), codec.dumps({"op": "mute", "a": "x"})):
        await nc.publish("cr.admin.all", junk)
    await nc.flush()
    assert room.tables[TABLE].status == before and room.closing_at is None
    with pytest.raises(RoomError, match="no table host serves"):
        await admin.set_status("Nowhere", "paused")
    ctx = AdminContext(ga.room, ga.store, "console", lambda: None, room_admin=admin)
    result = await execute(ctx, "pause Nowhere")
    assert not result.ok


async def test_a_silent_hosts_tables_are_listed_as_reconnecting(spread):
    """Issue 34, point 15: while the table host was down the panel's `tables` said "no tables".
    A table whose host has not been heard lately is listed as it was last heard, reconnecting."""
    room, store, clock, ((ga, admin), (gb, _)), _host_admin = spread
    ctx = AdminContext(ga.room, ga.store, "console", lambda: None, room_admin=admin)
    alice = await gb.login("alice")
    await alice.watch(TABLE)
    await alice.join(TABLE, 1)
    await alice.buy_in(TABLE, 10000)
    await until(lambda: len(admin.tables()) == 1 and len(admin.tables()[0].seats) == 1, what="the host heard")
    later = admin.clock() + admin.gone + 1
    admin.clock = lambda: later                     # nothing heard from the host since
    result = await execute(ctx, "tables")
    assert result.ok and len(result.lines) == 1, result
    assert TABLE in result.lines[0] and "reconnecting" in result.lines[0] and "1/6 seated" in result.lines[0]
    result = await execute(ctx, "who")
    assert any("alice" in line and TABLE in line for line in result.lines), result
    assert not admin.shutting_down()


async def test_a_hosts_snapshot_remakes_only_the_records_of_tables_that_changed(spread):
    """Every table's record goes out every second; one whose table has not changed since is sent as
    it was (not made again), and one that has is made again and is the table as it is now."""
    room, store, clock, ((ga, admin), (gb, _)), host_admin = spread
    made = []
    record = host_admin.local.table
    host_admin.local.table = lambda name: made.append(name) or record(name)
    first = host_admin._records()
    made.clear()
    assert host_admin._records() == first and made == []       # unchanged: sent as it was
    alice = await gb.login("alice")
    await alice.watch(TABLE)
    await alice.join(TABLE, 3)
    await until(lambda: host_admin._records() != first, what="the new seat in the record")
    assert made                                                  # changed: made again
    again = len(made)
    now = host_admin._records()
    assert len(made) == again
    assert codec.loads(now[0].encode()) == codec.loads(codec.dumps(table_to(record(TABLE))))
