"""My keys: list (this session's key marked), add by pasting a public key line, remove with a
confirmation; the room's refusals are shown. Real keys, made by asyncssh."""

from __future__ import annotations

import asyncssh
from textual import events
from textual.widgets import DataTable, Input

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.confirm import Confirm
from cardroom.tui.screens.keys import KeysScreen
from cardroom.tui.screens.money import MoneyScreen
from cardroom.tui.screens.welcome import WelcomeScreen

from .conftest import SIZE, screen_text


def new_key():
    key = asyncssh.generate_private_key("ssh-ed25519")
    return key.export_public_key().decode(), key.get_fingerprint("sha256")


async def paste(pilot, screen, text: str) -> None:
    box = screen.query_one("#key-input", Input)
    box.value = ""
    box.focus()
    box.post_message(events.Paste(text))
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


def status(screen) -> str:
    return str(screen.query_one("#keys-status").render())


async def test_my_keys_list_add_and_remove_with_refusals_shown(world):
    w = world()
    line1, fp1 = new_key()
    line2, fp2 = new_key()
    bob_line, bob_fp = new_key()
    w.room.connect("bob", bob_fp)
    alice = w.room.connect("alice", fp1)
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "k My keys" in screen_text(app)
        await pilot.press("k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, KeysScreen)
        text = screen_text(app)
        assert fp1 in text and "this session" in text
        assert "a Add a key" in text and "Remove key" in text

        # My only key: the removal is confirmed, then refused, and the refusal is shown.
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "Remove the key" in screen_text(app) and "Remove (Enter)" in screen_text(app)
        assert fp1 in app.screen.question and "the key you logged in with" in app.screen.question
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is screen
        assert "only key" in status(screen) and alice.keys() == (fp1,)

        # Garbage, then a key that is someone else's: clear messages, nothing added.
        await pilot.press("a")
        assert screen.query_one("#key-input", Input).has_focus
        await paste(pilot, screen, "hello there")
        assert "Not added: paste a public key line" in status(screen)
        assert "Not added:" in screen_text(app)
        await paste(pilot, screen, "ssh-ed25519 !!!notbase64")
        assert "not valid base64" in status(screen)
        await paste(pilot, screen, bob_line)
        assert "another account" in status(screen)
        assert alice.keys() == (fp1,)

        # A real key line (as pasted from a .pub file, newline and comment included).
        await paste(pilot, screen, line2.strip() + " alice@laptop\n")
        assert f"Added {fp2}" in status(screen)
        assert set(alice.keys()) == {fp1, fp2}
        text = screen_text(app)
        assert fp1 in text and fp2 in text
        table = screen.query_one(DataTable)
        assert not table.has_focus and screen.selected() == fp2     # the paste box keeps it
        await paste(pilot, screen, line2)
        assert "already yours" in status(screen)

        # Remove the new key: cancel first, then confirm.
        table.focus()
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, Confirm) and fp2 in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert set(alice.keys()) == {fp1, fp2}
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert alice.keys() == (fp1,)
        assert f"Removed {fp2}" in status(screen)
        assert [str(k.value) for k in table.rows] == [fp1]

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, WelcomeScreen)

        # From My Money too.
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, MoneyScreen)
        await pilot.press("k")
        await pilot.pause()
        assert isinstance(app.screen, KeysScreen) and fp1 in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MoneyScreen)


async def test_my_keys_without_a_key(world):
    w = world()
    carol = w.room.connect("carol")             # no key (a test or local session)
    app = build_app(carol, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        assert "you have none" in screen_text(app)
        line, fp = new_key()
        await pilot.press("a")
        await paste(pilot, app.screen, line)
        assert carol.keys() == (fp,)
        assert fp in screen_text(app) and "this session" not in screen_text(app)


async def test_a_key_pasted_while_the_list_has_the_focus_goes_into_the_paste_box(world):
    """The screen says "paste a public key line, then Enter": a paste straight away (the key list has
    the focus) fills the box, and Enter adds the key. Before, the paste went nowhere."""
    w = world()
    line1, fp1 = new_key()
    line2, fp2 = new_key()
    alice = w.room.connect("alice", fp1)
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(app.focused, DataTable)
        app.post_message(events.Paste(line2 + "\n"))    # as a terminal's bracketed paste arrives
        await pilot.pause()
        assert screen.query_one("#key-input", Input).has_focus
        await pilot.press("enter")
        await pilot.pause()
        assert set(w.store.keys(alice.account_id)) == {fp1, fp2}


async def test_my_keys_opens_from_the_lobby_and_keeps_the_paste_box_after_adding(world):
    """Issue 22: My keys was reached only from the welcome screen and My Money, and after a key
    was added the focus went to the list, so the next paste went astray."""
    w = world()
    line1, fp1 = new_key()
    line2, fp2 = new_key()
    alice = w.room.connect("alice", fp1)
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert "k My keys" in screen_text(app)
        await pilot.press("k")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, KeysScreen)
        await paste(pilot, screen, line2)
        assert fp2 in alice.keys()
        assert screen.query_one("#key-input", Input).has_focus
