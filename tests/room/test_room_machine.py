"""A hypothesis state machine over the whole room: a real SQLite store, a fake clock, three tables
(no-limit hold'em, fixed-limit 2-7 triple draw, fixed-limit stud hi-lo with an ante).

Rules are what sessions (and the clock, an admin, a crash) can do to a room: connect, join, buy
in, change stake, act legally and illegally, time out, disconnect, reconnect, sit out / in, leave,
auto actions, wait lists, bots, admin credits, time passing, and an in-process crash + restart.

After EVERY step:
- money: ``total_money() == expected_money()`` == what the test minted (starting money + credits);
  balances + every table's in-memory chips + rake == that too; each table's chips in memory
  (stacks, pending stake changes, the live hand's pot and rake) == its chips in the store + the
  escrow of its live hand, seat by seat; no balance, stack or table-chips row below zero;
- views: no client sees a card it may not see (another seat's hidden card, a railbird seeing any
  hidden card, a new occupant of a seat seeing the previous occupant's cards);
- every refused intent raised a RoomError and changed nothing (money, seats, the hand).
"""

from __future__ import annotations

import random
import re
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine, initialize, invariant, precondition, rule, run_state_machine_as_test,
)

from cardroom.engine import events as ev
from cardroom.engine.betting import Rules, Structure
from cardroom.engine.cards import CARDS, Card
from cardroom.engine.variants import find_variant
from cardroom.room.api import AUTO_ACTIONS, RoomError
from cardroom.room.clock import FakeClock
from cardroom.room.room import RoomSettings
from cardroom.room.table import TableSettings
from cardroom.store.sqlite import SqliteStore
from tests.rooms import build_room, table_settings

STARTING = 20_000
CARD_TOKEN = re.compile(r"\b([2-9TJQKA][cdhs])\b")
NAMES = ("ann", "bob", "cat", "dan", "eve", "fay", "gus")
ADMIN = "admin"   # no account is ever called this (an admin may not credit himself)


def room_tables() -> list[TableSettings]:
    return [
        TableSettings("Holdem NL", find_variant("holdem"), Structure.make("no", 200),
                      Rules(), seats=6),
        TableSettings("Triple Draw", find_variant("27-triple"), Structure.make("fixed", 200, 400),
                      Rules(rake_percent=10, rake_cap=150), seats=5),
        TableSettings("Stud 8", find_variant("stud8"),
                      Structure.make("fixed", 200, 400, stud=True, ante=25),
                      Rules(), seats=4, min_buy_in=1_000, max_buy_in=12_000),
    ]


TABLE_NAMES = [t.name for t in room_tables()]
SECONDS = (0.5, 1.0, 3.5, 23.5, 61.0, 601.0, 901.0)

# Figures for the report (summed over every run in this process).
STATS = {"steps": 0, "voided": 0, "refused": 0, "timeouts": 0,
         "restarts": 0, "actions": 0}


