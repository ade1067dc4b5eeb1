"""The token bucket on a fake clock: bursts, refill, chat's 5 lines per 10 s, clocks that misbehave."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.room.ratelimit import BucketsByKey, RateLimitError, TokenBucket


class Clock:
    def __init__(self, t: float = 1000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


def test_burst_then_refused():
    clock = Clock()
    b = TokenBucket(rate=1.0, burst=3, now=clock)
    assert [b.allow() for _ in range(5)] == [True, True, True, False, False]


def test_refills_at_the_rate_up_to_the_burst():
    clock = Clock()
    b = TokenBucket(rate=2.0, burst=4, now=clock)
    for _ in range(4):
        assert b.allow()
    assert not b.allow()
    clock.advance(0.5)                 # one token
    assert b.allow() and not b.allow()
    clock.advance(3600)                # a long silence refills to the burst, no further
    assert b.tokens == pytest.approx(4)
    assert sum(b.allow() for _ in range(10)) == 4


def test_chat_five_lines_per_ten_seconds():
    clock = Clock()
    chat = TokenBucket.per(5, 10.0, now=clock)
    assert sum(chat.allow() for _ in range(20)) == 5          # a flood: five get through
    clock.advance(1.9)
    assert not chat.allow()
    clock.advance(0.1)                                         # 2 s = one line
    assert chat.allow() and not chat.allow()
    # Steady typing at one line every 2 s is never refused.
    for _ in range(100):
        clock.advance(2.0)
        assert chat.allow()
    # Over any long stretch at most 5 + t/2 lines pass.
    passed = 0
    for _ in range(1000):
        clock.advance(0.1)
        passed += chat.allow()
    assert passed <= 5 + 100 / 2


def test_refused_attempts_cost_nothing():
    clock = Clock()
    b = TokenBucket(rate=1.0, burst=1, now=clock)
    assert b.allow()
    for _ in range(1000):
        assert not b.allow()           # hammering does not push the next token further away
    clock.advance(1.0)
    assert b.allow()


def test_cost_and_retry_after():
    clock = Clock()
    b = TokenBucket(rate=10.0, burst=100, now=clock)     # e.g. input characters
    assert b.allow(60)
    assert not b.allow(60)
    assert b.retry_after(60) == pytest.approx(2.0)
    clock.advance(2.0)
    assert b.retry_after(60) == 0.0 and b.allow(60)
    assert b.retry_after(101) == math.inf
    assert b.allow(0)
    with pytest.raises(RateLimitError):
        b.allow(-1)


def test_clock_going_backwards_mints_nothing():
    clock = Clock(500.0)
    b = TokenBucket(rate=1.0, burst=2, now=clock)
    assert b.allow() and b.allow() and not b.allow()
    clock.t = 100.0                    # a jump back
    assert not b.allow()
    clock.advance(0.5)
    assert not b.allow()
    clock.advance(0.5)                 # one second after the jump: one token
    assert b.allow()


def test_nan_clock_is_ignored():
    clock = Clock()
    b = TokenBucket(rate=1.0, burst=1, now=clock)
    assert b.allow()
    clock.t = float("nan")
    assert not b.allow()


def test_reset():
    clock = Clock()
    b = TokenBucket(rate=0.1, burst=3, now=clock)
    while b.allow():
        pass
    b.reset()
    assert sum(b.allow() for _ in range(5)) == 3


@pytest.mark.parametrize("rate, burst", [(0, 1), (1, 0), (-1, 1), (math.inf, 1), (1, math.nan), (True, 1),
                                         ("1", 1)])
def test_bad_parameters(rate, burst):
    with pytest.raises(RateLimitError):
        TokenBucket(rate, burst, now=Clock())


def test_bad_clock_and_period():
    with pytest.raises(RateLimitError):
        TokenBucket(1, 1, now=5)                          # type: ignore[arg-type]
    with pytest.raises(RateLimitError):
        TokenBucket.per(5, 0, now=Clock())


@settings(max_examples=200, deadline=None)
@given(st.floats(0.1, 50), st.integers(1, 20), st.lists(st.floats(0, 5), max_size=200))
def test_never_more_than_burst_plus_rate_times_elapsed(rate, burst, gaps):
    clock = Clock(0.0)
    b = TokenBucket(rate, burst, now=clock)
    passed = 0
    for g in gaps:
        clock.advance(g)
        passed += b.allow()
    assert passed <= burst + rate * clock.t + 1e-6


def test_buckets_by_key_each_key_has_its_own_and_the_least_recent_is_forgotten():
    clock = Clock()
    by = BucketsByKey(rate=0.5, burst=2, now=clock, max_keys=2)
    assert [by.allow("a") for _ in range(3)] == [True, True, False]
    assert by.allow("b") and by.allow("b")
    clock.advance(2)                                      # one token back for each
    assert by.allow("a") and not by.allow("a")
    assert by.allow("c")                                  # a third key: "b", least recent, is forgotten
    assert len(by) == 2
    assert [by.allow("b") for _ in range(3)] == [True, True, False]     # ... and is full again
    with pytest.raises(RateLimitError):
        BucketsByKey(rate=0, burst=1, now=clock)
