"""`RemoteClient`: the RoomClient of a room whose tables are served by table hosts over NATS, and
the `Gateway` that makes them.

    gateway = Gateway(nc, store, tables=[t.name for t in config.tables])
    await gateway.start()
    client = await gateway.login("alice", fingerprint)     # a RoomClient (cardroom.room.client)
    ...
    await gateway.close()

The gateway holds no table state. What it keeps of the room is what the hosts sent it: lobby
rows, and the views its clients watch. A table's public view is subscribed once per gateway,
however many of its sessions watch it, decoded once, and the same object is read by every one
of them; a seated client's own views come on his seat subjects (one wildcard subscription for
all his tables). `view(table)` is the seat's view while seated, else the newest public one, its
`seconds_left` / `countdown` run down by the time since it arrived (on this process's monotonic
clock, `now()`).

Accounts, keys, preferences and hand histories are the store's: the gateway has a Room of its
own with no tables (`gateway.room`), whose Sessions are the accounts' side of its clients
(login's claim through the writer thread, keys, preferences, a newer login taking over an older
one on this gateway); its reads run in a small thread pool, never on the loop.

Liveness (bus/liveness.py): the gateway's heartbeat every second (its id begins every one of its
sessions' ids, so a table host that stops hearing it takes them offline), and the table hosts'
heard: a table whose host has been silent for HOST_SILENT seconds shows as "reconnecting" (its
status; no decision offered, no clock) until a host serves it again.

Bus trouble (no host serves the table, a host that does not answer in time, NATS away) is a
RoomError saying so, within `timeout` seconds: never a hang.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import logging
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from cardroom.bus import codec, liveness, subjects
from cardroom.room import api
from cardroom.room.actions import Action, Intents, Join, RoomAction, Unwatch, Watch
from cardroom.room.api import RoomError
from cardroom.room.clock import LoopClock
from cardroom.room.ports import StoreError
from cardroom.room.room import Room, RoomSettings, Session, check_preferences, room_error
from cardroom.room.writer import StoreWriter, Writer

if TYPE_CHECKING:
    from cardroom.room.history import PlayerHand

log = logging.getLogger("cardroom.bus.client")

INTENT_TIMEOUT = 3.0
NOT_ANSWERING = "the table is not answering: try again in a moment"
BUS_AWAY = "the card room is not answering: try again in a moment"


NO_TOURNAMENTS = ("tournaments are not dealt in this room yet: a room of several processes offers cash "
                  "tables only for now")

class Unreachable(RoomError):
    """The bus did not reach the table (no host serves it, it did not answer in time, NATS is
    away). A request that timed out may still have been done there: its views will say."""


class _Held:
    """A view as it arrived: its host's epoch and change count, and when (monotonic) it came."""

    __slots__ = ("view", "epoch", "n", "arrived")

    def __init__(self, epoch: str, n: int, view: api.TableView) -> None:
        self.view, self.epoch, self.n, self.arrived = view, epoch, n, time.monotonic()

    def newer_than(self, other: _Held | None) -> bool:
        # Another epoch is another host process (a restart, the table moved): its views are new.
        return other is None or self.epoch != other.epoch or self.n >= other.n

    def now(self, now: float) -> api.TableView:
        v = self.view
        if v.seconds_left is None:
            return v
        left = max(0.0, v.seconds_left - (now - self.arrived))
        if left == v.seconds_left:
            return v
        countdown = None if v.countdown is None else max(0, int(left + 0.999))
        return replace(v, seconds_left=left, countdown=countdown)

    @classmethod
    def of(cls, d, chat: codec.DecodedChat | None = None) -> _Held:
        epoch, n, view = codec.stamped_from(d, chat)
        return cls(epoch, n, view)

    @classmethod
    def decode(cls, data: bytes, chat: codec.DecodedChat | None = None) -> _Held:
        return cls.of(codec.loads(data), chat)


def _newest(a: _Held, b: _Held) -> _Held:
    """Of two views of a table: the later change, or the later to arrive from another host;
    `b` when they show the same change."""
    if a.epoch == b.epoch:
        return a if a.n > b.n else b
    return a if a.arrived > b.arrived else b


QUIET_CLOCK = 0.5      # seconds two views' decision deadlines may differ by and show the same


