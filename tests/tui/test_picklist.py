"""The lobby's list of tables (cardroom/tui/widgets/picklist.py): keys move the cursor and keep it
in sight, Enter or a second click picks, a list taller than the screen says what is below, and the
cursor stays on its row when the room's rows change under it."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult

from cardroom.tui.widgets.picklist import PickList


class ListApp(App):
    def __init__(self, rows: int) -> None:
        super().__init__()
        self.rows = [(f"t{i}", (f"Table {i}", f"{i}/6")) for i in range(rows)]
        self.picked: list = []

    def compose(self) -> ComposeResult:
        yield PickList(zebra_stripes=True)

    def on_mount(self) -> None:
        pl = self.query_one(PickList)
        pl.set_columns(["Table", "Seats"])
        pl.set_rows(self.rows)
        pl.focus()

    def on_pick_list_selected(self, event: PickList.Selected) -> None:
        self.picked.append(event.key)


def lines(app: App) -> list[str]:
    pl = app.query_one(PickList)
    return [strip.text.rstrip() for strip in pl.build_strips(pl.size.width, pl.size.height,
                                                             pl.rich_style)]


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


async def test_the_header_and_columns_line_up_with_the_widest_cell():
    app = ListApp(12)
    async with app.run_test(size=(40, 20)):
        shown = lines(app)
        assert shown[0] == " Table     Seats"
        assert shown[1] == " Table 0   0/6" and shown[11] == " Table 10  10/6"


async def test_a_list_taller_than_the_screen_says_how_many_rows_are_below_and_pages_to_them():
    app = ListApp(30)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        shown = lines(app)
        assert len(shown) == 10                           # header, 8 rows, the "more" line
        assert shown[-1] == " 22 more below (PgDn)"
        await pilot.press("pagedown")
        assert pl.cursor_row == 8
        shown = lines(app)
        assert " Table 8   8/6" in shown and shown[-1].endswith("more below (PgDn)")
        await pilot.press("end")
        shown = lines(app)
        assert shown[-1] == " Table 29  29/6"          # the last row in sight, nothing below
        assert not any("more below" in s for s in shown)


async def test_a_click_moves_the_cursor_and_a_second_click_picks():
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
    async with app.run_test(size=(40, 10)):
        pl = app.query_one(PickList)
        pl.set_rows([("x", ("[bold red]x[/]", Text("2/6", "green")))])
        assert lines(app)[1] == " [bold red]x[/]  2/6"


async def test_the_wheel_scrolls_the_cursor_with_the_window():
    app = ListApp(30)
    async with app.run_test(size=(40, 10)) as pilot:
        pl = app.query_one(PickList)
        def wheel(kind):
            pl.post_message(kind(pl, 3, 3, 0, 0, 0, False, False, False))

        wheel(events.MouseScrollDown)
        await pilot.pause()
        assert pl.cursor_row == 3
        wheel(events.MouseScrollUp)
        wheel(events.MouseScrollUp)
        await pilot.pause()
        assert pl.cursor_row == 0
