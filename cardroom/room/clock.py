"""Time for the room, injected: the asyncio loop's monotonic clock in production, a fake in tests.

Timers only ever use the monotonic clock (a wall clock that jumps must not fire or stall them);
`wall()` is for what people read (hand-history dates, the daily timeout quota).
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
from datetime import datetime, timedelta, timezone
from typing import Callable, Protocol


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    def now(self) -> float: ...
    def wall(self) -> datetime: ...
    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer: ...


class LoopClock:
    """The running asyncio loop's clock."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None) -> None:
        self._loop = loop

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        return self._loop or asyncio.get_running_loop()

    def now(self) -> float:
        return self.loop.time()

    def wall(self) -> datetime:
        return datetime.now(timezone.utc)

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        return self.loop.call_later(max(0.0, delay), fn)


class _FakeTimer:
    __slots__ = ("when", "fn", "cancelled")

    def __init__(self, when: float, fn: Callable[[], None]) -> None:
        self.when, self.fn, self.cancelled = when, fn, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeClock:
    """A clock for tests: time stands still until `advance(seconds)` fires what falls due, in order."""

    def __init__(self, start: float = 1000.0, wall: datetime | None = None) -> None:
        self._now = start
        self._wall0 = wall or datetime(2026, 11, 29, 12, 0, tzinfo=timezone.utc)
        self._start = start
        self._heap: list[tuple[float, int, _FakeTimer]] = []
        self._seq = itertools.count()

    def now(self) -> float:
        return self._now

    def wall(self) -> datetime:
        return self._wall0 + timedelta(seconds=self._now - self._start)

    def call_later(self, delay: float, fn: Callable[[], None]) -> Timer:
        t = _FakeTimer(self._now + max(0.0, delay), fn)
        heapq.heappush(self._heap, (t.when, next(self._seq), t))
        return t

    def advance(self, seconds: float) -> None:
        end = self._now + seconds
        while self._heap and self._heap[0][0] <= end:
            when, _, t = heapq.heappop(self._heap)
            if t.cancelled:
                continue
            self._now = max(self._now, when)
            t.fn()
        self._now = end

    def run_until(self, predicate: Callable[[], bool], limit: float = 3600.0, step: float = 0.5) -> bool:
        """Advance in steps until `predicate()` holds (True) or `limit` seconds pass (False)."""
        waited = 0.0
        while not predicate():
            if waited >= limit:
                return False
            self.advance(step)
            waited += step
        return True

    @property
    def pending(self) -> int:
        return sum(1 for _, _, t in self._heap if not t.cancelled)
