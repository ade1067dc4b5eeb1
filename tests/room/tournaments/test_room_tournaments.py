"""Tournaments in the room (issue 38), one process: real Tables dealt by the director, a real
SQLite store, a fake clock, players through the client API, practice bots where they play."""

from __future__ import annotations

import json
from datetime import timedelta
import pytest

from cardroom.engine import events as ev
from cardroom.engine.tournament import SCHEDULED, Level, Schedule
from cardroom.room import api
from cardroom.room.actions import Register
from cardroom.room.api import RoomError
from cardroom.room.client import LocalClient
from cardroom.room.clock import FakeClock
from tests.room.tournaments.helpers import START, Bots, audit_clean, registered, room_with, sit_and_go
from tests.rooms import build_room

FEE_AND_BUY_IN = 1_100      # the driver's sit & go: $10 + $1


def stored_events(store, hand_id):
    return ev.from_json_list(json.loads(store.get_hand(hand_id).events_json)["events"])


async def test_a_sit_and_go_is_played_to_the_end_through_real_tables(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(12, 6))
    clients, t = await registered(room, [f"p{i}" for i in range(12)])
    assert t.director.state == "running" and len(t.tables) == 2
    assert sorted(name for name in room.tables if name != "T") == ["Test #1 table 1", "Test #1 table 2"]
    assert clock.run_until(Bots(t).done, limit=30_000, step=1.0)
    assert sorted(p.place for p in t.placed) == list(range(1, 13))
    prizes = {p.player: p.prize for p in t.placed}
    assert sum(prizes.values()) == t.director.pool == 12_000
    for c in clients:
        money = await c.my_money()
        assert money.balance == START - FEE_AND_BUY_IN + prizes[c.account_id] and money.on_tables == {}
        place = next(p.place for p in t.placed if p.player == c.account_id)
        assert any(f"you finished {place}" in text and "of 12" in text for text in c.pages), c.pages
        assert any(text.startswith("Test #1: ") and " wins!" in text for text in c.pages)
    audit_clean(store)
    record = store.tournament(t.number)
    assert (record.state, record.pool_cents, record.fees_cents) == ("finished", 0, 1_200)
    assert {e.account_id: e.prize_cents for e in store.tournament_entries(t.number)} == prizes
    # Listed as finished, with the next one open for registration.
    rows = clients[0].tournaments()
    assert [(r.number, r.state) for r in rows] == [(1, "finished"), (2, "registering")]
    # Every hand is in the histories as a tournament's hand, its chips adding up.
    hands = store.hands_for_account(clients[0].account_id, limit=500)
    assert hands and all(h.tournament_id == t.number and h.status == "settled" for h in hands)
    assert all(sum(s.end_cents for s in h.seats) == sum(s.start_cents for s in h.seats) for h in hands)
    assert "Tournament #1, 10+1 Hold'em No Limit - Level" in hands[0].history   # play money


async def test_registration_refusals_say_why_and_change_nothing(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3))
    ann, poor = [LocalClient(await room.login(n)) for n in ("ann", "poor")]
    number = ann.tournaments()[0].number
    store.debit(poor.account_id, START - 500, "test", "boss")
    with pytest.raises(RoomError, match=r"Test costs \$10 \+ \$1: you have \$5"):
        await poor.register(number)
    assert (await poor.my_money()).balance == 500 and store.tournament_entries(number) == []
    assert await ann.register(number) == 1
    with pytest.raises(RoomError, match="you are already in Test"):
        await ann.register(number)
    with pytest.raises(RoomError, match="there is no tournament #99"):
        await ann.register(99)
    with pytest.raises(RoomError, match="named by its number"):
        await ann.ask(Register("Test"))
    assert [(e.entry, e.account_id) for e in store.tournament_entries(number)] == [(1, ann.account_id)]
    assert ann.tournament(number).registered and not poor.tournament(number).registered
    assert "you are already in" in ann.tournament(number).may_register
    audit_clean(store)


