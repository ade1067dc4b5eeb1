"""Hands: escrow at begin, one-transaction settlement, voiding cut-off hands, history queries."""

import json

import pytest

from cardroom.room.ports import (
    ConservationError, HandStart, HandStateError, InsufficientChips, InvalidAmount, SeatStack,
    SettlementError, UnknownHand,
)


def conserved(store):
    assert store.total_money() == store.expected_money()
    store.audit()


@pytest.fixture
def seated(store):
    """ann and bob with 5,000 each on table t1 (of 10,000 each)."""
    a = store.get_or_create("ann", 10_000)
    b = store.get_or_create("bob", 10_000)
    store.buy_in(a.id, "t1", 5_000)
    store.buy_in(b.id, "t1", 5_000)
    return a, b


def start(a, b, table="t1", sa=5_000, sb=5_000):
    return HandStart(table, (SeatStack(1, a.id, sa), SeatStack(3, b.id, sb)),
                     deck="As Kd 7h 2c")


def test_begin_hand_moves_start_stacks_into_escrow(store, seated):
    a, b = seated
    rec = store.begin_hand(start(a, b, sa=4_000))
    assert rec.status == "in_progress" and rec.finished_at is None and rec.deck == "As Kd 7h 2c"
    assert [(s.seat, s.account_id, s.start_cents, s.end_cents) for s in rec.seats] == [
        (1, a.id, 4_000, None), (3, b.id, 5_000, None)]
    # Only what is not in play stays on the table (and may be cashed out during the hand).
    assert store.table_chips(a.id, "t1") == 1_000 and store.table_chips(b.id, "t1") == 0
    with pytest.raises(InsufficientChips):
        store.cash_out(b.id, "t1", 1)
    conserved(store)


def test_on_tables_counts_a_live_hands_escrow_as_the_player_counts_his_chips(store, seated):
    """What a player has on each table: his table chips and, during a hand, its start stack in
    escrow (a gateway's welcome screen reads it from the store: it left the chips in play out)."""
    a, b = seated
    store.buy_in(a.id, "t2", 700)
    store.begin_hand(start(a, b, sa=4_000))
    assert store.holdings(a.id) == {"t1": 1_000, "t2": 700}
    assert store.on_tables(a.id) == {"t1": 5_000, "t2": 700}
    assert store.on_tables(b.id) == {"t1": 5_000}
    store.settle_hand("1", {a.id: 100, b.id: -100}, 0, "[]")
    assert store.on_tables(a.id) == store.holdings(a.id) == {"t1": 5_100, "t2": 700}


def test_settle_writes_end_stacks_rake_history_in_one_go(store, seated):
    a, b = seated
    store.begin_hand(start(a, b))
    events = json.dumps([{"action": "bet", "seat": 1, "cents": 100}])
    rec = store.settle_hand("1", {a.id: 1_000, b.id: -1_150}, 150, events, "PokerStars Hand #1")
    assert rec.status == "settled" and rec.finished_at is not None and rec.rake_cents == 150
    assert [(s.start_cents, s.end_cents) for s in rec.seats] == [(5_000, 6_000), (5_000, 3_850)]
    assert rec.events_json == events and rec.history == "PokerStars Hand #1"
    results = json.loads(rec.results_json)
    assert results["rake_cents"] == 150
    assert [s["delta_cents"] for s in results["seats"]] == [1_000, -1_150]
    assert store.table_chips(a.id, "t1") == 6_000 and store.table_chips(b.id, "t1") == 3_850
    assert store.rake_total() == 150
    kinds = sorted(e.kind for e in store.ledger(hand_id="1"))
    assert kinds == ["hand_end", "hand_end", "hand_start", "hand_start", "rake"]
    assert store.total_money() == 20_000
    conserved(store)


def test_a_player_who_loses_everything_ends_with_no_table_row(store, seated):
    a, b = seated
    store.begin_hand(start(a, b))
    store.settle_hand("1", {a.id: 5_000, b.id: -5_000}, 0, "[]")
    assert store.holdings(b.id) == {} and store.table_chips(a.id, "t1") == 10_000
    conserved(store)


@pytest.mark.parametrize("deltas, rake, events, error", [
    ({"a": 100, "b": 0}, 0, "[]", SettlementError),             # chips created
    ({"a": -100, "b": 50}, 0, "[]", SettlementError),           # chips lost
    ({"a": 100, "b": -100}, 10, "[]", SettlementError),         # rake from nowhere
    ({"a": 0}, 0, "[]", SettlementError),                       # a seat missing
    ({"a": 0, "b": 0, 999: 0}, 0, "[]", SettlementError),       # a stranger
    ({"a": -5_001, "b": 5_001}, 0, "[]", SettlementError),      # negative end stack
    ({"a": 1.0, "b": -1.0}, 0, "[]", SettlementError),          # float deltas
    ({"a": True, "b": -1}, 0, "[]", SettlementError),           # bool delta
    ({"a": 100, "b": -90}, -10, "[]", InvalidAmount),           # negative rake
    ({"a": 100, "b": -100}, 0, "{not json", SettlementError),   # events not JSON
    ([("a", 0), ("b", 0)], 0, "[]", SettlementError),           # not a mapping
])
def test_bad_results_are_refused_and_nothing_is_written(store, seated, dump, deltas, rake,
                                                        events, error):
    a, b = seated
    store.begin_hand(start(a, b))
    before = dump()
    ids = {"a": a.id, "b": b.id}
    if isinstance(deltas, dict):
        deltas = {ids.get(k, k): v for k, v in deltas.items()}
    with pytest.raises(error):
        store.settle_hand("1", deltas, rake, events)
    assert dump() == before
    assert store.get_hand("1").status == "in_progress"
    conserved(store)


