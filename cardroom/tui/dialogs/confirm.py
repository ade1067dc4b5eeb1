"""A yes/no question (stand pat, a fixed-limit bet, leaving during a hand)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class Confirm(ModalScreen[bool]):
    BINDINGS = [Binding("enter,y", "yes", "Yes"), Binding("escape,n", "no", "No")]

    def __init__(self, question: str, yes: str = "Yes", no: str = "Cancel") -> None:
        super().__init__()
        self.question, self.yes, self.no = question, yes, no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), id="question")
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (Enter)", id="yes", variant="primary")
                yield Button(f"{self.no} (Esc)", id="no")

    def on_mount(self) -> None:
        self.set_focus(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")

    def action_yes(self) -> None:
        self.dismiss(True)

    def action_no(self) -> None:
        self.dismiss(False)
