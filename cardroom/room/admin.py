"""What an admin can read of the room and do to it, as plain records and methods.

`RoomAdmin` is the admin commands' view of the tables and sessions (cardroom/admin/commands.py
talks to it, not to `Table` or its seats), so the same commands can run over a room in this
process (`LocalRoomAdmin`) or one across the bus: nothing it returns is a live object.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Protocol

from cardroom.engine.tournament import TournamentError
from cardroom.room import api

if TYPE_CHECKING:
    from cardroom.room.room import Room
    from cardroom.room.table import Table


@dataclass(frozen=True, slots=True)
class AdminSeat:
    table: str
    number: int
    account: int
    name: str
    chips: int              # the stack plus chips waiting to be added after the hand
    stack: int
    sitting_out: bool
    connected: bool
    leaving: bool
    cashing_out: bool       # the store is moving its chips back to the account


@dataclass(frozen=True, slots=True)
class AdminTable:
    name: str
    status: str
    summary: api.TableSummary
    hand_id: str            # the last hand dealt here, or ""
    hand_live: bool         # a hand is in progress
    seats: tuple[AdminSeat, ...]
    waiting: tuple[int, ...]   # accounts on the wait list, in order
    tournament: int = 0        # the tournament whose table it is (its number), 0: a cash table


# What an operator may do to a tournament (RoomAdmin.operate_tournament).
TOURNAMENT_OPS = ("start", "pause", "resume", "cancel")


class RoomAdmin(Protocol):
    def table_names(self) -> list[str]: ...
    def tables(self) -> list[AdminTable]: ...
    def table(self, name: str) -> AdminTable: ...
    def seats_of(self, account: int) -> list[AdminSeat]: ...
    def sessions(self) -> dict[int, tuple[str, int]]:
        """account -> (its name, its live sessions), for accounts with a session."""
    # Acts on a table are coroutines: across the bus each is a request to the table's host.
    async def kick(self, table: str, account: int, reason: str) -> AdminSeat | None:
        """Remove the account from the table (after the hand he is in); his seat afterwards."""
    async def leave_wait_list(self, table: str, account: int) -> None: ...
    async def set_status(self, table: str, status: str) -> None: ...
    def end_sessions(self, account: int, why: str) -> int:
        """End every live session of the account, telling each why; how many there were."""
    def muted(self) -> frozenset[int]: ...
    async def set_muted(self, account: int, on: bool, admin: str) -> bool: ...
    def page(self, account: int, text: str) -> None: ...
    def broadcast(self, text: str) -> None: ...
    def shutting_down(self) -> bool: ...
    def shutdown_in(self, seconds: float, stop: Callable[[], None]) -> None: ...
    def cancel_shutdown(self) -> bool: ...
    async def write(self, call: Callable[[], Any]) -> Any:
        """Run a store write through the room's writer (off the loop); its result."""
    def tournaments(self) -> list[api.TournamentView]:
        """Every tournament listed (registering, running, the last of each that is over)."""
    def find_tournament(self, text: str, prefer: tuple[str, ...]) -> api.TournamentView:
        """A tournament by "#N" or by name (among several of that name, the first in a state of
        `prefer`); RoomError naming those there are."""
    async def operate_tournament(self, number: int, op: str, reason: str = "") -> None:
        """One of TOURNAMENT_OPS; RoomError saying why it is refused."""


def _seat(table: Table, s) -> AdminSeat:
    return AdminSeat(table.name, s.number, s.account, s.name, s.stack + s.pending_chips, s.stack,
                     s.sitting_out, s.connected, s.leaving, s.cashing_out)


class LocalRoomAdmin:
    """`RoomAdmin` over the in-process `Room`; each call runs on the loop that owns the tables."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def table_names(self) -> list[str]:
        return list(self.room.tables)

    def _record(self, t: Table) -> AdminTable:
        line = t.policy.line(t, None)
        return AdminTable(t.name, t.status, t.summary(), t.hand_id,
                          t.hand is not None and not t.hand.over,
                          tuple(_seat(t, s) for s in t.seats.values()), tuple(a for a, _ in t.wait_list),
                          line.number if line is not None else 0)

    def tables(self) -> list[AdminTable]:
        return [self._record(t) for t in self.room.tables.values()]

    def table(self, name: str) -> AdminTable:
        return self._record(self.room.tables[name])

    def seats_of(self, account: int) -> list[AdminSeat]:
        return [_seat(t, s) for t in self.room.tables.values() if (s := t.seat_of(account)) is not None]

    def sessions(self) -> dict[int, tuple[str, int]]:
        return {a: (c[0].name, len(c)) for a, c in self.room.clients.items() if c}

    async def kick(self, table: str, account: int, reason: str) -> AdminSeat | None:
        t = self.room.tables[table]
        t.kick(account, reason)
        s = t.seat_of(account)
        return None if s is None else _seat(t, s)

    async def leave_wait_list(self, table: str, account: int) -> None:
        self.room.tables[table].leave_wait_list(account)

    async def set_status(self, table: str, status: str) -> None:
        self.room.tables[table].set_status(status)

    def end_sessions(self, account: int, why: str) -> int:
        clients = list(self.room.clients.get(account, ()))
        for client in clients:
            client.end(why)
        return len(clients)

    def muted(self) -> frozenset[int]:
        return frozenset(self.room.muted)

    async def set_muted(self, account: int, on: bool, admin: str) -> bool:
        return await self.room.set_muted(account, on, admin)

    def page(self, account: int, text: str) -> None:
        self.room.page(account, text)

    def broadcast(self, text: str) -> None:
        self.room.broadcast(text)

    def shutting_down(self) -> bool:
        return self.room.closing_at is not None

    def shutdown_in(self, seconds: float, stop: Callable[[], None]) -> None:
        self.room.shutdown_in(seconds, stop)

    def cancel_shutdown(self) -> bool:
        return self.room.cancel_shutdown()

    async def write(self, call: Callable[[], Any]) -> Any:
        return await self.room.writer.run(call)

    def tournaments(self) -> list[api.TournamentView]:
        return [t.view(None) for t in self.room.tournaments.all()]

    def find_tournament(self, text: str, prefer: tuple[str, ...]) -> api.TournamentView:
        return self.room.tournaments.find(text, prefer).view(None)

    async def operate_tournament(self, number: int, op: str, reason: str = "") -> None:
        t = self.room.tournaments.get(number)
        d = t.director
        calls = {"start": d.start, "pause": d.pause, "resume": d.resume,
                 "cancel": lambda now: d.cancel(now, reason or "cancelled by the card room")}
        if op not in calls:
            raise api.RoomError(f"a tournament is {', '.join(TOURNAMENT_OPS)}ed, not {op!r}")
        try:
            t.operate(calls[op])
        except TournamentError as e:
            raise api.RoomError(str(e)) from None
