"""The keys-meet-bindings-at-once fix (cardroom/textual_adapter.py), reproduced on stock Textual.

Textual forwards a key to the focused widget and lets it bubble up the DOM one message queue at a
time; only when it is back at the app are the bindings checked. Keys that arrive together (one ssh
packet) are all forwarded to the focused widget before the first has made that trip, so a binding
that moves the focus or opens a dialog ("r" to raise, then the amount) acts after the keys typed
behind it were already sent on to the old focus: "r10" puts nothing in the amount box. The fix has
the app check the bindings in the turn the key reaches it when nothing on the key's way would
handle it. A dialog the binding opens then mounts before the next key is dispatched (Textual waits
for a screen the app pushes); one that a screen opens as it mounts needs keys-wait-for-their-screen
as well (test_keys_wait_for_their_screen.py).
"""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.app import App
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Input, Static

from cardroom import textual_adapter

BUG = ("Textual 8.2.8: a key meets the bindings only after bubbling up from the focused widget, so a "
       "binding that moves the focus or opens a dialog acts after the keys typed behind it went to the old focus")


class Focusable(Static, can_focus=True):
    pass


class AmountDialog(Screen[None]):
    def compose(self):
        yield Input()


class Table(App[None]):
    """The focus three containers down on a static; "r" moves it to the amount box, "d" opens a
    dialog with one. F12, an app binding, marks the end of a burst."""

    BINDINGS = [("r", "amount"), ("d", "dialog"), ("f12", "burst_done")]

    def __init__(self) -> None:
        super().__init__()
        self.done = asyncio.Event()

    def compose(self):
        with Vertical(), Horizontal():
            yield Focusable("the table", id="table")
        yield Input(id="amount")

    def on_mount(self) -> None:
        self.screen.set_focus(self.query_one("#table"))

    def action_amount(self) -> None:
        self.screen.set_focus(self.query_one("#amount"))

    def action_dialog(self) -> None:
        self.push_screen(AmountDialog())

    def action_burst_done(self) -> None:
        self.done.set()


@pytest.mark.parametrize("guards", [
    pytest.param((), id="stock", marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=BUG)),
    pytest.param(("keys-meet-bindings-at-once",), id="with-the-guard"),
])
@pytest.mark.parametrize("key", ["r", "d"], ids=["moves-the-focus", "opens-a-dialog"])
async def test_keys_typed_together_after_a_binding_that_moves_the_focus_go_to_the_new_focus(guards, key):
    textual_adapter.install(guards)
    assert textual_adapter.installed() == guards
    app = Table()
    async with app.run_test():
        for typed in [key, "1", "0", "f12"]:    # together, as a driver posts the keys of one packet
            app.post_message(events.Key(typed, typed if len(typed) == 1 else None))
        await asyncio.wait_for(app.done.wait(), 10)
        assert isinstance(app.focused, Input) and app.focused.id == ("amount" if key == "r" else None)
        assert app.focused.value == "10"
