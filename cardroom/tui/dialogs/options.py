"""Options (seed 000): four-colour deck, letter/symbol suits, ASCII, sound (the terminal bell on my
turn), Auto Blind, post or wait for missed blinds, and Change Table Stake.

Returns the chosen settings as a dict (None when cancelled); the screen applies them."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Static

from cardroom.tui.options import UIOptions


class Tick(Checkbox):
    """A checkbox whose mark is drawn only when it is ticked. Textual's draws its X either way
    and tells on from off by colour alone, which a monochrome terminal (or a player who cannot
    tell the two colours apart) does not show. One line tall: Textual's three-line box made six
    options push the dialog's buttons off an 80x24 screen."""

    DEFAULT_CSS = """
    Tick { border: none; padding: 0 1; height: 1; background: transparent; }
    Tick:focus { border: none; background: $boost; text-style: bold; }
    """

    # Textual's class attributes, read on the instance: properties follow the state (so the
    # override of a writable attribute by a read-only property, which mypy refuses, is meant).
    @property
    def BUTTON_INNER(self) -> str:  # type: ignore[override]  # noqa: N802 - see above
        return "X" if self.value else " "

    @property
    def BUTTON_LEFT(self) -> str:  # type: ignore[override]  # noqa: N802 - as BUTTON_INNER
        return "[" if self._ascii() else "\u2590"

    @property
    def BUTTON_RIGHT(self) -> str:  # type: ignore[override]  # noqa: N802 - as BUTTON_INNER
        return "]" if self._ascii() else "\u258c"

    def __init__(self, label: str, value: bool, **kwargs) -> None:
        super().__init__(label, value, **kwargs)
        self.initial = value

    def _ascii(self) -> bool:
        return bool(getattr(getattr(self.app, "options", None), "ascii", False))


class OptionsDialog(ModalScreen[dict | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "save", "Save")]

    def __init__(self, opts: UIOptions, *, seated: bool, auto_blind: bool, post_blinds: bool | None) -> None:
        super().__init__()
        self.opts = opts
        self.seated = seated
        self.auto_blind = auto_blind
        self.post_blinds = post_blinds

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static("Options", id="dialog-title")
            yield Tick("Four-colour deck", self.opts.four_colour, id="four_colour")
            yield Tick("Letter suits (c d h s)", self.opts.letters, id="letters")
            yield Tick("ASCII only (no symbols or box lines)", self.opts.ascii, id="ascii")
            yield Tick("Sound: ring the bell on my turn", self.opts.sound, id="sound")
            if self.seated:
                yield Tick("Auto Blind: post my blinds without asking", self.auto_blind, id="auto_blind")
                if self.post_blinds is not None:
                    yield Tick("Post missed blinds now (else wait for the big blind)",
                                   self.post_blinds, id="post_blinds")
            with Horizontal(classes="buttons"):
                yield Button("Save (ctrl+s)", id="save", variant="primary")
                if self.seated:
                    yield Button("Change table stake", id="stake")
                yield Button("Cancel (Esc)", id="cancel")

    def values(self) -> dict:
        return {cb.id: cb.value for cb in self.query(Checkbox)}

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.dismiss(self.values())
        elif event.button.id == "stake":
            self.dismiss(self.values() | {"stake": True})
        else:
            self.dismiss(None)

    def action_save(self) -> None:
        self.dismiss(self.values())

    def action_cancel(self) -> None:
        if any(cb.value != cb.initial for cb in self.query(Tick)):
            # Esc used to drop a change without a word; the player may have meant Save.
            self.app.notify("Options not saved (ctrl+s saves)", severity="warning")
        self.dismiss(None)
