"""The hand orders and their class tables: order names and class counts, the errors, the categories,
every five-card class of an order as a descriptor tuple (index = value), and the value tables the
evaluators index, built on first use per order (and kept: functools.cache).

evaluation.py (the fast evaluator functions) and describing.py (values into words) both import from
here; this module imports only cards.py.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import Iterable, Sequence

from cardroom.engine.cards import COUNT_SHIFT, RANK_KEYS, RANK_SHIFT

HIGH = "high"
ACE_TO_FIVE = "ace-to-five"
DEUCE_TO_SEVEN = "deuce-to-seven"
EIGHT_OR_BETTER = "eight-or-better"
OMAHA_HIGH = "omaha-high"
OMAHA_EIGHT_OR_BETTER = "omaha-eight-or-better"
ORDERS = (HIGH, ACE_TO_FIVE, DEUCE_TO_SEVEN, EIGHT_OR_BETTER, OMAHA_HIGH, OMAHA_EIGHT_OR_BETTER)
OMAHA_ORDERS = frozenset((OMAHA_HIGH, OMAHA_EIGHT_OR_BETTER))
LOW_ORDERS = frozenset((ACE_TO_FIVE, DEUCE_TO_SEVEN, EIGHT_OR_BETTER, OMAHA_EIGHT_OR_BETTER))

HIGH_CLASSES = 7462
ACE_TO_FIVE_CLASSES = 6175
DEUCE_TO_SEVEN_CLASSES = 7462
EIGHT_OR_BETTER_CLASSES = 56
CLASS_COUNTS = {
    HIGH: HIGH_CLASSES, ACE_TO_FIVE: ACE_TO_FIVE_CLASSES, DEUCE_TO_SEVEN: DEUCE_TO_SEVEN_CLASSES,
    EIGHT_OR_BETTER: EIGHT_OR_BETTER_CLASSES, OMAHA_HIGH: HIGH_CLASSES,
    OMAHA_EIGHT_OR_BETTER: EIGHT_OR_BETTER_CLASSES,
}


class EvaluationError(ValueError):
    """Something that cannot be evaluated."""


class UnknownOrder(EvaluationError):
    """An order name that is not one of ORDERS."""


class WrongCardCount(EvaluationError):
    """Too few or too many cards (or not Cards, or the same card twice) for the order."""


# Categories. High: index = strength. Lowball (ace-to-five) uses the same names, ordered the other way
# round (no pair best, four of a kind worst); deuce-to-seven is the high order upside down.
HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = ("high card", "one pair", "two pair", "three of a kind", "straight", "flush",
                  "full house", "four of a kind", "straight flush")
A5_CATEGORY = {0: HIGH_CARD, 1: PAIR, 2: TWO_PAIR, 3: TRIPS, 4: FULL_HOUSE, 5: QUADS}

ACE = 12
_LOW_RANK = tuple((r + 1) % 13 for r in range(13))          # ace-low index: A=0, 2=1, .., K=12
_CODE = tuple((1 << (RANK_SHIFT + r)) | (1 << COUNT_SHIFT) | RANK_KEYS[r] for r in range(13))  # suitless


def ranks_key(ranks: Iterable[int]) -> int:
    """The suitless sum of a rank multiset's codes (count, rank key and rank-bit fields)."""
    return sum(map(_CODE.__getitem__, ranks))


def _straight_top(mask: int, wheel: bool = True) -> int:
    """Top rank of the highest straight in a 13-bit rank mask, or -1."""
    for top in range(ACE, 3, -1):
        window = 0b11111 << (top - 4)
        if mask & window == window:
            return top
    if wheel and mask & 0b1000000001111 == 0b1000000001111:
        return 3
    return -1


def _bits_desc(mask: int) -> list[int]:
    return [r for r in range(ACE, -1, -1) if mask >> r & 1]


# The orders the evaluators are made for (evaluation._MAKERS has the same keys); here so that
# describing.py can check an order without importing evaluation.py.
_KNOWN_ORDERS = frozenset(ORDERS)


def check_order(order: str) -> None:
    if order not in _KNOWN_ORDERS:
        raise UnknownOrder(f"unknown hand order {order!r}: use one of {', '.join(ORDERS)}")


# A class as a tuple: its category (or badness) then the ranks that tell it from the others.
Descriptor = tuple[int, ...]


# ---------------------------------------------------------------------------------------------------
# Class lists: every five-card class of an order as a descriptor tuple, index = value.

