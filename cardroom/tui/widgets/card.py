"""A playing card: rank and suit, two- or four-colour, symbol or letter suits, ASCII fallback.

`HandCard` is one of my own cards: clicking it asks (by message) to toggle its hold; a held card
shows an "H" in its lower-left corner and drops a line (seed 000).
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from cardroom.tui.options import UIOptions
from cardroom.tui.render import card_text


class HandCard(Widget):
    DEFAULT_CSS = """
    HandCard {
        width: 6;
        height: 3;
        border: round $foreground 60%;
        border-subtitle-align: left;
        border-subtitle-color: red;
        border-subtitle-style: bold;
        content-align: center middle;
        margin: 0 1 0 0;
    }
    HandCard.-held { margin: 1 1 0 0; }
    HandCard.-ascii { border: ascii $foreground 60%; }
    HandCard.-playable:hover { border: round $accent; }
    """

    card = reactive(None, layout=False)
    held = reactive(False)

    class Clicked(Message):
        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, index: int, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.index = index
        self.opts = opts

    def render(self) -> Text:
        if self.card is None:
            return Text("")
        return card_text(self.card, self.opts)

    def watch_held(self, held: bool) -> None:
        self.set_class(held, "-held")
        self.border_subtitle = "H" if held else ""

    def restyle(self) -> None:
        self.set_class(self.opts.ascii, "-ascii")
        self.refresh()

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))
