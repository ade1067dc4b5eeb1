"""The keys-wait-for-their-screen fix (cardroom/textual_adapter.py), reproduced on stock Textual.

Pushing a screen only starts it: the screen composes, mounts and focuses its input in its own
task. Textual holds the app's next message until a screen the app pushed in its own handler has
mounted, but not one pushed from elsewhere, such as a screen that opens a dialog as it mounts (the
table screen opens the buy-in prompt). Keys already in the app's queue (the rest of the ssh packet,
typed ahead by a player who knows what comes next) are then dispatched to a screen that has
nothing focused yet, and are lost: "j100" at the lobby joined the table and never bought in. The
fix holds the keys that find the app's screen not mounted until it is (at most TYPEAHEAD_WAIT),
then dispatches them in order, as a terminal's type-ahead does.
"""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.app import App
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static

from cardroom import textual_adapter

BUG = ("Textual 8.2.8: keys dispatched while a screen opened from another screen's handler is still "
       "mounting go to it before it has focused anything, and are lost")


class BuyInPrompt(Screen[None]):
    def compose(self):
        yield Input()


class Table(Screen[None]):
    """Opens its buy-in prompt as it mounts."""

    def compose(self):
        yield Static("the table")

    def on_mount(self) -> None:
        self.app.push_screen(BuyInPrompt())


class Lobby(App[None]):
    """The Offered message (the room offering a seat) and "j" (joining) open the table screen.
    F12, an app binding, marks the end of a burst."""

    BINDINGS = [("j", "join"), ("f12", "burst_done")]

    class Offered(Message):
        pass

    def __init__(self) -> None:
        super().__init__()
        self.done = asyncio.Event()

    def compose(self):
        yield Static("the lobby")

    def on_lobby_offered(self) -> None:
        self.push_screen(Table())

    def action_join(self) -> None:
        self.push_screen(Table())

    def action_burst_done(self) -> None:
        self.done.set()


async def typed_ahead(first, keys: list[str]) -> str:
    """Post `first` (a message or a key) and the keys behind it at once, as a driver posts the
    keys of one packet; what the buy-in prompt then holds."""
    app = Lobby()
    async with app.run_test():
        for message in [first, *(events.Key(key, key if len(key) == 1 else None) for key in [*keys, "f12"])]:
            app.post_message(message)
        await asyncio.wait_for(app.done.wait(), 10)
        assert isinstance(app.screen, BuyInPrompt)
        return app.screen.query_one(Input).value


@pytest.mark.parametrize("guards", [
    pytest.param((), id="stock", marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=BUG)),
    pytest.param(("keys-wait-for-their-screen",), id="with-the-guard"),
])
async def test_keys_typed_ahead_of_a_screen_go_to_it(guards):
    """The room offers a seat: the app opens the table screen, which opens the buy-in prompt as it
    mounts, and "100" was typed behind the offer. Stock Textual loses the "1" (the prompt is up by
    the "0"s: the app waited for the table screen, not for the prompt)."""
    textual_adapter.install(guards)
    assert textual_adapter.installed() == guards
    assert await typed_ahead(Lobby.Offered(), ["1", "0", "0"]) == "100"


def _xfail(why: str):
    return pytest.mark.xfail(strict=True, raises=AssertionError, reason=f"{BUG} ({why})")


@pytest.mark.parametrize("guards", [
    pytest.param((), id="stock", marks=_xfail("nor does the binding run before the keys behind it")),
    pytest.param(("keys-wait-for-their-screen",), id="this-guard-alone",
                 marks=_xfail("the binding runs after the keys behind it went to the lobby")),
    pytest.param(("keys-meet-bindings-at-once",), id="without-this-guard", marks=_xfail("the keys do not wait")),
    pytest.param(("keys-meet-bindings-at-once", "keys-wait-for-their-screen"), id="with-the-guard"),
])
async def test_keys_typed_ahead_of_the_screen_their_first_key_opens_go_to_it(guards):
    """"j100" in one packet takes both fixes: the binding of "j" must run before "1" is dispatched
    (keys-meet-bindings-at-once) and "1" onwards must wait for the prompt (this one)."""
    textual_adapter.install(guards)
    assert textual_adapter.installed() == guards
    assert await typed_ahead(events.Key("j", "j"), ["1", "0", "0"]) == "100"