async def test_unregister_gives_the_buy_in_and_fee_back_before_the_start_only(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3))
    clients = [LocalClient(await room.login(n)) for n in ("ann", "bob", "cat")]
    number = clients[0].tournaments()[0].number
    await clients[0].register(number)
    assert (await clients[0].my_money()).balance == START - FEE_AND_BUY_IN
    await clients[0].unregister(number)
    assert (await clients[0].my_money()).balance == START
    assert [e.status for e in store.tournament_entries(number)] == ["refunded"]
    with pytest.raises(RoomError, match="not registered"):
        await clients[0].unregister(number)
    for c in clients:
        await c.register(number)
    with pytest.raises(RoomError, match="has started: nobody leaves with his chips"):
        await clients[0].unregister(number)
    with pytest.raises(RoomError, match="Test is full"):
        await LocalClient(await room.login("dan")).register(number)
    audit_clean(store)


async def test_a_tournament_table_is_not_bought_into_left_or_waited_for(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(2))
    (ann, bob), t = await registered(room, ["ann", "bob"])
    name = next(iter(t.tables.values())).name
    chips = [s.stack for s in room.tables[name].seats.values()]
    for call, why in [(lambda: ann.buy_in(name, 500), "not bought"), (lambda: ann.leave(name), "stay at the table"),
                      (lambda: ann.join(name), "seats its players"), (lambda: ann.join_wait_list(name), "no wait list"),
                      (lambda: ann.post_blind(name), "posts every blind")]:
        with pytest.raises(api.NotAllowedNow, match=why):
            await call()
    assert [s.stack for s in room.tables[name].seats.values()] == chips and ann.my_tables() == [name]
    # Not a cash table: not in the lobby's tables, and its chips are not money.
    assert [row.name for row in ann.lobby()] == ["T"]
    assert (await ann.my_money()).on_tables == {} and room.chips_on_tables() == 0
    view = ann.view(name)
    assert view.tournament is not None and view.tournament.players_left == 2 and view.buy_in is None


def hands_of(store, account):
    return [h for h in store.hands_for_account(account, limit=500) if h.status == "settled"]


async def test_rule_an_away_player_is_dealt_in_posts_and_is_checked_or_folded_for(tmp_path):
    """Sitting out at a tournament: still dealt every hand, his blinds and antes posted, the
    dealer checks or folds for him at once (the table never waits on him), never removed."""
    room, store, clock = room_with(tmp_path, sit_and_go(4, 4))
    clients, t = await registered(room, ["ann", "bob", "cat", "dan"])
    cat = clients[2]
    table = next(iter(t.tables.values()))
    await cat.sit_out(table.name)
    bots = Bots(t, spare={cat.account_id})
    waited = []

    def step():
        bots.seat_them()
        if table.name in cat.waiting_for_me():
            waited.append(clock.now())
        return len(hands_of(store, cat.account_id)) >= 8 or t.over or table.seat_of(cat.account_id) is None
    assert clock.run_until(step, limit=20_000, step=0.5)
    assert waited == []
    hands = hands_of(store, cat.account_id)
    assert len(hands) >= 4
    posted = 0
    for h in hands:
        me = next(i for i, s in enumerate(sorted(h.seats, key=lambda s: s.seat)) if s.account_id == cat.account_id)
        mine = [e for e in stored_events(store, h.hand_id) if getattr(e, "player", None) == me]
        assert all(isinstance(e, (ev.Posted, ev.Folded, ev.Checked, ev.DealtHole, ev.Shown, ev.Mucked,
                                  ev.Awarded, ev.UncalledReturned)) for e in mine), mine
        posted += any(isinstance(e, ev.Posted) and "blind" in e.kind for e in mine)
    assert posted >= 1
    seat = table.seat_of(cat.account_id)
    assert seat is None or seat.sitting_out        # out of chips, or still in, still away


