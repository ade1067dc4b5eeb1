"""The tournament director: registration, the start, hands ending, places and prizes,
hand-for-hand, late registration and re-entry, cancel, and a snapshot across a crash."""

from __future__ import annotations

import json
import random
from copy import deepcopy

import pytest

from cardroom.engine.tournament import (
    CANCELLED, FINISHED, REGISTERING, RUNNING, Cancelled, Deal, Director, Eliminated, Finished, HandForHand,
    Hold, LateRegistrationClosed, LevelStarted, Level, PayoutBand, Payouts, Placed, Refunded, Registered,
    Schedule, Seated, Shared, Started, TableOpened, TournamentError, Unregistered, restore, snapshot,
)
from cardroom.engine.tournament.spec import SCHEDULED
from tests.engine.tournament.driver import Run, sit_and_go

LEVELS = Schedule(tuple(Level(10, blinds=(10 * i, 20 * i)) for i in range(1, 8)))


def director(players: int, seed: int = 1, **kw) -> Director:
    d = Director(sit_and_go(players, **kw), random.Random(seed))
    for i in range(players):
        d.register(f"p{i}", 0.0)
    return d


def scheduled(**kw) -> Director:
    spec = sit_and_go(0, kind=SCHEDULED, seats=0, start=1000.0, schedule=LEVELS, **kw)
    return Director(spec, random.Random(3))


def deal(d: Director, table: int, now: float = 1.0) -> Deal:
    result = d.deal(table, now)
    assert isinstance(result, Deal), result
    return result


def finish(d: Director, hand: Deal, losers=(), now: float = 2.0, winner=None) -> list:
    """End `hand` with the players in seats `losers` out, their chips to `winner` (a seat; default
    the first seat not out)."""
    stacks = dict(zip(hand.seats, hand.stacks))
    winner = winner if winner is not None else next(s for s in hand.seats if s not in losers)
    for s in losers:
        stacks[winner] += stacks[s]
        stacks[s] = 0
    return d.hand_ended(hand.table, stacks, now)


def of(records, kind):
    return [r for r in records if isinstance(r, kind)]


# ------------------------------------------------------------------------------ registration and start

def test_sit_and_go_starts_when_seats_players_have_registered():
    d = Director(sit_and_go(9), random.Random(1))
    for i in range(8):
        assert d.register(f"p{i}", 0.0) == [Registered(f"p{i}", i + 1, 1000, 100)]
    assert d.state == REGISTERING and d.deal is not None
    with pytest.raises(TournamentError, match="no table 1"):
        d.deal(1, 0.0)
    records = d.register("p8", 5.0)
    assert records[:3] == [Registered("p8", 9, 1000, 100), Started(9, 1), TableOpened(1)]
    seated = of(records, Seated)
    assert sorted(r.seat for r in seated) == list(range(1, 10)) and {r.chips for r in seated} == {1500}
    assert records[-1] == LevelStarted(1, d.spec.schedule.levels[0])
    assert d.state == RUNNING and d.pool == 9000


@pytest.mark.parametrize("players, size, tables", [(45, 9, [9, 9, 9, 9, 9]), (13, 6, [5, 4, 4]), (11, 10, [6, 5])])
def test_the_seat_draw_spreads_players_evenly(players, size, tables):
    d = director(players, table_size=size)
    assert sorted((len(t.seats) for t in d.tables().values()), reverse=True) == tables


def test_the_seat_draw_is_the_injected_random_sources():
    a, b = director(18, seed=5), director(18, seed=5)
    assert a.floor.entry_of == b.floor.entry_of
    assert director(18, seed=6).floor.entry_of != a.floor.entry_of


def test_registration_refusals_say_why_and_change_nothing():
    d = Director(sit_and_go(3), random.Random(1))
    d.register("a", 0)
    for call, why in [(lambda: d.register("a", 0), "already in"), (lambda: d.unregister("zed", 0), "not registered"),
                      (lambda: d.start(0), "two players")]:
        with pytest.raises(TournamentError, match=why):
            call()
        assert d.entrants == 1 and d.state == REGISTERING
    d.register("b", 0)
    d.register("c", 0)
    for call, why in [(lambda: d.register("e", 0), "full"), (lambda: d.unregister("a", 0), "nobody leaves"),
                      (lambda: d.start(0), "running")]:
        with pytest.raises(TournamentError, match=why):
            call()
        assert d.entrants == 3 and d.state == RUNNING