def escrow_by_table(path: Path) -> dict[str, dict[int, int]]:
    """Start-of-hand stacks held by live hands, per table and account (read-only, its own
    connection: the store has no per-table escrow query and this test adds nothing to it)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        out: dict[str, dict[int, int]] = {}
        for table, account, cents in conn.execute(
                "SELECT h.table_name, s.account_id, s.start_cents FROM hands h"
                " JOIN hand_seats s ON s.hand_seq = h.seq WHERE h.status = 'in_progress'"):
            out.setdefault(table, {})[account] = cents
        return out
    finally:
        conn.close()


def all_table_chips(path: Path) -> dict[tuple[int, str], int]:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {(a, t): c for a, t, c in
                conn.execute("SELECT account_id, table_name, chips_cents FROM table_chips")}
    finally:
        conn.close()


def random_legal(lg, my_cards, rnd: random.Random):
    """(kind, amount, discards): one action `lg` allows, chosen at random."""
    if lg.phase == "draw":
        k = rnd.randint(0, min(lg.max_draw, len(my_cards)))
        if k == 0 and rnd.random() < 0.5:
            return "stand pat", 0, ()
        return "draw", 0, tuple(rnd.sample(list(my_cards), k))
    opts = []
    if lg.bring_in:
        opts.append(("bring-in", 0))
    if lg.fold and rnd.random() < 0.5:        # folding less often keeps hands going
        opts.append(("fold", 0))
    if lg.check:
        opts.append(("check", 0))
    if lg.can_call:
        opts += [("call", 0)] * 2
    if lg.min_to:
        if lg.raise_kind == "complete":
            opts.append(("complete", 0))
        else:
            amount = rnd.choice([lg.min_to, lg.max_to, rnd.randint(lg.min_to, lg.max_to)])
            opts.append((rnd.choice(["bet", "raise"]), amount))
    if not opts:
        opts.append(("fold", 0))
    kind, amount = rnd.choice(opts)
    return kind, amount, ()


class RoomMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="room-machine-"))
        self.path = self.dir / "room.sqlite3"
        self.store = SqliteStore(self.path)
        self.minted = 0
        self.clients = []
        self.room = None
        self.clock = None

    def teardown(self) -> None:
        conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        for status, n in conn.execute("SELECT status, COUNT(*) FROM hands GROUP BY status"):
            STATS[f"hands_{status}"] = STATS.get(f"hands_{status}", 0) + n
        conn.close()
        self.store.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def _boot(self, seed: int) -> list[str]:
        self.clock = FakeClock()
        self.room, _, _ = build_room(None, *room_tables(), store=self.store, clock=self.clock, seed=seed,
                                     settings=RoomSettings(starting_money=STARTING, timeout_allin_quota=2),
                                     start=False)
        self.clients = []
        return self.room.start()

    @initialize(seed=st.integers(0, 2**32 - 1),
                seating=st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(TABLE_NAMES),
                                           st.floats(0, 1)), max_size=10))
    def boot(self, seed: int, seating) -> None:
        assert self._boot(seed) == []
        for name, table, frac in seating:      # a room that is already playing
            self._sit_down(name, table, frac)

    def _sit_down(self, name: str, table: str, frac: float) -> None:
        """Connect (or reuse a session), take a seat and buy in a legal amount."""
        c = next((c for c in self.clients if c.name == name), None)
        if c is None:
            c = self.room.connect(name)
            self._took_over(c)
        t = self.room.tables[table]
        if t.seat_of(c.account_id) is None:
            if not t.free_seats():
                return
            try:
                c.join(table)
            except RoomError:     # every free seat is held for the wait list
                return
        seat = t.seat_of(c.account_id)
        lo, hi, _ = t.buy_in_limits(c.account_id)
        have = seat.stack + seat.pending_chips
        top = min(self.store.balance(c.account_id), (hi - have) if hi is not None else 10**9)
        low = lo if have == 0 else 1
        if top >= low:
            c.buy_in(table, low + int(frac * (top - low)))

    @rule(name=st.sampled_from(NAMES), table=st.sampled_from(TABLE_NAMES), frac=st.floats(0, 1))
    def sit_down(self, name, table, frac) -> None:
        self._sit_down(name, table, frac)

    # ------------------------------------------------------------------ helpers
    def _took_over(self, c) -> None:
        """A second login of the same account takes over: the older sessions are closed."""
        for old in [o for o in self.clients if o.account_id == c.account_id]:
            assert old.closed
            self.clients.remove(old)
        self.clients.append(c)

    def _tables(self):
        return list(self.room.tables.values())

    def _account_names(self):
        return {a.id: a.name for a in self.store.accounts()}

    def snapshot(self):
        """Everything a refused intent must leave alone."""
        money = tuple((a.id, a.balance_cents) for a in self.store.accounts())
        ledger = self.store.ledger(limit=1)
        tables = []
        for t in self._tables():
            seats = tuple((n, s.account, s.stack, s.pending_chips, s.sitting_out, s.leaving)
                          for n, s in sorted(t.seats.items()))
            h = t.hand
            hand = (t.hand_id, len(h.events), h.actor, tuple(h.stacks), tuple(h.totals)) if h else None
            tables.append((t.name, seats, hand, t.status))
        return (money, ledger[0].seq if ledger else 0, all_table_chips(self.path), tuple(tables))

    def refused(self, fn, *args, **kw) -> None:
        """`fn` must raise a RoomError and change nothing."""
        before = self.snapshot()
        with pytest.raises(RoomError):
            fn(*args, **kw)
        assert self.snapshot() == before, f"a refused {fn.__name__}{args} changed the room"
        STATS["refused"] += 1

    def _pick(self, data, items, label):
        return data.draw(st.sampled_from(items), label=label)

    def _seated(self):
        """(client, table) pairs where the client's account has a seat."""
        return [(c, t) for c in self.clients for t in self._tables() if t.seat_of(c.account_id)]

    # ------------------------------------------------------------------ sessions
    @rule(name=st.sampled_from(NAMES), watch=st.none() | st.sampled_from(TABLE_NAMES))
    def connect(self, name, watch) -> None:
        """A new session, or a reconnect of a name that already has seats."""
        c = self.room.connect(name)
        assert c.name == name
        self._took_over(c)
        for t in self._tables():
            seat = t.seat_of(c.account_id)
            if seat is not None:
                assert seat.connected
        if watch:
            c.watch(watch)      # a railbird

    @precondition(lambda self: self.clients)
    @rule(data=st.data())
    def disconnect(self, data) -> None:
        c = self._pick(data, self.clients, "client")
        c.close()
        self.clients.remove(c)
        still = any(o.account_id == c.account_id for o in self.clients)
        for t in self._tables():
            seat = t.seat_of(c.account_id)
            if seat is not None:
                assert seat.connected == still    # seats are kept, marked disconnected

    @precondition(lambda self: self.clients)
    @rule(data=st.data(), table=st.sampled_from(TABLE_NAMES),
          seat=st.none() | st.integers(-1, 8))
    def join(self, data, table, seat) -> None:
        c = self._pick(data, self.clients, "client")
        t = self.room.tables[table]
        if t.seat_of(c.account_id) is not None or (seat is not None and not 1 <= seat <= t.settings.seats):
            self.refused(c.join, table, seat)
            return
        before = self.snapshot()
        try:
            got = c.join(table, seat)
        except RoomError:
            assert self.snapshot() == before
            STATS["refused"] += 1
            return
        assert seat is None or got == seat
        assert t.seats[got].account == c.account_id
        assert t.seats[got].stack == 0             # nothing was left on this table

    @precondition(lambda self: self.clients)
    @rule(data=st.data(), table=st.sampled_from(TABLE_NAMES))
    def join_wait_list(self, data, table) -> None:
        c = self._pick(data, self.clients, "client")
        before = self.snapshot()
        try:
            c.join_wait_list(table)
        except RoomError:
            assert self.snapshot() == before

    @precondition(lambda self: self.clients)
    @rule(data=st.data(), table=st.sampled_from(TABLE_NAMES),
          how=st.sampled_from(["random", "min", "max", "below_min", "above_max", "all", "too_much",
                               "zero", "negative", "float", "bool", "text", "huge"]),
          frac=st.floats(0, 1))
    def buy_in(self, data, table, how, frac) -> None:
        """Buy in or change the table stake: a legal amount must work, an illegal one must not."""
        c = self._pick(data, self.clients, "client")
        t = self.room.tables[table]
        balance = self.store.balance(c.account_id)
        # The table's own limits for this account: after leaving, the minimum is the stack left
        # with (no ratholing, tested on its own in test_table_rules); never below the setting.
        lo, hi, _ = t.buy_in_limits(c.account_id)
        assert lo >= t.settings.buy_in_min and hi == t.settings.buy_in_max
        amount = {"random": int(frac * balance), "min": lo, "max": hi or balance,
                  "below_min": lo - 1, "above_max": (hi or balance) + 1, "all": balance,
                  "too_much": balance + 1, "zero": 0, "negative": -lo, "float": float(lo),
                  "bool": True, "text": str(lo), "huge": 10**15}[how]
        seat = t.seat_of(c.account_id)
        have = seat.stack + seat.pending_chips if seat else 0
        ok = (seat is not None and type(amount) is int and 0 < amount <= balance
              and not (have == 0 and amount < lo) and not (hi is not None and have + amount > hi))
        if not ok:
            self.refused(c.buy_in, table, amount)
            return
        chips = t.chips()
        c.buy_in(table, amount)
        assert self.store.balance(c.account_id) == balance - amount
        assert t.chips() == chips + amount

    # ------------------------------------------------------------------ play
    @rule(n=st.integers(1, 40), seed=st.integers(0, 2**32 - 1), stop_at_end=st.booleans())
    def play(self, n, seed, stop_at_end) -> None:
        """Up to n random legal decisions by whoever is to act; time passes when nobody can.
        `stop_at_end`: stop as soon as a hand ends (so the next rules run between hands)."""
        rnd = random.Random(seed)
        seen: set[str] = set()
        for _ in range(n):
            for t in self._tables():
                if t.hand is not None and not t.hand.over:
                    seen.add(t.hand_id)
                elif stop_at_end and t.hand_id in seen:
                    return
            todo = []
            for c in self.clients:
                for name in TABLE_NAMES:
                    v = c.view(name)
                    if v.legal is not None:
                        todo.append((c, name, v))
            if not todo:
                self.clock.advance(rnd.choice([0.5, 1.0, 3.5]))
                continue
            c, name, v = rnd.choice(todo)
            kind, amount, discards = random_legal(v.legal, v.my_cards, rnd)
            hand_id = self.room.tables[name].hand_id
            c.act(name, kind, amount, discards)
            STATS["actions"] += 1
            t = self.room.tables[name]
            if t.hand_id == hand_id and t.hand is not None and not t.hand.over:
                assert c.view(name).legal is None or t.hand.actor is not None

    @rule(n=st.integers(1, 40), seed=st.integers(0, 2**32 - 1), stop_at_end=st.booleans())
    def play_more(self, n, seed, stop_at_end) -> None:
        """The same as `play` (a second rule gives play its fair share of the steps)."""
        self.play(n, seed, stop_at_end)

    @precondition(lambda self: self.clients)
    @rule(data=st.data(), what=st.sampled_from(
        ["out_of_turn", "not_seated", "bad_amount", "bad_kind", "wrong_check_call",
         "bad_discard", "double"]))
    def act_illegally(self, data, what) -> None:
        """Out of turn, not seated, bad amounts, unknown kinds, impossible draws, a double
        submission: a RoomError and nothing changes."""
        if what == "not_seated":
            pairs = [(c, n) for c in self.clients for n in TABLE_NAMES
                     if not self.room.tables[n].seat_of(c.account_id)]
            if pairs:
                c, n = self._pick(data, pairs, "pair")
                self.refused(c.act, n, "check")
            return
        if what == "out_of_turn":
            pairs = [(c, t.name) for c, t in self._seated() if c.view(t.name).legal is None]
            if pairs:
                c, n = self._pick(data, pairs, "pair")
                kind = data.draw(st.sampled_from(["check", "call", "fold", "bet", "draw"]))
                self.refused(c.act, n, kind, self.room.tables[n].settings.structure.big_bet)
            return
        todo = [(c, n, v) for c in self.clients for n in TABLE_NAMES
                if (v := c.view(n)).legal is not None]
        if todo:
            c, n, v = self._pick(data, todo, "actor")
            getattr(self, f"_{what}")(data, c, n, v)

    # The player to act, acting wrongly (act_illegally's `what`, one method each).
    def _bad_amount(self, data, c, n, v) -> None:
        lg = v.legal
        bad = [0, -1, lg.max_to + 1, 10**15, True, "600", None, 1.5]
        if lg.min_to > 1:
            bad.append(lg.min_to - 1)
        if lg.min_to:
            bad += [float(lg.min_to), lg.min_to + 0.5, str(lg.min_to)]
        amount = data.draw(st.sampled_from(bad), label="amount")
        self.refused(c.act, n, data.draw(st.sampled_from(["bet", "raise"])), amount)

    def _bad_kind(self, data, c, n, v) -> None:
        self.refused(c.act, n, data.draw(st.sampled_from(["allin", "", "CHECK", "show", "muck",
                                                          "sit", None, 3])))

    def _wrong_check_call(self, data, c, n, v) -> None:
        lg = v.legal
        if lg.phase == "draw" or lg.bring_in:
            self.refused(c.act, n, data.draw(st.sampled_from(["check", "call", "fold"])))
        elif not lg.check:
            self.refused(c.act, n, "check")
        else:
            self.refused(c.act, n, "call")

    def _bad_discard(self, data, c, n, v) -> None:
        if v.legal.phase != "draw":
            self.refused(c.act, n, "draw", 0, tuple(v.my_cards[:1]))
            return
        mine = set(v.my_cards)
        other = next(card for card in CARDS if card not in mine)
        bad = data.draw(st.sampled_from([
            (other,), (v.my_cards[0], v.my_cards[0]), tuple(v.my_cards) + (other,),
            ("As",), (None,)]), label="discards")
        self.refused(c.act, n, "draw", 0, bad)

    def _double(self, data, c, n, v) -> None:
        # The same decision submitted twice: the second finds it is not his turn any more
        # (unless the action came straight back to him, which a fold never does).
        kind, amount, discards = random_legal(v.legal, v.my_cards, random.Random(data.draw(
            st.integers(0, 2**32 - 1), label="seed")))
        c.act(n, kind, amount, discards)
        STATS["actions"] += 1
        if c.view(n).legal is None:
            self.refused(c.act, n, kind, amount, discards)

    @precondition(lambda self: any(t.seconds_left() is not None for t in self.room.tables.values()))
    @rule(data=st.data())
    def time_out(self, data) -> None:
        """Let a player's decision clock run out (protected all-in while the daily quota lasts,
        then check/fold); he is sat out after the hand."""
        tables = [t for t in self._tables() if t.seconds_left() is not None]
        t = self._pick(data, tables, "table")
        actor = t.hand.actor
        hand = t.hand
        seat = t.seats[t.hand_seats[actor]]
        self.clock.advance(t.seconds_left() + 0.01)
        STATS["timeouts"] += 1
        if t.hand is hand and not hand.over:
            assert hand.actor != actor or hand.legal().phase != "bet" or seat.leaving is False
        if t.seats.get(seat.number) is seat:
            assert seat.timed_out or seat.sitting_out or t.hand is not hand

    @rule(seconds=st.sampled_from(SECONDS))
    def advance_time(self, seconds) -> None:
        """The pause between hands, decision clocks, seat holds, sit-out limits."""
        self.clock.advance(seconds)

    @precondition(lambda self: self._seated())
    @rule(data=st.data(), which=st.sampled_from(["sit_out", "sit_in", "leave", "auto", "bot",
                                                 "post", "auto_blind"]))
    def seat_intent(self, data, which) -> None:
        c, t = self._pick(data, self._seated(), "seat")
        if which == "sit_out":
            c.sit_out(t.name)
        elif which == "sit_in":
            c.sit_in(t.name)
        elif which == "leave":
            balance = self.store.balance(c.account_id)
            seat = t.seat_of(c.account_id)
            in_hand = t.in_hand(seat)
            stack = seat.stack
            c.leave(t.name)
            if not in_hand:
                assert t.seat_of(c.account_id) is None
                assert self.store.balance(c.account_id) == balance + stack
        elif which == "auto":
            c.set_auto(t.name, data.draw(st.sampled_from(AUTO_ACTIONS)))
        elif which == "bot":
            t.make_bot(c.account_id, random.Random(data.draw(st.integers(0, 2**32 - 1))))
        elif which == "post":
            c.post_or_wait(t.name, data.draw(st.booleans()))
        elif which == "auto_blind":
            c.set_auto_blind(t.name, data.draw(st.booleans()))

    @precondition(lambda self: self.clients)
    @rule(data=st.data())
    def refused_seat_intents(self, data) -> None:
        """Seat intents at a table where the account has no seat; an unknown auto action."""
        c = self._pick(data, self.clients, "client")
        names = [n for n in TABLE_NAMES if not self.room.tables[n].seat_of(c.account_id)]
        if names:
            n = self._pick(data, names, "table")
            fn = self._pick(data, [c.sit_out, c.sit_in, c.leave], "intent")
            self.refused(fn, n)
        self.refused(c.set_auto, TABLE_NAMES[0], "always raise")
        self.refused(c.join, "no such table")

    @rule(name=st.sampled_from(NAMES), cents=st.integers(1, 50_000))
    def admin_credit(self, name, cents) -> None:
        account = self.store.find(name)
        if account is None:
            return
        self.store.credit(account.id, cents, "machine test credit", admin=ADMIN)
        self.minted += cents

    @precondition(lambda self: any(t.hand is not None and not t.hand.over
                                   for t in self.room.tables.values()))
    @rule(seed=st.integers(0, 2**32 - 1))
    def crash_and_restart(self, seed) -> None:
        """The process dies (in-process: the room and its clock are dropped on the floor) and a new
        one starts on the same file: live hands are void, every table chip is back in a balance."""
        live = {t.hand_id for t in self._tables() if t.hand is not None and not t.hand.over}
        voided = self._boot(seed)
        assert set(voided) == live
        for hand_id in voided:
            assert self.store.get_hand(hand_id).status == "void"
        assert all_table_chips(self.path) == {k: 0 for k in all_table_chips(self.path)}
        assert escrow_by_table(self.path) == {}
        STATS["voided"] += len(voided)
        STATS["restarts"] += 1

    # ------------------------------------------------------------------ invariants
    @invariant()
    def money_is_conserved(self) -> None:
        STATS["steps"] += 1
        accounts = self.store.accounts()
        minted = STARTING * len(accounts) + self.minted
        assert self.store.expected_money() == minted
        assert self.store.total_money() == minted
        balances = sum(a.balance_cents for a in accounts)
        rake = self.store.rake_total()
        assert balances + self.room.chips_on_tables() + rake == minted
        for a in accounts:
            assert a.balance_cents >= 0, a

    @invariant()
    def tables_agree_with_the_store(self) -> None:
        escrow = escrow_by_table(self.path)
        chips = all_table_chips(self.path)
        assert all(v >= 0 for v in chips.values()), chips
        for t in self._tables():
            assert t.status == "open", f"{t.name} is {t.status}: {[line.text for line in t.chat][-3:]}"
            live = t.hand is not None and not t.hand.over
            held = escrow.get(t.name, {})
            assert bool(held) == live, (t.name, held, live)
            on_table = sum(v for (a, n), v in chips.items() if n == t.name)
            assert t.chips() == on_table + sum(held.values()), t.name
            seated = {s.account for s in t.seats.values()}
            for (a, n), v in chips.items():
                if n == t.name and a not in seated:
                    assert v == 0, f"{a} has {v} chips left on {t.name} without a seat"
            for s in t.seats.values():
                assert s.stack >= 0 and s.pending_chips >= 0
                if live and s.number in t.hand_seats:
                    p = t.hand_seats.index(s.number)
                    assert t.hand_accounts[p] == s.account
                    assert held[s.account] == s.stack == t.hand.start_stacks[p]
                    assert chips.get((s.account, t.name), 0) == s.pending_chips
                else:
                    assert chips.get((s.account, t.name), 0) == s.stack + s.pending_chips
            if live:
                STATS.setdefault("_hands", set()).add(t.hand_id)
                assert len(held) == len(t.hand_seats)

    @invariant()
    def nobody_sees_hidden_cards(self) -> None:
        for t in self._tables():
            if t.hand is not None:
                dealer_names_public_cards_only(t)
            for c in list(self.clients) + [None]:
                view_shows_only_what_the_viewer_may_see(t, c)


