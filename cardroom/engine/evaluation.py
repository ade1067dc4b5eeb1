"""Hand evaluation for every order the card room deals: high, the two lowball orders, eight-or-better
and the two Omaha orders.

Entry points::

    f = evaluator("high")            # the fastest function for the order
    f(cards)                         # 5 to 7 Cards; the best five of them
    g = evaluator("omaha-high")
    g(hole, board)                   # exactly two hole cards and three board cards
    evaluate("high", hole, board)    # convenience form, checks its arguments
    describe("high", value)          # "a full house, Kings full of Sevens"
    best_five("high", cards)         # the five cards that play (for showdown lines)

A value is a plain `int`, a class index from 1 (the worst hand of the order) to `CLASS_COUNTS[order]`
(the best). Better hands compare greater, equal hands are equal (the pot is split). The eight-or-better
orders return `None` when no low qualifies. The functions `evaluator()` returns do not check their
arguments (they are the inner loop of a showdown and of equity estimates); `evaluate()` does.

How it is fast: a card is an int whose value carries a rank bit, a suit counter, a rank key and a
count (see cards.py), so `sum(cards, SUIT_BIAS)` is one C-level call that gives the flush flags and
the index `s & INDEX_MASK`, unique per rank multiset of 5 to 7 cards (high keeps both in one `&`: a
flush flag makes the index overrun its table). Pass plain int codes (`cards.codes`): sum() adds
exact ints in C but not the Card subclass; Cards work, at about half the speed. Tables are
computed from rank counts when an order is first asked for (lazily; each order well under a second):
five-card values from the counts, six- and seven-card values as the max over the multisets with one
card fewer, flushes from an 8192-entry list on the 13-bit rank mask of the suit. High and ace-to-five
each index an array of unsigned shorts (48 MB resident) by that index, one index instead of a
dict probe; the other suitless orders are one dict probe on it.
Omaha memoises, per rank multiset of the board, the best non-flush value for each of the 91 rank
pairs a hole can contribute, so a call is two sums, two dict hits and at most six list indexings
(plus a flush check when the board has three of a suit); the low half is one index into a
65,536-entry table keyed by the 8-bit low-rank masks of hole and board.

Lowball descriptions always declare a pair (and anything worse): "Lo: 8,7,6,4,2" for a hand without
a pair, "Lo: a pair of Eights, 8,8,6,4,2" otherwise; see `describe`.
"""

from __future__ import annotations

import mmap
from array import array
from itertools import combinations, combinations_with_replacement
from typing import Callable, Iterable, Sequence

from cardroom.engine.cards import (
    COUNT_SHIFT, FLUSH_FLAGS, INDEX_MASK, RANK_KEYS, RANK_NAMES, RANK_SHIFT, RANKS, SUIT_BIAS, SUIT_SHIFT,
    Card,
)

__all__ = [
    "HIGH", "ACE_TO_FIVE", "DEUCE_TO_SEVEN", "EIGHT_OR_BETTER", "OMAHA_HIGH", "OMAHA_EIGHT_OR_BETTER",
    "ORDERS", "OMAHA_ORDERS", "LOW_ORDERS", "CLASS_COUNTS",
    "HIGH_CLASSES", "ACE_TO_FIVE_CLASSES", "DEUCE_TO_SEVEN_CLASSES", "EIGHT_OR_BETTER_CLASSES",
    "EvaluationError", "UnknownOrder", "WrongCardCount",
    "evaluator", "evaluate", "describe", "describe_hi_lo", "best_five", "omaha_hi_lo", "category",
]

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
_A5_CATEGORY = {0: HIGH_CARD, 1: PAIR, 2: TWO_PAIR, 3: TRIPS, 4: FULL_HOUSE, 5: QUADS}

ACE = 12
_LOW_RANK = tuple((r + 1) % 13 for r in range(13))          # ace-low index: A=0, 2=1, .., K=12
_CODE = tuple((1 << (RANK_SHIFT + r)) | (1 << COUNT_SHIFT) | RANK_KEYS[r] for r in range(13))  # suitless


