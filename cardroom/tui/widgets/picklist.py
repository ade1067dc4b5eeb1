"""A list of rows to pick one from, under a header of column labels (the lobby's tables), drawn
through the line API as strips every session shares.

Why not Textual's DataTable: a new session's DataTable renders each of its cells through Rich
(padding, cropping, styling) into caches of its own, and renders them again whenever a cell
changes or the cursor moves; in the ssh benchmark's login phase the lobby's DataTable was 12-14%
of a gateway's CPU, for a screen every player passes through. Here a row is one Text, built when
the room's data changes, and its strip comes from the cache in `lines.py` keyed by what it shows,
so the thousandth session showing the same lobby draws nothing new.

Keys: up/down, page up/down, Home/End (first and last row), Enter picks the row under the cursor;
a click moves the cursor there, a second click on it picks it; the wheel scrolls. The header stays
on the first line; when the rows do not fit, the last line says how many are below.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.message import Message
from textual.strip import Strip

from cardroom.tui.widgets.lines import TextLines, text_strip

Cell = Text | str


class PickList(TextLines, can_focus=True):
    DEFAULT_CSS = """
    PickList {
        background: $surface;
        color: $foreground;
        &:focus {
            background-tint: $foreground 5%;
            & > .picklist--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
        }
        & > .picklist--header { text-style: bold; background: $panel; color: $foreground; }
        & > .picklist--even-row { background: $surface-lighten-1 50%; }
        &:dark > .picklist--even-row { background: $surface-darken-1 40%; }
        & > .picklist--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .picklist--more { color: $text-muted; }
    }
    """
    COMPONENT_CLASSES = {"picklist--header", "picklist--even-row", "picklist--cursor", "picklist--more"}
    BINDINGS = [
        Binding("enter", "select", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "First row", show=False),
        Binding("end,ctrl+end", "last", "Last row", show=False),
    ]

    class Selected(Message):
        """Enter (or a second click) on a row."""

        def __init__(self, picklist: PickList, key: Hashable) -> None:
            super().__init__()
            self.picklist = picklist
            self.key = key

        @property
        def control(self) -> PickList:
            return self.picklist

    def __init__(self, *, zebra_stripes: bool = False, **kw) -> None:
        super().__init__(**kw)
        self.zebra_stripes = zebra_stripes
        self._labels: tuple[Cell, ...] = ()
        self._padding = 1
        self._keys: list[Hashable] = []
        self._cells: list[tuple[Cell, ...]] = []
        self._header = Text()
        self._lines: list[Text] = []     # one Text per row, columns laid out
        self.cursor_row = 0
        self._top = 0                    # the first row shown

    # ------------------------------------------------------------------ data
    def set_columns(self, labels: Sequence[Cell], *, padding: int = 1) -> None:
        self._labels = tuple(labels)
        self._padding = padding
        self._lay_out()

    def set_rows(self, rows: Sequence[tuple[Hashable, Sequence[Cell]]]) -> None:
        """All the rows, in order, each with its key; the cursor stays on the row it was on."""
        at = self.cursor_key
        self._keys = [k for k, _ in rows]
        self._cells = [tuple(cells) for _, cells in rows]
        if at in self._keys:
            self.cursor_row = self._keys.index(at)
        self._lay_out()

    @property
    def row_count(self) -> int:
        return len(self._keys)

    @property
    def row_keys(self) -> list[Hashable]:
        return list(self._keys)

    @property
    def cursor_key(self) -> Hashable | None:
        return self._keys[self.cursor_row] if 0 <= self.cursor_row < len(self._keys) else None

    def cell(self, key: Hashable, column: int) -> Cell:
        return self._cells[self._keys.index(key)][column]

    def _lay_out(self) -> None:
        pad = " " * self._padding
        widths = [_width(label) for label in self._labels]
        for cells in self._cells:
            for i, c in enumerate(cells[:len(widths)]):
                widths[i] = max(widths[i], _width(c))

        def line(cells: Sequence[Cell]) -> Text:
            out = Text()
            for c, w in zip(cells, widths):
                t = c if isinstance(c, Text) else Text(str(c))
                out.append(pad)
                out.append_text(t)
                out.append(" " * (w - t.cell_len) + pad)
            return out

        self._header = line(self._labels)
        self._lines = [line(cells) for cells in self._cells]
        self.cursor_row = min(self.cursor_row, max(0, len(self._lines) - 1))
        self.redraw()

    # ------------------------------------------------------------------ drawing
    def _rows_shown(self, height: int) -> int:
        room = max(0, height - 1)                      # under the header
        return room if len(self._lines) <= room else max(0, room - 1)     # a line for "more"

    def _scroll_to_cursor(self) -> None:
        shown = max(1, self._rows_shown(self.size.height))
        if self.cursor_row < self._top:
            self._top = self.cursor_row
        elif self.cursor_row >= self._top + shown:
            self._top = self.cursor_row - shown + 1
        self._top = max(0, min(self._top, max(0, len(self._lines) - shown)))

    def build_strips(self, width: int, height: int, base: Style) -> list[Strip]:
        console = self.app.console
        style = self.get_component_rich_style
        strips = [text_strip(self._header, width, base + style("picklist--header"), console)]
        shown = self._rows_shown(height)
        self._scroll_to_cursor()
        even, cursor = base + style("picklist--even-row"), base + style("picklist--cursor")
        for i in range(self._top, min(len(self._lines), self._top + shown)):
            row_base = cursor if i == self.cursor_row else (even if self.zebra_stripes and i % 2 else base)
            strips.append(text_strip(self._lines[i], width, row_base, console))
        below = len(self._lines) - (self._top + shown)
        if below > 0:
            more = Text(f" {below} more below (PgDn)")
            strips.append(text_strip(more, width, base + style("picklist--more"), console))
        return strips

    def get_content_height(self, container, viewport, width: int) -> int:
        return 1 + len(self._lines)

    # ------------------------------------------------------------------ moving
    def move_cursor(self, row: int) -> None:
        row = max(0, min(row, len(self._lines) - 1))
        if row != self.cursor_row:
            self.cursor_row = row
            self._scroll_to_cursor()
            self.redraw()

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self.move_cursor(self.cursor_row - max(1, self._rows_shown(self.size.height)))

    def action_page_down(self) -> None:
        self.move_cursor(self.cursor_row + max(1, self._rows_shown(self.size.height)))

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self._lines) - 1)

    def action_select(self) -> None:
        if self.cursor_key is not None:
            self.post_message(self.Selected(self, self.cursor_key))

    def on_click(self, event: events.Click) -> None:
        row = self._top + event.y - 1
        if event.y < 1 or not 0 <= row < min(len(self._lines), self._top + self._rows_shown(self.size.height)):
            return
        if row == self.cursor_row:
            self.action_select()
        else:
            self.move_cursor(row)

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self._scroll_by(3)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self._scroll_by(-3)

    def _scroll_by(self, rows: int) -> None:
        # The wheel moves the cursor with the window, so what is picked is always in sight.
        self.move_cursor(self.cursor_row + rows)


def _width(cell: Cell) -> int:
    return cell.cell_len if isinstance(cell, Text) else Text(str(cell)).cell_len
