"""Who holds this terminal: what the screens read of the room through it.

    device = OwnTerminal(client)          # a player's own terminal (ssh, tests)
    TableScreen(name, device)             # the app builds it once (`app.device`) and gives it on

A screen reads its table's view, the room's clock and the name of whoever is at the keyboard from
the device it was given, asks it before showing anyone's own things, and tells it when a decision
was made; it never asks the app. On a player's own terminal all of it is simply that player's
(`OwnTerminal`); a terminal passed between local players (hot-seat) is `SharedTerminal` in
tui/hotseat.py, which hides everyone's hidden cards while nobody has taken the device.
"""

from __future__ import annotations

from typing import Protocol

from cardroom.room.api import TableView


class Device(Protocol):
    """Who holds this terminal now, as a screen needs to know it."""

    # The RoomClient of whoever is at this terminal now (in hot-seat it changes hands).
    client: object
    # Several people share this terminal (hot-seat): no seat-taking, no lobby, nobody's own
    # things between their turns.
    shared: bool

    def view(self, table: str) -> TableView:
        """The view of `table` a screen may draw now."""

    def now(self) -> float:
        """The room's clock (seconds), which the table's decision clock runs on."""

    def who(self) -> str:
        """The name of the player at the keyboard ("" when nobody's may be shown)."""

    def private_ok(self) -> bool:
        """May the player's own things (money, histories, chat) be shown or used now?"""

    async def acted(self) -> None:
        """Called after the player's decision at a table."""


class OwnTerminal:
    """A player's own terminal: everything is that player's, always."""

    shared = False

    def __init__(self, client) -> None:
        self.client = client

    def view(self, table: str) -> TableView:
        return self.client.view(table)

    def now(self) -> float:
        return self.client.now()

    def who(self) -> str:
        return self.client.name

    def private_ok(self) -> bool:
        return True

    async def acted(self) -> None:
        """Nothing to do on one's own terminal."""