async def test_rule_a_timeout_is_checked_or_folded_never_a_protected_all_in(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3, 3))
    clients, t = await registered(room, ["ann", "bob", "cat"])
    cat = clients[2]
    table = next(iter(t.tables.values()))
    bots = Bots(t, spare={cat.account_id})
    used = []
    store_use = store.use_allin_protection
    store.use_allin_protection = lambda *a: used.append(a) or store_use(*a)

    def step():
        bots.seat_them()
        seat = table.seat_of(cat.account_id)
        return seat is None or seat.sitting_out
    assert clock.run_until(step, limit=5_000, step=0.5)
    assert used == []
    for h in hands_of(store, cat.account_id):
        assert not any(isinstance(e, ev.ProtectedAllIn) for e in stored_events(store, h.hand_id))
    seat = table.seat_of(cat.account_id)
    if seat is not None:                   # timed out: away, still seated, dealt on
        before = len(hands_of(store, cat.account_id))
        assert clock.run_until(lambda: bots.done() or len(hands_of(store, cat.account_id)) > before
                               or table.seat_of(cat.account_id) is None, limit=5_000)
        assert "timed out" in cat.view(table.name).message or table.seat_of(cat.account_id) is None


async def test_a_player_moved_is_paged_and_his_screen_follows(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(14, 7))
    clients, t = await registered(room, [f"p{i}" for i in range(14)])
    for c in clients:                     # each player's screen is at his table, watching it
        for name in c.my_tables():
            await c.watch(name)
    bots = Bots(t)

    def moved():
        bots.seat_them()
        return any("you move to" in p for c in clients for p in c.pages) or t.over
    assert clock.run_until(moved, limit=30_000, step=0.5)
    mover = next(c for c in clients if any("you move to" in p for p in c.pages))
    text = next(p for p in mover.pages if "you move to" in p)
    target = next(t.table_name(n) for n in t.tables if f"to {t.table_name(n)}," in text)
    assert mover.my_tables() == [target]
    assert mover.account_id in room.tables[target].watchers
    assert all(mover.account_id not in room.tables[n].watchers for n in room.tables if n != target)
    assert mover.view(target).my_seat is not None
    assert clock.run_until(bots.done, limit=30_000)
    audit_clean(store)


async def test_levels_go_up_at_the_next_hand_and_breaks_hold_every_table(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(6, 3))
    clients, t = await registered(room, [f"p{i}" for i in range(6)])
    line = clients[0].view(clients[0].my_tables()[0]).tournament
    assert (line.level, line.stakes, line.entrants, line.players_left, line.average_stack) == (1, "10/20", 6, 6, 1500)
    assert 55 <= line.next_level_in <= 60 and 235 <= line.next_break_in <= 240 and line.my_rank is not None
    bots = Bots(t)
    clock.run_until(lambda: bots.done() or t.director.stage(t.now()).level >= 1, limit=120)
    started = {n: table.hand_id for n, table in t.tables.items()}
    clock.run_until(lambda: bots.done() or any(table.hand_id != started[n] for n, table in t.tables.items()
                                                if n in started), limit=600)
    for n, table in t.tables.items():
        if table.hand_id != started.get(n) and table.hand is not None:
            assert table.hand.structure.blinds[-1] == 80          # level 2: 40/80
    assert any("Level 2: 40/80" in line.text for table in t.tables.values() for line in table.chat)
    # The break after level 4: no table begins a hand while it lasts.
    clock.run_until(lambda: bots.done() or t.director.stage(t.now()).on_break, limit=600)
    if t.over:
        return
    clock.run_until(lambda: bots.done() or all(table.idle() for table in t.tables.values()), limit=120)
    ids = {n: table.hand_id for n, table in t.tables.items()}
    while True:
        clock.advance(1.0)
        if not t.director.stage(t.now()).on_break:
            break
        assert {n: table.hand_id for n, table in t.tables.items() if n in ids} == \
               {n: ids[n] for n in t.tables if n in ids}
        view = clients[0].view(next(iter(t.tables.values())).name).tournament
        assert view.on_break and view.hold == "break"
    assert clock.run_until(bots.done, limit=30_000)


