"""What only the bus can get wrong: hidden cards on the wire, a host that does not answer, garbage
on an intent subject, one public subscription per gateway, views of a table that moved host."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from dataclasses import replace

import pytest

from cardroom.bus import codec, subjects
from cardroom.bus.client import Gateway, Unreachable, _Held
from cardroom.bus.connection import backoff, connect
from cardroom.bus.host import TableHost
from cardroom.room.api import RoomError
from tests.bus.conftest import until
from tests.bus.play import TABLE, random_legal
from tests.bus.test_contract import STACK, deal, seat

remote = pytest.mark.parametrize("world", ["remote"], indirect=True)


async def _spy(url: str):
    """Every message on cr.> as (subject, bytes), from a connection of its own."""
    nc = await connect(url, name="spy")
    seen: list[tuple[str, bytes]] = []

    async def keep(msg):
        seen.append((msg.subject, msg.data))
    await nc.subscribe(subjects.EVERYTHING, cb=keep)
    await nc.flush()
    return nc, seen


def _cards_in(view) -> set:
    return {c for s in view.seats for c in s.cards if c is not None} | set(view.my_cards)


@remote
async def test_no_message_outside_a_seat_subject_carries_that_seats_hole_cards(world, nats_server):
    spy, seen = await _spy(nats_server.url)
    rail = await world.login("rail")
    await rail.watch(TABLE)
    clients = await seat(world, names=("alice", "bob", "carol", "dan"))
    rnd = random.Random(3)
    hands = set()
    while len(hands) < 6:
        await world.advance(3.5)
        hands.add(clients[0].view(TABLE).hand_id)
        while (c := next((c for c in clients if c.waiting_for_me()), None)) is not None:
            v = c.view(TABLE)
            if v.legal is not None:
                await c.act(TABLE, *random_legal(v.legal, v.my_cards, rnd))
            else:
                await c.post_blind(TABLE, True)
            await world.settle()
    await spy.flush()
    await world.settle()
    await until(lambda: any(s.startswith("cr.lobby") for s, _ in seen))

    # Whose cards were what, in which hand: from each seat's own subject only.
    mine: dict[tuple[str, int], tuple] = {}     # (hand id, account) -> hole cards
    for subject, data in seen:
        if ".s." in subject:
            account = int(subject.rsplit(".", 1)[1])
            v = codec.stamped_from(json.loads(data))[2]
            if v.my_cards:
                mine[(v.hand_id, account)] = v.my_cards
    assert {h for h, _ in mine} >= hands - {""} and len({a for _, a in mine}) == 4
    names = {c.account_id: c.name for c in clients}
    checked = 0
    for subject, data in seen:
        view = codec.stamped_from(json.loads(data))[2] if subject.endswith(".v") or ".s." in subject else None
        for (hand_id, account), hole in mine.items():
            if subject == subjects.seat_view(TABLE, account):
                continue
            if view is None:           # a lobby row, an event, a presence message: not even as text
                assert codec.cards_to(hole).encode() not in data, (subject, names[account])
                continue
            if view.hand_id != hand_id:
                continue
            his = next((s for s in view.seats if s.name == names[account]), None)
            if his is not None and his.shown:
                continue               # shown at the showdown: public from then on
            assert not set(hole) & _cards_in(view), (subject, names[account], hand_id)
            assert codec.cards_to(hole).encode() not in data, (subject, names[account], hand_id)
            checked += 1
    assert checked > 100
    await spy.close()


@remote
async def test_a_host_gone_silent_is_a_clear_error_within_the_timeout(world, nats_server):
    c = await world.login("alice")
    await c.watch(TABLE)
    await world.host.stop()
    # Something still holds the table's subject but never answers (a host stuck, or half gone).
    silent = await connect(nats_server.url, name="silent")

    async def ignore(msg):
        pass
    await silent.subscribe(subjects.intents(TABLE), cb=ignore)
    await silent.flush()
    bound = world.gateway.timeout * 3
    with pytest.raises(Unreachable, match="the table is not answering: try again in a moment"):
        await asyncio.wait_for(c.join(TABLE), bound)
    await silent.close()
    with pytest.raises(Unreachable, match="not answering"):      # nobody serves it at all
        await asyncio.wait_for(c.chat(TABLE, "anyone?"), bound)
    assert isinstance(Unreachable("x"), RoomError)
    assert c.my_tables() == []


@remote
async def test_garbage_on_an_intent_subject_gets_an_error_and_changes_nothing(world, nats_server):
    alice, bob = await seat(world, names=("alice", "bob"))
    table = world.room.tables[TABLE]
    before = (table.view_for(None), table.chips(), dict(world.host._sessions))
    raw = await connect(nats_server.url, name="raw")
    a = alice.account_id
    junk = [b"", b"\xff\xfe", b"[1,2", b"null", b"[]", b'{"op":"buy_in"}',
            json.dumps({"a": a, "s": "x", "op": "__init__", "k": {}}).encode(),
            json.dumps({"a": a, "s": "x", "op": "buy_in", "k": {"cents": True}}).encode(),
            json.dumps({"a": a, "s": "x", "op": "buy_in", "k": {"cents": 1.5}}).encode(),
            json.dumps({"a": a, "s": "x", "op": "buy_in", "k": {"cents": 500, "account": 1}}).encode(),
            json.dumps({"a": a, "s": "x", "op": "act", "k": {"kind": "draw", "discards": "ZZ"}}).encode(),
            json.dumps({"a": a, "s": "x", "op": "chat", "k": {}}).encode(),
            json.dumps({"a": 999_999, "s": "x", "op": "watch", "k": {}}).encode(),
            json.dumps({"a": "1", "s": "x", "op": "watch", "k": {}}).encode()]
    for data in junk:
        reply = json.loads((await raw.request(subjects.intents(TABLE), data, timeout=2)).data)
        assert reply["ok"] is False and reply["msg"], data
    await raw.publish(subjects.intents(TABLE), b"no reply subject, no answer")
    await raw.flush()
    await world.settle()
    assert (table.view_for(None), table.chips()) == before[:2]
    await alice.chat(TABLE, "still served")            # the host goes on
    await world.settle()
    assert bob.view(TABLE).chat[-1].text == "still served"
    await raw.close()


@remote
async def test_a_gateway_subscribes_a_public_view_once_and_shares_it(world):
    a, b = await world.login("rail1"), await world.login("rail2")
    await a.watch(TABLE)
    await b.watch(TABLE)
    await world.settle()
    assert list(world.gateway._public) == [TABLE]
    assert a.view(TABLE) is b.view(TABLE)             # decoded once, the same object
    await a.unwatch(TABLE)
    assert TABLE in world.gateway._public
    await b.unwatch(TABLE)
    assert world.gateway._public == {}


def test_a_view_runs_down_by_the_time_since_it_arrived():
    from tests.bus.test_codec import play_and_collect
    v = next(v for v in play_and_collect("holdem", 4, [], steps=60) if v.seconds_left is not None)
    v = replace(v, seconds_left=12.0, countdown=None)
    held = _Held("e", 1, v)
    assert held.now(held.arrived) is v
    assert held.now(held.arrived + 2.5).seconds_left == 9.5 and held.now(held.arrived + 2.5).countdown is None
    held = _Held("e", 1, replace(v, seconds_left=8.0, countdown=8))
    later = held.now(held.arrived + 3.25)
    assert later.seconds_left == 4.75 and later.countdown == 5
    assert held.now(held.arrived + 60).seconds_left == 0.0 and held.now(held.arrived + 60).countdown == 0


@remote
async def test_a_table_that_moves_to_another_host_goes_on_in_the_clients(world, nats_server):
    alice, bob = await seat(world, names=("alice", "bob"))
    rail = await world.login("rail")
    await rail.watch(TABLE)
    await world.settle()
    old = world.host
    await old.stop()
    world.host = TableHost(world.room, await connect(nats_server.url, name="tables-2"), lobby_every=0.2)
    await world.host.start()           # a new epoch; its change counts start again from zero
    assert world.host.epoch != old.epoch
    await until(lambda: world.room.tables[TABLE].seat_of(alice.account_id).connected,
                what="the new host has alice's session again")
    await bob.chat(TABLE, "new host")
    await world.settle()
    assert alice.view(TABLE).chat[-1].text == "new host" and rail.view(TABLE).chat[-1].text == "new host"
    assert alice.my_tables() == [TABLE]
    await world.host.stop()
    await world.host.nc.close()
    world.host = old                   # the fixture stops it (again) at the end


@remote
async def test_an_admin_ending_a_session_ends_the_remote_client(world):
    alice = await world.login("alice")
    await alice.watch(TABLE)
    ended = []
    alice.on_end(ended.append)
    await world.settle()
    [session] = world.room.clients[alice.account_id]
    session.end("You were removed by an admin: spam")
    await until(lambda: alice.closed, what="the client hears the end")
    assert ended == ["You were removed by an admin: spam"]
    assert alice.pages.count("You were removed by an admin: spam") == 1
    with pytest.raises(RoomError):
        await alice.watch(TABLE)


@remote
async def test_a_change_is_built_once_for_the_rail_every_seat_and_the_reply(world, nats_server):
    """A table host builds the views of one change together (the rail's parts once for all) and
    an intent's reply is the actor's view among them: nothing built twice, nothing one by one."""
    spy, seen = await _spy(nats_server.url)
    clients = await seat(world, names=("alice", "bob", "carol"))
    await deal(world)
    await world.settle()
    table = world.room.tables[TABLE]
    built: list[tuple] = []
    together, alone = table.views_for, table.view_for
    table.views_for = lambda accounts: built.append(tuple(accounts)) or together(accounts)
    table.view_for = lambda account: built.append(("alone", account)) or alone(account)
    actor = next(c for c in clients if c.waiting_for_me())
    seen.clear()
    await actor.act(TABLE, *random_legal(actor.view(TABLE).legal, actor.view(TABLE).my_cards, random.Random(1)))
    await world.settle()
    await spy.flush()
    await until(lambda: sum(s == subjects.public_view(TABLE) for s, _ in seen) == 1)
    assert len(built) == 1 and sorted(built[0], key=str) == sorted([None, *(c.account_id for c in clients)], key=str)
    mine = [d for s, d in seen if s == subjects.seat_view(TABLE, actor.account_id)]
    sent = codec.stamped_from(json.loads(mine[0]))[2]
    assert len(mine) == 1 and replace(actor.view(TABLE), seconds_left=0) == replace(sent, seconds_left=0)
    await spy.close()


@remote
async def test_a_railbird_is_no_railbird_once_his_session_is_gone(world):
    rail = await world.login("rail")
    await rail.watch(TABLE)
    await until(lambda: world.room.tables[TABLE].watcher_names.get(rail.account_id) == "rail")
    rail.close()
    await until(lambda: rail.account_id not in world.room.tables[TABLE].watchers, what="unwatched at the host")
    assert rail.account_id not in world.host._sessions


@remote
async def test_a_gateway_that_just_came_has_the_lobby_within_moments(world, nats_server):
    nc = await connect(nats_server.url, name="gateway-2")
    late = Gateway(nc, world.gateway.store)
    await late.start()
    await until(lambda: [r.name for r in late.lobby()] == [TABLE], what="the periodic lobby")
    await late.close()
    await nc.close()


@remote
async def test_a_host_serves_only_its_own_tables(world, nats_server):
    c = await world.login("alice")
    await world.host.stop()
    shard = TableHost(world.room, await connect(nats_server.url, name="shard"), tables=[])
    await shard.start()
    with pytest.raises(Unreachable):
        await c.watch(TABLE)
    await shard.stop()
    await shard.nc.close()


def test_reconnecting_backs_off_and_jitters():
    waits = [backoff(n) for n in range(12)]
    assert 0.05 <= waits[0] <= 0.1 and all(w <= 5.0 for w in waits) and waits[-1] >= 2.5


@remote
async def test_garbage_on_the_subjects_a_gateway_reads_is_dropped(world, nats_server):
    alice, bob = await seat(world, names=("alice", "bob"))
    raw = await connect(nats_server.url, name="raw")
    junk = [b"", b"\xff", b"[]", b'{"e":"x","n":1,"v":{"name":5}}', b'{"e":"x","n":1e9,"v":null}',
            b'{"e":"zz","n":99,"v":{"chat":[["a","b",["c"],1]]}}', b'{"rows":[[1,2]]}', b'{"page":5}']
    for subject in (subjects.public_view(TABLE), subjects.seat_view(TABLE, alice.account_id),
                    subjects.account_events(alice.account_id), subjects.LOBBY):
        for data in junk:
            await raw.publish(subject, data)
    await raw.flush()
    await bob.chat(TABLE, "after the junk")
    await world.settle()
    assert alice.view(TABLE).chat[-1].text == "after the junk" and not alice.closed
    await until(lambda: [(r.name, r.players) for r in alice.lobby()] == [(TABLE, 2)], what="the lobby")
    await raw.close()


@remote
async def test_a_silent_gateways_sessions_go_offline_and_come_back_with_it(world):
    """A gateway killed with SIGKILL says nothing: its host hears its heartbeat stop and marks
    its players' seats disconnected (the disconnect rules apply); the same sessions are online
    again when the gateway is heard once more, and their intents work."""
    alice, bob = await seat(world, names=("alice", "bob"))
    table = world.room.tables[TABLE]
    await until(lambda: table.seat_of(alice.account_id).connected, what="alice online")
    world.host.gateway_lost = 1.5       # beats come every second
    beats = world.gateway._loops
    for task in beats:
        task.cancel()                      # the gateway falls silent, as a killed process would
    await until(lambda: not table.seat_of(alice.account_id).connected
                and not table.seat_of(bob.account_id).connected, what="both marked disconnected")
    await world.gateway.start()            # heard again (as after a cut in the network)
    await world.gateway.reconnected()
    await until(lambda: table.seat_of(alice.account_id).connected, what="alice online again")
    assert await bob.chat(TABLE, "back") is None
    await world.settle()
    assert alice.view(TABLE).chat[-1].text == "back"


@remote
async def test_a_gateway_silent_before_its_first_heartbeat_was_heard_still_goes_offline(world):
    """NATS orders no messages across connections: a gateway's first heartbeat can reach the host
    before the host's subscription does. Its sessions' presence counts as hearing it, so a
    gateway that dies then is still judged by its silence (before: never heard, never judged)."""
    for task in world.gateway._loops:
        task.cancel()                      # not one heartbeat from now on
    world.host._gateways.lost(0)           # and none heard before: the race lost
    world.host.gateway_lost = 1.5
    alice, bob = await seat(world, names=("alice", "bob"))
    table = world.room.tables[TABLE]
    await until(lambda: not table.seat_of(alice.account_id).connected
                and not table.seat_of(bob.account_id).connected, what="both marked disconnected")


@remote
async def test_a_seat_of_a_silent_gateway_gets_the_lost_connections_grace_not_the_whole_clock(world):
    """Issue 35: the scaled room's "disconnected" (a gateway not heard) feeds the same rule as a
    dropped connection in one process: the player to act has reconnect_seconds to come back,
    then his hand is played as a timeout's."""
    alice, bob = await seat(world, names=("alice", "bob"))
    table = world.room.tables[TABLE]
    await world.advance(0.01)
    hand = table.hand
    assert hand is not None and hand.actor is not None
    p = hand.actor
    acting = table.seats[table.hand_seats[p]]
    world.host.gateway_lost = 1.5       # beats come every second
    for task in world.gateway._loops:
        task.cancel()                      # the gateway falls silent, as a killed process would
    await until(lambda: not acting.connected, what="the seat to act marked disconnected")
    assert table.seconds_left() <= table.settings.reconnect_seconds
    world.clock.advance(table.settings.reconnect_seconds + 0.1)
    assert hand.over or hand.actor != p        # played as a timeout, 18 s before his clock ran out
    assert acting.timed_out


@remote
async def test_a_table_whose_host_is_silent_shows_reconnecting_then_resumes(world, nats_server):
    alice, bob = await seat(world, names=("alice", "bob"))
    woke = []
    alice.on_change(lambda: woke.append(1))
    world.gateway.host_silent = 1.5     # beats come every second
    await until(lambda: world.gateway._hosts.silent(TABLE, 60) is False and TABLE in world.gateway._hosts._at,
                what="the host heard serving the table")
    old_status = alice.view(TABLE).status
    old = world.host
    await old.stop()                       # its heartbeat stops with it
    await until(lambda: alice.view(TABLE).status == "reconnecting", what="shown as reconnecting")
    v = alice.view(TABLE)
    assert v.legal is None and v.seconds_left is None and woke
    world.host = TableHost(world.room, await connect(nats_server.url, name="tables-2"), lobby_every=0.2)
    await world.host.start()
    await until(lambda: alice.view(TABLE).status != "reconnecting", what="back when a host serves it again")
    assert alice.view(TABLE).status == old_status
    await world.host.stop()
    await world.host.nc.close()
    world.host = old


@remote
async def test_money_read_through_another_gateway_mid_hand_counts_the_chips_in_play(world, tmp_path):
    """Issue 34, point 15: alice logs in through another gateway during a hand; before her seat's
    views reach it, her money comes from the store, which keeps the hand's chips in escrow: the
    welcome screen's total left them out. The chips in play are hers as much as the others."""
    from cardroom.store.sqlite import SqliteStore

    alice, bob = await seat(world, names=("alice", "bob"))
    await deal(world)
    assert alice.view(TABLE).hand_id and alice.view(TABLE).phase == "bet"
    other = Gateway(world.gateway.nc, SqliteStore(tmp_path / "room.sqlite3"), tables=[TABLE])
    try:
        # What that gateway knows of her with no view of her seat yet: the store's count.
        again = await other.room.login("alice")
        money = await other.off_loop(again.my_money)
        assert money.total == 100_000 and money.on_tables[TABLE] == STACK, money
    finally:
        other._pool.shutdown()
        other.store.close()


@remote
async def test_a_table_host_logs_an_attachment_not_a_second_login(world, caplog):
    """Issue 34, point 15: the table host logged every session it opened for a gateway's player
    (his first intent, a claim, the host's start) as a player's login. One login is logged, by
    the gateway he logged in through; the host says it attached him."""
    caplog.set_level(logging.INFO, "cardroom.room")
    alice = await world.login("alice")
    await alice.watch(TABLE)
    await alice.join(TABLE)
    lines = [r.getMessage() for r in caplog.records if r.name == "cardroom.room"]
    assert [line for line in lines if line.startswith("login: alice")] == [
        f"login: alice (account {alice.account_id}, key none)"], lines
    assert f"attached: alice (account {alice.account_id}), served through a gateway" in lines
    alice.close()
    await until(lambda: any(r.getMessage() == "detached: alice" for r in caplog.records),
                what="the host's session closes as a detachment")
