"""A list of rows to pick one from, under a header of column labels (the lobby's tables): Textual's
DataTable with a row cursor, as the lobby used it, drawn from strips every session shares.

Why not Textual's DataTable: a new session's DataTable renders each of its cells through Rich
(padding, cropping, styling) into caches of its own, and renders them again whenever a cell
changes or the cursor moves; in the ssh benchmark's login phase the lobby's DataTable was 10-16%
of the server's CPU, for a screen every player passes through, and its caches were some 0.4 MiB
of every session's memory. Here a row is laid out once per change of the room's data, and its
strip (the cells, padded and styled for its state: zebra stripe, cursor, hover) comes from the
process-wide cache of `lines.py`, keyed by what it shows, so the thousandth session showing the
same lobby draws nothing new.

It looks and behaves as the DataTable did (tests/tui/test_picklist.py compares the two cell by
cell): the same component styles (header, zebra stripes from the first row, cursor and hover, the
cursor's colour over a cell's own), the header fixed on the first line, Textual's scrollbars when
the rows do not fit (it is a ScrollView, as DataTable is), and the same keys: up/down, page
up/down, Home/End (first and last row, as the lobby's RowTable had them), left/right scroll,
Enter picks the row under the cursor; a click moves the cursor there and a click on the cursor's
row picks it; the wheel scrolls without moving the cursor. Cells are Text or plain strings, never
markup.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding
from textual.geometry import Region, Size, Spacing
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from cardroom.tui.widgets.lines import shared_strip

Cell = Text | str

HEADER = -1          # the header's row index, as DataTable numbers it


class PickList(ScrollView, can_focus=True):
    # DataTable's own styles for what a row cursor table uses (textual 8.2.8), under our names.
    DEFAULT_CSS = """
    PickList {
        background: $surface;
        color: $foreground;
        height: auto;
        max-height: 100%;
        &:focus {
            background-tint: $foreground 5%;
            & > .picklist--cursor {
                background: $block-cursor-background;
                color: $block-cursor-foreground;
                text-style: $block-cursor-text-style;
            }
            & > .picklist--header { background-tint: $foreground 5%; }
        }
        &:dark { & > .picklist--even-row { background: $surface-darken-1 40%; } }
        & > .picklist--header { text-style: bold; background: $panel; color: $foreground; }
        &:ansi > .picklist--header { background: ansi_bright_blue; color: ansi_default; }
        & > .picklist--odd-row { }
        & > .picklist--even-row { background: $surface-lighten-1 50%; }
        & > .picklist--cursor {
            background: $block-cursor-blurred-background;
            color: $block-cursor-blurred-foreground;
            text-style: $block-cursor-blurred-text-style;
        }
        & > .picklist--header-cursor { background: $accent-darken-1; color: $foreground; }
        & > .picklist--header-hover { background: $accent 30%; }
        & > .picklist--hover { background: $block-hover-background; }
    }
    """
    COMPONENT_CLASSES = {"picklist--header", "picklist--odd-row", "picklist--even-row", "picklist--cursor",
                         "picklist--header-cursor", "picklist--header-hover", "picklist--hover"}
    BINDINGS = [
        Binding("enter", "select", "Select", show=False),
        Binding("up", "cursor_up", "Cursor up", show=False),
        Binding("down", "cursor_down", "Cursor down", show=False),
        Binding("right", "scroll_columns(1)", "Scroll right", show=False),
        Binding("left", "scroll_columns(-1)", "Scroll left", show=False),
        Binding("pageup", "page_up", "Page up", show=False),
        Binding("pagedown", "page_down", "Page down", show=False),
        Binding("home,ctrl+home", "first", "First row", show=False),
        Binding("end,ctrl+end", "last", "Last row", show=False),
    ]

    class Selected(Message):
        """Enter (or a click on the cursor's row) on a row."""

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
        self._labels: tuple[Text, ...] = ()
        self._padding = 1
        self._keys: list[Hashable] = []
        self._cells: list[tuple[Text, ...]] = []
        self._widths: tuple[int, ...] = ()
        self.cursor_row = 0
        self._hover_row = 0               # where the mouse is (HEADER: on the header) ...
        self._hovering = False            # ... shown until a key moves the cursor
        self._looks_memo: dict | None = None  # the component styles, until the styles change

    # ------------------------------------------------------------------ data
    def set_columns(self, labels: Sequence[Cell], *, padding: int = 1) -> None:
        self._labels = tuple(_text(label) for label in labels)
        self._padding = padding
        self._lay_out()

    def set_rows(self, rows: Sequence[tuple[Hashable, Sequence[Cell]]]) -> None:
        """All the rows, in order, each with its key; the cursor stays on the row it was on (or
        the nearest row left)."""
        at = self.cursor_key
        self._keys = [k for k, _ in rows]
        self._cells = [tuple(_text(c) for c in cells) for _, cells in rows]
        if at in self._keys:
            self.cursor_row = self._keys.index(at)
        self._lay_out()

    @property
    def row_count(self) -> int:
        return len(self._keys)

    @property
    def cursor_key(self) -> Hashable | None:
        return self._keys[self.cursor_row] if 0 <= self.cursor_row < len(self._keys) else None

    def _lay_out(self) -> None:
        widths = [label.cell_len for label in self._labels]
        for cells in self._cells:
            for i, cell in enumerate(cells[:len(widths)]):
                widths[i] = max(widths[i], cell.cell_len)
        self._widths = tuple(w + 2 * self._padding for w in widths)
        self.cursor_row = min(self.cursor_row, max(0, len(self._keys) - 1))
        self.virtual_size = Size(sum(self._widths), 1 + len(self._keys))
        self.refresh()
        if self.is_mounted:
            self._scroll_cursor_into_view()

    # ------------------------------------------------------------------ drawing
    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._looks_memo = None

    def _looks(self) -> dict:
        """The widget's style and the component styles as DataTable reads them: the rows' whole
        (with the inherited background), the cursor's and hover's partial (laid over a row's).
        Made once per restyle: the widget's own walks its ancestors (half of drawing a line)."""
        styles = self._looks_memo
        if styles is None:
            whole = self.get_component_styles
            part = self.get_component_rich_style
            styles = self._looks_memo = {
                "base": self.rich_style, "header": whole("picklist--header").rich_style, "odd": whole("picklist--odd-row").rich_style,
                "even": whole("picklist--even-row").rich_style, "cursor": part("picklist--cursor"),
                "header-cursor": part("picklist--header-cursor"), "hover": part("picklist--hover"),
                "header-hover": part("picklist--header-hover")}
        return styles

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        scroll_x, scroll_y = self.scroll_offset
        base = self._looks()["base"]
        row = HEADER if y == 0 else y - 1 + scroll_y
        if row >= len(self._keys):
            return Strip.blank(width, base)
        strip = self._row_strip(row, width, base)
        return strip.crop(scroll_x, scroll_x + width).adjust_cell_length(width, base)

    def _row_strip(self, row: int, width: int, base: Style) -> Strip:
        """Row `row` (HEADER: the labels) at least `width` cells wide, styled as DataTable styles it."""
        styles = self._looks()
        if row == HEADER:
            row_style = styles["header"]
        elif self.zebra_stripes:
            row_style = styles["odd" if row % 2 else "even"]
        else:
            row_style = base
        over = Style()                  # DataTable's component style: hover, then the cursor
        if self._hovering and self._hover_row == row:
            over += styles["hover"]
            if row == HEADER:
                over += styles["header-hover"]
        if row == self.cursor_row and row != HEADER:
            over += styles["cursor"]
        post = Style.from_color(color=over.color)   # the cursor's colour over the cell's own
        cells = self._labels if row == HEADER else self._cells[row]
        key = ("picklist", tuple((c.plain, tuple(c.spans), c.style) for c in cells), self._widths,
               self._padding, row_style, over, width)
        return shared_strip(key, lambda: self._build_strip(cells, row_style, over, post, width))

    def _build_strip(self, cells: Sequence[Text], row_style: Style, over: Style, post: Style,
                     width: int) -> Strip:
        console = self.app.console
        pre = row_style + over
        pad = self._padding
        segments: list[Segment] = []
        for cell, w in zip(cells, self._widths):
            text = list(cell.render(console))
            own = cell.style       # Text.render leaves a span-less text's own style out
            if own and not cell.spans:
                text = list(Segment.apply_style(text, console.get_style(own)))
            parts = [Segment(" " * pad), *text, Segment(" " * (w - pad - cell.cell_len))]
            segments += Segment.apply_style(parts, pre, post)
        table = sum(self._widths)
        if table < width:               # the row's style out to the edge, as DataTable does
            segments.append(Segment(" " * (width - table), row_style + over))
        return Strip(segments, max(table, width)).simplify()

    # ------------------------------------------------------------------ moving
    def move_cursor(self, row: int) -> None:
        self._hover_off()
        row = max(0, min(row, len(self._keys) - 1))
        if row != self.cursor_row:
            self._refresh_rows(self.cursor_row, row)
            self.cursor_row = row
        self._scroll_cursor_into_view()

    def _refresh_rows(self, *rows: int) -> None:
        """Repaint only these rows' lines (HEADER: the header's), where they are on screen now: a
        key that moves the cursor changes two lines, not the list (a scroll repaints it all)."""
        width = max(self.virtual_size.width, self.size.width)
        top = int(self.scroll_y)
        for row in set(rows):
            line = 0 if row == HEADER else row - top + 1
            if 0 <= line < self.size.height:
                self.refresh(Region(0, line, width, 1))

    def _scroll_cursor_into_view(self) -> None:
        # DataTable's: the cursor's row in sight below the header.
        region = Region(int(self.scroll_x), 1 + self.cursor_row, self.virtual_size.width, 1)
        self.scroll_to_region(region, animate=False, spacing=Spacing(1, 0, 0, 0), force=True)

    def action_cursor_up(self) -> None:
        self.move_cursor(self.cursor_row - 1)

    def action_cursor_down(self) -> None:
        self.move_cursor(self.cursor_row + 1)

    def action_page_up(self) -> None:
        self._hover_off()
        page = self.scrollable_content_region.height - 1
        self.scroll_relative(y=-page, animate=False, force=True)
        self.move_cursor(self.cursor_row - page)

    def action_page_down(self) -> None:
        self._hover_off()
        page = self.scrollable_content_region.height - 1
        self.scroll_relative(y=page, animate=False, force=True)
        self.move_cursor(self.cursor_row + page)

    def action_first(self) -> None:
        self.move_cursor(0)

    def action_last(self) -> None:
        self.move_cursor(len(self._keys) - 1)

    def action_scroll_columns(self, direction: int) -> None:
        self._hover_off()
        if direction > 0:
            self.scroll_right()
        else:
            self.scroll_left()

    def action_select(self) -> None:
        self._hover_off()
        if self.cursor_key is not None:
            self.post_message(self.Selected(self, self.cursor_key))

    # ------------------------------------------------------------------ the mouse
    def _row_at(self, y: int) -> int | None:
        """The row drawn on line `y` of the widget (HEADER for the header), None for none."""
        if y == 0:
            return HEADER
        row = y - 1 + int(self.scroll_y)
        return row if 0 <= row < len(self._keys) else None

    def on_click(self, event: events.Click) -> None:
        self._hover(event.y)
        row = self._row_at(event.y)
        if row is None or row == HEADER:
            return
        event.stop()
        if row == self.cursor_row:
            self.action_select()
            self._hover(event.y)
        else:
            self._refresh_rows(self.cursor_row, row)
            self.cursor_row = row
            self._scroll_cursor_into_view()

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self._hover(event.y)

    def on_leave(self, event: events.Leave) -> None:
        self._hover_off()

    def _hover(self, y: int) -> None:
        row = self._row_at(y)
        hovering, at = row is not None, row if row is not None else self._hover_row
        if (hovering, at) != (self._hovering, self._hover_row):
            self._refresh_rows(*([self._hover_row] if self._hovering else []), *([at] if hovering else []))
            self._hovering, self._hover_row = hovering, at

    def _hover_off(self) -> None:
        if self._hovering:
            self._hovering = False
            self._refresh_rows(self._hover_row)


def _text(cell: Cell) -> Text:
    return cell if isinstance(cell, Text) else Text(str(cell))