def test_may_register_says_what_register_would_refuse_and_changes_nothing():
    """The room asks first, then takes the money under `next_entry`, then registers."""
    d = Director(sit_and_go(2), random.Random(1))
    assert d.next_entry == 1
    d.may_register("a", 0)
    assert d.entrants == 0 and d.next_entry == 1
    assert d.register("a", 0)[0].entry == 1 and d.next_entry == 2
    with pytest.raises(TournamentError, match="already in"):
        d.may_register("a", 0)
    d.register("b", 0)
    with pytest.raises(TournamentError, match="full"):
        d.may_register("c", 0)
    assert d.entrants == 2 and d.next_entry == 3
    d.number_past(7)
    assert d.next_entry == 8
    d.number_past(2)
    assert d.next_entry == 8


def test_unregister_before_the_start_refunds_the_buy_in_and_fee():
    d = Director(sit_and_go(9), random.Random(1))
    d.register("a", 0)
    d.register("b", 0)
    assert d.unregister("a", 1) == [Unregistered("a", 1100)]
    assert d.entrants == 1 and d.pool == 1000


def test_operator_starts_a_tournament_now():
    d = scheduled()
    for p in "abc":
        d.register(p, 0)
    records = d.start(10.0)
    assert records[0] == Started(3, 1) and d.state == RUNNING and d.elapsed(70.0) == 60.0


def test_rule_scheduled_tournament_starts_at_its_time():
    d = scheduled(min_players=3)
    for p in "abc":
        d.register(p, 0)
    assert d.tick(999.0) == [] and d.state == REGISTERING
    assert of(d.tick(1000.0), Started) == [Started(3, 1)]


def test_rule_scheduled_tournament_without_min_players_is_cancelled_and_refunded():
    d = scheduled(min_players=4)
    for p in "abc":
        d.register(p, 0)
    assert d.tick(1000.0) == [Cancelled("fewer than 4 players registered"), Refunded("a", 1100),
                              Refunded("b", 1100), Refunded("c", 1100)]
    assert d.state == CANCELLED
    with pytest.raises(TournamentError, match="cancelled"):
        d.register("d", 1001.0)


def test_recurring_schedule_starts_every_period():
    spec = sit_and_go(0, kind=SCHEDULED, seats=0, every=3600, schedule=LEVELS)
    assert spec.next_start(0.0) == 0.0 and spec.next_start(1.0) == 3600.0 and spec.next_start(7200.0) == 7200.0
    once = sit_and_go(0, kind=SCHEDULED, seats=0, start=500.0, schedule=LEVELS)
    assert once.next_start(100.0) == 500.0 and once.next_start(501.0) is None
    assert sit_and_go(9).next_start(0.0) is None


# ------------------------------------------------------------------------------ late registration, re-entry

def test_rule_late_registration_for_the_first_levels():
    d = scheduled(late_levels=2)
    for p in "ab":
        d.register(p, 0)
    d.tick(1000.0)
    records = d.register("c", 1000.0 + 1199)              # level 2's last second
    assert of(records, Registered) == [Registered("c", 3, 1000, 100)] and len(of(records, Seated)) == 1
    assert d.pool == 3000 and d.late_registration_open(2199.0)
    assert of(d.tick(2200.0), LateRegistrationClosed) == [LateRegistrationClosed(3, 3000, 1)]
    with pytest.raises(TournamentError, match="closed"):
        d.register("d", 2200.0)


def test_rule_reentry_during_late_registration_where_allowed():
    d = scheduled(late_levels=3, reentries=1)
    for p in "abc":
        d.register(p, 0)
    d.tick(1000.0)
    hand = deal(d, 1, 1001.0)
    busted = hand.entries[hand.seats.index(hand.big_blind)]
    player = d.entries[busted].player
    finish(d, hand, [hand.big_blind], 1002.0)
    with pytest.raises(TournamentError, match="already in"):
        d.register("a" if player != "a" else "b", 1003.0)
    records = d.register(player, 1003.0)
    assert of(records, Registered) == [Registered(player, 4, 1000, 100, reentry=True)]
    assert d.entrants == 4 and d.pool == 4000 and len(d.alive()) == 3
    hand = deal(d, 1, 1004.0)
    seat = next(s for s, e in zip(hand.seats, hand.entries) if e == 4)
    finish(d, hand, [seat], 1005.0)
    with pytest.raises(TournamentError, match="no re-entries left"):
        d.register(player, 1006.0)


