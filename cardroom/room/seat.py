"""The record of one seated account at a table: its chips, its options, its timers, its state.

A module of its own because the table and the collaborators that change seats (the floor sits
players down, the seat holds time sit-outs and empty seats) all need the class at import time,
and none of them may import the table (it imports them). Not in `seating.py`: that module is
pure functions over frozen `SeatFacts`, testable without a table; this is the table's mutable
record, timers included.
"""

from __future__ import annotations


class Seat:
    """A seated account (mutable; only its table and the table's collaborators change it)."""

    def __init__(self, number: int, account: int, name: str) -> None:
        self.number = number
        self.account = account
        self.name = name
        self.stack = 0
        self.sitting_out = False
        self.sit_out_count = 0
        self.sit_out_timer = None
        self.empty_timer = None    # runs while the seat has no chips and its player is away
        self.bought_in = False     # chips have been at this seat (else it was taken and never paid for)
        self.connected = True
        self.auto_blind = False     # seed 000: asked to post each blind until he turns it on
        self.auto = "ask"
        self.owes = "new"
        self.missed = frozenset()  # the table's blinds (by index) that passed him sitting out
        self.wants_post = True
        self.timed_out = False
        self.leaving = False
        self.pending_chips = 0
        self.buying = 0            # a buy-in the store has not recorded yet
        self.cashing_out = False   # the store is moving this seat's chips back to its account
        self.bot = None            # a random.Random when a practice bot plays this seat
        self.message = ""

    @property
    def table_chips(self) -> int:
        """Chips here as a change of stake counts them: the stack (the one a hand in progress
        began with) plus chips waiting to be added after it."""
        return self.stack + self.pending_chips + self.buying
