"""Amount prompts: the buy-in (default / min / max) and the bet or raise (seed 001: the largest
wager allowed is shown, the smallest is the default; pot-fraction presets in pot and no limit).

Each validates what was typed before anything is sent, and shows any refusal in the dialog; the
caller gets the amount in cents (or None when cancelled)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from cardroom.tui.render import BadAmount, chip_count, money, money2, parse_amount, parse_chips


class AmountDialog(ModalScreen[int | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, title: str, lines: list[str], default: int, lo: int, hi: int | None,
                 presets: Sequence[tuple[str, int]] = (), check=None, verb: str = "OK", chips: bool = False) -> None:
        super().__init__()
        # A tournament's amounts are whole chips ("1500"), a cash table's money ("12.50").
        self.amount: Callable[[int], str] = chip_count if chips else money      # shown
        self.parse: Callable[[str], int] = parse_chips if chips else parse_amount
        self.typed: Callable[[int], str] = str if chips else money2             # in the box
        self.title_text, self.lines = title, lines
        self.default, self.lo, self.hi = default, lo, hi
        self.presets = list(presets)
        self.check = check     # extra check: cents -> error text or None
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.title_text, "bold"), id="dialog-title")
            for line in self.lines:
                yield Static(Text(line), classes="dialog-line")
            # No `restrict`: it dropped a refused key without a word, so "1e9" typed and Enter
            # raised to $19. What was typed is checked whole, on Enter (parse_amount), and refused
            # with a message.
            yield Input(self.typed(self.default), id="amount")
            if self.presets:
                with Horizontal(classes="presets"):
                    for i, (label, _) in enumerate(self.presets):
                        yield Button(label, id=f"preset-{i}", compact=True)
            yield Static("", id="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.verb} (Enter)", id="ok", variant="primary")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        box = self.query_one("#amount", Input)
        box.focus()
        box.select_all()

    def error(self, text: str) -> None:
        self.query_one("#error", Static).update(Text(text, "bold red"))

    def validate(self, text: str) -> int | None:
        """The box's text -> cents, or None with the refusal shown. A space typed before or after
        the amount is the box's edge, not the amount (as shell words are to the admin console)."""
        try:
            cents = self.parse(text.strip())
        except BadAmount as e:
            self.error(str(e))
            return None
        if cents < self.lo:
            self.error(f"{self.amount(cents)} is too little: the smallest is {self.amount(self.lo)}")
            return None
        if self.hi is not None and cents > self.hi:
            self.error(f"{self.amount(cents)} is too much: the largest allowed is {self.amount(self.hi)}")
            return None
        if self.check is not None:
            problem = self.check(cents)
            if problem:
                self.error(problem)
                return None
        return cents

    @on(Input.Submitted, "#amount")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._ok()

    def _ok(self) -> None:
        cents = self.validate(self.query_one("#amount", Input).value)
        if cents is not None:
            self.dismiss(cents)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        bid = event.button.id or ""
        if bid == "ok":
            self._ok()
        elif bid == "cancel":
            self.dismiss(None)
        elif bid.startswith("preset-"):
            cents = self.presets[int(bid.split("-")[1])][1]
            box = self.query_one("#amount", Input)
            box.value = self.typed(cents)
            box.focus()

    def action_cancel(self) -> None:
        self.dismiss(None)


def buy_in_dialog(table: str, lo: int, hi: int | None, default: int, balance: int,
                  have: int = 0) -> AmountDialog:
    lines = [f"Minimum {money(lo)}" + (f", maximum {money(hi)}" if hi is not None else ", no maximum")
             + f"; your balance is {money(balance)}."]
    if have:
        lines.append(f"You have {money(have)} on the table already.")

    def check(cents: int) -> str | None:
        if cents > balance:
            return f"you have only {money(balance)} in your account"
        return None
    title = f"Buy in at {table}" if not have else f"Change table stake at {table}"
    lo_eff = lo if not have else 1
    return AmountDialog(title, lines, default, lo_eff, None if hi is None else hi - have,
                        check=check, verb="Buy in" if not have else "Add chips")


def wager_dialog(legal, my_bet: int, pot: int, structure: str, chips: bool = False) -> AmountDialog:
    """The bet/raise prompt: amounts are round totals ("raise to"); `chips`: a tournament's."""
    amount = chip_count if chips else money
    verb = {"bet": "Bet", "raise": "Raise", "complete": "Complete"}.get(legal.raise_kind, "Bet")
    lines = [f"{verb} to at least {amount(legal.min_to)}; the most you may {verb.lower()} to is "
             f"{amount(legal.max_to)}."]
    presets: list[tuple[str, int]] = []
    if structure in ("pot", "no"):
        call_to = my_bet + legal.call
        after_call = pot + legal.call
        for label, frac in (("1/2 pot", 0.5), ("pot", 1.0)):
            to = max(legal.min_to, min(legal.max_to, call_to + int(after_call * frac)))
            presets.append((f"{label} {amount(to)}", to))
        if structure == "no":
            # In no limit the largest bet is the whole stack. In pot limit it is the pot preset
            # itself (capped by the stack): a third button "all-in" showed the pot's amount.
            presets.append((f"all-in {amount(legal.max_to)}", legal.max_to))
    return AmountDialog(f"{verb} to how much?", lines, legal.min_to, legal.min_to, legal.max_to,
                        presets=presets, verb=verb, chips=chips)
