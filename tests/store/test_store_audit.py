"""The ledger check (`cardroom.store.audit`) on each store's real database changed by hand in SQL:
each kind of tampering is named, with the account (or hand) and the amount; honest play passes."""

import json

import pytest

from cardroom.room.ports import ConservationError, HandStart, SeatStack
from cardroom.store.audit import check_store, require_balanced


@pytest.fixture
def played(store):
    """ann and bob (and cat, who only has her starting money) after buy-ins, a credit, a debit, a
    settled hand with rake and a hand still in progress on another table."""
    ann = store.get_or_create("ann", 100_000)
    bob = store.get_or_create("bob", 100_000)
    store.get_or_create("cat", 100_000)
    store.credit(ann.id, 2_500, "refund", "boss")
    store.debit(bob.id, 1_000, "chargeback", "boss")
    for account in (ann, bob):
        store.buy_in(account.id, "t1", 10_000)
        store.buy_in(account.id, "t2", 4_000)
    h1 = store.begin_hand(HandStart("t1", (SeatStack(1, ann.id, 10_000), SeatStack(2, bob.id, 10_000)),
                                    deck="As Kd")).hand_id
    store.settle_hand(h1, {ann.id: 900, bob.id: -1_000}, 100, json.dumps([]))
    h2 = store.begin_hand(HandStart("t2", (SeatStack(1, ann.id, 4_000), SeatStack(2, bob.id, 4_000)),
                                    deck="2c 3d")).hand_id
    store.cash_out(ann.id, "t1", 5_000)
    return h1, h2     # the hands' ids: the store numbers them


def test_honest_play_adds_up(store, played):
    assert check_store(store) == []
    require_balanced(store)
    store.audit()          # the store's own check agrees


def test_a_balance_changed_by_hand_is_named_with_the_amount(store, raw, played):
    raw.execute("UPDATE accounts SET balance_cents = balance_cents + 50000 WHERE name = 'bob'")
    problems = check_store(store)
    assert problems[0] == ("'bob' has a balance of $1,350, the ledger gives $850: "
                           "$500 more than the ledger records")
    assert problems[-1].startswith("the room holds ") and "$500 more" in problems[-1]
    assert len(problems) == 2
    with pytest.raises(ConservationError, match=r"'bob' has a balance of \$1,350"):
        require_balanced(store)


def test_chips_taken_off_a_table_by_hand_are_named(store, raw, played):
    raw.execute("UPDATE table_chips SET chips_cents = chips_cents - 1234 WHERE table_name = 't1'"
                " AND account_id = (SELECT id FROM accounts WHERE name = 'ann')")
    problems = check_store(store)
    assert problems[0] == ("'ann' has $46.66 of chips on 't1', the ledger gives $59: "
                           "$12.34 less than the ledger records")
    assert "$12.34 less" in problems[1] and len(problems) == 2


def test_a_settled_hand_that_does_not_sum_to_zero_is_named(store, raw, played):
    # The hand's record says bob lost $5 less than he did: money from nowhere, on paper.
    raw.execute("UPDATE hand_seats SET end_cents = end_cents + 500 WHERE account_id ="
                " (SELECT id FROM accounts WHERE name = 'bob')"
                " AND hand_seq = (SELECT seq FROM hands WHERE id = ?)", (played[0],))
    assert check_store(store) == [
        f"settled hand '{played[0]}' does not sum to zero with its rake: $5 created"]


def test_rake_and_escrow_changed_by_hand_are_named(store, raw, played):
    raw.execute("UPDATE house SET rake_cents = 0")
    raw.execute("UPDATE hand_seats SET start_cents = 3000 WHERE hand_seq ="
                " (SELECT seq FROM hands WHERE id = ?) AND seat = 1", (played[1],))
    problems = check_store(store)
    assert f"hand '{played[1]}' holds $70 of stacks, the ledger gives $80" in problems
    assert "the house holds $0 of rake, the ledger gives $1: $1 less than the ledger records" in problems


def test_a_name_planted_in_the_file_cannot_write_to_the_terminal(store, raw, played):
    raw.execute("UPDATE accounts SET name = ?, balance_cents = balance_cents + 1 WHERE name = 'bob'",
                ("bob\x1b[2J\u202e",))
    (problem, _) = check_store(store)
    assert problem.startswith("'bob\\x1b[2J\\u202e' has a balance of $850.01")
    assert problem.isprintable()
