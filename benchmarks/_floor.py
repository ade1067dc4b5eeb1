"""The floor of `python -m benchmarks ssh`: what any Textual app costs over cardroom's SSH server.

A bare Textual app, one Static line, served by the same server (`cardroom.ssh.start_server`: the
same asyncssh settings, driver, GC policy and Textual guards as the card room's sessions). A
session logs in with its own key, waits for its line, then presses a key `KEYS` times, each
changing the line (one widget repainted), waiting for the new line each time. What a login and a
repaint of the card room cost is printed beside what these cost: a target below the floor cannot
be met by cardroom's own code.
"""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Static

KEYS = 5          # repaints per session after its login


class FloorApp(App):
    """One line: "floor <user> <n>", n counting the keys pressed."""

    CSS = "Static { height: 1; }"

    def __init__(self, user: str) -> None:
        super().__init__()
        self.user = user
        self.presses = 0

    def compose(self) -> ComposeResult:
        yield Static(self._line(), markup=False)

    def _line(self) -> str:
        return f"floor {self.user} {self.presses}"

    def on_key(self, event) -> None:
        self.presses += 1
        self.query_one(Static).update(self._line())


def floor_app(info) -> FloorApp:
    """The server's app factory: one FloorApp per PTY session."""
    return FloorApp(info.username)
