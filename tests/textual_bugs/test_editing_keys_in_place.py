"""The editing-keys-in-place fix (cardroom/textual_adapter.py), reproduced on stock Textual.

An Input inserts a printable key as soon as the key reaches it, but its editing keys (backspace,
the arrows, home/end...) are bindings: the Input lets the key bubble up through every container,
one message queue at a time, and only the app's binding check back at the top runs the action.
Keys that arrive together (one ssh packet, a paste of keystrokes, a fast typist on a slow server)
are all forwarded to the Input before the first editing key has made that trip, so the editing key
applies after the characters typed behind it: "105", backspace, "0" leaves "105" instead of "100".
The fix has the Input (and TextArea) run its own binding for the key as it receives it.
"""

from __future__ import annotations

import asyncio

import pytest
from textual import events
from textual.app import App
from textual.containers import Vertical
from textual.widgets import Input, TextArea

from cardroom import textual_adapter

BUG = ("Textual issue #6605 (8.2.8): an Input's or TextArea's editing keys run as bindings after "
       "bubbling to the app, so keys that arrive together apply out of order")


class Typing(App[None]):
    """An Input and a TextArea two containers down; F12, an app binding, marks the end of a burst."""

    BINDINGS = [("f12", "burst_done")]

    def __init__(self) -> None:
        super().__init__()
        self.done = asyncio.Event()

    def compose(self):
        with Vertical(), Vertical():
            yield Input()
            yield TextArea()

    def action_burst_done(self) -> None:
        self.done.set()


async def typed_together(widget_type: type, keys: list[str]) -> str:
    """Focus the widget and post the keys to the app at once, as a driver does with the keys of one
    packet; F12 after them bubbles up from the widget behind every key it let through."""
    app = Typing()
    async with app.run_test():
        widget = app.query_one(widget_type)
        app.screen.set_focus(widget)
        for key in [*keys, "f12"]:
            app.post_message(events.Key(key, key if len(key) == 1 else None))
        await asyncio.wait_for(app.done.wait(), 10)
        return widget.value if isinstance(widget, Input) else widget.text


@pytest.mark.parametrize("guards", [
    pytest.param((), id="stock", marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=BUG)),
    pytest.param(("editing-keys-in-place",), id="with-the-guard"),
])
@pytest.mark.parametrize("widget_type,keys,typed", [
    (Input, ["1", "0", "5", "backspace", "0"], "100"),
    (TextArea, ["a", "b", "left", "c"], "acb"),
], ids=["Input", "TextArea"])
async def test_editing_keys_typed_together_with_characters_apply_in_the_order_typed(guards, widget_type, keys,
                                                                                    typed):
    textual_adapter.install(guards)
    assert textual_adapter.installed() == guards
    assert await typed_together(widget_type, keys) == typed