async def test_a_tournament_resumes_after_a_restart_where_it_was(tmp_path):
    """The process dies mid-hand: the new one voids the hands cut off and goes on with the same
    players, chips, level and time left as recorded, and plays to the end."""
    room, store, clock = room_with(tmp_path, sit_and_go(12, 6))
    clients, t = await registered(room, [f"p{i}" for i in range(12)])
    bots = Bots(t)
    clock.run_until(lambda: bots.done() or (t.director.stage(t.now()).level >= 1 and any(
        table.hand is not None and not table.hand.over for table in t.tables.values())), limit=30_000)
    assert not t.over
    live = [table.hand_id for table in t.tables.values() if table.hand is not None and not table.hand.over]
    stored = json.loads(store.tournament(t.number).snapshot)
    room.tournaments.stop()                               # the process is gone: nothing more runs
    clock2 = FakeClock(start=50.0)
    room2, _, _ = build_room(None, *[], store=store, clock=clock2, tournaments=[t.spec], seed=9)
    t2 = room2.tournaments.get(t.number)
    assert all(store.get_hand(h).status == "void" for h in live)
    d = t2.director
    assert {e.number: (e.player, e.chips, e.out) for e in d.entries.values()} == {
        n: (p, c, o) for n, p, c, o, _ in stored["entries"]}
    assert abs(d.elapsed(t2.now()) - stored["clock"]) < 1e-6
    assert d.stage(t2.now()) == t.spec.schedule.stage(stored["clock"]) and d.stage(t2.now()).level >= 1
    seated = {s.account: s.stack for table in t2.tables.values() for s in table.seats.values()}
    assert seated == {e.player: e.chips for e in d.entries.values() if not e.out}
    assert {name for name in room2.tables if name != "T"} == {t.table_name(n) for n in d.tables()}
    assert clock2.run_until(Bots(t2).done, limit=30_000, step=1.0)
    assert sorted(p.place for p in t2.placed) == list(range(1, 13))
    audit_clean(store)
    assert sum(store.balance(c.account_id) for c in clients) == 12 * (START - FEE_AND_BUY_IN) + 12_000


async def test_cancelled_before_the_start_everyone_is_refunded(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3))
    clients = [LocalClient(await room.login(n)) for n in ("ann", "bob")]
    number = clients[0].tournaments()[0].number
    for c in clients:
        await c.register(number)
    t = room.tournaments.get(number)
    t.operate(lambda now: t.director.cancel(now, "cancelled by the card room"))
    for c in clients:
        assert (await c.my_money()).balance == START
        assert any("cancelled: your buy-in and fee, $11, are back" in p for p in c.pages)
    assert store.tournament(number).state == "cancelled"
    assert [r.state for r in clients[0].tournaments()] == ["cancelled", "registering"]
    audit_clean(store)


async def test_cancelled_while_running_places_keep_their_prizes_and_the_rest_is_shared(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(6, 6))
    clients, t = await registered(room, [f"p{i}" for i in range(6)])
    bots = Bots(t)
    clock.run_until(lambda: bots.done() or len(t.director.alive()) <= 4, limit=30_000)
    assert not t.over
    live = [table.hand_id for table in t.tables.values() if table.hand is not None and not table.hand.over]
    t.operate(lambda now: t.director.cancel(now))
    paid = {p.player: p.prize for p in t.placed}
    shares = {c.account_id: store.balance(c.account_id) - (START - FEE_AND_BUY_IN) for c in clients}
    assert sum(shares.values()) == 6_000
    for c in clients:
        if c.account_id in paid:
            assert shares[c.account_id] == paid[c.account_id]
        else:
            assert any("your share of the prize pool" in p for p in c.pages)
    assert all(store.get_hand(h).status == "void" for h in live)
    assert all(table.status == "closed" for table in t.tables.values())
    audit_clean(store)


