"""Table rules of seeds 000 and 001, each a test named after the rule."""

import random
import re

import pytest

from cardroom.engine import events as ev
from cardroom.room.api import BadBuyIn, ChatRefused, NotAllowedNow, RoomError, SeatTaken
from cardroom.room.history import export_pokerstars
from cardroom.room.seating import SeatFacts, plan_hand
from tests.rooms import table_settings
from tests.room.conftest import actor_client, seat_players

BLINDS = (100, 200)   # the $2/$4 table's: seed 000's formula


def _play_hand_out(room, clock, clients, table="T", kind="check/call"):
    """Everyone checks or calls until the current hand is over."""
    t = room.tables[table]
    hand = t.hand
    for _ in range(200):
        if hand.over:
            return
        c = actor_client(clients, table)
        if c is None:
            clock.advance(0.5)
            continue
        lg = c.view(table).legal
        if lg.phase == "draw":
            c.act(table, "stand pat")
        else:
            c.act(table, "check" if lg.check else "call")
    raise AssertionError("hand did not finish")


# ------------------------------------------------------------------ seats and buy-ins
def test_join_game_seats_a_new_player_in_the_first_free_seat_clockwise_from_seat_2(make_room):
    room, clock = make_room(table_settings(seats=6))
    a, b = room.connect("alice"), room.connect("bob")
    assert a.join("T") == 2
    assert b.join("T") == 3
    c = room.connect("carol")
    assert c.join("T", seat=1) == 1                 # a chosen free seat
    d = room.connect("dave")
    with pytest.raises(SeatTaken):
        d.join("T", seat=2)


def test_minimum_buy_in_is_10_times_the_small_bet(make_room):
    room, clock = make_room(table_settings(small=200, big=400))
    a = room.connect("alice")
    a.join("T")
    with pytest.raises(BadBuyIn, match=r"minimum buy-in is \$20"):
        a.buy_in("T", 1_999)
    a.buy_in("T", 2_000)


def test_pot_and_no_limit_maximum_buy_in_is_100_times_the_big_blind(make_room):
    room, clock = make_room(table_settings(kind="no", small=50, big=100))   # $.25/$.50 NL
    a = room.connect("alice")
    a.join("T")
    lo, hi, default = a.view("T").buy_in
    assert (lo, hi) == (500, 5_000)                 # seed 001: $.25/$.50 max buy-in $50
    assert default == 5_000                         # the whole balance, capped at the maximum
    with pytest.raises(BadBuyIn, match=r"\$50"):
        a.buy_in("T", 5_001)


def test_buy_in_defaults_to_the_whole_account_balance_in_limit_games(make_room):
    room, clock = make_room()
    a = room.connect("alice")
    a.join("T")
    assert a.view("T").buy_in[2] == a.my_money().balance


def test_a_buy_in_above_the_balance_is_refused_and_changes_nothing(make_room):
    room, clock = make_room()
    a = room.connect("alice")
    a.join("T")
    before = a.my_money()
    with pytest.raises(BadBuyIn):
        a.buy_in("T", before.balance + 1)
    assert a.my_money() == before


