"""Tournaments in the store (TournamentStore), on SQLite and PostgreSQL: registration takes the
buy-in into the prize pool and the fee to the house, refunds give both back, prizes and shares leave
the pool for the balance, added money joins it at the start; each change is applied once; a
tournament's hand holds chips, not money; and the ledger check covers all of it, naming what was
tampered with."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from cardroom.room.ports import (
    HandStart, HandStateError, InsufficientFunds, Refused, SeatStack, SettlementError, TournamentChange,
    TournamentHandEnd,
)
from cardroom.store.audit import check_store

START = 100_000


def changes(*specs):
    return [TournamentChange(*s) for s in specs]


@pytest.fixture
def players(store):
    return [store.get_or_create(n, START).id for n in ("ann", "bob", "cat")]


@pytest.fixture
def sng(store):
    return store.create_tournament("Sit & Go", buy_in=1_000, fee=100, added=0, starts_at=None, snapshot="{}")


def test_a_new_tournament_is_registering_and_holds_nothing(store, sng):
    assert (sng.state, sng.pool_cents, sng.fees_cents, sng.snapshot, sng.version) == ("registering", 0, 0, "{}", 0)
    assert store.tournament(sng.id) == sng
    assert [t.id for t in store.tournaments()] == [sng.id]
    assert store.tournaments(["finished"]) == [] and store.tournament(sng.id + 99) is None
    when = datetime(2026, 7, 1, 20, tzinfo=timezone.utc)
    later = store.create_tournament("Hourly", buy_in=0, fee=0, added=5_000, starts_at=when, snapshot="{}")
    assert later.starts_at == when and later.id > sng.id


def test_registration_takes_the_buy_in_to_the_pool_and_the_fee_to_the_house(store, sng, players):
    ann = players[0]
    entry = store.enter_tournament(sng.id, ann, 1)
    assert (entry.entry, entry.account_id, entry.status, entry.place, entry.prize_cents) == (1, ann, "in", None, 0)
    assert store.balance(ann) == START - 1_100
    t = store.tournament(sng.id)
    assert (t.pool_cents, t.fees_cents) == (1_000, 100)
    rows = store.ledger(ann, limit=2)
    assert {(r.kind, r.amount_cents, r.tournament_id) for r in rows} == {
        ("tournament_buy_in", 1_000, sng.id), ("tournament_fee", 100, sng.id)}
    assert store.total_money() == store.expected_money() and check_store(store) == []


def test_a_registration_refused_changes_nothing(store, sng, players):
    store.enter_tournament(sng.id, players[0], 1)
    poor = store.get_or_create("poor", 1_050).id
    before = (store.balance(poor), store.tournament(sng.id), store.tournament_entries(sng.id))
    with pytest.raises(InsufficientFunds):
        store.enter_tournament(sng.id, poor, 2)
    with pytest.raises(Refused, match="entry 1 .* is taken"):
        store.enter_tournament(sng.id, players[1], 1)
    with pytest.raises(Refused):
        store.enter_tournament(sng.id + 99, players[1], 2)
    assert (store.balance(poor), store.tournament(sng.id), store.tournament_entries(sng.id)) == before
    store.record_tournament(sng.id, changes(("cancel",), ("refund", 1)), snapshot="{}", version=1)
    with pytest.raises(Refused, match="cancelled"):
        store.enter_tournament(sng.id, players[1], 2)
    assert check_store(store) == []


def test_a_refund_gives_the_buy_in_and_fee_back_once(store, sng, players):
    ann = players[0]
    store.enter_tournament(sng.id, ann, 1)
    for _ in range(2):      # the second write is a retry: the entry is refunded already
        store.record_tournament(sng.id, changes(("refund", 1)), snapshot='{"n": 1}', version=1)
        assert store.balance(ann) == START
        t = store.tournament(sng.id)
        assert (t.pool_cents, t.fees_cents, t.snapshot, t.version) == (0, 0, '{"n": 1}', 1)
    assert store.tournament_entries(sng.id)[0].status == "refunded"
    assert check_store(store) == []


def test_prizes_leave_the_pool_for_the_balance_once_and_a_place_is_kept(store, sng, players):
    for n, account in enumerate(players, 1):
        store.enter_tournament(sng.id, account, n)
    store.record_tournament(sng.id, changes(("start",)), snapshot="{}", version=1)
    assert store.tournament(sng.id).state == "running"
    third = changes(("prize", 3, 3, 0))
    for _ in range(2):
        store.record_tournament(sng.id, third, snapshot="{}", version=2)
    assert store.tournament(sng.id).pool_cents == 3_000 and check_store(store) == []
    store.record_tournament(sng.id, changes(("prize", 2, 2, 1_000), ("prize", 1, 1, 2_000), ("finish",)),
                            snapshot="{}", version=3)
    store.record_tournament(sng.id, changes(("prize", 1, 1, 2_000)), snapshot="{}", version=4)   # a retry
    assert [store.balance(a) for a in players] == [START + 900, START - 100, START - 1_100]
    entries = store.tournament_entries(sng.id)
    assert [(e.place, e.prize_cents) for e in entries] == [(1, 2_000), (2, 1_000), (3, 0)]
    t = store.tournament(sng.id)
    assert (t.state, t.pool_cents, t.fees_cents) == ("finished", 0, 300) and t.finished_at is not None
    assert store.total_money() == store.expected_money() and check_store(store) == []


def test_the_house_adds_its_money_at_the_start(store, players):
    free = store.create_tournament("Freeroll", buy_in=0, fee=0, added=2_500, starts_at=None, snapshot="{}")
    store.enter_tournament(free.id, players[0], 1)
    store.enter_tournament(free.id, players[1], 2)
    assert store.balance(players[0]) == START and store.ledger(players[0], limit=1)[0].kind == "open"
    expected = store.expected_money()
    for _ in range(2):
        store.record_tournament(free.id, changes(("start",)), snapshot="{}", version=1)
    assert store.tournament(free.id).pool_cents == 2_500 and store.expected_money() == expected + 2_500
    added = [r for r in store.ledger(limit=5) if r.kind == "tournament_added"]
    assert [(r.account_id, r.amount_cents, r.tournament_id) for r in added] == [(None, 2_500, free.id)]
    store.record_tournament(free.id, changes(("prize", 2, 2, 500), ("prize", 1, 1, 2_000), ("finish",)),
                            snapshot="{}", version=2)
    assert store.balance(players[0]) == START + 2_000 and check_store(store) == []


def test_a_tournament_cancelled_while_running_shares_its_pool(store, sng, players):
    for n, account in enumerate(players, 1):
        store.enter_tournament(sng.id, account, n)
    store.record_tournament(sng.id, changes(("start",), ("prize", 3, 3, 0)), snapshot="{}", version=1)
    shares = changes(("cancel",), ("share", 1, None, 1_800), ("share", 2, None, 1_200))
    for _ in range(2):
        store.record_tournament(sng.id, shares, snapshot="{}", version=2)
    assert [store.balance(a) for a in players] == [START + 700, START + 100, START - 1_100]
    t = store.tournament(sng.id)
    assert (t.state, t.pool_cents) == ("cancelled", 0) and check_store(store) == []


def test_snapshots_go_forward_only(store, sng):
    store.record_tournament(sng.id, (), snapshot='{"v": 2}', version=2)
    store.record_tournament(sng.id, (), snapshot='{"v": 1}', version=1)    # a late retry
    assert (store.tournament(sng.id).snapshot, store.tournament(sng.id).version) == ('{"v": 2}', 2)
    with pytest.raises(Refused):
        store.record_tournament(sng.id, (), snapshot="{}", version=0)


def tournament_hand(store, sng, players, chips=(1_500, 1_500), entered=False):
    if not entered:
        for n, account in enumerate(players[:2], 1):
            store.enter_tournament(sng.id, account, n)
        store.record_tournament(sng.id, changes(("start",)), snapshot="{}", version=1)
    seats = tuple(SeatStack(s, a, c) for s, a, c in zip((1, 2), players, chips))
    return store.begin_hand(HandStart("Sit & Go #1 table 1", seats, deck="As Kd", tournament_id=sng.id))


def test_a_tournament_hand_moves_no_money(store, sng, players):
    money = [store.balance(a) for a in players]
    for n, account in enumerate(players[:2], 1):
        store.enter_tournament(sng.id, account, n)
    store.record_tournament(sng.id, changes(("start",)), snapshot="{}", version=1)
    ledger = len(store.ledger(limit=500))
    hand = tournament_hand(store, sng, players, entered=True)
    assert hand.tournament_id == sng.id and hand.status == "in_progress"
    assert len(store.ledger(limit=500)) == ledger + 0 and store.holdings(players[0]) == {}
    assert store.total_money() == store.expected_money() and check_store(store) == []
    with pytest.raises(HandStateError, match="settled with its tournament"):
        store.settle_hand(hand.hand_id, {players[0]: 100, players[1]: -100}, 0, "[]")
    end = TournamentHandEnd(hand.hand_id, {players[0]: 3_000, players[1]: 0}, json.dumps([]), "history")
    store.record_tournament(sng.id, changes(("prize", 2, 2, 0), ("prize", 1, 1, 2_000), ("finish",)),
                            snapshot='{"after": 1}', version=2, hand=end)
    settled = store.get_hand(hand.hand_id)
    assert settled.status == "settled" and [s.end_cents for s in settled.seats] == [3_000, 0]
    assert settled.history == "history" and store.tournament(sng.id).snapshot == '{"after": 1}'
    assert [store.balance(a) for a in players[:2]] == [money[0] + 900, money[1] - 1_100]
    # A retry of the same write: nothing more.
    store.record_tournament(sng.id, changes(("prize", 1, 1, 2_000)), snapshot="{}", version=2, hand=end)
    assert store.balance(players[0]) == money[0] + 900 and check_store(store) == []
    assert [h.hand_id for h in store.hands_for_account(players[0])] == [hand.hand_id]


def test_a_tournament_hand_whose_chips_do_not_add_up_is_refused_with_everything_else(store, sng, players):
    hand = tournament_hand(store, sng, players)
    before = store.tournament(sng.id)
    bad = TournamentHandEnd(hand.hand_id, {players[0]: 3_000, players[1]: 1}, json.dumps([]))
    with pytest.raises(SettlementError, match="started with 3000 chips and ends with 3001"):
        store.record_tournament(sng.id, changes(("prize", 2, 2, 0)), snapshot="{}", version=5, hand=bad)
    assert store.tournament(sng.id) == before and store.get_hand(hand.hand_id).status == "in_progress"
    assert store.tournament_entries(sng.id)[1].place is None


def test_a_tournament_hand_cut_off_is_void_without_money(store, sng, players):
    hand = tournament_hand(store, sng, players)
    money = store.total_money()
    assert store.void_unfinished_hands() == [hand.hand_id]
    assert store.get_hand(hand.hand_id).status == "void"
    assert store.total_money() == money and store.holdings(players[0]) == {} and check_store(store) == []


def test_a_hand_of_a_tournament_that_is_not_running_is_refused(store, sng, players):
    seats = (SeatStack(1, players[0], 1_500), SeatStack(2, players[1], 1_500))
    with pytest.raises(HandStateError, match="not running"):
        store.begin_hand(HandStart("Sit & Go #1 table 1", seats, tournament_id=sng.id))


# ------------------------------------------------------------------------------ the ledger check

@pytest.fixture
def running(store, sng, players):
    """Three entries, one placed third (no prize), the pool 3000 held: honest."""
    for n, account in enumerate(players, 1):
        store.enter_tournament(sng.id, account, n)
    store.record_tournament(sng.id, changes(("start",), ("prize", 3, 3, 0)), snapshot="{}", version=1)
    assert check_store(store) == []
    return sng.id


def test_a_prize_pool_changed_by_hand_is_named(store, raw, running):
    raw.execute("UPDATE tournaments SET pool_cents = pool_cents + 700 WHERE id = ?", (running,))
    problems = check_store(store)
    assert (f"tournament #{running} 'Sit & Go' holds $37 of prize pool, the ledger gives $30: "
            "$7 more than the ledger records") in problems
    assert any(p.startswith("the room holds ") for p in problems)


def test_fees_changed_by_hand_are_named(store, raw, running):
    raw.execute("UPDATE tournaments SET fees_cents = 0 WHERE id = ?", (running,))
    assert (f"tournament #{running} 'Sit & Go' holds $0 of fees, the ledger gives $3: "
            "$3 less than the ledger records") in check_store(store)


def test_an_entry_with_no_buy_in_is_named(store, raw, running, players):
    raw.execute("INSERT INTO tournament_entries (tournament_id, entry, account_id, status, registered_at)"
                " VALUES (?, 4, ?, 'in', 'now')", (running, players[0]))
    assert check_store(store) == [f"tournament #{running} 'Sit & Go' took $30 of buy-ins for 4 entries of $10"]


def test_a_prize_written_on_an_entry_but_never_paid_is_named(store, raw, running):
    raw.execute("UPDATE tournament_entries SET prize_cents = 500 WHERE tournament_id = ? AND entry = 3", (running,))
    assert check_store(store) == [f"tournament #{running} 'Sit & Go' paid $0 of prizes, its entries won $5"]


def test_a_prize_paid_from_nowhere_is_named(store, raw, running):
    """The pool and the winner's balance both changed by hand, as if a prize had been paid with no
    ledger row: both are named."""
    raw.execute("UPDATE tournaments SET pool_cents = pool_cents - 1000 WHERE id = ?", (running,))
    raw.execute("UPDATE accounts SET balance_cents = balance_cents + 1000 WHERE name = 'ann'")
    problems = check_store(store)
    assert any("'ann' has a balance of" in p for p in problems)
    assert any("holds $20 of prize pool, the ledger gives $30" in p for p in problems)


def test_a_finished_tournament_still_holding_money_is_named(store, raw, running):
    raw.execute("UPDATE tournaments SET state = 'finished' WHERE id = ?", (running,))
    assert check_store(store) == [f"tournament #{running} 'Sit & Go' is finished and still holds $30 of prize pool"]


def test_buy_ins_not_matching_the_pool_paid_and_held_are_named(store, raw, running):
    """A prize row whose amount was changed by hand: the winner's balance, the entries' prizes and
    the pool's books all disagree with it."""
    raw.execute("UPDATE tournament_entries SET prize_cents = 700 WHERE tournament_id = ? AND entry = 3", (running,))
    raw.execute("UPDATE tournaments SET pool_cents = 2300 WHERE id = ?", (running,))
    problems = check_store(store)
    assert any("are not the prizes paid $0 and the pool held $23" in p for p in problems)


