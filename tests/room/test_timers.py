"""Every timer rule of seeds 000/001 on a fake clock: the 23 s decision, the 10 s countdown,
timeouts, sit-out limits, the wait list's seat hold, reconnecting within a hand."""

from cardroom.engine import events as ev
from cardroom.room.room import RoomSettings
from tests.rooms import build_room, table_settings
from tests.room.conftest import actor_client, seat_players


def _start(room, clock, names=("alice", "bob", "carol"), table="T"):
    clients = seat_players(room, table, names)
    clock.advance(0.01)                        # the first hand is dealt at once
    assert room.tables[table].hand is not None
    return clients


def test_a_player_has_23_seconds_to_act(make_room):
    room, clock = make_room()
    clients = _start(room, clock)
    c = actor_client(clients)
    assert abs(c.view("T").seconds_left - 23) < 0.02
    clock.advance(22.9)
    assert actor_client(clients) is c          # still his decision
    clock.advance(0.2)
    assert actor_client(clients) is not c      # timed out: the table acted for him


def test_countdown_is_shown_for_the_last_10_seconds_to_everyone(make_room):
    room, clock = make_room()
    clients = _start(room, clock)
    clock.advance(12.5)
    assert all(c.view("T").countdown is None for c in clients)
    clock.advance(1.0)                          # 9.5 s left
    assert {c.view("T").countdown for c in clients} == {10}
    assert any("10 seconds" in line.text for line in clients[0].view("T").chat)
    clock.advance(5.0)
    assert {c.view("T").countdown for c in clients} == {5}


def test_the_countdown_ticks_every_second_with_one_tick_armed_at_a_time(make_room):
    """Each of the last ten seconds is told to every screen (a change each), but a decision arms
    only its timeout and the next tick: most are made before the countdown, and ten timers
    armed and cancelled for each was a table host's work for nothing."""
    room, clock = make_room()
    _start(room, clock)
    table = room.tables["T"]
    pending = clock.pending
    assert len(table.decision_clock.timers) == 2       # the timeout and the first tick
    changes = []
    table.observers.append(lambda: changes.append(clock.now()))
    deadline = clock.now() + table.seconds_left()
    clock.advance(table.seconds_left() - 0.05)
    assert [round(deadline - t, 2) for t in changes] == [10.0 - k for k in range(10)]
    assert clock.pending <= pending


def test_timeout_is_a_protected_all_in_while_the_daily_quota_lasts_then_check_or_fold(make_room):
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=1))
    clients = _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    clock.advance(23.01)
    assert table.hand.protected[p]              # first timeout today: protected all-in
    assert any(isinstance(e, ev.ProtectedAllIn) for e in table.hand.events)
    assert "protected" in c.view("T").message
    # play the hand out, then the timed-out player is sat out after the hand
    clock.run_until(lambda: table.hand.over, limit=300)
    assert c.view("T").sitting_out
    c.sit_in("T")
    clock.run_until(lambda: table.hand is not None and not table.hand.over and actor_client(clients) is c,
                    limit=600)
    if actor_client(clients) is c:
        p = table.hand_seats.index(c.view("T").my_seat)
        lg = c.view("T").legal
        clock.advance(23.01)
        assert not table.hand.protected[p]      # quota used up: check if free, else fold
        last = [e for e in table.hand.events if getattr(e, "player", None) == p][-1]
        assert isinstance(last, ev.Checked if lg.check else ev.Folded)


def test_a_timeout_with_nothing_in_the_pot_folds_and_keeps_the_days_protection(make_room):
    """An all-in for nothing could win nothing: three-handed, the button acts first before the flop
    with no chips in, and his timeout folds him without spending his one protection of the day."""
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=1))
    clients = _start(room, clock)
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    assert table.hand.totals[p] == 0 and p == table.hand.button
    clock.advance(23.01)
    assert table.hand.folded[p] and not table.hand.protected[p]
    assert not any(isinstance(e, ev.ProtectedAllIn) for e in table.hand.events)
    assert "protected" not in c.view("T").message
    assert room._use_quota(c.account_id)        # the day's one protection is still there


def test_the_daily_protected_all_in_quota_outlives_a_restart_of_the_room(make_room):
    """The day's protections are counted in the store: a restart does not hand them out again."""
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=1))
    alice = room.connect("alice")
    assert room._use_quota(alice.account_id)                 # today's one protection
    reopened, _, _ = build_room(None, store=room.store, clock=clock, settings=RoomSettings(timeout_allin_quota=1))
    assert not reopened._use_quota(alice.account_id)         # still used up after the restart
    clock.advance(24 * 3600)
    assert reopened._use_quota(alice.account_id)             # a new day, a new quota


