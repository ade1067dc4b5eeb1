"""When Python's cyclic garbage collector may run in a server holding hundreds of Textual apps.

Each app is a few thousand long-lived objects (DOM nodes, styles, caches). CPython's full (gen-2)
collection walks every tracked object, so with many sessions it became the longest pause the
server had: the ssh benchmark measured 22 full collections of up to 0.87 s each with only 40
sessions, every session frozen meanwhile (and it grows with the number of sessions).

So while sessions are up, whatever survived the young collections is moved out of the
collector's sight (`gc.freeze()`, constant time) shortly after sessions open and then every few
seconds (render caches keep promoting objects to the old generation); young objects are still
collected as usual, and acyclic garbage (most of it: strips, segments) is freed by reference
counting, frozen or not. Cyclic garbage among frozen objects (a closed session's app, mostly:
~23,000 objects, ~4 MB each) waits for a full collection: everything is unfrozen, collected once,
and frozen again. That pause grows with the live heap: 21 s with 1,000 sessions (~4 GB) in the
ssh benchmark, every session frozen meanwhile. So with few sessions (`full_live_limit`) it runs
after `collect_fraction` of them have closed and every `full_every` seconds; with more, only once
as many sessions have closed as are live (the garbage is then as large as the live heap), never
on a timer. Breaking Textual's cycles when a session closes (so that reference counting frees
it) would remove the need; see the closing notes of issue 6.

The automatic full collections are switched off while sessions are up (the third threshold): with
frozen objects CPython's trigger for them (old objects pending > a quarter of those that survived
the last full collection) counts only the small unfrozen part, so it fired every couple of
seconds; the ssh benchmark (150 sessions, 60 s) measured 28 of them, 4.7 s in all, up to 326 ms
each.

Young collections run on a clock (`young_every`, and the middle generation every `middle_every`
of them), not on CPython's count. A young collection's pause is what piled up since the last one,
and most young objects here survive (render caches), so it is pure cost that only its timing can
spread. CPython's trigger (net allocations over the first threshold) undercounts: every
deallocation lowers the count, old objects' included, so while new strips replace old ones the
count stays low and the young generation grows: at 1,000 sessions young collections averaged
5.6 ms and middle ones 24 ms (up to 100 ms; 13% of the server and most of its loop turns over
50 ms, each a wait for every player's key) with thresholds (1,000, 2). On a clock the same work
comes in small pauses. The first threshold stays as a backstop (`thresholds[0]`) for one long
callback that allocates a great deal.
"""

from __future__ import annotations

import asyncio
import gc
import logging

log = logging.getLogger("cardroom.ssh")


class GcPolicy:
    def __init__(self, *, freeze_delay: float = 2.0, freeze_every: float = 5.0, collect_after: int = 50,
                 collect_fraction: float = 0.2, full_every: float = 600.0, full_live_limit: int = 50,
                 young_every: float = 0.025, middle_every: int = 4,
                 thresholds: tuple[int, int, int] = (50_000, 10, 1_000_000)) -> None:
        self.freeze_delay = freeze_delay
        self.freeze_every = freeze_every
        self.full_every = full_every
        self.full_live_limit = full_live_limit      # above it, no timed full collections
        self._last_full: float | None = None     # never yet: the loop's clock starts near boot
        self.collect_after = collect_after          # closed sessions before a full collection ...
        self.collect_fraction = collect_fraction    # ... or this fraction of the live ones
        self.live = 0
        self.closed_since_collect = 0
        self._freeze_handle: asyncio.TimerHandle | None = None
        self._collect_handle: asyncio.Handle | None = None
        self.young_every = young_every
        self.middle_every = middle_every
        self._young_handle: asyncio.TimerHandle | None = None
        self._young_runs = 0
        self.thresholds = thresholds
        self._saved_thresholds: tuple[int, int, int] | None = None   # the interpreter's, restored on close

    def session_opened(self) -> None:
        self.live += 1
        if self._saved_thresholds is None:
            self._saved_thresholds = gc.get_threshold()
            gc.set_threshold(*self.thresholds)
        if self._freeze_handle is None:
            # Not re-armed by every login: a steady stream of logins still freezes every few s.
            self._freeze_handle = asyncio.get_running_loop().call_later(self.freeze_delay, self._freeze)
        if self._young_handle is None:
            self._young_handle = asyncio.get_running_loop().call_later(self.young_every, self._young)

    def session_closed(self) -> None:
        self.live = max(0, self.live - 1)
        self.closed_since_collect += 1
        if self.closed_since_collect >= self.collect_threshold() and self._collect_handle is None:
            self._collect_handle = asyncio.get_running_loop().call_soon(self._collect)

    def collect_threshold(self) -> int:
        """Closed sessions that bring a full collection, at the present number of live ones."""
        if self.live <= self.full_live_limit:
            return max(self.collect_after, int(self.live * self.collect_fraction))
        return max(self.collect_after, self.live)     # the pause is long: only once it frees as much

    def _freeze(self) -> None:
        self._freeze_handle = None
        if not self.live:
            return
        loop = asyncio.get_running_loop()
        if self.live <= self.full_live_limit and (self._last_full is None
                                                  or loop.time() - self._last_full > self.full_every):
            self.collect_now()
        else:
            gc.collect(1)       # young garbage first, so it is not frozen with the rest
            gc.freeze()
        self._freeze_handle = loop.call_later(self.freeze_every, self._freeze)

    def _young(self) -> None:
        """A young collection on the clock; every `middle_every`-th takes the middle one too."""
        self._young_handle = None
        if not self.live:
            return
        self._young_runs += 1
        gc.collect(1 if self._young_runs % self.middle_every == 0 else 0)
        self._young_handle = asyncio.get_running_loop().call_later(self.young_every, self._young)

    def _collect(self) -> None:
        self._collect_handle = None
        freed = self.collect_now()
        log.info("full garbage collection: %d objects freed, %d sessions live", freed, self.live)

    def collect_now(self) -> int:
        self.closed_since_collect = 0
        try:
            self._last_full = asyncio.get_running_loop().time()
        except RuntimeError:
            pass
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        return freed

    def close(self) -> None:
        """The listener closed: stop, and let the collector see everything again."""
        for handle in (self._freeze_handle, self._collect_handle, self._young_handle):
            if handle is not None:
                handle.cancel()
        self._freeze_handle = self._collect_handle = self._young_handle = None
        gc.unfreeze()
        if self._saved_thresholds is not None:
            gc.set_threshold(*self._saved_thresholds)
            self._saved_thresholds = None
