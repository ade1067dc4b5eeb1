"""The lobby's list of tables (cardroom/tui/widgets/picklist.py): it looks as Textual's DataTable
with a row cursor looked (the lobby's list before it), cell for cell, in every state a player can
put it in; keys move the cursor and keep it in sight, Enter or a click on the cursor's row picks,
and the cursor stays on its row when the room's rows change under it."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable

from cardroom.textual_adapter import compositor_of
from cardroom.tui.widgets.picklist import PickList

COLUMNS = ("You", "Table", "Seats", "Status")


def row_cells(i: int) -> tuple:
    you = Text("\u2605 turn", "bold yellow") if i == 2 else Text("seated", "bold") if i == 1 else Text("")
    return (you, Text(f"Table {i}", "bold" if i in (1, 2) else ""), f"{i}/6", "open" if i % 3 else "closed")


class ListApp(App):
    """A PickList (or, to compare with, the DataTable the lobby had) of `rows` rows."""

    CSS = "#list { height: 1fr; }"

    def __init__(self, rows: int, datatable: bool = False) -> None:
        super().__init__()
        self.rows = [(f"t{i}", row_cells(i)) for i in range(rows)]
        self.datatable = datatable
        self.picked: list = []

    def compose(self) -> ComposeResult:
        if self.datatable:
            yield RowTable(id="list", zebra_stripes=True, cursor_type="row")
        else:
            yield PickList(id="list", zebra_stripes=True)

    def on_mount(self) -> None:
        if self.datatable:
            table = self.query_one(DataTable)
            for c in COLUMNS:
                table.add_column(c, key=c)
            for key, cells in self.rows:
                table.add_row(*cells, key=key)
            table.focus()
            return
        pl = self.query_one(PickList)
        pl.set_columns(COLUMNS)
        pl.set_rows(self.rows)
        pl.focus()

    def on_pick_list_selected(self, event: PickList.Selected) -> None:
        self.picked.append(event.key)


class RowTable(DataTable):
    """The lobby's DataTable as it was (its Home and End went to the first and last row)."""

    BINDINGS = [Binding("home", "scroll_top", show=False), Binding("end", "scroll_bottom", show=False)]


def screen_cells(app: App) -> list[list[tuple]]:
    """Every cell on screen: its character, colours and text style."""
    out = []
    for strip in compositor_of(app.screen).render_strips():
        row = []
        for segment in strip:
            s = segment.style
            row += [(ch, s.color, s.bgcolor, s.bold, s.dim, s.italic, s.reverse, s.underline) for ch in segment.text]
        out.append(row)
    return out


async def _wheel(pilot, app, n: int) -> None:
    widget = app.query_one("#list")
    kind = events.MouseScrollDown if n > 0 else events.MouseScrollUp
    for _ in range(abs(n)):
        widget.post_message(kind(widget, 3, 3, 0, 0, 0, False, False, False))


STATES = {
    "as it opens": [],
    "cursor on the marked rows": ["down", "down"],
    "page down, down": ["pagedown", "down"],
    "end, then up": ["end", "up", "up"],
    "page down twice, page up": ["pagedown", "pagedown", "pageup"],
    "the wheel scrolls, the cursor stays": [("wheel", 3), ("wheel", -1)],
    "the mouse over a row": [("hover", 5, 3)],
    "the mouse over the cursor's row": [("hover", 5, 1)],
    "the mouse over the header": [("hover", 5, 0)],
    "a click on a row": [("hover", 5, 4), ("click", 5, 4)],
    "a key after hovering": [("hover", 5, 3), "down"],
    "unfocused": ["down", "blur"],
    "a light theme": [("theme", "textual-light"), "down"],
    "an ANSI theme": [("theme", "ansi-dark"), "down"],
    "scrolled right when narrow": [("size", 20, 12), "right", "right"],
}