def test_change_table_stake_between_hands_waits_for_the_hand_in_progress(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    clock.advance(0.01)
    a = clients[0]
    a.add_chips("T", 1_000)
    assert a.view("T").pending_chips == 1_000
    _play_hand_out(room, clock, clients)
    seat = room.tables["T"].seat_of(a.account_id)
    assert seat.pending_chips == 0
    assert room.store.total_money() == room.store.expected_money()


def test_leave_folds_the_hand_and_returns_the_stack_to_the_account(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    clock.advance(0.01)
    t = room.tables["T"]
    c = actor_client(clients)
    balance = c.my_money().balance
    c.leave("T")
    assert any(isinstance(e, ev.Folded) for e in t.hand.events)
    others = [x for x in clients if x is not c]
    _play_hand_out(room, clock, others)
    assert t.seat_of(c.account_id) is None
    assert c.my_money().balance > balance and c.my_money().on_tables.get("T", 0) == 0


def test_a_seat_being_left_says_so_in_its_view_and_is_not_one_of_my_tables(make_room):
    """A remote client knows its tables only from its views: the view says the seat is going."""
    room, clock = make_room()
    clients = seat_players(room)
    clock.advance(0.01)
    c = next(x for x in clients if room.tables["T"].in_hand(room.tables["T"].seat_of(x.account_id))
             and x.view("T").legal is None)
    assert not c.view("T").leaving and c.my_tables() == ["T"]
    c.leave("T")
    assert c.view("T").leaving and c.view("T").my_seat is not None and c.my_tables() == []


def test_railbirds_watch_without_a_seat_and_are_listed(make_room):
    room, clock = make_room()
    seat_players(room)
    clock.advance(0.01)
    rail = room.connect("railbird")
    view = rail.watch("T")
    assert view.my_seat is None and view.my_cards == ()
    assert all(c is None or up for s in view.seats for c, up in zip(s.cards, s.up))
    assert room.lobby()[0].railbirds == 1
    assert rail.view("T").railbirds == ("railbird",)


def test_the_button_moves_one_player_left_each_hand(make_room):
    room, clock = make_room()
    clients = seat_players(room, names=("a", "b", "c", "d"))
    clock.advance(0.01)
    t = room.tables["T"]
    buttons = []
    for _ in range(5):
        buttons.append(t.plan.button)
        _play_hand_out(room, clock, clients)
        clock.advance(3.1)
    assert buttons == [2, 3, 4, 5, 2]


# ------------------------------------------------------------------ blinds
def test_new_player_posts_the_big_blind_or_waits_for_it(make_room):
    room, clock = make_room()
    clients = seat_players(room, names=("a", "b", "c"))
    clock.advance(0.01)
    _play_hand_out(room, clock, clients)
    late = room.connect("late")
    late.join("T")                                    # seat 5
    late.set_auto_blind("T", True)
    late.buy_in("T", 10_000)
    late.post_or_wait("T", True)
    clock.advance(3.1)
    t = room.tables["T"]
    posts = [e for e in t.hand.events if isinstance(e, ev.Posted)]
    me = t.hand_seats.index(5)
    if 5 in t.hand_seats and t.plan.big_blind != 5:
        assert (me, "live", 200) in [(e.player, e.kind, e.amount) for e in posts]


def test_no_posting_between_the_button_and_the_big_blind():
    seats = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True, owes="new", wants_post=True),
             SeatFacts(4, True), SeatFacts(5, True)]
    prev = plan_hand([s for s in seats if s.number != 3], None, BLINDS)      # button 1, blinds 2 and 4
    # The button moves to seat 2; seat 3 would be in the small blind, between the button and
    # the big blind: he may not post in and waits; seats 4 and 5 post the blinds.
    plan = plan_hand(seats, prev, BLINDS)
    assert plan.button == 2 and plan.small_blind == 4 and plan.big_blind == 5
    assert 3 not in plan.dealt


def test_a_new_player_kept_out_between_the_button_and_the_big_blind_is_told_why(make_room):
    """Seen over ssh: a newcomer between the next button and big blind pressed "post now", was not
    dealt in, and his screen still said "you will post" with no word of why. The table now tells
    him the rule. (Seen heads-up then; under the dead button a newcomer there is the next big
    blind, so the seats here leave a gap the blinds pass over.)"""
    room, clock = make_room()
    clients = []
    for name, number in (("a", 2), ("b", 3), ("c", 5)):
        c = room.connect(name)
        c.join("T", number)
        c.set_auto_blind("T", True)
        c.buy_in("T", 10_000)
        clients.append(c)
    clock.advance(0.01)                                   # button 2, blinds 3 and 5
    late = room.connect("late")
    late.join("T", 4)
    late.set_auto_blind("T", True)
    late.buy_in("T", 10_000)
    late.post_or_wait("T", True)
    _play_hand_out(room, clock, clients)
    clock.advance(3.1)
    t = room.tables["T"]
    assert (t.plan.button, t.plan.small_blind, t.plan.big_blind) == (3, 5, 2)
    assert 4 not in t.hand_seats                          # between the button and the small blind
    assert "between the button and the big blind" in late.view("T").message
    assert "between the button" not in clients[0].view("T").message
    _play_hand_out(room, clock, clients)
    clock.advance(3.1)
    assert 4 in t.hand_seats                              # the button has passed him: he posts in
    assert late.view("T").message == ""


