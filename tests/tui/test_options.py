"""The Options dialog at the smallest terminal the room supports (80x24)."""

from __future__ import annotations

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.options import OptionsDialog

from .conftest import notified, open_table, screen_text
from .test_blinds import alice_missed_the_blinds


async def test_seated_options_show_their_buttons_at_80x24(world):
    """Issue 22: seated at 80x24 (owing the blinds: six ticks of three lines each) the dialog
    pushed Save, Change table stake and Cancel below the screen's edge."""
    w, clients = alice_missed_the_blinds(world)
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsDialog)
        text = screen_text(app)
        for label in ("Save", "Change table stake", "Cancel", "Auto Blind", "Post missed blinds", "Sound"):
            assert label in text, text
        lines = text.splitlines()
        buttons = next(i for i, line in enumerate(lines) if "Cancel" in line)
        assert any("\u2584" in line for line in lines[buttons + 1:]), text   # the dialog's bottom edge


async def test_esc_in_options_says_the_changes_were_not_saved(world):
    """Esc dropped the changes without a word."""
    w = world()
    clients = w.seat("T", ["alice", "bob"], stack=10_000)
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        await pilot.press("o")
        await pilot.pause()
        app.screen.query_one("#sound").toggle()
        await pilot.press("escape")
        await pilot.pause()
        assert app.options.sound is False
        assert "not saved" in notified(app)
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("escape")                 # nothing changed: nothing to say again
        await pilot.pause()
        assert notified(app).count("not saved") == 1
