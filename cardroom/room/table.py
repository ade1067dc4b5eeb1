"""One table: the only owner of its seats and its hand (an actor on the asyncio loop).

Every intent is an action record (room/actions.py) run on the loop by its handler (at the end
of this module), so nothing interleaves inside one: it checks, changes state, and then the table
tells its watchers "something changed", once (`Table.handle`). Its store writes go to the writer
(`cardroom.room.writer`), whose answer comes back as a later step on the loop, so a database
that makes a write wait stalls this table's money, never the loop. Timers (the decision clock,
sit-out limits, seat holds, the pause between hands, retries) come from the injected clock, so
tests drive a table through hours of play without sleeping.

Money: a seat's stack between hands equals its chips on this table in the store; a hand moves
the dealt seats' stacks into escrow (`begin_hand`) and settles them in one transaction. While
the store records a hand's start or end (`recording`), those seats' chips are the hand's: a
buy-in waits for the hand as during it, and a seat that goes leaves when the hand is recorded.
A settlement the store cannot take is retried, then the hand is voided: its stacks go back.
"""

from __future__ import annotations

import logging
import random
from collections import deque
from datetime import datetime
from functools import partial
from typing import Any, Callable, Iterable, Protocol, Sequence, TypeVar

from cardroom.engine.cards import Card
from cardroom.engine.events import Event
from cardroom.engine.hand import Hand
from cardroom.engine.legality import IllegalAction, Legal
from cardroom.engine.money import format_cents
from cardroom.room import api, tableview
from cardroom.room.actions import (Act, Action, BuyIn, Caller, Chat, Join, JoinWaitList, Leave, LeaveWaitList,
                                   PostBlind, PostOrWait, Ready, SetAuto, SetAutoBlind, SitIn, SitOut, Unwatch,
                                   Watch)
from cardroom.room.api import RoomError
from cardroom.room.auto import auto_decision
from cardroom.room.clock import Clock, Timer
from cardroom.room.narration import dealer_answer, narrate
from cardroom.room.blindprompts import BlindPrompts
from cardroom.room.dealing import Dealing
from cardroom.room.decisionclock import DecisionClock
from cardroom.room.floor import RATHOLE_SECONDS, Floor
from cardroom.room.ports import Store
from cardroom.room.seat import Seat, keep_auto_blind
from cardroom.room.seating import HandPlan
from cardroom.room.settlement import SETTLE_RETRIES, VOID_RETRY_MAX, Settlement
from cardroom.room.tablefaces import ViewedTable
from cardroom.room.tablesettings import TableSettings
from cardroom.room.waitlist import SeatHolds
from cardroom.room.writer import InlineWriter, Writer

__all__ = ["CASH_GAME", "HANDLERS", "Handler", "Handlers", "RATHOLE_SECONDS", "SETTLE_RETRIES", "STALE_DECISION",
           "VOID_RETRY_MAX", "Table", "TablePolicy", "TableSettings", "handles"]

log = logging.getLogger("cardroom.table")

class Settles(Protocol):
    """What ends a table's hands (settlement.py's Settlement; a tournament's, tournaments/policy.py)."""

    def finish(self) -> None:
        """The hand is over: settle it."""


class TablePolicy:
    """What kind of table this is, declared in one place: how its seats are funded and its hands
    dealt and settled, and what its players may ask. This class is the cash game's (`CASH_GAME`);
    a tournament's table is given its own (cardroom.room.tournaments.policy), so the table never
    asks which kind it is but the policy's answer."""

    # Its chips are money: bought in and cashed out, listed in the lobby and in My Money.
    money = True
    # A timeout with chips in the pot may be played as a protected all-in (seed 000's daily quota:
    # a cash game's rule).
    protected_all_in = True
    # A player sitting out is dealt in, posts his blinds and antes, and the dealer checks or folds
    # for him at once (a tournament's: nobody leaves with his chips).
    away_dealt_in = False

    @property
    def handlers(self) -> Handlers:
        """What a player may ask of the table: one handler per action record."""
        return HANDLERS

    def dealing(self, table: Table) -> Dealing:
        return Dealing(table)

    def settlement(self, table: Table) -> Settles:
        return Settlement(table)

    def amount(self, n: int) -> str:
        """An amount the dealer says (a bet, a pot): money, in cents."""
        return format_cents(n)

    def line(self, table: ViewedTable, account: int | None) -> api.TournamentLine | None:
        """What a seat's view says of the event the table plays in: nothing, for a cash game."""
        return None


