"""One table: the only owner of its seats and its hand (an actor on the asyncio loop).

Every intent is a plain method run on the loop, so nothing interleaves inside one: it checks,
changes state, then tells its watchers "something changed". Its store writes go to the writer
(`cardroom.room.writer`), whose answer comes back as a later step on the loop, so a database
that makes a write wait stalls this table's money, never the loop. Timers (the decision clock,
sit-out limits, seat holds, the pause between hands, retries) come from the injected clock, so
tests drive a table through hours of play without sleeping.

Money: a seat's stack between hands equals its chips on this table in the store; a hand moves
the dealt seats' stacks into escrow (`begin_hand`) and settles them in one transaction. While
the store records a hand's start or end (`_recording`), those seats' chips are the hand's: a
buy-in waits for the hand as during it, and a seat that goes leaves when the hand is recorded.
A settlement the store cannot take is retried, then the hand is voided: its stacks go back.
"""

from __future__ import annotations

import logging
import re
from collections import deque
from dataclasses import dataclass, field, replace
from typing import Callable

from cardroom.engine import events as ev
from cardroom.engine.betting import NO, POT, Rules, Structure
from cardroom.engine.cards import Deck, format_cards
from cardroom.engine.hand import Hand, IllegalAction, Player
from cardroom.engine.pokerstars import PLAY
from cardroom.engine.variants import Variant
from cardroom.room import api, tableview
from cardroom.room.api import RoomError
from cardroom.room.auto import auto_decision
from cardroom.room.clock import Clock
from cardroom.room.history import public_text, record_of
from cardroom.room.narration import money, narrate
from cardroom.room.ports import HandRecord, HandStart, Refused, SeatStack, Store
from cardroom.room.seating import HandPlan, SeatFacts, plan_hand
from cardroom.room.writer import InlineWriter, Writer

log = logging.getLogger("cardroom.table")
# Seed 001: a new player may post in "at any time except when he is between the button and the big blind".
_KEPT_OUT = ("you sit between the button and the big blind, where nobody may post in: "
             "you play when the button has passed you")
RATHOLE_SECONDS = 3600.0
# A settlement the store refused for a passing reason (busy, disk full) is tried again after
# each of these pauses; then the hand is voided. A void that fails too is tried again at most
# this often until it goes through (no hand can be dealt without the store meanwhile).
SETTLE_RETRIES = (0.5, 1.0, 2.0, 4.0)
VOID_RETRY_MAX = 30.0


@dataclass(frozen=True, slots=True)
class TableSettings:
    name: str
    variant: Variant
    structure: Structure
    rules: Rules = field(default_factory=Rules)
    seats: int = 10
    action_seconds: float = 23.0
    countdown_seconds: int = 10
    # Hot-seat: a person's decision clock starts when they have the device (Table.ready), not
    # while it is being passed to them.
    clock_waits_for_ready: bool = False
    sit_out_seconds: float | None = None     # default 15 min, 10 min at 5-max tables
    sit_outs_allowed: int = 3
    seat_hold_seconds: float = 60.0
    between_hands: float = 3.0
    bot_delay: float = 1.0
    min_buy_in: int | None = None            # default 10x the small bet
    max_buy_in: int | None = None            # default 100x the big blind in pot/no limit
    chat_lines: int = 200
    currency: str = PLAY                     # what the chips are, for hand histories (config: [room] currency)

    @property
    def sit_out_limit(self) -> float:
        if self.sit_out_seconds is not None:
            return self.sit_out_seconds
        return 600.0 if self.seats <= 5 else 900.0

    @property
    def buy_in_min(self) -> int:
        return self.min_buy_in if self.min_buy_in is not None else 10 * self.structure.small_bet

    @property
    def buy_in_max(self) -> int | None:
        if self.max_buy_in is not None:
            return self.max_buy_in
        if self.structure.kind in (POT, NO):
            return 100 * self.structure.big_blind
        return None


class _Seat:
    """A seated account (mutable, private to the table)."""

    def __init__(self, number: int, account: int, name: str) -> None:
        self.number = number
        self.account = account
        self.name = name
        self.stack = 0
        self.sitting_out = False
        self.sit_out_count = 0
        self.sit_out_timer = None
        self.empty_timer = None    # runs while the seat has no chips and its player is away
        self.connected = True
        self.auto_blind = False     # seed 000: asked to post each blind until he turns it on
        self.auto = "ask"
        self.owes = "new"
        self.missed_sb = False
        self.missed_bb = False
        self.wants_post = True
        self.timed_out = False
        self.leaving = False
        self.pending_chips = 0
        self.buying = 0            # a buy-in the store has not recorded yet
        self.cashing_out = False   # the store is moving this seat's chips back to its account
        self.bot = None            # a random.Random when a practice bot plays this seat
        self.message = ""

    @property
    def table_chips(self) -> int:
        """Chips here as a change of stake counts them: the stack (the one a hand in progress
        began with) plus chips waiting to be added after it."""
        return self.stack + self.pending_chips + self.buying