def dealer_names_public_cards_only(t) -> None:
    """The dealer's chat (everyone's, railbirds' too) names public cards only."""
    hand = t.hand
    public = set(hand.board)
    for e in hand.events:     # up cards stay public after their owner folds
        if isinstance(e, ev.DealtHole):
            public |= {card for card, up in zip(e.cards, e.up) if up}
        elif isinstance(e, ev.Shown):
            public |= set(e.cards)
    lines = [line.text for line in t.chat]
    begins = f"Hand #{t.hand_id} begins"
    if begins in lines:
        for text in lines[len(lines) - 1 - lines[::-1].index(begins):]:
            named = {Card.parse(tok) for tok in CARD_TOKEN.findall(text)}
            assert named <= public, f"the dealer said {text!r} at {t.name}"


def view_shows_only_what_the_viewer_may_see(t, c) -> None:
    """`c`'s view of table `t` (None: a railbird's) holds the board, up cards, shown hands and
    his own cards, nothing else."""
    hand, account = t.hand, (c.account_id if c else None)
    v = t.view_for(account)
    allowed = set()
    if hand is not None:
        allowed |= set(hand.board)
        for p in range(hand.n):
            if p in hand.shown or (account is not None and t.hand_accounts[p] == account):
                allowed |= set(hand.hole[p])
            else:
                allowed |= {card for card, up in zip(hand.hole[p], hand.up[p]) if up}
    seen = {card for s in v.seats for card in s.cards if card is not None}
    seen |= set(v.my_cards) | set(v.board)
    assert seen <= allowed, (f"{c.name if c else 'a railbird'} sees "
                             f"{sorted(map(repr, seen - allowed))} at {t.name}")
    for s in v.seats:
        if s.number == v.my_seat:
            continue
        for card, up in zip(s.cards, s.up):
            assert card is None or up or s.shown, (t.name, s)
    if v.my_seat is None:
        assert v.my_cards == () and v.legal is None