def test_a_failure_in_the_middle_of_settling_rolls_everything_back(store, seated, dump,
                                                                   monkeypatch):
    """The seats' end stacks are already written when the rake step fails: all of it undone."""
    a, b = seated
    store.begin_hand(start(a, b))
    before = dump()

    def boom(c, hand, rake_cents):
        c.execute("UPDATE house SET rake_cents = rake_cents + ? WHERE id = 1", (rake_cents,))
        raise OSError("disk on fire")

    monkeypatch.setattr(store, "_collect_rake", boom)
    with pytest.raises(OSError):
        store.settle_hand("1", {a.id: 900, b.id: -1_000}, 100, "[]")
    assert dump() == before
    monkeypatch.undo()
    store.settle_hand("1", {a.id: 900, b.id: -1_000}, 100, "[]")   # and it can still settle
    conserved(store)


def test_a_database_refusal_in_the_middle_of_settling_rolls_everything_back(store, seated, dump,
                                                                          raw, db):
    """The database itself refuses the last write of the settlement (a trigger in SQLite, a
    constraint in PostgreSQL)."""
    a, b = seated
    store.begin_hand(start(a, b))
    if db.name == "sqlite":
        raw.execute("CREATE TRIGGER no_settle BEFORE UPDATE OF status ON hands"
                    " WHEN NEW.status = 'settled' BEGIN SELECT RAISE(ABORT, 'nope'); END")
    else:
        raw.execute("ALTER TABLE hands ADD CONSTRAINT nope CHECK (status <> 'settled')")
    before = dump()
    with pytest.raises(Exception, match="nope"):
        store.settle_hand("1", {a.id: 900, b.id: -1_000}, 100, "[]")
    assert dump() == before
    conserved(store)


def test_hands_settle_once(store, seated):
    a, b = seated
    store.begin_hand(start(a, b))
    store.settle_hand("1", {a.id: 0, b.id: 0}, 0, "[]")
    with pytest.raises(HandStateError):
        store.settle_hand("1", {a.id: 0, b.id: 0}, 0, "[]")
    with pytest.raises(UnknownHand):
        store.settle_hand("nope", {a.id: 0, b.id: 0}, 0, "[]")
    conserved(store)


def test_begin_hand_refusals_change_nothing(store, seated, dump):
    a, b = seated
    c = store.get_or_create("cat", 1_000)
    before = dump()
    with pytest.raises(InsufficientChips):
        store.begin_hand(start(a, b, sa=5_001))
    with pytest.raises(InsufficientChips):                 # cat has no chips on t1
        store.begin_hand(HandStart("t1", (SeatStack(1, a.id, 10), SeatStack(2, c.id, 10))))
    with pytest.raises(HandStateError):
        store.begin_hand(HandStart("t1", (SeatStack(1, a.id, 10), SeatStack(1, b.id, 10))))
    with pytest.raises(HandStateError):
        store.begin_hand(HandStart("t1", (SeatStack(1, a.id, 10), SeatStack(2, a.id, 10))))
    with pytest.raises(HandStateError):
        store.begin_hand(HandStart("t1", ()))
    with pytest.raises(InvalidAmount):
        store.begin_hand(start(a, b, sa=0))
    assert dump() == before
    store.begin_hand(start(a, b, sa=100, sb=100))
    with pytest.raises(HandStateError, match="in progress"):
        store.begin_hand(start(a, b, sa=100, sb=100))
    conserved(store)


def test_void_unfinished_hands_returns_start_stacks(store, seated, open_store):
    a, b = seated
    c = store.get_or_create("cat", 1_000)
    store.buy_in(c.id, "t2", 1_000)
    store.begin_hand(start(a, b, sa=3_000))
    store.begin_hand(HandStart("t2", (SeatStack(5, c.id, 1_000),)))
    store.buy_in(a.id, "t1", 500)            # a top-up during the hand is not lost by the void
    store.close()                            # the process "crashes" here

    with open_store() as s:
        assert s.total_money() == s.expected_money() == 21_000
        assert sorted(s.void_unfinished_hands()) == ["1", "2"]
        assert s.void_unfinished_hands() == []                     # idempotent
        assert s.table_chips(a.id, "t1") == 5_500
        assert s.table_chips(b.id, "t1") == 5_000
        assert s.table_chips(c.id, "t2") == 1_000
        h1 = s.get_hand("1")
        assert h1.status == "void" and h1.finished_at is not None
        assert json.loads(h1.results_json)["void"] is True
        assert {e.kind for e in s.ledger(hand_id="1")} == {"hand_start", "hand_void"}
        with pytest.raises(HandStateError):
            s.settle_hand("1", {a.id: 0, b.id: 0}, 0, "[]")
        assert s.total_money() == s.expected_money() == 21_000
        s.audit()
        assert s.begin_hand(start(a, b)).hand_id == "3"                    # the table deals again


