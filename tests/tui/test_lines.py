"""Line-drawn widgets (cardroom/tui/widgets/lines.py): every strip exactly the widget's width,
long text cut with an ellipsis, plain text never read as markup, styles kept."""

from __future__ import annotations

from rich.console import Console
from rich.style import Style
from rich.text import Text
from textual.app import App

from cardroom.tui.widgets.lines import text_strip

CONSOLE = Console(width=80, color_system="truecolor")
BASE = Style(color="white", bgcolor="black")


def test_a_short_line_is_padded_to_the_width_over_the_base_style():
    strip = text_strip(Text("ab", "bold"), 6, BASE, CONSOLE)
    assert strip.cell_length == 6 and strip.text == "ab    "
    first = list(strip)[0]
    assert first.style.bold and first.style.bgcolor == BASE.bgcolor   # own style over the base


def test_a_long_line_is_cut_with_an_ellipsis_at_the_width():
    strip = text_strip(Text("a very long player name"), 10, BASE, CONSOLE)
    assert strip.cell_length == 10 and strip.text == "a very lo\u2026"


def test_wide_characters_are_counted_in_cells():
    strip = text_strip(Text("\u738b\u738b\u738b\u738b"), 5, BASE, CONSOLE)   # 8 cells of CJK
    assert strip.cell_length == 5 and strip.text.startswith("\u738b\u738b")


def test_centred_lines_are_centred():
    assert text_strip(Text("ab"), 6, BASE, CONSOLE, align="center").text == "  ab  "


def test_markup_in_plain_text_is_drawn_as_typed():
    strip = text_strip(Text("[bold]x[/]"), 20, BASE, CONSOLE)
    assert strip.text.rstrip() == "[bold]x[/]"
    assert not any(seg.style and seg.style.bold for seg in strip)


def test_one_strip_serves_every_drawing_of_the_same_text_and_only_that():
    a = text_strip(Text.assemble(("alice", "bold"), " $20"), 12, BASE, CONSOLE)
    assert text_strip(Text.assemble(("alice", "bold"), " $20"), 12, BASE, CONSOLE) is a
    others = [text_strip(Text.assemble(("alice", "italic"), " $20"), 12, BASE, CONSOLE),   # style
              text_strip(Text.assemble(("alice", "bold"), " $21"), 12, BASE, CONSOLE),     # words
              text_strip(Text.assemble(("alice", "bold"), " $20"), 13, BASE, CONSOLE),     # width
              text_strip(Text.assemble(("alice", "bold"), " $20"), 12, Style(bgcolor="red"), CONSOLE),
              text_strip(Text.assemble(("alice", "bold"), " $20"), 12, BASE, CONSOLE, align="center"),
              text_strip(Text(" alice $20", "bold"), 12, BASE, CONSOLE)]                   # own style
    assert all(list(o) != list(a) for o in others)


async def test_line_drawn_widgets_paint_as_textuals_styling_pass_would(world):
    """TextLines skips Textual's per-line styling pass (StylesCache) when nothing of the box model
    but padding applies: every such widget on a table screen, narrow and wide, whole and cropped,
    must come out exactly as Textual's own pass draws it."""
    from textual.geometry import Region
    from textual.widget import Widget

    from cardroom.tui import build_app
    from cardroom.tui.widgets.lines import TextLines

    from tests.rooms import table_settings
    from .conftest import open_table

    w = world(table_settings())
    alice, _ = w.seat("T", ["alice", "bob"])
    for size in ((80, 24), (120, 40)):
        app = build_app(alice)
        async with app.run_test(size=size) as pilot:
            await open_table(app, pilot)
            widgets = [x for x in app.screen.walk_children() if isinstance(x, TextLines) and x.display]
            assert {type(x).__name__ for x in widgets} >= {"Felt", "ChatLog", "ActionBar", "KeyFooter", "Line"}
            for theme in (None, "textual-light"):     # and again once restyled: no stale answer
                if theme:
                    app.theme = theme
                    await pilot.pause()
                for widget in widgets:
                    width, height = widget.region.size
                    top = min(1, height - 1)       # a crop inside the widget, as the compositor asks
                    crops = [Region(1, top, max(1, width - 3), height - top), Region(0, 0, width, height)]
                    # Before the restyle the whole widget last, after it first: the same ask again.
                    for crop in crops if theme is None else crops[::-1]:
                        for _ in range(2):         # asked twice: the second answer is the cached one
                            ours = widget.render_lines(crop)
                            textuals = Widget.render_lines(widget, crop)
                            assert [list(s) for s in ours] == [list(s) for s in textuals], (size, theme, widget, crop)


class _Rows(App):
    """Six lines of text, line-drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.rows = [f"row {i}" for i in range(6)]

    def compose(self):
        from cardroom.tui.widgets.lines import TextLines

        app = self

        class Rows(TextLines):
            def text_lines(self, width, height):
                return [Text(r) for r in app.rows]

        yield Rows()


async def test_a_redraw_repaints_only_the_lines_that_read_differently():
    """An action at a table changes a line or two of the felt and of the bars; their whole widgets
    were repainted, every line sent to the terminal again."""
    from textual.geometry import Region

    from cardroom.tui.widgets.lines import TextLines

    app = _Rows()
    async with app.run_test(size=(30, 10)) as pilot:
        await pilot.pause()
        rows = app.query_one(TextLines)
        asked: list[tuple] = []
        refresh = rows.refresh

        def recorded(*regions, **kw):
            asked.append(regions)
            return refresh(*regions, **kw)

        rows.refresh = recorded
        width = rows.size.width
        app.rows[2] = "row two"
        rows.redraw()
        assert asked == [(Region(0, 2, width, 1),)]
        asked.clear()
        rows.redraw()                                   # nothing reads differently: nothing
        assert asked == []
        app.rows[3], app.rows[4], app.rows[0] = "3", "4", "0"
        rows.redraw()
        assert asked == [(Region(0, 0, width, 1),), (Region(0, 3, width, 2),)]
        await pilot.pause()
        assert [s.text.rstrip() for s in rows.render_lines(Region(0, 0, width, 6))] == \
            ["0", "row 1", "row two", "3", "4", "row 5"]
        rows.styles.background = "red"          # restyled, not drawn since: the whole widget
        asked.clear()
        app.rows[1] = "1"
        rows.redraw()
        assert asked == [()]
