"""The blind questions at the table: the blind prompt (Auto Blind off) and missed blinds."""

from __future__ import annotations

from cardroom.engine import events as ev
from cardroom.tui import UIOptions, build_app
from cardroom.tui.screens.lobby import LobbyScreen

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
            assert f"Post the blind of {dollars}? [Enter] post  [Esc] sit out" in text
            footer = " ".join(text.splitlines()[-3:])
            assert "\u23ce Post blind" in footer and "esc Sit out" in footer   # \u23ce: enter
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


async def test_blind_prompt_escape_declines_and_sits_out(world):
    w = world()
    alice, bob, carol = seat_without_auto_blind(w, ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    asked = [c for c in (alice, bob, carol) if c.view("T").blind_prompt]
    me = asked[0]
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        assert "Post the blind of" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is screen                       # Esc answered: still at the table
        assert me.view("T").sitting_out and not me.view("T").blind_prompt
        assert "Post the blind of" not in screen_text(app)
        assert "s Sit in" in screen_text(app)
        await pilot.press("escape")                       # now Esc is the lobby again
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_missed_blinds_offer_post_now_or_wait(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    alice.sit_out("T")
    for _ in range(6):                                     # sit out through a big blind
        play_out(w, clients)
        w.clock.advance(3.1)
        if alice.view("T").missed_blinds:
            break
    assert alice.view("T").missed_blinds and alice.view("T").sitting_out
    seat = t.seats[alice.view("T").my_seat]
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        await pilot.press("s")                             # sit in
        await pilot.pause()
        assert not alice.view("T").sitting_out and alice.view("T").missed_blinds
        text = screen_text(app)
        assert "You missed the blinds:  [p] Post missed blinds now  [w] Wait for the big blind" in text
        footer = " ".join(text.splitlines()[-3:])
        assert "p Post missed blinds" in footer and "w Wait for big blind" in footer
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
