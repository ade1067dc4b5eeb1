"""My Money: balance, chips on each table, total."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardroom.tui.screens.welcome import money_text


class MoneyScreen(ModalScreen):
    BINDINGS = [Binding("escape,m,enter", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("My Money", id="dialog-title")
            yield Static(money_text(self.app.client.my_money()), id="money-text")
            yield Static("Esc to close", classes="dialog-line")

    def refresh_from_room(self) -> None:
        self.query_one("#money-text", Static).update(money_text(self.app.client.my_money()))

    def action_close(self) -> None:
        self.dismiss()
