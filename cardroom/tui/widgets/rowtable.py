"""A DataTable of rows to pick from (the lobby's tables, my hands): Home and End go to the first and
last row. Textual's DataTable gives them to horizontal scrolling even with a row cursor, so End in
the lobby slid the columns sideways and left the cursor where it was."""

from __future__ import annotations

from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable):
    BINDINGS = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, **kwargs) -> None:
        super().__init__(cursor_type="row", **kwargs)
