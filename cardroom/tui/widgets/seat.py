"""One seat at the table: name, stack, current bet, status, the dealer button, the cards.

Status never relies on colour alone: the acting seat is marked with an arrow, the button with a
"D" disc, and sitting out / all-in / folded / disconnected are written out.
"""

from __future__ import annotations

from rich.text import Text
from textual.message import Message

from cardroom.room.api import SeatState
from cardroom.tui.options import UIOptions
from cardroom.tui.render import cards_text, money
from cardroom.tui.widgets.lines import TextLines

STATUS_WORDS = {"sitting out": "sitting out", "all-in": "ALL-IN", "protected": "ALL-IN (protected)",
                "folded": "folded", "waiting": "waiting"}


class Seat(TextLines):
    DEFAULT_CSS = """
    Seat { height: 3; width: 1fr; padding: 0 1; }
    Seat.-empty { color: $text-muted; }
    Seat.-acting { background: $warning 25%; }
    Seat.-mine { text-style: bold; }
    Seat.-folded { color: $text-muted; }
    """

    class Clicked(Message):
        def __init__(self, number: int) -> None:
            super().__init__()
            self.number = number

    def __init__(self, number: int, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.number = number
        self.opts = opts
        self.state: SeatState | None = None
        self.mine = False
        self.drew: int | None = None

    def show(self, state: SeatState, mine: bool, drew: int | None) -> None:
        if (state, mine, drew) == (self.state, self.mine, self.drew):
            return
        self.state, self.mine, self.drew = state, mine, drew
        self.set_class(state.status == "empty", "-empty")
        self.set_class(state.acting, "-acting")
        self.set_class(mine, "-mine")
        self.set_class(state.status == "folded", "-folded")
        self.redraw()

    def restyle(self) -> None:
        self.redraw()

    def text_lines(self, width: int, height: int) -> list[Text]:
        s = self.state
        if s is None:
            return []
        if s.status == "empty":
            words = "held" if s.held_for else "open"
            return [Text(f"Seat {s.number}", "bold"), Text(words, "italic")]
        ascii_ = self.opts.ascii
        line1 = Text(no_wrap=True, overflow="ellipsis")
        if s.acting:
            line1.append(">" if ascii_ else "\u25b6", "bold")
            line1.append(" ")
        line1.append(s.name)        # a user-chosen name: plain text, never markup
        if s.is_button:
            line1.append(" ")
            line1.append(" D ", "bold black on yellow")
        if not s.connected:
            line1.append(" (disconnected)", "italic")
        line2 = Text(money(s.stack), no_wrap=True, overflow="ellipsis")
        if s.bet:
            line2.append("  bet ", "dim")
            line2.append(money(s.bet), "bold")
        if self.drew is not None:
            line2.append(f"  drew {self.drew}", "italic")
        line3 = Text(no_wrap=True, overflow="ellipsis")
        if s.cards:
            line3.append_text(cards_text(s.cards, self.opts))
            if s.status in ("all-in", "protected"):
                line3.append(" " + STATUS_WORDS[s.status], "bold")
        elif s.status in STATUS_WORDS:
            line3.append(STATUS_WORDS[s.status], "italic")
        return [line1, line2, line3]

    def on_click(self) -> None:
        self.post_message(self.Clicked(self.number))
