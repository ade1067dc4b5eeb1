"""Welcome: who you are and your money; Enter goes to the lobby (and on to a table waiting for my
decision, for a player back after a dropped connection), `k` to my SSH keys."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Static

from cardroom.room.api import RoomError
from cardroom.tui.navigation import OpenHistory, OpenKeys, OpenLobby, OpenMoney
from cardroom.tui.render import money_text
from cardroom.tui.widgets.keys import KeyFooter

if TYPE_CHECKING:
    from textual import getters

    from cardroom.tui.shell import Shell


class WelcomeScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [Binding("enter", "lobby", "Lobby"), Binding("m", "money", "My Money"),
                Binding("h", "history", "History"), Binding("k", "keys", "My keys"),
                Binding("ctrl+q", "app.quit", "Quit")]

    def __init__(self, client) -> None:
        super().__init__()
        self.client = client     # the session's RoomClient

    def compose(self) -> ComposeResult:
        client = self.client
        with Vertical(classes="page"):
            yield Static(Text("cardroom", "bold"), id="welcome-title")
            yield Static(Text.assemble("Welcome, ", (client.name, "bold"), "."), id="welcome-who")
            yield Static("", id="welcome-money")
            waiting = client.waiting_for_me()
            yield Static(Text(f"It is your turn at {waiting[0]}: press Enter to go there." if waiting
                              else "Press Enter for the table list.", "italic"), id="welcome-next")
        yield KeyFooter()

    async def on_mount(self) -> None:
        try:
            text = money_text(await self.client.my_money())
        except RoomError as e:
            text = Text(f"Your money could not be read: {e}")
        if self.is_attached:
            self.query_one("#welcome-money", Static).update(text)

    async def action_lobby(self) -> None:
        # Back mid-hand (a dropped connection keeps the seat): the clock is running, so the table
        # waiting for me opens over the lobby at once; Escape goes back to the lobby.
        waiting = self.client.waiting_for_me()
        await self.app.navigate(OpenLobby(then_table=waiting[0] if waiting else None))

    async def action_money(self) -> None:
        await self.app.navigate(OpenMoney())

    async def action_keys(self) -> None:
        await self.app.navigate(OpenKeys())

    async def action_history(self) -> None:
        await self.app.navigate(OpenHistory())