def _key(ranks: Iterable[int]) -> int:
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


# ---------------------------------------------------------------------------------------------------
# Class lists: every five-card class of an order as a descriptor tuple, index = value.

def _high_classes(wheel: bool) -> list[tuple]:
    """All 7,462 high classes, worst first; `wheel=False` for deuce-to-seven (A-2-3-4-5 no straight)."""
    out: list[tuple] = []
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


def _a5_classes() -> list[tuple]:
    """All 6,175 ace-to-five classes as (badness, ace-low ranks...), best LAST (so index = value)."""
    out: list[tuple] = []
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


def _eight_classes() -> list[tuple]:
    """The 56 qualifying eight-or-better lows as (0, ace-low ranks desc), worst first."""
    out = [(0,) + ranks for ranks in combinations(range(7, -1, -1), 5)]
    out.sort(reverse=True)
    return out


# ---------------------------------------------------------------------------------------------------
# Best five from rank counts (no flush).

def _multisets() -> list[tuple[int, tuple[int, ...]]]:
    """(masked key, ranks ascending) for every rank multiset of 5, 6 or 7 cards (at most 4 a rank),
    the five-card ones first, then six, then seven."""
    global _MULTISETS
    if _MULTISETS is None:
        code = _CODE.__getitem__
        out = []
        for ranks in combinations_with_replacement(range(13), 5):
            if ranks[0] != ranks[4]:
                out.append((sum(map(code, ranks)), ranks))
        for ranks in combinations_with_replacement(range(13), 6):
            if ranks[0] != ranks[4] and ranks[1] != ranks[5]:
                out.append((sum(map(code, ranks)), ranks))
        for ranks in combinations_with_replacement(range(13), 7):
            if ranks[0] != ranks[4] and ranks[1] != ranks[5] and ranks[2] != ranks[6]:
                out.append((sum(map(code, ranks)), ranks))
        _MULTISETS = out
    return _MULTISETS


def _extend(table: dict[int, int]) -> dict[int, int]:
    """Fill in six- and seven-card multisets: the best five of n cards is the best five of one of
    its (n-1)-card sub-multisets, so each value is a max over at most 7 lookups (no suits here)."""
    code = _CODE
    for key, ranks in _multisets():
        if len(ranks) > 5:
            table[key] = max([table[key - code[r]] for r in set(ranks)])
    return table


_MULTISETS: list | None = None


def _counts(ranks: Sequence[int]) -> list[int]:
    c = [0] * 13
    for r in ranks:
        c[r] += 1
    return c


def _high_desc(c: list[int], wheel: bool = True) -> tuple:
    """The best non-flush high descriptor from rank counts (5..7 cards)."""
    present = [r for r in range(ACE, -1, -1) if c[r]]
    quads = trips = -1
    pairs = []
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


def _flush_desc(mask: int, wheel: bool = True) -> tuple:
    top = _straight_top(mask, wheel)
    if top >= 0:
        return (STRAIGHT_FLUSH, top)
    return (FLUSH,) + tuple(_bits_desc(mask)[:5])


def _a5_desc(ranks: Sequence[int]) -> tuple:
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


def _eight_mask(ranks: Iterable[int]) -> int:
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

_T: dict[str, object] = {}


def _high_tables() -> tuple[list[tuple], dict[int, int], list[int]]:
    t = _T.get("high")
    if t is None:
        classes = _high_classes(wheel=True)
        value = {d: i + 1 for i, d in enumerate(classes)}
        table = _extend({key: value[_high_desc(_counts(ranks))]
                         for key, ranks in _multisets() if len(ranks) == 5})
        flush = [0] * 8192
        for mask in range(8192):
            if mask.bit_count() >= 5:
                flush[mask] = value[_flush_desc(mask)]
        t = _T["high"] = (classes, table, flush)
    return t  # type: ignore[return-value]


