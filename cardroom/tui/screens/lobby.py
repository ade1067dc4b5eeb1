"""The lobby: every table with its game, stakes, seats taken, wait list, railbirds, average pot,
hands an hour; watch (Enter), join (j) or join the wait list (w). The first column marks my tables:
"seated", or "★ turn" where the table waits for my decision; `]` opens the next of my tables.

`t` turns the page to the tournaments (name, game, buy-in + fee, registered / max, state, when it
starts or how many are left) and back; Enter there opens a tournament's own lobby. One list is
shown at a time, so each keeps the whole height of an 80x24 terminal."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from typing import TYPE_CHECKING

from functools import lru_cache

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Static

from cardroom.engine.variants import UnknownVariant, find_variant
from cardroom.room.api import RoomError
from cardroom.tui.navigation import OpenHistory, OpenKeys, OpenMoney, OpenTable, OpenTournament
from cardroom.tui.render import money
from cardroom.tui.tournament_text import TOURNAMENT_COLUMNS, lobby_row
from cardroom.tui.widgets.keys import KeyFooter
from cardroom.tui.widgets.picklist import PickList

if TYPE_CHECKING:
    from textual import getters
    from textual.timer import Timer

    from cardroom.tui.shell import Shell

COLUMNS = ("You", "Table", "Game", "Stakes", "Seats", "Waiting", "Railbirds", "Avg pot", "Hands/h", "Status")
# Below WIDE columns the lobby keeps what a player picks a table by: the railbirds go, the status
# is written after a table's name when it is not open, "You" is one mark, and columns are set
# one space apart. At 80 columns the full set was cut at "Waiting Ra".
NARROW_COLUMNS = ("", "Table", "Game", "Stakes", "Seats", "Wait", "Avg pot", "H/hr")
WIDE = 110


class LobbyScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [
        Binding("enter", "watch", "Watch"),
        Binding("enter", "open_tournament", "Open"),
        Binding("j", "join", "Join"),
        Binding("w", "wait_list", "Wait list"),
        Binding("t", "show('tournaments')", "Tournaments"),
        Binding("t", "show('tables')", "Tables"),
        Binding("m", "money", "My Money"),
        Binding("h", "history", "History"),
        Binding("k", "keys", "My keys"),
        Binding("right_square_bracket", "next_table", "My next table"),
        Binding("ctrl+n", "next_table", "My next table", show=False),
        Binding("ctrl+q", "app.quit", "Quit"),
    ]

    def __init__(self, client, options) -> None:
        super().__init__()
        self.client = client     # the session's RoomClient
        self.options = options   # display options (ASCII)
        self._mine: tuple = ()
        self._title: Text | None = None
        self._timer: Timer | None = None
        self._narrow: bool | None = None
        self._lines: list | None = None     # what the list shows: (table, cells) per row
        self.showing = "tables"             # or "tournaments": the list on the page
        self._tournament_lines: list | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text.assemble(("Tables", "bold"), "   ", self.client.name), id="lobby-title",
                     markup=False)
        yield PickList(id="lobby-table", zebra_stripes=True)
        yield PickList(id="lobby-tournaments", zebra_stripes=True)
        yield KeyFooter()

    def on_mount(self) -> None:
        self.query_one("#lobby-tournaments").display = False
        self._lay_out(self.app.size.width)
        self.query_one("#lobby-table").focus()
        self._timer = self.set_interval(5.0, self.refresh_from_room)

    def on_resize(self, event) -> None:
        self._lay_out(event.size.width)

    def _lay_out(self, width: int) -> None:
        narrow = width < WIDE
        if narrow == self._narrow:
            return
        self._narrow = narrow
        self._lines = self._tournament_lines = None
        self.query_one("#lobby-table", PickList).set_columns([f" {c}" if narrow else c for c in self._columns],
                                                             padding=0 if narrow else 1)
        self.query_one("#lobby-tournaments", PickList).set_columns(
            [f" {c}" if narrow else c for c in TOURNAMENT_COLUMNS], padding=0 if narrow else 1)
        self.refresh_from_room()

    @property
    def _columns(self) -> tuple[str, ...]:
        return NARROW_COLUMNS if self._narrow else COLUMNS

    def on_screen_resume(self) -> None:
        self.refresh_from_room()
        if self._timer is not None:
            self._timer.resume()

    def on_screen_suspend(self) -> None:
        # Under a table screen the lobby is not seen: no refresh every 5 s for nobody (with a
        # thousand sessions that was 200 lobby reads a second).
        if self._timer is not None:
            self._timer.pause()

    def refresh_from_room(self) -> None:
        mine = set(self.app.my_tables())
        waiting = set(self.app.waiting_for_me()) & mine
        self._show_title(mine, waiting)
        if bool(mine) != bool(self._mine):
            self.refresh_bindings()
        self._mine = tuple(sorted(mine))
        if self.showing == "tournaments":      # only the list on the page is read and laid out
            self._show_tournaments()
            return
        lines = [(r.name, self._cells(r, mine, waiting)) for r in self.client.lobby()]
        if lines != self._lines:        # a room change that is not the lobby's draws nothing
            self._lines = lines
            self.query_one("#lobby-table", PickList).set_rows(lines)

    def _show_tournaments(self) -> None:
        narrow = bool(self._narrow)
        lines = [(s.number, lobby_row(s, narrow)) for s in self.client.tournaments()]
        if not lines:       # a room that deals none (a room of several processes, for now) says so
            lines = [(None, ("", Text("No tournaments in this room now", "italic")))]
        if lines != self._tournament_lines:
            self._tournament_lines = lines
            self.query_one("#lobby-tournaments", PickList).set_rows(lines)

    def _show_title(self, mine: set, waiting: set) -> None:
        page = "Tournaments" if self.showing == "tournaments" else "Tables"
        title = Text.assemble((page, "bold"), "   ", self.client.name)
        if waiting:
            star = "*" if self.options.ascii else "\u2605"
            n = len(waiting)
            title.append(f"   {star} {n} table{'s' if n > 1 else ''} waiting for you", "bold yellow")
        elif mine:
            n = len(mine)
            title.append(f"   seated at {n} table{'s' if n > 1 else ''}", "dim")
        if title != self._title:
            self._title = title
            self.query_one("#lobby-title", Static).update(title)

    def _cells(self, r, mine: AbstractSet[str] = frozenset(), waiting: AbstractSet[str] = frozenset()) -> tuple:
        you = "turn" if r.name in waiting else "seated" if r.name in mine else ""
        return _row_cells(r, you, bool(self._narrow), self.options.ascii)

    def _selected(self) -> str | None:
        key = self.query_one("#lobby-table", PickList).cursor_key      # the rows are keyed by table name
        return key if isinstance(key, str) else None

    async def on_pick_list_selected(self, event: PickList.Selected) -> None:
        event.stop()
        if event.picklist.id == "lobby-tournaments":
            await self.action_open_tournament()
        else:
            await self.action_watch()

    def action_show(self, page: str) -> None:
        """Turn the page: the tables or the tournaments."""
        self.showing = page
        tables = page == "tables"
        self.query_one("#lobby-table").display = tables
        self.query_one("#lobby-tournaments").display = not tables
        self.query_one("#lobby-table" if tables else "#lobby-tournaments").focus()
        self._lines = self._tournament_lines = None
        self.refresh_from_room()
        self.refresh_bindings()

    async def action_open_tournament(self) -> None:
        number = self.query_one("#lobby-tournaments", PickList).cursor_key
        if isinstance(number, int):           # (None: the row that says there are none)
            await self.app.navigate(OpenTournament(number))

    async def _open(self, name: str, *, buy_in: bool = False) -> None:
        await self.app.navigate(OpenTable(name, buy_in=buy_in))

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "next_table":
            return bool(self._mine)
        if action == "show":
            return parameters[0] != self.showing
        if action in ("watch", "join", "wait_list"):
            return self.showing == "tables"
        if action == "open_tournament":
            return self.showing == "tournaments"
        return True

    async def action_next_table(self) -> None:
        """The next of my tables (those waiting for my decision first)."""
        name = self.app.next_table(None)
        if name is None:
            self.notify("You are not seated at any table", severity="warning")
            return
        await self.app.open_table(name)

    async def action_watch(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            await self.client.watch(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        await self._open(name)

    async def action_join(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            await self.client.join(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        await self._open(name, buy_in=True)

    async def action_wait_list(self) -> None:
        name = self._selected()
        if name is None:
            return
        try:
            place = await self.client.join_wait_list(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self.notify(f"You are number {place} on the wait list for {name}", markup=False)

    async def action_money(self) -> None:
        await self.app.navigate(OpenMoney())

    async def action_keys(self) -> None:
        await self.app.navigate(OpenKeys())

    async def action_history(self) -> None:
        await self.app.navigate(OpenHistory())


@lru_cache(maxsize=2048)
def _row_cells(r, you: str, narrow: bool, ascii_only: bool) -> tuple:
    """A table's cells in the lobby: the same row is drawn for every session that sees it alike
    (made once: a thousand railbirds' lobbies made them each, a tenth of a login's CPU). The Text
    cells are shared: nothing changes them once made."""
    if you == "turn":
        star = "*" if ascii_only else "\u2605"
        mark = Text(star if narrow else f"{star} turn", "bold yellow")
    elif you == "seated":
        mark = Text(("s" if ascii_only else "\u25cf") if narrow else "seated", "bold")
    else:
        mark = Text("")
    name = Text(r.name, "bold" if you else "")
    cells = [mark, name, Text(_short_game(r.game)), Text(_short_stakes(r.stakes)), f"{r.players}/{r.seats}",
             str(r.waiting), str(r.railbirds), money(r.average_pot), str(r.hands_per_hour), r.status]
    if not narrow:
        return tuple(cells)
    if r.status != "open":
        name.append(f" ({r.status})", "dim")
    del cells[9], cells[6]                      # status (now after the name) and railbirds
    # One space before each cell: the narrow layout sets cell padding to nothing.
    return tuple(Text(" ") + (c if isinstance(c, Text) else Text(c)) for c in cells)


_STRUCTURES = (("Spread Limit", "Spread"), ("Pot Limit", "PL"), ("No Limit", "NL"))


def _short_stakes(stakes: str) -> str:
    """"$0.25/$0.50 NL": the lobby's abbreviations (the table's own title spells them out)."""
    for name, short in _STRUCTURES:
        if stakes.endswith(" " + name):
            return stakes[: -len(name)] + short
    return stakes


def _short_game(game: str) -> str:
    """The game's short name: "Draw Lo (Ace-to-Five Single Draw)" made the column 33 wide, and
    an 80-column terminal lost the seats and the wait list off its right edge."""
    try:
        return find_variant(game).short_name or game
    except UnknownVariant:
        return game