def test_rule_a_freezeout_has_no_reentry():
    d = scheduled(late_levels=3)
    for p in "abc":
        d.register(p, 0)
    d.tick(1000.0)
    hand = deal(d, 1, 1001.0)
    finish(d, hand, [hand.seats[0]], 1002.0)
    with pytest.raises(TournamentError, match="freezeout"):
        d.register(d.entries[hand.entries[0]].player, 1003.0)


def test_rule_players_out_in_late_registration_are_placed_when_it_closes():
    d = scheduled(late_levels=1)
    for p in "abcd":
        d.register(p, 0)
    d.tick(1000.0)
    hand = deal(d, 1, 1001.0)
    out = finish(d, hand, [hand.seats[0]], 1002.0)
    assert len(of(out, Eliminated)) == 1 and of(out, Placed) == []      # the entrants are not known yet
    d.register("e", 1100.0)
    records = d.tick(1600.0)
    assert of(records, LateRegistrationClosed) == [LateRegistrationClosed(5, 5000, 1)]
    assert [(r.entry, r.place, r.entrants) for r in of(records, Placed)] == [(hand.entries[0], 5, 5)]


# ------------------------------------------------------------------------------ places and prizes

def test_rule_players_out_on_the_same_hand_place_by_the_chips_they_started_it_with():
    d = director(6, payouts=Payouts((PayoutBand(2, (6_000, 4_000)),)))
    hand = deal(d, 1)
    stacks = dict(zip(hand.seats, hand.stacks))
    a, b, c, w = hand.seats[:4]
    stacks[a], stacks[b], stacks[c], stacks[w] = 500, 1000, 2000, 2500     # a and b give c and w 1500
    d.hand_ended(1, stacks, 2.0)
    hand = deal(d, 1, 3.0)
    records = finish(d, hand, [a, b, c], winner=w)
    entry = dict(zip(hand.seats, hand.entries))
    assert [(r.entry, r.place) for r in of(records, Placed)] == [(entry[a], 6), (entry[b], 5), (entry[c], 4)]


def test_the_last_player_wins_and_the_prizes_are_the_pool():
    d = director(2, payouts=Payouts((PayoutBand(2, (10_000,)),)))
    hand = deal(d, 1)
    records = finish(d, hand, [hand.seats[0]])
    assert of(records, Placed) == [Placed(d.entries[hand.entries[0]].player, hand.entries[0], 2, 2, 0),
                                   Placed(d.entries[hand.entries[1]].player, hand.entries[1], 1, 2, 2000)]
    assert of(records, Finished) == [Finished(d.entries[hand.entries[1]].player, hand.entries[1])]
    assert d.state == FINISHED and d.paid == d.pool == 2000
    assert d.elapsed(10.0**6) == 2.0                        # the clock stopped at the end (t=2)
    assert d.deal(1, 3.0) == Hold(1, "the tournament is finished")


def test_rule_freeroll_pays_the_added_money():
    d = director(2, buy_in=0, fee=0, added=10_000)
    hand = deal(d, 1)
    records = finish(d, hand, [hand.seats[0]])
    assert [r.prize for r in of(records, Placed)] == [0, 10_000] and d.pool == 10_000


def test_standings_list_players_in_by_chips_then_players_out_by_place():
    d = director(3)
    hand = deal(d, 1)
    finish(d, hand, [hand.seats[0]])
    rows = d.standings()
    assert [r.chips for r in rows] == sorted((r.chips for r in rows), reverse=True)
    assert rows[-1].place == 3 and rows[-1].table is None and rows[0].table == 1


# ------------------------------------------------------------------------------ hand-for-hand

THREE_PAID = Payouts((PayoutBand(3, (5_000, 3_000, 2_000)),))


def bubble(first: int = 2) -> tuple[Director, float]:
    """Nine players at tables of three, three paid, played with random results to the bubble:
    four players left, at two tables, hand-for-hand, no hand in progress; and the time then."""
    for seed in range(first, first + 50):
        r = Run(sit_and_go(9, table_size=3, payouts=THREE_PAID), seed, sync=True)
        r.register_all()
        r.play(until=lambda r=r: r.director.hand_for_hand and not r.hands)
        d = r.director
        if d.hand_for_hand and [len(t.seats) for t in d.tables().values()] == [2, 2]:
            return d, r.now
    raise AssertionError("no run reached the bubble at two tables of two")


