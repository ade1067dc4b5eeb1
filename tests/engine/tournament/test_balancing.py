"""Balancing and breaking tables (TDA; DESIGN.md "Tournaments"), on tables set up by hand."""

from __future__ import annotations

import random

from cardroom.engine.tournament import Moved, Plan, TableBroken
from cardroom.engine.tournament.balancing import Entry, Floor, Table


def floor(size: int, layout: dict[int, list[int]], lasts: dict[int, Plan] | None = None, *, stud=False):
    """Tables numbered as in `layout` (table -> occupied seats); entries numbered table*100+seat."""
    f = Floor(size, stud, random.Random(7))
    entries = {}
    for number, seats in layout.items():
        f.tables[number] = Table(number, {s: number * 100 + s for s in seats}, (lasts or {}).get(number))
        for s in seats:
            entries[number * 100 + s] = Entry(number * 100 + s, f"p{number}.{s}", 1000)
            f.entry_of[number * 100 + s] = (number, s)
        f.opened = max(f.opened, number)
    return f, entries


def moves(records):
    return [(r.from_table, r.from_seat, r.to_table, r.to_seat) for r in records if isinstance(r, Moved)]


def test_tda_balancing_moves_the_player_due_the_big_blind():
    # table 1: the last hand's big blind was seat 4, so seat 6 is due it next
    f, entries = floor(9, {1: [1, 2, 4, 6, 7, 9], 2: [2, 5, 8, 9]},
                       {1: Plan(1, 2, 4, (1, 2, 4, 6, 7, 9), 2), 2: Plan(2, 5, 8, (2, 5, 8, 9), 5)})
    records = []
    f.balance(entries, records)
    assert moves(records)[0][:2] == (1, 6)
    assert [len(t.seats) for t in f.tables.values()] == [5, 5]


def test_tda_moved_player_takes_the_seat_where_the_big_blind_reaches_him_first_and_waits_for_it():
    # table 2's last big blind was seat 5: the next is seat 8; seats 6 and 7 are open before it
    f, entries = floor(9, {1: [1, 2, 4, 6, 7, 9], 2: [2, 5, 8, 9]},
                       {1: Plan(1, 2, 4, (1, 2, 4, 6, 7, 9), 2), 2: Plan(9, 2, 5, (2, 5, 8, 9), 2)})
    records = []
    f.balance(entries, records)
    assert moves(records) == [(1, 6, 2, 6)]
    plan = f.tables[2].next_plan(False)
    assert plan.big_blind == 6 and 6 in plan.dealt          # his first hand there is his big blind


def test_tda_balancing_prefers_the_smallest_table_where_the_big_blind_comes_first():
    nine, six = list(range(1, 10)), list(range(1, 7))
    f, entries = floor(9, {1: nine, 2: six, 3: six},
                       {1: Plan(1, 2, 3, tuple(nine), 2), 2: Plan(1, 2, 3, tuple(six), 2),
                        3: Plan(4, 5, 6, tuple(six), 5)})
    records = []
    f.balance(entries, records)
    # table 2's big blind goes to 4, 5 and 6 before an open seat; table 3's last was seat 6: seat 7 is next
    assert moves(records)[0] == (1, 4, 3, 7)


def test_tda_a_table_in_a_hand_gives_nobody_away_until_it_ends():
    f, entries = floor(9, {1: [1, 2, 3, 4, 5, 6, 7], 2: [1, 2, 3, 4, 5]})
    f.tables[1].hand = object()                            # in the middle of a hand
    records = []
    f.balance(entries, records)
    assert records == []
    f.tables[1].hand = None
    f.balance(entries, records)
    assert len(moves(records)) == 1


def test_tda_tables_break_highest_numbered_first_when_the_others_can_take_their_players():
    f, entries = floor(6, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4], 3: [2, 5]})
    records = []
    f.balance(entries, records)
    assert sorted(f.tables) == [1, 2] and records[-1] == TableBroken(3)
    assert [r.reason for r in records if isinstance(r, Moved)] == ["break", "break"]
    assert sorted(len(t.seats) for t in f.tables.values()) == [5, 5]   # one to each smallest table
    broken = [r for r in records if isinstance(r, Moved)]
    assert {r.from_seat for r in broken} == {2, 5} and all(r.chips == 1000 for r in broken)


def test_tda_a_table_waits_to_break_until_its_hand_ends():
    f, entries = floor(6, {1: [1, 2, 3, 4], 2: [1, 2, 3, 4], 3: [2, 5]})
    f.tables[3].hand = object()
    records = []
    f.balance(entries, records)
    assert records == [] and f.breaking() is f.tables[3]
    f.tables[3].hand = None
    f.balance(entries, records)
    assert records[-1] == TableBroken(3)


def test_tda_the_final_table_plays_to_the_end():
    f, entries = floor(9, {1: [1, 5], 2: [3, 4, 7]})
    records = []
    f.balance(entries, records)
    assert list(f.tables) == [1] and len(f.tables[1].seats) == 5
    f.balance(entries, records := [])
    assert records == [] and f.breaking() is None


def test_tda_stud_moves_by_position_to_the_last_seat_that_opened():
    f, entries = floor(8, {1: [1, 2, 3, 4, 5, 6, 7], 2: [1, 2, 3, 5, 6]}, stud=True)
    f.tables[2].vacated = 4
    records = []
    f.balance(entries, records)
    assert moves(records) == [(1, 4, 2, 4)]
    assert f.tables[2].waiting == set() and 4 in f.tables[2].next_plan(True).dealt   # stud: dealt at once


def test_a_late_entry_takes_a_seat_at_a_smallest_table_or_a_new_table():
    f, entries = floor(3, {1: [1, 2, 3], 2: [1, 3]})
    records = []
    late = entries[999] = Entry(999, "late", 1000)
    f.seat_newcomer(late, records)
    assert f.entry_of[999] == (2, 2)
    again = entries[1000] = Entry(1000, "later", 1000)
    f.seat_newcomer(again, records)
    assert f.entry_of[1000][0] == 3 and 3 in f.tables
