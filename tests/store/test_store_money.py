"""Buy-ins, cash-outs, admin credits and debits: conservation, refusals, races, idempotency."""

import threading

import pytest

from cardroom.room.ports import (
    DuplicateEntry, InsufficientChips, InsufficientFunds, InvalidAmount, Refused, SelfAdjustment,
    UnknownAccount,
)


def conserved(store):
    assert store.total_money() == store.expected_money()
    store.audit()


def test_buy_in_and_cash_out_move_money_between_balance_and_table(store):
    a = store.get_or_create("ann", 10_000)
    e = store.buy_in(a.id, "t1", 3_000)
    assert (e.kind, e.account_id, e.table, e.amount_cents) == ("buy_in", a.id, "t1", 3_000)
    assert store.balance(a.id) == 7_000 and store.table_chips(a.id, "t1") == 3_000
    store.buy_in(a.id, "t2", 1_000)
    assert store.holdings(a.id) == {"t1": 3_000, "t2": 1_000}
    conserved(store)
    store.cash_out(a.id, "t1", 3_000)
    assert store.holdings(a.id) == {"t2": 1_000} and store.balance(a.id) == 9_000
    conserved(store)
    assert store.total_money() == 10_000


def test_credit_and_debit(store):
    a = store.get_or_create("ann", 1_000)
    e = store.credit(a.id, 500, "tournament prize", "admin-carol")
    assert (e.kind, e.amount_cents, e.reason, e.admin) == ("credit", 500, "tournament prize",
                                                            "admin-carol")
    store.debit(a.id, 1_200, "correction", "admin-carol")
    assert store.balance(a.id) == 300
    assert store.expected_money() == 1_000 + 500 - 1_200 == store.total_money()
    conserved(store)


def test_every_movement_is_a_ledger_row_with_a_unique_id(store):
    a = store.get_or_create("ann", 1_000)
    for _ in range(5):
        store.buy_in(a.id, "t", 100)
        store.cash_out(a.id, "t", 50)
    store.credit(a.id, 1, "r", "adm")
    entries = store.ledger(a.id, limit=500)
    assert len(entries) == 12
    assert len({e.id for e in entries}) == 12
    assert [e.seq for e in entries] == sorted((e.seq for e in entries), reverse=True)
    page1 = store.ledger(a.id, limit=5)
    page2 = store.ledger(a.id, limit=5, before_seq=page1[-1].seq)
    assert page1 + page2 == entries[:10]


def test_refusals_change_nothing(store, dump):
    a = store.get_or_create("ann", 1_000)
    store.buy_in(a.id, "t1", 400)
    before = dump()
    with pytest.raises(InsufficientFunds):
        store.buy_in(a.id, "t1", 601)
    with pytest.raises(InsufficientChips):
        store.cash_out(a.id, "t1", 401)
    with pytest.raises(InsufficientChips):
        store.cash_out(a.id, "t2", 1)
    with pytest.raises(InsufficientFunds):
        store.debit(a.id, 601, "too much", "admin")
    with pytest.raises(UnknownAccount):
        store.buy_in(999, "t1", 1)
    with pytest.raises(Refused):
        store.buy_in(a.id, "", 1)
    assert dump() == before
    conserved(store)


@pytest.mark.parametrize("amount", [0, -1, -600, 1.0, 0.5, True, "100", "1_000", "١٠٠", None,
                                    10**12 + 1, 10**30])
def test_amounts_a_person_did_not_mean_are_refused(store, dump, amount):
    a = store.get_or_create("ann", 1_000)
    store.buy_in(a.id, "t1", 400)
    before = dump()
    for call in (lambda: store.buy_in(a.id, "t1", amount),
                 lambda: store.cash_out(a.id, "t1", amount),
                 lambda: store.credit(a.id, amount, "r", "admin"),
                 lambda: store.debit(a.id, amount, "r", "admin")):
        with pytest.raises(InvalidAmount):
            call()
    assert dump() == before


def test_admins_may_not_adjust_their_own_account(store, dump):
    a = store.claim("ann", "SHA256:ann", 1_000)
    store.set_admin(a.id, True)
    before = dump()
    for admin in ("ann", "SHA256:ann"):
        with pytest.raises(SelfAdjustment):
            store.credit(a.id, 1_000_000, "for me", admin)
        with pytest.raises(SelfAdjustment):
            store.debit(a.id, 1, "for me", admin)
    assert dump() == before


