"""`cardroom serve --role tables`: a table host. It deals the tables it holds leases on
(`cardroom.store.leases`) and serves them over NATS (`cardroom.bus.host.TableHost`).

The lease loop renews every LEASE_RENEW_EVERY seconds with a time to live of [server]
lease_seconds (config.py sizes it from database_outage_seconds); a table whose last successful
renewal is older than that less LEASE_MARGIN (measured from when it was sent, on the monotonic
clock) is fenced at once: its table stops dealing here (self-fence), and the store's own fence
refuses any write the host might still try. So a database away for database_outage_seconds
fences nothing and voids no hand, and a dead host's tables are dealt again by a live host within
takeover_seconds. Its TableHost publishes the heartbeat gateways tell a silent host from a quiet
table by (bus/liveness.py).

A hand void when a table is claimed (its host died, or this host lost the database for longer
than it rides out) is told to everyone at the table: which hand, why, and that every stack is
back; so is one voided as this host stops.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING

from cardroom.bus.admin import HostAdmin
from cardroom.bus.connection import connect
from cardroom.bus.host import TableHost
from cardroom.config import LEASE_MARGIN, LEASE_RENEW_EVERY
from cardroom.roles.buswait import bus_unreachable
from cardroom.roles.settings import room_settings, table_settings, warm_evaluators
from cardroom.room.clock import LoopClock
from cardroom.room.ports import StoreError
from cardroom.room.room import Room
from cardroom.room.writer import StoreWriter
from cardroom.store.audit import require_balanced
from cardroom.store.leases import Leases
from cardroom.store.postgres import PostgresStore

if TYPE_CHECKING:
    from cardroom.bus.connection import Nats

log = logging.getLogger("cardroom.roles.tables")

# Why a claimed table's hand was void, as its players read it.
WENT_AWAY = "the table host dealing it went away"
OUT_OF_REACH = "the card room's records were out of reach for too long"
STOPPING = "the table host dealing it is stopping"


def void_words(hand_id: str, why: str) -> str:
    return f"Hand #{hand_id} is void ({why}): every player has the stack he began it with back"


def host_id() -> str:
    """Unique per process (leases.py: two processes under one id could not be fenced apart)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class TableHostRole:
    def __init__(self, config, url: str, nats: str, *, tables=None, owner: str | None = None) -> None:
        self.owner = owner or host_id()
        self.nats = nats
        wanted = set(tables) if tables else None
        self.configs = [t for t in config.tables if wanted is None or t.name in wanted]
        unknown = (wanted or set()) - {t.name for t in self.configs}
        if unknown:
            raise ValueError(f"no table called {', '.join(sorted(unknown))} in the config")
        warm_evaluators(config)
        self.store = PostgresStore(url, lease_owner=self.owner)
        require_balanced(self.store)
        self.leases = Leases(self.store)
        self.writer = StoreWriter()
        self.room = Room([], self.store, LoopClock(), settings=room_settings(config), writer=self.writer)
        self._settings = {t.name: table_settings(config, t) for t in self.configs}
        self.held: set[str] = set()
        self.fenced: set[str] = set()  # tables this host stopped dealing for want of its database
        self.on_bus = True             # False while NATS is away (its tables' clocks are held)
        self.ttl = config.server.lease_seconds
        self.renewed_at = 0.0          # monotonic time the last successful renewal was sent
        self.nc: Nats | None = None
        self.host: TableHost | None = None
        self.admin: HostAdmin | None = None
        self.stop = asyncio.Event()
        self._tasks: list[asyncio.Task] = []

    async def _off(self, call, *args):
        return await self.writer.run(lambda: call(*args))

    # ------------------------------------------------------------------ leases
    def _cash_out_all(self, table: str) -> list:
        """Every chip on `table` back to its owner's balance; the holdings that were there."""
        held = self.store.table_holdings(table)
        for h in held:
            if h.chips_cents:
                self.store.cash_out(h.account_id, table, h.chips_cents)
        return held

    async def _take_over(self, table: str) -> None:
        """A table just claimed: its chips go back to their owners (on the writer thread) and each
        owner is seated again (on the loop, where the table lives) at his seat with the same chips:
        money-neutral, the ledger shows both moves. He is marked disconnected until his session
        finds the seat through the bus. A stack the table's limits no longer allow stays in the
        owner's balance."""
        held = await self._off(self._cash_out_all, table)
        names = {a.id: a.name for a in await self._off(self.store.accounts)}
        t = self.room.tables[table]
        for h in held:
            if not h.chips_cents or h.account_id not in names:
                continue
            try:
                t.sit(h.account_id, names[h.account_id], h.seat)
                t.buy_in(h.account_id, h.chips_cents)
                t.set_connected(h.account_id, False)
            except Exception as e:  # noqa: BLE001 - the chips are safe in the balance
                log.warning("table %s: could not seat account %d again: %s", table, h.account_id, e)
                seat = t.seat_of(h.account_id)
                if seat is not None and not seat.table_chips:
                    t.leave(h.account_id)
        t.changed()       # not a player's intent (whose handler would tell the watchers): told here

    async def claim_free(self) -> None:
        """Claim every table of this host's that no live lease holds; the host serves them all
        (restarted once, whatever it claimed)."""
        claimed = []
        for name in self._settings:
            if name in self.held:
                continue
            sent = time.monotonic()
            token = await self._off(self.leases.claim, self.owner, name, self.ttl)
            if token is None:
                continue
            # The table's hand a dead host was dealing is void (stacks back), under this lease;
            # the other tables' live hands are their hosts' own.
            voided = await self._off(self._void_mine, [name])
            why = OUT_OF_REACH if name in self.fenced else WENT_AWAY
            self.fenced.discard(name)
            if voided:
                log.warning("table %s: voided %d hand(s) (%s): %s", name, len(voided), why,
                            ", ".join(h for h, _ in voided))
            if name not in self.room.tables:
                self.room.add_table(self._settings[name])
            await self._take_over(name)
            self.held.add(name)
            self.renewed_at = max(self.renewed_at, sent)
            log.info("%s holds table %s (token %d)", self.owner, name, token)
            claimed.append((name, voided, why))
        if claimed:
            await self._restart_host()
        for name, voided, why in claimed:
            await self._tell_void(name, voided, why)

    def _void_mine(self, tables) -> list[tuple[str, list[int]]]:
        """The unfinished hands of `tables` void; each one's id and the accounts dealt in it."""
        try:
            voided = self.store.void_unfinished_hands(tables)
            return [(h, [s.account_id for s in record.seats]) for h in voided
                    if (record := self.store.get_hand(h)) is not None]
        except Exception as e:  # noqa: BLE001 - a hand of a table another host holds is fenced
            log.warning("voiding unfinished hands: %s", e)
            return []

    async def _tell_void(self, name: str, voided, why: str) -> None:
        """Everyone at the table reads which hand is void, why, and that the stacks are back (a
        line at the table; a page to each player dealt in, wherever he is logged in)."""
        t = self.room.tables.get(name)
        for hand_id, accounts in voided:
            text = void_words(hand_id, why)
            if t is not None:
                t.say(text, "system", "Table")
                t.changed()
            for account in accounts:
                await self.serving.page(account, f"{name}: {text}")

    @property
    def serving(self) -> TableHost:
        """The host of the tables held (start() makes it; a claim remakes it)."""
        if self.host is None:
            raise RuntimeError("the table host role has not started")
        return self.host

    async def _restart_host(self) -> None:
        if self.host is not None:
            if self.admin is not None:
                await self.admin.close()
            await self.host.stop()
        live = [n for n in self.held if n in self.room.tables]
        self.host = TableHost(self.room, self.nc, tables=live)
        await self.host.start()
        if not self.on_bus:
            self.host.bus_lost()       # claimed while the bus is away: its clocks wait for it too
        self.admin = HostAdmin(self.host, stop=self.stop.set)   # a shutdown countdown ends this process
        await self.admin.start()

    def fence(self, tables) -> None:
        """Stop acting for `tables` at once (the lease is, or may be, another host's now)."""
        for name in tables:
            log.error("%s lost table %s: it stops dealing here", self.owner, name)
            self.room.tables.pop(name).stop()   # a new tenure deals on a fresh table
            self.held.discard(name)
            self.fenced.add(name)

    async def lease_loop(self) -> None:
        while not self.stop.is_set():
            try:
                if self.held and time.monotonic() - self.renewed_at > self.ttl - LEASE_MARGIN:
                    self.fence(set(self.held))
                    await self._restart_host()
                sent = time.monotonic()
                mine = await asyncio.wait_for(self._off(self.leases.renew, self.owner, self.ttl), LEASE_MARGIN)
                self.renewed_at = sent
                lost = self.held - mine
                if lost:
                    self.fence(lost)
                    await self._restart_host()
                await self.claim_free()
            except (StoreError, TimeoutError) as e:   # the database away: the margin decides
                log.warning("lease renewal failed: %s", e)
            except Exception:  # noqa: BLE001 - the loop goes on: ended, it would never renew or claim again
                log.exception("the lease loop")
            try:
                await asyncio.wait_for(self.stop.wait(), LEASE_RENEW_EVERY)
            except TimeoutError:
                pass

    async def _farewell(self) -> None:
        """Stopping: everyone at this host's tables reads that their chips go back to their
        balances, and which hand in progress is void (sent before the host stops serving)."""
        for name in sorted(self.held):
            t = self.room.tables.get(name)
            if t is None:
                continue
            if t.hand is not None and not t.hand.over:
                text = void_words(t.hand_id, STOPPING)
                t.say(text, "system", "Table")
                for account in t.hand_accounts:
                    await self.serving.page(account, f"{name}: {text}")
            t.say("This table's host is stopping: every chip on the table goes back to its owner's"
                  " balance", "system", "Table")
            t.changed()
        await self.serving.flush()

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        async def reconnected():
            self.on_bus = True
            if self.host is not None:
                await self.host.reconnected()

        async def disconnected():
            self.on_bus = False
            if self.host is not None:
                self.host.bus_lost()

        self.nc = await connect(self.nats, name=f"cardroom-tables-{self.owner}", reconnected=reconnected,
                                unreachable=bus_unreachable(self.nats),
                                disconnected=disconnected)
        await self.claim_free()
        if self.host is None:
            await self._restart_host()
        self._tasks = [asyncio.create_task(self.lease_loop())]

    async def shutdown(self) -> None:
        self.stop.set()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.host is not None:
            await self._farewell()
            if self.admin is not None:
                await self.admin.close()
            await self.host.stop()
        self.room.stop_tables()
        # Stepping down: unfinished hands void (stacks back), chips back to the accounts, then
        # the leases free for anyone at once.
        await self._off(self._void_mine, sorted(self.held))
        for name in sorted(self.held):
            await self._off(self._cash_out_all, name)
            await self._off(self.leases.release, self.owner, name)
        if self.nc is not None:
            await self.nc.close()
        self.writer.close()
        self.store.close()
