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

    def __init__(self, client, *, shared: bool = False) -> None:
        super().__init__()
        self.client = client     # the RoomClient whose money this is
        self.shared = shared     # a shared (hot-seat) terminal: no SSH keys from here

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("My Money", id="dialog-title")
            yield Static(money_text(self.client.my_money()), id="money-text")
            yield Static("k: my SSH keys   Esc to close" if not self.shared else "Esc to close",
                         classes="dialog-line")

    def refresh_from_room(self) -> None:
        self.query_one("#money-text", Static).update(money_text(self.client.my_money()))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "keys":     # not on a shared (hot-seat) terminal
            return not self.shared
        return True

    def action_keys(self) -> None:
        if self.shared:
            return
        self.app.navigate(OpenKeys())

    def action_close(self) -> None:
        self.dismiss()
