"""Help: this table's own rules (from the view) and the keys."""

from __future__ import annotations

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from cardroom.tui.render import money

KEYS = [
    ("1-5", "hold / unhold a card (draw games); a click on a card does the same"),
    ("enter", "draw the cards not held (all held: stand pat, confirmed)"),
    ("f", "fold"), ("c", "check, call or bring in"), ("r", "bet, raise or complete (amount prompt)"),
    ("space", "tap the table: check in a betting round, stand pat at the draw"),
    ("a", "auto: Ask Me"), ("F2", "auto: Check/Fold"), ("F3", "auto: Check/Call"),
    ("F4", "auto: Bet/Call"), ("F5", "auto: Raise It"), ("F6", "auto: Fold in Turn"),
    ("j / w / b", "join / wait list / buy in"), ("s", "sit out / sit in"), ("l", "leave the table"),
    ("t / d", "chat to the players / ask the dealer (ctrl+t toggles)"), ("h", "hand history"),
    ("o", "options"), ("m", "My Money"), ("?", "this help"), ("esc", "back to the lobby (your seat is kept)"),
    ("] / ctrl+n", "next of your tables (those waiting for you first)"), ("F12", "admin panel (admins)"),
    ("enter / s", "when asked to post your blind (Auto Blind off): post it / sit out"),
    ("p / w", "new here or back after missing the blinds: post as soon as you may / wait for the big blind"),
    ("k", "My keys (from the welcome screen and My Money): the SSH keys that log in as you"),
    ("ctrl+p", "command palette"), ("ctrl+q", "quit"),
]


def rules_text(rules, table: str) -> Text:
    t = Text()
    t.append(f"{table}\n", "bold")
    if rules is None:
        return t
    t.append(f"{rules.game}, {rules.stakes}\n")
    if rules.cap:
        t.append(f"At most {rules.cap} bets a round (a bet and {rules.cap - 1} raises).\n")
    t.append(f"Rake: {rules.rake}.\n")
    t.append(f"You have {rules.action_seconds} seconds to act; the last 10 are counted down.\n")
    t.append(f"You may sit out {rules.sit_out_minutes} minutes at a time.\n")
    t.append(f"Buy-in: at least {money(rules.min_buy_in)}"
             + (f", at most {money(rules.max_buy_in)}" if rules.max_buy_in else "") + ".\n")
    for line in rules.house:
        t.append(f"House rule: {line}.\n")
    return t


class HelpScreen(ModalScreen):
    BINDINGS = [Binding("escape,question_mark,q", "close", "Close")]

    def __init__(self, rules, table: str) -> None:
        super().__init__()
        self.rules, self.table = rules, table

    def compose(self) -> ComposeResult:
        # Two columns, so a long description wraps under itself rather than under the keys.
        keys = Table.grid(padding=(0, 2))
        keys.add_column(justify="right", style="bold", no_wrap=True)
        keys.add_column(overflow="fold")
        for k, what in KEYS:
            keys.add_row(k, what)
        with VerticalScroll(classes="dialog wide"):
            yield Static(rules_text(self.rules, self.table), id="help-rules")
            yield Static(Text.assemble(("Keys", "bold"), ("   (esc, ? or q closes this help)", "dim")),
                         id="help-keys-title")
            yield Static(keys, id="help-keys")

    def action_close(self) -> None:
        self.dismiss()
