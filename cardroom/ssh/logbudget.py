"""A budget of log lines for each SSH connection, so that no client can fill the log.

asyncssh logs some packets at INFO, one line each: every window-change request, signal and break,
every channel a client opens. A client sending window changes in a loop wrote 18,000 lines in 3 s
(the log rotates, so it would have pushed everything else out of it too). A filter on asyncssh's
logger gives each connection a bucket of lines: a burst of BURST, then PER_SECOND more a second.
Past it, a line says the connection's lines are being dropped, and the first line let through
again says how many were.
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable

BURST = 100            # a login and a session's life take about 20
PER_SECOND = 1.0
TRACKED = 4096         # connections remembered; the one that logged longest ago is forgotten first

_CONNECTION = re.compile(r"\[conn=(\d+)")    # asyncssh's context prefix: "[conn=12, chan=0] ..."


class ConnectionLogBudget(logging.Filter):
    def __init__(self, burst: int = BURST, per_second: float = PER_SECOND,
                 clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.burst, self.per_second, self._clock = burst, per_second, clock
        self._buckets: OrderedDict[str, list[float]] = OrderedDict()   # conn -> [lines left, when, dropped]

    def filter(self, record: logging.LogRecord) -> bool:
        found = _CONNECTION.match(record.msg) if isinstance(record.msg, str) else None
        if found is None:
            return True
        conn, now = found.group(1), self._clock()
        bucket = self._buckets.get(conn)
        if bucket is None:
            bucket = self._buckets[conn] = [float(self.burst), now, 0]
            if len(self._buckets) > TRACKED:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(conn)
            bucket[0] = min(float(self.burst), bucket[0] + (now - bucket[1]) * self.per_second)
            bucket[1] = now
        if bucket[0] >= 1:
            bucket[0] -= 1
            if bucket[2]:
                record.msg = f"{record.msg} (after {bucket[2]:.0f} lines of this connection were dropped)"
                bucket[2] = 0
            return True
        bucket[2] += 1
        if bucket[2] == 1:
            record.msg, record.args = f"[conn={conn}] logging too fast: its lines are dropped for now", ()
            return True
        return False


def install_log_budget() -> None:
    """Put the budget on asyncssh's logger (once; its connection and channel lines log there)."""
    logger = logging.getLogger("asyncssh")
    if not any(isinstance(f, ConnectionLogBudget) for f in logger.filters):
        logger.addFilter(ConnectionLogBudget())
