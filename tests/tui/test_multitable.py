"""Multi-tabling: one session seated at several tables switches between them, sees which wait for
its decision (lobby column, table-screen line, bell), and keeps its seats when it goes back to the
lobby. Real room, real SQLite, FakeClock."""

from __future__ import annotations

from cardroom.tui import UIOptions, build_app
from cardroom.tui.screens.lobby import LobbyScreen
from cardroom.tui.screens.table import TableScreen

from tests.rooms import table_settings
from .conftest import SIZE, others_until, passive, screen_text


def sit(w, clients, table, stack=10_000):
    """Seat already-connected clients at another table (a second connect would take over), Auto
    Blind on (it starts off, seed 000)."""
    for c in clients:
        c.join(table)
        c.set_auto_blind(table, True)
        c.buy_in(table, stack)


def others_line(app) -> str:
    return str(app.screen.query_one("#table-others").render())


async def test_switch_between_two_tables_and_see_who_waits(world):
    w = world(table_settings("A"), table_settings("B"))
    alice, bob = w.seat("A", ["alice", "bob"])
    sit(w, [alice, bob], "B")
    others_until(w, [alice, bob], alice, table="A")
    others_until(w, [alice, bob], alice, table="B")
    assert set(alice.waiting_for_me()) == {"A", "B"}
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")                      # the welcome's Enter: a table waiting for me
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table in ("A", "B")
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        assert text.count("\u2605 turn") == 2 and "2 tables waiting for you" in text
        assert "] My next table" in text
        await pilot.press("enter")                      # the first row: A
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table == "A"
        assert "1 other table waiting: B" in others_line(app)
        assert "] Next table" in screen_text(app)
        await pilot.press("f")                          # fold at A: heads-up, the hand is over
        await pilot.pause()
        assert "A" not in alice.waiting_for_me()
        await pilot.press("right_square_bracket")       # to B, which waits for me
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table == "B"
        assert "Your turn" in screen_text(app)
        assert "Also seated at: A" in others_line(app)
        assert len(app.screen_stack) == 3               # switched in place, not stacked
        await pilot.press("c")                          # act at B from its own screen
        await pilot.pause()
        assert "alice" in " ".join(c.text for c in alice.view("B").chat[-2:])
        await pilot.press("escape")                     # back to the lobby: the seats stay
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert alice.my_tables() == ["A", "B"]
        assert screen_text(app).count("seated") >= 1
        await pilot.press("right_square_bracket")       # the lobby's key opens one of my tables
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table in ("A", "B")


async def test_the_waiting_line_updates_live_and_rings(world):
    w = world(table_settings("A"), table_settings("B"), table_settings("C"))
    alice, bob = w.seat("A", ["alice", "bob"])
    sit(w, [alice, bob], "B")
    sit(w, [alice, bob], "C")
    others_until(w, [alice, bob], alice, table="A")
    # B and C: bob to act (it is not my decision there yet).
    others_until(w, [alice, bob], bob, table="B")
    others_until(w, [alice, bob], bob, table="C")
    app = build_app(alice, options=UIOptions(sound=True))
    rings = []
    app.bell = lambda: rings.append(1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.screen.table == "A"
        assert "Also seated at: B, C" in others_line(app)
        rings.clear()
        while "C" not in alice.waiting_for_me():        # bob plays on at C until it waits for me
            passive(bob, "C")
        await pilot.pause()
        await pilot.pause()
        assert "C" in alice.waiting_for_me()
        assert "1 other table waiting: C" in others_line(app)
        assert rings, "the bell rings when another table needs me"
        assert app.screen.query_one("#table-others").has_class("-waiting")
        await pilot.press("f")                          # done at A; B does not wait, C does
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.screen.table == "C"                  # the waiting one first, not the next one
        assert "Your turn" in screen_text(app)
        await pilot.press("ctrl+n")                     # nothing waits: simply the next (A)
        await pilot.pause()
        assert app.screen.table == "A"


async def test_one_table_no_switch_key_and_no_line(world):
    w = world(table_settings("A"), table_settings("B"))
    alice, bob = w.seat("A", ["alice", "bob"])
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.screen.table == "A"
        assert not app.screen.query_one("#table-others").display
        assert "Next table" not in screen_text(app)
        await pilot.press("ctrl+n")                     # no other table: the key does nothing
        await pilot.pause()
        assert app.screen.table == "A"


async def test_holds_survive_a_switch(world):
    w = world(table_settings("A", game="a5-draw"), table_settings("B"))
    alice, bob = w.seat("A", ["alice", "bob"])
    sit(w, [alice, bob], "B")
    others_until(w, [alice, bob], alice, lambda v: v.legal.phase == "draw", table="A")
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert app.screen.table == "A"
        await pilot.press("2", "4")
        await pilot.pause()
        assert app.screen.holds == {1, 3}
        await pilot.press("right_square_bracket", "right_square_bracket")
        await pilot.pause()
        assert app.screen.table == "A" and app.screen.holds == {1, 3}