def test_a_new_player_in_the_big_blind_position_enters_by_posting_the_big_blind():
    seats = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True),
             SeatFacts(4, True, owes="new", wants_post=True), SeatFacts(5, True)]
    prev = plan_hand([s for s in seats if s.number != 4], None, BLINDS)
    plan = plan_hand(seats, prev, BLINDS)
    assert plan.big_blind == 4 and 4 in plan.dealt and 4 not in plan.live_posts


def test_a_new_player_waiting_for_the_big_blind_plays_when_it_reaches_him():
    seats = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True),
             SeatFacts(4, True, owes="new", wants_post=False)]
    prev = plan_hand([s for s in seats if s.number != 4], None, BLINDS)      # button 1, blinds 2, 3
    plan = plan_hand(seats, prev, BLINDS)                                     # button 2, sb 3, bb 4
    assert plan.big_blind == 4 and 4 in plan.dealt and not plan.live_posts


def test_a_game_starting_again_deals_newcomers_in_without_a_post():
    """Seen over ssh: two players were waiting for the big blind when one of the two playing sat
    out. With one established player left the game starts again, every ready player is dealt in
    and the blinds go round; a newcomer on the button was still charged a live big blind."""
    seats = [SeatFacts(2, True), SeatFacts(3, False, owes=""),
             SeatFacts(4, True, owes="new", wants_post=True), SeatFacts(5, True, owes="new", wants_post=True)]
    prev = plan_hand([SeatFacts(2, True), SeatFacts(3, True)], None, BLINDS)
    plan = plan_hand(seats, prev, BLINDS)
    assert plan.dealt == (2, 4, 5)
    assert not plan.live_posts and not plan.dead_posts
    assert {plan.button, plan.small_blind, plan.big_blind} == {2, 4, 5}


def test_missed_blinds_are_recorded_and_posted_as_big_blind_live_plus_small_blind_dead():
    seats = [SeatFacts(n, True) for n in (1, 2, 3, 4)]
    p1 = plan_hand(seats, None, BLINDS)                         # button 1, sb 2, bb 3
    away = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True), SeatFacts(4, False)]
    p2 = plan_hand(away, p1, BLINDS)                            # button 2, sb 3, bb would be 4: missed
    assert 1 in p2.missed[4]                          # the big blind (the second of two)
    back = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True),
            SeatFacts(4, True, owes="missed", missed=frozenset({0}), wants_post=True)]
    p3 = plan_hand(back, p2, BLINDS)                            # button 3, sb 4? 4 may not post there
    assert 4 not in p3.dealt or p3.big_blind == 4 or (4 in p3.live_posts and 4 in p3.dead_posts)


def _next_hand(room, clock, clients):
    """Play the hand in progress out and deal the next one."""
    _play_hand_out(room, clock, clients)
    clock.advance(3.1)


def _posts_of(table, number):
    """(kind, amount) of each post made by the player in seat `number` in the hand in progress."""
    me = table.hand_seats.index(number)
    return [(e.kind, e.amount) for e in table.hand.events if isinstance(e, ev.Posted) and e.player == me]


def test_rule_missed_small_blind_only_posts_it_dead(make_room):
    """DESIGN (seed 001, "post the missed blinds or their equivalent"): a player who missed only
    the small blind posts it dead, not a live big blind as well."""
    room, clock = make_room()
    clients = seat_players(room, names=("a", "b", "c", "d"))       # seats 2 to 5
    clock.advance(0.01)
    t = room.tables["T"]
    x = t.plan.big_blind
    me = next(c for c in clients if c.view("T").my_seat == x)
    me.sit_out("T")                                  # after his big blind, out for his small blind
    _next_hand(room, clock, clients)
    assert x not in t.hand_seats and t.plan.big_blind != x
    assert me.view("T").missed_blinds                # the small blind passed him, the big did not
    me.sit_in("T")
    me.post_or_wait("T", True)
    for _ in range(4):
        _next_hand(room, clock, clients)
        if x in t.hand_seats:
            break
    assert _posts_of(t, x) == [("dead", 100)]


