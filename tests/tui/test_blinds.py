"""The blind questions at the table: the blind prompt (Auto Blind off) and missed blinds."""

from __future__ import annotations

from cardroom.engine import events as ev
from cardroom.tui import UIOptions, build_app
from cardroom.tui.screens.lobby import LobbyScreen
from textual.widgets import Input

from .conftest import SIZE, open_table, passive, screen_text


def seat_without_auto_blind(w, names, table="T", stack=10_000):
    out = []
    for n in names:
        c = w.room.connect(n)
        c.join(table)
        c.set_auto_blind(table, False)
        c.buy_in(table, stack)
        out.append(c)
    return out


def play_out(w, clients, table="T"):
    """Everyone plays passively until no decision is pending."""
    for _ in range(100):
        a = w.actor(clients, table)
        if a is None:
            return
        passive(a, table)


def alice_missed_the_blinds(world):
    """A three-handed table where alice has sat out through a big blind: she owes the blinds."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    w.clock.advance(0.01)
    alice.sit_out("T")
    for _ in range(6):                                     # sit out through a big blind
        play_out(w, clients)
        w.clock.advance(3.1)
        if alice.view("T").missed_blinds:
            break
    assert alice.view("T").missed_blinds and alice.view("T").sitting_out
    return w, clients


async def test_blind_prompt_both_players_post_and_the_hand_is_dealt(world):
    w = world()
    alice, bob = seat_without_auto_blind(w, ["alice", "bob"])
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    assert t.hand is None
    assert alice.view("T").blind_prompt and bob.view("T").blind_prompt
    for me, other in ((alice, bob), (bob, alice)):
        amount = me.view("T").blind_prompt
        app = build_app(me, options=UIOptions(sound=False))
        async with app.run_test(size=SIZE) as pilot:
            screen = await open_table(app, pilot)
            text = screen_text(app)
            dollars = f"${amount // 100}"
            assert f"Post the blind of {dollars}? [Enter] post  [s] sit out" in text
            footer = " ".join(text.splitlines()[-3:])
            assert "\u23ce Post blind" in footer and "s Sit out" in footer   # \u23ce: enter
            assert f"enter Post {dollars}" in text           # the action bar's chip
            await pilot.press("enter")
            await pilot.pause()
            assert me.view("T").blind_prompt == 0 and not me.view("T").sitting_out
            assert app.screen is screen
            text = screen_text(app)
            assert "Post the blind of" not in text and "Post blind" not in text
            if other.view("T").blind_prompt:
                assert t.hand is None                         # still waiting for the other one
    assert t.hand is not None and not t.hand.over
    assert len(alice.view("T").my_cards) == 2 and len(bob.view("T").my_cards) == 2
    posts = sorted(e.amount for e in t.hand.events if isinstance(e, ev.Posted))
    assert posts == [100, 200]


async def test_blind_prompt_s_declines_and_sits_out(world):
    w = world()
    alice, bob, carol = seat_without_auto_blind(w, ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    asked = [c for c in (alice, bob, carol) if c.view("T").blind_prompt]
    me = asked[0]
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        assert "Post the blind of" in screen_text(app)
        assert "s Sit out" in screen_text(app)                 # the action bar's chip
        await pilot.press("s")
        await pilot.pause()
        assert app.screen is screen                       # answered: still at the table
        assert me.view("T").sitting_out and not me.view("T").blind_prompt
        assert "Post the blind of" not in screen_text(app)
        assert "s Sit in" in screen_text(app)


async def test_esc_never_declines_the_blind_and_a_closed_chat_box_leaves_no_line(world):
    """Issue 35: Esc closed the chat box, whose line stayed on screen saying "esc: back"; the
    second Esc then declined the blind. Esc is no answer to the blind prompt (it goes to the
    lobby, as everywhere), and a closed box leaves nothing behind."""
    w = world()
    clients = seat_without_auto_blind(w, ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    me = next(c for c in clients if c.view("T").blind_prompt)
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        assert not screen.query_one("#chat-line").display        # no box open, no line
        await pilot.press("t")
        await pilot.pause()
        assert "esc: back" in screen_text(app)              # the open box says how to close it
        await pilot.press(*"hi", "enter", "escape")
        await pilot.pause()
        assert me.view("T").chat[-1].text == "hi"
        assert app.focused is None or not isinstance(app.focused, Input)
        text = screen_text(app)
        assert "esc: back" not in text and "say something" not in text and " Player " not in text
        assert not screen.query_one("#chat-line").display and "Post the blind of" in text
        assert me.view("T").blind_prompt and not me.view("T").sitting_out
        await pilot.press("escape")                       # a second Esc: the lobby, no answer
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert me.view("T").blind_prompt and not me.view("T").sitting_out


async def test_missed_blinds_offer_post_now_or_wait(world):
    w, clients = alice_missed_the_blinds(world)
    alice = clients[0]
    t = w.room.tables["T"]
    seat = t.seats[alice.view("T").my_seat]
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        await pilot.press("s")                             # sit in
        await pilot.pause()
        assert not alice.view("T").sitting_out and alice.view("T").missed_blinds
        text = screen_text(app)
        # She missed the big blind: $2 live plus the $1 small blind dead (DESIGN, missed blinds).
        assert "You missed the blinds:  [p] Post $2 + $1 dead  [w] Wait for the big blind" in text
        footer = " ".join(text.splitlines()[-3:])
        assert "p Post now" in footer and "w Wait for big blind" in footer
        await pilot.press("w")
        await pilot.pause()
        assert seat.wants_post is False
        assert "(you will wait)" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        assert seat.wants_post is True
        assert "(you will post them)" in screen_text(app)
        # Play on: at a hand where I may, the missed blinds are posted and the question goes.
        for _ in range(6):
            play_out(w, clients)
            w.clock.advance(3.1)
            if not alice.view("T").missed_blinds:
                break
        assert not alice.view("T").missed_blinds
        screen.refresh_from_room()
        await pilot.pause()
        text = screen_text(app)
        assert "You missed the blinds" not in text and "Post missed blinds" not in text


async def test_a_missed_small_blind_alone_is_offered_as_that_blind_dead(world):
    """DESIGN (missed blinds): out only while his small blind came round, he owes just that, dead;
    the prompt says so and its amount."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol", "dave"])     # seats 2 to 5: blinds 3 and 4
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    carol = next(c for c in clients if c.view("T").my_seat == t.plan.big_blind)
    carol.sit_out("T")                                            # right after her big blind
    play_out(w, clients)
    w.clock.advance(3.1)
    assert carol.view("T").missed_blinds and carol.view("T").missed_posts == (0, 100)
    app = build_app(carol, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("s")                                    # sit in
        await pilot.pause()
        text = screen_text(app)
        assert "You missed the small blind:  [p] Post $1 dead  [w] Wait for the big blind" in text


async def test_a_new_player_may_post_a_big_blind_to_play_at_once_or_wait_for_it(world):
    """Seed 001: "A new player can choose to post the equivalent of the big blind to enter the
    game at any time except when he is between the button and the big blind position." Seen over
    ssh: a player who sat down in a game under way was only ever told "waiting"."""
    from tests.rooms import table_settings

    w = world(table_settings(seats=6), table_settings("Stud", game="stud"))
    # Four players: the next big blind is the fourth's, and the newcomer sits after him, where
    # waiting for the big blind would keep him out for several hands.
    clients = w.seat("T", ["alice", "bob", "carol", "dave"])
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    assert t.hand is not None and not t.hand.over         # a game under way
    dan = w.seat("T", ["dan"])[0]
    assert dan.view("T").new_player and not dan.view("T").missed_blinds
    seat = t.seats[dan.view("T").my_seat]
    app = build_app(dan, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        text = screen_text(app)
        assert "New here:  [p] Post the big blind now  [w] Wait for it" in text
        await pilot.press("p")
        await pilot.pause()
        assert seat.wants_post is True and "(you will post)" in screen_text(app)
        # The action line follows the answer (a play-tester read "Waiting for the big blind").
        assert "You will post when you may" in screen_text(app)
        assert "Waiting for the big blind" not in screen_text(app)
        await pilot.press("w")
        await pilot.pause()
        assert "Waiting for the big blind" in screen_text(app) and "(you will wait)" in screen_text(app)
        await pilot.press("p")
        await pilot.pause()
        play_out(w, clients + [dan])
        w.clock.advance(3.1)
        assert seat.number in t.hand_seats                 # dealt in at the next hand
        me = t.hand_seats.index(seat.number)
        posts = [e for e in t.hand.events if isinstance(e, ev.Posted) and e.player == me]
        assert [(e.kind, e.amount) for e in posts] == [("live", 200)]   # a big blind, live
        assert not dan.view("T").new_player
        app.screen.refresh_from_room()
        await pilot.pause()
        assert "New here" not in screen_text(app)
    stud = w.seat("Stud", ["erin", "fay"])
    w.clock.advance(0.01)
    late = w.seat("Stud", ["gus"])[0]
    assert not late.view("Stud").new_player                 # stud has no blinds to wait for
    assert stud


async def test_post_missed_blinds_now_while_sitting_out_also_sits_in(world):
    """Found by a play-tester: sitting out with missed blinds, p said "You will post your missed
    blinds as soon as you may", but the player stayed sitting out and was dealt out until s."""
    w, clients = alice_missed_the_blinds(world)
    alice = clients[0]
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("p")
        await pilot.pause()
        assert not alice.view("T").sitting_out
        assert w.room.tables["T"].seats[alice.view("T").my_seat].wants_post is True
