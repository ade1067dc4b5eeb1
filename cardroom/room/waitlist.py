"""Seat holds and the wait list, and the timers that give a seat back.

Apart from `Table` because these are the table's slow timers, all about who keeps a seat: the
wait list and the seat held a short while for its first name when a seat opens; the sit-out
limit (and the count of sit-outs) after which a player is removed; and the grace after which a
seat with no chips whose player is away is given back. Each ends, if it runs out, in the floor
removing a seat (`Floor.remove`).
"""

from __future__ import annotations

from functools import partial

from cardroom.room import api
from cardroom.room.clock import Timer
from cardroom.room.seat import Seat
from cardroom.room.tablefaces import HoldingTable


class SeatHolds:
    def __init__(self, table: HoldingTable) -> None:
        self.table = table
        self.wait_list: list[tuple[int, str]] = []
        self.held: dict[int, tuple[int, Timer]] = {}        # seat -> (account, timer)

    # ---------------------------------------------------------------- the wait list
    def join(self, account: int, name: str) -> int:
        """The JoinWaitList intent's (Table.handle tells the watchers): my place on the list."""
        t = self.table
        if t.seat_of(account):
            raise api.NotAllowedNow("you already have a seat here")
        if any(a == account for a, _ in self.wait_list):
            return [a for a, _ in self.wait_list].index(account) + 1
        if len(t.seats) + len(self.held) < t.settings.seats:
            raise api.NotAllowedNow("a seat is free: join the game now")
        self.wait_list.append((account, name))
        return len(self.wait_list)

    def leave(self, account: int) -> None:
        self.wait_list = [(a, n) for a, n in self.wait_list if a != account]
        self.table.changed()

    def seated(self, account: int, seat: int) -> None:
        """`account` sat down in `seat` (Floor.sit): a hold on that seat is over, and he is off
        the wait list."""
        if seat in self.held:
            self.held.pop(seat)[1].cancel()
        self.wait_list = [(a, n) for a, n in self.wait_list if a != account]

    def offer(self, number: int) -> None:
        """A seat opened: page the first on the wait list and hold it for them a short while."""
        t = self.table
        if not self.wait_list or number in self.held:
            return
        account, name = self.wait_list.pop(0)
        timer = t.clock.call_later(t.settings.seat_hold_seconds, lambda: self._hold_expired(number, account))
        self.held[number] = (account, timer)
        t.page(account, f"A seat is open for you at {t.name}: join within "
                         f"{int(t.settings.seat_hold_seconds)} seconds")
        t.changed()

    def _hold_expired(self, number: int, account: int) -> None:
        if self.held.get(number, (None,))[0] != account:
            return
        del self.held[number]
        self.offer(number)
        self.table.changed()

    # ---------------------------------------------------------------- sitting out
    def start_sit_out(self, seat: Seat) -> None:
        t = self.table
        seat.sitting_out = True
        seat.sit_out_count += 1
        if seat.sit_out_count > t.settings.sit_outs_allowed:
            seat.message = "you sat out more than three times: removed from the table"
            t.page(seat.account, f"You were removed from {t.name}: sat out too often")
            if not t.in_hand(seat):
                t.floor.remove(seat, "is removed after sitting out too often")
            else:
                seat.leaving = True
            return
        limit = t.settings.sit_out_limit
        seat.sit_out_timer = t.clock.call_later(limit, partial(self._sit_out_expired, seat))

    def _sit_out_expired(self, seat: Seat) -> None:
        t = self.table
        if t.seats.get(seat.number) is not seat or not seat.sitting_out:
            return
        t.page(seat.account, f"You sat out too long at {t.name}: your chips are back in your account")
        if t.in_hand(seat):
            seat.leaving = True
        else:
            t.floor.remove(seat, "sat out too long and is removed")

    # ---------------------------------------------------------------- empty and away
    def free_if_empty_and_away(self, seat: Seat) -> None:
        """A seat with no chips whose player is away can never be dealt in: it is given back
        unless he comes back or chips arrive first. One never bought in (he dropped with the
        buy-in dialog open, or a reconnect storm seated him) goes after the time the room gives
        anyone to take a seat (seat_hold_seconds, a paged wait-lister's): it held nothing of his,
        and kept a $0 "disconnected" seat from the wait list for the whole sit-out limit. One that
        went bust while away gets the grace a disconnected player with chips gets (the sit-out
        limit: he is timed out, sat out, and removed when it runs out)."""
        t = self.table
        if seat.connected or seat.table_chips or t.in_hand(seat):
            if seat.empty_timer is not None:
                seat.empty_timer.cancel()
                seat.empty_timer = None
        elif seat.empty_timer is None:
            grace = t.settings.sit_out_limit if seat.bought_in else t.settings.seat_hold_seconds
            seat.empty_timer = t.clock.call_later(grace, lambda: self._empty_seat_expired(seat))

    def _empty_seat_expired(self, seat: Seat) -> None:
        t = self.table
        seat.empty_timer = None
        if t.seats.get(seat.number) is seat and not (
                seat.connected or seat.table_chips or t.in_hand(seat)):
            t.floor.remove(seat, "left without chips: the seat is free")
