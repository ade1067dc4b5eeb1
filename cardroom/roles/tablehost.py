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

Tournaments (issue 38, "Several processes"): each of config.toml's tournaments is one host's at
a time, as a table is: the host holding the lease `tournaments: NAME` (`spec_lease`) deals every
instance of it and opens the next, and holds each instance's lease `tournament #N` too (the
store fences the instance's writes by it: store/tournaments.py `fence_name`). Which host may
take which: `--tournaments A,B` (default all of config.toml's), as `--tables` gives tables; all
of an instance's tables are its host's, so balancing stays in one process. Claiming a
tournament restores each of its instances the store holds as registering or running from its
last snapshot, its unfinished hands void first (stacks back to their start): the same players,
chips, level and time left, as a one-process room's restart does; an instance whose lease the
dead host renewed a moment later than the tournament's is taken at the next try, and the next
instance is opened once all are. A lost lease drops the tournament here at once (its tables stop
dealing); the store keeps it for the host that takes it.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
import time
from typing import TYPE_CHECKING

from cardroom.bus import codec, subjects
from cardroom.bus.admin import HostAdmin
from cardroom.bus.connection import connect
from cardroom.bus.host import TableHost
from cardroom.config import LEASE_MARGIN, LEASE_RENEW_EVERY
from cardroom.roles.buswait import bus_unreachable
from cardroom.roles.settings import room_settings, table_settings, tournament_table_settings, warm_evaluators
from cardroom.room.clock import LoopClock
from cardroom.room.ports import StoreError
from cardroom.room.room import Room
from cardroom.room.writer import StoreWriter
from cardroom.store.audit import require_balanced
from cardroom.store.leases import Leases
from cardroom.store.postgres import PostgresStore
from cardroom.store.tournaments import fence_name

if TYPE_CHECKING:
    from cardroom.bus.connection import Nats

log = logging.getLogger("cardroom.roles.tables")

# Why a claimed table's hand was void, as its players read it.
WENT_AWAY = "the table host dealing it went away"
OUT_OF_REACH = "the card room's records were out of reach for too long"
STOPPING = "the table host dealing it is stopping"


def void_words(hand_id: str, why: str) -> str:
    return f"Hand #{hand_id} is void ({why}): every player has the stack he began it with back"


def spec_lease(name: str) -> str:
    """The lease of config.toml's tournament `name`: who deals its instances and opens the next."""
    return f"tournaments: {name}"


def host_id() -> str:
    """Unique per process (leases.py: two processes under one id could not be fenced apart)."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class TableHostRole:
    def __init__(self, config, url: str, nats: str, *, tables=None, owner: str | None = None,
                 tournaments=None) -> None:
        self.owner = owner or host_id()
        self.nats = nats
        wanted = set(tables) if tables else None
        self.configs = [t for t in config.tables if wanted is None or t.name in wanted]
        unknown = (wanted or set()) - {t.name for t in self.configs}
        if unknown:
            raise ValueError(f"no table called {', '.join(sorted(unknown))} in the config")
        cups = set(tournaments) if tournaments else None
        self.specs = {s.name: s for s in config.tournaments if cups is None or s.name in cups}
        unknown = (cups or set()) - self.specs.keys()
        if unknown:
            raise ValueError(f"no tournament called {', '.join(sorted(unknown))} in the config")
        warm_evaluators(config)
        self.store = PostgresStore(url, lease_owner=self.owner)
        require_balanced(self.store)
        self.leases = Leases(self.store)
        self.writer = StoreWriter()
        self.room = Room([], self.store, LoopClock(), settings=room_settings(config), writer=self.writer,
                         tournaments=self.specs.values(), tournament_table=tournament_table_settings(config))
        self.room.tournaments.opened = self._opened
        self._settings = {t.name: table_settings(config, t) for t in self.configs}
        self.cups: dict[str, set[int]] = {}    # tournament held -> its instances waiting for their lease
        self.cup_leases: set[str] = set()       # the leases of the tournaments held and their instances
        self.opened: set[str] = set()           # tournaments held whose instances are all restored here
        self.held: set[str] = set()
        self.fenced: set[str] = set()  # tables (tournaments' leases) it stopped dealing for want of its database
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
        # Every table of the room is this host's (a fenced one left it): its cash tables held, and
        # its tournaments' tables, followed as they open and break.
        self.host = TableHost(self.room, self.nc)
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
                if (self.held or self.cups) and time.monotonic() - self.renewed_at > self.ttl - LEASE_MARGIN:
                    self.fence(set(self.held))
                    await self.drop(set(self.cups))
                    await self._restart_host()
                sent = time.monotonic()
                asked = set(self.cup_leases)       # one claimed meanwhile (a new instance) is not lost
                mine = await asyncio.wait_for(self._off(self.leases.renew, self.owner, self.ttl), LEASE_MARGIN)
                self.renewed_at = sent
                lost = self.held - mine
                if lost:
                    self.fence(lost)
                    await self._restart_host()
                if (asked & self.cup_leases) - mine:
                    await self.drop(self._cups_of((asked & self.cup_leases) - mine))
                await self.claim_free()
                await self.claim_tournaments()
            except (StoreError, TimeoutError) as e:   # the database away: the margin decides
                log.warning("lease renewal failed: %s", e)
            except Exception:  # noqa: BLE001 - the loop goes on: ended, it would never renew or claim again
                log.exception("the lease loop")
            try:
                await asyncio.wait_for(self.stop.wait(), LEASE_RENEW_EVERY)
            except TimeoutError:
                pass

    # ------------------------------------------------------------------ tournaments
    def _opened(self, number: int) -> None:
        """A new instance of a tournament held here (the room's tournaments just made it): its
        lease before anything of it is written (on the loop: the store's write made it there)."""
        try:
            token = self.leases.claim(self.owner, fence_name(number), self.ttl)
        except StoreError as e:       # the lease loop claims it at its next turn (`claim_tournaments`)
            log.warning("tournament #%d: its lease could not be claimed yet: %s", number, e)
            return
        if token is None:             # not ours: its writes are refused
            log.error("tournament #%d: another host holds its lease", number)
            return
        self.cup_leases.add(fence_name(number))

    def _cups_of(self, leases) -> set[str]:
        """The tournaments held whose leases are among `leases`."""
        numbers = {t.number: t.spec.name for t in self.room.tournaments.all()}
        out = {n for n in self.cups if spec_lease(n) in leases}
        for lease in leases:
            if lease.startswith("tournament #") and lease[12:].isdigit() and int(lease[12:]) in numbers:
                out.add(numbers[int(lease[12:])])
        return out

    async def drop(self, names) -> None:
        """Stop dealing the tournaments `names` here at once (their leases lost, or may be): what
        the store holds of them is the next host's; any of their leases still ours goes."""
        for name in names:
            log.error("%s lost tournament %s: it stops dealing here", self.owner, name)
            numbers = [t.number for t in self.room.tournaments.all() if t.spec.name == name]
            self.room.tournaments.drop(name)
            self.cups.pop(name, None)
            self.opened.discard(name)
            self.fenced.add(spec_lease(name))     # its hands cut off are void when it is claimed again
            for lease in [spec_lease(name), *map(fence_name, numbers)]:
                if lease in self.cup_leases:
                    self.cup_leases.discard(lease)
                    try:
                        await self._off(self.leases.release, self.owner, lease)
                    except StoreError as e:   # the database away: the lease runs out by itself
                        log.warning("releasing %s: %s", lease, e)

    def _instances(self, name: str) -> list:
        return [r for r in self.store.tournaments(("registering", "running")) if r.name == name]

    def _take_instance(self, number: int) -> list | None:
        """Claim instance `number` and void its hands a crash cut off: their ids and players,
        or None (its lease is not free yet)."""
        if self.leases.claim(self.owner, fence_name(number), self.ttl) is None:
            return None
        voided = self.store.void_unfinished_hands(tournament=number)
        return [(h, [s.account_id for s in record.seats]) for h in voided
                if (record := self.store.get_hand(h)) is not None]

    async def claim_tournaments(self) -> None:
        """Claim every tournament of this host's that no live lease holds, and the instances of
        those held still waiting for theirs: each restored where the store has it."""
        changed = False
        for name in self.specs:
            if name not in self.cups and not await self._claim_tournament(name):
                continue
            changed |= await self._restore_waiting(name)
            if not self.cups[name] and name not in self.opened:
                self.opened.add(name)          # once: its next ones open as the last starts or ends
                changed |= self.room.tournaments.open_next(name) is not None
        for t in self.room.tournaments.all():    # dealt here, its lease's claim failed as it opened
            lease = fence_name(t.number)
            if lease not in self.cup_leases and not t.over:
                if await self._off(self.leases.claim, self.owner, lease, self.ttl) is not None:
                    self.cup_leases.add(lease)
        await self._release_over()
        if changed and self.host is not None:   # the gateways say who is online: those seated here are connected
            await self.host.publish(subjects.PRESENCE_ASK, codec.dumps({"h": self.host.epoch}))

    async def _claim_tournament(self, name: str) -> bool:
        """Tournament `name`'s lease, if free: its instances in the store wait for theirs."""
        sent = time.monotonic()
        if await self._off(self.leases.claim, self.owner, spec_lease(name), self.ttl) is None:
            return False
        self.renewed_at = max(self.renewed_at, sent)
        self.cup_leases.add(spec_lease(name))
        self.cups[name] = {r.id for r in await self._off(self._instances, name)}
        log.info("%s holds tournament %s (%d instance(s) to restore)", self.owner, name, len(self.cups[name]))
        return True

    async def _restore_waiting(self, name: str) -> bool:
        """Each instance of `name` waiting for its lease whose lease is free now: claimed, its
        hands cut off void (its players told), restored. True if any was."""
        waiting, restored = self.cups[name], False
        why = OUT_OF_REACH if spec_lease(name) in self.fenced else WENT_AWAY
        for number in sorted(waiting):
            voided = await self._off(self._take_instance, number)
            if voided is None:
                continue
            self.cup_leases.add(fence_name(number))
            waiting.discard(number)
            record = await self._off(self.store.tournament, number)
            if record is None or record.state not in ("registering", "running"):
                continue
            t = self.room.tournaments.restore(record)
            restored = True
            if voided:
                log.warning("tournament #%d: voided %d hand(s) (%s): %s", number, len(voided), why,
                            ", ".join(h for h, _ in voided))
            for hand_id, accounts in voided:
                text = void_words(hand_id, why)
                for table in (t.tables.values() if t is not None else ()):
                    table.say(text, "system", "Table")
                    table.changed()
                for account in accounts:
                    if self.host is not None:
                        await self.host.page(account, f"{name}: {text}")
        if not waiting:
            self.fenced.discard(spec_lease(name))
        return restored

    async def _release_over(self) -> None:
        """The lease of an instance no longer dealt here (over, and replaced in the lobby by the
        next one over) goes: nothing of it is written again."""
        numbers = {t.number for t in self.room.tournaments.all()}
        for lease in sorted(self.cup_leases):
            number = lease[len("tournament #"):]
            if lease.startswith("tournament #") and number.isdigit() and int(number) not in numbers:
                self.cup_leases.discard(lease)
                await self._off(self.leases.release, self.owner, lease)

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
        for cup in self.room.tournaments.live.values():
            for t in cup.tables.values():
                t.say("This table's host is stopping: the tournament goes on with another host, where"
                      " it was (a hand in progress is void there)", "system", "Tournament")
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
        await self.claim_tournaments()
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
        self.room.tournaments.stop()
        # Stepping down: unfinished hands void (stacks back), chips back to the accounts, then
        # the leases free for anyone at once.
        await self._off(self._void_mine, sorted(self.held))
        for name in sorted(self.held):
            await self._off(self._cash_out_all, name)
            await self._off(self.leases.release, self.owner, name)
        # A tournament's hands in progress are void where it is taken next (its snapshot is the
        # last hand's end): its leases go, for another host to take it at once.
        for lease in sorted(self.cup_leases):
            await self._off(self.leases.release, self.owner, lease)
        if self.nc is not None:
            await self.nc.close()
        self.writer.close()
        self.store.close()
