"""The admin panel driven by Pilot: typing, Tab completion, literal output."""

import pytest
from textual.app import App
from textual.widgets import RichLog, Static

from cardroom.admin.commands import explain
from cardroom.admin.panel import AdminPanel, CommandInput, build_console_app


def log_text(app) -> str:
    log = app.screen.query_one("#admin-log", RichLog)
    return "\n".join(strip.text for strip in log.lines)


async def type_text(pilot, text: str) -> None:
    await pilot.press(*("space" if ch == " " else ch for ch in text))


async def test_typing_tab_completion_and_literal_markup_in_the_output(admin):
    alice, _ = admin.players()
    app = build_console_app(admin.ctx)
    async with app.run_test(size=(120, 30)) as pilot:
        assert isinstance(app.screen, AdminPanel)
        log = app.screen.query_one("#admin-log", RichLog)
        assert log.markup is False and log.highlight is False
        box = app.screen.query_one(CommandInput)
        assert box.has_focus
        await type_text(pilot, "cre")
        await pilot.press("tab")
        assert box.value == "credit "
        explained = app.screen.query_one("#admin-explain", Static)
        assert str(explained.render()) == explain("credit")
        await type_text(pilot, "al")
        await pilot.press("tab")
        assert box.value == "credit alice "
        await type_text(pilot, "5 refund")
        box.value += " [bold]misdeal[/] [@click=app.quit]x[/]"
        await pilot.press("enter")
        await pilot.pause()
        assert box.value == ""
        out = log_text(app)
        assert "> credit alice 5 refund [bold]misdeal[/] [@click=app.quit]x[/]" in out
        assert "credited $5 to alice: refund [bold]misdeal[/] [@click=app.quit]x[/]" in out
        assert app.is_running                               # the click action was not run
    assert alice.my_money().balance == 90_500
    admin.conserved()


async def test_refusals_are_shown_and_ambiguous_tab_lists_candidates(admin):
    admin.players()
    app = build_console_app(admin.ctx)
    async with app.run_test(size=(120, 30)) as pilot:
        box = app.screen.query_one(CommandInput)
        await type_text(pilot, "un")
        await pilot.press("tab")
        assert box.value == "un"                            # two candidates: listed, not chosen
        assert "unban  unmute" in log_text(app)
        box.value = "credit alice 1_000 \x1b[2Jx"
        await pilot.press("enter")
        await pilot.pause()
        out = log_text(app)
        assert "is not an amount" in out and "\x1b" not in out
        box.value = "kick [red]nobody[/]"
        await pilot.press("enter")
        await pilot.pause()
        assert "no player called '[red]nobody[/]'" in log_text(app)
        await pilot.press("up")
        assert box.value == "kick [red]nobody[/]"           # history
        await pilot.press("up", "down")
        assert box.value == "kick [red]nobody[/]"
    admin.conserved()


async def test_the_panel_is_a_screen_the_main_tui_can_push_and_escape_closes(admin):
    class Host(App):
        pass

    app = Host()
    async with app.run_test(size=(100, 24)) as pilot:
        base = app.screen
        app.push_screen(AdminPanel(admin.ctx))
        await pilot.pause()
        assert isinstance(app.screen, AdminPanel)
        app.screen.query_one(CommandInput).value = "who"
        await pilot.press("enter")
        await pilot.pause()
        assert "online" in log_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is base


async def test_escape_does_not_close_the_console(admin):
    app = build_console_app(admin.ctx)
    async with app.run_test() as pilot:
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, AdminPanel) and app.is_running
        app.screen.query_one(CommandInput).value = "shutdown now"
        await pilot.press("enter")
        await pilot.pause()
    assert admin.shutdowns == [1]


async def test_no_character_is_lost_under_the_scrollbar_at_80_columns(admin):
    """Issue 35: at 80 columns the log drew every line 78 wide (RichLog's minimum), and once the
    scrollbar came its last characters were under it. Every line now wraps inside it."""
    from tests.tui.conftest import screen_text
    word = "".join(f"{i:03d}" for i in range(60))            # one long word: folded, never lost
    app = build_console_app(admin.ctx)
    async with app.run_test(size=(80, 24)) as pilot:
        for line in ("help", f"broadcast {word}"):
            app.screen.query_one(CommandInput).value = line
            await pilot.press("enter")
            await pilot.pause()
        log = app.screen.query_one("#admin-log", RichLog)
        assert log.max_scroll_y > 0                          # the scrollbar is there
        rows = screen_text(app).splitlines()[1:1 + log.size.height]
        assert word in "".join(row[:77].strip() for row in rows)


@pytest.mark.parametrize("size", [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")])
def test_panel_snapshot(snap_compare, admin, size):
    """The panel after `help`: every line whole inside the scrollbar, at 80 columns too."""
    async def help_typed(pilot):
        pilot.app.screen.query_one(CommandInput).value = "help"
        await pilot.press("enter")

    assert snap_compare(build_console_app(admin.ctx, ("cardroom is serving 2 table(s)",)),
                        terminal_size=size, run_before=help_typed)