class Table:
    def __init__(self, settings: TableSettings, store: Store, clock: Clock, *, rng: random.Random | None = None,
                 quota: Callable[[int], bool] | None = None,
                 page: Callable[[int, str], None] | None = None,
                 writer: Writer | None = None, policy: TablePolicy | None = None) -> None:
        self.settings = settings
        self.policy = policy or CASH_GAME
        self.name = settings.name
        self.store = store
        self.clock = clock
        self.rng = rng
        self._quota = quota or (lambda account: True)
        self._page = page or (lambda account, text: None)
        self.writer = writer or InlineWriter()
        self.status = "open"
        # Set by the room while it shuts down (Room.shutdown_in): no new hand starts, and it is
        # called when this table has no hand in progress.
        self.closing: Callable[[], None] | None = None
        self.seats: dict[int, Seat] = {}
        self.hand: Hand | None = None
        self.hand_id = ""
        self.hand_started: datetime | None = None   # when the store began the hand: histories are dated by it
        self.hand_seats: list[int] = []       # player index -> seat number
        self.hand_accounts: list[int] = []
        self.plan: HandPlan | None = None
        self.chat: deque[api.ChatLine] = deque(maxlen=settings.chat_lines)
        self.watchers: dict[int, Callable[[], None]] = {}    # account -> callback
        self.watcher_names: dict[int, str] = {}
        # Told of every change, watched or not, and counted as nobody's watch (the bus's table host).
        self.observers: list[Callable[[], None]] = []
        self._handling = 0          # intents being handled (nested): their changes are told once, after
        self._told_later = False    # something changed meanwhile
        self.stats: deque[tuple[float, int, int, int]] = deque(maxlen=200)  # (time, pot, dealt, saw)
        self._rules: tuple[TableSettings | None, api.TableRules | None] = (None, None)   # settings, their rules_text
        # Set by the collaborators too (Dealing, Settlement): see "what the table's collaborators call".
        self.next_hand_timer: Timer | None = None       # the call that deals the next hand, when due
        self.recording: frozenset[int] = frozenset()   # seats of a hand the store is recording
        self.clock_held = False      # nobody can act (hold_clock): no clock runs, no hand is dealt
        # Each job with its own state lives in its own collaborator (their modules say why).
        self.decision_clock = DecisionClock(self)
        self.holds = SeatHolds(self)
        self.blinds = BlindPrompts(self)
        self.settlement = self.policy.settlement(self)
        self.floor = Floor(self)
        self.dealing = self.policy.dealing(self)

    @property
    def wait_list(self) -> list[tuple[int, str]]:
        return self.holds.wait_list

    @property
    def live_hand(self) -> Hand:
        """The hand in progress, for the steps that run only while there is one (its decisions,
        its narration, a seat in it)."""
        if self.hand is None:
            raise AssertionError("no hand is in progress")
        return self.hand

    @property
    def held(self) -> dict[int, tuple[int, Timer]]:
        """Seats held for a player from the wait list: seat -> (account, timer)."""
        return self.holds.held

    # ================================================================= what the collaborators call
    # What the table's collaborators call: its internal API. DecisionClock, SeatHolds, BlindPrompts,
    # Settlement, Floor and Dealing (and the room, for its broadcasts and its shutdown) reach the
    # table only through these methods, its public attributes (`recording` and `next_hand_timer`
    # among them) and its intents below. Every underscore name stays this module's own
    # (tests/room/test_table_api.py keeps it so).
    def page(self, account: int, text: str) -> None:
        """Tell one account something wherever it is (the room's pager; a no-op by default)."""
        self._page(account, text)

    def use_quota(self, account: int) -> bool:
        """Count a protected all-in against the account's daily quota: False once it is used up.
        A store write: the decision clock calls it through the writer."""
        return self._quota(account)

    def changed(self) -> None:
        """Something changed: tell the observers and every watcher (each redraws its view). While
        an intent is handled, once when it is done (`handle`)."""
        if self._handling:
            self._told_later = True
            return
        self._tell(watchers=True)

    def _tell(self, watchers: bool) -> None:
        for observe in self.observers:
            observe()
        if not watchers:
            return
        for account, cb in list(self.watchers.items()):
            try:
                cb()
            except Exception:   # a broken watcher must never take the table down
                log.exception("watcher of %s failed; dropped", self.name)
                self.watchers.pop(account, None)

    def say(self, text: str, kind: str = "dealer", name: str = "Dealer") -> None:
        """Add a line to the table's chat (the dealer's, unless `kind` and `name` say otherwise)."""
        self.chat.append(api.ChatLine(kind, name, text, self.clock.now()))

    def need_seat(self, account: int) -> Seat:
        """The account's seat here, or NotSeated."""
        seat = self.seat_of(account)
        if seat is None:
            raise api.NotSeated("you are not seated at this table")
        return seat

    def hold_clock(self) -> None:
        """Nobody at this table can act now through no fault of his own (its table host lost the
        bus): the decision clock and a blind prompt's time stop where they are, and no new hand
        is dealt, until `release_clock`."""
        if self.clock_held:
            return
        self.clock_held = True
        self.decision_clock.hold()
        self.blinds.hold()
        if self.next_hand_timer is not None:
            self.next_hand_timer.cancel()
            self.next_hand_timer = None

    def release_clock(self) -> None:
        """Everyone can act again: the clocks run on with the time that was left."""
        if not self.clock_held:
            return
        self.clock_held = False
        self.decision_clock.release()
        self.blinds.release()
        self.maybe_start()
        self.changed()

    def maybe_start(self) -> None:
        """The table may be idle now: tell a closing room so, or schedule the next hand if it can
        be dealt (open, two ready players, none scheduled yet)."""
        if not self.idle():
            return
        if self.closing is not None:
            self.closing()
            return
        if self.next_hand_timer is not None or self.status != "open" or self.clock_held:
            return
        if not self.dealing.ready():
            return
        delay = self.settings.between_hands if self.plan else 0.0
        self.next_hand_timer = self.clock.call_later(delay, self.dealing.start)

    def after_events(self, events: list[Event]) -> None:
        """A hand's first events were played (Dealing): narrate them, then settle or drive on."""
        self.narrate_events(events)
        if self.live_hand.over:
            self.settlement.finish()
            return
        self.drive()

    def drive(self) -> None:
        """Play every decision that needs no person (auto actions, leavers, showdown, bots), then
        start the clock for the next person."""
        self.decision_clock.cancel()
        hand = self.hand
        while hand is not None and not hand.over and hand.actor is not None:
            p = hand.actor
            seat = self.seats[self.hand_seats[p]]
            lg = hand.legal()
            if lg.phase == "showdown":
                events = hand.show() if self._should_show(p) or not lg.muck else hand.muck()
            elif seat.leaving:
                events = hand.fold() if lg.phase == "bet" and lg.fold else self.play_default(seat, lg)
            elif seat.sitting_out and self.policy.away_dealt_in:
                events = self.play_default(seat, lg)     # away: the dealer checks or folds for him
            elif lg.phase == "draw" and hand.protected[p]:
                # A protected all-in is not asked again this hand: he stands pat (else each draw
                # of a triple draw would wait out his clock again).
                events = hand.stand_pat()
            elif seat.bot is not None:
                self.decision_clock.arm(self.settings.bot_delay, partial(self._bot_move, hand, p))
                self.changed()
                return
            elif seat.auto != "ask" and lg.phase == "bet":
                kind, amount = auto_decision(seat.auto, lg)
                seat.auto = "ask"   # an auto action is used for one decision only
                events = self._apply(p, kind, amount, ())
            else:
                self.decision_clock.start(p)
                self.changed()
                return
            self.narrate_events(events)
        if hand is not None and hand.over:
            self.settlement.finish()

    def narrate_events(self, events: list[Event]) -> None:
        """The dealer's chat lines for events of the hand."""
        names = [p.name for p in self.live_hand.players]
        for e in events:
            line = narrate(e, names, self.settings.variant, self.policy.amount)
            if line:
                self.say(line)

    def play_default(self, seat: Seat, lg: Legal) -> list[Event]:
        """What the dealer does for an absent player: check if free, else fold; stand pat at a draw."""
        hand = self.live_hand
        if lg.phase == "draw":
            return hand.stand_pat()
        if lg.check:
            return hand.check()
        if lg.bring_in:
            return hand.bring_in()
        return hand.fold()

    # ================================================================= intents
    def handle(self, who: Caller, action: Action) -> Any:
        """A player's intent (an action record): its handler (HANDLERS, below) does it and
        answers, or raises a RoomError having changed nothing. Then the observers and watchers
        are told, once, whatever the handler changed (after a quiet action, Watch or Ready, the
        watchers only if the handler called `changed`)."""
        handler = self.policy.handlers.get(type(action))
        if handler is None:
            raise RoomError(f"a table does not know how to {type(action).__name__}")
        self._handling += 1
        done = False
        try:
            result = handler(self, who, action)
            done = True
        finally:
            self._handling -= 1
            if not self._handling and (done or self._told_later):
                watchers, self._told_later = self._told_later or not action.quiet, False
                self._tell(watchers)
        return result

    def decision_of(self, seat: Seat) -> str:
        """What names the decision this seat is asked now, "" if none: the hand and how far it
        has got (each action in it adds an event), or the blind prompt before the next hand. The
        seat's view shows it and an answer names it (Act, PostBlind), so a key pressed for one
        decision is refused when it reaches the next."""
        if self.blinds.asked(seat.number):
            return f"{self.hand_id}+blind"
        if self.in_hand(seat) and self.live_hand.actor == self.player_index(seat):
            return f"{self.hand_id}/{len(self.live_hand.events)}"
        return ""

    def check_decision(self, seat: Seat, decision: str) -> None:
        """NotAllowedNow unless `decision` (when named) is the one this seat is asked now."""
        if decision and decision != self.decision_of(seat):
            raise api.NotAllowedNow(STALE_DECISION)

    # ================================================================= watching
    def watch(self, account: int, callback: Callable[[], None], name: str = "") -> None:
        self.watchers[account] = callback
        self.watcher_names[account] = name or str(account)

    def unwatch(self, account: int) -> None:
        self.watchers.pop(account, None)
        self.watcher_names.pop(account, None)

    # ================================================================= seats and money
    def seat_of(self, account: int) -> Seat | None:
        for s in self.seats.values():
            if s.account == account:
                return s
        return None

    def free_seats(self) -> list[int]:
        n = self.settings.seats
        # Seed 001: the first available seat clockwise from seat 2.
        order = list(range(2, n + 1)) + [1]
        return [s for s in order if s not in self.seats]

    def sit(self, account: int, name: str, seat: int | None = None) -> int:
        return self.floor.sit(account, name, seat)

    def buy_in_limits(self, account: int) -> tuple[int, int | None, int]:
        """(minimum, maximum, offered default): the default is the whole balance, capped (seed 001)."""
        return self.floor.buy_in_limits(account)

    def buy_in(self, account: int, cents: int) -> None:
        self.floor.buy_in(account, cents)

    def leave(self, account: int) -> None:
        self.floor.leave(account)

    # ================================================================= the wait list
    def leave_wait_list(self, account: int) -> None:
        self.holds.leave(account)

    # ================================================================= options
    def set_connected(self, account: int, connected: bool) -> None:
        seat = self.seat_of(account)
        if seat is None or seat.connected == connected:
            return
        seat.connected = connected
        seat.lost_at = None if connected else self.clock.now()
        self.decision_clock.connection_changed(seat.number)
        self.holds.free_if_empty_and_away(seat)
        self.changed()

    def make_bot(self, account: int, rng: random.Random) -> None:
        seat = self.need_seat(account)
        seat.bot = rng
        if self.in_hand(seat) and self.live_hand.actor == self.player_index(seat):
            self.drive()

    # ================================================================= admin
    def set_status(self, status: str) -> None:
        self.status = status
        self.say(f"The table is {status}", "system", "Table")
        self.changed()
        if status == "open":
            self.maybe_start()

    def kick(self, account: int, reason: str = "") -> bool:
        seat = self.seat_of(account)
        if seat is None:
            return False
        if self.in_hand(seat):
            seat.leaving = True
            if self.live_hand.actor == self.player_index(seat):
                self.drive()
        else:
            self.floor.remove(seat, "is removed by an admin" + (f": {reason}" if reason else ""))
        return True

    # ================================================================= the hand
    # Public for the per-seat view (tableview.py) and the admin API: read-only questions.
    def in_hand(self, seat: Seat) -> bool:
        return self.hand is not None and not self.hand.over and seat.number in self.hand_seats

    def player_index(self, seat: Seat) -> int:
        return self.hand_seats.index(seat.number)

    def blind_asked(self, seat: Seat) -> int:
        """The blind this seat is asked to post (Auto Blind off), or 0."""
        return self.blinds.asked(seat.number)

    def idle(self) -> bool:
        """No hand in progress, and none the store is recording (its start or its end)."""
        return not self.recording and (self.hand is None or self.hand.over)

    def _should_show(self, p: int) -> bool:
        """Cards speak: show when the hand can still win something, else muck (losers may muck)."""
        hand = self.live_hand
        hi, lo = hand.showdown_values(p)
        shown = hand.shown.values()
        best_hi = max((v[0] for v in shown), default=None)
        if best_hi is None or hi >= best_hi:
            return True
        lows = [v[1] for v in shown if v[1] is not None]
        return lo is not None and (not lows or lo >= max(lows))

    def _apply(self, p: int, kind: str, amount: int, discards: Sequence[Card]) -> list[Event]:
        return self.live_hand.act(kind, amount, discards)

    def act(self, seat: Seat, kind: str, amount: int, discards: Sequence[Card]) -> None:
        """A player's decision (the Act handler has checked it is his turn). Illegal: a
        RoomError and nothing changes."""
        try:
            events = self._apply(self.player_index(seat), kind, amount, discards)
        except IllegalAction as e:
            raise RoomError(str(e)) from None
        seat.timed_out = False
        self.narrate_events(events)
        if self.live_hand.over:
            self.decision_clock.cancel()
            self.settlement.finish()
        else:
            self.drive()

    def _bot_move(self, hand: Hand, p: int) -> None:
        if hand is not self.hand or hand.over or hand.actor != p:
            return
        from cardroom.room.bots import choose
        seat = self.seats[self.hand_seats[p]]
        if seat.bot is None:   # not a bot's seat (make_bot never undoes one): the person's clock runs
            self.drive()
            return
        lg = hand.legal()
        kind, amount, discards = choose(lg, list(hand.hole[p]), list(hand.board), hand.variant, rng=seat.bot)
        try:
            events = self._apply(p, kind, amount, discards)
        except IllegalAction:
            log.exception("bot chose an illegal action; playing the default")
            events = self.play_default(seat, lg)
        self.narrate_events(events)
        if hand.over:
            self.settlement.finish()
        else:
            self.drive()

    # ================================================================= the clock
    def stop(self) -> None:
        """The room is stopping: this table deals no more hands and its decision clock stops (a hand
        in progress is left as it is, for the room to void)."""
        self.status = "closed"
        self.decision_clock.cancel()

    def waiting_on(self, account: int) -> bool:
        """Is the table waiting for this account: its decision, or its blind to post?"""
        seat = self.seat_of(account)
        if seat is None:
            return False
        if seat.number in self.blinds.asking:
            return True
        hand = self.hand
        return bool(hand and not hand.over and hand.actor is not None
                    and self.hand_seats[hand.actor] == seat.number)

    def seconds_left(self) -> float | None:
        return self.decision_clock.seconds_left()

    # ================================================================= views (tableview.py)
    def summary(self) -> api.TableSummary:
        return tableview.summary(self)

    def rules_text(self) -> api.TableRules:
        # Made of the settings alone, and asked for by every view: made once per settings.
        made, rules = self._rules
        if made is not self.settings or rules is None:
            rules = tableview.rules_text(self)
            self._rules = (self.settings, rules)
        return rules

    def view_for(self, account: int | None) -> api.TableView:
        return tableview.view_for(self, account)

    def views_for(self, accounts: Iterable[int | None]) -> dict[int | None, api.TableView]:
        """`view_for` of each account (None: a railbird), built together (cheaper than one by one)."""
        return tableview.views_for(self, accounts)

    def chips(self) -> int:
        """Chips this table holds (stacks, pending stake changes, and the hand's pot and rake)."""
        total = sum(s.stack + s.pending_chips for s in self.seats.values())
        if self.hand is not None and not self.hand.over:
            in_hand = sum(self.seats[n].stack for n in self.hand_seats if n in self.seats)
            total += self.hand.chips_in_play() - in_hand
        return total


