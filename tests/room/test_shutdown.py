"""A shutdown with a countdown (`shutdown in 5`): everyone is warned, no new hand starts, the hands
in progress finish and are settled, then the room stops; nothing is voided."""

import pytest

from cardroom.room.api import RoomError
from cardroom.room.room import span
from tests.rooms import table_settings
from tests.room.conftest import actor_client, seat_players


def _warnings(client):
    return [p for p in client.pages if "room closes" in p or "room is closing" in p]


def _table_lines(room, table="T"):
    return [line.text for line in room.tables[table].chat if line.name == "Room"]


def test_span_says_the_time_left_as_people_do():
    assert [span(s) for s in (300, 60, 90, 30, 1, 0.4)] == [
        "5 minutes", "1 minute", "1 minute 30 seconds", "30 seconds", "1 second", "1 second"]


def test_a_shutdown_warns_every_session_and_table_as_it_counts_down(make_room):
    room, clock = make_room(table_settings("T"), table_settings("U"))
    watcher = room.connect("rail")                     # in the lobby: paged all the same
    stops = []
    room.shutdown_in(300, lambda: stops.append(1))
    assert _warnings(watcher) == [("The room closes in 5 minutes: then no new hand starts, "
                                   "and the hands in progress are played out")]
    clock.advance(240)
    assert [w.split(":")[0] for w in _warnings(watcher)] == [
        "The room closes in 5 minutes", "The room closes in 4 minutes", "The room closes in 3 minutes",
        "The room closes in 2 minutes", "The room closes in 1 minute"]
    clock.advance(50)
    assert [w.split(":")[0] for w in _warnings(watcher)][-2:] == [
        "The room closes in 30 seconds", "The room closes in 10 seconds"]
    for name in ("T", "U"):
        assert any(line.startswith("The room closes in 10 seconds") for line in _table_lines(room, name))
    late = room.connect("late")                        # logs in during the countdown: told at once
    assert _warnings(late) == [("The room closes in 10 seconds: then no new hand starts, "
                                "and the hands in progress are played out")]
    clock.advance(10)
    assert stops == [1]                                # no hand in progress: it stops at zero


def test_hands_are_dealt_during_the_countdown_and_none_after_it(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    t = room.tables["T"]
    clock.run_until(lambda: t.hand is not None)
    stops = []
    room.shutdown_in(60, lambda: stops.append(1))
    zero = clock.now() + 60
    first = t.hand
    assert first is not None and not first.over
    actor_client(clients).act("T", "fold")
    actor_client(clients).act("T", "fold")
    assert first.over
    clock.run_until(lambda: t.hand is not first, limit=30)
    assert t.hand is not first                         # the countdown runs: play goes on
    second = t.hand
    clock.advance(zero - clock.now())                  # to the end of the countdown
    assert room.draining and stops == [] and not second.over      # its hand is still played
    assert any("no new hands" in w for w in _warnings(clients[0]))
    while not second.over:
        c = actor_client(clients)
        lg = c.view("T").legal
        c.act("T", "check" if lg.check else "call")
    assert stops == [1]                                # the last hand settled: the room stops
    clock.advance(600)
    assert t.hand is second                            # and deals no other
    assert room.store.get_hand(second_id := t.hand_id).status == "settled", second_id
    assert room.store.void_unfinished_hands() == []    # nothing to void
    assert room.store.total_money() == room.store.expected_money()


def test_the_room_waits_for_every_table_before_it_stops(make_room):
    room, clock = make_room(table_settings("T"), table_settings("U"))
    at_t = seat_players(room, "T", ("alice", "bob"))
    at_u = seat_players(room, "U", ("carol", "dave"))
    clock.run_until(lambda: all(t.hand is not None for t in room.tables.values()))
    stops = []
    room.shutdown_in(5, lambda: stops.append(1))
    clock.advance(5)
    assert room.draining and stops == []
    actor_client(at_t, "T").act("T", "fold")           # T is done; U still plays
    assert stops == []
    actor_client(at_u, "U").act("U", "fold")
    assert stops == [1]
    assert [h.status for h in (room.store.get_hand(t.hand_id) for t in room.tables.values())] == [
        "settled", "settled"]


def test_a_hand_in_progress_at_zero_finishes_by_the_decision_clock(make_room):
    """Nobody acts (everyone disconnected): the clock plays the hand out, then the room stops."""
    room, clock = make_room()
    clients = seat_players(room)
    for c in clients:
        c.close()
    stops = []
    room.shutdown_in(1, lambda: stops.append(1))
    assert clock.run_until(lambda: stops == [1], limit=600)
    assert room.store.get_hand(room.tables["T"].hand_id).status == "settled"


def test_shutdown_cancel_keeps_the_room_open_and_dealing(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    t = room.tables["T"]
    clock.run_until(lambda: t.hand is not None)
    stops = []
    room.shutdown_in(5, lambda: stops.append(1))
    clock.advance(5)
    assert room.draining
    hand = t.hand
    assert room.cancel_shutdown()
    assert clients[0].pages[-1] == "The shutdown is cancelled: the room stays open"
    while not hand.over:
        actor_client(clients).act("T", "fold")
    assert stops == []
    clock.run_until(lambda: t.hand is not hand, limit=30)
    assert t.hand is not hand and not t.hand.over      # a new hand is dealt
    clock.advance(3600)
    assert stops == [] and room.closing_at is None
    assert not room.cancel_shutdown()                  # nothing left to cancel


def test_a_new_countdown_replaces_the_one_running(make_room):
    room, clock = make_room()
    stops = []
    room.shutdown_in(600, lambda: stops.append("first"))
    room.shutdown_in(60, lambda: stops.append("second"))
    clock.advance(60)
    assert stops == ["second"]
    clock.advance(600)
    assert stops == ["second"]


def test_a_new_countdown_while_the_last_hands_are_played_lets_the_tables_deal_again(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    t = room.tables["T"]
    clock.run_until(lambda: t.hand is not None)
    room.shutdown_in(1, lambda: None)
    clock.advance(1)
    assert room.draining
    stops = []
    room.shutdown_in(300, lambda: stops.append(1))
    assert not room.draining
    hand = t.hand
    while not hand.over:
        actor_client(clients).act("T", "fold")
    clock.run_until(lambda: t.hand is not hand, limit=30)
    assert t.hand is not hand and stops == []          # dealt during the new countdown


@pytest.mark.parametrize("seconds", [0, -5])
def test_a_countdown_of_no_time_is_refused(make_room, seconds):
    room, _ = make_room()
    with pytest.raises(RoomError):
        room.shutdown_in(seconds, lambda: None)
    assert room.closing_at is None