def _d27_tables() -> tuple[list[tuple], dict[int, int], list[int]]:
    t = _T.get("d27")
    if t is None:
        classes = _high_classes(wheel=False)
        n = len(classes) + 1
        value = {d: n - (i + 1) for i, d in enumerate(classes)}     # worst high hand = best low
        table = {}
        for key, ranks in _multisets():
            if len(ranks) == 5:
                table[key] = value[_high_desc(_counts(ranks), wheel=False)]
        flush = [0] * 8192
        for mask in range(8192):
            if mask.bit_count() == 5:
                flush[mask] = value[_flush_desc(mask, wheel=False)]
        # classes listed by value: value v is classes[len - v]
        by_value = [None] + classes[::-1]
        t = _T["d27"] = (by_value, table, flush)
    return t  # type: ignore[return-value]


def _a5_tables() -> tuple[list[tuple], dict[int, int]]:
    t = _T.get("a5")
    if t is None:
        classes = _a5_classes()                                  # best last
        value = {d: i + 1 for i, d in enumerate(classes)}
        table = _extend({key: value[_a5_desc(ranks)] for key, ranks in _multisets() if len(ranks) == 5})
        t = _T["a5"] = ([None] + classes, table)
    return t  # type: ignore[return-value]


def _eight_tables() -> tuple[list, dict[int, int], list[int]]:
    t = _T.get("eight")
    if t is None:
        classes = _eight_classes()
        value = {d: i + 1 for i, d in enumerate(classes)}
        by_mask = [0] * 256
        for d, v in value.items():
            by_mask[sum(1 << r for r in d[1:])] = v
        table = {}
        for key, ranks in _multisets():
            m = _eight_mask(ranks)
            if m.bit_count() >= 5:
                table[key] = by_mask[_lowest_bits(m, 5)]
        t = _T["eight"] = ([None] + classes, table, by_mask)
    return t  # type: ignore[return-value]


def _omaha_low_table() -> list:
    """(hole low mask << 8 | board low mask) -> best eight-or-better value using 2 + 3, or None."""
    t = _T.get("omaha-low")
    if t is None:
        by_mask = _eight_tables()[2]
        lowest3 = [_lowest_bits(m, 3) for m in range(256)]
        t = [None] * 65536
        for h in range(256):
            bits = [1 << i for i in range(8) if h >> i & 1]
            pairs = [a | b for a, b in combinations(bits, 2)]
            if not pairs:
                continue
            row = [max([by_mask[p | lowest3[b & ~p]] for p in pairs]) or None for b in range(256)]
            t[h << 8:(h << 8) + 256] = row
        _T["omaha-low"] = t
    return t  # type: ignore[return-value]


# Omaha, memoised per rank multiset (bounded: a few thousand holes, 8,450 boards):
# a hole gives the indices of its distinct rank pairs (0..90) and its 8-bit low mask; a board gives
# the best non-flush five-card value for each of the 91 rank pairs played with three of its cards,
# and its low mask. A call is then two sums, two dict hits and at most six list indexings.
_PAIRS = [(a, b) for a in range(13) for b in range(a, 13)]
_PAIR_INDEX = {p: i for i, p in enumerate(_PAIRS)}
_PAIR_KEYS = [_key(p) & INDEX_MASK for p in _PAIRS]
_HOLE_INFO: dict[int, tuple[tuple[int, ...], int]] = {}
_BOARD_INFO: dict[int, tuple[list[int], int]] = {}


def _rank(code: int) -> int:
    """The rank of a Card or of its plain code (the rank bit's position)."""
    return (code >> RANK_SHIFT).bit_length() - 1


def _hole_info(cards: Sequence[int], key: int) -> tuple[tuple[int, ...], int]:
    ranks = sorted(map(_rank, cards))
    info = (tuple({_PAIR_INDEX[p] for p in combinations(ranks, 2)}), _eight_mask(ranks))
    _HOLE_INFO[key] = info
    return info


