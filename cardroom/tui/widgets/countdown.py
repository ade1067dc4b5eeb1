"""The decision clock, for whoever is acting, on every screen at the table: the whole decision time
as a shrinking bar, and the last seconds as large digits (seed 000: 23 s, the last 10 counted)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Digits

from cardroom.tui.options import UIOptions
from cardroom.tui.widgets.lines import Line


class Countdown(Vertical):
    DEFAULT_CSS = """
    Countdown { width: 24; height: 4; padding: 0 1; }
    Countdown > #clock-who { height: 1; width: 100%; }
    Countdown > #clock-bar { height: 1; width: 100%; }
    Countdown > Digits { width: auto; color: $error; text-style: bold; }
    """

    def __init__(self, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.opts = opts
        self._state: tuple[str | None, int | None, int | None, float] | None = None
        self._who: str | None = None

    def compose(self) -> ComposeResult:
        yield Line(id="clock-who")
        yield Line(id="clock-bar")
        digits = Digits("", id="clock-digits")
        digits.display = False
        yield digits

    def show(self, who: str | None, seconds_left: float | None, countdown: int | None, total: float) -> None:
        """who: the acting player's name (None: nobody is on the clock)."""
        left = None if seconds_left is None else int(seconds_left + 0.999)
        state = (who, left, countdown, total)
        if state == self._state:
            return
        self._state = state
        who_w = self.query_one("#clock-who", Line)
        bar_w = self.query_one("#clock-bar", Line)
        digits = self.query_one(Digits)
        # Fixed sizes, line-drawn: no layout pass (a layout on every screen at the table every
        # second was the dearest thing the server did), and the name only when it changes.
        if who is None or seconds_left is None:
            who_w.update("")
            bar_w.update("")
            digits.display = False
            self._who = None
            return
        if who != self._who:
            who_w.update(Text.assemble((who, "bold"), " to act"))
            self._who = who
        if countdown is not None:
            bar_w.display = False
            digits.display = True
            digits.update(f"{countdown:2d}")
            return
        bar_w.display = True
        digits.display = False
        width = 16
        filled = max(0, min(width, round(width * seconds_left / total))) if total else 0
        full, empty = ("#", "-") if self.opts.ascii else ("\u2588", "\u2591")
        bar_w.update(Text.assemble((full * filled, "green"), (empty * (width - filled), "dim"),
                                   f" {left:2d}s"))

    def restyle(self) -> None:
        self._state = None
        self._who = None
