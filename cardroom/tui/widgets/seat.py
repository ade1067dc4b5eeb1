"""What one seat at the table shows: name, stack, current bet, status, the dealer button, the cards.

Status never relies on colour alone: the acting seat is marked with an arrow, the button with a
"D" disc, and sitting out / all-in / folded / disconnected are written out. The felt
(widgets/felt.py) draws the seats; this module only says what is written in one.
"""

from __future__ import annotations

from rich.text import Text

from cardroom.room.api import SeatState
from cardroom.tui.options import UIOptions
from cardroom.tui.render import cards_text, money

STATUS_WORDS = {"sitting out": "sitting out", "folded": "folded", "waiting": "waiting"}


def seat_lines(s: SeatState, drew: int | None, opts: UIOptions, amount=money) -> list[Text]:
    """The (up to three) lines written in a seat; a user-chosen name is plain text, never markup.
    `amount` writes the stack and bet (render.amount_of: money, or a tournament's chips)."""
    if s.status == "empty":
        words = "held" if s.held_for else "open"
        return [Text(f"Seat {s.number}", "bold"), Text(words, "italic")]
    line1 = Text(no_wrap=True, overflow="ellipsis")
    if s.acting:
        line1.append(">" if opts.ascii else "\u25b6", "bold")
        line1.append(" ")
    line1.append(s.name)
    if s.is_button:
        line1.append(" ")
        line1.append(" D ", "bold black on yellow")
    if not s.connected:
        line1.append(" (disconnected)", "italic")
    # All-in goes on the stack's line, not after the cards: seven stud cards fill a seat at 80
    # columns, and the word was cut off there.
    if s.status == "all-in":
        line2 = Text("ALL-IN", "bold", no_wrap=True, overflow="ellipsis")   # in place of "$0"
    else:
        line2 = Text(amount(s.stack), no_wrap=True, overflow="ellipsis")
        if s.status == "protected":
            line2.append(" protected", "bold")                              # a protected all-in
    if s.bet:
        line2.append("  bet ", "dim")
        line2.append(amount(s.bet), "bold")
    if drew is not None:
        line2.append(f"  drew {drew}", "italic")
    line3 = Text(no_wrap=True, overflow="ellipsis")
    if s.cards:
        line3.append_text(cards_text(s.cards, opts))
    elif s.status in STATUS_WORDS:
        line3.append(STATUS_WORDS[s.status], "italic")
    return [line1, line2, line3]
