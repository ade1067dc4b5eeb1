"""Token buckets for chat lines and input rates, on an injected clock; one per key (per source
address: new connections, new accounts) with BucketsByKey.

    bucket = TokenBucket(rate=0.5, burst=5, now=loop.time)   # 5 lines at once, then one per 2 s
    bucket = TokenBucket.per(5, 10.0, now=loop.time)         # the same: 5 lines per 10 seconds
    if not bucket.allow():
        tell_the_sender("you are typing too fast")

The clock is passed in (`now: Callable[[], float]`, seconds) so the room uses the monotonic loop
clock (`asyncio.get_running_loop().time`, never wall time, which jumps) and tests use a fake one.
A clock that goes backwards mints nothing: the bucket carries on from the new reading. Not thread-safe;
each bucket belongs to one task (a session or a table actor).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from typing import Callable

__all__ = ["TokenBucket", "BucketsByKey", "RateLimitError"]

_EPS = 1e-9   # float refills (0.1 s * 0.5/s ...) must not leave a token at 0.99999999


class RateLimitError(ValueError):
    """Bad bucket parameters."""


class TokenBucket:
    """`burst` tokens at most; refilled at `rate` tokens a second; each `allow(cost)` spends `cost`."""

    __slots__ = ("rate", "burst", "_now", "_tokens", "_last")

    def __init__(self, rate: float, burst: float, now: Callable[[], float]) -> None:
        for name, v in (("rate", rate), ("burst", burst)):
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
                raise RateLimitError(f"{name} must be a positive finite number, not {v!r}")
        if not callable(now):
            raise RateLimitError("now must be a clock function returning seconds")
        self.rate = float(rate)
        self.burst = float(burst)
        self._now = now
        self._tokens = self.burst          # a new bucket starts full
        self._last = float(now())

    @classmethod
    def per(cls, count: float, seconds: float, now: Callable[[], float]) -> TokenBucket:
        """`count` events per `seconds`, all of them allowed at once: chat's 5 lines per 10 s."""
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not seconds > 0 \
                or not math.isfinite(seconds):
            raise RateLimitError(f"seconds must be a positive finite number, not {seconds!r}")
        return cls(count / seconds, count, now)

    def _refill(self) -> None:
        t = float(self._now())
        if t != t:                          # NaN from a broken clock: no refill
            return
        elapsed = t - self._last
        if elapsed > 0:
            self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
            self._last = t
        elif elapsed < 0:
            self._last = t                  # the clock went back: restart from here, mint nothing

    @property
    def tokens(self) -> float:
        """Tokens available now."""
        self._refill()
        return self._tokens

    def allow(self, cost: float = 1.0) -> bool:
        """Spend `cost` tokens if there are that many and say True; otherwise spend nothing."""
        if cost < 0 or cost != cost:
            raise RateLimitError(f"cost must be zero or more, not {cost!r}")
        self._refill()
        if self._tokens + _EPS >= cost:
            self._tokens = max(0.0, self._tokens - cost)
            return True
        return False

    def retry_after(self, cost: float = 1.0) -> float:
        """Seconds until `allow(cost)` would succeed (0.0 if it would now; inf if never)."""
        self._refill()
        if cost > self.burst:
            return math.inf
        short = cost - self._tokens - _EPS
        return 0.0 if short <= 0 else short / self.rate

    def reset(self) -> None:
        """Full again (e.g. a new hand, or an admin lifting a mute)."""
        self._tokens = self.burst
        self._last = float(self._now())

    def __repr__(self) -> str:
        return f"TokenBucket(rate={self.rate:g}/s, burst={self.burst:g}, tokens={self._tokens:.2f})"


class BucketsByKey:
    """A TokenBucket for each key (a source address...), made full on first sight; at most
    `max_keys` remembered, the least recently used forgotten first (forgetting one gives it a full
    bucket again: a key used all the time is never the least recent)."""

    __slots__ = ("rate", "burst", "_now", "max_keys", "_buckets")

    def __init__(self, rate: float, burst: float, now: Callable[[], float], max_keys: int = 4096) -> None:
        TokenBucket(rate, burst, now)           # checks the parameters now, not at the first key
        self.rate, self.burst, self._now, self.max_keys = rate, burst, now, max_keys
        self._buckets: OrderedDict[object, TokenBucket] = OrderedDict()

    def bucket(self, key: object) -> TokenBucket:
        found = self._buckets.pop(key, None)
        if found is None:
            found = TokenBucket(self.rate, self.burst, self._now)
            if len(self._buckets) >= self.max_keys:
                self._buckets.popitem(last=False)
        self._buckets[key] = found
        return found

    def allow(self, key: object, cost: float = 1.0) -> bool:
        return self.bucket(key).allow(cost)

    def __len__(self) -> int:
        return len(self._buckets)
