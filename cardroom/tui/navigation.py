"""Where a screen asks to go: messages given to the app (`app.navigate(OpenTable(name))`), which
builds and shows the screen; handled at once, in the screen's own turn (see CardroomApp.navigate).

A screen never imports another screen; it says where to go and the app (the one place that knows
every screen and what each needs) answers, so the screens form no import ring."""

from __future__ import annotations

from textual.message import Message


class OpenLobby(Message):
    """Replace the current page (the welcome) with the lobby, and open `then_table` over it."""

    def __init__(self, *, then_table: str | None = None) -> None:
        super().__init__()
        self.then_table = then_table


class OpenTable(Message):
    """Push table `name`, already watched or joined; `buy_in` asks for the buy-in at once."""

    def __init__(self, name: str, *, buy_in: bool = False) -> None:
        super().__init__()
        self.name = name
        self.buy_in = buy_in


class OpenMoney(Message):
    """Push My Money."""


class OpenKeys(Message):
    """Push My SSH keys."""


class OpenHistory(Message):
    """Push my hand histories."""


class OpenHand(Message):
    """Push the replay of one of my hands (a HandRecord), street by street."""

    def __init__(self, hand, variant) -> None:
        super().__init__()
        self.hand = hand
        self.variant = variant


class OpenExport(Message):
    """Push the export of one of my hands (PokerStars text or PHH)."""

    def __init__(self, hand) -> None:
        super().__init__()
        self.hand = hand


class OpenHelp(Message):
    """Push the rules of a table."""

    def __init__(self, rules, table: str) -> None:
        super().__init__()
        self.rules = rules
        self.table = table


class OpenTournament(Message):
    """Push tournament number `number`'s own lobby."""

    def __init__(self, number: int) -> None:
        super().__init__()
        self.number = number