def test_hand_history_newest_first_and_paginated(store, seated):
    a, b = seated
    c = store.get_or_create("cat", 1_000)
    store.buy_in(c.id, "t1", 1_000)
    for i in range(7):
        seats = (SeatStack(1, a.id, 100), SeatStack(2, b.id, 100))
        if i % 2:
            seats += (SeatStack(4, c.id, 100),)
        hand_id = store.begin_hand(HandStart("t1", seats)).hand_id
        store.settle_hand(hand_id, {s.account_id: 0 for s in seats}, 0, "[]", f"history {i}")
    got = store.hands_for_account(a.id, limit=3)
    assert [h.hand_id for h in got] == ["7", "6", "5"]
    assert [h.hand_id for h in store.hands_for_account(a.id, limit=3, offset=3)] == [
        "4", "3", "2"]
    assert [h.hand_id for h in store.hands_for_account(a.id, limit=3, offset=6)] == ["1"]
    assert [h.hand_id for h in store.hands_for_account(c.id)] == ["6", "4", "2"]
    assert store.hands_for_account(999) == []
    assert store.get_hand("4").history == "history 3" and len(store.get_hand("4").seats) == 3
    assert store.get_hand("nope") is None


def test_audit_catches_money_changed_behind_the_ledgers_back(store, seated, raw):
    a, b = seated
    store.audit()
    raw.execute("UPDATE accounts SET balance_cents = balance_cents + 1 WHERE id = ?", (a.id,))
    with pytest.raises(ConservationError, match="balance"):
        store.audit()
    raw.execute("UPDATE accounts SET balance_cents = balance_cents - 1 WHERE id = ?", (a.id,))
    raw.execute("UPDATE table_chips SET chips_cents = chips_cents + 7 WHERE account_id = ?",
                (b.id,))
    with pytest.raises(ConservationError, match="chips"):
        store.audit()


def test_hand_ids_are_numbered_by_the_store_increasing_and_never_reused(store, seated):
    """Issue 19: the room drew random 12-digit ids and a collision paused the table."""
    a, b = seated
    ids = []
    for _ in range(3):
        ids.append(store.begin_hand(start(a, b, sa=100, sb=100)).hand_id)
        store.void_hand(ids[-1], "test")
    assert [int(i) for i in ids] == [1, 2, 3]


def test_void_hand_gives_back_the_start_stacks_and_leaves_a_settled_hand_alone(store, seated):
    a, b = seated
    hand_id = store.begin_hand(start(a, b, sa=4_000)).hand_id
    record = store.void_hand(hand_id, "the settlement could not be recorded")
    assert record.status == "void" and record.finished_at is not None
    assert store.table_chips(a.id, "t1") == 5_000 and store.table_chips(b.id, "t1") == 5_000
    [entry] = [e for e in store.ledger(a.id, hand_id=hand_id) if e.kind == "hand_void"]
    assert entry.reason == "the settlement could not be recorded"
    assert store.void_hand(hand_id, "again").status == "void"        # idempotent
    assert store.table_chips(a.id, "t1") == 5_000
    # A settlement that went through stands: the void only reports it.
    hand_id = store.begin_hand(start(a, b)).hand_id
    store.settle_hand(hand_id, {a.id: 100, b.id: -100}, 0, "[]")
    assert store.void_hand(hand_id, "unsure").status == "settled"
    assert store.table_chips(a.id, "t1") == 5_100
    with pytest.raises(UnknownHand):
        store.void_hand("999", "no such hand")
    conserved(store)


def test_void_unfinished_hands_of_named_tables_leaves_the_others_live(store, seated):
    """A table host taking a table over voids that table's cut-off hand only: the hands other
    hosts are dealing at their tables go on (every unfinished hand in the database was voided)."""
    a, b = seated
    c = store.get_or_create("cat", 1_000)
    store.buy_in(c.id, "t2", 1_000)
    first = store.begin_hand(start(a, b, sa=3_000)).hand_id
    second = store.begin_hand(HandStart("t2", (SeatStack(5, c.id, 1_000),))).hand_id
    assert store.void_unfinished_hands(["t2"]) == [second]
    assert store.get_hand(first).status == "in_progress"
    assert store.get_hand(second).status == "void"
    assert store.void_unfinished_hands(["t2"]) == []
    assert store.void_unfinished_hands(["t1"]) == [first]
    assert store.total_money() == store.expected_money()