def test_rule_hand_for_hand_starts_on_the_money_bubble():
    d, _ = bubble()
    assert len(d.alive()) == d.spec.payouts.places_paid(d.entrants) + 1 == 4 and len(d.tables()) == 2


def test_rule_hand_for_hand_no_table_deals_again_until_every_table_has_played():
    d, t = bubble()
    one = deal(d, 1, t)
    assert finish(d, one, now=t) == []
    assert d.deal(1, t) == Hold(1, "hand for hand: waiting for the other tables")
    assert d.round_open
    two = deal(d, 2, t)
    finish(d, two, now=t)
    assert not d.round_open and isinstance(d.deal(1, t), Deal)      # the round is over


def test_rule_players_out_in_one_hand_for_hand_round_are_out_together():
    d, t = bubble()
    prizes = d.prizes()
    one, two = deal(d, 1, t), deal(d, 2, t)
    small = one.seats[one.stacks.index(min(one.stacks))]
    out = finish(d, one, [small], now=t)
    assert len(of(out, Eliminated)) == 1 and of(out, Placed) == []   # his place waits for the round
    big = two.seats[two.stacks.index(max(two.stacks))]
    records = finish(d, two, [big], now=t, winner=next(s for s in two.seats if s != big))
    placed = {r.entry: r for r in of(records, Placed)}
    big_entry, small_entry = two.entries[two.seats.index(big)], one.entries[one.seats.index(small)]
    assert max(two.stacks) > min(one.stacks)
    assert placed[big_entry].place == 3 and placed[small_entry].place == 4     # more chips, higher
    assert placed[big_entry].prize == prizes[2] and placed[small_entry].prize == 0
    assert of(records, HandForHand) == [HandForHand(False)]        # the bubble has burst
    assert len(d.tables()) == 1                                      # and the final table forms