def _board_info(cards: Sequence[int], key: int) -> tuple[list[int], int]:
    ranks = [_rank(c) for c in cards]
    five = _five_by_rank_key()
    triples = {_key(t) & INDEX_MASK for t in combinations(ranks, 3)}
    # .get: a pair and a triple can hold five of a rank only with cards that are not all real
    row = [max([five.get(p + t, 0) for t in triples]) for p in _PAIR_KEYS]
    info = (row, _eight_mask(ranks))
    _BOARD_INFO[key] = info
    return info


_BOARD_BIAS = 0x5555 << SUIT_SHIFT       # with it, bit 3 of a suit nibble = 3 or more of that suit


# ---------------------------------------------------------------------------------------------------
# The evaluators.

# Every fast path below wants plain int codes (`cards.codes`): `sum()` adds exact ints in C, but an
# int subclass (a Card) falls off that path and costs about twice as much. Cards are accepted too.
# `sum & INDEX_MASK` is the card count << 23 | the rank key: unique per rank multiset of 5 to 7 cards.
_COUNT = 1 << COUNT_SHIFT                        # the count's unit in an index (2**23)


def _huge_array(n: int) -> "array | memoryview":
    """n zeroed unsigned shorts on an anonymous mmap: pages never written take no memory, and the
    written ones go on transparent huge pages where the kernel offers them (madvise mode), so random
    indexing misses the TLB far less (measured ~7% on 7-card high). A memoryview over the mmap
    indexes like an array; without mmap it is a plain array (all of it resident)."""
    try:
        mm = mmap.mmap(-1, 2 * n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    except (AttributeError, OSError, ValueError):
        return array("H", bytes(2 * n))
    try:
        mm.madvise(mmap.MADV_HUGEPAGE)
    except (AttributeError, OSError, ValueError):
        pass
    return memoryview(mm).cast("H")


def _count_array(name: str, table: dict[int, int]) -> "array | memoryview":
    """The values of `table` (5, 6 and 7 cards, no flush) in an array of unsigned shorts indexed by
    the index itself, count << 23 | rank key: 5, 6 and 7 cards land in the sixth, seventh and
    eighth 16 MB of a 128 MB mapping whose first five are never written (address space only, see
    _huge_array), so about 48 MB is resident. One index, no length test, no dict probe and no
    offset to subtract: a dict probe on the same key measured ~20% slower for ace-to-five, and a
    sum() started at an offset ~5% slower. Built once per order."""
    a = _T.get(name)
    if a is None:
        a = _huge_array(8 * _COUNT)
        for key, ranks in _multisets():
            a[key & INDEX_MASK] = table[key]
        _T[name] = a
    return a  # type: ignore[return-value]


def _by_index(table: dict[int, int]) -> dict[int, int]:
    """The table keyed by `key & INDEX_MASK` (count and rank key: small one-digit ints)."""
    return {key & INDEX_MASK: table[key] for key, _ in _multisets() if key in table}


# The functions below bind their tables as default arguments (`_values=values`), not as closure
# variables: a closure copies its cells into every call's frame and reads them through the cell,
# which measured ~25% slower per call here (ace-to-five 2.27 vs 2.87 M/s). Callers never pass them.

def _make_high() -> Callable[[Sequence[int]], int]:
    _, table, flush = _high_tables()

    def flush_value(cards: Sequence[int], _flush=flush, _bias=SUIT_BIAS, _flags=FLUSH_FLAGS,
                    _shift=RANK_SHIFT) -> int:
        """Five or more cards of a suit: the best flush (or straight flush) among them, which beats
        any hand without a flush that seven cards with five of a suit can make."""
        suit = (sum(cards, _bias) & _flags) >> 3          # that suit's lowest nibble bit
        m = 0
        for c in cards:
            if c & suit:
                m |= c
        return _flush[m >> _shift]

    # The mask keeps the index and the flush flags: without a flush it is the index, with one it
    # is past the end of the array, so the IndexError is the flush test. A separate `s & flags`
    # test measured ~5% slower on seven cards (the exception, on 3% of them, included), 15% on five.
    def evaluate_high(cards: Sequence[int], _values=_count_array("high-array", table), _bias=SUIT_BIAS,
                      _mask=INDEX_MASK | FLUSH_FLAGS, _flush=flush_value) -> int:
        try:
            return _values[sum(cards, _bias) & _mask]
        except IndexError:
            return _flush(cards)

    return evaluate_high


def _make_a5() -> Callable[[Sequence[int]], int]:
    def evaluate_ace_to_five(cards: Sequence[int], _values=_count_array("a5-array", _a5_tables()[1]),
                             _mask=INDEX_MASK) -> int:
        return _values[sum(cards) & _mask]

    return evaluate_ace_to_five


def _make_eight() -> Callable[[Sequence[int]], int | None]:
    def evaluate_eight_or_better(cards: Sequence[int], _get=_by_index(_eight_tables()[1]).get,
                                 _mask=INDEX_MASK) -> int | None:
        return _get(sum(cards) & _mask)

    return evaluate_eight_or_better


def _make_d27() -> Callable[[Sequence[int]], int]:
    _, table, flush = _d27_tables()

    def evaluate_deuce_to_seven(cards: Sequence[int], _five=_by_index(table), _flush=flush,
                                _bias=SUIT_BIAS, _flags=FLUSH_FLAGS, _mask=INDEX_MASK) -> int:
        if len(cards) != 5:
            # Six or seven cards (no common game): the best (lowest) five by enumeration.
            return max(map(evaluator(DEUCE_TO_SEVEN), combinations(cards, 5)))
        s = sum(cards, _bias)
        if s & _flags:
            return _flush[s >> RANK_SHIFT]        # five cards of one suit: distinct ranks
        return _five[s & _mask]

    return evaluate_deuce_to_seven


def _five_by_rank_key() -> dict[int, int]:
    """Five-card high values (no flush) keyed by the rank key alone: 6,175 entries, small ints."""
    t = _T.get("high5")
    if t is None:
        table = _high_tables()[1]
        t = _T["high5"] = {k & INDEX_MASK: table[k] for k, ranks in _multisets() if len(ranks) == 5}
    return t  # type: ignore[return-value]


def _make_omaha_high() -> Callable[[Sequence[int], Sequence[int]], int]:
    def evaluate_omaha_high(hole: Sequence[int], board: Sequence[int], _holes=_HOLE_INFO,
                            _boards=_BOARD_INFO, _flush=_high_tables()[2], _bias=_BOARD_BIAS,
                            _flags=FLUSH_FLAGS, _mask=INDEX_MASK) -> int:
        hk = sum(hole) & _mask
        hi = _holes.get(hk) or _hole_info(hole, hk)
        sb = sum(board, _bias)
        bk = sb & _mask
        bi = _boards.get(bk) or _board_info(board, bk)
        row = bi[0]
        best = max([row[i] for i in hi[0]])
        if sb & _flags:
            return max(best, _omaha_flush(hole, board, (sb & _flags) >> 3, _flush))
        return best

    return evaluate_omaha_high


def _omaha_flush(hole, board, suit, flush) -> int:
    hs = [c >> RANK_SHIFT for c in hole if c & suit]
    if len(hs) < 2:
        return 0
    bs = [c >> RANK_SHIFT for c in board if c & suit]
    return max([flush[a | b | x | y | z] for a, b in combinations(hs, 2) for x, y, z in combinations(bs, 3)])


def _make_omaha_eight() -> Callable[[Sequence[int], Sequence[int]], int | None]:
    def evaluate_omaha_eight_or_better(hole: Sequence[int], board: Sequence[int], _holes=_HOLE_INFO,
                                       _boards=_BOARD_INFO, _low=_omaha_low_table(),
                                       _mask=INDEX_MASK) -> int | None:
        hk = sum(hole) & _mask
        bk = sum(board) & _mask
        hi = _holes.get(hk) or _hole_info(hole, hk)
        bi = _boards.get(bk) or _board_info(board, bk)
        return _low[hi[1] << 8 | bi[1]]

    return evaluate_omaha_eight_or_better


def _make_omaha_hi_lo() -> Callable[[Sequence[int], Sequence[int]], tuple[int, int | None]]:
    def omaha_hi_lo(hole: Sequence[int], board: Sequence[int], _holes=_HOLE_INFO, _boards=_BOARD_INFO,
                    _flush=_high_tables()[2], _low=_omaha_low_table(), _bias=_BOARD_BIAS,
                    _flags=FLUSH_FLAGS, _mask=INDEX_MASK) -> tuple[int, int | None]:
        """(omaha-high value, omaha-eight-or-better value or None) in one pass."""
        hk = sum(hole) & _mask
        hi = _holes.get(hk) or _hole_info(hole, hk)
        sb = sum(board, _bias)
        bk = sb & _mask
        bi = _boards.get(bk) or _board_info(board, bk)
        row = bi[0]
        best = max([row[i] for i in hi[0]])
        if sb & _flags:
            best = max(best, _omaha_flush(hole, board, (sb & _flags) >> 3, _flush))
        return best, _low[hi[1] << 8 | bi[1]]

    return omaha_hi_lo


_MAKERS = {
    HIGH: _make_high, ACE_TO_FIVE: _make_a5, DEUCE_TO_SEVEN: _make_d27, EIGHT_OR_BETTER: _make_eight,
    OMAHA_HIGH: _make_omaha_high, OMAHA_EIGHT_OR_BETTER: _make_omaha_eight,
}
_EVALUATORS: dict[str, Callable] = {}


def _check_order(order: str) -> None:
    if order not in _MAKERS:
        raise UnknownOrder(f"unknown hand order {order!r}: use one of {', '.join(ORDERS)}")


def evaluator(order: str) -> Callable:
    """The fastest evaluation function for `order`.

    Non-Omaha orders: `f(cards)` with 5 to 7 Cards (the best five of them play).
    Omaha orders: `f(hole, board)`, exactly two of the 4 (to 6) hole cards and three of the 3 to 5
    board cards. The function does not check its arguments; see `evaluate` for a checked call.
    Returns an int (greater = better, equal = split) or, for the eight-or-better orders, None when no
    low qualifies.
    """
    f = _EVALUATORS.get(order)
    if f is None:
        _check_order(order)
        f = _EVALUATORS[order] = _MAKERS[order]()
    return f


def omaha_hi_lo(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, int | None]:
    """(omaha-high value, omaha-eight-or-better value or None): both halves of Omaha hi-lo at once."""
    f = _EVALUATORS.get("omaha-hi-lo")
    if f is None:
        f = _EVALUATORS["omaha-hi-lo"] = _make_omaha_hi_lo()
    return f(hole, board)


def _check_cards(cards: Sequence, low: int, high: int, what: str, order: str) -> None:
    if not low <= len(cards) <= high:
        raise WrongCardCount(f"{order} needs {low} to {high} {what}, not {len(cards)}")
    for c in cards:
        if not isinstance(c, Card):
            raise WrongCardCount(f"{c!r} is not a Card (parse text with Card.parse / parse_cards)")


def evaluate(order: str, hole: Sequence[Card], board: Sequence[Card] = ()) -> int | None:
    """Checked convenience form: the value of `hole` with `board` under `order`.

    For the non-Omaha orders hole and board are simply put together (5 to 7 cards in all).
    """
    f = evaluator(order)
    hole, board = tuple(hole), tuple(board)
    if len(set(hole + board)) != len(hole) + len(board):
        raise WrongCardCount("the same card twice")
    if order in OMAHA_ORDERS:
        _check_cards(hole, 4, 6, "hole cards", order)
        _check_cards(board, 3, 5, "board cards", order)
        return f(hole, board)
    cards = hole + board
    _check_cards(cards, 5, 7, "cards", order)
    return f(cards)


# ---------------------------------------------------------------------------------------------------
# Words.

_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces")
_LOW_CHAR = "A23456789TJQK"          # by ace-low index


def _high_words(d: tuple) -> str:
    cat = d[0]
    if cat == HIGH_CARD:
        return f"high card {RANK_NAMES[d[1]]}"
    if cat == PAIR:
        return f"a pair of {_PLURAL[d[1]]}"
    if cat == TWO_PAIR:
        return f"two pair, {_PLURAL[d[1]]} and {_PLURAL[d[2]]}"
    if cat == TRIPS:
        return f"three of a kind, {_PLURAL[d[1]]}"
    if cat == STRAIGHT:
        return f"a straight, {RANK_NAMES[(d[1] - 4) % 13]} to {RANK_NAMES[d[1]]}"
    if cat == FLUSH:
        return f"a flush, {RANK_NAMES[d[1]]} high"
    if cat == FULL_HOUSE:
        return f"a full house, {_PLURAL[d[1]]} full of {_PLURAL[d[2]]}"
    if cat == QUADS:
        return f"four of a kind, {_PLURAL[d[1]]}"
    if d[1] == ACE:
        return "a Royal Flush"
    return f"a straight flush, {RANK_NAMES[(d[1] - 4) % 13]} to {RANK_NAMES[d[1]]}"


def _high_ranks(d: tuple) -> list[int]:
    """The five ranks of a high descriptor, highest first (a wheel is 5,4,3,2,A)."""
    cat = d[0]
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        top = d[1]
        return [(top - i) % 13 if top != 3 or i < 4 else ACE for i in range(5)]
    if cat in (HIGH_CARD, FLUSH):
        return list(d[1:])
    if cat == PAIR:
        return [d[1]] * 2 + list(d[2:])
    if cat == TWO_PAIR:
        return [d[1]] * 2 + [d[2]] * 2 + [d[3]]
    if cat == TRIPS:
        return [d[1]] * 3 + list(d[2:])
    if cat == FULL_HOUSE:
        return [d[1]] * 3 + [d[2]] * 2
    return [d[1]] * 4 + [d[2]]


def _a5_ranks(d: tuple) -> list[int]:
    """Ace-low indices of an ace-to-five descriptor, highest first."""
    cat = d[0]
    if cat == 0:
        out = list(d[1:])
    elif cat == 1:
        out = [d[1]] * 2 + list(d[2:])
    elif cat == 2:
        out = [d[1]] * 2 + [d[2]] * 2 + [d[3]]
    elif cat == 3:
        out = [d[1]] * 3 + list(d[2:])
    elif cat == 4:
        out = [d[1]] * 3 + [d[2]] * 2
    else:
        out = [d[1]] * 4 + [d[2]]
    return sorted(out, reverse=True)


def _a5_words(d: tuple) -> str:
    cat = _A5_CATEGORY[d[0]]
    cards = ",".join(_LOW_CHAR[r] for r in _a5_ranks(d))
    if cat == HIGH_CARD:
        return f"Lo: {cards}"
    # ace-low index i is rank (i - 1) % 13
    high_d = (cat,) + tuple((r - 1) % 13 for r in d[1:])
    return f"Lo: {_high_words(high_d)}, {cards}"


def _d27_words(d: tuple) -> str:
    ranks = _high_ranks(d)
    if d[0] in (STRAIGHT, STRAIGHT_FLUSH):
        ranks = sorted(ranks, reverse=True)
    cards = ",".join(RANKS[r] for r in ranks)
    if d[0] == HIGH_CARD:
        return f"Lo: {cards}"
    return f"Lo: {_high_words(d)}, {cards}"


def _classes(order: str) -> list:
    if order in (HIGH, OMAHA_HIGH):
        return [None] + _high_tables()[0]
    if order == DEUCE_TO_SEVEN:
        return _d27_tables()[0]
    if order == ACE_TO_FIVE:
        return _a5_tables()[0]
    return _eight_tables()[0]


def _descriptor(order: str, value: int) -> tuple:
    _check_order(order)
    classes = _classes(order)
    if type(value) is not int or not 1 <= value < len(classes):
        raise EvaluationError(f"{value!r} is not a {order} value (1 to {len(classes) - 1})")
    return classes[value]


def category(order: str, value: int) -> str:
    """The category of a value: one of CATEGORY_NAMES ("high card" .. "straight flush")."""
    d = _descriptor(order, value)
    if order in (ACE_TO_FIVE, EIGHT_OR_BETTER, OMAHA_EIGHT_OR_BETTER):
        return CATEGORY_NAMES[_A5_CATEGORY[d[0]]]
    return CATEGORY_NAMES[d[0]]


def describe(order: str, value: int | None) -> str:
    """The words a PokerStars hand history uses for a value.

    High orders: "high card Ace", "a pair of Kings", "two pair, Aces and Kings", "three of a kind,
    Sevens", "a straight, Six to Ten", "a flush, Ace high", "a full house, Kings full of Sevens",
    "four of a kind, Aces", "a straight flush, Nine to King", "a Royal Flush".
    Low orders: "Lo: " and the five cards from the highest down, rank characters as PokerStars writes
    them (A for an ace, T for a ten; ace-to-five and eight-or-better put the ace last as the lowest
    card, deuce-to-seven first as the highest): "Lo: 8,7,6,4,2", "Lo: T,5,3,2,A". A hand that is
    anything but no-pair always declares it, with the high-hand words before the cards:
    "Lo: a pair of Eights, 8,8,6,4,2", "Lo: two pair, Eights and Deuces, 8,8,4,2,2",
    "Lo: a straight, Deuce to Six, 6,5,4,3,2" (deuce-to-seven). Eight-or-better with None:
    "no low". (A hi-lo showdown line is `describe_hi_lo`.)
    """
    if value is None and order in (EIGHT_OR_BETTER, OMAHA_EIGHT_OR_BETTER):
        return "no low"
    d = _descriptor(order, value)  # type: ignore[arg-type]
    if order in (HIGH, OMAHA_HIGH):
        return _high_words(d)
    if order == DEUCE_TO_SEVEN:
        return _d27_words(d)
    return _a5_words(d)


def describe_hi_lo(high_value: int, low_value: int | None) -> str:
    """A hi-lo showdown description as PokerStars writes it: "HI: a pair of Aces; LO: 7,6,3,2,A",
    or just "HI: a pair of Eights" when no low qualifies."""
    hi = "HI: " + describe(HIGH, high_value)
    if low_value is None:
        return hi
    return f"{hi}; LO: {describe(EIGHT_OR_BETTER, low_value)[4:]}"


def best_five(order: str, hole: Sequence[Card], board: Sequence[Card] = ()) -> tuple[Card, ...] | None:
    """The five cards that play, in the order a hand history shows them (the most significant first:
    sets before kickers for high hands, the highest card first for lows). None if no low qualifies.
    Not fast: it tries every five-card choice (fine for showdown lines)."""
    _check_order(order)
    hole, board = tuple(hole), tuple(board)
    if order in OMAHA_ORDERS:
        five = [p + t for p in combinations(hole, 2) for t in combinations(board, 3)]
        base = HIGH if order == OMAHA_HIGH else EIGHT_OR_BETTER
    else:
        five = list(combinations(hole + board, 5))
        base = order
    if not five:
        raise WrongCardCount(f"{order} needs at least five cards")
    f = evaluator(base)
    best = None
    best_value = None
    for cards in five:
        v = f(cards)
        if v is not None and (best_value is None or v > best_value):
            best, best_value = cards, v
    if best is None:
        return None
    d = _descriptor(base, best_value)
    if base == HIGH:
        order_ranks = _high_ranks(d)
    elif base == DEUCE_TO_SEVEN:
        order_ranks = sorted(_high_ranks(d), reverse=True)
    else:
        order_ranks = [(r - 1) % 13 for r in _a5_ranks(d)]
    remaining = sorted(best, key=lambda c: -c.suit)
    out = []
    for r in order_ranks:
        c = next(c for c in remaining if c.rank == r)
        remaining.remove(c)
        out.append(c)
    return tuple(out)
