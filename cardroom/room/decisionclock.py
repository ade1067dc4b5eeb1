"""The decision clock of one table: how long the player to act has, the countdown, the timeout.

Apart from `Table` because it is a job of its own with its own state (the deadline, the armed
timers, the hot-seat clock that waits for `ready`): the table asks it to start or stop, and it
answers a timeout by playing the rule's default (protected all-in, check, or fold) back through
the table. A player whose connection is lost gets `reconnect_seconds` from the loss to come back,
not the whole clock (seed 000 treats a lost connection as a timeout); the table tells the clock
when a connection goes or comes back (`connection_changed`). Timers come from the table's injected clock, so tests drive it without sleeping.

`hold()` stops the clock where it is when nobody can act through no fault of his own (the table's
host lost the bus: every screen says "reconnecting"); `release()` runs it on with the time that was
left, the lost connections' graces too. While held, a new decision's clock is set but not run.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from cardroom.engine.hand import Hand
from cardroom.room.clock import Timer
from cardroom.room.tablefaces import ClockedTable


class DecisionClock:
    def __init__(self, table: ClockedTable) -> None:
        self.table = table
        self.deadline: float | None = None
        self.full_deadline: float | None = None   # the deadline of a player who is there
        self.unclocked: tuple[Hand, int] | None = None   # (hand, player) whose clock waits for ready()
        self.timers: list[Timer] = []
        self.held_at: float | None = None     # when hold() stopped the clock (None: it runs)

    def arm(self, delay: float, fn: Callable[[], None]) -> None:
        self.timers.append(self.table.clock.call_later(delay, fn))

    def _disarm(self) -> None:
        for t in self.timers:
            t.cancel()
        self.timers = []

    def cancel(self) -> None:
        self._disarm()
        self.deadline = self.full_deadline = None
        self.unclocked = None

    def start(self, p: int) -> None:
        if self.table.settings.clock_waits_for_ready:
            self.unclocked = (self.table.live_hand, p)
            return
        self.run(p)

    def run(self, p: int) -> None:
        t = self.table
        self.full_deadline = full = t.clock.now() + t.settings.action_seconds
        self._run_until(p, self._deadline_of(p, full))

    def _deadline_of(self, p: int, full: float) -> float:
        """Player p's deadline, his full clock running to `full`; while his connection is lost, at
        most the end of its grace (seed 000: a lost connection is played as a timeout; the table
        does not wait the whole clock on every street for a seat nobody is at)."""
        t = self.table
        seat = t.seats[t.hand_seats[p]]
        if seat.connected or seat.lost_at is None:
            return full
        return min(full, seat.lost_at + t.settings.reconnect_seconds)

    def _run_until(self, p: int, deadline: float) -> None:
        t = self.table
        self._disarm()
        self.deadline = deadline
        if self.held_at is not None:
            return            # release() runs it
        delay = max(0.0, deadline - t.clock.now())
        hand = t.live_hand
        self.arm(delay, partial(self.timeout, hand, p))
        # The countdown: a tick each second of the last ten, so every screen shows it. One armed
        # at a time, each arming the next: most decisions are made before the first.
        k = min(t.settings.countdown_seconds, int(delay))
        if k > 0:
            self.arm(delay - k, partial(self.tick, hand, p, k))

    def connection_changed(self, number: int) -> None:
        """Seat `number` lost its connection or has it back: if its clock is running, it now runs
        to the end of the grace, or back to the full time it had."""
        t = self.table
        hand = t.hand
        full = self.full_deadline
        if self.deadline is None or full is None or hand is None or hand.over or hand.actor is None \
                or t.hand_seats[hand.actor] != number:
            return
        self._run_until(hand.actor, self._deadline_of(hand.actor, full))

    def hold(self) -> None:
        """Stop the clock where it is (see the module docstring)."""
        if self.held_at is None:
            self.held_at = self.table.clock.now()
            self._disarm()

    def release(self) -> None:
        """Run the clock on from where hold() stopped it: every deadline, and the moment each
        lost connection was lost, move on by the time it was held."""
        if self.held_at is None:
            return
        t = self.table
        shift, self.held_at = t.clock.now() - self.held_at, None
        for seat in t.seats.values():
            if seat.lost_at is not None:
                seat.lost_at += shift
        if self.deadline is None:
            return
        self.deadline += shift
        if self.full_deadline is not None:
            self.full_deadline += shift
        hand = t.hand
        if hand is not None and not hand.over and hand.actor is not None:
            self._run_until(hand.actor, self.deadline)

    def ready(self, account: int) -> None:
        """Hot-seat (clock_waits_for_ready): the player to act has the device; their clock starts."""
        t = self.table
        seat, waiting = t.seat_of(account), self.unclocked
        if seat is None or waiting is None:
            return
        hand, p = waiting
        if hand is t.hand and not hand.over and hand.actor == p and t.hand_seats[p] == seat.number:
            self.unclocked = None
            self.run(p)
            t.changed()     # Ready is quiet: the watchers hear only of a clock that starts

    def tick(self, hand: Hand, p: int, k: int) -> None:
        t = self.table
        if hand is t.hand and hand.actor == p:
            if k > 1 and self.deadline is not None:
                self.arm(max(0.0, self.deadline - (k - 1) - t.clock.now()), partial(self.tick, hand, p, k - 1))
            if k == t.settings.countdown_seconds:
                t.say(f"{hand.players[p].name}, you have {k} seconds to act")
            t.changed()

    def timeout(self, hand: Hand, p: int) -> None:
        t = self.table
        if hand is not t.hand or hand.over or hand.actor != p:
            return
        self.deadline = self.full_deadline = None
        seat = t.seats[t.hand_seats[p]]
        seat.timed_out = True
        lg = hand.legal()
        # A protected all-in contests only what the player has put in; with nothing in yet it could
        # win nothing, so it would cost a day's protection and show the cards for nothing: such a
        # timeout is played as check-or-fold and the quota is kept (quota is only asked otherwise).
        if t.policy.protected_all_in and lg.phase == "bet" and not lg.bring_in and hand.totals[p] > 0:
            # The day's count is a store write: the timeout is played when the writer answers.
            t.writer.submit(lambda: t.use_quota(seat.account),
                            lambda protect, error: self.timed_out(hand, p, bool(protect) and not error))
        else:
            self.timed_out(hand, p, False)

    def timed_out(self, hand: Hand, p: int, protect: bool) -> None:
        t = self.table
        if hand is not t.hand or hand.over or hand.actor != p:
            return   # he acted while the store counted the protection
        seat = t.seats[t.hand_seats[p]]
        if protect:
            events = hand.protect_all_in(p)
            seat.message = "you timed out: played as a protected all-in"
        else:
            events = t.play_default(seat, hand.legal())
            seat.message = "you timed out"
        t.narrate_events(events)
        if hand.over:
            t.settlement.finish()
        else:
            t.drive()

    def seconds_left(self) -> float | None:
        if self.deadline is None:
            return None
        now = self.table.clock.now() if self.held_at is None else self.held_at
        return max(0.0, self.deadline - now)
