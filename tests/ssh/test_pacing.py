"""The Pacer (cardroom/ssh/pacing.py): room-driven repaints of many sessions, a few at a time,
players first. Run on a FakeLoop: every assertion is about loop turns and clock readings the
test sets, none about how long the machine took."""

from __future__ import annotations

import asyncio

import pytest
from ssh_helpers import FakeLoop

from cardroom.ssh.pacing import Pacer


def _pacer(**kw) -> tuple[Pacer, FakeLoop, list]:
    loop = FakeLoop()
    return Pacer(clock=loop, **kw), loop, []


def test_wakes_each_app_once_players_first_a_few_per_period():
    pacer, loop, woken = _pacer(period=0.05, count=1, lag_limit=10.0)   # on time: one more each period
    for name in ("r1", "r2", "r1", "r3"):               # r1 asked twice: woken once
        pacer.request(name, lambda n=name: woken.append(n))
    pacer.request("p1", lambda: woken.append("p1"), high=True)
    pacer.request("r2", lambda: woken.append("r2"), high=True)   # seated now: moves up
    assert pacer.busy and pacer.waiting == 4
    loop.turn()                                         # an idle pacer starts on the next turn ...
    assert woken == ["p1"]
    loop.turn()
    assert woken == ["p1", "r2"]                        # ... two (one more than before), players first
    loop.run_until(0.049)
    assert woken == ["p1", "r2"]                        # the rest a period later
    loop.run_until(0.05)
    assert woken == ["p1", "r2", "r1", "r3"]
    assert pacer.woken == 4 and not pacer.waiting and not pacer.busy


def test_a_late_loop_wakes_fewer_and_an_early_one_more():
    pacer, loop, _ = _pacer(period=0.01, count=8, lag_limit=0.001)
    for i in range(100):
        pacer.request(i, lambda: None)
    loop.run_until(0.0)                                 # on time: 9 woken, one a turn
    assert pacer.count == 9 and pacer.woken == 9
    loop.now = 0.04                                     # the loop comes 30 ms late for the next tick
    loop.turn()
    assert pacer.lag == pytest.approx(0.03)
    assert pacer.count == 9 * 3 // 4 and pacer.busy
    loop.run_until(0.05)                                # the next tick on time: one more again
    assert pacer.lag == pytest.approx(0.0) and pacer.count == 9 * 3 // 4 + 1


def test_a_batch_is_woken_one_app_a_loop_turn():
    """A woken app repaints in its own task on the next turn: waking a batch in one callback
    made one long turn of repaints that a player's key waited behind."""
    pacer, loop, woken = _pacer(period=0.05, count=3, max_count=3, lag_limit=10.0)
    for name in ("a", "b", "c", "d"):
        pacer.request(name, lambda n=name: woken.append(n), high=True)
    seen = []
    for _ in range(5):
        loop.turn()
        seen.append(len(woken))
    assert seen == [1, 2, 3, 3, 3]                      # one more each turn, three this period
    assert woken == ["a", "b", "c"]
    loop.run_until(0.05)
    assert woken == ["a", "b", "c", "d"]                # d the next period


@pytest.mark.parametrize("max_wait, expected", [(0.005, ["p0", "p1", "r", "p2"]),
                                                (1.0, ["p0", "p1", "p2", "p3"])])
def test_a_railbird_waiting_too_long_gets_a_turn_among_players(max_wait, expected):
    pacer, loop, woken = _pacer(period=0.01, count=2, max_count=2, lag_limit=10.0, max_wait=max_wait)
    pacer.request("r", lambda: woken.append("r"))
    for i in range(5):
        pacer.request(f"p{i}", lambda i=i: woken.append(f"p{i}"), high=True)
    loop.run_until(0.0)
    assert woken == ["p0", "p1"]
    loop.run_until(0.01)                                # every third wake: a railbird waiting too long
    assert woken == expected


def test_the_player_whose_decision_it_is_never_waits():
    """Urgent (my decision now): woken on the next loop turn, before the queue and outside the
    budget, even when the pacer is saturated."""
    pacer, loop, woken = _pacer(period=0.05, count=1, max_count=1, lag_limit=10.0)
    for name in ("p1", "p2", "p3"):
        pacer.request(name, lambda n=name: woken.append(n), high=True)
    loop.run_until(0.0)
    assert woken == ["p1"]                              # one a period: p2, p3 wait
    pacer.request("p3", lambda: woken.append("p3!"), urgent=True)
    loop.turn()
    assert woken == ["p1", "p3!"]                       # at once, and out of the queue
    assert pacer.waiting == 1                           # p2 still waits its turn
    assert loop.now == 0.0


def test_a_wake_that_fails_does_not_stall_the_others(caplog):
    pacer, loop, woken = _pacer(period=0.05, count=3, lag_limit=10.0)

    def broken():
        raise RuntimeError("an app torn down")

    pacer.request("a", broken, high=True)
    pacer.request("b", lambda: woken.append("b"), high=True)
    loop.run_until(0.0)
    assert woken == ["b"] and "repaint wake failed" in caplog.text


def test_a_busy_process_wakes_fewer_and_an_idle_one_more():
    """Over `cpu_limit` of a core (a CPU clock that says 'always busy') the pacer cuts its batch;
    under it the batch grows again: the loop keeps idle time for players' own keys."""
    loop = FakeLoop()
    busy = True
    used = [0.0, loop.time()]            # CPU seconds so far, when last read

    def cpu_clock():                     # CPU seconds: all of the clock's time when busy, none when idle
        now = loop.time()
        if busy:
            used[0] += now - used[1]
        used[1] = now
        return used[0]

    pacer = Pacer(period=0.01, count=16, lag_limit=10.0, cpu_limit=0.7, window=0.02, cpu_clock=cpu_clock,
                  clock=loop)
    for i in range(1000):
        pacer.request(i, lambda: None)
    loop.run_until(0.15)
    assert pacer.cpu > 0.7 and pacer.busy
    assert pacer.count < 16
    low = pacer.count
    busy = False
    loop.run_until(0.30)
    assert pacer.cpu < 0.7
    assert pacer.count > low


async def test_without_a_clock_the_pacer_schedules_on_the_running_loop():
    pacer = Pacer()
    woken = asyncio.Event()
    pacer.request("a", woken.set)
    await asyncio.wait_for(woken.wait(), 5)
    assert pacer.woken == 1 and pacer.clock is asyncio.get_running_loop()
