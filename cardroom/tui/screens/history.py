"""Hand history: my hands (newest first); a hand is replayed street by street (left/right), with
others' cards only where they were shown; `x` exports the hand as text (to the clipboard)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from cardroom.tui.widgets.keys import KeyFooter
from textual.widgets import DataTable, Static

from cardroom.engine import events as ev
from cardroom.engine.cards import format_cards
from cardroom.engine.variants import UnknownVariant, find_variant
from cardroom.room.api import RoomError
from cardroom.room.narration import narrate
from cardroom.tui.render import money


class HistoryScreen(Screen):
    BINDINGS = [Binding("enter", "open", "Open"), Binding("escape,h", "close", "Back")]

    def compose(self) -> ComposeResult:
        yield Static(Text("Your hands", "bold"), id="history-title")
        yield DataTable(id="history-table", cursor_type="row")
        yield KeyFooter()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        for c in ("Hand", "Table", "Started", "Result"):
            table.add_column(c, key=c)
        me = self.app.client.account_id
        for rec in self.app.client.hands(limit=50):
            result = ""
            for s in rec.seats:
                if s.account_id == me and s.end_cents is not None:
                    result = money(s.end_cents - s.start_cents)
            when = rec.started_at.strftime("%Y-%m-%d %H:%M") if hasattr(rec.started_at, "strftime") else ""
            table.add_row(rec.hand_id, Text(rec.table), when, result or rec.status, key=rec.hand_id)
        if table.row_count == 0:
            self.query_one("#history-title", Static).update(Text("You have played no hands yet", "bold"))
        table.focus()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        self._open(str(event.row_key.value))

    def action_open(self) -> None:
        table = self.query_one(DataTable)
        if table.row_count:
            self._open(str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value))

    def _open(self, hand_id: str) -> None:
        try:
            hand = self.app.client.hand(hand_id)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self.app.push_screen(HandScreen(hand, self._variant(hand.table)))

    def _variant(self, table: str):
        try:
            return find_variant(self.app.client.view(table).game)
        except (RoomError, UnknownVariant):
            return None

    def action_close(self) -> None:
        self.app.pop_screen()


def hand_lines(hand, variant, upto: int | None = None) -> list[Text]:
    """The hand as I may see it, street by street (up to street index `upto`)."""
    names = [("You" if i == hand.me else f"Seat {s.seat}") for i, s in enumerate(hand.seats)]
    out = [Text(f"Hand #{hand.hand_id} at {hand.table}", "bold")]
    for i, s in enumerate(hand.seats):
        out.append(Text(f"  {names[i]} (seat {s.seat}): {money(s.start_cents)}"))
    for k, street in enumerate(hand.streets()):
        if upto is not None and k > upto:
            break
        out.append(Text(f"-- {k + 1} --", "dim"))
        for e in street:
            if isinstance(e, ev.DealtHole):
                if e.player == hand.me:
                    out.append(Text(f"  Dealt to You: {format_cards(e.cards)}"))
                continue
            if isinstance(e, ev.Drew) and e.player == hand.me and e.cards:
                out.append(Text(f"  You discard {format_cards(e.discards)}, draw {format_cards(e.cards)}"))
                continue
            line = None
            if variant is not None:
                line = narrate(e, names, variant)
            elif not isinstance(e, ev.Shown):
                line = narrate(e, names, None)
            else:
                line = f"{names[e.player]} shows {format_cards(e.cards)}"
            if line:
                out.append(Text("  " + line))
    return out


class HandScreen(Screen):
    BINDINGS = [Binding("right,n", "step(1)", "Next street"), Binding("left,p", "step(-1)", "Back a street"),
                Binding("x", "export", "Export text"), Binding("escape", "close", "Back")]

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
        return "\n".join(t.plain for t in hand_lines(self.hand, self.variant))

    def action_export(self) -> None:
        text = self.export_text()
        self.app.copy_to_clipboard(text)
        self.street = self.last
        self._show()
        self.notify("The hand history was copied to your clipboard", markup=False)

    def action_close(self) -> None:
        self.app.pop_screen()
