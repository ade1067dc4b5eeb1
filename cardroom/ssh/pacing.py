"""Pacing of room-driven repaints when one process serves many sessions.

A table action wakes every screen at the table (players and railbirds), and every screen then
re-reads its view and repaints (~10 ms each at 100x30): with hundreds of sessions the loop
queued far more repaints than it could do, and a player's own keypress waited behind all of
them (the ssh benchmark: p99 key -> own screen 3.9 s at 200 sessions). A `Pacer` (one per
server) takes the "something changed" signals instead: every `period` it wakes at most `count`
apps, one a loop turn, seated players before railbirds, and folds repeated signals for an app
still waiting into one; railbirds who have waited `max_wait` seconds get a third of the wakes even while
players keep asking. `count` adapts (cut by a quarter, else one more each period) to the loop's
lag and to the process's CPU use: above `cpu_limit` of a core over the last `window` seconds the
pacer wakes fewer, so the loop keeps idle time for what a player's own key does (that path does
not go through the pacer) instead of running flat out on other people's repaints. So a busy
server delays and coalesces what others see, never what a player's own key does, nor the turn
of the player whose decision it now is (urgent: woken at once). Apps not hosted by the SSH
server (tests, hot-seat) have no pacer and repaint on every signal (tui/hosting.py NoHosting).

Time and scheduling come from `clock`, the running asyncio loop unless one is given (tests give
a fake one and step it turn by turn: nothing here waits on real time).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any, Protocol

log = logging.getLogger("cardroom.ssh")


class Handle(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """What the pacer needs of time: the asyncio loop's own `time`, `call_at` and `call_soon`
    (so the loop is one as it is). `call_soon` runs on the next loop turn, which is what spreads
    a batch of wakes over turns; a fake clock must keep that order."""

    def time(self) -> float: ...

    def call_at(self, when: float, callback: Callable[..., Any], *args: Any) -> Handle: ...

    def call_soon(self, callback: Callable[..., Any], *args: Any) -> Handle: ...


class Pacer:
    def __init__(self, *, period: float = 0.05, count: int = 8, max_count: int = 200,
                 lag_limit: float = 0.04, max_wait: float = 2.0, cpu_limit: float = 0.7,
                 window: float = 0.5, cpu_clock: Callable[[], float] = time.process_time,
                 clock: Clock | None = None) -> None:
        self._clock = clock     # None: the running loop, looked up when needed
        self.max_wait = max_wait
        self.period = period
        self.count = count
        self.max_count = max_count
        self.lag_limit = lag_limit
        self.lag = 0.0
        self.cpu_limit = cpu_limit
        self.window = window
        self.cpu = 0.0          # share of a core this process used over the last window
        self._cpu_clock = cpu_clock
        self._cpu_mark: tuple[float, float] | None = None     # (loop time, cpu time)
        self.woken = 0          # apps woken in all (the ssh benchmark reports it)
        self._high: OrderedDict[Hashable, Callable[[], None]] = OrderedDict()
        self._low: OrderedDict[Hashable, Callable[[], None]] = OrderedDict()
        self._since: dict[Hashable, float] = {}       # low: when first asked
        self._turn = 0
        self._handle: Handle | None = None
        self._due = 0.0

    @property
    def clock(self) -> Clock:
        return self._clock or asyncio.get_running_loop()

    @property
    def waiting(self) -> int:
        return len(self._high) + len(self._low)

    @property
    def busy(self) -> bool:
        """Repaints wait their turn: optional ones (a railbird's clock tick) may skip."""
        return bool(self._low) or bool(self._high) or self.lag > self.lag_limit or self.cpu > self.cpu_limit

    def request(self, key: Hashable, wake: Callable[[], None], *, high: bool = False,
                urgent: bool = False) -> None:
        """Call `wake()` soon (once, however often asked before then); `high` goes first.
        `urgent` (a player whose decision it now is) does not wait at all: woken on the next loop
        turn, outside the budget. At 1,000 sessions the budget let ~25 apps a second through and
        more than half of the deciding players' keys met a screen that did not show their turn
        yet (the benchmark's retries: 258 of 464 keys); there are only as many of these as there
        are decisions."""
        if urgent:
            self.forget(key)
            self.woken += 1
            self.clock.call_soon(self._wake_one, wake)
            return
        if high:
            if self._low.pop(key, None) is not None:
                self._since.pop(key, None)
            self._high[key] = wake
        elif key not in self._high:
            if key not in self._low:
                self._since[key] = self.clock.time()
            self._low[key] = wake
        if self._handle is None:
            # An idle pacer wakes at once (on the next loop turn); a busy one every period.
            clock = self.clock
            self._due = clock.time() + (self.period if self.lag > self.lag_limit else 0.0)
            self._handle = clock.call_at(self._due, self._run)

    @staticmethod
    def _wake_one(wake: Callable[[], None]) -> None:
        try:
            wake()
        except Exception:       # one app's failure must not stall the others
            log.exception("repaint wake failed")

    def forget(self, key: Hashable) -> None:
        self._high.pop(key, None)
        self._low.pop(key, None)
        self._since.pop(key, None)

    def _run(self) -> None:
        self._handle = None
        now = self.clock.time()
        self.lag = now - self._due
        self._measure_cpu(now)
        if self.lag > self.lag_limit or self.cpu > self.cpu_limit:
            self.count = max(1, self.count * 3 // 4)
        else:
            self.count = min(self.max_count, self.count + 1)
        self._next(self.count)

    def _next(self, allowance: int) -> None:
        """Wake one app, and the next on the following loop turn while `allowance` lasts; then
        wait for the next period. One a turn: a woken app re-reads the room and repaints
        (~10-15 ms) in its own task on the next turn, so a batch woken at once made one long turn
        (the ssh benchmark: 50-100 ms turns at 150 sessions) that a player's key waited behind."""
        self._handle = None
        clock = self.clock
        queue = self._high or self._low
        if queue:
            self._turn += 1
            if self._high and self._low and self._turn % 3 == 0:
                oldest = next(iter(self._low))
                now = clock.time()
                if now - self._since.get(oldest, now) > self.max_wait:
                    queue = self._low          # a railbird waited too long: its turn
            key, wake = queue.popitem(last=False)
            self._since.pop(key, None)
            self.woken += 1
            self._wake_one(wake)
        if self._high or self._low:
            if allowance > 1:
                self._handle = clock.call_soon(self._next, allowance - 1)
            else:
                self._due = clock.time() + self.period
                self._handle = clock.call_at(self._due, self._run)

    def _measure_cpu(self, now: float) -> None:
        """Update `cpu`: the process's CPU seconds per wall second over the last window."""
        cpu_now = self._cpu_clock()
        mark = self._cpu_mark
        if mark is None or now - mark[0] > 4 * self.window:
            self._cpu_mark = (now, cpu_now)     # first run, or idle for a while: start again
            self.cpu = 0.0
        elif now - mark[0] >= self.window:
            self.cpu = (cpu_now - mark[1]) / (now - mark[0])
            self._cpu_mark = (now, cpu_now)
