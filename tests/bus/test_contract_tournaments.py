"""The RoomClient contract for tournaments, on both clients: LocalClient (the room in this
process) and RemoteClient (a table host deals the tournament, a gateway makes the client; issue 38,
"Several processes"). Each lists the tournaments, shows a tournament's lobby as its account sees
it, registers and unregisters (the buy-in and fee move at once), seats the players of a sit & go
that fills at a table carrying its tournament's line, follows a player moved to another table,
and gives his summary once it has started. `world.settle()` waits until the gateway holds what
the host sent last (a no-op in one process)."""

from __future__ import annotations

import pytest

from cardroom.room.api import RoomError
from tests.engine.tournament.driver import sit_and_go


@pytest.fixture
def room_tournaments():
    return [sit_and_go(2)]


async def test_the_lobby_lists_the_tournaments(world):
    c = await world.login("ann")
    await world.settle()
    rows = c.tournaments()
    assert [(r.number, r.name, r.state, r.entries, r.max_entries, r.buy_in, r.fee) for r in rows] == [
        (1, "Test", "registering", 0, 2, 1_000, 100)]
    view = c.tournament(1)
    assert view.summary == rows[0] and not view.registered and view.may_register == ""
    assert [lv.stakes for lv in view.levels[:2]] == ["10/20", "40/80"] and view.payouts == ()
    with pytest.raises(RoomError, match="there is no tournament #7"):
        c.tournament(7)


async def test_register_and_unregister_move_the_buy_in_and_fee(world):
    ann = await world.login("ann")
    await world.settle()
    before = (await ann.my_money()).balance
    assert await ann.register(1) == 1
    # The reply brought the lobby after it: mine at once, on either client.
    view = ann.tournament(1)
    assert (await ann.my_money()).balance == before - 1_100 and view.registered
    assert view.me is not None and view.me.name == "ann" and view.may_register == "you are already in Test"
    with pytest.raises(RoomError, match="you are already in Test"):
        await ann.register(1)
    await ann.unregister(1)
    assert (await ann.my_money()).balance == before and not ann.tournament(1).registered
    with pytest.raises(RoomError, match="there is no tournament #7"):
        await ann.register(7)
    with pytest.raises(RoomError, match="you are not registered"):
        await ann.unregister(1)


async def test_another_players_lobby_is_his_own(world):
    """One lobby message serves every reader over the bus: each reads his own part of it."""
    ann, bob = await world.login("ann"), await world.login("bob")
    await world.settle()
    await ann.register(1)
    await world.settle()
    assert ann.tournament(1).registered and ann.tournament(1).me.name == "ann"
    mine = bob.tournament(1)
    assert not mine.registered and mine.me is None and mine.may_register == ""
    assert [p.name for p in mine.players] == ["ann"] and mine.summary.entries == 1


async def test_a_tournament_table_is_one_of_my_tables_with_its_line(world):
    ann, bob = await world.login("ann"), await world.login("bob")
    await world.settle()
    for c in (ann, bob):
        await c.register(1)
    await world.settle()
    (name,) = ann.my_tables()
    assert bob.my_tables() == [name]
    line = ann.view(name).tournament
    assert (line.number, line.name, line.table, line.level, line.players_left, line.entrants) == (1, "Test", 1, 1, 2, 2)
    assert line.my_rank in (1, 2) and line.average_stack == 1_500
    assert [r.state for r in ann.tournaments()] == ["running", "registering"]
    # Its table is its tournament's: not one of the lobby's cash tables.
    assert name not in [r.name for r in ann.lobby()]
    view = ann.tournament(1)
    assert view.registered and [t.name for t in view.tables] == [name] and view.level == 1
    assert await ann.tournament_summary(1) == await world.room_summary(ann.account_id, 1)


async def test_a_summary_before_the_start_is_refused(world):
    ann = await world.login("ann")
    await world.settle()
    with pytest.raises(RoomError, match="you did not play tournament #1"):
        await ann.tournament_summary(1)
    await ann.register(1)
    with pytest.raises(RoomError, match="has not started"):
        await ann.tournament_summary(1)


