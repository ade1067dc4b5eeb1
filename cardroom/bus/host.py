"""`TableHost`: serves the tables of a Room (this process's, on its own store) to gateways over NATS.

    host = TableHost(room, nc)              # all of room.tables, or tables=[names] for a shard
    await host.start()
    ...
    await host.stop()

What it does, per table it serves:
- intents (`cr.t.<tok>.i`, request/reply): each an action record (room/actions.py), sent
  through the room's own `Session` for the account the gateway names (the gateway is trusted to
  say who; one Session per account, opened from the store's record). The reply is ok + the
  answer + the caller's view of the table right after it (so a remote client's `view()` shows
  what its intent did at once), or the RoomError's class and message. A request that is not one
  (garbage, an unknown action, a field of the wrong type) gets an error reply and reaches no table;
- views after each change, at most one publish per table per loop turn (changes are gathered,
  then sent by one task): the public view on `cr.t.<tok>.v`, and each seated player whose
  session is online here his own view on `cr.t.<tok>.s.<account>`, plus one last one when he
  has left the seat. Another seat's hidden cards are in no message: the public view is a
  railbird's, and a seat's view goes to that seat's subject only;
- lobby rows (`cr.lobby`): the rows that changed, after a change, and all of them every
  couple of seconds (a gateway that just came has the lobby within that);
- pages (Room.page: wait-list offers, buy-ins the store refused, admin words) and the end of a
  session (kicked, banned) on the account's subject `cr.a.<account>`;
- heartbeats (bus/liveness.py): this host's every second (`cr.host.hb`, its tables), and the
  gateways' heard: the sessions of a gateway silent for GATEWAY_LOST seconds (killed, cut off)
  go offline here as if each had said so, and come back online when their gateway says so again;
- the bus lost (`bus_lost`, until `reconnected`): nobody can act at its tables, so their clocks
  stop and no hand is dealt, and no gateway is judged by a silence that is the host's own;
- presence (`cr.presence`): a remote session online or offline. The host opens a session for an
  account seated at one of its tables when it comes online (his seat is connected again and his
  views flow), or for anyone at his first intent; when the last remote session of an account
  goes offline, its session here closes: its seats are marked disconnected and it watches
  nothing (what `Session.close` does in one process).

A host may own only some of a config's tables (`tables=`), and the same table may later be
served by another host: a view's stamp carries this host's epoch, so clients take the new
host's views as newer. Without `tables=` it follows the room's tables as they come and go (a
tournament's tables open and break: each is served from its opening, and its last views go out
as it is removed). A tournament's table is not in the lobby's rows (its tournament's lobby lists
it). The room's tournaments are served beside the tables (bus/tournaments.py).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable
from typing import Any

from cardroom.bus import codec, liveness, subjects
from cardroom.bus.connection import BACKOFF_MOST
from cardroom.bus.tournaments import TournamentHost
from cardroom.room import api
from cardroom.room.actions import Unwatch
from cardroom.room.api import RoomError
from cardroom.room.ports import StoreError
from cardroom.room.room import Room, Session
from cardroom.room.table import Table

log = logging.getLogger("cardroom.bus.host")

LOBBY_EVERY = 2.0          # seconds between full lobby publishes
GONE_KEPT = 10_000         # remote sessions remembered as ended (a late intent of one is refused)
_BROKEN = "the table could not do that: try again in a moment"


class _HostedSession(Session):
    """A remote account's session here: its pages go to the account's subject too."""

    def __init__(self, room: Room, account, fingerprint, host: TableHost) -> None:
        super().__init__(room, account, fingerprint)
        self._host = host

    def _page(self, text: str) -> None:
        super()._page(text)
        if not self.closed:       # a closed session's last page is the reason it ended: sent as such
            self._host._event(self.account_id, {"page": text})


class TableHost:
    def __init__(self, room: Room, nc, *, tables: Iterable[str] | None = None,
                 lobby_every: float = LOBBY_EVERY, gateway_lost: float = liveness.GATEWAY_LOST) -> None:
        self.room = room
        self.nc = nc
        self.follow = tables is None      # serve the room's tables as they come and go
        self.names = list(room.tables) if tables is None else [room.table(n).name for n in tables]
        self.lobby_every = lobby_every
        self.epoch = secrets.token_hex(4)
        self._sessions: dict[int, Session] = {}
        self._opening: dict[int, asyncio.Future[Session]] = {}
        self._online: dict[int, set[str]] = {}          # account -> its remote sessions online
        self._gone: OrderedDict[str, None] = OrderedDict()
        self._version = dict.fromkeys(self.names, 0)   # table -> changes so far (views' stamps)
        self._encoded = {n: codec.EncodedViews() for n in self.names}
        self._seat_sent: dict[str, set[int]] = {n: set() for n in self.names}
        self._built: dict[str, tuple] = {}             # table -> its views built for an intent's reply
        self._rows: dict[str, api.TableSummary] = {}   # lobby rows as last published
        self._dirty: set[str] = set()
        self._flusher: asyncio.Task | None = None
        self._observers: list[tuple[Table, Callable[[], None]]] = []   # (table, its observer of ours)
        self._table_subs: dict[str, Any] = {}              # table -> its intents' subscription
        self._subs: list = []
        self._tasks: set[asyncio.Task] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._failing = False           # publishing failed last time (logged once per outage)
        self._gateways = liveness.Heard()  # gateway id -> when its heartbeat was last heard
        self.gateway_lost = gateway_lost
        self._lost: set[str] = set()       # gateways whose sessions were taken offline for silence
        self.on_bus = True                 # False between bus_lost() and reconnected()
        self.running = False
        self.tournaments: TournamentHost | None = None   # made at start

    # ------------------------------------------------------------------ life
    async def start(self) -> None:
        self._loop = asyncio.get_running_loop()
        self.running = True
        for name in self.names:
            self._observe(self.room.tables[name])
            self._table_subs[name] = await self.nc.subscribe(
                subjects.intents(name), cb=functools.partial(self._on_intent, name))
        if self.follow:
            self.room.table_listeners.append(self._table_event)
        self._subs.append(await self.nc.subscribe(subjects.PRESENCE, cb=self._on_presence))
        self._subs.append(await self.nc.subscribe(subjects.GATEWAY_HB, cb=self._on_gateway_beat))
        self.tournaments = TournamentHost(self)
        await self.tournaments.start()
        self.spawn(self._lobby_loop())
        self.spawn(liveness.beat(self.nc, subjects.HOST_HB, lambda: {"h": self.epoch, "tables": self.names},
                                  lambda: self.running))
        self.spawn(self._gateways_loop())
        await self.reconnected()

    def _observe(self, table) -> None:
        observe = functools.partial(self._changed, table.name)
        table.observers.append(observe)
        self._observers.append((table, observe))

    def _table_event(self, table, added: bool) -> None:
        """The room added or removed a table (following it): served from now, or no more."""
        name = table.name
        if added and name not in self._version:
            self.names.append(name)
            self._version[name] = 0
            self._encoded[name] = codec.EncodedViews()
            self._seat_sent[name] = set()
            self._observe(table)

            async def subscribe() -> None:
                self._table_subs[name] = await self.nc.subscribe(
                    subjects.intents(name), cb=functools.partial(self._on_intent, name))
            self.spawn(subscribe())
            self._changed(name)
        elif not added and name in self._version:
            # Its last views now (whoever just moved away reads that he left it), then nothing.
            self._version[name] += 1
            out = self._messages(name, table)   # the room has let it go: the table is passed
            self._dirty.discard(name)
            self.names.remove(name)
            for key in (self._version, self._encoded, self._seat_sent, self._rows, self._built):
                key.pop(name, None)
            for pair in [p for p in self._observers if p[0] is table]:
                self._observers.remove(pair)
                table.observers.remove(pair[1])
            sub = self._table_subs.pop(name, None)

            async def goodbye() -> None:
                for subject, data in out:
                    await self.publish(subject, data)
                if sub is not None:
                    await sub.unsubscribe()
            self.spawn(goodbye())

    def bus_lost(self) -> None:
        """The connection to NATS is lost: nobody can act at this host's tables, and every screen
        says they are reconnecting. Their clocks stop where they are (no player is timed out,
        his day's protected all-in spent, and sat out for the bus's fault), no hand is dealt,
        and no gateway is judged by its silence (`reconnected` runs them on)."""
        self.on_bus = False
        for name in self.names:
            table = self.room.tables.get(name)
            if table is not None:
                table.hold_clock()

    async def reconnected(self) -> None:
        """Just started, or back on the bus after losing it: ask who is online, send every view;
        the clocks run on with the time they had. The gateways reconnect too (with backoff):
        each has its usual time to be heard, from when it can have come back."""
        if not self.on_bus:
            self._gateways.heard_all(later=BACKOFF_MOST)
        self.on_bus = True
        await self.publish(subjects.PRESENCE_ASK, codec.dumps({"h": self.epoch}))
        for name in self.names:
            table = self.room.tables.get(name)
            if table is not None:
                table.release_clock()
            self._changed(name)

    async def stop(self) -> None:
        """Stop serving (the room and its tables are the caller's, and go on). Its sessions
        close (their seats are marked disconnected until a host serves them again)."""
        self.running = False
        if self._table_event in self.room.table_listeners:
            self.room.table_listeners.remove(self._table_event)
        if self.tournaments is not None:
            await self.tournaments.stop()
        for account in list(self._sessions):
            self._close(account)
        self._online.clear()
        # From the tables as they were served: a fenced one is no longer the room's.
        for table, observe in self._observers:
            table.observers.remove(observe)
        self._observers.clear()
        for sub in [*self._subs, *self._table_subs.values()]:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - a connection already closed has no subscriptions
                pass
        self._subs.clear()
        self._table_subs.clear()
        for task in list(self._tasks) + ([self._flusher] if self._flusher else []):
            task.cancel()
        self._flusher = None
        await asyncio.gather(*self._tasks, return_exceptions=True)

    def spawn(self, coro) -> None:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------------ intents
    async def _on_intent(self, name: str, msg) -> None:
        try:
            reply = await self._serve(name, msg.data)
        except Exception:  # noqa: BLE001 - whatever went wrong, the host goes on serving
            log.exception("an intent at %s failed", name)
            reply = codec.reply_error(RoomError(_BROKEN))
        if msg.reply:
            await self.publish(msg.reply, reply)

    async def _serve(self, name: str, data: bytes) -> bytes:
        try:
            account, sid, action = codec.request_from(data)
        except codec.CodecError as e:
            log.warning("a bad request at %s: %s", name, e)
            return codec.reply_error(RoomError(f"the table did not understand that request ({e})"))
        try:
            session = await self.session_for(account, sid)
            result = session.send(name, action)      # the table tells its observers (us): _changed
        except RoomError as e:
            return codec.reply_error(e)
        table = self.room.tables.get(name)
        if table is None or name not in self._version:     # broken meanwhile (a tournament's)
            return codec.reply_ok(None if isinstance(result, api.TableView) else result, None)
        view = None if isinstance(action, Unwatch) else self._view_now(name, account)
        # A view answered (a watch's) travels as the reply's view.
        return codec.reply_ok(None if isinstance(result, api.TableView) else result, view)

    def _view_now(self, name: str, account: int) -> str:
        """The account's view of the table now, stamped. A seated player's intent changed the
        table: every view of the change is built now, his is the reply, and the flush that
        follows sends them all (built once, unless the table changes again meanwhile)."""
        built = self._built[name] = self._views(name)
        view = built[1].get(account)
        if view is not None:
            return view
        table = self.room.tables[name]
        return codec.stamped(self.epoch, self._version[name], codec.view_json(table.view_for(account),
                                                                              self._encoded[name]))

    # ------------------------------------------------------------------ sessions and presence
    async def session_for(self, account: int, sid: str) -> Session:
        """The account's session here (opened on first need), with `sid` counted as online."""
        if sid in self._gone:
            raise RoomError("this session is closed")
        session = self._sessions.get(account)
        if session is None:
            opening = self._opening.get(account)
            if opening is None:
                opening = self._opening[account] = asyncio.ensure_future(self._open(account))
                opening.add_done_callback(lambda _: self._opening.pop(account, None))
            session = await asyncio.shield(opening)
        if sid in self._gone:      # it went offline while the store was asked
            if not self._online.get(account):
                self._close(account)
            raise RoomError("this session is closed")
        self._online.setdefault(account, set()).add(sid)
        return session

    async def _open(self, account_id: int) -> Session:
        try:
            account = await asyncio.to_thread(self.room.store.get, account_id)
        except StoreError as e:
            log.warning("no session for account %d: %s", account_id, e)
            raise RoomError("the card room's records do not know this account") from None
        if not self.running:
            # Stopped while the store was asked (a claim restarts the host): the host that
            # replaced this one opens the account's session; one opened here would be an orphan.
            raise RoomError("this table host has stopped: try again in a moment")
        session = self.room.open_session(account, None, make=lambda room, a, fp: _HostedSession(room, a, fp, self),
                                         attach=True)
        session.on_end(lambda reason: self._ended(session, reason))
        self._sessions[account_id] = session
        return session

    def _ended(self, session: Session, reason: str) -> None:
        """The room ended the session (kicked, banned): every remote session of it ends too."""
        if self._sessions.get(session.account_id) is session:
            del self._sessions[session.account_id]
        for sid in self._online.pop(session.account_id, ()):
            self._forget(sid)
        self._event(session.account_id, {"end": reason, "taken_over": session.taken_over})

    def _forget(self, sid: str) -> None:
        self._gone[sid] = None
        while len(self._gone) > GONE_KEPT:
            self._gone.popitem(last=False)

    async def _on_presence(self, msg) -> None:
        try:
            d = codec.loads(msg.data)
            account, sid, online = d["a"], d["s"], d["on"]
            if type(account) is not int or not isinstance(sid, str) or type(online) is not bool:
                raise codec.CodecError("not a presence")
        except (codec.CodecError, KeyError, TypeError) as e:
            log.warning("a bad presence message: %s", e)
            return
        if not online:
            self._offline(account, sid)
            return
        # A session online is its gateway heard: one that dies before the host heard its first
        # heartbeat (NATS orders no messages across connections) is still judged by its silence.
        self._gateways.hear((liveness.gateway_of(sid),))
        if account in self._sessions or self._seated_here(account):
            try:
                await self.session_for(account, sid)
            except RoomError as e:
                log.warning("account %d came online but has no session here: %s", account, e)
        elif sid not in self._gone:
            self._online.setdefault(account, set()).add(sid)

    def _seated_here(self, account: int) -> bool:
        """Seated at a table here, or entered in a tournament here (seated as it starts, and
        connected then only if his session is here)."""
        return (any((t := self.room.tables.get(n)) is not None and t.seat_of(account) is not None
                    for n in self.names)
                or (self.tournaments is not None and self.tournaments.entered(account)))

    async def _on_gateway_beat(self, msg) -> None:
        try:
            gateway = codec.loads(msg.data)["g"]
        except (codec.CodecError, KeyError, TypeError):
            return
        if isinstance(gateway, str):
            self._gateways.hear((gateway,))
            if gateway in self._lost:
                # Heard again (NATS came back): its sessions were taken offline here; ask the
                # gateways who is online rather than wait for their next login.
                self._lost.discard(gateway)
                await self.publish(subjects.PRESENCE_ASK, codec.dumps({"h": self.epoch}))

    async def _gateways_loop(self) -> None:
        while self.running:
            await asyncio.sleep(liveness.HEARTBEAT_EVERY)
            if not self.on_bus:
                continue          # it hears nobody: their silence is its own
            for gateway in self._gateways.lost(self.gateway_lost):
                self._lost.add(gateway)
                lost = [(a, sid) for a, sids in self._online.items() for sid in sids
                        if liveness.gateway_of(sid) == gateway]
                if lost:
                    log.warning("gateway %s is silent: its %d session(s) here are offline", gateway, len(lost))
                for account, sid in lost:
                    # Not ended: the same session says it is online again if its gateway comes back.
                    self._offline(account, sid, ended=False)

    def _offline(self, account: int, sid: str, *, ended: bool = True) -> None:
        if ended:
            self._forget(sid)
        sids = self._online.get(account)
        if sids is not None:
            sids.discard(sid)
            if sids:
                return
            del self._online[account]
        self._close(account)

    def _close(self, account: int) -> None:
        session = self._sessions.pop(account, None)
        if session is not None:
            session.close()        # seats kept and marked disconnected; nothing watched

    # ------------------------------------------------------------------ publishing
    def changes(self, name: str) -> int:
        """How many times the table has changed here (its views' stamp)."""
        return self._version[name]

    def _changed(self, name: str) -> None:
        self._version[name] += 1
        self._dirty.add(name)
        if self._flusher is None and self.running and self._loop is not None:
            # Not now: everything else this loop turn changes goes out with it.
            self._flusher = self._loop.create_task(self._flush())

    async def _flush(self) -> None:
        try:
            while self._dirty and self.running:
                names, self._dirty = self._dirty, set()
                out, rows = [], []
                for name in names:
                    table = self.room.tables.get(name)
                    if table is None or name not in self._version:
                        continue                 # removed meanwhile: its last views went then
                    try:
                        out += self._messages(name)
                        row = table.summary() if table.policy.money else None
                    except Exception:  # noqa: BLE001 - one table's trouble must not stop the others'
                        log.exception("the views of %s could not be made", name)
                        continue
                    if row is not None and self._rows.get(name) != row:
                        self._rows[name] = row
                        rows.append(row)
                if rows:
                    out.append((subjects.LOBBY, self._lobby(rows)))
                for subject, data in out:
                    await self.publish(subject, data)
        finally:
            self._flusher = None

    def _messages(self, name: str, table: Table | None = None) -> list[tuple[str, bytes]]:
        """The views of the table's latest change as they are sent: the public one, each seated
        player's, and the last one of who has just left his seat."""
        built = self._built.pop(name, None)
        if built is None or built[0] != self._version[name]:
            built = self._views(name, table)
        _, views, seated = built
        self._seat_sent[name] = seated
        return [(subjects.public_view(name) if account is None else subjects.seat_view(name, account),
                 text.encode()) for account, text in views.items()]

    def _views(self, name: str, table: Table | None = None) -> tuple[int, dict[int | None, str], set[int]]:
        """(the change, the stamped view of the rail (None) and of each seat, who is seated)."""
        table = table if table is not None else self.room.tables[name]
        encoded, n = self._encoded[name], self._version[name]
        seated = {s.account for s in table.seats.values() if s.account in self._sessions}
        # Built together: what the rail sees is built and encoded once for every view.
        views = table.views_for([None, *(seated | self._seat_sent[name])])
        return n, {account: codec.stamped(self.epoch, n, codec.view_json(view, encoded))
                   for account, view in views.items()}, seated

    def _lobby(self, rows: list[api.TableSummary]) -> bytes:
        return codec.dumps({"h": self.epoch, "rows": [codec.summary_to(r) for r in rows]})

    async def _lobby_loop(self) -> None:
        while True:
            await asyncio.sleep(self.lobby_every)
            try:
                rows = [t.summary() for n in self.names
                        if (t := self.room.tables.get(n)) is not None and t.policy.money]
            except Exception:  # noqa: BLE001
                log.exception("the lobby could not be made")
                continue
            self._rows.update((r.name, r) for r in rows)
            await self.publish(subjects.LOBBY, self._lobby(rows))

    async def page(self, account: int, text: str) -> None:
        """A page for the account on every gateway it is logged in through (it may have no
        session here yet: a table just claimed)."""
        await self.publish(subjects.account_events(account), codec.dumps({"page": text}))

    async def flush(self) -> None:
        """Wait until every change so far is published (a host about to stop says its last)."""
        while self._flusher is not None:
            await asyncio.shield(self._flusher)

    def _event(self, account: int, event: dict) -> None:
        self.spawn(self.publish(subjects.account_events(account), codec.dumps(event)))

    async def publish(self, subject: str, data: bytes) -> None:
        """Send on the bus; a failure is logged (once per outage), never raised."""
        try:
            await self.nc.publish(subject, data)
        except Exception as e:  # noqa: BLE001 - the bus is away: views go out again after the next change
            if not self._failing:           # once per outage, not once per message
                log.warning("publishing on %s failed: %s", subject, e)
            self._failing = True
        else:
            self._failing = False
