"""Seed 002's three blinds under seed 001's blind rules (issue 35, point 1): the big blind is the
largest ($2 of $.50/$1/$2), it moves one player clockwise each hand, every player posts it once
an orbit and never twice running; missed blinds are owed, the dead-button rule holds, and
heads-up the two largest are posted (DESIGN.md, "Interpretations of the rule pages")."""

import random

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import ANTE_BB, NO_RAKE, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player, blind_posters
from cardroom.engine.variants import find_variant
from cardroom.room.seating import SeatFacts, plan_hand
from tests.room.conftest import actor_client, seat_players
from tests.room.test_table_rules import _next_hand
from tests.engine.strategies import play
from tests.rooms import table_settings

THREE = (50, 100, 200)
NAMES = {1: ("big blind",), 2: ("small blind", "big blind"), 3: ("small blind", "blind", "big blind")}


def _three_blind_room(make_room, names=("a", "b", "c", "d", "e")):
    """Players in seats 2 on at a fixed $2/$4 table with blinds $.50/$1/$2, the first hand dealt:
    button 2, blinds 3, 4 and 5."""
    room, clock = make_room(table_settings(structure=Structure.make("fixed", 200, 400, blinds=THREE)))
    clients = seat_players(room, names=names)
    clock.advance(0.01)
    return room, clock, clients, room.tables["T"]


def _posts(t):
    """(seat, kind, amount) of every post of the hand in progress."""
    return [(t.hand_seats[e.player], e.kind, e.amount) for e in t.hand.events if isinstance(e, ev.Posted)]


def _big(t):
    """The seat that posted the $2 this hand."""
    (seat,) = [s for s, kind, amount in _posts(t) if kind == "big blind"]
    return seat


def _dealer_said(t) -> list[str]:
    """The dealer's lines since the hand in progress began."""
    lines = [line.text for line in t.chat]
    start = max(i for i, x in enumerate(lines) if x == f"Hand #{t.hand_id} begins")
    return lines[start:]


def _client(clients, t, seat):
    return next(c for c in clients if t.seat_of(c.account_id).number == seat)


def test_rule_three_blinds_the_largest_is_the_big_blind_and_goes_round_once_an_orbit(make_room):
    room, clock, clients, t = _three_blind_room(make_room)
    assert _posts(t) == [(3, "small blind", 50), (4, "blind", 100), (5, "big blind", 200)]
    bigs = [_big(t)]
    for _ in range(5):
        _next_hand(room, clock, clients)
        bigs.append(_big(t))
    assert bigs == [5, 6, 2, 3, 4, 5]
    assert t.plan.big_blind == 5 and t.plan.small_blind == 3


def test_rule_three_blinds_sitting_out_for_his_big_blind_owes_it_and_nobody_posts_it_twice(make_room):
    """Issue 35: a player who sat out for exactly the hand where the $2 was his never posted it and
    owed nothing, and the next player posted it twice running."""
    room, clock, clients, t = _three_blind_room(make_room)
    six = _client(clients, t, 6)                      # the next $2 is his
    six.sit_out("T")
    _next_hand(room, clock, clients)
    assert 6 not in t.hand_seats and _big(t) == 2     # the $2 moved on to the next player
    assert six.view("T").missed_blinds and six.view("T").missed_posts == (200, 150)
    six.sit_in("T")
    six.post_or_wait("T", True)
    bigs = [2]
    for _ in range(6):
        _next_hand(room, clock, clients)
        bigs.append(_big(t))
        if 6 in t.hand_seats:
            break
    assert bigs[1] == 3                               # not 2 again
    assert all(a != b for a, b in zip(bigs, bigs[1:]))
    assert sorted((kind, amount) for s, kind, amount in _posts(t) if s == 6) == [("dead", 150), ("live", 200)]


