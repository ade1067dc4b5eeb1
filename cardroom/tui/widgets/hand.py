"""My cards, in a row, with hold toggles (keys 1-5 or a click)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from cardroom.tui.options import UIOptions
from cardroom.tui.widgets.card import HandCard

MAX_CARDS = 7


class MyHand(Horizontal):
    DEFAULT_CSS = """
    MyHand { height: 4; width: 1fr; }
    MyHand > #hand-label { width: auto; height: 4; padding: 1 1 0 0; color: $text-muted; }
    """

    def __init__(self, opts: UIOptions, **kw) -> None:
        super().__init__(**kw)
        self.opts = opts
        self._cards: tuple = ()
        self._holds: frozenset = frozenset()
        self._label = ""

    def compose(self) -> ComposeResult:
        yield Static("", id="hand-label", markup=False)
        for i in range(MAX_CARDS):
            card = HandCard(i, self.opts, id=f"card-{i + 1}")
            card.display = False
            yield card

    def show(self, cards: tuple, holds: frozenset, label: str, holdable: bool) -> None:
        """Attributes down: my cards, which are held, a label; only what changed is repainted."""
        if label != self._label:
            self._label = label
            self.query_one("#hand-label", Static).update(Text(label))
        if cards == self._cards and holds == self._holds:
            return
        self._cards, self._holds = cards, holds
        for i, w in enumerate(self.query(HandCard)):
            if i < len(cards):
                w.card = cards[i]
                w.held = i in holds
                w.set_class(holdable, "-playable")
                w.display = True
            else:
                w.display = False
                w.held = False

    def restyle(self) -> None:
        for w in self.query(HandCard):
            w.restyle()
