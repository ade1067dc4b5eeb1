"""The Pacer: room-driven repaints of many sessions, a few at a time, players first."""

from __future__ import annotations

import asyncio

from cardroom.tui.pacing import Pacer


async def test_wakes_each_app_once_players_first_a_few_per_period():
    pacer = Pacer(period=0.05, count=1, lag_limit=10.0)   # on time: one more each period
    woken: list[str] = []
    for name in ("r1", "r2", "r1", "r3"):               # r1 asked twice: woken once
        pacer.request(name, lambda n=name: woken.append(n))
    pacer.request("p1", lambda: woken.append("p1"), high=True)
    pacer.request("r2", lambda: woken.append("r2"), high=True)   # seated now: moves up
    assert pacer.busy and pacer.waiting == 4
    await asyncio.sleep(0.01)                           # an idle pacer starts at once ...
    assert woken == ["p1", "r2"]                        # ... two, the players first
    await asyncio.sleep(0.01)
    assert woken == ["p1", "r2"]                        # the rest a period later
    for _ in range(50):
        if not pacer.waiting:
            break
        await asyncio.sleep(0.01)
    assert woken == ["p1", "r2", "r1", "r3"]
    assert pacer.woken == 4 and not pacer.waiting


async def test_a_late_loop_wakes_fewer():
    import time
    pacer = Pacer(period=0.01, count=8, lag_limit=0.001)
    for i in range(100):
        pacer.request(i, lambda: None)
    await asyncio.sleep(0.005)                          # the first few are out, one a turn
    before = pacer.count
    time.sleep(0.03)  # noqa: ASYNC251 - the loop is late for the pacer's tick: blocking it is the point
    await asyncio.sleep(0)                              # the late tick runs
    await asyncio.sleep(0)
    assert pacer.count < before


async def test_an_app_repaints_at_once_without_a_pacer_and_through_it_with_one(world):
    from cardroom.tui.app import build_app

    from .conftest import open_table, table_settings

    w = world(table_settings())
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(app, pilot)
        pacer = Pacer(period=0.01)
        app.pacer = pacer
        app._room_changed()
        assert pacer.waiting == 1 and not app._pending   # not yet: the pacer decides when
        await asyncio.sleep(0.05)
        await pilot.pause()
        assert pacer.woken == 1 and pacer.waiting == 0


async def test_a_batch_is_woken_one_app_a_loop_turn():
    """A woken app repaints in its own task on the next turn: waking a batch in one callback
    made one long turn of repaints that a player's key waited behind."""
    pacer = Pacer(period=0.05, count=3, max_count=3, lag_limit=10.0)
    woken: list[str] = []
    for name in ("a", "b", "c", "d"):
        pacer.request(name, lambda n=name: woken.append(n), high=True)
    seen = []
    for _ in range(5):
        await asyncio.sleep(0)
        seen.append(len(woken))
    assert seen[:4] == [0, 1, 2, 3] or seen[:4] == [1, 2, 3, 3]     # one more each turn
    assert woken == ["a", "b", "c"]                     # three this period, d the next


async def test_a_railbird_waiting_too_long_gets_a_turn_among_players():
    pacer = Pacer(period=0.01, count=2, max_count=2, lag_limit=10.0, max_wait=0.0)
    woken: list[str] = []
    pacer.request("r", lambda: woken.append("r"))
    for i in range(5):
        pacer.request(f"p{i}", lambda i=i: woken.append(f"p{i}"), high=True)
    await asyncio.sleep(0.001)
    assert woken == ["p0", "p1"]
    await asyncio.sleep(0.015)
    assert woken[:4] == ["p0", "p1", "r", "p2"]        # every third wake: the old railbird


async def test_the_player_whose_decision_it_is_never_waits():
    """Urgent (my decision now): woken on the next loop turn, before the queue and outside the
    budget, even when the pacer is saturated."""
    pacer = Pacer(period=0.05, count=1, max_count=1, lag_limit=10.0)
    woken: list[str] = []
    for name in ("p1", "p2", "p3"):
        pacer.request(name, lambda n=name: woken.append(n), high=True)
    await asyncio.sleep(0.01)
    assert woken == ["p1"]                              # one a period: p2, p3 wait
    pacer.request("p3", lambda: woken.append("p3!"), urgent=True)
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert woken == ["p1", "p3!"]                       # at once, and out of the queue
    assert pacer.waiting == 1                           # p2 still waits its turn


async def test_a_busy_process_wakes_fewer_and_an_idle_one_more():
    """Over `cpu_limit` of a core (here a fake clock that says 'always busy') the pacer cuts its
    batch; under it the batch grows again: the loop keeps idle time for players' own keys."""
    loop = asyncio.get_running_loop()
    busy = True
    used = [0.0, loop.time()]            # CPU seconds so far, when last read

    def cpu_clock():                     # CPU seconds: all of wall time when busy, none when idle
        now = loop.time()
        if busy:
            used[0] += now - used[1]
        used[1] = now
        return used[0]

    pacer = Pacer(period=0.01, count=16, lag_limit=10.0, cpu_limit=0.7, window=0.02, cpu_clock=cpu_clock)
    for i in range(1000):
        pacer.request(i, lambda: None)
    await asyncio.sleep(0.15)
    assert pacer.cpu > 0.7 and pacer.busy
    assert pacer.count < 16
    low = pacer.count
    busy = False
    await asyncio.sleep(0.15)
    assert pacer.cpu < 0.7
    assert pacer.count > low


async def test_a_woken_app_paints_in_the_turn_it_rereads_the_room(world):
    """Over ssh the app is given paint_now: after re-reading the room it draws at once rather
    than four loop turns later together with every other screen woken meanwhile."""
    from cardroom.tui.app import build_app

    from .conftest import open_table, table_settings

    w = world(table_settings())
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    async with app.run_test(size=(100, 30)) as pilot:
        await open_table(app, pilot)
        await pilot.pause()
        order: list[str] = []
        screen = app.screen
        reread = screen.refresh_from_room
        screen.refresh_from_room = lambda: (order.append("reread"), reread())[1]
        app.paint_now = lambda: order.append("paint")
        app._room_changed()
        await pilot.pause()
        assert order == ["reread", "paint"]
