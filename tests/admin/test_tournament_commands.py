"""The operators' tournament commands (panel, console and exec share them): tournaments,
tournament NAME, start NAME now, pause/resume NAME, cancel NAME; each logged with its outcome,
each refusal saying why and changing nothing."""

from __future__ import annotations

import logging

from cardroom.admin.commands import AdminContext, complete, execute
from cardroom.room.client import LocalClient
from tests.room.tournaments.helpers import START, Bots, audit_clean, room_with, sit_and_go

BOSS = "SHA256:" + "B" * 43


async def setup(tmp_path, *specs):
    room, store, clock = room_with(tmp_path, *specs)
    ctx = AdminContext(room, store, BOSS, lambda: None)
    return room, store, clock, ctx


async def players(room, number, names):
    clients = [LocalClient(await room.login(n)) for n in names]
    for c in clients:
        await c.register(number)
    return clients


async def test_tournaments_lists_each_and_tournament_shows_its_players_and_chips(tmp_path):
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(4, 4), sit_and_go(3, name="Other Go"))
    result = await execute(ctx, "tournaments")
    assert result.ok and result.lines == (
        "#1 Test: Texas Hold'em No Limit, $10+$1, 0/4 entries, registering, prize pool $0",
        "#2 Other Go: Texas Hold'em No Limit, $10+$1, 0/3 entries, registering, prize pool $0")
    await players(room, 1, ["ann", "bob", "cat", "dan"])
    shown = await execute(ctx, "tournament Test")
    assert shown.ok and shown.lines[0].startswith("#1 Test: ") and "running" in shown.lines[0]
    assert shown.lines[1] == "level 1 (10/20)" and shown.lines[2] == "payouts: $40"
    assert any(line.startswith("table 1 (Test #1 table 1): 4 players") for line in shown.lines)
    assert sum("1,500 chips  table Test #1 table 1 seat" in line for line in shown.lines) == 4
    assert (await execute(ctx, "tournament #1")).lines == shown.lines
    refused = await execute(ctx, "tournament Nope")
    assert not refused.ok and refused.lines == ("no tournament called 'Nope' (tournaments: Other Go, Test)",)
    assert complete(ctx, "tournament Ot") == ["tournament Other Go"]


async def test_start_now_starts_with_whoever_has_registered(tmp_path):
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(6))
    await players(room, 1, ["ann"])
    refused = await execute(ctx, "start Test now")
    assert not refused.ok and "needs two players" in refused.lines[0]
    assert not (await execute(ctx, "start Test")).ok         # "now" is required
    await players(room, 1, ["bob"])
    done = await execute(ctx, "start Test now")
    assert done.ok and "running" in done.lines[1]
    t = room.tournaments.get(1)
    assert t.director.state == "running" and t.director.entrants == 2 and len(t.tables) == 1
    assert store.tournament(1).state == "running"


async def test_pause_and_resume_stop_and_restart_the_clock(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger="cardroom.admin")
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(3))
    await players(room, 1, ["ann", "bob", "cat"])
    t = room.tournaments.get(1)
    assert (await execute(ctx, "pause Test")).ok
    frozen = t.director.elapsed(t.now())
    clock.advance(90)
    assert t.director.paused and t.director.elapsed(t.now()) == frozen
    again = await execute(ctx, "pause Test")
    assert not again.ok and "already paused" in again.lines[0]
    assert (await execute(ctx, "resume Test")).ok
    clock.advance(10)
    assert not t.director.paused and t.director.elapsed(t.now()) > frozen
    table = next(iter(t.tables.values()))
    refused = await execute(ctx, f"pause {table.name}")
    assert not refused.ok and "a table of tournament #1" in refused.lines[0]
    logged = [r.getMessage() for r in caplog.records if r.name == "cardroom.admin"]
    assert any("'pause Test' done" in m for m in logged)
    assert any("'pause Test' refused: " in m and "already paused" in m for m in logged)


async def test_cancel_before_the_start_refunds_everyone(tmp_path):
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(5))
    clients = await players(room, 1, ["ann", "bob"])
    done = await execute(ctx, "cancel Test the server is moving")
    assert done.ok and "cancelled" in done.lines[1]
    for c in clients:
        assert store.balance(c.account_id) == START
        assert any("Test was cancelled: your buy-in and fee, $11, are back in your balance" in p for p in c.pages)
    assert store.tournament(1).state == "cancelled"
    assert not (await execute(ctx, "cancel #1")).ok            # already over
    audit_clean(store)


async def test_cancel_while_running_keeps_places_decided_and_shares_the_rest_by_chips(tmp_path):
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(6, 6))
    clients = await players(room, 1, [f"p{i}" for i in range(6)])
    t = room.tournaments.get(1)
    bots = Bots(t)
    clock.run_until(lambda: bots.done() or len(t.director.alive()) <= 4, limit=30_000)
    assert (await execute(ctx, "cancel Test")).ok
    won = {c.account_id: store.balance(c.account_id) - (START - 1_100) for c in clients}
    assert sum(won.values()) == 6_000 and store.tournament(1).state == "cancelled"
    kinds = {e.kind for e in store.ledger(limit=500)}
    assert "tournament_share" in kinds
    audit_clean(store)


async def test_kick_leaves_a_tournament_player_in_his_tournament(tmp_path):
    room, store, clock, ctx = await setup(tmp_path, sit_and_go(2))
    ann, bob = await players(room, 1, ["ann", "bob"])
    result = await execute(ctx, "kick ann stalling")
    assert result.ok and "stays in tournament #1" in result.lines[0]
    t = room.tournaments.get(1)
    assert any(table.seat_of(ann.account_id) for table in t.tables.values())
    audit_clean(store)