def _high_classes(wheel: bool) -> list[Descriptor]:
    """All 7,462 high classes, worst first; `wheel=False` for deuce-to-seven (A-2-3-4-5 no straight)."""
    out: list[Descriptor] = []
    for ranks in combinations(range(ACE, -1, -1), 5):       # descending rank tuples
        mask = sum(1 << r for r in ranks)
        top = _straight_top(mask, wheel)
        if top >= 0:
            out.append((STRAIGHT, top))
            out.append((STRAIGHT_FLUSH, top))
        else:
            out.append((HIGH_CARD,) + ranks)
            out.append((FLUSH,) + ranks)
    desc = list(range(ACE, -1, -1))
    for p in desc:
        others = [r for r in desc if r != p]
        out.extend((PAIR, p) + ks for ks in combinations(others, 3))
        out.extend((TRIPS, p) + ks for ks in combinations(others, 2))
        out.extend((QUADS, p, k) for k in others)
        out.extend((FULL_HOUSE, p, k) for k in others)
    for hp, lp in combinations(desc, 2):
        out.extend((TWO_PAIR, hp, lp, k) for k in desc if k != hp and k != lp)
    out.sort()
    return out


def _a5_classes() -> list[Descriptor]:
    """All 6,175 ace-to-five classes as (badness, ace-low ranks...), best LAST (so index = value)."""
    out: list[Descriptor] = []
    lows = list(range(12, -1, -1))                           # ace-low indices, descending
    for ranks in combinations(lows, 5):
        out.append((0,) + ranks)
    for p in lows:
        others = [r for r in lows if r != p]
        out.extend((1, p) + ks for ks in combinations(others, 3))
        out.extend((3, p) + ks for ks in combinations(others, 2))
        out.extend((4, p, k) for k in others)
        out.extend((5, p, k) for k in others)
    for hp, lp in combinations(lows, 2):
        out.extend((2, hp, lp, k) for k in lows if k != hp and k != lp)
    out.sort(reverse=True)
    return out


def _eight_classes() -> list[Descriptor]:
    """The 56 qualifying eight-or-better lows as (0, ace-low ranks desc), worst first."""
    out: list[Descriptor] = [(0, *ranks) for ranks in combinations(range(7, -1, -1), 5)]
    out.sort(reverse=True)
    return out


# ---------------------------------------------------------------------------------------------------
# Best five from rank counts (no flush).

@cache
def rank_multisets() -> list[tuple[int, tuple[int, ...]]]:
    """(masked key, ranks ascending) for every rank multiset of 5, 6 or 7 cards (at most 4 a rank),
    the five-card ones first, then six, then seven."""
    code = _CODE.__getitem__
    out: list[tuple[int, tuple[int, ...]]] = []
    ranks: tuple[int, ...]
    for ranks in combinations_with_replacement(range(13), 5):
        if ranks[0] != ranks[4]:
            out.append((sum(map(code, ranks)), ranks))
    for ranks in combinations_with_replacement(range(13), 6):
        if ranks[0] != ranks[4] and ranks[1] != ranks[5]:
            out.append((sum(map(code, ranks)), ranks))
    for ranks in combinations_with_replacement(range(13), 7):
        if ranks[0] != ranks[4] and ranks[1] != ranks[5] and ranks[2] != ranks[6]:
            out.append((sum(map(code, ranks)), ranks))
    return out


def _extend(table: dict[int, int]) -> dict[int, int]:
    """Fill in six- and seven-card multisets: the best five of n cards is the best five of one of
    its (n-1)-card sub-multisets, so each value is a max over at most 7 lookups (no suits here)."""
    code = _CODE
    for key, ranks in rank_multisets():
        if len(ranks) > 5:
            table[key] = max([table[key - code[r]] for r in set(ranks)])
    return table



def _counts(ranks: Sequence[int]) -> list[int]:
    c = [0] * 13
    for r in ranks:
        c[r] += 1
    return c


def _high_desc(c: list[int], wheel: bool = True) -> Descriptor:
    """The best non-flush high descriptor from rank counts (5..7 cards)."""
    present = [r for r in range(ACE, -1, -1) if c[r]]
    quads = trips = -1
    pairs: list[int] = []
    for r in present:
        n = c[r]
        if n == 4:
            quads = r
        elif n == 3:
            if trips < 0:
                trips = r
            else:
                pairs.append(r)                 # a second set plays as the pair of a full house
        elif n == 2:
            pairs.append(r)
    if quads >= 0:
        return (QUADS, quads, next(r for r in present if r != quads))
    if trips >= 0 and pairs:
        return (FULL_HOUSE, trips, max(pairs))
    mask = 0
    for r in present:
        mask |= 1 << r
    top = _straight_top(mask, wheel)
    if top >= 0:
        return (STRAIGHT, top)
    if trips >= 0:
        return (TRIPS, trips) + tuple(r for r in present if r != trips)[:2]
    if len(pairs) >= 2:
        hp, lp = pairs[0], pairs[1]
        return (TWO_PAIR, hp, lp, next(r for r in present if r != hp and r != lp))
    if pairs:
        p = pairs[0]
        return (PAIR, p) + tuple(r for r in present if r != p)[:3]
    return (HIGH_CARD,) + tuple(present[:5])