def test_rule_missed_big_blind_posts_big_live_small_dead(make_room):
    """DESIGN: a player who missed the big blind (with or without the small) posts the big blind
    live plus the small blind dead, here one who sat out through the big blind alone."""
    room, clock = make_room()
    clients = seat_players(room, names=("a", "b", "c", "d"))       # seats 2 to 5
    clock.advance(0.01)
    t = room.tables["T"]
    x = 5                                            # button 2, blinds 3 and 4: 5 is the next big blind
    assert t.plan.big_blind == 4
    me = next(c for c in clients if c.view("T").my_seat == x)
    me.sit_out("T")
    _next_hand(room, clock, clients)
    assert t.plan.big_blind == 2 and me.view("T").missed_blinds
    me.sit_in("T")
    me.post_or_wait("T", True)
    for _ in range(4):
        _next_hand(room, clock, clients)
        if x in t.hand_seats:
            break
    assert x != t.plan.big_blind
    assert sorted(_posts_of(t, x)) == [("dead", 100), ("live", 200)]


@pytest.mark.parametrize("leaver", [3, 4, 5], ids=["due-the-button", "due-the-small-blind",
                                                  "due-the-big-blind"])
def test_rule_dead_button_nobody_skips_big_blind(make_room, leaver):
    """DESIGN (dead button): the big blind goes to the next player after the last big blind,
    whoever leaves before him. Five players in seats 2 to 6, button 2, blinds 3 and 4: whoever of
    3, 4 or 5 leaves, the next big blind is the first player left after seat 4. With the small
    blind's player gone, the small blind is dead (nobody posts it) and the button stays put."""
    room, clock = make_room()
    clients = seat_players(room, names=("a", "b", "c", "d", "e"))  # seats 2 to 6
    clock.advance(0.01)
    t = room.tables["T"]
    assert (t.plan.button, t.plan.small_blind, t.plan.big_blind) == (2, 3, 4)
    _play_hand_out(room, clock, clients)
    gone = next(c for c in clients if c.view("T").my_seat == leaver)
    gone.leave("T")
    clock.advance(3.1)
    due = 6 if leaver == 5 else 5
    assert t.plan.big_blind == due and leaver not in t.hand_seats
    kinds = [e.kind for e in t.hand.events if isinstance(e, ev.Posted)]
    if leaver == 4:
        assert t.plan.small_blind is None and t.plan.button == 3 and kinds == ["big blind"]
    else:
        assert t.plan.small_blind == 4 and kinds == ["small blind", "big blind"]
    # The blinds go on round from there: the next big blind is the next player again.
    rest, hand_id = [c for c in clients if c is not gone], t.hand_id
    _next_hand(room, clock, rest)
    assert t.plan.big_blind == (2 if due == 6 else 6)
    # The hand is kept and exported as dealt: a dead small blind is no post at all.
    assert clock.run_until(lambda: room.store.get_hand(hand_id).status == "settled", limit=60)
    text = export_pokerstars(rest[0].hand(hand_id))
    posts = [line.split(": posts ")[1].rsplit(" ", 1)[0] for line in text.splitlines() if ": posts " in line]
    assert posts == (["big blind"] if leaver == 4 else ["small blind", "big blind"])


def test_rule_auto_blind_starts_off(make_room):
    """Seed 000 (DESIGN): Auto Blind is a toggle that starts off; a player is asked to post his
    blind unless he turned it on, and may turn it on and off."""
    room, clock = make_room()
    a, b = room.connect("alice"), room.connect("bob")
    for x in (a, b):
        x.join("T")
        x.buy_in("T", 10_000)
    assert not a.view("T").auto_blind and not b.view("T").auto_blind
    clock.advance(0.01)
    assert room.tables["T"].hand is None                    # nobody is dealt before answering
    assert a.view("T").blind_prompt and b.view("T").blind_prompt
    a.set_auto_blind("T", True)
    assert a.view("T").auto_blind
    a.set_auto_blind("T", False)
    assert not a.view("T").auto_blind


