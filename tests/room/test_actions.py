"""Every table action is one record (room/actions.py) and one handler at the table (table.py):
each record has its handler, the friendly methods build the records, a handled intent tells the
watchers once, and an answer that names a decision that has passed is refused (issue 34, 7)."""

from __future__ import annotations

import dataclasses

import pytest

from cardroom.room import actions
from cardroom.room.actions import ACTIONS, Act, Intents
from cardroom.room.api import NotAllowedNow
from cardroom.room.room import RoomSettings
from cardroom.room.table import HANDLERS, STALE_DECISION
from tests.room.conftest import actor_client, seat_players
from tests.rooms import table_settings


def test_every_action_record_has_one_handler_at_the_table():
    assert set(HANDLERS) == set(ACTIONS.values())
    assert len(ACTIONS) >= 16
    for verb, cls in ACTIONS.items():
        assert cls.verb == verb and dataclasses.is_dataclass(cls)
        assert cls.__dataclass_params__.frozen, cls


def test_an_actions_verb_is_its_name_in_snake_case():
    assert actions.BuyIn.verb == "buy_in" and actions.SetAutoBlind.verb == "set_auto_blind"
    assert actions.JoinWaitList.verb == "join_wait_list" and actions.Act.verb == "act"


class Recorder(Intents):
    def send(self, table, action):
        return table, action


def test_each_friendly_method_sends_the_record_of_its_name():
    """The methods the screens call (written once, in Intents, for the Session and both
    clients) each build the record their name says."""
    r = Recorder()
    args = {"join": (3,), "buy_in": (5000,), "act": ("raise", 800), "set_auto": ("check/fold",),
            "set_auto_blind": (True,), "post_blind": (False,), "post_or_wait": (True,), "chat": ("hi",)}
    friendly = [verb for verb in ACTIONS if callable(getattr(Intents, verb, None))]
    assert len(friendly) == 16
    for verb in friendly:
        table, action = getattr(r, verb)("T", *args.get(verb, ()))
        assert table == "T" and type(action) is ACTIONS[verb]
    assert r.act("T", "draw", discards=["As"])[1] == Act("draw", 0, ("As",), "")
    assert r.add_chips("T", 100)[1] == actions.BuyIn(100)


def test_an_intent_tells_each_watcher_once_however_much_it_changed(make_room):
    """The player to act leaves (his hand is folded, the action moves on, his seat is marked
    going) or turns an auto action on (played at once): each step used to tell the watchers
    itself, two wake-ups of every screen at the table for one key; `Table.handle` tells them
    once, after the handler."""
    room, clock = make_room(table_settings(seats=6))
    players = seat_players(room, names=("alice", "bob", "carol", "dave"))
    clock.advance(0.01)
    table = room.tables["T"]
    woken, observed = [], []
    for p in players:
        p.on_change(lambda p=p: woken.append(p.name))
    table.observers.append(lambda: observed.append(1))
    leaver = actor_client(players)
    leaver.leave("T")
    assert table.chat[-1].text == f"{leaver.name} folds" and actor_client(players) not in (None, leaver)
    assert sorted(woken) == sorted(p.name for p in players) and observed == [1]
    woken.clear()
    auto = actor_client(players)
    auto.set_auto("T", "check/call")
    assert actor_client(players) is not auto
    assert sorted(woken) == sorted(p.name for p in players) and observed == [1, 1]


def test_a_railbirds_watch_wakes_nobody_but_the_observers_hear_it(make_room):
    room, clock = make_room(table_settings(seats=6))
    alice, = seat_players(room, names=("alice",))
    woken, observed = [], []
    alice.on_change(lambda: woken.append(1))
    room.tables["T"].observers.append(lambda: observed.append(1))
    rail = room.connect("rail")
    assert rail.watch("T").railbirds == ("rail",)
    rail.unwatch("T")
    assert woken == [] and observed == [1, 1]


def test_an_unknown_action_is_refused_and_changes_nothing(make_room):
    room, clock = make_room()
    alice, = seat_players(room, names=("alice",))
    before = room.tables["T"].view_for(None)
    with pytest.raises(Exception, match="does not know how to"):
        alice.send("T", actions.Action())
    assert room.tables["T"].view_for(None) == before


