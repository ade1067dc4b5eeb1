"""The seat of each account's chips on a table (schema v6; PostgreSQL's v3): written by buy_in,
kept through hands, read by `table_holdings` -- what a table host that takes a table over from
another seats again. On both stores; chips checked by the audit after every movement."""

import json
import sqlite3

import pytest

from cardroom.room.ports import HandStart, Refused, SeatStack, TableHolding
from cardroom.store import open_store as open_any
from tests.rooms import build_room


def conserved(store):
    store.audit()
    assert store.total_money() == store.expected_money()


@pytest.fixture
def ann_bob(store):
    return store.get_or_create("ann", 10_000).id, store.get_or_create("bob", 10_000).id


def test_a_buy_in_records_its_seat_and_table_holdings_lists_them_by_seat(store, ann_bob):
    ann, bob = ann_bob
    cat = store.get_or_create("cat", 10_000).id
    store.buy_in(bob, "T", 2_000, seat=5)
    store.buy_in(ann, "T", 3_000, seat=2)
    store.buy_in(cat, "T", 1_000)                        # no seat said: unknown
    store.buy_in(ann, "other", 500, seat=1)
    assert store.table_holdings("T") == [(ann, 3_000, 2), (bob, 2_000, 5), (cat, 1_000, None)]
    assert store.table_holdings("T")[0] == TableHolding(account_id=ann, chips_cents=3_000, seat=2)
    assert store.table_holdings("other") == [(ann, 500, 1)]
    assert store.table_holdings("nowhere") == []
    conserved(store)


def test_a_top_up_without_a_seat_keeps_it_and_one_with_a_seat_moves_it(store, ann_bob):
    ann, _ = ann_bob
    store.buy_in(ann, "T", 1_000, seat=3)
    store.buy_in(ann, "T", 500)
    assert store.table_holdings("T") == [(ann, 1_500, 3)]
    store.buy_in(ann, "T", 500, seat=4)
    assert store.table_holdings("T") == [(ann, 2_000, 4)]
    store.cash_out(ann, "T", 1_200)                       # part of it: the rest stays seated
    assert store.table_holdings("T") == [(ann, 800, 4)]
    store.cash_out(ann, "T", 800)
    assert store.table_holdings("T") == []
    conserved(store)


@pytest.mark.parametrize("seat", [0, -1, True, "3", 2.0])
def test_a_buy_in_at_a_seat_that_is_not_a_seat_number_is_refused_and_changes_nothing(store, ann_bob, dump, seat):
    ann, _ = ann_bob
    before = dump()
    with pytest.raises(Refused, match="seat"):
        store.buy_in(ann, "T", 1_000, seat=seat)
    assert dump() == before
    conserved(store)


def _hand(store, ann, bob, stacks=(1_000, 1_000)):
    return store.begin_hand(HandStart("T", (SeatStack(2, ann, stacks[0]), SeatStack(5, bob, stacks[1])))).hand_id


def test_the_seat_is_kept_when_a_hand_takes_the_whole_stack_and_settles(store, ann_bob):
    """The whole stack in the hand's escrow leaves no row of chips behind; settling brings the
    chips back at the seat the hand names."""
    ann, bob = ann_bob
    store.buy_in(ann, "T", 1_000, seat=2)
    store.buy_in(bob, "T", 1_000, seat=5)
    hand = _hand(store, ann, bob)
    assert store.table_holdings("T") == []                # all in the hand's escrow
    store.settle_hand(hand, {ann: 400, bob: -450}, 50, json.dumps([]))
    assert store.table_holdings("T") == [(ann, 1_400, 2), (bob, 550, 5)]
    conserved(store)


def test_a_seat_that_loses_everything_is_gone_and_one_with_a_top_up_waiting_stays(store, ann_bob):
    ann, bob = ann_bob
    store.buy_in(ann, "T", 1_000, seat=2)
    store.buy_in(bob, "T", 1_000, seat=5)
    hand = _hand(store, ann, bob)
    store.buy_in(ann, "T", 300, seat=2)                   # a top-up during the hand: not in it
    assert store.table_holdings("T") == [(ann, 300, 2)]
    store.settle_hand(hand, {ann: -1_000, bob: 1_000}, 0, json.dumps([]))
    assert store.table_holdings("T") == [(ann, 300, 2), (bob, 2_000, 5)]
    hand = _hand(store, ann, bob, (300, 2_000))
    store.settle_hand(hand, {ann: -300, bob: 300}, 0, json.dumps([]))
    assert store.table_holdings("T") == [(bob, 2_300, 5)]
    conserved(store)