# ===================================================================== the intents
# One handler per action record (room/actions.py): handler(table, who, action) -> its answer.
# Table.handle runs it and tells the watchers once after it, so a handler never calls changed().
STALE_DECISION = "that was for an earlier decision, which has passed: nothing was done"
Handler = Callable[["Table", Caller, Any], Any]   # (table, who, action record) -> the intent's answer
Handlers = dict[type[Action], Handler]
HANDLERS: Handlers = {}


_H = TypeVar("_H", bound=Handler)


def handles(kind: type[Action]) -> Callable[[_H], _H]:
    def register(handler: _H) -> _H:
        HANDLERS[kind] = handler
        return handler
    return register


CASH_GAME = TablePolicy()


@handles(Watch)
def _watch(t: Table, who: Caller, a: Watch) -> api.TableView:
    t.watch(who.account_id, who.notify, who.name)
    return t.view_for(who.account_id)


@handles(Unwatch)
def _unwatch(t: Table, who: Caller, a: Unwatch) -> None:
    t.unwatch(who.account_id)


@handles(Join)
def _join(t: Table, who: Caller, a: Join) -> int:
    t.watch(who.account_id, who.notify, who.name)     # a seat refused still watches the table
    return t.sit(who.account_id, who.name, a.seat)


@handles(BuyIn)
def _buy_in(t: Table, who: Caller, a: BuyIn) -> None:
    t.buy_in(who.account_id, a.cents)