# ---------------------------------------------------------------- a decision named (issue 34, 7)
def to_act(players, me):
    """Everyone else plays passively until it is `me`'s decision again."""
    for _ in range(40):
        actor = actor_client(players)
        if actor is me:
            return me.view("T")
        lg = actor.view("T").legal
        actor.act("T", "check" if lg.check else "call")
    raise AssertionError("never my turn")


def test_an_act_naming_a_decision_that_has_passed_is_refused_and_changes_nothing(make_room):
    room, clock = make_room(table_settings(seats=6))
    players = seat_players(room, names=("alice", "bob", "carol"))
    clock.advance(0.01)
    me = actor_client(players)
    first = me.view("T").decision
    assert first and all(p.view("T").decision == "" for p in players if p is not me)
    me.act("T", "call", decision=first)
    now = to_act(players, me)
    assert now.decision and now.decision != first
    table = room.tables["T"]
    before = (table.view_for(None), me.view("T"), table.chips())
    with pytest.raises(NotAllowedNow, match="that was for an earlier decision"):
        me.act("T", "check" if now.legal.check else "call", decision=first)
    assert (table.view_for(None), me.view("T"), table.chips()) == before
    me.act("T", "check" if now.legal.check else "call", decision=now.decision)
    assert me.view("T").decision != now.decision


def test_a_key_for_a_decision_that_timed_out_does_not_answer_the_next(make_room):
    """The player's clock runs out (his quota of protected all-ins used: checked for him), the
    others check, and his next decision comes; the key he pressed for the first arrives now."""
    room, clock = make_room(table_settings(seats=6), settings=RoomSettings(timeout_allin_quota=0))
    players = seat_players(room, names=("alice", "bob", "carol"))
    clock.advance(0.01)
    for _ in range(10):                         # the preflop round, passively
        actor = actor_client(players)
        if actor.view("T").street != "preflop":
            break
        lg = actor.view("T").legal
        actor.act("T", "check" if lg.check else "call")
    me = actor_client(players)
    late = me.view("T").decision
    assert me.view("T").street == "flop" and me.view("T").legal.check
    clock.advance(room.tables["T"].settings.action_seconds + 0.1)   # timed out: checked
    assert room.tables["T"].chat[-1].text == f"{me.name} checks"
    now = to_act(players, me)
    assert now.street == "turn" and now.legal.check
    with pytest.raises(NotAllowedNow, match=STALE_DECISION):
        me.act("T", "check", decision=late)
    assert me.view("T") == now
    me.act("T", "check")                        # no decision named: whatever is asked now
    assert me.view("T").legal is None


def test_a_blind_answer_for_an_earlier_prompt_is_refused(make_room):
    room, clock = make_room(table_settings(seats=6))
    alice, bob = seat_players(room, names=("alice", "bob"), auto_blind=False)
    clock.advance(0.01)
    first = alice.view("T").decision
    assert alice.view("T").blind_prompt and first.endswith("+blind")
    alice.post_blind("T", True, decision=first)
    bob.post_blind("T", True, decision=bob.view("T").decision)
    actor_client([alice, bob]).act("T", "fold")
    clock.advance(room.tables["T"].settings.between_hands + 0.1)     # the next hand's prompt
    again = alice.view("T")
    assert again.blind_prompt and again.decision not in ("", first)
    with pytest.raises(NotAllowedNow, match="that was for an earlier decision"):
        alice.post_blind("T", False, decision=first)       # an Esc meant for the last prompt
    assert alice.view("T") == again and not again.sitting_out
    alice.post_blind("T", True, decision=again.decision)
    assert not alice.view("T").blind_prompt


def test_ready_wakes_the_watchers_only_when_a_clock_starts(make_room):
    """The hot-seat app says Ready at every change of the room: were each Ready a change, the
    two would answer each other for ever."""
    room, clock = make_room(table_settings(seats=6, clock_waits_for_ready=True))
    players = seat_players(room, names=("alice", "bob"))
    clock.advance(0.01)
    me = actor_client(players)
    woken = []
    me.on_change(lambda: woken.append(1))
    assert me.view("T").seconds_left is None
    me.ready("T")
    assert me.view("T").seconds_left is not None and woken == [1]
    me.ready("T")
    assert woken == [1]