# ------------------------------------------------------------------ auto actions
@pytest.mark.parametrize("auto, facing_bet, expected", [
    ("check/fold", False, ev.Checked), ("check/fold", True, ev.Folded),
    ("check/call", False, ev.Checked), ("check/call", True, ev.Called),
    ("bet/call", False, ev.BetTo), ("bet/call", True, ev.Called),
    ("raise", False, ev.BetTo), ("raise", True, ev.BetTo),
    ("fold", True, ev.Folded),
])
def test_auto_action_buttons_act_as_the_page_words_them(make_room, auto, facing_bet, expected):
    room, clock = make_room()
    a, b = seat_players(room, names=("alice", "bob"))
    clock.advance(0.01)
    t = room.tables["T"]
    # Heads-up: the button (small blind) acts first before the flop; reach the flop first.
    first = actor_client([a, b])
    first.act("T", "call")
    second = actor_client([a, b])
    second.act("T", "check")                         # flop: the big blind acts first
    opener = actor_client([a, b])
    other = b if opener is a else a
    if facing_bet:
        opener.act("T", "bet", 200)
    else:
        opener.act("T", "check")
    other.set_auto("T", auto)                       # chosen, and used for this one decision
    p = t.hand_seats.index(other.view("T").my_seat)
    last = [e for e in t.hand.events if getattr(e, "player", None) == p][-1]
    assert isinstance(last, expected)
    assert other.view("T").auto_action == "ask"      # then back to Ask Me


