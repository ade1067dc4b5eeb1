"""Tournaments' pure rules (issue 38; DESIGN.md "Tournaments"): levels and breaks, payouts,
places, seating and balancing (TDA), and the director that runs one tournament and returns every
change as a record for the room to execute. Stdlib only; time is passed in; randomness injected.
"""

from cardroom.engine.tournament.balancing import Rng
from cardroom.engine.tournament.director import (
    CANCELLED, FINISHED, REGISTERING, RUNNING, Director, TournamentError,
)
from cardroom.engine.tournament.levels import Level, Schedule, ScheduleError, Stage
from cardroom.engine.tournament.payouts import PayoutBand, PayoutError, Payouts
from cardroom.engine.tournament.records import (
    BreakStarted, Cancelled, Deal, Eliminated, Finished, HandForHand, Hold, LateRegistrationClosed,
    LevelStarted, Moved, Paused, Placed, Refunded, Registered, Resumed, Seated, Shared, Standing,
    Started, TableBroken, TableOpened, Unregistered,
)
from cardroom.engine.tournament.seats import Plan, next_plan
from cardroom.engine.tournament.snapshot import restore, snapshot
from cardroom.engine.tournament.spec import KINDS, SCHEDULED, SIT_AND_GO, TournamentSpec

__all__ = [
    "Director", "TournamentError", "REGISTERING", "RUNNING", "FINISHED", "CANCELLED", "Rng",
    "TournamentSpec", "KINDS", "SIT_AND_GO", "SCHEDULED",
    "Level", "Schedule", "Stage", "ScheduleError", "Payouts", "PayoutBand", "PayoutError",
    "Plan", "next_plan", "snapshot", "restore",
    "Registered", "Unregistered", "Started", "Cancelled", "Refunded", "Shared", "TableOpened",
    "TableBroken", "Seated", "Moved", "LevelStarted", "BreakStarted", "LateRegistrationClosed",
    "HandForHand", "Paused", "Resumed", "Eliminated", "Placed", "Finished", "Deal", "Hold", "Standing",
]