def test_rule_equal_stacks_out_on_the_bubble_share_the_last_prize():
    d, t = bubble()
    for table in (1, 2):                      # a round that leaves each table's first seat with 300
        hand = deal(d, table, t)
        first, second = hand.seats
        d.hand_ended(table, {first: 300, second: sum(hand.stacks) - 300}, t)
    prizes = d.prizes()
    one, two = deal(d, 1, t), deal(d, 2, t)
    finish(d, one, [one.seats[0]], t)
    records = finish(d, two, [two.seats[0]], t)
    placed = of(records, Placed)
    assert sorted(r.place for r in placed) == [3, 4] and {r.shared for r in placed} == {(3, 4)}
    by_place = sorted(placed, key=lambda r: r.place)
    assert [r.prize for r in by_place] == [prizes[2] - prizes[2] // 2, prizes[2] // 2]   # odd chip: 3rd


# ------------------------------------------------------------------------------ cancel

def test_rule_cancel_before_the_start_refunds_every_buy_in_and_fee():
    d = Director(sit_and_go(9), random.Random(1))
    for p in "ab":
        d.register(p, 0)
    assert d.cancel(1.0) == [Cancelled("cancelled by the card room"), Refunded("a", 1100), Refunded("b", 1100)]
    with pytest.raises(TournamentError, match="already cancelled"):
        d.cancel(2.0)


def test_rule_cancel_while_running_keeps_decided_prizes_and_shares_the_rest_by_chips():
    d = director(4, payouts=Payouts((PayoutBand(3, (5_000, 3_000, 2_000)),)))
    hand = deal(d, 1)
    finish(d, hand, [hand.seats[0]])                         # 4th: no prize
    hand = deal(d, 1, 3.0)
    placed = of(finish(d, hand, [hand.seats[0]], 4.0), Placed)  # 3rd: 20% of 4000
    assert [r.prize for r in placed] == [800]
    playing = deal(d, 1, 5.0)                                  # a hand in progress is void
    records = d.cancel(6.0, "power cut")
    shares = of(records, Shared)
    assert records[0] == Cancelled("power cut") and len(shares) == 2
    assert sum(r.amount for r in shares) == 3200 and sum(r.chips for r in shares) == 6000
    for r in shares:
        assert r.amount == 3200 * r.chips // 6000 or r.amount == 3200 * r.chips // 6000 + 1
    assert d.paid == d.pool and d.state == CANCELLED
    with pytest.raises(TournamentError):
        d.hand_ended(1, dict(zip(playing.seats, playing.stacks)), 7.0)


# ------------------------------------------------------------------------------ bad reports and void hands

def test_hand_ended_refuses_results_that_cannot_be_and_changes_nothing():
    d = director(3)
    with pytest.raises(TournamentError, match="no hand in progress"):
        d.hand_ended(1, {}, 1.0)
    with pytest.raises(TournamentError, match="no table 7"):
        d.deal(7, 1.0)
    hand = deal(d, 1)
    good = dict(zip(hand.seats, hand.stacks))
    seat = hand.seats[0]
    for bad, why in [({**good, 99: 0}, "dealt seats"), ({**good, seat: good[seat] + 1}, "ended it with"),
                     ({**good, seat: -1, hand.seats[1]: good[hand.seats[1]] + 1}, "below zero"),
                     ({**good, seat: 1500.0}, "whole numbers"), ({**good, seat: True}, "whole numbers")]:
        with pytest.raises(TournamentError, match=why):
            d.hand_ended(1, bad, 2.0)
    with pytest.raises(TournamentError, match="in progress"):
        d.deal(1, 2.0)
    assert d.hand_ended(1, good, 3.0) == [] and sum(e.chips for e in d.alive()) == 4500


def test_a_void_hand_is_as_if_never_dealt():
    d = director(4)
    first = deal(d, 1)
    d.void(1)
    again = deal(d, 1)
    assert (again.button, again.big_blind, again.seats, again.stacks) == (
        first.button, first.big_blind, first.seats, first.stacks)


def test_a_dead_small_blind_posts_only_the_big_blind():
    d = director(4)
    hand = deal(d, 1)
    finish(d, hand, [hand.big_blind], winner=hand.button)    # the big blind is out: next hand's small blind is dead
    hand = deal(d, 1, 3.0)
    assert hand.small_blind is None and hand.structure.blinds == (20,)


# ------------------------------------------------------------------------------ determinism and crashes

def test_the_same_random_source_runs_the_same_tournament():
    a, b = Run(sit_and_go(30), 11), Run(sit_and_go(30), 11)
    for r in (a, b):
        r.register_all()
        r.play()
    assert a.records == b.records


def test_a_snapshot_restores_the_tournament_as_it_was():
    """A snapshot taken mid-tournament (a hand in progress at some tables), stored as JSON and
    restored, goes on exactly as the original would with the same random source, the hands in
    progress void."""
    spec = sit_and_go(40)
    original = Run(spec, 4)
    original.register_all()
    original.play(until=lambda: original.director.hands >= 60 and original.hands)
    assert original.hands and original.director.state == RUNNING
    for table in list(original.hands):          # the crash voids the hands in progress
        original.void(table)
    data = json.loads(json.dumps(snapshot(original.director, original.now)))
    before = len(original.records)
    state = original.director.floor.rng.getstate()
    rng = random.Random()
    rng.setstate(state)
    copy = Run(spec, 4)
    copy.__dict__.update(deepcopy({k: v for k, v in original.__dict__.items() if k != "director"}))
    copy.director = restore(spec, data, rng, original.now)
    assert copy.director.standings() == original.director.standings()
    assert copy.director.elapsed(original.now) == original.director.elapsed(original.now)
    for r in (original, copy):
        r.play()
        r.check_end()
    assert len(original.records) > before + 20 and copy.records[before:] == original.records[before:]


def test_restore_voids_the_hands_in_progress():
    d = director(18)
    one = deal(d, 1, 1.0)
    finish(d, deal(d, 2, 1.0), [], 2.0)
    d2 = restore(d.spec, json.loads(json.dumps(snapshot(d, 30.0))), random.Random(2), 5000.0)
    assert d2.elapsed(5000.0) == 30.0                      # the time since the snapshot does not count
    again = deal(d2, 1, 5000.0)                            # table 1's hand was void: dealt again as it was
    assert (again.seats, again.stacks, again.button, again.big_blind) == (one.seats, one.stacks, one.button,
                                                                         one.big_blind)
    assert sum(e.chips for e in d2.alive()) == 18 * 1500 and d2.standings() == d.standings()


def test_restore_refuses_another_tournaments_snapshot():
    d = director(3)
    data = snapshot(d, 0.0)
    with pytest.raises(ValueError, match="not a snapshot"):
        restore(sit_and_go(3, name="Other"), data, random.Random(1), 0.0)