SETTINGS = settings(max_examples=25, stateful_step_count=40, deadline=None,
                    suppress_health_check=list(HealthCheck))


def test_room_machine():
    run_state_machine_as_test(RoomMachine, settings=SETTINGS)


@pytest.mark.deep
def test_room_machine_deep():
    """At least 10,000 steps (about 300 runs of 50 steps); prints the figures."""
    for k in ("steps", "voided", "refused", "timeouts", "restarts", "actions"):
        STATS[k] = 0
    STATS["_hands"] = set()
    started = time.monotonic()
    run_state_machine_as_test(RoomMachine, settings=settings(
        max_examples=300, stateful_step_count=50, deadline=None,
        suppress_health_check=list(HealthCheck)))
    hands = len(STATS.pop("_hands", set()))
    print(f"\nroom machine (deep): {STATS} hands={hands} in {time.monotonic() - started:.0f} s")
    assert STATS["steps"] >= 10_000


# ---------------------------------------------------------------------- regressions it found
def _two_player_room(tmp_path, table: TableSettings | None = None):
    room, store, clock = build_room(tmp_path / "r.sqlite3", table or table_settings(kind="no", rules=Rules()),
                                    seed=7, settings=RoomSettings(starting_money=STARTING))
    a, b = room.connect("ann"), room.connect("bob")
    for c in (a, b):
        c.join("T")
        c.set_auto_blind("T", True)
        c.buy_in("T", 5_000)
    clock.advance(0.1)
    return room, clock, store, a, b