def test_auto_action_chosen_ahead_waits_for_the_players_turn(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    clock.advance(0.01)
    t = room.tables["T"]
    waiting = [c for c in clients if c.view("T").legal is None][0]
    waiting.set_auto("T", "fold")
    assert waiting.view("T").auto_action == "fold"   # not relayed until it is his turn
    _play = 0
    while waiting.view("T").auto_action == "fold" and _play < 10:
        actor_client(clients).act("T", "call")
        _play += 1
    p = t.hand_seats.index(waiting.view("T").my_seat)
    assert t.hand.folded[p]


# ------------------------------------------------------------------ chat
def test_chat_is_sanitised_and_shown_literally(make_room):
    room, clock = make_room()
    a, b = seat_players(room, names=("alice", "bob"))
    a.chat("T", "hi \x1b[31m[bold red]there[/]\x07")
    line = b.view("T").chat[-1]
    assert line.kind == "player" and line.name == "alice"
    assert "\x1b" not in line.text and "\x07" not in line.text and "[bold red]there[/]" in line.text


def test_chat_is_rate_limited(make_room):
    room, clock = make_room()
    a, = seat_players(room, names=("alice",))
    with pytest.raises(ChatRefused, match="too fast"):
        for _ in range(20):
            a.chat("T", "spam")


def test_an_admin_can_mute_a_player(make_room):
    room, clock = make_room()
    a, = seat_players(room, names=("alice",))
    room.muted.add(a.account_id)
    with pytest.raises(ChatRefused, match="muted"):
        a.chat("T", "hello")


def test_dealer_answers_how_many_a_player_drew_only_until_the_first_action_after_the_draw(make_room):
    room, clock = make_room(table_settings(game="a5-draw"))
    clients = seat_players(room, names=("alice", "bob"))
    clock.advance(0.01)
    t = room.tables["T"]
    while t.hand.phase == "bet":
        c = actor_client(clients)
        lg = c.view("T").legal
        c.act("T", "check" if lg.check else "call")
    first = actor_client(clients)
    first.act("T", "draw", discards=list(first.view("T").my_cards[:2]))
    second = actor_client(clients)
    assert second.chat("T", f"how many did {second.name} draw?", dealer=True) == f"{second.name} has not drawn yet"
    second.act("T", "stand pat")
    answer = second.chat("T", f"how many did {first.name} draw?", dealer=True)
    assert answer == f"{first.name} drew 2"
    # Found by a play-tester: asked about someone not dealt in, the dealer listed everyone else.
    late = room.connect("carol")
    late.join("T")
    late.buy_in("T", 10_000)
    assert second.chat("T", "how many did carol draw?", dealer=True) == "carol is not in this hand"
    actor_client(clients).act("T", "check")        # the first action after the draw
    clock.advance(5)
    answer = second.chat("T", f"how many did {first.name} draw?", dealer=True)
    assert "can't answer" in answer


def test_the_dealer_narrates_draws_and_declares_pairs_at_a_lowball_showdown(make_room):
    room, clock = make_room(table_settings(game="a5-draw"))
    clients = seat_players(room, names=("alice", "bob"))
    clock.advance(0.01)
    _play_hand_out(room, clock, clients)
    text = "\n".join(line.text for line in clients[0].view("T").chat)
    assert "stands pat" in text
    assert "Lo:" in text or "wins" in text


def test_the_dealer_says_stud_up_cards_are_dealt_and_keeps_shows_for_the_showdown(make_room):
    room, clock = make_room(table_settings(game="stud"))
    clients = seat_players(room, names=("alice", "bob", "carol"))
    t = room.tables["T"]
    for i, c in enumerate(clients):
        t.make_bot(c.account_id, random.Random(i))
    assert clock.run_until(lambda: len(t.stats) >= 3, limit=50_000)
    lines = [line.text for line in clients[0].view("T").chat]
    dealt = [t for t in lines if " is dealt " in t]
    assert dealt and all(t.endswith("face up") for t in dealt)
    assert not any(re.fullmatch(r"\S+ shows [2-9TJQKA][cdhs]", t.partition(": ")[2] or t) for t in lines)


# ------------------------------------------------------------------ bad input
def test_out_of_turn_and_illegal_actions_are_refused_and_change_nothing(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    clock.advance(0.01)
    t = room.tables["T"]
    c = actor_client(clients)
    other = next(x for x in clients if x is not c)
    n = len(t.hand.events)
    with pytest.raises(NotAllowedNow, match="not your turn"):
        other.act("T", "fold")
    with pytest.raises(RoomError, match="exactly"):
        c.act("T", "raise", 12_345)
    with pytest.raises(RoomError):
        c.act("T", "dance")
    assert len(t.hand.events) == n


def test_without_auto_blind_the_player_is_asked_to_post_each_blind(make_room):
    room, clock = make_room()
    a, b, c = [room.connect(n) for n in ("alice", "bob", "carol")]
    for x in (a, b, c):
        x.join("T")
    c.set_auto_blind("T", True)                             # alice and bob leave it off
    for x in (a, b, c):
        x.buy_in("T", 10_000)
    clock.advance(0.01)
    t = room.tables["T"]
    assert t.hand is None                                   # nobody is dealt until the blinds answer
    asked = [x for x in (a, b, c) if x.view("T").blind_prompt]
    assert asked and all(x is not c for x in asked)          # carol has Auto Blind on
    for x in asked:
        assert x.view("T").blind_prompt in (100, 200)
        x.post_blind("T", True)
    assert t.hand is not None and not t.hand.over


def _three_without_auto_blind(room, clock):
    """alice, bob and carol seated with $100 each and Auto Blind off; the clock moved on to the
    moment the first hand would be dealt (the blind prompt is up)."""
    players = [room.connect(n) for n in ("alice", "bob", "carol")]
    for x in players:
        x.join("T")
        x.set_auto_blind("T", False)
        x.buy_in("T", 10_000)
    clock.advance(0.01)
    return players


def test_declining_or_not_answering_the_blind_prompt_sits_the_player_out(make_room):
    room, clock = make_room()
    a, b, c = _three_without_auto_blind(room, clock)
    asked = [x for x in (a, b, c) if x.view("T").blind_prompt]
    asked[0].post_blind("T", False)
    assert asked[0].view("T").sitting_out
    clock.advance(30)                                        # nobody answers: they are sat out
    t = room.tables["T"]
    assert t.hand is None or sum(1 for x in (a, b, c) if x.view("T").sitting_out) >= 1
    with pytest.raises(NotAllowedNow):
        asked[0].post_blind("T", True)


def test_a_returning_player_who_enters_in_the_big_blind_posts_only_the_big_blind():
    seats = [SeatFacts(1, True), SeatFacts(2, True), SeatFacts(3, True),
             SeatFacts(4, True, owes="missed", missed=frozenset({0}), wants_post=False)]
    prev = plan_hand([s for s in seats if s.number != 4], None, BLINDS)      # button 1, blinds 2 and 3
    plan = plan_hand(seats, prev, BLINDS)                                     # button 2, sb 3, bb 4
    assert plan.big_blind == 4 and 4 in plan.dealt
    assert 4 not in plan.live_posts and 4 not in plan.dead_posts


def test_a_player_who_leaves_may_not_come_back_short_for_an_hour(make_room):
    room, clock = make_room()
    a, = seat_players(room, names=("alice",), stack=5_000)  # alone: no hand, the stack stays 5,000
    a.leave("T")
    assert room.tables["T"].seat_of(a.account_id) is None
    a.join("T")
    lo, hi, default = a.view("T").buy_in
    assert lo == 5_000                                      # what he left with, not the $20 minimum
    with pytest.raises(BadBuyIn, match=r"\$50"):
        a.buy_in("T", 2_000)
    clock.advance(3_601)
    assert a.view("T").buy_in[0] == 2_000                   # an hour later the table minimum again
    a.buy_in("T", 2_000)


def test_a_player_back_in_the_seat_he_left_after_a_hand_shows_no_chips_until_he_buys_in(make_room):
    """Seen over ssh: kicked (or gone) after a hand and back in the same seat, a player's view kept
    the last hand's final stack ($49.50) on his seat, so the buy-in dialog thought he had chips
    already and allowed 50c where the rule asked for at least $49.50. After the hand the seat's own
    stack is shown: none, then what he buys in for."""
    room, clock = make_room(table_settings(kind="no", small=50, big=100))
    a, b = seat_players(room, names=("alice", "bob"), stack=5_000)
    clock.advance(0.01)
    table = room.tables["T"]
    hand = table.hand
    while not hand.over:
        actor = next(c for c in (a, b) if c.view("T").legal is not None)
        actor.act("T", "fold")
    left_with = table.seat_of(b.account_id).stack
    number = table.seat_of(b.account_id).number
    b.leave("T")
    assert table.hand is hand                            # still the last hand on show
    b.join("T", number)
    mine = next(s for s in b.view("T").seats if s.number == number)
    assert mine.stack == 0
    lo, hi, _ = b.view("T").buy_in
    assert lo == min(left_with, hi) > 0                  # the rathole rule: what he left with (to the max)
    b.buy_in("T", lo)
    mine = next(s for s in b.view("T").seats if s.number == number)
    assert mine.stack == lo


def test_at_the_hot_seat_table_the_blind_prompt_waits_for_the_player(make_room):
    """clock_waits_for_ready (the hot-seat game): without Auto Blind the prompt to post has no 23 s
    limit either, since the device may be on its way to the player; the hand starts when he posts."""
    room, clock = make_room(table_settings(clock_waits_for_ready=True))
    a, b, c = _three_without_auto_blind(room, clock)
    asked = [x for x in (a, b, c) if x.view("T").blind_prompt]
    assert asked
    clock.advance(120)
    assert [x for x in (a, b, c) if x.view("T").blind_prompt] == asked
    assert not any(x.view("T").sitting_out for x in (a, b, c))
    for x in asked:
        x.post_blind("T", True)
    t = room.tables["T"]
    assert t.hand is not None and not t.hand.over


def test_the_dealer_names_each_kind_of_post():
    """It said "cat posts the live of $2"."""
    from cardroom.engine import events as ev
    from cardroom.engine.variants import find_variant
    from cardroom.room.narration import narrate

    holdem, names = find_variant("holdem"), ["ann", "cat"]
    said = [narrate(ev.Posted(1, kind, 200, False), names, holdem)
            for kind in ("small blind", "blind", "big blind", "live", "dead", "ante")]
    # Dead: the smaller blinds missed, in one amount (of three blinds: the small, the middle or
    # both; it said "a dead small blind of $1.50" for the $.50 and the $1 together).
    assert said == ["cat posts the small blind of $2", "cat posts the middle blind of $2",
                    "cat posts the big blind of $2", "cat posts a live big blind of $2",
                    "cat posts dead blinds of $2", "cat posts an ante of $2"]
    assert narrate(ev.Posted(0, "live", 150, True), names, holdem) == "ann posts a live big blind of $1.50 and is all-in"


def test_rule_auto_blind_turned_on_while_asked_posts_the_blind(make_room):
    """Auto Blind posts the blinds for the player (seed 000): ticked while the prompt is up, it
    answers it -- the hand is dealt at once, not after the prompt's time with him sat out."""
    room, clock = make_room()
    players = _three_without_auto_blind(room, clock)
    t = room.tables["T"]
    asked = [x for x in players if x.view("T").blind_prompt]
    assert asked and t.hand is None
    for x in asked:
        x.set_auto_blind("T", True)
    assert t.hand is not None and not t.hand.over
    assert not any(x.view("T").sitting_out for x in players)


def test_rule_a_table_built_without_rules_deals_and_shows_as_its_games_own_page():
    """Issue 35 (6): a TableSettings, an engine Hand or a TableConfig built without rules got the
    lowball dealing (seed 002) and losers' mucks even for Draw Lo, whose page (seed 000) deals with
    no burn, all of a player's cards at his turn, and shows every remaining hand."""
    from cardroom.config import TableConfig
    from cardroom.engine.betting import DRAW_DEALINGS, Rules, Structure
    from cardroom.engine.cards import Deck
    from cardroom.engine.hand import Hand, Player
    from cardroom.engine.variants import find_variant
    from cardroom.room.table import TableSettings

    draw_lo, triple = find_variant("a5-draw"), find_variant("27-triple")
    planet = Rules(show_all=True, **DRAW_DEALINGS["planet"])
    st = Structure.make("fixed", 200, 400)
    assert TableSettings("T", draw_lo, st).rules == planet
    assert TableSettings("T", triple, st).rules == Rules()
    players = [Player("a", 10_000, 1), Player("b", 10_000, 2)]
    assert Hand(draw_lo, st, players, deck=Deck(random.Random(1))).rules == planet
    assert TableConfig("T", "a5-draw", "fixed", 200, 400).rules() == planet
    assert TableConfig("T", "27-triple", "fixed", 200, 400).rules() == Rules()


def test_rule_a_newcomer_who_sits_out_before_his_first_hand_still_posts_a_big_blind(make_room):
    """Seed 001: a new player posts the equivalent of the big blind or waits for it. One who sat out
    before his first hand while the small blind passed his seat came in for a dead small blind."""
    room, clock = make_room()
    clients = []
    for name, number in (("a", 2), ("b", 4), ("c", 6)):
        c = room.connect(name)
        c.join("T", number)
        c.set_auto_blind("T", True)
        c.buy_in("T", 10_000)
        clients.append(c)
    clock.advance(0.01)
    t = room.tables["T"]
    assert (t.plan.button, t.plan.small_blind, t.plan.big_blind) == (2, 4, 6)
    new = room.connect("new")
    new.join("T", 5)
    new.set_auto_blind("T", True)
    new.buy_in("T", 10_000)
    new.sit_out("T")
    _next_hand(room, clock, clients)                  # the small blind moves from 4 to 6, past 5
    assert t.plan.small_blind == 6 and new.view("T").new_player
    new.sit_in("T")
    new.post_or_wait("T", True)
    for _ in range(4):
        _next_hand(room, clock, clients + [new])
        if 5 in t.hand_seats:
            break
    assert _posts_of(t, 5) in ([("live", 200)], [("big blind", 200)])
