"""Toasts (notifications) sit above the key footer: they never cover its keys."""

from __future__ import annotations

import pytest

from cardroom.tui import UIOptions, build_app

from .conftest import notified, open_table, screen_text


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_toast_never_covers_the_footers_keys(world, size):
    """Issue 35: at 80x24 the footer is two or three lines, and Textual's toasts, which keep one
    line free, sat over its keys."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    me = next(c for c in clients if c.view("T").legal is None)
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=size, notifications=True) as pilot:
        await open_table(app, pilot)
        before = screen_text(app).splitlines()
        await pilot.press("c")                          # not his turn: a toast says so
        await pilot.pause(0.2)
        assert "It is not your turn" in notified(app)
        text = screen_text(app)
        assert "It is not your turn" in text            # shown ...
        footer = [line for line in before[-3:] if "^q quit" in line or "Sit out" in line]
        assert footer and all(line in text.splitlines() for line in footer)   # ... over no key


async def test_two_toasts_at_80x24_leave_the_tables_question_readable(world):
    """Textual pads each toast to four rows or more: at 80x24 two of them reached from the footer
    up over "Post the blind of $1?". A toast is its title and its line, nothing more."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"], auto_blind=False)
    w.clock.advance(0.01)
    me = next(c for c in clients if c.view("T").blind_prompt)
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24), notifications=True) as pilot:
        await open_table(app, pilot)
        # What the room says on sitting down (as refresh_from_room and the buy-in say it).
        app.notify("Bought in for $100")
        app.notify("post your blind to play this hand (Auto Blind is off)", title="T")
        await pilot.pause(0.2)
        assert len(notified(app).splitlines()) >= 2, notified(app)
        text = screen_text(app)
        assert "Post the blind of $1? [Enter] post  [s] sit out" in text
        assert "enter Post $1  s Sit out" in text    # the action bar's chips too
