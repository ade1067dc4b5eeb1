"""What a role (a table host, a gateway) says while it waits for its NATS server."""

from __future__ import annotations

import logging
import sys

from cardroom.bus.connection import shown

log = logging.getLogger("cardroom.roles")


def bus_unreachable(nats: str):
    """What a role says, on its terminal and in its log, when its first try of the NATS server
    fails: it waits for it (for ever), and the operator must know what it waits for."""

    def say(error: Exception) -> None:
        text = (f"the NATS server at {shown(nats)} does not answer ({error}): waiting for it. Start"
                " nats-server there, or name yours with --nats URL (or [server] nats in config.toml)")
        log.warning(text)
        print(f"cardroom serve: {text}", file=sys.__stderr__, flush=True)

    return say


__all__ = ["bus_unreachable"]
