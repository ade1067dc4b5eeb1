"""My Money: balance, chips on each table, total; `k` opens My keys (not in hot-seat)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardroom.tui.navigation import OpenKeys
from cardroom.tui.render import money_text


class MoneyScreen(ModalScreen):
    BINDINGS = [Binding("escape,m,enter", "close", "Close"), Binding("k", "keys", "My keys")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("My Money", id="dialog-title")
            yield Static(money_text(self.app.client.my_money()), id="money-text")
            yield Static("k: my SSH keys   Esc to close" if self.app.hotseat is None else "Esc to close",
                         classes="dialog-line")

    def refresh_from_room(self) -> None:
        self.query_one("#money-text", Static).update(money_text(self.app.client.my_money()))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "keys":     # not on a shared (hot-seat) terminal
            return self.app.hotseat is None
        return True

    def action_keys(self) -> None:
        if self.app.hotseat is not None:
            return
        self.post_message(OpenKeys())

    def action_close(self) -> None:
        self.dismiss()