def _same_screen(old: _Held | None, new: _Held) -> bool:
    """`new` shows what `old` did, but for who is railbirding: in one process a watch wakes no
    other session, so over the bus it wakes none either. (It did: every session at a table was
    refreshed for each railbird that came, quadratic in a table's railbirds; with 1,000 sessions
    that was a third of the gateways' CPU per login.) A running clock shows the same when its
    deadline, arrival plus seconds left, is the same."""
    if old is None or old.epoch != new.epoch:
        return False
    a, b = old.view, new.view
    if (a.seconds_left is None) != (b.seconds_left is None):
        return False
    if a.seconds_left is not None and abs(old.arrived + a.seconds_left - new.arrived - b.seconds_left) > QUIET_CLOCK:
        return False
    return (replace(a, railbirds=(), seconds_left=None, countdown=None)
            == replace(b, railbirds=(), seconds_left=None, countdown=None))


class _Public:
    """One table's public view on this gateway, shared by the clients that watch it."""

    __slots__ = ("sub", "held", "clients")

    def __init__(self) -> None:
        self.sub = None
        self.held: _Held | None = None
        self.clients: set[RemoteClient] = set()


class Gateway:
    def __init__(self, nc, store, *, tables: Iterable[str] = (), settings: RoomSettings | None = None,
                 writer: Writer | None = None, timeout: float = INTENT_TIMEOUT, store_threads: int = 2,
                 gateway_id: str | None = None, host_silent: float = liveness.HOST_SILENT) -> None:
        self.nc = nc
        self.store = store
        self.timeout = timeout
        self.id = gateway_id or secrets.token_hex(6)   # begins each of its sessions' ids (liveness.session_id)
        self._hosts = liveness.Heard()       # table -> when a host last said it serves it
        self._silent: set[str] = set()       # tables shown as reconnecting
        self.host_silent = host_silent
        self._running = False
        self._loops: list[asyncio.Task] = []
        self.order = list(tables)            # the lobby's order (config.toml's); others after
        self.room = Room([], store, LoopClock(), settings=settings, writer=writer or StoreWriter())
        self._pool = concurrent.futures.ThreadPoolExecutor(store_threads, thread_name_prefix="gateway-store")
        self._rows: dict[str, api.TableSummary] = {}
        self._public: dict[str, _Public] = {}
        self.chat = codec.DecodedChat()      # the chat lines of every view here, decoded once
        self.clients: set[RemoteClient] = set()
        self._subs: list = []
        self._tasks: set[asyncio.Task] = set()

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        self._subs.append(await self.nc.subscribe(subjects.LOBBY, cb=self._on_lobby))
        self._subs.append(await self.nc.subscribe(subjects.PRESENCE_ASK, cb=self._on_presence_ask))
        self._subs.append(await self.nc.subscribe(subjects.HOST_HB, cb=self._on_host_beat))
        self._running = True
        loop = asyncio.get_running_loop()
        self._loops = [loop.create_task(liveness.beat(self.nc, subjects.GATEWAY_HB,
                                                      lambda: {"g": self.id, "n": len(self.clients)},
                                                      lambda: self._running)),
                       loop.create_task(self._hosts_loop())]

    async def reconnected(self) -> None:
        """Back on the bus: the hosts may have missed who came and went meanwhile."""
        for client in list(self.clients):
            await client._presence(True)

    async def close(self) -> None:
        self._running = False
        for task in self._loops:
            task.cancel()
        for client in list(self.clients):
            client.close()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for sub in self._subs:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - a connection already closed has no subscriptions
                pass
        self._pool.shutdown(wait=False)
        close = getattr(self.room.writer, "close", None)
        if close is not None:
            await asyncio.to_thread(close)

    async def login(self, name: str, fingerprint: str | None = None) -> RemoteClient:
        """A client for `name` (claimed with the key, or created without one): RoomError if the
        store refuses (a name another key holds) or fails, or the bus fails. A login while NATS
        is reconnecting goes on: its subscriptions and presence are sent when the bus is back."""
        session = await self.room.login(name, fingerprint)
        client = RemoteClient(self, session)
        try:
            await client._start()
        except Exception as e:  # noqa: BLE001 - any trouble of the bus
            log.warning("login of %s: the bus failed: %s", name, e)
            client.close()
            raise Unreachable(BUS_AWAY) from None
        return client

    # ------------------------------------------------------------------ what the hosts send
    def lobby(self) -> list[api.TableSummary]:
        rank = {n: i for i, n in enumerate(self.order)}
        return sorted(self._rows.values(), key=lambda r: (rank.get(r.name, len(rank)), r.name))

    async def _on_lobby(self, msg) -> None:
        try:
            d = codec.loads(msg.data)
            rows = [codec.summary_from(r) for r in d["rows"]]
        except (ValueError, KeyError, TypeError) as e:
            log.warning("a bad lobby message: %s", e)
            return
        for row in rows:
            self._rows[row.name] = row

    async def _on_host_beat(self, msg) -> None:
        try:
            tables = codec.loads(msg.data)["tables"]
        except (codec.CodecError, KeyError, TypeError):
            return
        if isinstance(tables, list):
            self._hosts.hear(t for t in tables if isinstance(t, str))

    def reconnecting(self, table: str) -> bool:
        return table in self._silent

    async def _hosts_loop(self) -> None:
        """Each second: the tables whose host fell silent, or was heard again; their watchers redraw."""
        while self._running:
            await asyncio.sleep(liveness.HEARTBEAT_EVERY)
            silent = {t for t in self._public.keys() | {t for c in self.clients for t in c._own}
                      if self._hosts.silent(t, self.host_silent)}
            changed, self._silent = silent ^ self._silent, silent
            if changed:
                log.warning("tables reconnecting: %s", ", ".join(sorted(silent)) or "none")
                for client in list(self.clients):
                    if changed & (client._watching | client._own.keys()):
                        client._arrived()

    async def _on_presence_ask(self, msg) -> None:
        for client in list(self.clients):
            await client._presence(True)

    async def _watch_public(self, client: RemoteClient, table: str) -> bool:
        """Subscribe (once for the gateway) to the table's public view; True if the client was
        not watching it before."""
        entry = self._public.get(table)
        if entry is None:
            entry = self._public[table] = _Public()
            entry.sub = await self.nc.subscribe(subjects.public_view(table),
                                                cb=functools.partial(self._on_public, table, entry))
        new = client not in entry.clients
        entry.clients.add(client)
        return new

    def _unwatch_public(self, client: RemoteClient, table: str) -> None:
        entry = self._public.get(table)
        if entry is None:
            return
        entry.clients.discard(client)
        if not entry.clients:
            del self._public[table]
            self.spawn(entry.sub.unsubscribe())

    async def _on_public(self, table: str, entry: _Public, msg) -> None:
        try:
            held = _Held.decode(msg.data, self.chat)
        except (ValueError, TypeError, KeyError) as e:   # CodecError, or worse: never the handler's end
            log.warning("a bad view of %s: %s", table, e)
            return
        if not held.newer_than(entry.held):
            return
        quiet, entry.held = _same_screen(entry.held, held), held
        if not quiet:
            for client in list(entry.clients):
                client._arrived()

    def public(self, table: str) -> _Held | None:
        entry = self._public.get(table)
        return entry.held if entry is not None else None

    # ------------------------------------------------------------------ plumbing
    async def off_loop(self, call: Callable, *args):
        """A store read in the gateway's pool: a slow database holds up this caller only. A
        store that fails (PostgreSQL restarting) is a RoomError saying so, as a write's is."""
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, call, *args)
        except StoreError as e:
            raise room_error(e) from None

    def spawn(self, coro) -> None:
        """Run `coro` (a publish) in the background, kept until it ends; a bus error is logged."""

        async def guarded():
            try:
                await coro
            except Exception as e:  # noqa: BLE001 - the bus is away; nothing to undo
                log.warning("the bus: %s", e)
        task = asyncio.get_running_loop().create_task(guarded())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _trouble(self, table: str, e: Exception) -> Unreachable | None:
        """What a player reads of the bus's failure to reach a table (None: not the bus's)."""
        from nats.errors import Error, NoRespondersError
        if isinstance(e, NoRespondersError):
            if table not in self.order and table not in self._rows:
                return Unreachable(f"there is no table called {table!r}")
            return Unreachable(NOT_ANSWERING)
        if isinstance(e, (Error, asyncio.TimeoutError, OSError)):
            return Unreachable(NOT_ANSWERING)
        return None