def test_a_new_occupant_does_not_see_the_previous_occupants_cards(tmp_path):
    room, clock, store, a, b = _two_player_room(tmp_path)
    t = room.tables["T"]
    actor = a if a.view("T").legal else b
    other = b if actor is a else a
    seat = t.seat_of(other.account_id).number
    hole = list(t.hand.hole[t.hand_seats.index(seat)])
    actor.act("T", "fold")                       # the hand is over; nobody showed anything
    assert t.hand.over
    other.leave("T")
    cat = room.connect("cat")
    assert cat.join("T", seat) == seat           # before the next hand is dealt
    v = cat.view("T")
    assert v.my_cards == ()
    assert not {c for s in v.seats for c in s.cards if c is not None} & set(hole)
    store.close()


def test_a_float_or_bool_amount_is_refused(tmp_path):
    room, clock, store, a, b = _two_player_room(tmp_path)
    actor = a if a.view("T").legal else b
    lg = actor.view("T").legal
    for amount in (float(lg.min_to), lg.min_to + 0.5, True, str(lg.min_to)):
        with pytest.raises(RoomError):
            actor.act("T", "bet", amount)
    actor.act("T", "bet", lg.min_to)
    assert store.total_money() == store.expected_money()
    store.close()


def test_set_auto_and_bot_for_a_seat_not_in_the_hand(tmp_path):
    room, clock, store, a, b = _two_player_room(tmp_path)
    cat = room.connect("cat")
    cat.join("T")                                # sits down while a hand is being played
    cat.set_auto("T", "check/fold")
    room.tables["T"].make_bot(cat.account_id, random.Random(1))
    store.close()


