"""Who runs the room's store writes: one writer thread, so a write never stalls the loop.

A write can wait: for an fsync, and for the busy timeout while another process holds the
database (an admin's sqlite3 shell, a backup). The room is one asyncio loop serving every
session, so it hands each write to a writer and goes on; the outcome comes back to it on the
loop, in the order the writes were given (one thread: a hand's settlement is always recorded
after its start, a seat's cash-out after its buy-in). Reads stay on the loop: under WAL they
never wait for a writer (see `cardroom.store.sqlite`).

    writer.submit(lambda: store.buy_in(account, table, cents), then)   # then(result, error)
    account = await writer.run(lambda: store.claim(name, key, cents))

`StoreWriter` is the one thread (the server). `InlineWriter` runs each write at once on the
caller's thread: for a process with one user and no loop to keep free (hot-seat, the demo, and
tests driven by a fake clock). The room's code is the same for both.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from typing import Protocol, TypeVar

T = TypeVar("T")
# then(result, None) or then(None, error); what it returns is not used.
Then = Callable[["T | None", "Exception | None"], object]


def log_failure(log: logging.Logger, message: str, *args: object) -> Then[object]:
    """A `then` for a write whose outcome only matters if it failed: `message` % (*args, error)
    to `log`."""
    def then(_: object, error: Exception | None) -> None:
        if error is not None:
            log.error(message, *args, error)
    return then


class Writer(Protocol):
    def submit(self, call: Callable[[], T], then: Then[T]) -> None:
        """Run `call` in turn; then `then(result, None)` or `then(None, error)` on the caller's
        thread (the loop)."""

    async def run(self, call: Callable[[], T]) -> T:
        """Run `call` in turn and return its result (or raise its error)."""

    def close(self) -> None:
        """Wait for the writes already given, then stop (the server's shutdown)."""


class StoreWriter:
    """One thread for every write, in order; outcomes are delivered back on the running loop."""

    def __init__(self) -> None:
        self._pool = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="store-writer")

    def submit(self, call: Callable[[], T], then: Then[T]) -> None:
        loop = asyncio.get_running_loop()

        def deliver(future: concurrent.futures.Future[T]) -> None:
            error = future.exception()
            if error is not None and not isinstance(error, Exception):
                raise error   # SystemExit and the like: not a write's outcome (InlineWriter's neither)
            try:
                loop.call_soon_threadsafe(then, None if error else future.result(), error)
            except RuntimeError:   # the loop has ended: nobody is left to tell (the write stands)
                pass

        self._pool.submit(call).add_done_callback(deliver)

    async def run(self, call: Callable[[], T]) -> T:
        return await asyncio.wrap_future(self._pool.submit(call))

    def close(self) -> None:
        """Wait for the writes already given (a settlement in flight is finished), then stop."""
        self._pool.shutdown(wait=True)


class InlineWriter:
    """Runs each write at once, on the caller's thread (see the module docstring)."""

    def submit(self, call: Callable[[], T], then: Then[T]) -> None:
        try:
            result = call()
        except Exception as e:  # noqa: BLE001 - every error is an outcome, as from the thread
            then(None, e)
        else:
            then(result, None)

    async def run(self, call: Callable[[], T]) -> T:
        return call()

    def close(self) -> None:
        pass


__all__ = ["InlineWriter", "StoreWriter", "Writer"]
