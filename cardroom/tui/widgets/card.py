"""A playing card: rank and suit, two- or four-colour, symbol or letter suits, ASCII fallback.

`HandCard` is one of my own cards: clicking it asks (by message) to toggle its hold; a held card
shows an "H" in its lower-left corner and drops a line (seed 000).
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.message import Message
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from cardroom.tui.options import UIOptions
from cardroom.tui.render import card_text


_HELD = Style(color="red", bold=True)


class HandCard(Widget):
    DEFAULT_CSS = """
    HandCard {
        width: 6;
        height: 3;
        border: round $foreground 60%;
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

    def render_lines(self, crop: Region) -> list[Strip]:
        """The "H" is written over the bottom border's second cell: Textual keeps a border
        subtitle off a 6-wide card (no room for its padding), so it never showed."""
        strips = super().render_lines(crop)
        bottom, x = self.outer_size.height - 1 - crop.y, 1 - crop.x
        if self.held and 0 <= bottom < len(strips) and 0 <= x < strips[bottom].cell_length:
            line = strips[bottom]
            under = next(iter(line.crop(x, x + 1)), Segment(" ")).style or Style()
            strips[bottom] = Strip.join([line.crop(0, x), Strip([Segment("H", under + _HELD)], 1),
                                         line.crop(x + 1, line.cell_length)])
        return strips

    def restyle(self) -> None:
        self.set_class(self.opts.ascii, "-ascii")
        self.refresh()

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.index))
