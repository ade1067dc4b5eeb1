"""Who is dealt into the next hand, where the button goes and who posts what (seeds 001 and 002).

A pure function of the seats and the table's blinds (one to three, smallest first: the last, the
largest, is the big blind), so every blind rule is testable without a table:
- dead button (Robert's Rules): the big blind moves to the next player after the last big blind,
  so nobody skips one because the player due before him left, and every player posts it once an
  orbit, never twice running; each smaller blind goes to the seat of the blind above it last hand,
  dead (not posted) when that player is gone or sitting out, and the button to the seat of the
  smallest (the same player twice when the seat in front of him emptied);
- heads-up the two largest blinds are posted, the smaller by the button;
- new players either post the equivalent of the big blind (live) or wait for the big blind;
- a returning player who missed the big blind posts it live plus the smaller blinds dead; one
  who missed only smaller blinds posts those dead; or he waits for the big blind;
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
    missed: frozenset[int] = frozenset()   # the blinds (indices into the table's) that passed him sitting out
    wants_post: bool = False  # post now rather than wait for the big blind


@dataclass(frozen=True, slots=True)
class HandPlan:
    button: int | None           # seat number of the player acting as the button; None in stud
    dealt: tuple[int, ...]       # seat numbers dealt in, ascending
    blinds: tuple[int | None, ...] = ()   # who posts each of the table's blinds, smallest first; None: not posted
    blind_seats: tuple[int, ...] = ()     # where each blind is, posted or dead (the next hand's moves start here)
    live_posts: dict[int, int] = field(default_factory=dict)   # seat -> cents: a big blind posted to come in, live
    dead_posts: dict[int, int] = field(default_factory=dict)   # seat -> cents: missed smaller blinds, dead
    missed: dict[int, frozenset[int]] = field(default_factory=dict)   # sitting-out seat -> the blinds that passed him

    @property
    def big_blind(self) -> int | None:
        return self.blinds[-1] if self.blinds else None

    @property
    def small_blind(self) -> int | None:
        """Who posts the smallest blind of a table of two or three (None: dead, or heads-up of three)."""
        return self.blinds[0] if len(self.blinds) >= 2 else None


def posts_owed(owes: str, missed: frozenset[int], blinds: tuple[int, ...]) -> tuple[int, int]:
    """(live, dead) cents a player who owes posts to come in anywhere but the big blind. A newcomer
    posts the big blind; a missed big blind is posted live with the smaller blinds dead (they come
    round to his seat before he may post in: DESIGN.md, "with or without the small"); missed
    smaller blinds alone, those dead."""
    if not blinds:
        return 0, 0
    big = len(blinds) - 1
    if owes == "new":
        return blinds[big], 0
    if big in missed:
        return blinds[big], sum(blinds[:big])
    return 0, sum(blinds[i] for i in missed)


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


def _between(seat: int, start: int, end: int) -> bool:
    """`seat` strictly clockwise-between `start` and `end`."""
    if start < end:
        return start < seat < end
    return seat > start or seat < end


def _in_arc(seat: int, start: int, end: int) -> bool:
    """`seat` in the clockwise arc (start, end]; nothing when the arc is empty."""
    return start != end and (seat == end or _between(seat, start, end))


def _round(button: int, dealt: list[int], k: int) -> tuple[int, ...]:
    """The seats of k blinds dealt round from `button`, left of it in order (heads-up: the button
    has the smaller blinds, the other player the big one)."""
    if len(dealt) == 2:
        return (button,) * (k - 1) + (_after(button, dealt),)
    seats, s = [], button
    for _ in range(k):
        s = _after(s, dealt)
        seats.append(s)
    return tuple(seats)


def plan_hand(seats: list[SeatFacts], prev: HandPlan | None, blinds: tuple[int, ...]) -> HandPlan | None:
    """The next hand at a table of `blinds` (cents, smallest first; () in stud)."""
    ready = sorted(s.number for s in seats if s.ready)
    if len(ready) < 2:
        return None
    if not blinds:
        return HandPlan(None, tuple(ready))
    k = len(blinds)
    facts = {s.number: s for s in seats}
    established = [n for n in ready if not facts[n].owes]
    starting = len(established) < 2
    if starting:
        # A table starting up, or starting again (fewer than two players who owe nothing): the
        # blinds are simply dealt round, and nobody owes a post to come in.
        established = list(ready)
    if starting or prev is None or not prev.blind_seats:
        # The first hand, or a game starting again: the button moves one player, the blinds follow.
        button = _after(prev.button, established) if prev and prev.button is not None else established[0]
        dealt = list(established)
        at = _round(button, dealt, k)
    else:
        dealt, at = _dead_button(ready, established, facts, prev.blind_seats)
    if len(dealt) == 2:
        # Heads-up the two largest blinds are posted, the smaller by the button.
        button = _before(at[-1], dealt)
        at = (button,) * (k - 1) + at[-1:]
        posters = (None,) * (k - 2) + at[-2:] if k > 1 else at
    else:
        posters = _posters(at, dealt)
        button = _before(next(s for s in posters if s is not None), dealt)
    live, dead = {}, {}
    for n in dealt:
        f = facts[n]
        if not f.owes or starting or n in posters:
            # Entering in the big blind posts just that: the blinds have come round to him.
            continue
        owes_live, owes_dead = posts_owed(f.owes, f.missed, blinds)
        if owes_live:
            live[n] = owes_live
        if owes_dead:
            dead[n] = owes_dead
    missed = {}
    if prev is not None and prev.blind_seats:
        for s in seats:
            if s.present and not s.ready:
                passed = frozenset(i for i, (was, now) in enumerate(zip(prev.blind_seats, at))
                                   if _in_arc(s.number, was, now))
                if passed:
                    missed[s.number] = passed
    return HandPlan(button, tuple(dealt), posters, at, live, dead, missed)


def _posters(at: tuple[int, ...], dealt: list[int]) -> tuple[int | None, ...]:
    """Who posts each blind whose seats are `at`: the big blind's player, and each smaller blind's
    if he is dealt in and sits right before the next blind posted (the engine posts them left of
    its button in order). Otherwise that blind is dead: its player is gone or sitting out, its
    seat is a larger blind's (out of heads-up the big blind may come round to a smaller one's), or
    a player back from sitting out while the blinds were dealt round sits between."""
    posters: list[int | None] = [None] * (len(at) - 1) + [at[-1]]
    nearest = at[-1]
    for i in range(len(at) - 2, -1, -1):
        if at[i] in dealt and at[i] == _before(nearest, dealt) and at[i] not in at[i + 1:]:
            posters[i] = nearest = at[i]
    return tuple(posters)


def _dead_button(ready: list[int], established: list[int], facts: dict[int, SeatFacts],
                 was: tuple[int, ...]) -> tuple[list[int], tuple[int, ...]]:
    """A game under way: (dealt, the seats of the blinds).

    The big blind is the next ready player after the last one (a newcomer there is dealt in, post
    or no post); each smaller blind's seat is the seat of the blind above it last hand, and the
    button's the last smallest blind's (but not on a blind, going from heads-up to more)."""
    bb = _after(was[-1], ready)
    at = was[1:] + (bb,)
    button_seat = was[0] if was[0] not in at else next((s for s in at[:-1] if s != bb), was[0])
    posters = [n for n in ready if n not in established and n != bb and facts[n].wants_post
               and not _between(n, button_seat, bb)]    # no posting between button and big blind
    return sorted({*established, bb, *posters}), at