def test_an_entry_id_makes_a_double_submission_harmless(store):
    a = store.get_or_create("ann", 1_000)
    first = store.buy_in(a.id, "t1", 300, entry_id="req-1")
    again = store.buy_in(a.id, "t1", 300, entry_id="req-1")
    assert again == first and first.id == "req-1"
    assert store.balance(a.id) == 700
    with pytest.raises(DuplicateEntry):
        store.buy_in(a.id, "t1", 301, entry_id="req-1")
    with pytest.raises(DuplicateEntry):
        store.credit(a.id, 300, "r", "adm", entry_id="req-1")
    c = store.credit(a.id, 5, "r", "adm", entry_id="adm-7")
    assert store.credit(a.id, 5, "r", "adm", entry_id="adm-7") == c
    assert store.balance(a.id) == 705
    conserved(store)


def _race(n_threads, make_store, account_id, cents, *, own_store):
    barrier = threading.Barrier(n_threads)
    outcomes = []

    def worker():
        s = make_store()
        try:
            barrier.wait()
            s.buy_in(account_id, "t1", cents)
            outcomes.append("ok")
        except InsufficientFunds:
            outcomes.append("refused")
        finally:
            if own_store:
                s.close()

    threads = [threading.Thread(target=worker) for _ in range(n_threads)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(outcomes)


@pytest.mark.parametrize("trial", range(5))
def test_concurrent_buy_ins_from_two_connections_exceeding_the_balance(open_store, store, trial):
    """Two processes (two stores, two connections) buy in from one balance at once: one is
    refused, whatever the database (SQLite queues the writers; PostgreSQL fails one SERIALIZABLE
    transaction and the store runs it again, when it sees the other's buy-in)."""
    a = store.get_or_create("ann", 1_000)
    outcomes = _race(2, open_store, a.id, 600, own_store=False)
    assert outcomes == ["ok", "refused"]
    assert store.balance(a.id) == 400 and store.table_chips(a.id, "t1") == 600
    conserved(store)


def test_concurrent_buy_ins_from_six_connections_grant_exactly_the_balance(open_store, store):
    a = store.get_or_create("ann", 1_000)
    outcomes = _race(6, open_store, a.id, 300, own_store=False)
    assert outcomes == ["ok"] * 3 + ["refused"] * 3
    assert store.balance(a.id) == 100 and store.table_chips(a.id, "t1") == 900
    conserved(store)


def test_concurrent_buy_ins_through_one_shared_store(store):
    a = store.get_or_create("ann", 1_000)
    outcomes = _race(8, lambda: store, a.id, 300, own_store=False)
    assert outcomes == ["ok"] * 3 + ["refused"] * 5
    assert store.balance(a.id) == 100
    conserved(store)


def test_a_second_store_sees_committed_money(open_store, store):
    a = store.get_or_create("ann", 1_000)
    store.buy_in(a.id, "t1", 250)
    other = open_store()
    assert other.balance(a.id) == 750 and other.table_chips(a.id, "t1") == 250
    other.audit()


def test_a_read_does_not_wait_for_a_write_held_up_by_another_process(store, db):
    """Issue 19: one connection and one lock served reads and writes, so while a write waited
    on the database (another process in an EXCLUSIVE transaction, or holding the accounts
    locked in PostgreSQL) every read waited behind it; the room's reads (balances, views) run
    on the loop."""
    a = store.get_or_create("ann", 10_000)
    other = db.raw()
    other.execute("BEGIN EXCLUSIVE" if db.name == "sqlite" else "BEGIN")
    if db.name == "postgresql":
        other.execute("LOCK TABLE accounts IN EXCLUSIVE MODE")   # writes wait, reads do not
    done = threading.Event()
    writer = threading.Thread(target=lambda: (store.buy_in(a.id, "t1", 1_000), done.set()))
    writer.start()
    while store.db._lock.acquire(blocking=False):       # until the write is inside its transaction
        store.db._lock.release()
    try:
        assert store.balance(a.id) == 10_000
        assert not done.is_set()                      # the read came back while the write waited
    finally:
        other.execute("ROLLBACK")
        other.close()
        writer.join()
    assert done.is_set() and store.balance(a.id) == 9_000
