"""Tournaments on the bus: a table host's `TournamentHost`, started by its TableHost (bus/host.py),
and each tournament's `Lobby` as a gateway keeps it (bus/client.py).

The tournaments a host deals are those its room holds (`room.tournaments`: in a room of several
processes, the instances of the tournaments whose leases the host holds, roles/tablehost.py);
their tables are the room's tables, which the TableHost serves as they open and break. Here:

- room actions (`cr.tn.<N>.i`, request/reply): Register, Unregister ... each a record of
  room/actions.py by its verb, decoded as a table's intents are (codec.request_from) and done
  through the account's session here (`Session.ask`, as in one process). The reply is the answer
  and the tournament's lobby right after it, so the caller's next look shows what he did;
- an operator's act (`cr.tn.<N>.adm`: start, pause, resume, cancel), done as in one process
  (LocalRoomAdmin.operate_tournament), answered with the lobby after it;
- each tournament's lobby (`cr.tn.<N>.v`, codec.tournament_to: the railbird's view and what
  differs for each account with an entry) when it changed, at most once every PUBLISH_EVERY
  seconds (every hand's end changes it), at least every REPEAT_EVERY, and all of them at once
  when a gateway that just came asks (`cr.tn.ask`); and every second the list of this host's
  tournaments (`cr.tn.list`), so a gateway drops those it no longer deals (over and replaced,
  or taken by another host).

Cost (a 1,000-player sit & go, 749 players in at 109 tables): a lobby is 89 kB, made in about
20 ms (its view 13, the accounts' parts 3, encoding 4), at most once a second while it plays;
a gateway decodes it in 15 ms when first read, and makes each account's view in 11 us.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import time
from dataclasses import replace

from cardroom.bus import codec, subjects
from cardroom.room import actions, api
from cardroom.room.admin import TOURNAMENT_OPS, LocalRoomAdmin
from cardroom.room.api import RoomError
from cardroom.room.tournaments import views

log = logging.getLogger("cardroom.bus.tournaments")

PUBLISH_EVERY = 1.0     # seconds between two lobbies of one tournament at most
REPEAT_EVERY = 5.0      # a lobby unchanged is sent again this often
_BROKEN = "the tournament could not do that: try again in a moment"


class TournamentHost:
    """The tournaments of `host`'s room (`host`: the TableHost that starts this beside it, whose
    connection, epoch, sessions and publishing it uses)."""

    def __init__(self, host, *, every: float = PUBLISH_EVERY) -> None:
        self.host = host
        self.lobby = host.room.tournaments
        self.every = every
        self._subs: dict[int, list] = {}          # number -> its subscriptions (empty while made)
        self._made: dict[int, int] = {}           # number -> lobbies made so far (their stamps)
        self._sent: dict[int, tuple] = {}         # number -> (what it showed, when) as last sent
        self._parts: dict[int, tuple] = {}        # number -> (its version, the accounts' parts)
        self._admin = LocalRoomAdmin(host.room)
        self._task: asyncio.Task | None = None
        self._ask = None

    async def start(self) -> None:
        self.lobby.listeners.append(self._resync)
        self._resync()
        self._ask = await self.host.nc.subscribe(subjects.TOURNAMENT_ASK, cb=self._on_ask)
        self._task = asyncio.get_running_loop().create_task(self._loop())

    async def _on_ask(self, msg) -> None:
        for t in self.lobby.all():
            if t.number in self._subs:
                await self.host.publish(subjects.tournament_view(t.number), self.message(t))

    async def stop(self) -> None:
        if self._resync in self.lobby.listeners:
            self.lobby.listeners.remove(self._resync)
        if self._task is not None:
            self._task.cancel()
        subs = [s for made in self._subs.values() for s in made] + ([self._ask] if self._ask else [])
        self._subs.clear()
        for sub in subs:
            try:
                await sub.unsubscribe()
            except Exception:  # noqa: BLE001 - a closed connection has no subscriptions
                pass

    # ------------------------------------------------------------------ which tournaments
    def _resync(self) -> None:
        """Serve the tournaments the room holds now (one made, restored, over or dropped)."""
        numbers = {t.number for t in self.lobby.all()}
        for number in numbers - self._subs.keys():
            self._subs[number] = []
            self.host.spawn(self._subscribe(number))
        for number in self._subs.keys() - numbers:
            for sub in self._subs.pop(number):
                self.host.spawn(sub.unsubscribe())
            self._sent.pop(number, None)
            self._parts.pop(number, None)

    async def _subscribe(self, number: int) -> None:
        nc = self.host.nc
        made = [await nc.subscribe(subjects.tournament_intents(number), cb=functools.partial(self._on_intent, number)),
                await nc.subscribe(subjects.tournament_admin(number), cb=functools.partial(self._on_admin, number))]
        if number in self._subs:
            self._subs[number] = made
            self._publish(number)
        else:                      # gone meanwhile
            for sub in made:
                await sub.unsubscribe()

    def _get(self, number: int):
        try:
            return self.lobby.get(number)
        except RoomError:
            return None

    def entered(self, account: int) -> bool:
        """Has `account` an entry still in a tournament here?"""
        return any(e.player == account and not e.out
                   for t in self.lobby.live.values() for e in t.director.entries.values())

    # ------------------------------------------------------------------ lobbies
    def message(self, t) -> bytes:
        """Tournament `t`'s lobby as it travels (codec.tournament_to), stamped anew."""
        view = t.view(None)
        cached = self._parts.get(t.number)
        if cached is None or cached[0] != t.version:
            cached = self._parts[t.number] = (t.version, views.parts(t, view))
        n = self._made[t.number] = self._made.get(t.number, 0) + 1
        self._sent[t.number] = (self._shows(t), self.host._loop.time())
        return codec.tournament_to(self.host.epoch, n, view, cached[1], views.newcomer(t))

    @staticmethod
    def _shows(t) -> tuple:
        """What a tournament's lobby shows that changes without a record (a hand begun)."""
        return (t.version, views.state_of(t), tuple((n, len(x.seats), x.hand is not None and not x.hand.over)
                                                    for n, x in sorted(t.tables.items())))

    def _publish(self, number: int) -> None:
        t = self._get(number)
        if t is not None:
            self.host.spawn(self.host.publish(subjects.tournament_view(number), self.message(t)))

    async def _loop(self) -> None:
        while True:
            await asyncio.sleep(self.every)
            try:
                now = self.host._loop.time()
                for t in self.lobby.all():
                    sent = self._sent.get(t.number)
                    if sent is None or sent[0] != self._shows(t) or now - sent[1] >= REPEAT_EVERY:
                        await self.host.publish(subjects.tournament_view(t.number), self.message(t))
                await self.host.publish(subjects.TOURNAMENT_LIST, codec.dumps(
                    {"h": self.host.epoch, "tn": sorted(self._subs)}))
            except Exception:  # noqa: BLE001 - one bad lobby must not stop the others'
                log.exception("the tournaments' lobbies could not be sent")

    # ------------------------------------------------------------------ asked
    async def _on_intent(self, number: int, msg) -> None:
        try:
            reply = await self._serve(number, msg.data)
        except Exception:  # noqa: BLE001 - whatever went wrong, the host goes on serving
            log.exception("a room action at tournament #%d failed", number)
            reply = codec.reply_error(RoomError(_BROKEN))
        if msg.reply:
            await self.host.publish(msg.reply, reply)

    async def _serve(self, number: int, data: bytes) -> bytes:
        try:
            account, sid, action = codec.request_from(data, actions.ROOM_ACTIONS)
            if getattr(action, "tournament", None) != number:
                raise codec.CodecError(f"not an action of tournament #{number}")
        except codec.CodecError as e:
            log.warning("a bad request at tournament #%d: %s", number, e)
            return codec.reply_error(RoomError(f"the tournament did not understand that request ({e})"))
        try:
            session = await self.host.session_for(account, sid)
            result = await session.ask(action)
        except RoomError as e:
            return codec.reply_error(e)
        return self._answer(number, result)

    def _answer(self, number: int, result) -> bytes:
        """ok, the answer, and the tournament's lobby after it (also sent to every gateway)."""
        t = self._get(number)
        if t is None:
            return codec.reply_ok(result, None)
        data = self.message(t)
        self.host.spawn(self.host.publish(subjects.tournament_view(number), data))
        return codec.reply_ok(result, data.decode("utf-8"), key="tv")

    async def _on_admin(self, number: int, msg) -> None:
        try:
            d = codec.loads(msg.data)
            op, reason = d.get("op"), d.get("reason", "")
            if op not in TOURNAMENT_OPS or not isinstance(reason, str):
                raise codec.CodecError(f"no tournament act {op!r}")
            await self._admin.operate_tournament(number, op, reason)
            reply = self._answer(number, None)
        except (codec.CodecError, AttributeError) as e:
            log.warning("a bad tournament admin request: %s", e)
            reply = codec.reply_error(RoomError(f"the tournament did not understand that admin request ({e})"))
        except RoomError as e:
            reply = codec.reply_error(e)
        except Exception:  # noqa: BLE001
            log.exception("an admin act at tournament #%d failed", number)
            reply = codec.reply_error(RoomError(_BROKEN))
        if msg.reply:
            await self.host.publish(msg.reply, reply)


