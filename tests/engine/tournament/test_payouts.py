"""Prize pools, payouts by number of entrants, places of players out together, and sharing."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardroom.engine.tournament import PayoutBand, PayoutError, Payouts
from cardroom.engine.tournament.payouts import pool, share_by_chips, split
from cardroom.engine.tournament.places import Award, Out, award

TABLE = Payouts((PayoutBand(2, (10_000,)), PayoutBand(6, (6_500, 3_500)), PayoutBand(10, (5_000, 3_000, 2_000))))


def test_rule_payouts_by_number_of_entrants():
    assert TABLE.places_paid(2) == 1 and TABLE.places_paid(5) == 1
    assert TABLE.places_paid(6) == 2 and TABLE.places_paid(9) == 2
    assert TABLE.places_paid(10) == 3 and TABLE.places_paid(1000) == 3
    assert TABLE.prizes(10_000, 7) == (6_500, 3_500)


def test_rule_prize_pool_is_every_buy_in_and_the_added_money():
    assert pool(buy_in=1_000, entries=12, added=0) == 12_000
    assert pool(buy_in=0, entries=50, added=10_000) == 10_000        # a freeroll: the house's money


def test_rule_prizes_sum_exactly_to_the_pool_the_odd_cents_to_the_first_places():
    assert TABLE.prizes(1_001, 10) == (501, 300, 200)
    three = Payouts((PayoutBand(3, (3_334, 3_333, 3_333)),))
    assert three.prizes(100, 3) == (34, 33, 33)
    assert three.prizes(2, 3) == (1, 1, 0)


@given(st.integers(0, 10**11), st.lists(st.integers(1, 5_000), min_size=1, max_size=30), st.integers(2, 5000))
def test_prizes_always_sum_to_the_pool_and_never_rise(amount, weights, entrants):
    weights = sorted(weights, reverse=True)
    shares = [w * 10_000 // sum(weights) for w in weights]
    shares[0] += 10_000 - sum(shares)
    shares = sorted(shares, reverse=True)
    if shares[-1] == 0:
        return
    table = Payouts((PayoutBand(max(2, len(shares)), tuple(shares)),))
    prizes = table.prizes(amount, entrants)
    assert sum(prizes) == amount
    assert list(prizes) == sorted(prizes, reverse=True)


@pytest.mark.parametrize("make, why", [
    (lambda: PayoutBand(1, (10_000,)), "two entrants"),
    (lambda: PayoutBand(5, (6_000, 3_000)), "90%"),
    (lambda: PayoutBand(5, (3_000, 7_000)), "never wins more"),
    (lambda: PayoutBand(2, (4_000, 3_000, 3_000)), "3 places paid of 2"),
    (lambda: PayoutBand(5, (10_000, 0)), "above zero"),
    (lambda: Payouts(()), "needs a band"),
    (lambda: Payouts((PayoutBand(6, (10_000,)), PayoutBand(2, (10_000,)))), "go up"),
])
def test_payout_tables_that_cannot_be_paid_are_refused(make, why):
    with pytest.raises(PayoutError, match=why):
        make()


def test_rule_players_out_on_the_same_hand_place_by_the_chips_they_started_it_with():
    prizes = (500, 300, 200)
    assert award([Out(7, 100), Out(3, 900), Out(5, 400)], worst=4, prizes=prizes) == [
        Award(3, 2, 300), Award(5, 3, 200), Award(7, 4, 0)]


def test_rule_equal_chips_share_the_prizes_of_their_places_odd_chip_to_the_earlier_place():
    prizes = (500, 301, 200)
    # 2nd and 3rd shared: 501 -> 251 to the earlier place (entry 4, the earlier entry), 250 to the later
    assert award([Out(9, 250), Out(4, 250), Out(1, 50)], worst=4, prizes=prizes) == [
        Award(4, 2, 251, (2, 3)), Award(9, 3, 250, (2, 3)), Award(1, 4, 0)]
    # on the bubble: the last paid place shared with the first unpaid one
    assert award([Out(2, 80), Out(6, 80)], worst=4, prizes=prizes) == [
        Award(2, 3, 100, (3, 4)), Award(6, 4, 100, (3, 4))]


def test_split_and_share_by_chips_add_up():
    assert split(10, 3) == [4, 3, 3]
    assert share_by_chips(100, [1, 1, 1]) == [34, 33, 33]
    assert share_by_chips(1_000, [3000, 1000, 0]) == [750, 250, 0]
    assert share_by_chips(5, []) == []


@given(st.integers(0, 10**9), st.lists(st.integers(0, 10**7), min_size=1, max_size=200))
def test_rule_cancel_shares_in_proportion_to_chips_summing_exactly(amount, chips):
    shares = share_by_chips(amount, chips)
    assert sum(shares) == amount
    total = sum(chips)
    if total:
        for s, c in zip(shares, chips):
            assert abs(s - amount * c / total) < 1 + 1e-9      # within a cent of the exact share
