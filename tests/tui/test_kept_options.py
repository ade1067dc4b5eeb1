"""Options and theme are kept per account across logins (issue 22: they reset every login)."""

from __future__ import annotations

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.options import OptionsDialog
from cardroom.tui.hotseat import HotSeatApp, seat_hotseat

from tests.rooms import table_settings
from .conftest import SIZE, open_table


async def _change_options(app, pilot, **ticks):
    await open_table(app, pilot)
    await pilot.press("o")
    await pilot.pause()
    assert isinstance(app.screen, OptionsDialog)
    for name, value in ticks.items():
        app.screen.query_one(f"#{name}").value = value
    await pilot.press("ctrl+s")
    await pilot.pause()


async def test_options_and_theme_are_kept_for_the_next_login(world):
    w = world()
    alice, _ = w.seat("T", ["alice", "bob"])
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await _change_options(app, pilot, four_colour=True, letters=True, sound=False)
        app.theme = "nord"                       # what the palette's "Change theme" does
        await pilot.pause()
    alice.close()
    again = w.room.connect("alice")              # log in again: a new app for the same account
    app = build_app(again)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        o = app.options
        assert (o.four_colour, o.letters, o.ascii, o.sound) == (True, True, False, False)
        assert app.theme == "nord"
    other = build_app(w.room.connect("bob"))     # another account keeps its own (none)
    async with other.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert other.options == UIOptions() and other.theme != "nord"


async def test_only_what_the_player_changed_is_kept(world):
    """A session's own default (ASCII for a terminal that is not UTF-8) is decided afresh at each
    login unless the player chose otherwise; his explicit choice wins."""
    w = world()
    alice, _ = w.seat("T", ["alice", "bob"])
    app = build_app(alice, options=UIOptions(ascii=True))      # a C-locale terminal
    async with app.run_test(size=SIZE) as pilot:
        await _change_options(app, pilot, four_colour=True)
    kept = alice.preferences()
    assert kept.pop("auto_blind") == "1"              # turned on at the table (w.seat): kept too
    assert kept == {"four_colour": "1"}
    app = build_app(w.room.connect("alice"), options=UIOptions(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await _change_options(app, pilot, ascii=False)         # he wants symbols all the same
    app = build_app(w.room.connect("alice"), options=UIOptions(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.options.ascii is False and app.options.four_colour is True


async def test_a_shared_hot_seat_keeps_nobodys_options_and_a_solo_one_keeps_his(world):
    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=1, seed=3)
    w.clock.advance(0.01)
    app = HotSeatApp(hs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.theme = "nord"
        app.keep(app.options.change({"letters": True}))
        await pilot.pause()
    assert hs.clients["alice"].preferences() == {} and hs.clients["bob"].preferences() == {}

    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["ann"], bots=2, seed=5)
    w.clock.advance(0.01)
    app = HotSeatApp(hs)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.theme = "nord"
        await pilot.pause()
    assert hs.clients["ann"].preferences() == {"theme": "nord"}


async def test_auto_blind_ticked_in_options_is_kept_for_the_next_login(world):
    """Issue 35: Auto Blind was the one option not kept between logins."""
    w = world(table_settings("T"), table_settings("U"))
    alice, _ = w.seat("T", ["alice", "bob"], auto_blind=False)
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await _change_options(app, pilot, auto_blind=True)
        assert alice.view("T").auto_blind is True
    alice.leave("T")
    alice.close()
    again = w.room.connect("alice")
    again.join("U")
    assert again.view("U").auto_blind is True
    app = build_app(again)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await app.open_table("U")
        await pilot.pause()
        await pilot.press("o")
        await pilot.pause()
        assert app.screen.query_one("#auto_blind").value is True   # the dialog shows it kept