def test_rule_three_blinds_dead_button_nobody_skips_the_big_blind_when_the_middle_blinds_player_leaves(make_room):
    """Issue 35: when the player due the middle blind left, the next player skipped the $2. The $2
    goes to the next player; the blinds of the empty seat are dead (the dead-button rule)."""
    room, clock, clients, t = _three_blind_room(make_room)
    gone = _client(clients, t, 5)                     # posted the $2: the $1 is his next
    rest = [c for c in clients if c is not gone]
    gone.leave("T")
    _next_hand(room, clock, rest)
    assert _posts(t) == [(4, "small blind", 50), (6, "big blind", 200)]    # his $1 is dead
    _next_hand(room, clock, rest)
    # The $.50 dead (seat 5 again): the $1 is still the middle blind, and the dealer says so. It
    # was named the small blind, as if the table's blinds were $1/$2.
    assert _posts(t) == [(6, "blind", 100), (2, "big blind", 200)]
    said = _dealer_said(t)
    assert "e posts the middle blind of $1" in said and not any("small blind" in x for x in said)
    _next_hand(room, clock, rest)
    assert _posts(t) == [(6, "small blind", 50), (2, "blind", 100), (3, "big blind", 200)]


def test_rule_three_blinds_a_newcomer_waiting_for_the_big_blind_comes_in_on_the_2_dollars(make_room):
    """Issue 35: a newcomer waiting for the big blind came in on the $1, and the player after him
    posted the $2 twice."""
    room, clock, clients, t = _three_blind_room(make_room, names=("a", "b", "c", "d"))   # seats 2-5
    late = room.connect("late")
    late.join("T", 6)
    late.set_auto_blind("T", True)
    late.buy_in("T", 10_000)
    late.post_or_wait("T", False)                     # wait for the big blind
    bigs = [_big(t)]
    for _ in range(5):
        _next_hand(room, clock, clients + [late])
        bigs.append(_big(t))
        if 6 in t.hand_seats:
            break
    assert bigs == [5, 6]
    assert [(kind, amount) for s, kind, amount in _posts(t) if s == 6] == [("big blind", 200)]
    _next_hand(room, clock, clients + [late])
    assert _big(t) == 2 and [k for s, k, _ in _posts(t) if s == 6] == ["blind"]


def test_rule_three_blinds_a_returning_player_owes_the_middle_blind_he_missed(make_room):
    """Issue 35: a returning player never owed the middle blind. One who sat out after posting the
    $2, while the $1 and the $.50 passed his seat, posts both dead when he comes back."""
    room, clock, clients, t = _three_blind_room(make_room)
    five = _client(clients, t, 5)
    five.sit_out("T")
    _next_hand(room, clock, clients)
    assert five.view("T").missed_posts == (0, 100)    # the $1 was his
    _next_hand(room, clock, clients)
    assert five.view("T").missed_posts == (0, 150)    # and then the $.50
    five.sit_in("T")
    five.post_or_wait("T", True)
    for _ in range(4):
        _next_hand(room, clock, clients)
        if 5 in t.hand_seats:
            break
    assert [(kind, amount) for s, kind, amount in _posts(t) if s == 5] == [("dead", 150)]
    assert "d posts dead blinds of $1.50" in _dealer_said(t)     # not "a dead small blind of $1.50"


def test_rule_three_blinds_heads_up_posts_the_two_largest(make_room):
    """Issue 35: heads-up only $.50 and $1 were posted while the opening bet was $2, so the big
    blind had to call $1 nobody bet. The button posts $1, the other player $2."""
    room, clock, clients, t = _three_blind_room(make_room, names=("a", "b"))
    assert sorted(amount for _, _, amount in _posts(t)) == [100, 200]
    button = t.plan.button
    assert [(s, k) for s, k, _ in _posts(t)] == [(button, "small blind"), (t.plan.big_blind, "big blind")]
    first = actor_client(clients)
    assert t.seat_of(first.account_id).number == button and first.view("T").legal.call == 100
    first.act("T", "call")
    assert actor_client(clients).view("T").legal.check  # the big blind owes nothing more


def test_rule_three_blinds_heads_up_in_the_engine():
    st = Structure.make("no", 200, blinds=THREE)
    assert blind_posters(2, 0, THREE) == ((0, 1), (100, 200))
    players = [Player("a", 10_000, 1), Player("b", 10_000, 2)]
    h = Hand(find_variant("holdem"), st, players, button=0, deck=Deck(random.Random(1)), rules=NO_RAKE)
    assert [(e.player, e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)] == [
        (0, "small blind", 100), (1, "big blind", 200)]
    h.call()
    assert h.legal().check