def test_sit_out_is_allowed_three_times_then_the_player_is_removed(make_room):
    room, clock = make_room()
    a, b, c = _start(room, clock)
    table = room.tables["T"]
    for _ in range(3):
        a.sit_out("T")
        clock.advance(60)
        a.sit_in("T")
    assert table.seat_of(a.account_id) is not None
    clock.run_until(lambda: table.hand is None or table.hand.over, limit=300)
    a.sit_out("T")                              # the fourth time
    clock.run_until(lambda: table.seat_of(a.account_id) is None, limit=600)
    assert table.seat_of(a.account_id) is None
    assert a.my_money().on_tables.get("T", 0) == 0   # chips back in the account


def test_sitting_out_longer_than_15_minutes_removes_the_player(make_room):
    room, clock = make_room()
    a, b, c = _start(room, clock)
    table = room.tables["T"]
    a.sit_out("T")
    clock.advance(14 * 60)
    assert table.seat_of(a.account_id) is not None
    clock.run_until(lambda: table.seat_of(a.account_id) is None, limit=5 * 60)
    assert table.seat_of(a.account_id) is None
    assert any("removed" in p or "too long" in p for p in a.pages)


def test_sit_out_time_is_10_minutes_at_5_max_tables(make_room):
    room, clock = make_room(table_settings(seats=5))
    a, b, c = _start(room, clock)
    table = room.tables["T"]
    a.sit_out("T")
    clock.advance(9 * 60)
    assert table.seat_of(a.account_id) is not None
    clock.run_until(lambda: table.seat_of(a.account_id) is None, limit=5 * 60)
    assert table.seat_of(a.account_id) is None
    assert table.rules_text().sit_out_minutes == 10


def test_wait_list_is_paged_when_a_seat_opens_and_the_seat_is_held(make_room):
    room, clock = make_room(table_settings(seats=2, seat_hold_seconds=60))
    a, b = _start(room, clock, names=("alice", "bob"))
    w1, w2, other = room.connect("wendy"), room.connect("walt"), room.connect("olive")
    assert w1.join_wait_list("T") == 1
    assert w2.join_wait_list("T") == 2
    table = room.tables["T"]
    a.leave("T")
    clock.run_until(lambda: table.seat_of(a.account_id) is None, limit=600)
    assert any("seat is open" in p and "within 60 seconds" in p for p in w1.pages)   # paged, with the hold
    try:
        other.join("T")                                     # the seat is held for wendy
        raise AssertionError("a held seat was given away")
    except Exception as e:
        assert "held" in str(e) or "full" in str(e)
    clock.advance(61)                                       # wendy does not come: walt is paged
    assert any("seat is open" in p for p in w2.pages)
    seat = w2.join("T")
    assert table.seats[seat].name == "walt"


def test_a_dropped_connection_keeps_the_seat_and_reconnecting_gives_back_the_hand(make_room):
    room, clock = make_room()
    clients = _start(room, clock)
    table = room.tables["T"]
    c = actor_client(clients)
    my_seat = c.view("T").my_seat
    cards = c.view("T").my_cards
    c.close()                                               # the connection drops
    assert table.seats[my_seat].connected is False
    assert table.seat_of(c.account_id) is not None          # the seat is kept
    viewer = next(x for x in clients if x is not c)
    assert [s for s in viewer.view("T").seats if s.number == my_seat][0].connected is False
    back = room.connect(c.name)                             # same account reconnects
    view = back.watch("T")
    assert view.my_seat == my_seat and view.my_cards == cards
    assert view.legal is not None                           # the decision is his again
    back.act("T", "fold")
    assert table.seats[my_seat].connected is True


def test_rule_a_lost_connection_is_played_as_a_timeout_after_a_short_grace(make_room):
    """Seed 000: "if your connection is lost or you fail to respond within 23 seconds, your hand
    will be played as a protected all-in or folded". The table gave a dead seat the whole 23 s,
    on every street (issue 35); a lost connection now has reconnect_seconds (5) to come back."""
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=0))
    clients = _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    clock.advance(3)
    c.close()                                               # 20 s left on his clock
    other = next(x for x in clients if x is not c)
    assert abs(other.view("T").seconds_left - 5) < 0.02     # everyone sees the grace run
    clock.advance(4.9)
    assert table.hand.actor == p                            # still his to come back
    clock.advance(0.2)
    assert table.hand.over or table.hand.actor != p         # played as a timeout: folded
    assert table.seats[table.hand_seats[p]].timed_out


def test_a_seat_lost_earlier_is_played_at_once_when_the_action_reaches_it(make_room):
    """The grace runs from the loss: a seat gone for longer is not waited for again, street after
    street, each time the action comes round to it."""
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=0))
    clients = _start(room, clock, names=("alice", "bob", "carol"))
    table = room.tables["T"]
    first = actor_client(clients)
    order = [table.seats[n].account for n in table.hand_seats]
    nxt = order[(order.index(first.account_id) + 1) % 3]
    gone = next(x for x in clients if x.account_id == nxt)
    gone.close()
    clock.advance(6)                                        # his grace is over
    first.act("T", "call")
    clock.advance(0.01)                                     # no 23 s, no 5 s: at once
    gone_p = table.hand_seats.index(table.seat_of(gone.account_id).number)
    assert table.hand.actor != gone_p and table.hand.folded[gone_p]     # a bet to call: folded