@pytest.mark.parametrize("how", ["void_hand", "void_unfinished_hands"])
def test_a_void_hand_gives_the_stacks_back_at_their_seats(store, ann_bob, how):
    ann, bob = ann_bob
    store.buy_in(ann, "T", 1_000, seat=2)
    store.buy_in(bob, "T", 1_000, seat=5)
    hand = _hand(store, ann, bob)
    if how == "void_hand":
        store.void_hand(hand, "test")
    else:
        assert store.void_unfinished_hands() == [hand]
    assert store.table_holdings("T") == [(ann, 1_000, 2), (bob, 1_000, 5)]
    conserved(store)


# ------------------------------------------------------------------------------- migration


def _v5_database(db, monkeypatch):
    """A database as the cardroom of SQLite schema 5 (PostgreSQL's 2) left it, with ann's chips
    bought in then: her account, the ledger's two entries and her chips on table T."""
    if db.name == "sqlite":
        from cardroom.store.migrations import MIGRATIONS

        conn = sqlite3.connect(db.path, isolation_level=None)
        for step in MIGRATIONS[:5]:
            for statement in step:
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 5")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
    else:
        from cardroom.store import pgschema

        with monkeypatch.context() as m:                   # the cardroom of version 2
            m.setattr(pgschema, "MIGRATIONS", pgschema.MIGRATIONS[:2])
            m.setattr(pgschema, "LATEST_VERSION", 2)
            open_any(db.where).close()
    raw = db.raw()
    try:
        ann = raw.execute("INSERT INTO accounts (name, balance_cents, starting_cents, created_at)"
                          " VALUES ('ann', 600, 1000, '2026-01-01T00:00:00+00:00') RETURNING id").fetchone()[0]
        for entry, kind, table, cents in (("e1", "open", None, 1_000), ("e2", "buy_in", "T", 400)):
            raw.execute("INSERT INTO ledger (id, at, kind, account_id, table_name, amount_cents)"
                        " VALUES (?, '2026-01-01T00:00:00+00:00', ?, ?, ?, ?)", (entry, kind, ann, table, cents))
        raw.execute("INSERT INTO table_chips (account_id, table_name, chips_cents) VALUES (?, 'T', 400)", (ann,))
    finally:
        raw.close()
    return ann


def test_an_old_database_gains_the_seat_column_with_no_seat_for_chips_bought_in_before(db, monkeypatch):
    ann = _v5_database(db, monkeypatch)
    with open_any(db.where) as s:
        assert s.table_holdings("T") == [(ann, 400, None)]
        conserved(s)
        s.buy_in(ann, "T", 100, seat=3)                   # a buy-in now names the seat
        assert s.table_holdings("T") == [(ann, 500, 3)]
        conserved(s)
        assert s.next_session_number() == 1              # and the later steps' counter
    raw = db.raw()
    try:
        if db.name == "sqlite":
            assert raw.execute("PRAGMA user_version").fetchone()[0] >= 6
        else:
            assert raw.execute("SELECT MAX(version) FROM schema_versions").fetchone()[0] >= 3
    finally:
        raw.close()


# ------------------------------------------------------------------------------- the room


def test_the_room_buys_in_at_the_seat_the_player_sits_in(store):
    """The Table tells the store the seat: a host taking the table over seats them there."""
    room, _, _ = build_room(None, store=store)     # the fixture's store: SQLite or PostgreSQL
    seated = {}
    for name, seat in (("alice", 4), ("bob", 1)):
        c = room.connect(name)
        c.join("T", seat)
        c.buy_in("T", 10_000)
        seated[c.account_id] = seat
    assert store.table_holdings("T") == sorted(((a, 10_000, s) for a, s in seated.items()), key=lambda h: h[2])
    conserved(store)
