"""Hand history: my hands (newest first); a hand is replayed street by street (left/right), with
others' cards only where they were shown; `x` exports the hand as I saw it, in PokerStars text or
PHH (`s` / `p` switch), shown in a read-only text view: select with the mouse or shift+arrows and
ctrl+c, or `c` to copy it all (to the terminal's clipboard). The server writes no file."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Static, TextArea

from cardroom.engine import events as ev
from cardroom.engine.cards import Card, format_cards
from cardroom.engine.variants import UnknownVariant, find_variant
from cardroom.room.api import RoomError
from cardroom.room.history import export_phh, export_pokerstars
from cardroom.room.narration import narrate
from cardroom.tui.navigation import OpenExport, OpenHand
from cardroom.tui.render import money, street_label
from cardroom.tui.widgets.keys import KeyFooter
from cardroom.tui.widgets.rowtable import RowTable

if TYPE_CHECKING:
    from textual import getters

    from cardroom.tui.shell import Shell


class HistoryScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [Binding("enter", "open", "Open"), Binding("escape,h", "close", "Back")]

    def __init__(self, client) -> None:
        super().__init__()
        self.client = client     # the session's RoomClient

    def compose(self) -> ComposeResult:
        yield Static(Text("Your hands", "bold"), id="history-title")
        yield RowTable(id="history-table")
        yield KeyFooter()

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for c in ("Hand", "Table", "Started", "Result"):
            table.add_column(c, key=c)
        me = self.client.account_id
        try:
            records = await self.client.hands(limit=50)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            records = []
        for rec in records:
            result = ""
            for s in rec.seats:
                if s.account_id == me and s.end_cents is not None:
                    result = money(s.end_cents - s.start_cents)
            when = rec.started_at.strftime("%Y-%m-%d %H:%M") if hasattr(rec.started_at, "strftime") else ""
            table.add_row(rec.hand_id, Text(rec.table), when, result or rec.status.replace("_", " "),
                          key=rec.hand_id)
        if table.row_count == 0:
            self.query_one("#history-title", Static).update(Text("You have played no hands yet", "bold"))
        table.focus()

    async def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        await self._open(str(event.row_key.value))

    async def action_open(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            await self._open(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))

    async def _open(self, hand_id: str) -> None:
        try:
            hand = await self.client.hand(hand_id)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        # Its events are kept when a hand ends: an open one (or one the server voided) has none to
        # step through, and showed an empty page headed "-- 1 --".
        if hand.status == "in_progress":
            self.notify(f"Hand #{hand_id} is still being played: its history is kept when it ends",
                        severity="warning", markup=False)
            return
        if hand.status == "void":
            self.notify(f"Hand #{hand_id} was void (the server stopped during it): "
                        "everyone got back the stack they began it with", severity="warning", markup=False)
            return
        await self.app.navigate(OpenHand(hand, self._variant(hand.table)))

    def _variant(self, table: str):
        try:
            return find_variant(self.client.view(table).game)
        except (RoomError, UnknownVariant):
            return None

    def action_close(self) -> None:
        self.app.pop_screen()


def _street_label(street: list, variant) -> str:
    """A street's name from the event that opens it, as the felt says it: the betting round's
    ("flop", "after the draw"), or the draw's ("the second draw")."""
    for e in street:
        if isinstance(e, ev.RoundStarted):
            return street_label(e.street, "bet")
        if isinstance(e, ev.DrawStarted):
            names = [s.name for s in variant.streets if s.draw] if variant is not None else []
            return street_label(names[e.index] if e.index < len(names) else "draw", "draw")
    return ""


def _known(cards: Iterable[Card | None]) -> list[Card]:
    """The cards of a row this player saw (his own, a muck shown to him): none is hidden."""
    return [c for c in cards if c is not None]


