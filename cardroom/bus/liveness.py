"""Who is still there: the heartbeats of gateways and table hosts on the bus.

    cr.gateway.hb   {"g": gateway id, "n": its sessions}     from each Gateway, every second
    cr.host.hb      {"h": host epoch, "tables": [names]}     from each TableHost, every second

A process killed with SIGKILL says nothing; only its silence tells. So:
- a table host takes the remote sessions of a gateway it has not heard for GATEWAY_LOST seconds
  offline: their seats are marked disconnected, as a dropped connection is in one process (the
  disconnect rules of seed 000 apply), until the player comes back through another gateway. Only
  while the host is on the bus itself: a host that lost the bus hears nobody, through no fault of
  theirs; it stops its tables' clocks meanwhile (bus/host.py), and once back gives the gateways
  the time to come back too (they reconnect as it did) before it judges them again;
- a gateway shows a table whose host it has not heard for HOST_SILENT seconds as reconnecting,
  until a host (restarted, or another that took the table) is heard serving it again.
A session's id starts with its gateway's id (`session_id`), so a host knows whose it is.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Hashable, Iterable

from cardroom.bus import codec

log = logging.getLogger("cardroom.bus.liveness")

HEARTBEAT_EVERY = 1.0
GATEWAY_LOST = 5.0
HOST_SILENT = 3.0
_SEP = "."


def session_id(gateway: str) -> str:
    return f"{gateway}{_SEP}{secrets.token_hex(8)}"


def gateway_of(sid: str) -> str:
    return sid.rpartition(_SEP)[0]


class Heard:
    """When each sender (a gateway, a table) was last heard from, on the monotonic clock."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self._at: dict[Hashable, float] = {}

    def hear(self, keys: Iterable[Hashable]) -> None:
        now = self.clock()
        for key in keys:
            self._at[key] = now

    def silent(self, key: Hashable, after: float) -> bool:
        """Heard once, and not for `after` seconds (never heard: nothing to say of it)."""
        at = self._at.get(key)
        return at is not None and self.clock() - at > after

    def heard_all(self, later: float = 0.0) -> None:
        """Count every sender as heard `later` seconds from now (the listener itself was away: a
        sender's silence meanwhile says nothing of it)."""
        at = self.clock() + later
        for key in self._at:
            self._at[key] = at

    def lost(self, after: float) -> list:
        """The senders silent for `after` seconds, forgotten (each is reported once)."""
        now = self.clock()
        gone = [k for k, at in self._at.items() if now - at > after]
        for k in gone:
            del self._at[k]
        return gone


async def beat(nc, subject: str, payload: Callable[[], dict], running: Callable[[], bool]) -> None:
    """Publish `payload()` on `subject` every HEARTBEAT_EVERY seconds while `running()`."""
    while running():
        try:
            await nc.publish(subject, codec.dumps(payload()))
        except Exception as e:  # noqa: BLE001 - NATS away: it reconnects by itself
            log.debug("heartbeat on %s: %s", subject, e)
        await asyncio.sleep(HEARTBEAT_EVERY)

