"""My Money: balance, chips on each table, total; `k` opens My keys (not in hot-seat)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from cardroom.room.api import RoomError
from cardroom.tui.navigation import OpenKeys
from cardroom.tui.render import money_text

if TYPE_CHECKING:
    from textual import getters

    from cardroom.tui.shell import Shell


class MoneyScreen(ModalScreen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [Binding("escape,m,enter", "close", "Close"), Binding("k", "keys", "My keys")]

    def __init__(self, client, *, shared: bool = False) -> None:
        super().__init__()
        self.client = client     # the RoomClient whose money this is
        self.shared = shared     # a shared (hot-seat) terminal: no SSH keys from here

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("My Money", id="dialog-title")
            yield Static("", id="money-text")
            yield Static("k: my SSH keys   Esc to close" if not self.shared else "Esc to close",
                         classes="dialog-line")

    async def on_mount(self) -> None:
        await self.refresh_from_room()

    async def refresh_from_room(self) -> None:
        try:
            text = money_text(await self.client.my_money())
        except RoomError as e:
            text = Text(f"Your money could not be read: {e}")
        if self.is_attached:
            self.query_one("#money-text", Static).update(text)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "keys":     # not on a shared (hot-seat) terminal
            return not self.shared
        return True

    async def action_keys(self) -> None:
        if self.shared:
            return
        await self.app.navigate(OpenKeys())

    def action_close(self) -> None:
        self.dismiss()