class Table:
    def __init__(self, settings: TableSettings, store: Store, clock: Clock, *, rng=None,
                 quota: Callable[[int], bool] | None = None,
                 page: Callable[[int, str], None] | None = None,
                 writer: Writer | None = None) -> None:
        self.settings = settings
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
        self.seats: dict[int, _Seat] = {}
        self.hand: Hand | None = None
        self.hand_id = ""
        self.hand_seats: list[int] = []       # player index -> seat number
        self.hand_accounts: list[int] = []
        self.plan: HandPlan | None = None
        self.chat: deque[api.ChatLine] = deque(maxlen=settings.chat_lines)
        self.watchers: dict[int, Callable[[], None]] = {}    # account -> callback
        self.watcher_names: dict[int, str] = {}
        # Told of every change, watched or not, and counted as nobody's watch (the bus's table host).
        self.observers: list[Callable[[], None]] = []
        self.wait_list: list[tuple[int, str]] = []
        self.held: dict[int, tuple[int, object]] = {}       # seat -> (account, timer)
        self.stats: deque[tuple[float, int, int, int]] = deque(maxlen=200)  # (time, pot, dealt, saw)
        self._deadline: float | None = None
        self._unclocked: tuple | None = None   # (hand, player) whose clock waits for ready()
        self._timers: list = []
        self._next_hand = None
        self._asking: dict[int, int] = {}    # seat -> blind to post, while Auto Blind is off
        self._left_with: dict[int, tuple[int, float]] = {}   # account -> (stack, when it left)
        self._blinds_ok: set[int] = set()
        self._ask_timer = None
        self._recording: frozenset[int] = frozenset()   # seats of a hand the store is recording

    # ================================================================= watching
    def watch(self, account: int, callback: Callable[[], None], name: str = "") -> None:
        self.watchers[account] = callback
        self.watcher_names[account] = name or str(account)

    def unwatch(self, account: int) -> None:
        self.watchers.pop(account, None)
        self.watcher_names.pop(account, None)

    def _changed(self) -> None:
        for observe in self.observers:
            observe()
        for account, cb in list(self.watchers.items()):
            try:
                cb()
            except Exception:   # a broken watcher must never take the table down
                log.exception("watcher of %s failed; dropped", self.name)
                self.watchers.pop(account, None)

    def _say(self, text: str, kind: str = "dealer", name: str = "Dealer") -> None:
        self.chat.append(api.ChatLine(kind, name, text, self.clock.now()))

    # ================================================================= seats and money
    def seat_of(self, account: int) -> _Seat | None:
        for s in self.seats.values():
            if s.account == account:
                return s
        return None

    def _need_seat(self, account: int) -> _Seat:
        seat = self.seat_of(account)
        if seat is None:
            raise api.NotSeated("you are not seated at this table")
        return seat

    def free_seats(self) -> list[int]:
        n = self.settings.seats
        # Seed 001: the first available seat clockwise from seat 2.
        order = list(range(2, n + 1)) + [1]
        return [s for s in order if s not in self.seats]

    def sit(self, account: int, name: str, seat: int | None = None) -> int:
        if self.status == "closed":
            raise api.TableClosed(f"{self.name} is closed")
        if self.seat_of(account):
            raise api.SeatTaken("you already have a seat at this table")
        held_for_me = [s for s, (a, _) in self.held.items() if a == account]
        free = [s for s in self.free_seats() if s not in self.held or s in held_for_me]
        if seat is None:
            if not free:
                raise api.SeatTaken("the table is full: join the wait list")
            seat = held_for_me[0] if held_for_me else free[0]
        elif not (1 <= seat <= self.settings.seats):
            raise api.SeatTaken(f"there is no seat {seat} at this table")
        elif seat not in free:
            raise api.SeatTaken(f"seat {seat} is taken" if seat in self.seats else
                                f"seat {seat} is held for a player from the wait list")
        if seat in self.held:
            self.held.pop(seat)[1].cancel()
        self.wait_list = [(a, n) for a, n in self.wait_list if a != account]
        s = _Seat(seat, account, name)
        s.stack = self.store.table_chips(account, self.name)  # chips left here before (a restart)
        self.seats[seat] = s
        # The very first players at a table owe nothing; later arrivals post or wait (seed 001).
        if not self.hand and not self.plan:
            s.owes = ""
        self._say(f"{name} sits down in seat {seat}", "system", "Table")
        log.info("%s: %s sits down in seat %d", self.name, name, seat)
        self._changed()
        self._maybe_start()
        return seat

    def buy_in_limits(self, account: int) -> tuple[int, int | None, int]:
        """(minimum, maximum, offered default): the default is the whole balance, capped (seed 001)."""
        lo, hi = self.settings.buy_in_min, self.settings.buy_in_max
        left = self._left_with.get(account)
        if left and self.clock.now() - left[1] < RATHOLE_SECONDS:
            # Leaving and coming back short ("ratholing") is not allowed: come back with at least
            # what you left with, for an hour after leaving.
            lo = max(lo, left[0] if hi is None else min(left[0], hi))
        balance = self.store.balance(account)
        default = balance if hi is None else min(balance, hi)
        return lo, hi, max(default, 0)

    def buy_in(self, account: int, cents: int) -> None:
        seat = self._need_seat(account)
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
        balance = self.store.balance(account)
        if cents > balance:   # the store refuses it too (a race); asked first to answer at once
            raise api.BadBuyIn(f"you have {money(balance)} in your account")
        seat.buying += cents
        self.writer.submit(lambda: self.store.buy_in(account, self.name, cents, seat=seat.number),
                           lambda _, error: self._bought_in(seat, cents, error))

    def _bought_in(self, seat: _Seat, cents: int, error: Exception | None) -> None:
        seat.buying -= cents
        if error is not None:   # a page: it reaches him wherever he is by now
            self._page(seat.account, f"{self.name}: your buy-in of {money(cents)} was not made: {error}")
        elif self.seats.get(seat.number) is not seat or seat.cashing_out:
            # He left (or is leaving) while the store recorded it: the chips go back to his account.
            self.writer.submit(lambda: self.store.cash_out(seat.account, self.name, cents),
                               lambda _, e: e and log.error("returning %s's buy-in at %s failed: %s",
                                                            seat.name, self.name, e))
            return
        else:
            log.info("%s: %s buys in for %s", self.name, seat.name, money(cents))
            if self.in_hand(seat) or seat.number in self._recording:
                seat.pending_chips += cents   # a change of table stake waits for the hand to end
                seat.message = f"{money(cents)} will be added after this hand"
            else:
                seat.stack += cents
        if self.seats.get(seat.number) is seat:
            self._free_if_empty_and_away(seat)   # no chips came, and he is away: the grace starts
        self._changed()
        self._maybe_start()

    def leave(self, account: int) -> None:
        seat = self._need_seat(account)
        if self.in_hand(seat) and not self.hand.folded[self.player_index(seat)]:
            seat.leaving = True        # folded when the action reaches him; chips after the hand
            if self.hand.actor == self.player_index(seat):
                self._drive()
            self._changed()
            return
        if self.in_hand(seat):
            seat.leaving = True
            self._changed()
            return
        self._remove(seat, "leaves the table")

    def _remove(self, seat: _Seat, why: str) -> None:
        """The seat goes once the store has its chips back in its account. Refused (the
        database failing): the player keeps the seat and is told why."""
        if seat.cashing_out:
            return
        if seat.number in self._recording:
            seat.leaving = True   # its chips are the hand's until the store has recorded it
            self._changed()
            return
        if not seat.stack:
            self._gone(seat, why)
            return
        seat.cashing_out = seat.leaving = True   # not dealt in while its chips go back
        stack = seat.stack
        self.writer.submit(lambda: self.store.cash_out(seat.account, self.name, stack),
                           lambda _, error: self._cashed_out(seat, stack, why, error))

    def _cashed_out(self, seat: _Seat, stack: int, why: str, error: Exception | None) -> None:
        seat.cashing_out = False
        if error is None:
            self._left_with[seat.account] = (stack, self.clock.now())
            self._gone(seat, why)
            return
        log.error("cashing out %s at %s failed: %s", seat.name, self.name, error)
        seat.leaving = False
        self._page(seat.account, f"{self.name}: your chips could not be returned to your account ({error}): "
                                 "you are still seated; try leaving again in a moment")
        self._changed()
        self._maybe_start()

    def _gone(self, seat: _Seat, why: str) -> None:
        for timer in (seat.sit_out_timer, seat.empty_timer):
            if timer:
                timer.cancel()
        del self.seats[seat.number]
        self._say(f"{seat.name} {why}", "system", "Table")
        log.info("%s: %s %s, cashing out %s", self.name, seat.name, why, money(seat.stack))
        self._offer_seat(seat.number)
        self._changed()

    # ================================================================= sitting out, wait list
    def sit_out(self, account: int) -> None:
        seat = self._need_seat(account)
        if seat.sitting_out:
            return
        self._start_sit_out(seat)
        self._changed()

    def _start_sit_out(self, seat: _Seat) -> None:
        seat.sitting_out = True
        seat.sit_out_count += 1
        if seat.sit_out_count > self.settings.sit_outs_allowed:
            seat.message = "you sat out more than three times: removed from the table"
            self._page(seat.account, f"You were removed from {self.name}: sat out too often")
            if not self.in_hand(seat):
                self._remove(seat, "is removed after sitting out too often")
            else:
                seat.leaving = True
            return
        limit = self.settings.sit_out_limit
        seat.sit_out_timer = self.clock.call_later(limit, lambda s=seat: self._sit_out_expired(s))

    def _sit_out_expired(self, seat: _Seat) -> None:
        if self.seats.get(seat.number) is not seat or not seat.sitting_out:
            return
        self._page(seat.account, f"You sat out too long at {self.name}: your chips are back in your account")
        if self.in_hand(seat):
            seat.leaving = True
        else:
            self._remove(seat, "sat out too long and is removed")

    def sit_in(self, account: int) -> None:
        seat = self._need_seat(account)
        if not seat.sitting_out:
            return
        seat.sitting_out = False
        seat.timed_out = False
        if seat.sit_out_timer:
            seat.sit_out_timer.cancel()
            seat.sit_out_timer = None
        self._changed()
        self._maybe_start()

    def set_wants_post(self, account: int, post: bool) -> None:
        """A new or returning player: post the big blind now (True) or wait for it (False)."""
        self._need_seat(account).wants_post = bool(post)
        self._changed()

    def join_wait_list(self, account: int, name: str) -> int:
        if self.seat_of(account):
            raise api.NotAllowedNow("you already have a seat here")
        if any(a == account for a, _ in self.wait_list):
            return [a for a, _ in self.wait_list].index(account) + 1
        if len(self.seats) + len(self.held) < self.settings.seats:
            raise api.NotAllowedNow("a seat is free: join the game now")
        self.wait_list.append((account, name))
        self._changed()
        return len(self.wait_list)

    def leave_wait_list(self, account: int) -> None:
        self.wait_list = [(a, n) for a, n in self.wait_list if a != account]
        self._changed()

    def _offer_seat(self, number: int) -> None:
        """A seat opened: page the first on the wait list and hold it for them a short while."""
        if not self.wait_list or number in self.held:
            return
        account, name = self.wait_list.pop(0)
        timer = self.clock.call_later(self.settings.seat_hold_seconds, lambda: self._hold_expired(number, account))
        self.held[number] = (account, timer)
        self._page(account, f"A seat is open for you at {self.name}: join within "
                            f"{int(self.settings.seat_hold_seconds)} seconds")
        self._changed()

    def _hold_expired(self, number: int, account: int) -> None:
        if self.held.get(number, (None,))[0] != account:
            return
        del self.held[number]
        self._offer_seat(number)
        self._changed()

    # ================================================================= options
    def set_auto(self, account: int, auto: str) -> None:
        if auto not in api.AUTO_ACTIONS:
            raise RoomError(f"unknown auto action {auto!r}")
        seat = self._need_seat(account)
        seat.auto = auto
        self._changed()
        if self.in_hand(seat) and self.hand.actor == self.player_index(seat) and auto != "ask":
            self._drive()

    def set_auto_blind(self, account: int, on: bool) -> None:
        self._need_seat(account).auto_blind = bool(on)
        self._changed()

    def set_connected(self, account: int, connected: bool) -> None:
        seat = self.seat_of(account)
        if seat is None or seat.connected == connected:
            return
        seat.connected = connected
        self._free_if_empty_and_away(seat)
        self._changed()

    def _free_if_empty_and_away(self, seat: _Seat) -> None:
        """A seat with no chips whose player is away (he dropped with the buy-in dialog open, or
        went bust while disconnected) can never be dealt in: it is given back after the grace a
        disconnected player with chips gets (the sit-out limit: he is timed out, sat out, and
        removed when it runs out), unless he comes back or chips arrive first."""
        if seat.connected or seat.table_chips or self.in_hand(seat):
            if seat.empty_timer is not None:
                seat.empty_timer.cancel()
                seat.empty_timer = None
        elif seat.empty_timer is None:
            seat.empty_timer = self.clock.call_later(self.settings.sit_out_limit,
                                                     lambda: self._empty_seat_expired(seat))

    def _empty_seat_expired(self, seat: _Seat) -> None:
        seat.empty_timer = None
        if self.seats.get(seat.number) is seat and not (
                seat.connected or seat.table_chips or self.in_hand(seat)):
            self._remove(seat, "left without chips: the seat is free")

    def make_bot(self, account: int, rng) -> None:
        seat = self._need_seat(account)
        seat.bot = rng
        if self.in_hand(seat) and self.hand.actor == self.player_index(seat):
            self._drive()

    # ================================================================= chat
    def post_chat(self, name: str, text: str) -> None:
        self.chat.append(api.ChatLine("player", name, text, self.clock.now()))
        self._changed()

    def ask_dealer(self, account: int, text: str) -> str:
        """Dealer chat: the dealer answers how many cards a player drew, while that is public."""
        low = text.lower()
        if "draw" in low or "drew" in low:
            hand = self.hand
            if not hand or not hand.draw_counts:
                answer = "I can't answer that now (only until the first action after the draw)"
            else:
                drew = {hand.players[p].name: k for p, k in hand.draw_counts.items()}
                # The seated players the question names, as whole words ("ann" is not in "joanne").
                asked = [s.name for s in self.seats.values() if re.search(
                    rf"(?<!\w){re.escape(s.name.lower())}(?!\w)", low)]
                in_hand = {pl.name for p, pl in enumerate(hand.players) if not hand.folded[p]}
                parts = [f"{n} drew {drew[n]}" if n in drew else
                         f"{n} has not drawn yet" if n in in_hand else f"{n} is not in this hand"
                         for n in asked] or [f"{n} drew {k}" for n, k in drew.items()]
                answer = "; ".join(parts)
        else:
            answer = "I answer questions about the draw; type: how many did NAME draw?"
        self._say(answer)
        self._changed()
        return answer

    # ================================================================= admin
    def set_status(self, status: str) -> None:
        self.status = status
        self._say(f"The table is {status}", "system", "Table")
        self._changed()
        if status == "open":
            self._maybe_start()

    def kick(self, account: int, reason: str = "") -> bool:
        seat = self.seat_of(account)
        if seat is None:
            return False
        if self.in_hand(seat):
            seat.leaving = True
            if self.hand.actor == self.player_index(seat):
                self._drive()
        else:
            self._remove(seat, "is removed by an admin" + (f": {reason}" if reason else ""))
        return True

    # ================================================================= the hand
    # Public for the per-seat view (tableview.py) and the admin API: read-only questions.
    def in_hand(self, seat: _Seat) -> bool:
        return self.hand is not None and not self.hand.over and seat.number in self.hand_seats

    def player_index(self, seat: _Seat) -> int:
        return self.hand_seats.index(seat.number)

    def blind_asked(self, seat: _Seat) -> int:
        """The blind this seat is asked to post (Auto Blind off), or 0."""
        return self._asking.get(seat.number, 0)

    def _maybe_start(self) -> None:
        if not self.idle():
            return
        if self.closing is not None:
            self.closing()
            return
        if self._next_hand is not None or self.status != "open":
            return
        if sum(1 for s in self.seats.values() if s.stack > 0 and not s.sitting_out) < 2:
            return
        delay = self.settings.between_hands if self.plan else 0.0
        self._next_hand = self.clock.call_later(delay, self._start_hand)

    def idle(self) -> bool:
        """No hand in progress, and none the store is recording (its start or its end)."""
        return not self._recording and (self.hand is None or self.hand.over)

    def _start_hand(self) -> None:
        self._next_hand = None
        if self.status != "open" or self.closing is not None or not self.idle():
            return
        facts = [SeatFacts(s.number, ready=s.stack > 0 and not s.sitting_out and not s.leaving,
                           owes=s.owes, missed_sb=s.missed_sb, missed_bb=s.missed_bb,
                           wants_post=s.wants_post)
                 for s in self.seats.values()]
        plan = plan_hand(facts, self.plan, stud=self.settings.variant.bring_in,
                         dead_small_blind=len(self.settings.structure.blinds) == 2)
        if plan is None:
            return
        if self._ask_for_blinds(plan):
            return
        st = self.settings.structure
        big = st.big_blind
        small = st.blinds[0] if st.blinds else 0
        players, accounts = [], []
        for number in plan.dealt:
            s = self.seats[number]
            players.append(Player(s.name, s.stack, number,
                                  live_post=big if plan.live_posts.get(number) else 0,
                                  dead_post=small if plan.dead_posts.get(number) else 0))
            accounts.append(s.account)
        for number in plan.missed_bb + plan.missed_sb:
            s = self.seats.get(number)
            if s:
                s.owes = "missed"
                s.missed_sb = s.missed_sb or number in plan.missed_sb
                s.missed_bb = s.missed_bb or number in plan.missed_bb
        deck = Deck(self.rng)
        start = HandStart(self.name, tuple(SeatStack(p.seat, a, p.stack) for p, a in zip(players, accounts)),
                          format_cards(deck.order()))
        self._recording = frozenset(plan.dealt)
        self.writer.submit(lambda: self.store.begin_hand(start),
                           lambda record, error: self._hand_begun(plan, players, accounts, deck, record, error))

    def _hand_begun(self, plan: HandPlan, players: list[Player], accounts: list[int], deck: Deck,
                    record: HandRecord | None, error: Exception | None) -> None:
        self._recording = frozenset()
        if error is not None:
            log.error("table %s cannot start a hand: %s", self.name, error)
            if isinstance(error, Refused):
                self.status = "paused"
                self._say(f"The table is paused: {error}", "system", "Table")
            else:   # the database is busy or failing: try again after a pause
                self._say(f"The next hand waits for the card room's records ({error})", "system", "Table")
                self._next_hand = self.clock.call_later(max(self.settings.between_hands, SETTLE_RETRIES[-1]),
                                                        self._start_hand)
            for number in plan.dealt:
                seat = self.seats.get(number)
                if seat is not None and seat.leaving:
                    self._remove(seat, "leaves the table")
            self._changed()
            self._maybe_start()   # a room shutting down hears that this table is idle
            return
        st = self.settings.structure
        button = plan.dealt.index(plan.button) if plan.button is not None else 0
        self.plan = plan
        hand_id = self.hand_id = record.hand_id
        self.hand_seats = list(plan.dealt)
        self.hand_accounts = accounts
        if plan.small_blind is None and plan.big_blind is not None:
            st = replace(st, blinds=st.blinds[1:])    # dead button: no small blind this hand
        self.hand = Hand(self.settings.variant, st, players, button=button, deck=deck,
                         rules=self.settings.rules)
        for number in plan.dealt:
            s = self.seats[number]
            s.owes, s.missed_sb, s.missed_bb = "", False, False
            if s.message == _KEPT_OUT:
                s.message = ""
        for s in self.seats.values():
            # A ready poster left out can only be between the button and the big blind (plan_hand).
            if s.wants_post and s.owes and s.number not in plan.dealt and s.stack > 0 \
                    and not (s.sitting_out or s.leaving):
                s.message = _KEPT_OUT
        self._say(f"Hand #{hand_id} begins")
        self._after_events(list(self.hand.events))

    # ------------------------------------------------------------------ Auto Blind off
    def _ask_for_blinds(self, plan: HandPlan) -> bool:
        """Seed 000: without Auto Blind a player is asked before each blind. True while waiting."""
        posters = {plan.small_blind, plan.big_blind, *plan.live_posts, *plan.dead_posts} - {None}
        ask = {n for n in posters if n in self.seats and not self.seats[n].auto_blind
               and self.seats[n].bot is None and n not in self._blinds_ok}
        if not ask:
            self._blinds_ok = set()
            self._asking = {}
            return False
        self._asking = {n: self._blind_amount(plan, n) for n in ask}
        for n in ask:
            self.seats[n].message = "post your blind to play this hand (Auto Blind is off)"
        # Hot-seat: the prompt waits for the player to take the device, as a decision clock does.
        self._ask_timer = (None if self.settings.clock_waits_for_ready
                           else self.clock.call_later(self.settings.action_seconds, self._blinds_unanswered))
        self._changed()
        return True

    def _blind_amount(self, plan: HandPlan, number: int) -> int:
        st = self.settings.structure
        small = st.blinds[0] if st.blinds else 0
        if number == plan.big_blind or plan.live_posts.get(number):
            return st.big_blind + (small if plan.dead_posts.get(number) else 0)
        return small

    def post_blind(self, account: int, post: bool) -> None:
        """Answer the blind prompt: post (the hand is dealt once everyone asked has answered) or
        decline (sit out)."""
        seat = self._need_seat(account)
        if seat.number not in self._asking:
            raise api.NotAllowedNow("there is no blind to post now")
        del self._asking[seat.number]
        seat.message = ""
        if post:
            self._blinds_ok.add(seat.number)
        else:
            self._start_sit_out(seat)
        if not self._asking:
            if self._ask_timer is not None:
                self._ask_timer.cancel()
            self._start_hand()
        else:
            self._changed()

    def _blinds_unanswered(self) -> None:
        for number in list(self._asking):
            seat = self.seats.get(number)
            if seat is not None and not seat.sitting_out:
                self._start_sit_out(seat)   # no answer in time: sat out, the hand goes on
        self._asking = {}
        self._start_hand()

    def _after_events(self, events: list) -> None:
        names = [p.name for p in self.hand.players]
        for e in events:
            line = narrate(e, names, self.settings.variant)
            if line:
                self._say(line)
        if self.hand.over:
            self._finish_hand()
            return
        self._drive()

    def _drive(self) -> None:
        """Play every decision that needs no person (auto actions, leavers, showdown, bots), then
        start the clock for the next person."""
        self._cancel_clock()
        hand = self.hand
        while hand is not None and not hand.over:
            p = hand.actor
            seat = self.seats[self.hand_seats[p]]
            lg = hand.legal()
            if lg.phase == "showdown":
                events = hand.show() if self._should_show(p) or not lg.muck else hand.muck()
            elif seat.leaving:
                events = hand.fold() if lg.phase == "bet" and lg.fold else self._default(seat, lg)
            elif lg.phase == "draw" and hand.protected[p]:
                # A protected all-in is not asked again this hand: he stands pat (else each draw
                # of a triple draw would wait out his clock again).
                events = hand.stand_pat()
            elif seat.bot is not None:
                self._arm(self.settings.bot_delay, lambda h=hand, p=p: self._bot_move(h, p))
                self._changed()
                return
            elif seat.auto != "ask" and lg.phase == "bet":
                kind, amount = auto_decision(seat.auto, lg)
                seat.auto = "ask"   # an auto action is used for one decision only
                events = self._apply(p, kind, amount, ())
            else:
                self._start_clock(p)
                self._changed()
                return
            self._narrate(events)
        if hand is not None and hand.over:
            self._finish_hand()

    def _narrate(self, events: list) -> None:
        names = [p.name for p in self.hand.players]
        for e in events:
            line = narrate(e, names, self.settings.variant)
            if line:
                self._say(line)

    def _should_show(self, p: int) -> bool:
        """Cards speak: show when the hand can still win something, else muck (losers may muck)."""
        hand = self.hand
        hi, lo = hand._values(p)
        shown = hand.shown.values()
        best_hi = max((v[0] for v in shown), default=None)
        if best_hi is None or hi >= best_hi:
            return True
        lows = [v[1] for v in shown if v[1] is not None]
        return lo is not None and (not lows or lo >= max(lows))

    def _default(self, seat: _Seat, lg) -> list:
        """What the dealer does for an absent player: check if free, else fold; stand pat at a draw."""
        if lg.phase == "draw":
            return self.hand.stand_pat()
        if lg.check:
            return self.hand.check()
        if lg.bring_in:
            return self.hand.bring_in()
        return self.hand.fold()

    def _apply(self, p: int, kind: str, amount: int, discards) -> list:
        return self.hand.act(kind, amount, discards)

    def act(self, account: int, kind: str, amount: int = 0, discards=()) -> None:
        """A player's decision. Out of turn, illegal or stale: a RoomError and nothing changes."""
        seat = self._need_seat(account)
        if type(amount) is not int:   # the engine compares amounts only: 400.0 or True would pass
            raise RoomError("an amount must be a whole number of cents")
        if not self.in_hand(seat):
            raise api.NotAllowedNow("you are not in this hand")
        p = self.player_index(seat)
        if self.hand.actor != p:
            raise api.NotAllowedNow("it is not your turn")
        try:
            events = self._apply(p, kind, amount, discards)
        except IllegalAction as e:
            raise RoomError(str(e)) from None
        seat.timed_out = False
        self._narrate(events)
        if self.hand.over:
            self._cancel_clock()
            self._finish_hand()
        else:
            self._drive()

    def _bot_move(self, hand: Hand, p: int) -> None:
        if hand is not self.hand or hand.over or hand.actor != p:
            return
        from cardroom.room.bots import choose
        seat = self.seats[self.hand_seats[p]]
        lg = hand.legal()
        kind, amount, discards = choose(lg, list(hand.hole[p]), list(hand.board), hand.variant, rng=seat.bot)
        try:
            events = self._apply(p, kind, amount, discards)
        except IllegalAction:
            log.exception("bot chose an illegal action; playing the default")
            events = self._default(seat, lg)
        self._narrate(events)
        if self.hand.over:
            self._finish_hand()
        else:
            self._drive()

    # ================================================================= the clock
    def _arm(self, delay: float, fn) -> None:
        self._timers.append(self.clock.call_later(delay, fn))

    def stop(self) -> None:
        """The room is stopping: this table deals no more hands and its decision clock stops (a hand
        in progress is left as it is, for the room to void)."""
        self.status = "closed"
        self._cancel_clock()

    def _cancel_clock(self) -> None:
        for t in self._timers:
            t.cancel()
        self._timers = []
        self._deadline = None
        self._unclocked = None

    def _start_clock(self, p: int) -> None:
        s = self.settings
        if s.clock_waits_for_ready:
            self._unclocked = (self.hand, p)
            return
        self._run_clock(p)

    def _run_clock(self, p: int) -> None:
        s = self.settings
        self._deadline = self.clock.now() + s.action_seconds
        hand = self.hand
        self._arm(s.action_seconds, lambda: self._timeout(hand, p))
        # The countdown: a tick each second of the last ten, so every screen shows it.
        for k in range(min(s.countdown_seconds, int(s.action_seconds)), 0, -1):
            self._arm(s.action_seconds - k, lambda k=k: self._tick(hand, p, k))

    def ready(self, account: int) -> None:
        """Hot-seat (clock_waits_for_ready): the player to act has the device; their clock starts."""
        seat, waiting = self.seat_of(account), self._unclocked
        if seat is None or waiting is None:
            return
        hand, p = waiting
        if hand is self.hand and not hand.over and hand.actor == p and self.hand_seats[p] == seat.number:
            self._unclocked = None
            self._run_clock(p)
            self._changed()

    def _tick(self, hand: Hand, p: int, k: int) -> None:
        if hand is self.hand and hand.actor == p:
            if k == self.settings.countdown_seconds:
                self._say(f"{hand.players[p].name}, you have {k} seconds to act")
            self._changed()

    def _timeout(self, hand: Hand, p: int) -> None:
        if hand is not self.hand or hand.over or hand.actor != p:
            return
        self._deadline = None
        seat = self.seats[self.hand_seats[p]]
        seat.timed_out = True
        lg = hand.legal()
        # A protected all-in contests only what the player has put in; with nothing in yet it could
        # win nothing, so it would cost a day's protection and show the cards for nothing: such a
        # timeout is played as check-or-fold and the quota is kept (_quota is only asked otherwise).
        if lg.phase == "bet" and not lg.bring_in and hand.totals[p] > 0:
            # The day's count is a store write: the timeout is played when the writer answers.
            self.writer.submit(lambda: self._quota(seat.account),
                               lambda protect, error: self._timed_out(hand, p, bool(protect) and not error))
        else:
            self._timed_out(hand, p, False)

    def _timed_out(self, hand: Hand, p: int, protect: bool) -> None:
        if hand is not self.hand or hand.over or hand.actor != p:
            return   # he acted while the store counted the protection
        seat = self.seats[self.hand_seats[p]]
        if protect:
            events = hand.protect_all_in(p)
            seat.message = "you timed out: played as a protected all-in"
        else:
            events = self._default(seat, hand.legal())
            seat.message = "you timed out"
        self._narrate(events)
        if hand.over:
            self._finish_hand()
        else:
            self._drive()

    def waiting_on(self, account: int) -> bool:
        """Is the table waiting for this account: its decision, or its blind to post?"""
        seat = self.seat_of(account)
        if seat is None:
            return False
        if seat.number in self._asking:
            return True
        hand = self.hand
        return bool(hand and not hand.over and hand.actor is not None
                    and self.hand_seats[hand.actor] == seat.number)

    def seconds_left(self) -> float | None:
        if self._deadline is None:
            return None
        return max(0.0, self._deadline - self.clock.now())

    # ================================================================= the end of a hand
    def _finish_hand(self) -> None:
        hand = self.hand
        self._cancel_clock()
        deltas: dict[int, int] = {}
        for i, account in enumerate(self.hand_accounts):
            deltas[account] = hand.stacks[i] - hand.start_stacks[i]
        about = dict(table=self.name, hand_id=self.hand_id, when=self.clock.wall(), seats=self.settings.seats,
                     currency=self.settings.currency)
        self._recording = frozenset(self.hand_seats)
        self._settle(self.hand_id, hand, deltas, record_of(hand, **about), public_text(hand, **about), 0)
        if self._recording:
            self._changed()   # the hand's end is on every screen while the store records it

    def _settle(self, hand_id: str, hand: Hand, deltas: dict[int, int], events: str, history: str,
                tries: int) -> None:
        def then(_, error: Exception | None) -> None:
            if error is None:
                self._hand_recorded(hand)
                return
            log.error("settling hand %s failed (try %d): %s", hand_id, tries + 1, error)
            if isinstance(error, Refused) or tries == len(SETTLE_RETRIES):
                self._void(hand_id, hand, error, 0)   # retrying cannot help, or did not
                return
            if tries == 0:
                self._say(f"Recording hand #{hand_id} is taking a moment: the card room's records are busy",
                          "system", "Table")
                self._changed()
            self.clock.call_later(SETTLE_RETRIES[tries],
                                  lambda: self._settle(hand_id, hand, deltas, events, history, tries + 1))
        self.writer.submit(lambda: self.store.settle_hand(hand_id, deltas, hand.rake, events, history), then)

    def _void(self, hand_id: str, hand: Hand, why: Exception, tries: int) -> None:
        """The settlement could not be recorded: the hand is void and its stacks go back. The
        store says which happened (a settlement whose commit was only reported failed stands)."""
        def then(record: HandRecord | None, error: Exception | None) -> None:
            if isinstance(error, Refused):   # no such hand: nothing a retry can mend
                log.error("voiding hand %s was refused: %s", hand_id, error)
                self.status = "paused"
                self._say(f"The table is paused: hand #{hand_id} could not be recorded ({error})",
                          "system", "Table")
                self._changed()
                return
            if error is not None:
                log.error("voiding hand %s failed (try %d): %s", hand_id, tries + 1, error)
                self.clock.call_later(min(VOID_RETRY_MAX, 2.0 ** tries),
                                      lambda: self._void(hand_id, hand, why, tries + 1))
                return
            if record.status == "settled":
                self._hand_recorded(hand)
                return
            text = (f"Hand #{hand_id} could not be recorded ({why}): it is void, and every player "
                    f"has the stack he began it with back")
            self._say(text, "system", "Table")
            for account in self.hand_accounts:
                self._page(account, f"{self.name}: {text}")
            self._hand_recorded(hand, voided=True)
        self.writer.submit(lambda: self.store.void_hand(hand_id, f"the settlement could not be recorded: {why}"),
                           then)

    def _hand_recorded(self, hand: Hand, voided: bool = False) -> None:
        """The store has the hand's end: settled, or void (every stack back to its start)."""
        self._recording = frozenset()
        dealt = len(self.hand_seats)
        stacks = hand.start_stacks if voided else hand.stacks
        if not voided:
            saw = sum(1 for i in range(dealt) if self._saw_second_round(hand, i))
            self.stats.append((self.clock.now(), sum(e.amount for e in hand.events if isinstance(e, ev.Awarded))
                               + hand.rake, dealt, saw))
        for i, number in enumerate(self.hand_seats):
            seat = self.seats[number]
            seat.stack = stacks[i]
            if seat.pending_chips:
                seat.stack += seat.pending_chips
                seat.pending_chips = 0
            if seat.timed_out and not seat.sitting_out and not seat.leaving:
                self._start_sit_out(seat)   # a player who timed out is sat out after the hand
            if seat.leaving and self.seats.get(number) is seat:
                self._remove(seat, "leaves the table")
            elif seat.stack == 0:
                seat.message = "you are out of chips: buy in to keep playing"
                self._free_if_empty_and_away(seat)
        self._changed()
        self._maybe_start()

    @staticmethod
    def _saw_second_round(hand: Hand, i: int) -> bool:
        folded_first = False
        for e in hand.events:
            if isinstance(e, (ev.DealtBoard, ev.DrawStarted)) or (isinstance(e, ev.RoundStarted) and e.index > 0):
                break
            if isinstance(e, ev.Folded) and e.player == i:
                folded_first = True
        return not folded_first

    # ================================================================= views (tableview.py)
    def summary(self) -> api.TableSummary:
        return tableview.summary(self)

    def rules_text(self) -> api.TableRules:
        return tableview.rules_text(self)

    def view_for(self, account: int | None) -> api.TableView:
        return tableview.view_for(self, account)

    def chips(self) -> int:
        """Chips this table holds (stacks, pending stake changes, and the hand's pot and rake)."""
        total = sum(s.stack + s.pending_chips for s in self.seats.values())
        if self.hand is not None and not self.hand.over:
            in_hand = sum(self.seats[n].stack for n in self.hand_seats if n in self.seats)
            total += self.hand.chips_in_play() - in_hand
        return total