class RemoteClient(Intents):
    """One account's RoomClient over the bus (see the module docstring)."""

    def __init__(self, gateway: Gateway, session: Session) -> None:
        self.gateway = gateway
        self.session = session             # the account's side: pages, keys, preferences, the end
        self.sid = liveness.session_id(gateway.id)   # this remote session, as the table hosts know it
        self._own: dict[str, _Held] = {}   # table -> my latest view of it (a reply, my seat's subject)
        self._watching: set[str] = set()
        self._callback: Callable[[], None] | None = None
        self._end_callback: Callable[[str], None] | None = None
        self._subs: list = []
        self._bus_closed = False
        session.on_change(self._notify)
        session.on_end(self._ended)

    async def _start(self) -> None:
        nc = self.gateway.nc
        self.gateway.clients.add(self)
        self._subs.append(await nc.subscribe(subjects.account_events(self.account_id), cb=self._on_event))
        self._subs.append(await nc.subscribe(subjects.my_seats(self.account_id), cb=self._on_seat))
        await nc.flush(timeout=self.gateway.timeout)     # subscribed before the hosts hear of me
        await self._presence(True)

    async def _presence(self, online: bool) -> None:
        await self.gateway.nc.publish(subjects.PRESENCE, codec.dumps(
            {"a": self.account_id, "s": self.sid, "on": online}))

    # -- who ----------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.session.name

    @property
    def account_id(self) -> int:
        return self.session.account_id

    @property
    def fingerprint(self) -> str | None:
        return self.session.fingerprint

    @property
    def is_admin(self) -> bool:
        return self.session.is_admin

    @is_admin.setter
    def is_admin(self, value: bool) -> None:
        self.session.is_admin = value

    @property
    def pages(self) -> list[str]:
        return self.session.pages

    @property
    def closed(self) -> bool:
        return self.session.closed

    @property
    def taken_over(self) -> bool:
        return self.session.taken_over

    def on_change(self, callback: Callable[[], None]) -> None:
        self._callback = callback

    def on_end(self, callback: Callable[[str], None]) -> None:
        self._end_callback = callback

    def close(self) -> None:
        self._close_bus()
        self.session.close()

    def now(self) -> float:
        return time.monotonic()

    # -- what arrives ------------------------------------------------------------------------------
    def _notify(self) -> None:
        # The session's pages, and its end: heard even by a client being closed (its UI then ends).
        if self._callback is not None:
            self._callback()

    def _arrived(self) -> None:
        if self._callback is not None and not self.closed:
            self._callback()

    async def _on_seat(self, msg) -> None:
        try:
            held = _Held.decode(msg.data, self.gateway.chat)
        except (ValueError, TypeError, KeyError) as e:
            log.warning("a bad seat view for %s: %s", self.name, e)
            return
        quiet = _same_screen(self._own.get(held.view.name), held)
        if self._keep(held) and not quiet:
            self._arrived()

    def _keep(self, held: _Held) -> bool:
        if held.newer_than(self._own.get(held.view.name)):
            self._own[held.view.name] = held
            return True
        return False

    async def _on_event(self, msg) -> None:
        try:
            event = codec.loads(msg.data)
            if not isinstance(event, dict):
                raise codec.CodecError("not an event")
        except codec.CodecError as e:
            log.warning("a bad event for %s: %s", self.name, e)
            return
        if isinstance(event.get("page"), str):
            self.gateway.room.page(self.account_id, event["page"])
        elif isinstance(event.get("end"), str):
            self.session.taken_over = bool(event.get("taken_over"))
            self.session.end(event["end"])

    def _ended(self, reason: str) -> None:
        self._close_bus()
        if self._end_callback is not None:
            self._end_callback(reason)

    def _close_bus(self) -> None:
        if self._bus_closed:
            return
        self._bus_closed = True
        self.gateway.clients.discard(self)
        for table in self._watching:
            self.gateway._unwatch_public(self, table)
        self._watching.clear()
        subs, self._subs = self._subs, []

        async def leave() -> None:
            for sub in subs:
                await sub.unsubscribe()
            await self._presence(False)
        self.gateway.spawn(leave())

    # -- known without asking ----------------------------------------------------------------------
    def lobby(self) -> list[api.TableSummary]:
        return self.gateway.lobby()

    def _held(self, table: str) -> _Held | None:
        own = self._own.get(table)
        if own is not None and own.view.my_seat is not None:
            return own
        public = self.gateway.public(table) if table in self._watching else None
        if public is None or own is None:
            return public or own
        return _newest(own, public)

    def view(self, table: str) -> api.TableView:
        held = self._held(table)
        if held is None:
            raise RoomError(f"{table!r} is not being watched")
        if self.gateway.reconnecting(table):
            # Its host is silent (killed, cut off): nothing may be decided, no clock runs here.
            return replace(held.view, status="reconnecting", legal=None, seconds_left=None, countdown=None)
        return held.now(self.now())

    def _seated(self) -> list[api.TableView]:
        rank = {n: i for i, n in enumerate(self.gateway.order)}
        views = [h.view for h in self._own.values() if h.view.my_seat is not None]
        return sorted(views, key=lambda v: (rank.get(v.name, len(rank)), v.name))

    def my_tables(self) -> list[str]:
        return [v.name for v in self._seated() if not v.leaving]

    def waiting_for_me(self) -> list[str]:
        return [v.name for v in self._seated() if v.legal is not None or v.blind_prompt]

    # Tournaments are dealt by a room in one process for now: over the bus a tournament will be one
    # table host's (leased as a table is), which is the scaled step's. Until then the lobby lists
    # none and every ask says so.
    def tournaments(self) -> list[api.TournamentSummary]:
        return []

    def tournament(self, number: int) -> api.TournamentView:
        raise RoomError(NO_TOURNAMENTS)

    async def ask(self, action: RoomAction) -> Any:
        raise RoomError(NO_TOURNAMENTS)

    async def tournament_summary(self, number: int) -> str:
        raise RoomError(NO_TOURNAMENTS)

    # -- asked of the room -------------------------------------------------------------------------
    async def send(self, table: str, action: Action) -> Any:
        """The action to the table's host; its answer. Watch and Join watch the table (its public
        view is subscribed before the action goes, so no view published between the reply and
        the subscription is missed); Unwatch stops after it."""
        if self.closed:
            raise RoomError("this session is closed")
        if isinstance(action, Unwatch):
            try:
                return await self._ask(table, action)
            finally:
                if table in self._watching:
                    self._watching.discard(table)
                    self.gateway._unwatch_public(self, table)
        if not isinstance(action, (Watch, Join)):
            return await self._ask(table, action)
        new = await self.gateway._watch_public(self, table)
        self._watching.add(table)
        try:
            result = await self._ask(table, action)
        except RoomError as e:
            # A join the table refused still watches it (as in one process); else no watch.
            if new and (isinstance(action, Watch) or isinstance(e, Unreachable)):
                self._watching.discard(table)
                self.gateway._unwatch_public(self, table)
            raise
        return self.view(table) if isinstance(action, Watch) else result

    async def _ask(self, table: str, action: Action):
        op = action.verb
        data = codec.request_to(self.account_id, self.sid, action)
        nc = self.gateway.nc
        try:
            msg = await nc.request(subjects.intents(table), data, timeout=self.gateway.timeout)
        except Exception as e:
            trouble = self.gateway._trouble(table, e)
            if trouble is None:
                raise
            log.warning("%s at %s: %r", op, table, e)
            raise trouble from None
        try:
            reply = codec.loads(msg.data)
            if not isinstance(reply, dict):
                raise codec.CodecError("not a reply")
            if not reply.get("ok"):
                raise codec.error_from(reply)
            if reply.get("view") is not None:
                self._keep(_Held.of(reply["view"], self.gateway.chat))
        except codec.CodecError as e:
            log.warning("a bad reply to %s at %s: %s", op, table, e)
            raise Unreachable(NOT_ANSWERING) from None
        return reply.get("r")

    async def my_money(self) -> api.MyMoney:
        money = await self.gateway.off_loop(self.session.my_money)
        # Chips on a table I sit at, as the table counts them (elsewhere the store's: a live hand's
        # escrow counted, so a login mid-hand before my seat's views arrive counts it too).
        here = {v.name: v.table_chips for v in self._seated()}
        return api.MyMoney(money.balance, money.on_tables | here)

    async def keys(self) -> tuple[str, ...]:
        return await self.gateway.off_loop(self.session.keys)

    async def add_key(self, public_key: str) -> str:
        return await self.session.add_key(public_key)

    async def remove_key(self, fingerprint: str) -> None:
        await self.session.remove_key(fingerprint)

    async def preferences(self) -> dict[str, str]:
        return await self.gateway.off_loop(self.session.preferences)

    async def save_preferences(self, values: dict[str, str]) -> None:
        check_preferences(values, await self.preferences())
        account, store = self.account_id, self.gateway.store
        try:
            await self.session.room.write(lambda: store.set_preferences(account, values))
        except RoomError as e:
            raise RoomError(f"your preferences could not be kept: {e}") from None

    async def hands(self, limit: int = 20, offset: int = 0) -> list:
        return await self.gateway.off_loop(lambda: self.session.hands(limit=limit, offset=offset))

    async def hand(self, hand_id: str) -> PlayerHand:
        return await self.gateway.off_loop(self.session.hand, hand_id)

