"""Who is dealt into the next hand, where the button goes and who posts what (seed 001).

A pure function of the seats, so every blind rule is testable without a table:
- the button moves one player left each hand;
- new players (and players returning with missed blinds) either post the equivalent of the big
  blind (live; a missed small blind is posted dead) or wait for the big blind to reach them;
- nobody posts in to play while between the button and the big blind;
- a player sitting out when a blind passes his seat has missed it.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class SeatFacts:
    number: int
    ready: bool              # has chips and is sitting in
    present: bool = True     # seated at all (sitting-out players are present but not ready)
    owes: str = ""           # "" established, "new" just sat down, "missed" missed blinds
    missed_sb: bool = False
    wants_post: bool = False  # post now rather than wait for the big blind


@dataclass(frozen=True, slots=True)
class HandPlan:
    button: int | None           # seat number; None in stud
    dealt: tuple[int, ...]       # seat numbers dealt in, ascending
    small_blind: int | None
    big_blind: int | None
    live_posts: dict = field(default_factory=dict)   # seat -> True (posts the big blind, live)
    dead_posts: dict = field(default_factory=dict)   # seat -> True (posts the small blind, dead)
    missed_sb: tuple[int, ...] = ()   # sitting-out seats the small blind passed
    missed_bb: tuple[int, ...] = ()   # sitting-out seats the big blind passed


def _after(seat: int, seats: list[int]) -> int:
    """The first of `seats` (ascending) clockwise after `seat`."""
    for s in seats:
        if s > seat:
            return s
    return seats[0]


def _blinds(button: int, dealt: list[int]) -> tuple[int, int]:
    """Small and big blind seats by the engine's convention (heads-up: the button is the small blind)."""
    if len(dealt) == 2:
        return button, _after(button, dealt)
    sb = _after(button, dealt)
    return sb, _after(sb, dealt)


def _between(seat: int, start: int, end: int) -> bool:
    """`seat` strictly clockwise-between `start` and `end`."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _in_arc(seat: int, start: int | None, end: int) -> bool:
    """`seat` in the clockwise arc (start, end]; everything up to `end` when start is None."""
    if start is None:
        return False
    return seat == end or _between(seat, start, end)


def plan_hand(seats: list[SeatFacts], prev: HandPlan | None, *, stud: bool = False) -> HandPlan | None:
    ready = sorted(s.number for s in seats if s.ready)
    if len(ready) < 2:
        return None
    if stud:
        return HandPlan(None, tuple(ready), None, None)
    facts = {s.number: s for s in seats}
    established = [n for n in ready if not facts[n].owes]
    starting = len(established) < 2
    if starting:
        # A table starting up, or starting again (fewer than two players who owe nothing): the
        # blinds are simply dealt round, and nobody owes a post to come in.
        established = list(ready)
    prev_button = prev.button if prev and prev.button is not None else None
    button = _after(prev_button, established) if prev_button is not None else established[0]

    dealt = list(established)
    waiting = [n for n in ready if n not in dealt and not facts[n].wants_post]
    posters = [n for n in ready if n not in dealt and facts[n].wants_post]
    # A player waiting for the big blind plays when it reaches him.
    for w in waiting:
        trial = sorted(dealt + [w])
        if _blinds(button, trial)[1] == w:
            dealt = trial
            break
    dealt = sorted(dealt + posters)
    while True:
        sb, bb = _blinds(button, dealt)
        blocked = [p for p in posters if p in dealt and (p == sb or _between(p, button, bb))
                   and p != bb]
        if not blocked:
            break
        dealt = [d for d in dealt if d not in blocked]   # no posting between button and big blind
    live, dead = {}, {}
    for n in dealt:
        f = facts[n]
        # Entering anywhere but the blinds: the big blind live, plus a missed small blind dead.
        # Entering in the big blind posts just that: the blinds have come round to him.
        if f.owes and not starting and n not in (sb, bb):
            live[n] = True
            if f.missed_sb:
                dead[n] = True
    missed_sb, missed_bb = [], []
    if prev is not None and prev.big_blind is not None:
        for s in seats:
            if s.present and not s.ready:
                if _in_arc(s.number, prev.small_blind, sb):
                    missed_sb.append(s.number)
                if _in_arc(s.number, prev.big_blind, bb):
                    missed_bb.append(s.number)
    return HandPlan(button, tuple(dealt), sb, bb, live, dead, tuple(missed_sb), tuple(missed_bb))
