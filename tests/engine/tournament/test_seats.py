"""A tournament table's button, blinds and newcomers (seats.py), checked against the room's own
seating (room/seating.py), which deals the cash tables."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from cardroom.engine.tournament import Plan, next_plan
from cardroom.engine.tournament.seats import hands_to_big_blind, seat_for_move, stud_mover
from cardroom.room.seating import SeatFacts, plan_hand


def play(seats, last=None, new=(), waiting=()):
    return next_plan(seats, last, new, waiting)


def test_first_hand_button_is_the_first_seat():
    assert play([2, 5, 7, 9]) == Plan(2, 5, 7, (2, 5, 7, 9), 5)


def test_the_button_and_blinds_move_one_player_a_hand():
    p = play([2, 5, 7, 9])
    p = play([2, 5, 7, 9], p)
    assert (p.button, p.small_blind, p.big_blind) == (5, 7, 9)


def test_rule_dead_button_nobody_skips_the_big_blind_when_a_player_goes():
    last = Plan(2, 5, 7, (2, 5, 7, 9), 5)
    p = play([2, 5, 9], last)                 # the big blind (seat 7) is gone: the small blind is dead
    assert (p.button, p.small_blind, p.big_blind, p.small_blind_seat) == (5, None, 9, 7)
    p = play([2, 7, 9], last)                 # the small blind (seat 5) is gone: the button is dead
    assert (p.button, p.small_blind, p.big_blind) == (2, 7, 9)


def test_rule_heads_up_the_button_posts_the_small_blind():
    p = play([3, 8])
    assert (p.button, p.small_blind, p.big_blind) == (3, 3, 8)
    p = play([3, 8], p)
    assert (p.button, p.small_blind, p.big_blind) == (8, 8, 3)


def test_rule_going_heads_up_nobody_posts_the_big_blind_twice_in_a_row():
    last = Plan(1, 4, 6, (1, 4, 6), 4)
    for gone in (1, 4):
        seats = [s for s in (1, 4, 6) if s != gone]
        p = play(seats, last)
        assert p.big_blind != 6 and p.small_blind == p.button == 6


def test_rule_a_newcomer_between_the_button_and_the_small_blind_sits_out_one_hand():
    last = Plan(1, 3, 5, (1, 3, 5, 7), 3)         # next: button 3, small blind 5, big blind 7
    p = play([1, 3, 4, 5, 7], last, new={4})
    assert p.dealt == (1, 3, 5, 7) and (p.button, p.small_blind, p.big_blind) == (3, 5, 7)
    p = play([1, 3, 4, 5, 7], p, new={4})         # the button has passed him: dealt in
    assert 4 in p.dealt and (p.button, p.small_blind, p.big_blind) == (5, 7, 1)
    # anywhere else he is dealt in at once, his seat taking its turn at the blinds
    p = play([1, 2, 3, 5, 7], last, new={2})
    assert 2 in p.dealt and (p.button, p.small_blind, p.big_blind) == (3, 5, 7)


def test_rule_a_player_moved_to_balance_waits_for_his_big_blind():
    last = Plan(1, 3, 5, (1, 3, 5, 7), 3)         # next: big blind 7, then 1
    p = play([1, 2, 3, 5, 7], last, waiting={2})
    assert 2 not in p.dealt and p.big_blind == 7
    p = play([1, 2, 3, 5, 7], p, waiting={2})
    assert 2 not in p.dealt and p.big_blind == 1
    p = play([1, 2, 3, 5, 7], p, waiting={2})
    assert 2 in p.dealt and p.big_blind == 2     # his first hand here is his big blind
    assert hands_to_big_blind([1, 2, 3, 5, 7], last, (), {2}, 2) == 2
    assert hands_to_big_blind([1, 3, 5, 6, 7], last, (), {6}, 6) == 0


def test_rule_moved_player_takes_the_seat_where_the_big_blind_reaches_him_first():
    last = Plan(1, 3, 5, (1, 3, 5, 7), 3)         # the last big blind was seat 5
    assert seat_for_move(9, [1, 3, 5, 7], last) == (6, 0)       # the next big blind's seat
    assert seat_for_move(9, [1, 3, 5, 6, 7], last) == (8, 2)    # 6 and 7 post it first
    assert seat_for_move(9, [1, 3, 4, 5, 6, 7, 8, 9], last) == (2, 5)   # 6, 7, 8, 9, 1 first
    assert seat_for_move(4, [1, 2, 3, 4], last) is None


def test_stud_moves_by_position():
    assert seat_for_move(8, [1, 2, 3], None, stud=True, vacated=6) == (6, 0)   # the last seat to open
    assert seat_for_move(8, [1, 2, 3], None, stud=True, vacated=2) == (4, 0)   # taken again: the first open
    assert stud_mover([1, 4, 6], 4, 8) == 4 and stud_mover([1, 4, 6], 5, 8) == 6 and stud_mover([1, 4], 7, 8) == 1


def test_stud_deals_everyone_and_has_no_button():
    assert next_plan([4, 1, 6], None, stud=True) == Plan(None, None, None, (1, 4, 6), None)
    assert next_plan([4], None, stud=True) is None


# --------------------------------------------------------------------- the room's seating, side by side

events = st.lists(st.tuples(st.sampled_from(["hand", "hand", "hand", "out", "in"]), st.integers(0, 1000)),
                  max_size=60)


@settings(max_examples=300, deadline=None)
@given(st.integers(2, 10), st.integers(0, 2**32), events)
def test_seating_matches_the_rooms_plan_hand(size, start, script):
    """With no newcomers between the button and the small blind, a tournament table moves the
    button and blinds as room/seating.py's plan_hand does for a two-blind table where every player
    is in, and a player moved in waits for the big blind as the room's newcomer who does not post."""
    seats = {s for s in range(1, size + 1) if start >> s & 1} or {1, 2}
    if len(seats) < 2:
        seats.add(1 if 1 not in seats else 2)
    waiting: set[int] = set()
    mine = room = None
    for what, n in script:
        if what == "out" and len(seats) > 2:
            gone = sorted(seats)[n % len(seats)]
            seats.discard(gone)
            waiting.discard(gone)
        elif what == "in" and len(seats) < size:
            seat = [s for s in range(1, size + 1) if s not in seats][n % (size - len(seats))]
            seats.add(seat)
            if mine is not None:
                waiting.add(seat)
        else:
            facts = [SeatFacts(s, ready=True, owes="new" if s in waiting else "") for s in sorted(seats)]
            if len(seats) - len(waiting) < 2:
                return            # the room starts its game again; a tournament table deals on (seats.py)
            room = plan_hand(facts, room, (1, 2))
            mine = next_plan(seats, mine, (), waiting)
            assert (mine.button, mine.dealt, mine.small_blind, mine.big_blind, mine.small_blind_seat) == (
                room.button, room.dealt, room.small_blind, room.big_blind, room.blind_seats[0])
            assert not room.live_posts and not room.dead_posts and not room.missed
            waiting -= set(mine.dealt)
