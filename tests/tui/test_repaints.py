"""Widgets that every screen at a table repaints on every action repaint only when what they show
changed (each repaint is paid once per session, hundreds of sessions per process over ssh)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App
from textual.binding import Binding

from cardroom import textual_adapter
from cardroom.tui.widgets.keys import KeyFooter
from cardroom.tui.widgets.lines import Line



def bottom_row(app) -> list:
    """The footer's row as drawn: (text, style) pieces."""
    return [(seg.text, seg.style) for seg in textual_adapter.compositor_of(app.screen).render_strips()[-1]]


def count_redraws(widget) -> list:
    calls: list = []
    original = widget.redraw

    def redraw():
        calls.append(1)
        original()
    widget.redraw = redraw
    return calls


class KeysApp(App):
    BINDINGS = [Binding("x", "go", "Go"), Binding("y", "stay", "Stay")]
    go_now = False

    def compose(self):
        yield KeyFooter()

    def check_action(self, action: str, parameters) -> bool | None:
        return True if action != "go" or self.go_now else None     # None: shown, dimmed


async def test_the_key_footer_repaints_only_when_its_keys_read_differently():
    app = KeysApp()
    async with app.run_test(size=(60, 5)) as pilot:
        await pilot.pause()
        footer = app.screen.query_one(KeyFooter)
        redraws = count_redraws(footer)
        before = bottom_row(app)
        assert "".join(t for t, _ in before).startswith(" x Go y Stay")
        for _ in range(3):                           # "the keys may have changed": they have not
            app.refresh_bindings()
            await pilot.pause()
        assert redraws == [] and bottom_row(app) == before
        app.go_now = True                            # now they have: x comes alive
        app.refresh_bindings()
        await pilot.pause()
        assert len(redraws) == 1
        after = bottom_row(app)
        assert after != before and "".join(t for t, _ in after) == "".join(t for t, _ in before)
        assert after[0][1].bold and not before[0][1].bold


def test_a_line_repaints_only_for_new_text():
    line = Line("Alice to act")
    redraws = count_redraws(line)
    line.refresh = lambda *a, **k: None            # not mounted: nothing to repaint
    line.update(Text("Alice to act"))
    assert redraws == []
    line.update(Text.assemble(("Alice", "bold"), " to act"))     # same words, new style
    assert len(redraws) == 1
    line.update(Text.assemble(("Alice", "bold"), " to act"))
    assert len(redraws) == 1


async def test_a_new_screen_is_styled_once_not_again_when_it_hears_its_width(world):
    """Textual gives a screen its breakpoint class (-narrow, -wide) at its first resize, and a class
    that changes restyles the whole screen: every screen of a login was styled twice over (a tenth
    of a login's CPU). The app gives a new screen the class of the width it opens at, so that
    resize changes nothing; narrow or wide, the table screen is laid out for that width."""
    from textual.css.stylesheet import Stylesheet

    from cardroom.tui.app import build_app
    from cardroom.tui.screens.table import TableScreen
    from tests.rooms import table_settings

    w = world(table_settings("T"))
    for size, shown in (((100, 30), "-narrow"), ((130, 40), "-wide")):
        app = build_app(w.room.connect(f"rail{size[0]}"))
        async with app.run_test(size=size) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            restyled: list[int] = []
            update_nodes = Stylesheet.update_nodes

            def counted(self, nodes, animate=False, restyled=restyled, update_nodes=update_nodes):
                nodes = list(nodes)
                restyled.append(len(nodes))
                return update_nodes(self, nodes, animate=animate)

            Stylesheet.update_nodes = counted
            try:
                await pilot.press("enter")                  # watch the table
                await pilot.pause()
                await pilot.pause()
            finally:
                Stylesheet.update_nodes = update_nodes
            assert isinstance(app.screen, TableScreen) and app.screen.has_class(shown)
            screen_nodes = len(list(app.screen.walk_children(with_self=True)))
            assert len([n for n in restyled if n >= screen_nodes]) == 1, (restyled, screen_nodes)


async def test_sessions_on_the_same_lobby_share_its_rows_and_footer(world):
    """A thousand railbirds' lobbies each made the same rows and footer lines (a tenth of a
    login's CPU); sessions that see a lobby alike now share them, made once."""
    from cardroom.tui.app import build_app
    from cardroom.tui.screens.lobby import LobbyScreen
    from tests.rooms import table_settings

    w = world(*[table_settings(f"T{i}") for i in range(3)])
    shown = []
    for name in ("rail1", "rail2"):
        app = build_app(w.room.connect(name))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            rows = [screen._cells(r) for r in screen.client.lobby()]
            shown.append((rows, screen.query_one(KeyFooter).text_lines(100, 3)))
    (rows1, footer1), (rows2, footer2) = shown
    assert all(a is b for a, b in zip(rows1, rows2)) and len(rows1) == 3
    assert all(a is b for a, b in zip(footer1, footer2))
