"""A table's settings: the game, its stakes and rules, and the house's times and limits (a frozen
record; config.py makes one per [[table]]). Its own module: the table's collaborators and views
read it, and none of them may import the table."""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.engine.betting import NO, POT, Rules, Structure
from cardroom.engine.pokerstars import PLAY
from cardroom.engine.variants import Variant

# How long a settlement the store fails is retried before the hand is void (room/settlement.py):
# [server] database_outage_seconds (10) and a reconnect.
STORE_PATIENCE = 13.0


@dataclass(frozen=True, slots=True)
class TableSettings:
    name: str
    variant: Variant
    structure: Structure
    rules: Rules | None = None    # None: the game's own page (Rules.of_game: Draw Lo deals as seed 000)
    seats: int = 10
    action_seconds: float = 23.0
    countdown_seconds: int = 10
    # A player whose connection is lost has this long to come back when it is his decision, then
    # his hand is played as a timeout's (seed 000: "if your connection is lost or you fail to
    # respond within 23 seconds"); counted from the loss, never more than action_seconds.
    reconnect_seconds: float = 5.0
    # Hot-seat: a person's decision clock starts when they have the device (Table.ready), not
    # while it is being passed to them.
    clock_waits_for_ready: bool = False
    sit_out_seconds: float | None = None     # default 15 min, 10 min at 5-max tables
    sit_outs_allowed: int = 3
    seat_hold_seconds: float = 60.0
    between_hands: float = 3.0
    bot_delay: float = 1.0
    min_buy_in: int | None = None            # default 10x the small bet
    max_buy_in: int | None = None            # default 100x the big blind in pot/no limit
    chat_lines: int = 200
    # A settlement the store fails (busy, PostgreSQL away) is retried this long before the hand is
    # void ([server] database_outage_seconds: a short outage voids nothing; room/settlement.py).
    store_patience: float = STORE_PATIENCE
    currency: str = PLAY                     # what the chips are, for hand histories (config: [room] currency)

    def __post_init__(self) -> None:
        if self.rules is None:
            object.__setattr__(self, "rules", Rules.of_game(self.variant))

    @property
    def sit_out_limit(self) -> float:
        if self.sit_out_seconds is not None:
            return self.sit_out_seconds
        return 600.0 if self.seats <= 5 else 900.0

    @property
    def buy_in_min(self) -> int:
        return self.min_buy_in if self.min_buy_in is not None else 10 * self.structure.small_bet

    @property
    def buy_in_max(self) -> int | None:
        if self.max_buy_in is not None:
            return self.max_buy_in
        if self.structure.kind in (POT, NO):
            return 100 * self.structure.big_blind
        return None
