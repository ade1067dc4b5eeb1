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