# ------------------------------------------------------------------------------ migration

def test_an_old_database_keeps_its_ledger_and_gains_tournaments(db, monkeypatch):
    """A database of the cardroom before tournaments (SQLite 7, PostgreSQL 5) with a buy-in:
    its ledger rows keep their numbers and the next row comes after them; the new kinds and the
    tournament column are there; the old CHECKs still hold."""
    import sqlite3

    from cardroom.store import open_store as open_any
    if db.name == "sqlite":
        from cardroom.store.migrations import MIGRATIONS
        conn = sqlite3.connect(db.path, isolation_level=None)
        for step in MIGRATIONS[:7]:
            for statement in step:
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 7")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.close()
    else:
        from cardroom.store import pgschema
        with monkeypatch.context() as m:
            m.setattr(pgschema, "MIGRATIONS", pgschema.MIGRATIONS[:5])
            m.setattr(pgschema, "LATEST_VERSION", 5)
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
    with open_any(db.where) as s:
        assert [(e.seq, e.id, e.kind, e.tournament_id) for e in s.ledger(ann)] == [
            (2, "e2", "buy_in", None), (1, "e1", "open", None)]
        t = s.create_tournament("New", buy_in=100, fee=10, added=0, starts_at=None, snapshot="{}")
        s.enter_tournament(t.id, ann, 1)
        assert [(e.seq, e.kind) for e in s.ledger(ann, limit=2)] == [(4, "tournament_fee"), (3, "tournament_buy_in")]
        assert check_store(s) == [] and s.total_money() == s.expected_money()
    raw = db.raw()
    try:
        with pytest.raises(db.IntegrityError):    # a house row must name no account, a player's must
            raw.execute("INSERT INTO ledger (id, at, kind, account_id, amount_cents) VALUES ('x', 'now', 'rake', ?, 1)",
                        (ann,))
        with pytest.raises(db.IntegrityError):    # a tournament's row names its tournament
            raw.execute("INSERT INTO ledger (id, at, kind, account_id, amount_cents) VALUES"
                        " ('y', 'now', 'tournament_prize', ?, 1)", (ann,))
    finally:
        raw.close()