async def test_pause_stops_the_clock_and_new_hands_and_resume_goes_on(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(4, 4))
    clients, t = await registered(room, [f"p{i}" for i in range(4)])
    bots = Bots(t)
    clock.run_until(lambda: bots.done() or t.director.hands >= 2, limit=600)
    t.operate(t.director.pause)
    left = t.director.elapsed(t.now())
    table = next(iter(t.tables.values()))
    clock.run_until(lambda: bots.done() or table.idle(), limit=600)
    hand = table.hand_id
    clock.advance(120)
    assert table.hand_id == hand and t.director.elapsed(t.now()) == left
    assert table.view_for(None).tournament.paused and "paused" in table.view_for(None).tournament.hold
    assert clients[0].tournaments()[0].state == "paused" and clients[0].tournament(t.number).paused
    t.operate(t.director.resume)
    clock.run_until(lambda: bots.done() or table.hand_id != hand, limit=600)
    assert table.hand_id != hand or t.over


def scheduled(**kw):
    wall = FakeClock().wall()          # the fake clock's 12:00 UTC at its start
    levels = tuple(Level(1, blinds=(10 * k, 20 * k)) for k in range(1, 30))
    spec = dict(kind=SCHEDULED, seats=0, start=wall.timestamp() + 120, min_players=3,
                schedule=Schedule(levels, break_every=0, break_minutes=0))
    spec.update(kw)
    return sit_and_go(0, 9, **spec)


async def test_a_scheduled_tournament_short_of_players_is_cancelled_and_refunded(tmp_path):
    room, store, clock = room_with(tmp_path, scheduled(every=3600))
    clients = [LocalClient(await room.login(n)) for n in ("ann", "bob")]
    row = clients[0].tournaments()[0]
    assert row.state == "registering" and row.starts_in == 120.0
    assert row.starts_at == FakeClock().wall() + timedelta(seconds=120)
    for c in clients:
        await c.register(row.number)
    clock.advance(125)
    assert store.tournament(row.number).state == "cancelled"
    for c in clients:
        assert (await c.my_money()).balance == START
    rows = clients[0].tournaments()
    assert [(r.number, r.state) for r in rows] == [(1, "cancelled"), (2, "registering")]
    first, nxt = store.tournament(1).starts_at, store.tournament(2).starts_at
    assert (nxt - first).total_seconds() == 3600 and rows[1].starts_in == pytest.approx(3600 - 5, abs=1)
    audit_clean(store)


async def test_late_registration_seats_a_new_entry_and_closes_after_its_levels(tmp_path):
    room, store, clock = room_with(tmp_path, scheduled(late_levels=2, reentries=1, min_players=2))
    clients = [LocalClient(await room.login(n)) for n in ("ann", "bob", "cat")]
    number = clients[0].tournaments()[0].number
    for c in clients:
        await c.register(number)
    clock.advance(125)
    t = room.tournaments.get(number)
    assert t.director.state == "running" and clients[0].tournaments()[0].state == "late registration"
    late = LocalClient(await room.login("late"))
    assert await late.register(number) == 4
    assert late.my_tables() and late.view(late.my_tables()[0]).my_seat is not None
    assert t.director.pool == 4_000 and store.tournament(number).pool_cents == 4_000
    clock.run_until(lambda: Bots(t).done() or not t.director.late_registration_open(t.now()), limit=600)
    with pytest.raises(RoomError, match="closed"):
        await LocalClient(await room.login("later")).register(number)
    audit_clean(store)