def test_a_player_back_within_the_grace_has_the_rest_of_his_clock(make_room):
    room, clock = make_room()
    clients = _start(room, clock)
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    clock.advance(10)
    c.close()                                               # 13 s were left: now 5
    clock.advance(2)
    back = room.connect(c.name)                             # back within the grace
    view = back.watch("T")
    assert view.legal is not None and abs(view.seconds_left - 11) < 0.02
    clock.advance(10.9)
    assert table.hand.actor == p                            # the full clock, not the grace
    back.act("T", "fold")


def test_a_second_login_of_the_same_account_takes_over_from_the_first(make_room):
    room, clock = make_room()
    clients = _start(room, clock)
    c = actor_client(clients)
    seen = []
    c.on_change(lambda: seen.append(c.closed))
    again = room.connect(c.name)
    assert c.closed and c.taken_over and seen and seen[-1] is True
    assert any("somewhere else" in p for p in c.pages)
    view = again.watch("T")
    assert view.legal is not None                           # the new session has the decision
    again.act("T", "fold")
    assert room.tables["T"].seat_of(again.account_id).connected


def test_hot_seat_clock_starts_when_the_player_has_the_device(make_room):
    """clock_waits_for_ready (the hot-seat game): no countdown while the device is passed, however
    long that takes; the 23 s start when the player to act says ready, and only that player's
    ready starts them."""
    room, clock = make_room(table_settings(clock_waits_for_ready=True))
    clients = _start(room, clock)
    c = actor_client(clients)
    assert c.view("T").seconds_left is None
    clock.advance(60.0)
    assert actor_client(clients) is c and c.view("T").seconds_left is None   # nobody timed out
    for other in clients:
        if other is not c:
            other.ready("T")
    assert c.view("T").seconds_left is None
    c.ready("T")
    assert abs(c.view("T").seconds_left - 23) < 0.02
    clock.advance(23.01)
    assert actor_client(clients) is not c       # timed out: the table acted for him
    nxt = actor_client(clients)
    assert nxt.view("T").seconds_left is None   # the next player's clock waits for them


def test_a_protected_all_in_is_not_asked_again_at_the_draws(make_room):
    """DESIGN: the protected player "is not asked again this hand". At triple draw he was asked at
    every draw, and each draw waited out his 23 s clock again (seen over ssh)."""
    room, clock = make_room(table_settings(game="27-triple"), settings=RoomSettings(timeout_allin_quota=1))
    clients = _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    hand = table.hand
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    start = clock.now()
    clock.advance(23.01)                        # the small blind times out: protected, $1 in
    assert hand.protected[p]
    other = next(x for x in clients if x is not c)
    while not hand.over:
        assert actor_client(clients) in (other, None)   # never the protected player's turn
        if actor_client(clients) is other:
            lg = other.view("T").legal
            other.act("T", "stand pat" if lg.phase == "draw" else "check" if lg.check else "call")
        clock.advance(0.01)
    assert sum(1 for e in hand.events if isinstance(e, ev.Drew) and e.player == p) == 3   # three pats
    assert clock.now() - start < 30             # no draw waited for him


def test_a_player_who_drops_before_buying_in_gives_the_seat_back_after_the_seat_hold(make_room):
    """Dropped with the buy-in dialog open: the seat has no chips and can never be dealt in. It
    stayed taken for good, then for the sit-out limit (15 minutes, issue 34: a $0 "disconnected"
    seat); now it goes after the time the room gives anyone to take a seat (seat_hold_seconds, a
    paged wait-lister's), and the wait list hears of it."""
    room, clock = make_room(table_settings(seats=3))
    _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    assert table.settings.seat_hold_seconds < table.settings.sit_out_limit
    carol = room.connect("carol")
    seat = carol.join("T")                                  # the buy-in dialog opens ...
    walt = room.connect("walt")
    assert walt.join_wait_list("T") == 1
    carol.close()                                           # ... and the connection drops
    clock.advance(table.settings.seat_hold_seconds - 1)
    assert table.seats[seat].name == "carol"
    clock.advance(2)
    assert seat not in table.seats or table.seats[seat].name != "carol"
    assert any("seat is open" in p for p in walt.pages)
    assert table.seat_of(carol.account_id) is None and carol.my_money().balance == 100_000
    assert walt.join("T") == seat


