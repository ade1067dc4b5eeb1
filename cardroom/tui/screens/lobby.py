"""The lobby: every table with its game, stakes, seats taken, wait list, railbirds, average pot,
hands an hour; watch (Enter), join (j) or join the wait list (w)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from cardroom.tui.widgets.keys import KeyFooter
from textual.widgets import DataTable, Static

from cardroom.room.api import RoomError
from cardroom.tui.render import money

COLUMNS = ("Table", "Game", "Stakes", "Seats", "Waiting", "Railbirds", "Avg pot", "Hands/h", "Status")


class LobbyScreen(Screen):
    BINDINGS = [
        Binding("enter", "watch", "Watch"),
        Binding("j", "join", "Join"),
        Binding("w", "wait_list", "Wait list"),
        Binding("m", "money", "My Money"),
        Binding("h", "history", "History"),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("Tables", "bold"), "   ", self.app.client.name), id="lobby-title")
        table = DataTable(id="lobby-table", cursor_type="row", zebra_stripes=True)
        yield table
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for c in COLUMNS:
            table.add_column(c, key=c)
        self.refresh_from_room()
        table.focus()
        self.set_interval(5.0, self.refresh_from_room)

    def on_screen_resume(self) -> None:
        self.refresh_from_room()

    def refresh_from_room(self) -> None:
        table = self.query_one(DataTable)
        rows = self.app.client.lobby()
        names = [r.name for r in rows]
        existing = [str(k.value) for k in table.rows]
        if existing != names:
            table.clear()
            for r in rows:
                table.add_row(*self._cells(r), key=r.name)
            return
        for r in rows:
            for col, cell in zip(COLUMNS, self._cells(r)):
                if table.get_cell(r.name, col) != cell:
                    table.update_cell(r.name, col, cell)

    @staticmethod
    def _cells(r) -> tuple:
        return (Text(r.name), Text(r.game), Text(r.stakes), f"{r.players}/{r.seats}", str(r.waiting),
                str(r.railbirds), money(r.average_pot), str(r.hands_per_hour), r.status)

    def _selected(self) -> str | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return str(key.value)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self.action_watch()

    def _open(self, name: str):
        from cardroom.tui.screens.table import TableScreen
        screen = TableScreen(name)
        self.app.push_screen(screen)
        return screen

    def action_watch(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            self.app.client.watch(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self._open(name)

    def action_join(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            self.app.client.join(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        screen = self._open(name)
        self.app.call_after_refresh(screen.action_buy_in)

    def action_wait_list(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            place = self.app.client.join_wait_list(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self.notify(f"You are number {place} on the wait list for {name}", markup=False)

    def action_money(self) -> None:
        from cardroom.tui.screens.money import MoneyScreen
        self.app.push_screen(MoneyScreen())

    def action_history(self) -> None:
        from cardroom.tui.screens.history import HistoryScreen
        self.app.push_screen(HistoryScreen())