@handles(Act)
def _act(t: Table, who: Caller, a: Act) -> None:
    seat = t.need_seat(who.account_id)
    if type(a.amount) is not int:   # the engine compares amounts only: 400.0 or True would pass
        raise RoomError("an amount must be a whole number of cents")
    t.check_decision(seat, a.decision)
    if not t.in_hand(seat):
        raise api.NotAllowedNow("you are not in this hand")
    if t.live_hand.actor != t.player_index(seat):
        raise api.NotAllowedNow("it is not your turn")
    t.act(seat, a.kind, a.amount, a.discards)


@handles(SetAuto)
def _set_auto(t: Table, who: Caller, a: SetAuto) -> None:
    if a.auto not in api.AUTO_ACTIONS:
        raise RoomError(f"unknown auto action {a.auto!r}")
    seat = t.need_seat(who.account_id)
    seat.auto = a.auto
    if t.in_hand(seat) and t.live_hand.actor == t.player_index(seat) and a.auto != "ask":
        t.drive()


@handles(SetAutoBlind)
def _set_auto_blind(t: Table, who: Caller, a: SetAutoBlind) -> None:
    seat = t.need_seat(who.account_id)
    seat.auto_blind = bool(a.on)
    keep_auto_blind(t.writer, t.store, who.account_id, seat.auto_blind)   # for his next seats and logins
    if a.on and t.blinds.asked(seat.number):
        # Turned on while asked: that is his yes. Left pending, the hand waited the whole
        # prompt and then sat him out for not answering.
        t.blinds.post(who.account_id, True)


