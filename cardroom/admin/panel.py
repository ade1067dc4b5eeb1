"""The admin command panel: a command line over `commands.execute` and an output log.

    AdminPanel(ctx)            # a Screen: the main TUI pushes it for admin accounts (Escape closes)
    build_console_app(ctx)     # an App showing the same panel, for the server's own terminal

The command line suggests the rest of a command as you type (Right accepts) and Tab completes
(command names, then tables / players / key fingerprints; several candidates are listed in the
log). Up/Down walk the lines already run. The line under the input explains the command being
typed. Output is written as `rich.text.Text` to a RichLog with markup OFF: names, reasons and
hand histories appear literally, `[bold]` and all.
"""

from __future__ import annotations

import os

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Input, RichLog, Static

from cardroom.admin.commands import COMMANDS, AdminContext, complete, execute, explain
from cardroom.room.text import clean_text

__all__ = ["AdminPanel", "CommandInput", "build_console_app"]

HISTORY_MAX = 200
LOG_MAX_LINES = 5_000


def _printable(text: str, limit: int = 2_000) -> str:
    return "".join(ch for ch in text if ch.isprintable())[:limit]


class _CommandSuggester(Suggester):
    """The first completion of the line so far, shown greyed after the cursor."""

    def __init__(self, ctx: AdminContext) -> None:
        super().__init__(use_cache=False, case_sensitive=True)   # the room changes under us
        self._ctx = ctx

    async def get_suggestion(self, value: str) -> str | None:
        for line in complete(self._ctx, value):
            if line.startswith(value) and line != value:
                return line
        return None


class CommandInput(Input):
    """An Input with Tab completion and a history of the lines run."""

    BINDINGS = [
        Binding("tab", "complete", "Complete", show=False),
        Binding("up", "history(-1)", "Previous", show=False),
        Binding("down", "history(1)", "Next", show=False),
    ]

    class Candidates(Message):
        """Tab found several completions: the panel lists them."""

        def __init__(self, candidates: list[str]) -> None:
            super().__init__()
            self.candidates = candidates

    def __init__(self, ctx: AdminContext, **kwargs) -> None:
        super().__init__(suggester=_CommandSuggester(ctx), **kwargs)
        self._ctx = ctx
        self.history: list[str] = []
        self._at = 0

    def action_complete(self) -> None:
        candidates = complete(self._ctx, self.value)
        if not candidates:
            self.app.bell()
            return
        common = candidates[0] if len(candidates) == 1 else os.path.commonprefix(candidates)
        if len(common) > len(self.value) or (len(candidates) == 1 and common != self.value):
            self.value = common
            self.cursor_position = len(self.value)
        if len(candidates) > 1:
            self.post_message(self.Candidates(candidates))

    def action_history(self, step: int) -> None:
        if not self.history:
            return
        self._at = max(0, min(len(self.history), self._at + step))
        self.value = self.history[self._at] if self._at < len(self.history) else ""
        self.cursor_position = len(self.value)

    def remember(self, line: str) -> None:
        if line and (not self.history or self.history[-1] != line):
            self.history.append(line)
            del self.history[:-HISTORY_MAX]
        self._at = len(self.history)


class AdminPanel(Screen):
    """The admin's command line and output log over `ctx` (see the module docstring)."""

    DEFAULT_CSS = """
    AdminPanel {
        layout: vertical;
    }
    AdminPanel #admin-title {
        height: 1;
        padding: 0 1;
        background: $primary;
        color: $text;
    }
    AdminPanel #admin-log {
        height: 1fr;
        padding: 0 1;
        scrollbar-gutter: stable;
    }
    AdminPanel #admin-explain {
        height: 1;
        padding: 0 1;
        color: $text-muted;
    }
    AdminPanel CommandInput {
        height: 3;
    }
    """

    BINDINGS = [Binding("escape", "close", "Close the admin panel")]

    def __init__(self, ctx: AdminContext, banner: tuple[str, ...] = (), **kwargs) -> None:
        super().__init__(**kwargs)
        self.ctx = ctx
        self.banner = banner   # the server's own words (address, host key fingerprint)

    def compose(self) -> ComposeResult:
        who = clean_text(self.ctx.admin, 60) or "?"
        yield Static(Text(f"cardroom admin  -  {who}"), id="admin-title")
        # Lines are wrapped to the width inside the scrollbar, kept there from the first line on
        # (stable gutter), and no wider: RichLog's default min_width of 78 drew each line at 78
        # columns, and at 80 the scrollbar hid its last characters (issue 35).
        yield RichLog(id="admin-log", markup=False, highlight=False, wrap=True,
                      max_lines=LOG_MAX_LINES, min_width=1)
        yield Static(Text(""), id="admin-explain")
        yield CommandInput(self.ctx, placeholder="a command (help lists them; Tab completes)",
                           id="admin-input")

    def on_mount(self) -> None:
        self.write_lines(self.banner, style="bold")
        self.write(Text("Type help for the commands. Tab completes; Up/Down recall; "
                        "Escape closes.", style="dim"))
        self.query_one(CommandInput).focus()

    # ------------------------------------------------------------------ output
    @property
    def log_widget(self) -> RichLog:
        return self.query_one("#admin-log", RichLog)

    def write(self, text: Text) -> None:
        self.log_widget.write(text)

    def write_lines(self, lines, style: str = "") -> None:
        for line in lines:
            self.write(Text(_printable(line), style=style))

    # ------------------------------------------------------------------ input
    @on(Input.Changed, "#admin-input")
    def _explain(self, event: Input.Changed) -> None:
        words = event.value.split(maxsplit=1)
        word = words[0].lower() if words else ""
        text = explain(word)
        if not text and word and len(words) == 1:
            matches = [name for name in COMMANDS if name.startswith(word)]
            if len(matches) == 1:
                text = explain(matches[0])
            elif matches:
                text = "  ".join(matches)
        self.query_one("#admin-explain", Static).update(Text(text))

    @on(CommandInput.Candidates)
    def _candidates(self, event: CommandInput.Candidates) -> None:
        self.write(Text("  ".join(_printable(c.strip(), 200) for c in event.candidates),
                        style="dim"))

    @on(Input.Submitted, "#admin-input")
    async def _run(self, event: Input.Submitted) -> None:
        line = event.value
        box = self.query_one(CommandInput)
        box.value = ""
        if not line.strip():
            return
        box.remember(line)
        self.write(Text("> " + _printable(line), style="bold"))
        result = await execute(self.ctx, line)
        self.write_lines(result.lines, "" if result.ok else "red")

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 1 and self.app.screen is self:
            self.dismiss()


class _ConsoleApp(App):
    TITLE = "cardroom console"

    def __init__(self, ctx: AdminContext, banner: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.ctx = ctx
        self.banner = banner

    def get_default_screen(self) -> Screen:
        return AdminPanel(self.ctx, self.banner)


def build_console_app(ctx: AdminContext, banner: tuple[str, ...] = ()) -> App:
    """The server terminal's app: the admin panel as its only screen (Ctrl+Q quits the server)."""
    return _ConsoleApp(ctx, banner)
