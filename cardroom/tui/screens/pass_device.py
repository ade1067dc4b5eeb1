"""Hot-seat: "Pass to NAME, press Enter". Covers the whole screen: nothing private shows."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle
from textual.screen import Screen
from textual.widgets import Static


class PassScreen(Screen):
    AUTO_FOCUS = None
    BINDINGS = [Binding("enter", "take", "I am here")]

    def __init__(self, client) -> None:
        super().__init__()
        self.client = client

    def compose(self) -> ComposeResult:
        with Middle():
            with Center():
                yield Static(self._text(), id="pass-text")

    def _text(self) -> Text:
        return Text.assemble("Pass to ", (self.client.name, "bold"), ", press Enter", justify="center")

    def set_player(self, client) -> None:
        self.client = client
        self.query_one("#pass-text", Static).update(self._text())

    def action_take(self) -> None:
        self.dismiss(self.client)
