"""Blind prompts: with Auto Blind off (seed 000) a player is asked before each blind he owes.

Apart from `Table` because the prompt is a small conversation of its own that holds a hand back:
who is asked and for how much, who has said yes, and the timer after which the silent are sat
out and the hand goes on. The table asks `ask(plan)` before dealing and deals once it says no.
"""

from __future__ import annotations


from cardroom.room import api
from cardroom.room.clock import Timer
from cardroom.room.seating import HandPlan
from cardroom.room.tablefaces import PromptingTable


class BlindPrompts:
    def __init__(self, table: PromptingTable) -> None:
        self.table = table
        self.asking: dict[int, int] = {}    # seat -> blind to post, while Auto Blind is off
        self.ok: set[int] = set()           # seats that said yes to this hand's prompt
        self.timer: Timer | None = None
        self.due: float | None = None       # when the silent are sat out (the timer's moment)
        self.held_left: float | None = None  # seconds that were left when hold() stopped the timer

    def asked(self, number: int) -> int:
        """The blind seat `number` is asked to post, or 0."""
        return self.asking.get(number, 0)

    def ask(self, plan: HandPlan) -> bool:
        """Seed 000: without Auto Blind a player is asked before each blind. True while waiting."""
        t = self.table
        posters = {*plan.blinds, *plan.live_posts, *plan.dead_posts} - {None}
        ask = {n for n in posters if n in t.seats and not t.seats[n].auto_blind
               and t.seats[n].bot is None and n not in self.ok}
        if not ask:
            self.ok = set()
            self.asking = {}
            return False
        self.asking = {n: self.amount(plan, n) for n in ask}
        for n in ask:
            t.seats[n].message = "post your blind to play this hand (Auto Blind is off)"
        # Hot-seat: the prompt waits for the player to take the device, as a decision clock does.
        self.timer = None
        if not t.settings.clock_waits_for_ready:
            self._arm(t.settings.action_seconds)
        t.changed()
        return True

    def _arm(self, seconds: float) -> None:
        t = self.table
        if t.clock_held:
            self.held_left = seconds
            return
        self.due = t.clock.now() + seconds
        self.timer = t.clock.call_later(seconds, self.unanswered)

    def hold(self) -> None:
        """Nobody can answer now (the table's clocks are held): the prompt's time stops."""
        if self.timer is not None and self.due is not None and self.asking:
            self.timer.cancel()
            self.timer = None
            self.held_left = max(0.0, self.due - self.table.clock.now())

    def release(self) -> None:
        """The prompt's time runs on with what was left."""
        left, self.held_left = self.held_left, None
        if left is not None and self.asking:
            self._arm(left)

    def amount(self, plan: HandPlan, number: int) -> int:
        """What seat `number` posts this hand: his blind, or what he owes to come in."""
        blinds = self.table.settings.structure.blinds
        return (sum(b for b, who in zip(blinds, plan.blinds) if who == number)
                + plan.live_posts.get(number, 0) + plan.dead_posts.get(number, 0))

    def post(self, account: int, post: bool) -> None:
        """Answer the blind prompt: post (the hand is dealt once everyone asked has answered) or
        decline (sit out). An intent's (PostBlind, SetAutoBlind): Table.handle tells the watchers."""
        t = self.table
        seat = t.need_seat(account)
        if seat.number not in self.asking:
            raise api.NotAllowedNow("there is no blind to post now")
        del self.asking[seat.number]
        seat.message = ""
        if post:
            self.ok.add(seat.number)
        else:
            t.holds.start_sit_out(seat)
        if not self.asking:
            if self.timer is not None:
                self.timer.cancel()
            t.dealing.start()

    def unanswered(self) -> None:
        t = self.table
        for number in list(self.asking):
            seat = t.seats.get(number)
            if seat is not None and not seat.sitting_out:
                t.holds.start_sit_out(seat)   # no answer in time: sat out, the hand goes on
        self.asking = {}
        t.dealing.start()
