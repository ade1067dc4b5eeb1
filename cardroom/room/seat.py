"""The record of one seated account at a table: its chips, its options, its timers, its state.

A module of its own because the table and the collaborators that change seats (the floor sits
players down, the seat holds time sit-outs and empty seats) all need the class at import time,
and none of them may import the table (it imports them). Not in `seating.py`: that module is
pure functions over frozen `SeatFacts`, testable without a table; this is the table's mutable
record, timers included.
"""

from __future__ import annotations

import logging
import random

from cardroom.room.clock import Timer
from cardroom.room.ports import Store
from cardroom.room.writer import Writer

log = logging.getLogger("cardroom.table")

# The player's preference (Session.preferences) that keeps his Auto Blind: set whenever he turns it
# on or off, read when he sits down (seed 000's toggle starts off; after that it is his choice).
AUTO_BLIND = "auto_blind"


def kept_auto_blind(store: Store, account: int) -> bool:
    """His Auto Blind as he last left it; off when he never chose, or the store can't say."""
    try:
        return bool(store.preferences(account).get(AUTO_BLIND) == "1")
    except Exception:          # noqa: BLE001 - a store that fails costs the default, never the seat
        log.exception("reading the Auto Blind kept for account %s", account)
        return False


def keep_auto_blind(writer: Writer, store: Store, account: int, on: bool) -> None:
    """Keep his choice for his next seats and logins, as his other options are (issue 35);
    through the table's writer, as every store write. Not kept: logged, the seat keeps it."""
    def then(_result: object, error: Exception | None) -> None:
        if error is not None:
            log.warning("keeping the Auto Blind of account %s failed: %s", account, error)
    writer.submit(lambda: store.set_preferences(account, {AUTO_BLIND: "1" if on else "0"}), then)


class Seat:
    """A seated account (mutable; only its table and the table's collaborators change it)."""

    def __init__(self, number: int, account: int, name: str) -> None:
        self.number = number
        self.account = account
        self.name = name
        self.stack = 0
        self.sitting_out = False
        self.sit_out_count = 0
        self.sit_out_timer: Timer | None = None
        self.empty_timer: Timer | None = None    # runs while the seat has no chips and its player is away
        self.bought_in = False     # chips have been at this seat (else it was taken and never paid for)
        self.connected = True
        self.lost_at: float | None = None   # when the connection was lost (the table's clock)
        self.auto_blind = False     # seed 000: asked to post each blind until he turns it on (kept)
        self.auto = "ask"
        self.owes = "new"
        self.missed: frozenset[int] = frozenset()  # the table's blinds (by index) that passed him sitting out
        self.wants_post = True
        self.timed_out = False
        self.leaving = False
        self.pending_chips = 0
        self.buying = 0            # a buy-in the store has not recorded yet
        self.cashing_out = False   # the store is moving this seat's chips back to its account
        self.bot: random.Random | None = None   # a random.Random when a practice bot plays this seat
        self.message = ""

    @property
    def table_chips(self) -> int:
        """Chips here as a change of stake counts them: the stack (the one a hand in progress
        began with) plus chips waiting to be added after it."""
        return self.stack + self.pending_chips + self.buying