@pytest.mark.parametrize("rows", [5, 40])
@pytest.mark.parametrize("state", list(STATES))
async def test_it_looks_as_the_datatable_did_cell_for_cell(state, rows):
    """The lobby's DataTable cost a new session 10-16% of a login's CPU and some 0.4 MiB; what
    replaces it must not change what a player sees: header, zebra stripes (from the first row),
    cursor and hover colours (the cursor's colour over a cell's own), scrollbars, scrolling."""
    shown = []
    for datatable in (True, False):
        app = ListApp(rows, datatable=datatable)
        async with app.run_test(size=(60, 20)) as pilot:
            for step in STATES[state]:
                if step == "blur":
                    app.screen.set_focus(None)
                elif step[0] == "wheel":
                    await _wheel(pilot, app, step[1])
                elif step[0] == "hover":
                    await pilot.hover("#list", offset=step[1:])
                elif step[0] == "click":
                    await pilot.click("#list", offset=step[1:])
                elif step[0] == "theme":
                    app.theme = step[1]
                elif step[0] == "size":
                    await pilot.resize_terminal(*step[1:])
                else:
                    await pilot.press(step)
                await pilot.pause()
            await pilot.pause()
            shown.append(screen_cells(app))
    datatable, picklist = shown
    assert len(datatable) == len(picklist)
    for y, (want, got) in enumerate(zip(datatable, picklist)):
        assert got == want, f"line {y}: {''.join(c[0] for c in want)!r} / {''.join(c[0] for c in got)!r}"


async def test_keys_move_the_cursor_and_enter_picks_the_row_under_it():
    app = ListApp(5)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        await pilot.press("down", "down", "enter")
        assert pl.cursor_key == "t2" and app.picked == ["t2"]
        await pilot.press("end")
        assert pl.cursor_key == "t4"
        await pilot.press("down")                         # past the last row: stays
        assert pl.cursor_key == "t4"
        await pilot.press("home", "up")
        assert pl.cursor_key == "t0"


async def test_the_cursor_stays_in_sight_below_the_header():
    app = ListApp(30)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)

        def in_sight() -> bool:       # 10 lines: the header, then 9 rows from the scroll offset
            return pl.scroll_offset.y <= pl.cursor_row < pl.scroll_offset.y + 9

        await pilot.press("pagedown")
        assert pl.cursor_row == 9 and in_sight()
        await pilot.press("end")
        assert pl.cursor_row == 29 and in_sight() and pl.scroll_offset.y == 21
        await pilot.press("home")
        assert pl.cursor_row == 0 and pl.scroll_offset.y == 0


async def test_a_click_moves_the_cursor_and_a_click_on_the_cursors_row_picks():
    app = ListApp(5)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        await pilot.click(PickList, offset=(3, 3))        # line 3: the third row
        assert pl.cursor_key == "t2" and app.picked == []
        await pilot.click(PickList, offset=(3, 3))
        assert app.picked == ["t2"]
        await pilot.click(PickList, offset=(3, 0))        # the header picks nothing
        await pilot.click(PickList, offset=(3, 8))        # below the last row: nothing
        assert pl.cursor_key == "t2" and app.picked == ["t2"]


async def test_the_cursor_stays_on_its_row_when_rows_come_and_go_around_it():
    app = ListApp(5)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        await pilot.press("down", "down", "down")
        assert pl.cursor_key == "t3"
        pl.set_rows([("new", ("New table", "0/6"))] + app.rows)
        assert pl.cursor_key == "t3" and pl.cursor_row == 4
        pl.set_rows(app.rows[:2])                          # its row is gone: the nearest stays
        assert pl.cursor_key == "t1"
        pl.set_rows([])
        assert pl.cursor_key is None
        await pilot.press("enter", "down", "end")
        assert app.picked == []


async def test_cells_are_text_never_markup():
    app = ListApp(0)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        pl.set_rows([("x", ("", "[bold red]x[/]", Text("2/6", "green"), ""))])
        await pilot.pause()
        line = "".join(c[0] for c in screen_cells(app)[1])
        assert "[bold red]x[/]" in line


async def test_a_key_that_moves_the_cursor_repaints_two_lines_not_the_list():
    """Every session arrows down the lobby to its table: each key repainted the whole list."""
    from textual.geometry import Region

    app = ListApp(12)
    async with app.run_test(size=(40, 20)) as pilot:
        pl = app.query_one(PickList)
        asked: list[tuple] = []
        refresh = pl.refresh

        def recorded(*regions, **kw):
            asked.append(regions)
            return refresh(*regions, **kw)

        pl.refresh = recorded
        await pilot.press("down")
        width = max(pl.virtual_size.width, pl.size.width)
        assert sorted(asked) == [(Region(0, 1, width, 1),), (Region(0, 2, width, 1),)]   # rows 0 and 1