@handles(PostBlind)
def _post_blind(t: Table, who: Caller, a: PostBlind) -> None:
    """Post (the hand is dealt once everyone asked has answered) or decline (sit out)."""
    t.check_decision(t.need_seat(who.account_id), a.decision)
    t.blinds.post(who.account_id, a.post)


@handles(PostOrWait)
def _post_or_wait(t: Table, who: Caller, a: PostOrWait) -> None:
    t.need_seat(who.account_id).wants_post = bool(a.post)


@handles(SitOut)
def _sit_out(t: Table, who: Caller, a: SitOut) -> None:
    seat = t.need_seat(who.account_id)
    if not seat.sitting_out:
        t.holds.start_sit_out(seat)


@handles(SitIn)
def _sit_in(t: Table, who: Caller, a: SitIn) -> None:
    seat = t.need_seat(who.account_id)
    if not seat.sitting_out:
        return
    seat.sitting_out = False
    seat.timed_out = False
    if seat.sit_out_timer:
        seat.sit_out_timer.cancel()
        seat.sit_out_timer = None
    t.maybe_start()


@handles(Leave)
def _leave(t: Table, who: Caller, a: Leave) -> None:
    t.leave(who.account_id)


@handles(JoinWaitList)
def _join_wait_list(t: Table, who: Caller, a: JoinWaitList) -> int:
    # No watch: the page that a seat is open comes through the room (page), and a wait-lister
    # in the lobby is no railbird of the table.
    return t.holds.join(who.account_id, who.name)


@handles(LeaveWaitList)
def _leave_wait_list(t: Table, who: Caller, a: LeaveWaitList) -> None:
    t.leave_wait_list(who.account_id)


@handles(Chat)
def _chat(t: Table, who: Caller, a: Chat) -> str | None:
    line = who.chat_line(a.text)
    if a.dealer:
        # The dealer answers how many cards a player drew, while that is public.
        answer = dealer_answer(t.hand, [s.name for s in t.seats.values()], line)
        t.say(answer)
        return answer
    t.chat.append(api.ChatLine("player", who.name, line, t.clock.now()))
    return None


@handles(Ready)
def _ready(t: Table, who: Caller, a: Ready) -> None:
    """Hot-seat (clock_waits_for_ready): the player to act has the device; his clock starts."""
    t.decision_clock.ready(who.account_id)