def test_rule_three_blinds_a_dead_small_blind_leaves_the_middle_blind_its_name_in_every_history():
    """The hand is dealt without the dead $.50: the $1 is the middle blind, in the events (the
    dealer's words and the History screen come from them), the PokerStars text (where a middle
    blind is a straddle) and the PHH file, which replays to the same. A dead middle blind leaves
    the small and the big blind theirs."""
    from datetime import datetime

    from cardroom.engine.phh import export_hand, import_hand
    from cardroom.engine.pokerstars import to_pokerstars

    table = Structure.make("fixed", 200, 400, blinds=THREE)
    assert table.for_hand([True, True, True]) is table
    st = table.for_hand([False, True, True])
    assert (st.blinds, st.first_blind) == ((100, 200), 1)
    players = [Player(f"p{i}", 10_000, i + 1) for i in range(4)]
    h = Hand(find_variant("27-draw"), st, players, button=0, deck=Deck(random.Random(1)), rules=NO_RAKE)
    posts = [(e.player, e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)]
    assert posts == [(1, "blind", 100), (2, "big blind", 200)]
    for _ in play(h, random.Random(2)):
        pass
    stars = to_pokerstars(h, hand_id="1", table="T", when=datetime(2026, 12, 1), max_seats=6)
    assert "p1: posts straddle $1\n" in stars and "small blind" not in stars
    replayed = import_hand(export_hand(h))
    assert [(e.kind, e.amount) for e in replayed.events if isinstance(e, ev.Posted)] == \
        [("blind", 100), ("big blind", 200)]
    dead_middle = table.for_hand([True, False, True])
    h = Hand(find_variant("27-draw"), dead_middle, players, button=0, deck=Deck(random.Random(1)), rules=NO_RAKE)
    assert [(e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)] == \
        [("small blind", 50), ("big blind", 200)]


def test_rule_three_blinds_the_big_blind_ante_and_label_go_to_the_largest_blind():
    """Issue 35: the big-blind ante and the "big blind" label went to the $1."""
    st = Structure.make("no", 200, blinds=THREE, ante=200, ante_style=ANTE_BB)
    players = [Player(f"p{i}", 10_000, i + 1) for i in range(5)]
    h = Hand(find_variant("holdem"), st, players, button=0, deck=Deck(random.Random(1)), rules=NO_RAKE)
    assert [(e.player, e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)] == [
        (3, "ante", 200), (1, "small blind", 50), (2, "blind", 100), (3, "big blind", 200)]


# ------------------------------------------------------------------ random tables, the plan against the engine
def _random_tables(blinds: tuple[int, ...], tables: int, hands: int = 30) -> dict:
    """Random tables of 2 to 8 of 10 seats, `hands` hands each, players joining (posting or waiting
    for the big blind), leaving, sitting out and in between hands. Every plan is dealt by the
    engine, and each hand checks: the engine's posts are the plan's (each blind by its poster,
    the largest named the big blind, owed posts live and dead); under way, the big blind goes to
    the next ready player after the last one (never skipped, never the same player twice
    running); a player who owes posts the big blind live and the smaller blinds he missed dead.
    Returns counts of what happened, for the caller to see the cases were met."""
    seen = {"hands": 0, "dead blinds": 0, "heads-up": 0, "owed posts": 0, "missed": 0}
    for table in range(tables):
        rng = random.Random(f"seating/{blinds}/{table}")
        seats = {}   # number -> dict(ready, owes, missed, wants_post)
        for n in rng.sample(range(1, 11), rng.randint(2, 8)):
            seats[n] = {"ready": True, "owes": "", "missed": frozenset(), "wants_post": True}
        prev = None
        for _ in range(hands):
            _between_hands(seats, rng)
            facts = [SeatFacts(n, s["ready"], owes=s["owes"], missed=s["missed"], wants_post=s["wants_post"])
                     for n, s in seats.items()]
            plan = plan_hand(facts, prev, blinds)
            if plan is None:
                continue
            under_way = prev is not None and len([f for f in facts if f.ready and not f.owes]) >= 2
            if under_way:
                ready = sorted(f.number for f in facts if f.ready)
                last = prev.big_blind
                assert plan.big_blind != last or last not in ready, (table, plan)
                assert not any(_strictly_between(n, last, plan.big_blind) for n in ready), (table, prev, plan)
            for n, passed in plan.missed.items():
                seen["missed"] += 1
                if seats[n]["owes"] != "new":
                    seats[n]["owes"] = "missed"
                    seats[n]["missed"] |= passed
            posted = _deal_and_check_posts(plan, seats, blinds, rng, under_way, seen, table)
            seen["hands"] += 1
            seen["dead blinds"] += len(posted.blinds) < len(blinds) and len(plan.dealt) > 2
            seen["heads-up"] += len(plan.dealt) == 2
            prev = plan
    return seen


