"""Connecting to NATS: reconnect forever, with backoff, and say so in the log.

    nc = await connect("nats://127.0.0.1:4222", name="cardroom-tables",
                       reconnected=lambda: host.reconnected())   # host = TableHost(room, nc) next

nats-py replays the subscriptions after a reconnect by itself; what it cannot know is what the
other side missed meanwhile (presence, views), so `reconnected` is called to say it again.
The first connection is retried forever too: a table host or a gateway started before NATS
waits for it instead of failing.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

if TYPE_CHECKING:
    # A connection to NATS, as the roles name it (only the bus imports nats).
    from nats.aio.client import Client as Nats

log = logging.getLogger("cardroom.bus")

BACKOFF_FIRST = 0.1         # seconds before the first retry, doubling up to
BACKOFF_MOST = 5.0


def backoff(attempts: int) -> float:
    """Seconds to wait before attempt `attempts` + 1 (jittered, so a room's processes that lost
    the bus together do not come back in step)."""
    return min(BACKOFF_MOST, BACKOFF_FIRST * 2 ** attempts) * random.uniform(0.5, 1.0)


def _choose(servers, _info):
    server = min(servers, key=lambda s: s.reconnects)
    return server, backoff(server.reconnects)


PING_EVERY = 2.0            # seconds between pings of a quiet connection; two unanswered: lost
PINGS_OUT = 2


def shown(url: str) -> str:
    """A NATS URL as it may be printed or logged: its password (or token) left out."""
    parts = urlsplit(url)
    if parts.password is None and not parts.username:
        return url
    user = parts.username if parts.password is not None else "***"    # a lone token: hidden
    netloc = f"{user}{':***' if parts.password is not None else ''}@{parts.hostname or ''}"
    if parts.port is not None:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc))


async def connect(servers: str | list[str], *, name: str,
                  reconnected: Callable[[], Awaitable[None]] | None = None,
                  disconnected: Callable[[], Awaitable[None]] | None = None,
                  unreachable: Callable[[Exception], None] | None = None,
                  connect_timeout: float = 2.0) -> Nats:
    """`disconnected` is called when the connection is lost (then nats-py reconnects), and
    `reconnected` when it is back. A connection cut without a word (a network partition) is found
    lost by its pings within about PING_EVERY * (PINGS_OUT + 1) seconds (nats-py's default
    waits four minutes). `unreachable(error)` is called once if the first try fails (no server
    there, or it refused the user and password): the caller says so, then this keeps waiting."""
    from nats.aio.client import Client

    nc = Client()
    told = [unreachable is None]

    async def on_error(e: Exception) -> None:
        log.warning("NATS (%s): %s", name, e)
        if unreachable is not None and not told[0] and not nc.is_connected:
            told[0] = True
            unreachable(e)

    async def on_disconnected() -> None:
        if not nc.is_closed:
            log.warning("NATS (%s): disconnected; reconnecting", name)
            if disconnected is not None:
                await disconnected()

    async def on_reconnected() -> None:
        log.info("NATS (%s): reconnected", name)
        if reconnected is not None:
            await reconnected()

    # Seconds, some under one: nats-py annotates them int but waits on them as numbers of seconds.
    seconds: dict[str, Any] = dict(
        # The wait between tries of the first connection (reconnections wait what _choose says).
        reconnect_time_wait=1.0, connect_timeout=connect_timeout, ping_interval=PING_EVERY)
    await nc.connect(
        servers, name=name, allow_reconnect=True, max_reconnect_attempts=-1, reconnect_to_server_handler=_choose,
        error_cb=on_error, disconnected_cb=on_disconnected, reconnected_cb=on_reconnected,
        max_outstanding_pings=PINGS_OUT, **seconds)
    told[0] = True      # connected: later troubles are reconnections, logged
    return nc
