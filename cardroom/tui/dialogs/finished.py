"""A tournament's end for me: where I finished and what I won. It stays until answered (a toast
would slide away while the player looks at the table): Enter keeps watching, `l` the lobby."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Static


class Finished(ModalScreen[str]):
    BINDINGS = [Binding("enter,escape", "watch", "Keep watching"), Binding("l", "lobby", "Lobby")]

    def __init__(self, tournament: str, words: str) -> None:
        super().__init__()
        self.tournament, self.words = tournament, words

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="finished"):
            yield Static(Text(self.tournament, "bold"), id="dialog-title")
            yield Static(Text(self.words, "bold"), id="finished-words")
            with Horizontal(classes="buttons"):
                yield Button("Keep watching (Enter)", id="watch", variant="primary")
                yield Button("Lobby (l)", id="lobby")

    def on_mount(self) -> None:
        self.set_focus(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_watch(self) -> None:
        self.dismiss("watch")

    def action_lobby(self) -> None:
        self.dismiss("lobby")
