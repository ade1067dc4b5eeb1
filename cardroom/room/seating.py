"""Who is dealt into the next hand, where the button goes and who posts what (seed 001).

A pure function of the seats, so every blind rule is testable without a table:
- dead button (Robert's Rules): the big blind moves to the next player after the last big blind,
  so nobody skips one because the player due before him left; the small blind goes to the seat of
  the last big blind, dead (not posted) when that player is gone or sitting out, and the button to
  the player before the blinds (the same player twice when the seat in front of him emptied);
- new players either post the equivalent of the big blind (live) or wait for the big blind;
- a returning player who missed the big blind posts it live plus the small blind dead; one who
  missed only the small blind posts it dead; or he waits for the big blind;
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
    missed_bb: bool = False
    wants_post: bool = False  # post now rather than wait for the big blind


@dataclass(frozen=True, slots=True)
class HandPlan:
    button: int | None           # seat number of the player acting as the button; None in stud
    dealt: tuple[int, ...]       # seat numbers dealt in, ascending
    small_blind: int | None      # who posts it; None in stud, or when the small blind is dead
    big_blind: int | None
    live_posts: dict = field(default_factory=dict)   # seat -> True (posts the big blind, live)
    dead_posts: dict = field(default_factory=dict)   # seat -> True (posts the small blind, dead)
    missed_sb: tuple[int, ...] = ()   # sitting-out seats the small blind passed
    missed_bb: tuple[int, ...] = ()   # sitting-out seats the big blind passed
    small_blind_seat: int | None = None   # where the small blind is, posted or dead


def posts_owed(owes: str, missed_sb: bool, missed_bb: bool) -> tuple[bool, bool]:
    """(a live big blind, a dead small blind): what a player who owes posts to come in anywhere but
    the blinds. A newcomer posts the big blind; a missed big blind is posted live with the small
    blind dead; a missed small blind alone, dead."""
    return owes == "new" or missed_bb, missed_bb or missed_sb


def _after(seat: int, seats: list[int]) -> int:
    """The first of `seats` (ascending) clockwise after `seat`."""
    for s in seats:
        if s > seat:
            return s
    return seats[0]


def _before(seat: int, seats: list[int]) -> int:
    """The last of `seats` (ascending) clockwise before `seat`."""
    for s in reversed(seats):
        if s < seat:
            return s
    return seats[-1]


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
    """`seat` in the clockwise arc (start, end]; nothing when start is None or the arc is empty."""
    if start is None or start == end:
        return False
    return seat == end or _between(seat, start, end)


def plan_hand(seats: list[SeatFacts], prev: HandPlan | None, *, stud: bool = False,
              dead_small_blind: bool = True) -> HandPlan | None:
    """The next hand. dead_small_blind: a table of two blinds deals a hand without its small blind
    when that seat's player is gone; other tables (the engine posts one or three blinds, all left of
    its button) have the player before the big blind post it, even twice running."""
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
    if starting or prev is None:
        # The first hand, or a game starting again: the button moves one player, the blinds follow.
        button = _after(prev.button, established) if prev and prev.button is not None else established[0]
        dealt = list(established)
        sb, bb = _blinds(button, dealt)
        sb_seat = sb
    else:
        dealt, button, sb, bb, sb_seat = _dead_button(ready, established, facts, prev, dead_small_blind)
    live, dead = {}, {}
    for n in dealt:
        f = facts[n]
        if not f.owes or starting or n in (sb, bb):
            # Entering in the big blind posts just that: the blinds have come round to him.
            continue
        owes_live, owes_dead = posts_owed(f.owes, f.missed_sb, f.missed_bb)
        if owes_live:
            live[n] = True
        if owes_dead:
            dead[n] = True
    missed_sb, missed_bb = [], []
    if prev is not None and prev.big_blind is not None:
        for s in seats:
            if s.present and not s.ready:
                if _in_arc(s.number, prev.small_blind_seat, sb_seat):
                    missed_sb.append(s.number)
                if _in_arc(s.number, prev.big_blind, bb):
                    missed_bb.append(s.number)
    return HandPlan(button, tuple(dealt), sb, bb, live, dead, tuple(missed_sb), tuple(missed_bb),
                    sb_seat)


def _dead_button(ready: list[int], established: list[int], facts: dict, prev: HandPlan,
                 dead_small_blind: bool):
    """A game under way: (dealt, button, small blind or None, big blind, small blind's seat).

    The big blind is the next ready player after the last one (a newcomer there is dealt in, post
    or no post); the small blind's seat is the last big blind's and the button's the last small
    blind's (but not on the big blind, going from heads-up to three)."""
    bb = _after(prev.big_blind, ready)
    sb_seat = prev.big_blind
    button_seat = prev.small_blind_seat if prev.small_blind_seat not in (None, bb) else sb_seat
    posters = [n for n in ready if n not in established and n != bb and facts[n].wants_post
               and not _between(n, button_seat, bb)]    # no posting between button and big blind
    dealt = sorted({*established, bb, *posters})
    if len(dealt) == 2:
        sb = _before(bb, dealt)                       # heads-up the button posts the small blind
        return dealt, sb, sb, bb, sb
    if sb_seat in dealt:
        sb = sb_seat
    else:
        sb = None if dead_small_blind else _before(bb, dealt)
    return dealt, _before(sb if sb is not None else bb, dealt), sb, bb, sb_seat