def _between_hands(seats: dict, rng: random.Random) -> None:
    """Players leave, sit out or back in; now and then a new one sits down (posting or not)."""
    for n in list(seats):
        r = rng.random()
        if r < 0.04:
            del seats[n]                                  # leaves
        elif r < 0.12:
            seats[n]["ready"] = not seats[n]["ready"]      # sits out or back in
    if rng.random() < 0.2:
        free = [n for n in range(1, 11) if n not in seats]
        if free:
            seats[rng.choice(free)] = {"ready": True, "owes": "new", "missed": frozenset(),
                                       "wants_post": rng.random() < 0.5}


def _deal_and_check_posts(plan, seats: dict, blinds: tuple[int, ...], rng: random.Random, under_way: bool,
                          seen: dict, table: int) -> Structure:
    """The engine deals the plan: its posts must be the plan's, each blind by its name at the table
    and every owed post live and dead as owed. The owed posts are then paid. The hand's structure."""
    structure = Structure.make("no", blinds[-1], blinds=blinds)
    posted = structure.for_hand([who is not None for who in plan.blinds])   # as the table deals it
    players = [Player(str(n), 100_000, n, live_post=plan.live_posts.get(n, 0),
                      dead_post=plan.dead_posts.get(n, 0)) for n in plan.dealt]
    h = Hand(find_variant("holdem"), posted, players,
             button=plan.dealt.index(plan.button), deck=Deck(rng), rules=NO_RAKE)
    got = [(plan.dealt[e.player], e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)]
    want = [(who, b) for b, who in zip(blinds, plan.blinds) if who is not None]
    assert [(s, a) for s, k, a in got if k not in ("live", "dead")] == want, (table, plan, got)
    kinds = [k for s, k, a in got if k not in ("live", "dead")]
    assert kinds[-1] == "big blind"
    if len(plan.dealt) > 2:     # each blind posted by its name at the table, dead ones or not
        assert kinds == [NAMES[len(blinds)][i] for i, who in enumerate(plan.blinds) if who is not None], (plan, got)
    for n in plan.dealt:
        s = seats[n]
        owed = sorted((k, a) for q, k, a in got if q == n and k in ("live", "dead"))
        if s["owes"] and n not in plan.blinds:
            big = len(blinds) - 1
            live = blinds[-1] if s["owes"] == "new" or big in s["missed"] else 0
            dead = 0 if s["owes"] == "new" else sum(blinds[:big]) if big in s["missed"] else \
                sum(blinds[i] for i in s["missed"])
            expect = sorted([("live", live)] * bool(live) + [("dead", dead)] * bool(dead))
            assert owed == expect or not under_way, (table, n, s, owed, expect)
            seen["owed posts"] += bool(owed)
        s["owes"], s["missed"] = "", frozenset()
    return posted


def _strictly_between(seat: int, start: int, end: int) -> bool:
    if start < end:
        return start < seat < end
    return seat > start or seat < end


@pytest.mark.parametrize("blinds", [(200,), (100, 200), THREE, (100, 100, 200)], ids=["one", "two", "three", "1-1-2"])
@pytest.mark.parametrize("tables", [pytest.param(300, id="300"),
                                    pytest.param(3_000, id="3000", marks=pytest.mark.deep)])
def test_rule_random_tables_seating_plan_matches_the_engines_blind_order(blinds, tables):
    seen = _random_tables(blinds, tables)
    assert seen["hands"] > tables * 20 and seen["heads-up"] and seen["owed posts"] and seen["missed"]
    assert seen["dead blinds"] or len(blinds) == 1
