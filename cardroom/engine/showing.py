"""Ranking the up cards of a stud hand, to decide who acts first on fourth street and later.

With fewer than five cards straights and flushes do not count: four of a kind beats trips beats
two pair beats a pair beats no pair, ranks breaking ties from the top. In stud the best high
showing acts first; in razz the lowest showing (aces low, pairs bad) acts first.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

from cardroom.engine.cards import Card


def showing_value(ups: Sequence[Card], razz: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A key that is greater for the hand that should act first."""
    if razz:
        ranks = [(c.rank + 1) % 13 for c in ups]     # ace lowest
    else:
        ranks = [c.rank for c in ups]
    groups = sorted(Counter(ranks).items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(count for _, count in groups)
    order = tuple(rank for rank, _ in groups)
    if razz:
        # Lowest wins, as ace-to-five compares: fewer repeats first, then the paired ranks, then
        # the other cards from the top down, each the lower the better.
        return tuple(-x for x in shape), tuple(-r for r in order)
    return shape, order