# ---------------------------------------------------------------- a gateway's side
# Where a lobby's fields are in its array (codec.record_to of a TournamentView).
_NEWS = tuple(i for i, f in enumerate(dataclasses.fields(api.TournamentView))
              if f.name in ("level", "late_registration", "hand_for_hand", "paused"))
_PLAYERS = next(i for i, f in enumerate(dataclasses.fields(api.TournamentView)) if f.name == "players")


def _entry(players: list, index) -> object:
    """The entry number of the raw player at `index` (codec.record_to of a TournamentPlayer)."""
    try:
        return players[index][1] if type(index) is int and index >= 0 else None
    except (IndexError, TypeError, KeyError):
        return None


class Lobby:
    """A tournament's lobby as its host last sent it (codec.tournament_to), as a gateway keeps it
    (bus/client.py): its row decoded at once, the rest when first read."""

    __slots__ = ("epoch", "n", "raw", "summary", "parts", "news", "arrived", "_decoded")

    def __init__(self, d) -> None:
        if not (isinstance(d, dict) and isinstance(d.get("e"), str) and type(d.get("n")) is int
                and isinstance(d.get("m"), list) and isinstance(d.get("v"), list) and d["v"]):
            raise codec.CodecError("not a tournament message")
        self.epoch, self.n, self.arrived = d["e"], d["n"], time.monotonic()
        self.raw: dict | None = d
        # Its times count from its arrival, on this process's clock (the client's `now`).
        self.summary = replace(codec.record_from(api.TournamentSummary, d["v"][0]), at=self.arrived)
        # Each entrant's part as it shows: his entry, registered, why he may not register (not
        # his rank or place in the list, which move with every hand's end anywhere).
        players = d["v"][_PLAYERS] if len(d["v"]) > _PLAYERS and isinstance(d["v"][_PLAYERS], list) else []
        self.parts = {row[0]: (_entry(players, row[1]), row[3], row[4]) for row in d["m"]
                      if isinstance(row, list) and len(row) == 5 and type(row[0]) is int}
        # What its entrants are woken for: its row (but its times), its level, late registration,
        # hand for hand, a pause.
        self.news = (replace(self.summary, starts_in=None, at=0.0),
                     json.dumps([d["v"][i] for i in _NEWS if i < len(d["v"])]))
        self._decoded: tuple | None = None

    def newer_than(self, other: Lobby | None) -> bool:
        return other is None or self.epoch != other.epoch or self.n >= other.n

    def wakes(self, account: int, older: Lobby | None) -> bool:
        """Does this lobby show `account`, an entrant, news since `older`?"""
        return account in self.parts and (older is None or older.news != self.news
                                          or older.parts.get(account) != self.parts[account])

    def decoded(self) -> tuple[api.TournamentView, dict, str]:
        if self._decoded is None:
            _, _, view, mine, newcomer = codec.tournament_from(self.raw)
            self._decoded = (replace(view, summary=self.summary), mine, newcomer)
            self.raw = None
        return self._decoded


__all__ = ["Lobby", "TournamentHost"]