def _flush_desc(mask: int, wheel: bool = True) -> Descriptor:
    top = _straight_top(mask, wheel)
    if top >= 0:
        return (STRAIGHT_FLUSH, top)
    return (FLUSH,) + tuple(_bits_desc(mask)[:5])


def _a5_desc(ranks: Sequence[int]) -> Descriptor:
    """The best ace-to-five descriptor from a multiset of 5..7 ranks (straights, flushes ignored)."""
    c = [0] * 13
    for r in ranks:
        c[_LOW_RANK[r]] += 1
    distinct = [r for r in range(13) if c[r]]                 # ace-low, ascending
    d = len(distinct)
    if d >= 5:
        return (0,) + tuple(reversed(distinct[:5]))
    if d == 4:
        p = next(r for r in distinct if c[r] >= 2)
        return (1, p) + tuple(r for r in reversed(distinct) if r != p)
    if d == 3:
        paired = [r for r in distinct if c[r] >= 2]
        if len(paired) >= 2:
            lp, hp = paired[0], paired[1]
            return (2, hp, lp, next(r for r in distinct if r != hp and r != lp))
        t = paired[0]                                         # the only rank with 3 or more
        return (3, t) + tuple(r for r in reversed(distinct) if r != t)
    a, b = distinct                                           # d == 2
    for t, p in ((a, b), (b, a)):
        if c[t] >= 3 and c[p] >= 2:
            return (4, t, p)
    q = a if c[a] == 4 else b
    return (5, q, b if q == a else a)


def eight_mask(ranks: Iterable[int]) -> int:
    """8-bit mask of the distinct ranks eight or lower (bit 0 = ace .. bit 7 = eight)."""
    m = 0
    for r in ranks:
        lr = _LOW_RANK[r]
        if lr < 8:
            m |= 1 << lr
    return m


def _lowest_bits(mask: int, n: int) -> int:
    out = 0
    while n and mask:
        low = mask & -mask
        out |= low
        mask ^= low
        n -= 1
    return out if n == 0 else 0


# ---------------------------------------------------------------------------------------------------
# Tables, built on first use per order.

# The class lists that start with None are indexed by value (values start at 1).

@cache
def high_tables() -> tuple[list[Descriptor], dict[int, int], list[int]]:
    classes = _high_classes(wheel=True)
    value = {d: i + 1 for i, d in enumerate(classes)}
    table = _extend({key: value[_high_desc(_counts(ranks))]
                     for key, ranks in rank_multisets() if len(ranks) == 5})
    flush = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() >= 5:
            flush[mask] = value[_flush_desc(mask)]
    return classes, table, flush


@cache
def d27_tables() -> tuple[list[Descriptor | None], dict[int, int], list[int]]:
    classes = _high_classes(wheel=False)
    n = len(classes) + 1
    value = {d: n - (i + 1) for i, d in enumerate(classes)}     # worst high hand = best low
    table = {}
    for key, ranks in rank_multisets():
        if len(ranks) == 5:
            table[key] = value[_high_desc(_counts(ranks), wheel=False)]
    flush = [0] * 8192
    for mask in range(8192):
        if mask.bit_count() == 5:
            flush[mask] = value[_flush_desc(mask, wheel=False)]
    # classes listed by value: value v is classes[len - v]
    by_value: list[Descriptor | None] = [None, *classes[::-1]]
    return by_value, table, flush


@cache
def a5_tables() -> tuple[list[Descriptor | None], dict[int, int]]:
    classes = _a5_classes()                                  # best last
    value = {d: i + 1 for i, d in enumerate(classes)}
    table = _extend({key: value[_a5_desc(ranks)] for key, ranks in rank_multisets() if len(ranks) == 5})
    return [None, *classes], table


@cache
def eight_tables() -> tuple[list[Descriptor | None], dict[int, int], list[int]]:
    classes = _eight_classes()
    value = {d: i + 1 for i, d in enumerate(classes)}
    by_mask = [0] * 256
    for d, v in value.items():
        by_mask[sum(1 << r for r in d[1:])] = v
    table = {}
    for key, ranks in rank_multisets():
        m = eight_mask(ranks)
        if m.bit_count() >= 5:
            table[key] = by_mask[_lowest_bits(m, 5)]
    return [None, *classes], table, by_mask


@cache
def omaha_low_table() -> list[int | None]:
    """(hole low mask << 8 | board low mask) -> best eight-or-better value using 2 + 3, or None."""
    by_mask = eight_tables()[2]
    lowest3 = [_lowest_bits(m, 3) for m in range(256)]
    t: list[int | None] = [None] * 65536
    for h in range(256):
        bits = [1 << i for i in range(8) if h >> i & 1]
        pairs = [a | b for a, b in combinations(bits, 2)]
        if not pairs:
            continue
        row = [max([by_mask[p | lowest3[b & ~p]] for p in pairs]) or None for b in range(256)]
        t[h << 8:(h << 8) + 256] = row
    return t