def test_a_player_back_within_the_grace_keeps_his_empty_seat(make_room):
    room, clock = make_room()
    table = room.tables["T"]
    carol = room.connect("carol")
    seat = carol.join("T")
    carol.close()
    clock.advance(table.settings.seat_hold_seconds - 10)
    back = room.connect("carol")                            # reconnects in time: the seat stays hers
    clock.advance(2 * table.settings.sit_out_limit)
    assert table.seat_of(back.account_id).number == seat
    back.close()                                            # drops again: a new grace, in full
    clock.advance(table.settings.seat_hold_seconds - 1)
    assert table.seat_of(back.account_id) is not None
    clock.advance(2)
    assert table.seat_of(back.account_id) is None


def test_a_seat_with_chips_is_not_freed_by_the_empty_seat_grace(make_room):
    room, clock = make_room(table_settings(sit_out_seconds=3600.0))
    table = room.tables["T"]
    carol = room.connect("carol")
    carol.join("T")
    carol.close()
    back = room.connect("carol")
    back.buy_in("T", 10_000)                                # alone at the table: no hand, no sit-out
    back.close()
    clock.advance(7200)
    assert table.seat_of(back.account_id).stack == 10_000


def test_a_player_who_goes_bust_while_disconnected_gives_the_seat_back_after_the_grace(make_room):
    room, clock = make_room(table_settings(min_buy_in=100), seed=1)
    table = room.tables["T"]
    seat_players(room, names=("alice",))
    carol = room.connect("carol")
    carol.join("T")
    carol.set_auto_blind("T", True)                         # Auto Blind starts off (seed 000)
    carol.buy_in("T", 100)                                  # all in from her first blind
    carol.close()
    assert clock.run_until(lambda: table.hand is not None and table.hand.over, limit=600)
    assert table.seat_of(carol.account_id).stack == 0       # (seed 1: she loses it)
    clock.advance(table.settings.sit_out_limit - 1)
    assert table.seat_of(carol.account_id) is not None
    clock.advance(2)
    assert table.seat_of(carol.account_id) is None


def test_a_held_clock_stops_where_it_is_and_runs_on_with_the_time_left(make_room):
    """Issue 34, point 13: while the table's host has lost the bus nobody can act, and the clock
    ran on: the player to act was timed out (a protected all-in, a day's protection used) and
    sat out. Held, it stops; released, the player has the time that was left."""
    room, clock = make_room()
    clients = _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    clock.advance(10)                                       # 13 s left
    table.hold_clock()
    clock.advance(60)                                       # the bus away a minute
    assert table.hand.actor == p and not table.seats[table.hand_seats[p]].timed_out
    assert abs(c.view("T").seconds_left - 13) < 0.02
    assert not table.hand.protected[p]
    table.release_clock()
    assert abs(c.view("T").seconds_left - 13) < 0.02
    clock.advance(12.9)
    assert table.hand.actor == p                            # the 13 s it had, no more
    clock.advance(0.2)
    assert table.hand.over or table.hand.actor != p


def test_a_held_clock_keeps_a_lost_connections_grace_and_deals_no_new_hand(make_room):
    """A seat that lost its connection before the hold keeps the rest of its grace; a hand that
    ends meanwhile is followed by no new one until the clock runs again."""
    room, clock = make_room(settings=RoomSettings(timeout_allin_quota=0))
    clients = _start(room, clock, names=("alice", "bob"))
    table = room.tables["T"]
    c = actor_client(clients)
    p = table.hand_seats.index(c.view("T").my_seat)
    c.close()                                               # 5 s of grace
    clock.advance(2)
    table.hold_clock()
    clock.advance(30)
    assert table.hand.actor == p
    table.release_clock()
    clock.advance(2.9)
    assert table.hand.actor == p                            # 3 s of grace were left
    clock.advance(0.2)
    assert table.hand.over                                  # folded heads-up: the hand is over
    hand_id = table.hand_id
    table.hold_clock()
    back = room.connect(c.name)
    back.sit_in("T")                                        # two ready players: a hand is due
    clock.advance(60)
    assert table.hand_id == hand_id                         # nothing dealt while held
    table.release_clock()
    assert clock.run_until(lambda: table.hand_id != hand_id, limit=10)


def test_a_held_clock_holds_a_blind_prompt_too(make_room):
    room, clock = make_room()
    seat_players(room, names=("alice", "bob"), auto_blind=False)
    table = room.tables["T"]
    clock.advance(0.01)
    assert table.blinds.asking                              # asked to post: 23 s to answer
    clock.advance(20)
    table.hold_clock()
    clock.advance(60)
    assert table.blinds.asking and not any(s.sitting_out for s in table.seats.values())
    table.release_clock()
    clock.advance(2.9)
    assert table.blinds.asking
    clock.advance(0.2)
    assert not table.blinds.asking and all(s.sitting_out for s in table.seats.values())