def test_everyone_folds_to_two_protected_all_ins(tmp_path):
    room, store, clock = build_room(tmp_path / "r.sqlite3", table_settings(kind="no", rules=Rules()),
                                    seed=7, settings=RoomSettings(starting_money=STARTING))
    clients = [room.connect(n) for n in ("ann", "bob", "cat", "dan")]
    for c in clients:
        c.join("T")
        c.set_auto_blind("T", True)
        c.buy_in("T", 5_000)
    clock.advance(0.1)
    table = room.tables["T"]
    hand = table.hand
    while hand.round == 0:               # everyone calls the big blind (a timeout with nothing in folds)
        actor = next(c for c in clients if c.view("T").legal is not None)
        actor.act("T", "check" if actor.view("T").legal.check else "call")
    for _ in range(2):                   # the first two to act on the flop time out: protected all-ins
        clock.advance(table.seconds_left() + 0.01)
    assert sum(hand.protected) == 2
    while table.hand is hand and not hand.over:
        actor = next(c for c in clients if c.view("T").legal is not None)
        actor.act("T", "fold")           # everyone else folds, even where checking is free
    try:
        assert table.status == "open"
        assert store.total_money() == store.expected_money()
        assert store.get_hand(table.hand_id).status == "settled"
    finally:
        store.close()
