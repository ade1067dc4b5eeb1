"""Every change a tournament director makes, as a frozen record returned by the call that made
it (as pokerkit's state returns `Folding(...)`): the room executes each (seats a player, moves
him, credits a prize), persists it and announces it. Players are the room's keys (an account
id or a name), entries are numbered from 1 in order of registration (a re-entry is a new entry);
money is cents, chips are chips, tables and seats are numbers from 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from cardroom.engine.betting import Structure
from cardroom.engine.tournament.levels import Level

Player = str | int


# ------------------------------------------------------------------------------ registration

@dataclass(frozen=True, slots=True)
class Registered:
    """Take buy_in + fee from the player's balance (the buy-in goes to the prize pool)."""

    player: Player
    entry: int
    buy_in: int
    fee: int
    reentry: bool = False


@dataclass(frozen=True, slots=True)
class Unregistered:
    """Before the start: give the player `refund` (his buy-in and fee) back."""

    player: Player
    refund: int


@dataclass(frozen=True, slots=True)
class Started:
    entrants: int
    tables: int


@dataclass(frozen=True, slots=True)
class Cancelled:
    reason: str


@dataclass(frozen=True, slots=True)
class Refunded:
    """Cancelled before the start: the buy-in and fee go back."""

    player: Player
    amount: int


@dataclass(frozen=True, slots=True)
class Shared:
    """Cancelled while running: this entry's part of the undecided pool, by its chips."""

    player: Player
    entry: int
    chips: int
    amount: int


# ------------------------------------------------------------------------------ tables and seats

@dataclass(frozen=True, slots=True)
class TableOpened:
    table: int


@dataclass(frozen=True, slots=True)
class TableBroken:
    """Its players have been moved (Moved records, reason "break"); close it."""

    table: int


@dataclass(frozen=True, slots=True)
class Seated:
    """A new entry takes his seat with his starting chips (the draw, or a late entry)."""

    player: Player
    entry: int
    table: int
    seat: int
    chips: int


@dataclass(frozen=True, slots=True)
class Moved:
    """The player goes, with his chips, to another table (between his hands: his table has none
    in progress); `reason` is "balance" (TDA balancing) or "break" (his table broke)."""

    player: Player
    entry: int
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    chips: int
    reason: str


# ------------------------------------------------------------------------------ the clock

@dataclass(frozen=True, slots=True)
class LevelStarted:
    """Level `number` (from 1) applies from the next hand each table deals."""

    number: int
    level: Level


@dataclass(frozen=True, slots=True)
class BreakStarted:
    """No table deals until the break is over (hands in progress finish)."""

    before_level: int
    minutes: int


@dataclass(frozen=True, slots=True)
class LateRegistrationClosed:
    entrants: int
    pool: int
    places_paid: int


@dataclass(frozen=True, slots=True)
class HandForHand:
    """On: no table deals its next hand until every table's hand is over; players out in one
    round are out together. Off: the bubble has burst."""

    on: bool


@dataclass(frozen=True, slots=True)
class Paused:
    pass


@dataclass(frozen=True, slots=True)
class Resumed:
    pass


# ------------------------------------------------------------------------------ out and in the money

@dataclass(frozen=True, slots=True)
class Eliminated:
    """Out of chips at the end of a hand; his place follows (at once, at the end of a
    hand-for-hand round, or when late registration closes)."""

    player: Player
    entry: int
    table: int
    seat: int
    started_with: int


@dataclass(frozen=True, slots=True)
class Placed:
    """`place` of `entrants`; credit `prize` to the player's balance now. `shared`: the places
    whose prizes he shares with players out on the same hand with the same chips."""

    player: Player
    entry: int
    place: int
    entrants: int
    prize: int
    shared: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Finished:
    winner: Player
    entry: int


# ------------------------------------------------------------------------------ dealing

@dataclass(frozen=True, slots=True)
class Deal:
    """Deal table `table`'s next hand so: the players of `seats` (ascending) with `stacks`,
    button and blinds at these seats (room/seating.py's HandPlan fields), at `level` (from 1)
    with `structure` (its small blind left out when it is dead, as the room does)."""

    table: int
    hand: int                        # the tournament's hands, from 1
    level: int
    structure: Structure
    seats: tuple[int, ...]
    entries: tuple[int, ...]
    stacks: tuple[int, ...]
    button: int | None
    small_blind: int | None
    big_blind: int | None
    small_blind_seat: int | None


@dataclass(frozen=True, slots=True)
class Hold:
    """Not now: `reason` says why, for the table's screen (ask again after a tick or a hand)."""

    table: int
    reason: str


@dataclass(frozen=True, slots=True)
class Standing:
    """One entry in the tournament lobby: chips, table and seat while in, place once decided."""

    player: Player
    entry: int
    chips: int
    table: int | None
    seat: int | None
    place: int | None


# Any change the director makes (Standing is a view, not a change). Union, not |: an alias
# evaluated at run time.
Record = Union[Registered, Unregistered, Started, Cancelled, Refunded, Shared, TableOpened, TableBroken, Seated,
               Moved, LevelStarted, BreakStarted, LateRegistrationClosed, HandForHand, Paused, Resumed, Eliminated,
               Placed, Finished, Deal, Hold]
