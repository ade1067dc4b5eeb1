"""What a tournament is (config.toml's `[[tournaments]]` block, as config.py builds it).

Two kinds: a sit & go starts when `seats` players have registered (one table, or several when
`seats` is more than `table_size`); a scheduled tournament starts at `start` (epoch seconds),
or every `every` seconds from it, with `min_players` or it is cancelled and every buy-in
refunded, late registration for its first `late_levels` levels and `reentries` re-entries in
that time. Money (buy-in, fee, added) is cents; chips are chips.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.engine.betting import ANTE_ALL, Structure
from cardroom.engine.tournament.levels import Schedule
from cardroom.engine.tournament.payouts import Payouts
from cardroom.engine.variants import Variant, find_variant

SIT_AND_GO, SCHEDULED = "sit-and-go", "scheduled"
KINDS = (SIT_AND_GO, SCHEDULED)


@dataclass(frozen=True, slots=True)
class TournamentSpec:
    name: str
    game: str                        # a key of engine.variants.VARIANTS
    structure_kind: str              # fixed, spread, pot, no
    schedule: Schedule
    payouts: Payouts
    starting_chips: int
    table_size: int
    kind: str = SIT_AND_GO
    seats: int = 0                   # sit & go: starts with this many players
    buy_in: int = 0                  # cents, into the prize pool
    fee: int = 0                     # cents, the house's
    added: int = 0                   # cents the house adds to the pool (a freeroll's whole pool)
    start: float | None = None       # scheduled: epoch seconds of the (first) start
    every: int = 0                   # scheduled: seconds between starts; 0: once
    late_levels: int = 0             # scheduled: late registration for the first N levels
    reentries: int = 0               # re-entries allowed per player (in late registration)
    min_players: int = 2             # scheduled: fewer at the start cancels it
    max_players: int | None = None   # scheduled: None = no limit; a sit & go holds `seats`
    ante_style: str = ANTE_ALL

    @property
    def variant(self) -> Variant:
        return find_variant(self.game)

    @property
    def capacity(self) -> int | None:
        """Most entries (re-entries count), or None."""
        return self.seats if self.kind == SIT_AND_GO else self.max_players

    @property
    def late_registration_ends(self) -> float | None:
        """Clock seconds when late registration closes; None when there is none."""
        if not self.late_levels:
            return None
        end = self.schedule.level_ends(self.late_levels)
        return end if end is not None else float("inf")

    def structure(self, level: int) -> Structure:
        """The betting of a hand at `level` (0-based)."""
        return self.schedule.levels[level].structure(self.structure_kind, self.ante_style)

    def next_start(self, now: float) -> float | None:
        """A scheduled tournament's next start at or after `now` (None: a one-off that is past,
        or a sit & go). A recurring one starts every `every` seconds from `start` (or from the
        epoch: `every = 3600` starts on the hour)."""
        if self.kind != SCHEDULED:
            return None
        anchor = self.start if self.start is not None else 0.0
        if not self.every:
            return anchor if anchor >= now else None
        if now <= anchor:
            return anchor
        periods = -(-(now - anchor) // self.every)      # ceiling
        return anchor + periods * self.every
