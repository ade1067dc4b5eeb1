"""The floor of one table: sitting down, buying in, leaving, and cashing out with the store.

Apart from `Table` because every move of chips between an account and the table is a store
write that answers later (through the writer): a buy-in counts as `buying` until the store has
it, a leaver keeps the seat (`cashing_out`) until his chips are back in his account, and both
must respect a hand the store is recording (`Table.recording`). Leaving and coming back short
within `RATHOLE_SECONDS` is refused here too.
"""

from __future__ import annotations

import logging

from cardroom.room import api
from cardroom.room.narration import money
from cardroom.room.seat import Seat, kept_auto_blind
from cardroom.room.tablefaces import FloorTable

log = logging.getLogger("cardroom.table")
RATHOLE_SECONDS = 3600.0


class Floor:
    def __init__(self, table: FloorTable) -> None:
        self.table = table
        self.left_with: dict[int, tuple[int, float]] = {}   # account -> (stack, when it left)

    # sit and leave are intents' (Join, Leave): Table.handle tells the watchers after them.
    def sit(self, account: int, name: str, seat: int | None = None) -> int:
        t = self.table
        held = t.holds.held
        if t.status == "closed":
            raise api.TableClosed(f"{t.name} is closed")
        if t.seat_of(account):
            raise api.SeatTaken("you already have a seat at this table")
        held_for_me = [s for s, (a, _) in held.items() if a == account]
        free = [s for s in t.free_seats() if s not in held or s in held_for_me]
        if seat is None:
            if not free:
                raise api.SeatTaken("the table is full: join the wait list")
            seat = held_for_me[0] if held_for_me else free[0]
        elif not (1 <= seat <= t.settings.seats):
            raise api.SeatTaken(f"there is no seat {seat} at this table")
        elif seat not in free:
            raise api.SeatTaken(f"seat {seat} is taken" if seat in t.seats else
                                f"seat {seat} is held for a player from the wait list")
        t.holds.seated(account, seat)
        s = Seat(seat, account, name)
        s.stack = t.store.table_chips(account, t.name)  # chips left here before (a restart)
        s.bought_in = s.stack > 0
        s.auto_blind = kept_auto_blind(t.store, account)   # as he left it last time
        t.seats[seat] = s
        # The very first players at a table owe nothing; later arrivals post or wait (seed 001).
        if not t.hand and not t.plan:
            s.owes = ""
        t.say(f"{name} sits down in seat {seat}", "system", "Table")
        log.info("%s: %s sits down in seat %d", t.name, name, seat)
        t.maybe_start()
        return seat

    def buy_in_limits(self, account: int) -> tuple[int, int | None, int]:
        """(minimum, maximum, offered default): the default is the whole balance, capped (seed 001)."""
        t = self.table
        lo, hi = t.settings.buy_in_min, t.settings.buy_in_max
        left = self.left_with.get(account)
        if left and t.clock.now() - left[1] < RATHOLE_SECONDS:
            # Leaving and coming back short ("ratholing") is not allowed: come back with at least
            # what you left with, for an hour after leaving.
            lo = max(lo, left[0] if hi is None else min(left[0], hi))
        balance = t.store.balance(account)
        default = balance if hi is None else min(balance, hi)
        return lo, hi, max(default, 0)

    def buy_in(self, account: int, cents: int) -> None:
        t = self.table
        seat = t.need_seat(account)
        if seat.cashing_out:
            raise api.NotAllowedNow("you are leaving this table: your chips are going back to your account")
        lo, hi, _ = self.buy_in_limits(account)
        have = seat.table_chips
        if not isinstance(cents, int) or isinstance(cents, bool) or cents <= 0:
            raise api.BadBuyIn("enter a positive amount")
        if have == 0 and cents < lo:
            raise api.BadBuyIn(f"the minimum buy-in is {money(lo)}")
        if hi is not None and have + cents > hi:
            raise api.BadBuyIn(f"the most you can have on this table is {money(hi)}"
                               + (f" (you have {money(have)})" if have else ""))
        balance = t.store.balance(account)
        if cents > balance:   # the store refuses it too (a race); asked first to answer at once
            raise api.BadBuyIn(f"you have {money(balance)} in your account")
        seat.buying += cents
        t.writer.submit(lambda: t.store.buy_in(account, t.name, cents, seat=seat.number),
                        lambda _, error: self._bought_in(seat, cents, error))

    def _bought_in(self, seat: Seat, cents: int, error: Exception | None) -> None:
        t = self.table
        seat.buying -= cents
        if error is not None:   # a page: it reaches him wherever he is by now
            t.page(seat.account, f"{t.name}: your buy-in of {money(cents)} was not made: {error}")
        elif t.seats.get(seat.number) is not seat or seat.cashing_out:
            # He left (or is leaving) while the store recorded it: the chips go back to his account.
            def returned(_: object, e: Exception | None) -> None:
                if e is not None:
                    log.error("returning %s's buy-in at %s failed: %s", seat.name, t.name, e)
            t.writer.submit(lambda: t.store.cash_out(seat.account, t.name, cents), returned)
            return
        else:
            log.info("%s: %s buys in for %s", t.name, seat.name, money(cents))
            seat.bought_in = True
            if t.in_hand(seat) or seat.number in t.recording:
                seat.pending_chips += cents   # a change of table stake waits for the hand to end
                seat.message = f"{money(cents)} will be added after this hand"
            else:
                seat.stack += cents
        if t.seats.get(seat.number) is seat:
            t.holds.free_if_empty_and_away(seat)   # no chips came, and he is away: the grace starts
        t.changed()
        t.maybe_start()

    def leave(self, account: int) -> None:
        t = self.table
        seat = t.need_seat(account)
        if t.in_hand(seat) and not t.live_hand.folded[t.player_index(seat)]:
            seat.leaving = True        # folded when the action reaches him; chips after the hand
            if t.live_hand.actor == t.player_index(seat):
                t.drive()
            return
        if t.in_hand(seat):
            seat.leaving = True
            return
        self.remove(seat, "leaves the table")

    def remove(self, seat: Seat, why: str) -> None:
        """The seat goes once the store has its chips back in its account. Refused (the
        database failing): the player keeps the seat and is told why."""
        t = self.table
        if seat.cashing_out:
            return
        if seat.number in t.recording:
            seat.leaving = True   # its chips are the hand's until the store has recorded it
            t.changed()
            return
        if not seat.stack:
            self._gone(seat, why)
            return
        seat.cashing_out = seat.leaving = True   # not dealt in while its chips go back
        stack = seat.stack
        t.writer.submit(lambda: t.store.cash_out(seat.account, t.name, stack),
                        lambda _, error: self._cashed_out(seat, stack, why, error))

    def _cashed_out(self, seat: Seat, stack: int, why: str, error: Exception | None) -> None:
        t = self.table
        seat.cashing_out = False
        if error is None:
            self.left_with[seat.account] = (stack, t.clock.now())
            self._gone(seat, why)
            return
        log.error("cashing out %s at %s failed: %s", seat.name, t.name, error)
        seat.leaving = False
        t.page(seat.account, f"{t.name}: your chips could not be returned to your account ({error}): "
                              "you are still seated; try leaving again in a moment")
        t.changed()
        t.maybe_start()

    def _gone(self, seat: Seat, why: str) -> None:
        t = self.table
        for timer in (seat.sit_out_timer, seat.empty_timer):
            if timer:
                timer.cancel()
        del t.seats[seat.number]
        t.say(f"{seat.name} {why}", "system", "Table")
        log.info("%s: %s %s, cashing out %s", t.name, seat.name, why, money(seat.stack))
        t.holds.offer(seat.number)
        t.changed()