def test_a_settled_hands_history_is_written_again_with_places_given_later(store, sng, players):
    """A hand-for-hand round's end (or late registration's) places players out in earlier hands:
    those hands' events and history are written again with the round's changes; chips unchanged."""
    hand = tournament_hand(store, sng, players)
    end = TournamentHandEnd(hand.hand_id, {players[0]: 3_000, players[1]: 0}, json.dumps([]), "before")
    store.record_tournament(sng.id, (), snapshot="{}", version=2, hand=end)
    again = TournamentHandEnd(hand.hand_id, {}, json.dumps(["placed"]), "after: p2 finished 2nd")
    store.record_tournament(sng.id, changes(("prize", 2, 2, 0)), snapshot="{}", version=3, amend=[again])
    record = store.get_hand(hand.hand_id)
    assert (record.history, record.events_json) == ("after: p2 finished 2nd", '["placed"]')
    assert [s.end_cents for s in record.seats] == [3_000, 0] and store.tournament_entries(sng.id)[1].place == 2
    for account in (players[0], players[2]):
        store.buy_in(account, "elsewhere", 100)
    other = store.begin_hand(HandStart("elsewhere", (SeatStack(1, players[0], 100), SeatStack(2, players[2], 100))))
    with pytest.raises(HandStateError, match="not a settled hand of tournament"):
        store.record_tournament(sng.id, (), snapshot="{}", version=4,
                                amend=[TournamentHandEnd(other.hand_id, {}, "[]", "x")])
