"""A tournament table's seats: who is dealt the next hand, the button and the blinds, and where
a moved player sits.

The button and blinds move as the room's cash tables move them (room/seating.py `plan_hand`,
with two blinds and a dead small blind): the big blind goes to the next player after the last
big blind, so nobody skips it when players go; the small blind is the last big blind's seat
(dead when that player is gone) and the button the last small blind's seat. Every seated player
is dealt in (away or not: nobody posts to come in, nobody misses a blind), but for newcomers:

- a player moved to balance the tables was due the big blind at his old table: he takes the open
  seat where it reaches him soonest and WAITS for it there (room/seating.py's newcomer who waits
  for the big blind), so his first hand at his new table is his big blind: he neither pays it
  twice nor skips it;
- a player from a broken table, or a late entry, takes a seat by the TDA's random draw and is
  dealt in at once, unless he sits between the button and the small blind ("dealt in except
  between the small blind and button"): dealt there he would take the button or the small blind
  from the players due them, so he sits that one hand out.

Seats are numbered 1..size clockwise; play goes clockwise, as everywhere in the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Iterable


@dataclass(frozen=True, slots=True)
class Plan:
    """One hand at one table, as room/seating.py's HandPlan says it: seat numbers."""

    button: int | None               # None in stud (no button)
    small_blind: int | None          # who posts it; None in stud, or when it is dead
    big_blind: int | None
    dealt: tuple[int, ...]           # ascending
    small_blind_seat: int | None     # where the small blind is, posted or dead


def after(seat: int, seats: list[int]) -> int:
    """The first of `seats` (ascending) clockwise after `seat`."""
    for s in seats:
        if s > seat:
            return s
    return seats[0]


def before(seat: int, seats: list[int]) -> int:
    """The last of `seats` (ascending) clockwise before `seat`."""
    for s in reversed(seats):
        if s < seat:
            return s
    return seats[-1]


def between(seat: int, start: int, end: int) -> bool:
    """`seat` strictly clockwise-between `start` and `end` (nothing when they are the same)."""
    if start == end:
        return False
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def next_plan(seats: Iterable[int], last: Plan | None, new: Collection[int] = (),
              waiting: Collection[int] = (), *, stud: bool = False) -> Plan | None:
    """The next hand at a table whose players sit in `seats`, after `last` (None: its first
    hand). `new`: seats of players not dealt a hand here yet (a broken table's, late entries);
    `waiting`: seats of players moved here who wait for the big blind. None: fewer than two
    players."""
    present = sorted(seats)
    if len(present) < 2:
        return None
    if stud:
        return Plan(None, None, None, tuple(present), None)
    if last is None or last.big_blind is None:
        button = present[0]
        small, big = _blinds(button, present)
        return Plan(button, small, big, tuple(present), small)
    big = after(last.big_blind, present)
    small_seat = last.big_blind
    button_seat = last.small_blind_seat if last.small_blind_seat not in (None, big) else small_seat
    dealt = [s for s in present if s == big or not (
        s in waiting or (s in new and between(s, button_seat, small_seat)))]
    if len(dealt) < 2:
        dealt = present            # nobody else to play: everyone is dealt in, the blinds go on
    if len(dealt) == 2:            # heads-up: the button posts the small blind
        button = before(big, dealt)
        return Plan(button, button, big, tuple(dealt), button)
    posting = small_seat if small_seat in dealt else None     # the small blind, unless it is dead
    return Plan(before(posting if posting is not None else big, dealt), posting, big, tuple(dealt), small_seat)


def _blinds(button: int, dealt: list[int]) -> tuple[int, int]:
    if len(dealt) == 2:
        return button, after(button, dealt)
    small = after(button, dealt)
    return small, after(small, dealt)


def hands_to_big_blind(seats: Iterable[int], last: Plan | None, new: Collection[int],
                       waiting: Collection[int], seat: int) -> int:
    """How many hands are dealt at the table before the one where `seat` posts the big blind
    (0: he posts it next hand), if nobody comes or goes meanwhile."""
    seats = list(seats)
    new, waiting = set(new), set(waiting)
    for hands in range(len(seats) + 1):       # the big blind goes round every seat
        plan = next_plan(seats, last, new, waiting)
        if plan is None or plan.big_blind == seat:
            return hands
        new -= set(plan.dealt)
        waiting -= set(plan.dealt)
        last = plan
    raise AssertionError(f"the big blind never reaches seat {seat}")   # pragma: no cover


def seat_for_move(size: int, seats: Collection[int], last: Plan | None, new: Collection[int] = (),
                  waiting: Collection[int] = (), *, stud: bool = False,
                  vacated: int | None = None) -> tuple[int, int] | None:
    """(seat, hands he waits) for a player moved to balance the tables (TDA), or None when the
    table is full.

    Games with blinds: the player moved is the one due the big blind next at his table; here he
    takes the open seat where it reaches him soonest ("the worst position", TDA: the next big
    blind's when it is open) and waits for it; ties go to the first seat clockwise after the last
    big blind. (A table that has not dealt yet starts fresh: its first hand deals everyone.) Stud
    (no button; TDA "the last seat open at the short table is the seat filled"): the seat that
    opened last, and he is dealt in at once."""
    open_seats = [s for s in range(1, size + 1) if s not in seats]
    if not open_seats:
        return None
    if stud:
        return (vacated if vacated in open_seats else open_seats[0]), 0
    anchor = last.big_blind if last is not None and last.big_blind is not None else 0

    def cost(s: int) -> tuple[int, int]:
        return (hands_to_big_blind([*seats, s], last, new, {*waiting, s}, s), (s - anchor - 1) % size)

    seat = min(open_seats, key=cost)
    return seat, cost(seat)[0]


def stud_mover(seats: Collection[int], target_seat: int, size: int) -> int:
    """Stud's player moved (TDA: "players move by position"): the one in the seat of the same
    number as the seat he will fill, or the first after it clockwise."""
    occupied = sorted(seats)
    return target_seat if target_seat in occupied else after(target_seat, occupied)