def hand_lines(hand, variant, upto: int | None = None) -> list[Text]:
    """The hand as I may see it, street by street (up to street index `upto`). A hand mucked at
    the showdown is written with its cards (seed 001: they are in everyone's history)."""
    names = list(hand.names) or [f"Seat {s.seat}" for s in hand.seats]
    me = names[hand.me]
    out = [Text(f"Hand #{hand.hand_id} at {hand.table}", "bold")]
    for i, s in enumerate(hand.seats):
        you = " (you)" if i == hand.me else ""
        out.append(Text(f"  Seat {s.seat}: {names[i]}{you}, {money(s.start_cents)}"))
    for k, street in enumerate(hand.streets()):
        if upto is not None and k > upto:
            break
        out.append(Text(f"-- {_street_label(street, variant) or k + 1} --", "dim"))
        for e in street:
            if isinstance(e, ev.DealtHole):
                if e.player == hand.me:
                    out.append(Text(f"  Dealt to {me}: {format_cards(_known(e.cards))}"))
                continue
            if isinstance(e, ev.Drew) and e.player == hand.me and e.cards:
                out.append(Text(f"  {me} discards {format_cards(_known(e.discards))}, "
                                f"draws {format_cards(_known(e.cards))}"))
                continue
            if isinstance(e, ev.Mucked) and e.cards:
                out.append(Text(f"  {names[e.player]} mucks {format_cards(_known(e.cards))}"))
                continue
            line = narrate(e, names, variant)
            if line:
                out.append(Text("  " + line))
    return out


class HandScreen(Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [Binding("right,n", "step(1)", "Next street"), Binding("left,p", "step(-1)", "Back a street"),
                Binding("x", "export", "Export"), Binding("escape", "close", "Back")]

    def __init__(self, hand, variant) -> None:
        super().__init__()
        self.hand, self.variant = hand, variant
        self.street = 0
        self.last = max(0, len(hand.streets()) - 1)

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", id="hand-text")
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show()

    def _show(self) -> None:
        lines = hand_lines(self.hand, self.variant, self.street)
        lines.append(Text(f"street {self.street + 1} of {self.last + 1}", "italic"))
        self.query_one("#hand-text", Static).update(Text("\n").join(lines))

    def action_step(self, d: int) -> None:
        self.street = max(0, min(self.last, self.street + d))
        self._show()

    def export_text(self) -> str:
        """The replay as plain text (what this screen shows, all streets)."""
        return "\n".join(t.plain for t in hand_lines(self.hand, self.variant))

    async def action_export(self) -> None:
        await self.app.navigate(OpenExport(self.hand))

    def action_close(self) -> None:
        self.app.pop_screen()


FORMATS = {"pokerstars": ("PokerStars text", export_pokerstars), "phh": ("PHH", export_phh)}


class ExportScreen(Screen):
    """One hand as text, as I saw it (others' cards only where shown): PokerStars or PHH."""

    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    BINDINGS = [Binding("s", "format('pokerstars')", "PokerStars"), Binding("p", "format('phh')", "PHH"),
                Binding("c", "copy_all", "Copy all"), Binding("escape", "close", "Back")]

    def __init__(self, hand, fmt: str = "pokerstars") -> None:
        super().__init__()
        self.hand = hand
        self.format = fmt
        self.texts: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        yield Static("", id="export-title", markup=False)
        yield TextArea("", id="export-text", read_only=True, soft_wrap=False, show_line_numbers=False)
        yield KeyFooter()

    def on_mount(self) -> None:
        self._show()
        self.query_one(TextArea).focus()

    def text(self, fmt: str | None = None) -> str:
        """The export in `fmt` (default: the one shown); a refusal is told in its place."""
        fmt = fmt or self.format
        if fmt not in self.texts:
            try:
                self.texts[fmt] = FORMATS[fmt][1](self.hand)
            except RoomError as e:       # no stored history, or one the server could not replay
                self.texts[fmt] = f"This hand cannot be exported: {e}"
        return self.texts[fmt]

    def _show(self) -> None:
        name = FORMATS[self.format][0]
        other = [f"{'s' if k == 'pokerstars' else 'p'}: {v[0]}" for k, v in FORMATS.items() if k != self.format]
        title = Text.assemble((f"Hand #{self.hand.hand_id} at ", "bold"), (self.hand.table, "bold"),
                              (f" - {name}", "bold"), (f"   ({', '.join(other)}; c: copy all)", "dim"))
        self.query_one("#export-title", Static).update(title)
        area = self.query_one(TextArea)
        area.load_text(self.text())
        area.scroll_home(animate=False)

    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "format" and parameters:
            return parameters[0] != self.format or None
        return True

    def action_format(self, fmt: str) -> None:
        if fmt in FORMATS and fmt != self.format:
            self.format = fmt
            self._show()
            self.refresh_bindings()

    def action_copy_all(self) -> None:
        self.app.copy_to_clipboard(self.text())
        self.notify(f"{FORMATS[self.format][0]} copied to your clipboard", markup=False)

    def action_close(self) -> None:
        self.app.pop_screen()