@pytest.mark.parametrize("room_tournaments", [[sit_and_go(6, table_size=3)]])
async def test_a_player_moved_follows_his_seat_and_is_told_where(world):
    """Balancing or a broken table moves a player: his own tables change to the new one (the old
    one's last view says he left it), its view carries the new table's line, and his page says
    where he sits now -- over the bus as in one process."""
    from tests.room.tournaments.helpers import Bots

    clients = {}
    for i in range(6):
        c = await world.login(f"p{i}")
        clients[c.account_id] = c
    await world.settle()
    for c in clients.values():
        await c.register(1)
    t = world.room.tournaments.get(1)
    bots = Bots(t)

    def moved() -> list[int]:
        return [a for a in clients for s in world.room.clients.get(a, ()) if any("you move to" in p for p in s.pages)]

    assert world.clock.run_until(lambda: (bots.seat_them(), bool(moved()) or t.over)[1], limit=30_000, step=1.0)
    assert not t.over, "the sit & go ended with nobody moved"
    await world.settle()
    account = moved()[0]
    c = clients[account]
    table = next(x for x in t.tables.values() if x.seat_of(account) is not None)
    await until_seen(world, lambda: c.my_tables() == [table.name] and any("you move to" in p for p in c.pages))
    line = c.view(table.name).tournament
    assert line.table == next(n for n, x in t.tables.items() if x is table) and line.number == 1
    assert c.view(table.name).my_seat == table.seat_of(account).number
    assert any(f"you move to {table.name}, seat {table.seat_of(account).number}" in p for p in c.pages)


async def until_seen(world, predicate) -> None:
    if world.kind == "local":
        assert predicate()
        return
    from tests.bus.conftest import until
    await until(predicate, what="the gateway's client sees the move")


async def test_a_player_back_before_the_start_is_seated_connected(world):
    """Registered, gone and back before his sit & go starts: he is at his seat when it starts,
    connected (not away, checked or folded for), as in one process."""
    ann = await world.login("ann")
    await world.settle()
    await ann.register(1)
    ann.close()
    ann = await world.login("ann")
    bob = await world.login("bob")
    await world.settle()
    await bob.register(1)
    await world.settle()
    (name,) = ann.my_tables()
    table = world.room.tables[name]
    from tests.bus.conftest import until
    await until(lambda: table.seat_of(ann.account_id).connected, deadline=5, what="ann connected at her seat")


async def test_a_dead_hosts_finished_tournament_leaves_the_lobby(tmp_path):
    """A gateway drops what a host no longer deals when its list says so; a killed host says
    nothing more: its tournaments over leave the lobby once it has been silent (those still
    running stay, for the host that takes them over), as after a restart of one process."""
    from types import SimpleNamespace

    from cardroom.bus import codec
    from cardroom.bus.client import Gateway
    from cardroom.room.tournaments import views
    from cardroom.store.sqlite import SqliteStore
    from tests.room.tournaments.helpers import registered, room_with

    room, store, clock = room_with(tmp_path, sit_and_go(2), sit_and_go(3, name="Other"))
    await registered(room, ["ann", "bob"], 1)
    room.tournaments.get(1).operate(lambda now: room.tournaments.get(1).director.cancel(now, "test"))
    gateway = Gateway(None, SqliteStore(tmp_path / "room.sqlite3"), host_silent=0.0)

    def message(number: int, epoch: str) -> None:
        t = room.tournaments.get(number)
        public = t.view(None)
        gateway.keep_tournament(codec.loads(codec.tournament_to(epoch, t.version, public, views.parts(t, public),
                                                               views.newcomer(t))))

    def listed(epoch: str, numbers) -> SimpleNamespace:
        return SimpleNamespace(data=codec.dumps({"h": epoch, "tn": list(numbers)}))

    message(1, "dead")
    message(2, "dead")
    assert [r.state for r in gateway.tournament_rows()] == ["cancelled", "registering"]
    await gateway._on_tournament_list(listed("live", [3]))
    assert [r.number for r in gateway.tournament_rows()] == [2]          # the dead host's over one goes
    await gateway._on_tournament_list(listed("dead", []))
    assert gateway.tournament_rows() == []                               # a host's own list says all
    gateway._pool.shutdown()
    gateway.store.close()
    store.close()
