"""A terminal below 80x24 gets a "make the window bigger" screen instead of a squeezed, garbled
one; it goes when the window is made big enough (issue 22)."""

from __future__ import annotations

from cardroom.tui import UIOptions, build_app
from cardroom.tui.hotseat import HotSeatApp, seat_hotseat
from cardroom.tui.screens.table import TableScreen
from cardroom.tui.screens.too_small import TooSmallScreen
from cardroom.tui.screens.welcome import WelcomeScreen

from tests.rooms import table_settings
from .conftest import open_table, screen_text


async def test_a_small_terminal_is_asked_to_grow_and_the_room_comes_back_when_it_does(world):
    w = world()
    alice, _ = w.seat("T", ["alice", "bob"])
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        text = screen_text(app)
        assert "Make the window bigger" in text and "80x24" in text and "60x20" in text, text
        await pilot.press("enter")                     # keys do not reach the screens under it
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(79, 30)            # wide enough is not enough
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen) and "79x30" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen), app.screen_stack
        assert "Make the window bigger" not in screen_text(app)


async def test_shrinking_at_a_table_hides_it_and_growing_shows_what_happened_meanwhile(world):
    w = world()
    alice, bob = w.seat("T", ["alice", "bob"])
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        table = await open_table(app, pilot)
        w.clock.advance(0.01)
        await pilot.resize_terminal(70, 24)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        hand = w.room.tables["T"].hand
        while not hand.over:                           # the hand goes on without this screen
            w.actor([alice, bob]).act("T", "fold")
        await pilot.pause()
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert app.screen is table
        assert table.view.hand_id == alice.view("T").hand_id


async def test_a_hot_seat_in_a_small_terminal_does_not_pass_the_device_under_the_message(world):
    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=1, seed=3)
    w.clock.advance(0.01)
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        w.clock.advance(5)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        assert any(isinstance(s, TableScreen) for s in app.screen_stack)
