"""Property test: random sequences of money operations, crashes and restarts conserve money.

A RuleBasedStateMachine drives a real SQLite file next to a plain-Python model of where every
cent should be; after every step the store must agree with the model, audit cleanly, hold no
negative amount, and total_money == starting money + credits - debits.
"""

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from cardroom.room.ports import (
    HandStart, InsufficientChips, InsufficientFunds, InvalidAmount, SeatStack, SettlementError,
)
from cardroom.store import SqliteStore

TABLES = ("t1", "t2")
amounts = st.one_of(st.integers(-50, 8_000), st.sampled_from([0, 1, 10**12, 10**12 + 1]))


def near(limit):
    """Mostly an amount that fits within ``limit``, sometimes one just over, sometimes wild."""
    return st.one_of(st.integers(1, max(1, limit)), st.integers(1, max(1, limit)),
                     st.just(limit + 1), amounts)


class MoneyMachine(RuleBasedStateMachine):
    @initialize()
    def open_store(self):
        self.dir = Path(tempfile.mkdtemp(prefix="cardroom-prop-"))
        self.path = self.dir / "store.sqlite3"
        self.store = SqliteStore(self.path)
        self.balance: dict[int, int] = {}
        self.chips: dict[tuple[int, str], int] = {}
        self.live: dict[str, tuple[str, dict[int, int]]] = {}  # table -> (hand id, stacks)
        self.house = 0
        self.expected = 0

    def teardown(self):
        if hasattr(self, "store"):
            self.store.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    # ------------------------------------------------------------------------------- rules

    @precondition(lambda self: len(self.balance) < 4)
    @rule(starting=st.integers(0, 5_000) | st.integers(1_000, 5_000))
    def open_account(self, starting):
        a = self.store.get_or_create(f"player{len(self.balance)}", starting)
        self.balance[a.id] = starting
        self.expected += starting

    def _account(self, data):
        return data.draw(st.sampled_from(sorted(self.balance)))

    @precondition(lambda self: self.balance)
    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def buy_in(self, data, table):
        a = self._account(data)
        cents = data.draw(near(self.balance[a]))
        if not 0 < cents <= 10**12:
            expect = InvalidAmount
        elif cents > self.balance[a]:
            expect = InsufficientFunds
        else:
            expect = None
        try:
            self.store.buy_in(a, table, cents)
        except (InvalidAmount, InsufficientFunds) as e:
            assert type(e) is expect, (e, expect)
        else:
            assert expect is None
            self.balance[a] -= cents
            self.chips[a, table] = self.chips.get((a, table), 0) + cents

    @precondition(lambda self: any(self.chips.values()))
    @rule(data=st.data(), everything=st.booleans(), elsewhere=st.booleans())
    def cash_out(self, data, everything, elsewhere):
        a, table = data.draw(st.sampled_from(sorted(k for k, v in self.chips.items() if v)))
        if elsewhere:                 # sometimes from a table where the account may hold nothing
            table = data.draw(st.sampled_from(TABLES))
        have = self.chips.get((a, table), 0)
        cents = data.draw(near(have))
        if everything and have:
            cents = have
        if not 0 < cents <= 10**12:
            expect = InvalidAmount
        elif cents > have:
            expect = InsufficientChips
        else:
            expect = None
        try:
            self.store.cash_out(a, table, cents)
        except (InvalidAmount, InsufficientChips) as e:
            assert type(e) is expect, (e, expect)
        else:
            assert expect is None
            self.chips[a, table] -= cents
            self.balance[a] += cents

    @precondition(lambda self: self.balance)
    @rule(data=st.data(), credit=st.booleans())
    def adjust(self, data, credit):
        a = self._account(data)
        cents = data.draw(near(self.balance[a]))
        if not 0 < cents <= 10**12:
            expect = InvalidAmount
        elif not credit and cents > self.balance[a]:
            expect = InsufficientFunds
        else:
            expect = None
        try:
            if credit:
                self.store.credit(a, cents, "prop", "admin")
            else:
                self.store.debit(a, cents, "prop", "admin")
        except (InvalidAmount, InsufficientFunds) as e:
            assert type(e) is expect, (e, expect)
        else:
            assert expect is None
            sign = 1 if credit else -1
            self.balance[a] += sign * cents
            self.expected += sign * cents

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def begin_hand(self, data, table):
        if table in self.live:
            return
        holders = sorted(a for (a, t), v in self.chips.items() if t == table and v > 0)
        if not holders:
            return
        players = data.draw(st.lists(st.sampled_from(holders), min_size=1, max_size=len(holders),
                                     unique=True))
        stacks = {a: data.draw(st.integers(1, self.chips[a, table])) for a in players}
        hand_id = self.store.begin_hand(HandStart(table, tuple(
            SeatStack(i, a, s) for i, (a, s) in enumerate(stacks.items())))).hand_id
        for a, s in stacks.items():
            self.chips[a, table] -= s
        self.live[table] = (hand_id, stacks)

    @precondition(lambda self: self.live)
    @rule(data=st.data(), valid=st.booleans())
    def settle(self, data, valid):
        table = data.draw(st.sampled_from(sorted(self.live)))
        hand_id, stacks = self.live[table]
        pot = sum(stacks.values())
        rake = data.draw(st.integers(0, min(pot, 300)))
        remaining = pot - rake
        ends = {}
        for i, a in enumerate(stacks):
            ends[a] = remaining if i == len(stacks) - 1 else data.draw(st.integers(0, remaining))
            remaining -= ends[a]
        deltas = {a: ends[a] - stacks[a] for a in stacks}
        if not valid:
            victim = data.draw(st.sampled_from(sorted(deltas)))
            deltas[victim] += data.draw(st.integers(1, 1_000) | st.integers(-1_000, -1))
            try:
                self.store.settle_hand(hand_id, deltas, rake, "[]")
            except SettlementError:
                return
            raise AssertionError("a settlement that does not add up was accepted")
        self.store.settle_hand(hand_id, deltas, rake, "[]")
        for a, end in ends.items():
            self.chips[a, table] += end
        self.house += rake
        del self.live[table]

    @precondition(lambda self: self.live)
    @rule(reopen_twice=st.booleans())
    def crash_and_restart(self, reopen_twice):
        """The process dies (the store is dropped mid-hand) and the room restarts."""
        self.store.close()
        if reopen_twice:              # a second crash right after opening, before recovery
            SqliteStore(self.path).close()
        self.store = SqliteStore(self.path)
        voided = self.store.void_unfinished_hands()
        assert sorted(voided) == sorted(h for h, _ in self.live.values())
        for table, (_, stacks) in self.live.items():
            for a, s in stacks.items():
                self.chips[a, table] += s
        self.live.clear()

    # -------------------------------------------------------------------------- invariants

    @invariant()
    def money_is_conserved(self):
        if not hasattr(self, "store"):
            return
        escrow = sum(sum(s.values()) for _, s in self.live.values())
        model_total = sum(self.balance.values()) + sum(self.chips.values()) + escrow + self.house
        assert model_total == self.expected
        assert self.store.total_money() == self.store.expected_money() == self.expected
        self.store.audit()

    @invariant()
    def store_agrees_with_the_model(self):
        if not hasattr(self, "store"):
            return
        for a, bal in self.balance.items():
            assert self.store.balance(a) == bal
            assert self.store.holdings(a) == {t: v for (b, t), v in self.chips.items()
                                              if b == a and v}
        assert self.store.rake_total() == self.house

    @invariant()
    def nothing_is_negative(self):
        if not hasattr(self, "store"):
            return
        conn = sqlite3.connect(self.path)
        try:
            low = conn.execute(
                "SELECT MIN(x) FROM (SELECT MIN(balance_cents) AS x FROM accounts"
                " UNION ALL SELECT MIN(chips_cents) FROM table_chips"
                " UNION ALL SELECT rake_cents FROM house)").fetchone()[0]
        finally:
            conn.close()
        assert low is None or low >= 0


MoneyMachine.TestCase.settings = settings(
    max_examples=40, stateful_step_count=40, deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
test_money_machine = MoneyMachine.TestCase


@pytest.mark.deep
class TestMoneyMachineDeep(MoneyMachine.TestCase):
    settings = settings(max_examples=1_000, stateful_step_count=80, deadline=None,
                        suppress_health_check=[HealthCheck.too_slow,
                                               HealthCheck.filter_too_much])
