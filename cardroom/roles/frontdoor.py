"""What every way of serving a room (`cardroom serve`, each gateway) asks at the SSH front door
besides who owns a name: the server's limits that config.toml sets, the bound on the accounts one
address may make, what a banned key is told as it tries to log in, and the extras (hand histories,
an admin key's commands over exec)."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from cardroom.config import RoomConfig
from cardroom.room.ratelimit import BucketsByKey
from cardroom.room.text import clean_name, clean_text
from cardroom.ssh import Limits, SessionRefused, source_of

if TYPE_CHECKING:
    from cardroom.admin.commands import AdminContext
    from cardroom.store.sqlite import SqliteStore

log = logging.getLogger(__name__)


def ssh_limits(config: RoomConfig):
    """The SSH server's limits that config.toml's [server] sets (the rest keep Limits' defaults)."""
    s = config.server
    return Limits(max_connections=s.max_connections, max_per_ip=s.max_per_ip, login_timeout=s.login_timeout,
                  connect_burst=s.connect_burst, connects_per_second=s.connects_per_second)


def ban_message(store: SqliteStore, fingerprint: str) -> str:
    """What a banned key is told as it tries to log in: the words of a banned player's session."""
    reason = next((b.reason for b in store.bans() if b.fingerprint == fingerprint), "")
    reason = clean_text(reason, 200)
    return "You are banned from the card room" + (f": {reason}" if reason else "")


def new_account_gate(config: RoomConfig, store: SqliteStore):
    """`check(info)` before a login: raises SessionRefused, saying why, when it would make a new
    account (a new name with a new key, or a guest's new name) and the player's address (an IPv4
    address or an IPv6 /64) has made [server] new_accounts_per_ip of them in new_accounts_hours.
    Every new account is starting_money from nowhere: without a bound, a script with fresh keys
    could claim names and money for ever. Counted by this process (a restart forgets)."""
    s = config.server
    allowed = BucketsByKey(s.new_accounts_per_ip / (s.new_accounts_hours * 3600.0), s.new_accounts_per_ip,
                           time.monotonic)

    def check(info) -> None:
        name, fingerprint = clean_name(info.username), info.key_fingerprint
        if store.find(name) is not None or (fingerprint and store.account_for_key(fingerprint) is not None):
            return
        source = source_of(info.peer_address)
        if not allowed.allow(source):
            log.info("refused a new account %r from %s: %d new accounts in %g hours", name, source,
                     s.new_accounts_per_ip, s.new_accounts_hours)
            raise SessionRefused(f"New accounts from your address are limited to {s.new_accounts_per_ip} "
                                 f"every {s.new_accounts_hours:g} hours, and that many were made: log in "
                                 "with an account you already have, or try again later.")

    return check


def extras(store: SqliteStore, config: RoomConfig, context: Callable[[str], AdminContext],
           summaries: Callable[[Any, int], dict] | None = None):
    """What the SSH server opens besides the screen: players' own hand histories (read-only), with
    their tournament summaries where the room deals tournaments (`summaries`: (store, account) ->
    {day: {file: text}}), and admin commands over exec for the admin keys of config.toml, each run
    in `context(fingerprint)` as the panel runs them (the same checks, the key's fingerprint in the
    ledger). One process and every gateway alike: the context says over which room."""
    from cardroom.admin.commands import COMMANDS, execute
    from cardroom.ssh.extras import Extras

    admins = set(config.server.admins)

    def admin(fingerprint: str):
        if fingerprint not in admins:
            return None
        ctx = context(fingerprint)

        async def run(line: str):
            result = await execute(ctx, line)
            return result.ok, result.lines

        return run

    if summaries is None:
        return Extras(store, admin, frozenset(COMMANDS))
    return Extras(store, admin, frozenset(COMMANDS), summaries)


__all__ = ["ban_message", "extras", "new_account_gate", "ssh_limits"]
