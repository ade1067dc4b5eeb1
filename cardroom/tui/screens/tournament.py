"""A tournament's own lobby: its state and level, my standing, every player's chips and place (those
in by chips, those out by place with their prizes), its tables (Enter watches one as a railbird;
Enter on a player watches his table), the payouts for the entries so far and the level schedule
from the level in force.

`r` registers (or re-enters), `u` unregisters (the room refuses it once the tournament has started,
and its reason is shown as every refusal is); Esc goes back. It reads `client.tournament(number)`
whenever the room says something changed (a registered player hears of every registration,
level, place ...) and every few seconds (one who has not registered is not told), and redraws
only the parts whose data changed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from cardroom.room.api import RoomError, TournamentView
from cardroom.tui.navigation import OpenTable
from cardroom.tui.render import money
from cardroom.tui.tournament_text import (PLAYER_COLUMNS, TABLE_COLUMNS, levels_text, payouts_text,
                                          player_rows, player_table, standing, table_rows, title)
from cardroom.tui.widgets.keys import KeyFooter
from cardroom.tui.widgets.picklist import PickList

if TYPE_CHECKING:
    from textual import getters
    from textual.timer import Timer

    from cardroom.tui.shell import Shell

READ_EVERY = 5.0     # seconds: what a player not registered is not told of (as the lobby's list)


class TournamentScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [
        Binding("enter", "watch", "Watch table"),
        Binding("r", "register", "Register"),
        Binding("u", "unregister", "Unregister"),
        Binding("tab", "app.focus_next", "Players/Tables"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, number: int, client) -> None:
        super().__init__()
        self.number = number
        self.client = client         # the session's RoomClient
        self.view: TournamentView | None = None
        self._shown: dict = {}       # part -> the data it was last drawn from
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="tournament-title", markup=False)
        yield Static("", id="tournament-me", markup=False)
        with Horizontal(id="tournament-body"):
            yield PickList(id="tournament-players", zebra_stripes=True)
            with Vertical(id="tournament-side"):
                yield Static(Text("Tables", "bold"), classes="tournament-head")
                yield PickList(id="tournament-tables")
                yield Static(Text("Payouts", "bold"), classes="tournament-head")
                yield Static("", id="tournament-payouts", markup=False)
                yield Static(Text("Levels", "bold"), classes="tournament-head")
                yield Static("", id="tournament-levels", markup=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#tournament-players", PickList).set_columns(PLAYER_COLUMNS)
        self.query_one("#tournament-tables", PickList).set_columns(TABLE_COLUMNS)
        self.refresh_from_room()
        self.query_one("#tournament-players", PickList).focus()
        self._timer = self.set_interval(READ_EVERY, self.refresh_from_room)

    def on_screen_resume(self) -> None:
        self.refresh_from_room()
        if self._timer is not None:
            self._timer.resume()

    def on_screen_suspend(self) -> None:
        if self._timer is not None:
            self._timer.pause()

    # ------------------------------------------------------------------ what is shown
    def refresh_from_room(self) -> None:
        try:
            view = self.client.tournament(self.number)
        except RoomError as e:
            why = str(e)
            self._part("title", why, lambda: Text(why, "bold red"), "#tournament-title")
            return
        before = self.view
        self.view = view
        heading = title(view)         # compared as drawn: the summary's times change at every read
        self._part("title", heading, lambda: heading, "#tournament-title")
        self._part("me", (view.me, view.my_rank, view.registered, view.may_register, view.summary.state,
                          view.summary.prize_pool, view.summary.entries, view.summary.players_left),
                   lambda: standing(view), "#tournament-me")
        self._part("payouts", view.payouts, lambda: payouts_text(view), "#tournament-payouts")
        self._part("levels", (view.level, view.levels), lambda: levels_text(view),
                   "#tournament-levels")
        self._rows("players", player_rows(view), "#tournament-players")
        self._rows("tables", table_rows(view), "#tournament-tables")
        if before is None or (before.registered, before.may_register) != (view.registered, view.may_register):
            self.refresh_bindings()

    def _part(self, part: str, data, text, selector: str) -> None:
        """Redraw one part only when the data it shows has changed."""
        if self._shown.get(part) != data:
            self._shown[part] = data
            self.query_one(selector, Static).update(text())

    def _rows(self, part: str, rows: list, selector: str) -> None:
        if self._shown.get(part) != rows:
            self._shown[part] = rows
            self.query_one(selector, PickList).set_rows(rows)

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        v = self.view
        if v is None:
            return True
        if action == "register":
            # Not registered, r is always there: when the room refuses, its refusal says why.
            return not v.registered or not v.may_register
        if action == "unregister":
            return v.registered
        return True

    async def action_register(self) -> None:
        v = self.view
        try:
            entry = await self.client.register(self.number)
        except RoomError as e:
            self.notify(str(e), title="Not registered", severity="error", markup=False)
        else:
            cost = v.summary.buy_in + v.summary.fee if v is not None else 0
            self.notify(f"You are registered (entry {entry})" + (f": {money(cost)} left your balance" if cost else ""),
                        markup=False)
        self.refresh_from_room()

    async def action_unregister(self) -> None:
        try:
            await self.client.unregister(self.number)
        except RoomError as e:
            self.notify(str(e), title="Not unregistered", severity="error", markup=False)
        else:
            cost = v.summary.buy_in + v.summary.fee if (v := self.view) is not None else 0
            self.notify("You are unregistered" + (f": {money(cost)} is back in your balance" if cost else ""),
                        markup=False)
        self.refresh_from_room()

    def _picked_table(self) -> str | None:
        """The table under the cursor of the list that has the focus (a player's: his table)."""
        v = self.view
        if v is None:
            return None
        focused = self.focused
        if isinstance(focused, PickList) and focused.id == "tournament-tables":
            name = focused.cursor_key                 # the tables' rows are keyed by name
            return name if isinstance(name, str) else None
        key = self.query_one("#tournament-players", PickList).cursor_key     # ("entry", number)
        return player_table(v, key[1]) if isinstance(key, tuple) else None

    async def action_watch(self) -> None:
        name = self._picked_table()
        if name is None:
            self.notify("No table to watch there", severity="warning")
            return
        try:
            await self.client.watch(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        await self.app.navigate(OpenTable(name))

    async def on_pick_list_selected(self, event: PickList.Selected) -> None:
        event.stop()
        await self.action_watch()

    def action_back(self) -> None:
        self.app.pop_screen()