async def test_a_payment_a_crash_left_without_its_entry_is_refunded_at_the_restart(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3))
    ann = LocalClient(await room.login("ann"))
    number = ann.tournaments()[0].number
    store.enter_tournament(number, ann.account_id, 1)      # paid; the process died before the rest
    room.tournaments.stop()
    room2, _, _ = build_room(None, store=store, clock=FakeClock(), tournaments=[sit_and_go(3)], seed=2)
    assert store.balance(ann.account_id) == START
    assert [e.status for e in store.tournament_entries(number)] == ["refunded"]
    # He registers again: his new entry is numbered after the refunded one (not refused as taken).
    again = LocalClient(await room2.login("ann"))
    assert await again.register(number) == 2
    assert [(e.entry, e.status) for e in store.tournament_entries(number)] == [(1, "refunded"), (2, "in")]
    audit_clean(store)


async def test_a_player_away_at_a_restart_gets_the_reconnect_grace_not_the_whole_clock(tmp_path):
    """After a restart nobody is logged in yet: each seat is away from that moment, so the table
    waits the reconnect grace for him (then checks or folds), not his whole decision clock."""
    room, store, clock = room_with(tmp_path, sit_and_go(2))
    clients, t = await registered(room, ["ann", "bob"])
    room.tournaments.stop()
    clock2 = FakeClock()
    room2, _, _ = build_room(None, store=store, clock=clock2, tournaments=[t.spec], seed=4)
    (table,) = room2.tournaments.get(t.number).tables.values()
    assert clock2.run_until(lambda: table.seconds_left() is not None, limit=60)
    assert table.seconds_left() <= table.settings.reconnect_seconds < table.settings.action_seconds


async def test_every_place_is_written_in_the_hand_its_player_went_out_in(tmp_path):
    """Even when it is decided after that hand: at the end of its hand-for-hand round (three-seat
    tables: the bubble comes with two tables left), the earlier hand's history is written again
    with the place (this seed has a player out before his round ended)."""
    from cardroom.engine.tournament import Eliminated, HandForHand, Placed
    from cardroom.room.tournaments.words import ordinal
    room, store, clock = room_with(tmp_path, sit_and_go(12, 3))
    clients, t = await registered(room, [f"p{i}" for i in range(12)])
    seen, out, later = [], set(), []
    apply = t.apply

    def watched(records):
        later.extend(r.entry for r in records if isinstance(r, Placed) and r.entry in out)
        out.update(r.entry for r in records if isinstance(r, Eliminated))
        seen.extend(records)
        apply(records)
    t.apply = watched
    assert clock.run_until(Bots(t, seed=2).done, limit=50_000, step=1.0)
    assert HandForHand(True) in seen and later, "no place was decided after its hand"
    names = {c.account_id: c.name for c in clients}
    for p in t.placed:
        if p.place == 1:
            continue
        last = store.hands_for_account(p.player, limit=1)[0]
        assert f"{names[p.player]} finished the tournament in {ordinal(p.place)} place" in last.history, \
            (p, last.history[-400:])


async def test_a_hand_whose_start_is_being_recorded_when_the_tournament_is_cancelled_is_void(tmp_path):
    """The store's writer had the hand's start when the operator cancelled: the hand is never
    dealt, the store voids it, and the ledger adds up with everyone's share paid."""
    from tests.room.test_recording import LaterWriter
    writer = LaterWriter()
    room, store, clock = room_with(tmp_path, sit_and_go(3), writer=writer)
    clients, t = await registered(room, ["ann", "bob", "cat"])
    writer.flush()
    table = next(iter(t.tables.values()))
    clock.run_until(lambda: bool(table.recording), limit=60)
    assert table.recording and table.hand is None            # its start is on its way to the store
    t.operate(lambda now: t.director.cancel(now))
    writer.flush()
    assert table.hand is None and store.tournament(t.number).state == "cancelled"
    assert [h.status for h in store.hands_for_account(clients[0].account_id)] == ["void"]
    assert sum(store.balance(c.account_id) for c in clients) == 3 * (START - FEE_AND_BUY_IN) + 3_000
    audit_clean(store)
