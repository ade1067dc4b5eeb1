"""The admin commands over the bus: `HostAdmin` beside each TableHost, `RemoteRoomAdmin` (a
`RoomAdmin`, cardroom/room/admin.py) on each gateway.

    cr.t.<tok>.adm     an act on one table (kick, status, wait list): request/reply, served by
                       the host that deals it (NATS routes it there; nobody serving it: no responders)
    cr.admin.snap      each host's tables as admin records, every SNAP_EVERY s and after an act
    cr.admin.all       room-wide words to every table host: say (a broadcast's table line),
                       mute (its in-memory muted set), shutdown_in / cancel_shutdown
    cr.admin.gw        each gateway's live sessions {account: [name, n]}, every SNAP_EVERY s
    cr.admin.bc        a broadcast's page, to every gateway's sessions

Design: the protocol's reads stay synchronous, served from what the gateway heard (the hosts'
snapshots, the gateways' session lists), because Tab completion and the suggester read tables
and players on every keystroke and must never wait on the bus; the tables of a host not heard
for SNAP_GONE seconds are listed as last heard, their status "reconnecting" (as the players'
screens say), until a host serves them again. Acts are coroutines
(request/reply, `timeout` seconds): bus trouble is a RoomError the panel shows, never a hang;
the reply carries the table's record, kept at once, so the admin's next command sees his act.

`shutdown now` typed on a gateway stops that gateway only (its sessions end; the table hosts and
the other gateways go on): the panel says so. `shutdown in N` starts the countdown on every table
host (each stops its process once its hands are settled); the gateways stay up.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from cardroom.bus import codec, subjects
from cardroom.room import api
from cardroom.room.admin import AdminSeat, AdminTable, LocalRoomAdmin
from cardroom.room.api import RoomError
from cardroom.room.tournaments.lobby import pick

log = logging.getLogger("cardroom.bus.admin")

SNAP = f"{subjects.PREFIX}.admin.snap"
ALL = f"{subjects.PREFIX}.admin.all"
GATEWAYS = f"{subjects.PREFIX}.admin.gw"
BROADCAST = f"{subjects.PREFIX}.admin.bc"
SNAP_EVERY = 1.0
SNAP_GONE = 5.0
TIMEOUT = 3.0
NOT_ANSWERING = "the table is not answering: nothing was done (try again in a moment)"
_STATUSES = ("open", "paused", "closed")


def table_subject(table: str) -> str:
    return f"{subjects.PREFIX}.t.{subjects.table_token(table)}.adm"


# ---------------------------------------------------------------- records on the wire
def seat_to(s: AdminSeat) -> list:
    return [s.table, s.number, s.account, s.name, s.chips, s.stack, s.sitting_out, s.connected,
            s.leaving, s.cashing_out]


def seat_from(a) -> AdminSeat:
    if not (isinstance(a, list) and len(a) == 10):
        raise codec.CodecError("not an admin seat")
    types = (str, int, int, str, int, int, bool, bool, bool, bool)
    if not all(type(v) is t for v, t in zip(a, types)):
        raise codec.CodecError("not an admin seat")
    return AdminSeat(*a)


def table_to(t: AdminTable) -> dict:
    return {"name": t.name, "status": t.status, "summary": codec.summary_to(t.summary),
            "hand": t.hand_id, "live": t.hand_live, "seats": [seat_to(s) for s in t.seats],
            "waiting": list(t.waiting), "tn": t.tournament}


def table_from(d) -> AdminTable:
    try:
        if not (isinstance(d["name"], str) and isinstance(d["status"], str) and isinstance(d["hand"], str)
                and type(d["live"]) is bool and all(type(a) is int for a in d["waiting"])
                and type(d.get("tn", 0)) is int):
            raise codec.CodecError("not an admin table")
        return AdminTable(d["name"], d["status"], codec.summary_from(d["summary"]), d["hand"], d["live"],
                          tuple(seat_from(s) for s in d["seats"]), tuple(d["waiting"]), d.get("tn", 0))
    except (KeyError, TypeError) as e:
        raise codec.CodecError(f"not an admin table: {e}") from None


# ---------------------------------------------------------------- the host's side
class HostAdmin:
    """Serves the admin acts for the tables of `host` (a started TableHost) and publishes their
    records. `stop` is what the end of a shutdown countdown calls (the role stops its process)."""

    def __init__(self, host, *, stop: Callable[[], None] = lambda: None, every: float = SNAP_EVERY) -> None:
        self.host = host
        self.local = LocalRoomAdmin(host.room)
        self.stop = stop
        self.every = every
        self._subs: list = []
        self._tables: dict[str, Any] = {}     # table -> its acts' subscription (None while made)
        self._task: asyncio.Task | None = None
        self._kept: dict[str, tuple] = {}     # table -> (its changes, its lobby row, its record's JSON)

    async def start(self) -> None:
        nc = self.host.nc
        for name in self.host.names:
            self._tables[name] = await nc.subscribe(table_subject(name), cb=self._on_act)
        if self.host.follow:       # a tournament's tables as they open and break
            self.host.room.table_listeners.append(self._table_event)
        self._subs.append(await nc.subscribe(ALL, cb=self._on_all))
        self._task = asyncio.get_running_loop().create_task(self._loop())

    def _table_event(self, table, added: bool) -> None:
        name = table.name
        if added and name not in self._tables:
            self._tables[name] = None

            async def subscribe() -> None:
                sub = await self.host.nc.subscribe(table_subject(name), cb=self._on_act)
                if name in self._tables:
                    self._tables[name] = sub
                else:
                    await sub.unsubscribe()
            self.host.spawn(subscribe())
        elif not added and name in self._tables:
            sub = self._tables.pop(name)
            if sub is not None:
                self.host.spawn(sub.unsubscribe())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        if self._table_event in self.host.room.table_listeners:
            self.host.room.table_listeners.remove(self._table_event)
        subs = [s for s in self._tables.values() if s is not None]
        self._tables.clear()
        for sub in [*self._subs, *subs]:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - a closed connection has no subscriptions
                pass
        self._subs.clear()

    def _records(self) -> list[str]:
        """Each table's record as JSON. Sent every second for every table, most of them as they
        were: a record is made again only when its table has changed since (or its lobby row,
        whose hands an hour run down with the time)."""
        out = []
        for name in self.host.names:
            table = self.host.room.tables.get(name)
            if table is None:
                continue
            changes, row = self.host.changes(name), table.summary()
            kept = self._kept.get(name)
            if kept is None or kept[0] != changes or kept[1] != row:
                kept = self._kept[name] = (changes, row, codec.dumps(table_to(self.local.table(name))).decode())
            out.append(kept[2])
        return out

    async def _snap(self) -> None:
        closing = self.host.room.closing_at is not None
        head = codec.dumps({"h": self.host.epoch, "closing": closing}).decode()
        await self.host.publish(SNAP, f'{head[:-1]},"tables":[{",".join(self._records())}]}}'.encode())

    async def _loop(self) -> None:
        while True:
            try:
                await self._snap()
            except Exception:  # noqa: BLE001 - one bad record must not stop the snapshots
                log.exception("the admin snapshot could not be made")
            await asyncio.sleep(self.every)

    async def _on_act(self, msg) -> None:
        try:
            reply = await self._act(msg.data)
        except RoomError as e:
            reply = {"ok": False, "msg": str(e)}
        except Exception:  # noqa: BLE001 - whatever went wrong, the host goes on
            log.exception("an admin act failed")
            reply = {"ok": False, "msg": "the table could not do that"}
        if msg.reply:
            await self.host.publish(msg.reply, codec.dumps(reply))
        if reply.get("ok"):
            await self._snap()

    async def _act(self, data: bytes) -> dict:
        try:
            d = codec.loads(data)
            op, table = d["op"], d["table"]
            if not isinstance(op, str) or table not in self.host.names or table not in self.host.room.tables:
                raise codec.CodecError("no such table here")
            if op == "kick":
                account, reason = d["a"], d["reason"]
                if type(account) is not int or not isinstance(reason, str):
                    raise codec.CodecError("a kick is an account and a reason")
                seat = await self.local.kick(table, account, reason)
                result = None if seat is None else seat_to(seat)
            elif op == "status":
                if d["status"] not in _STATUSES:
                    raise codec.CodecError("no such status")
                await self.local.set_status(table, d["status"])
                result = None
            elif op == "unwait":
                if type(d["a"]) is not int:
                    raise codec.CodecError("not an account")
                await self.local.leave_wait_list(table, d["a"])
                result = None
            else:
                raise codec.CodecError(f"no admin act {op!r}")
        except (codec.CodecError, KeyError, TypeError) as e:
            log.warning("a bad admin request: %s", e)
            return {"ok": False, "msg": f"the table did not understand that admin request ({e})"}
        return {"ok": True, "r": result, "table": table_to(self.local.table(table))}

    async def _on_all(self, msg) -> None:
        try:
            d = codec.loads(msg.data)
            op = d["op"]
            room = self.host.room
            if op == "say" and isinstance(d["text"], str):
                for name in self.host.names:     # the table line; the pages are the gateways'
                    t = room.tables.get(name)
                    if t is not None:
                        t.say(d["text"], "system", "Room")
                        t.changed()
            elif op == "mute" and type(d["a"]) is int and type(d["on"]) is bool:
                (room.muted.add if d["on"] else room.muted.discard)(d["a"])
            elif op == "shutdown_in" and isinstance(d["s"], (int, float)) and 0 < d["s"] <= 86400:
                room.shutdown_in(d["s"], self.stop)
            elif op == "cancel_shutdown":
                room.cancel_shutdown()
            else:
                raise codec.CodecError("not a room-wide admin word")
        except (codec.CodecError, KeyError, TypeError, RoomError) as e:
            log.warning("a bad room-wide admin message: %s", e)
            return
        await self._snap()


def _reconnecting(t: AdminTable) -> AdminTable:
    """A table as last heard from a host that has gone silent."""
    return replace(t, status="reconnecting", summary=replace(t.summary, status="reconnecting"))


# ---------------------------------------------------------------- the gateway's side
class RemoteRoomAdmin:
    """`RoomAdmin` of a room spread over table hosts, for the admins of `gateway` (see the module
    docstring). Every gateway runs one: it publishes its sessions and pages its clients'
    broadcasts, whether an admin is logged in there or not."""

    def __init__(self, gateway, *, timeout: float = TIMEOUT, every: float = SNAP_EVERY,
                 gone: float = SNAP_GONE, clock: Callable[[], float] = time.monotonic) -> None:
        self.gateway = gateway
        self.timeout = timeout
        self.every = every
        self.gone = gone
        self.clock = clock
        self._hosts: dict[str, tuple[float, dict[str, AdminTable], bool]] = {}
        self._gateways: dict[str, tuple[float, dict[int, tuple[str, int]]]] = {}
        self._subs: list = []
        self._task: asyncio.Task | None = None

    async def start(self) -> None:
        nc = self.gateway.nc
        self._subs.append(await nc.subscribe(SNAP, cb=self._on_snap))
        self._subs.append(await nc.subscribe(GATEWAYS, cb=self._on_gateway))
        self._subs.append(await nc.subscribe(BROADCAST, cb=self._on_broadcast))
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
        for sub in self._subs:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001
                pass
        self._subs.clear()

    # -- what is heard
    def _mine(self) -> dict[int, tuple[str, int]]:
        return {a: (c[0].name, len(c)) for a, c in self.gateway.room.clients.items() if c}

    async def _loop(self) -> None:
        while True:
            out = {str(a): [n, k] for a, (n, k) in self._mine().items()}
            try:
                await self.gateway.nc.publish(GATEWAYS, codec.dumps({"g": self.gateway.id, "s": out}))
            except Exception as e:  # noqa: BLE001 - the bus is away: said again next time
                log.debug("the sessions could not be published: %s", e)
            await asyncio.sleep(self.every)

    async def _on_snap(self, msg) -> None:
        try:
            d = codec.loads(msg.data)
            host, closing = d["h"], bool(d.get("closing"))
            tables = {t.name: t for t in (table_from(r) for r in d["tables"])}
            if not isinstance(host, str):
                raise codec.CodecError("no host")
        except (codec.CodecError, KeyError, TypeError) as e:
            log.warning("a bad admin snapshot: %s", e)
            return
        # A table another host deals now is that host's: the older record goes.
        for other, (at, held, c) in list(self._hosts.items()):
            if other != host and held.keys() & tables.keys():
                self._hosts[other] = (at, {n: t for n, t in held.items() if n not in tables}, c)
        self._hosts[host] = (self.clock(), tables, closing)

    async def _on_gateway(self, msg) -> None:
        try:
            d = codec.loads(msg.data)
            sessions = {int(a): (str(v[0]), int(v[1])) for a, v in d["s"].items()}
            gateway = d["g"]
            if not isinstance(gateway, str):
                raise codec.CodecError("no gateway")
        except (codec.CodecError, KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            log.warning("a bad sessions message: %s", e)
            return
        if gateway != self.gateway.id:
            self._gateways[gateway] = (self.clock(), sessions)

    async def _on_broadcast(self, msg) -> None:
        try:
            text = codec.loads(msg.data)["text"]
        except (codec.CodecError, KeyError, TypeError):
            return
        if isinstance(text, str):
            room = self.gateway.room
            for account in list(room.clients):
                room.page(account, text)

    def _live(self) -> list[tuple[dict[str, AdminTable], bool]]:
        """The records of the hosts heard lately, and whether each is shutting down."""
        now = self.clock()
        return [(t, c) for at, t, c in self._hosts.values() if now - at <= self.gone]

    def _all(self) -> dict[str, AdminTable]:
        now = self.clock()
        out: dict[str, AdminTable] = {}
        for at, tables, _ in self._hosts.values():
            if now - at <= self.gone:
                out.update(tables)
            else:
                out.update((n, _reconnecting(t)) for n, t in tables.items())
        rank = {n: i for i, n in enumerate(self.gateway.order)}
        return dict(sorted(out.items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0])))

    # -- reads (RoomAdmin)
    def table_names(self) -> list[str]:
        return list(self._all())

    def tables(self) -> list[AdminTable]:
        return list(self._all().values())

    def table(self, name: str) -> AdminTable:
        try:
            return self._all()[name]
        except KeyError:
            raise RoomError(f"no table host has said anything of {name!r} lately") from None

    def seats_of(self, account: int) -> list[AdminSeat]:
        return [s for t in self.tables() for s in t.seats if s.account == account]

    def sessions(self) -> dict[int, tuple[str, int]]:
        now = self.clock()
        out = dict(self._mine())
        for g, (at, sessions) in list(self._gateways.items()):
            if now - at > self.gone:
                del self._gateways[g]
                continue
            for a, (name, n) in sessions.items():
                out[a] = (name, out.get(a, (name, 0))[1] + n)
        return out

    def muted(self) -> frozenset[int]:
        return frozenset(self.gateway.store.muted_accounts())

    def shutting_down(self) -> bool:
        return any(c for _, c in self._live())

    # -- acts
    async def _ask(self, table: str, **request) -> Any:
        from nats.errors import NoRespondersError

        try:
            msg = await self.gateway.nc.request(table_subject(table), codec.dumps({"table": table, **request}),
                                                timeout=self.timeout)
            reply = codec.loads(msg.data)
            if not isinstance(reply, dict):
                raise codec.CodecError("not a reply")
        except NoRespondersError:
            raise RoomError(f"no table host serves {table!r} now: nothing was done") from None
        except (asyncio.TimeoutError, codec.CodecError, OSError, Exception) as e:  # noqa: BLE001
            if isinstance(e, RoomError):
                raise
            log.warning("admin %s at %s: %r", request.get("op"), table, e)
            raise RoomError(NOT_ANSWERING) from None
        if not reply.get("ok"):
            raise RoomError(str(reply.get("msg") or "the table refused"))
        try:
            record = table_from(reply["table"])
        except (codec.CodecError, KeyError):
            raise RoomError(NOT_ANSWERING) from None
        for tables, _ in self._live():
            if table in tables:
                tables[table] = record
        return reply.get("r")

    async def kick(self, table: str, account: int, reason: str) -> AdminSeat | None:
        seat = await self._ask(table, op="kick", a=account, reason=reason)
        return None if seat is None else seat_from(seat)

    async def leave_wait_list(self, table: str, account: int) -> None:
        await self._ask(table, op="unwait", a=account)

    async def set_status(self, table: str, status: str) -> None:
        await self._ask(table, op="status", status=status)

    def _spawn_publish(self, subject: str, payload: dict) -> None:
        self.gateway.spawn(self.gateway.nc.publish(subject, codec.dumps(payload)))

    def end_sessions(self, account: int, why: str) -> int:
        n = self.sessions().get(account, ("", 0))[1]
        # Every gateway's client of the account hears it on its events subject, as a host's end.
        self._spawn_publish(subjects.account_events(account), {"end": why, "taken_over": False})
        return n

    async def set_muted(self, account: int, on: bool, admin: str) -> bool:
        store = self.gateway.store
        changed = await self.gateway.room.writer.run(lambda: store.set_muted(account, on, admin))
        await self.gateway.nc.publish(ALL, codec.dumps({"op": "mute", "a": account, "on": on}))
        return changed

    def page(self, account: int, text: str) -> None:
        self._spawn_publish(subjects.account_events(account), {"page": text})

    def broadcast(self, text: str) -> None:
        self._spawn_publish(ALL, {"op": "say", "text": text})
        self._spawn_publish(BROADCAST, {"text": text})

    def shutdown_in(self, seconds: float, stop: Callable[[], None]) -> None:
        # `stop` (this gateway's) is not called: each table host stops itself when its hands are
        # settled; the gateways stay up (module docstring).
        self._spawn_publish(ALL, {"op": "shutdown_in", "s": seconds})

    def cancel_shutdown(self) -> bool:
        was = self.shutting_down()
        self._spawn_publish(ALL, {"op": "cancel_shutdown"})
        return was

    async def write(self, call: Callable[[], Any]) -> Any:
        return await self.gateway.room.writer.run(call)

    # Tournaments: read from the lobbies their hosts send (bus/client.py), acted on at the host
    # that owns each (bus/tournaments.py), which answers with the lobby after the act.
    def tournaments(self) -> list[api.TournamentView]:
        g = self.gateway
        return [g.tournament_view(r.number, None) for r in g.tournament_rows()]

    def find_tournament(self, text: str, prefer: tuple[str, ...]) -> api.TournamentView:
        return self.gateway.tournament_view(pick(self.gateway.tournament_rows(), text, prefer), None)

    async def operate_tournament(self, number: int, op: str, reason: str = "") -> None:
        from nats.errors import NoRespondersError

        try:
            msg = await self.gateway.nc.request(subjects.tournament_admin(number),
                                                codec.dumps({"op": op, "reason": reason}), timeout=self.timeout)
            reply = codec.loads(msg.data)
            if not isinstance(reply, dict):
                raise codec.CodecError("not a reply")
        except NoRespondersError:
            raise RoomError(f"no table host deals tournament #{number} now: nothing was done") from None
        except Exception as e:  # noqa: BLE001 - any trouble of the bus
            log.warning("admin %s at tournament #%d: %r", op, number, e)
            raise RoomError(NOT_ANSWERING) from None
        if not reply.get("ok"):
            raise codec.error_from(reply)
        if reply.get("tv") is not None:
            self.gateway.keep_tournament(reply["tv"])


__all__ = ["HostAdmin", "RemoteRoomAdmin", "table_subject"]
