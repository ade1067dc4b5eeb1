"""Shown instead of the room while the terminal is smaller than the screens are laid out for:
squeezed, they would overlap and cut words off. It goes when the window is made big enough."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

MIN_SIZE = (80, 24)     # the smallest terminal every screen is laid out (and tested) for


def too_small(size) -> bool:
    """Is a terminal of `size` (width, height) below MIN_SIZE?"""
    return size[0] < MIN_SIZE[0] or size[1] < MIN_SIZE[1]


class TooSmallScreen(Screen):
    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; background: $background; }
    TooSmallScreen Static { width: auto; max-width: 100%; height: auto; padding: 0 1; }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="too-small-text")

    def on_mount(self) -> None:
        self._say(self.app.size)

    def on_resize(self, event) -> None:
        self._say(event.size)

    def _say(self, size) -> None:
        w, h = size
        self.query_one(Static).update(Text(
            f"Make the window bigger: cardroom needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]} "
            f"(this one is {w}x{h}). Ctrl+Q quits."))
