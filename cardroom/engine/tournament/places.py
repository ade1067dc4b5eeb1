"""Places of players out at the same time (TDA; DESIGN.md "Tournaments").

Players out on the same hand, or in the same hand-for-hand round, take the worst places still
open together: the one who started the hand with more chips places higher. Players who started
it with the same chips share the prizes of the places they take, equally, the odd cent to the
earlier place; each still gets a place of his own (by entry number among them), so the places
of a tournament are always a permutation of 1..entrants.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from cardroom.engine.tournament.payouts import split


@dataclass(frozen=True, slots=True)
class Out:
    """An entry out of chips: `chips` it started that hand with."""

    entry: int
    chips: int


@dataclass(frozen=True, slots=True)
class Award:
    entry: int
    place: int
    prize: int
    shared: tuple[int, ...] = ()     # the places whose prizes were shared (equal chips), or ()


def prize_of(place: int, prizes: Sequence[int]) -> int:
    return prizes[place - 1] if place <= len(prizes) else 0


def award(outs: Sequence[Out], worst: int, prizes: Sequence[int]) -> list[Award]:
    """Places worst-len(outs)+1 .. worst for `outs`, best place first."""
    order = sorted(outs, key=lambda o: (-o.chips, o.entry))
    first = worst - len(order) + 1
    awards: list[Award] = []
    i = 0
    while i < len(order):
        j = i
        while j < len(order) and order[j].chips == order[i].chips:
            j += 1
        places = tuple(range(first + i, first + j))
        amounts = split(sum(prize_of(p, prizes) for p in places), len(places))
        shared = places if len(places) > 1 else ()
        awards += [Award(o.entry, p, a, shared) for o, p, a in zip(order[i:j], places, amounts)]
        i = j
    return awards
