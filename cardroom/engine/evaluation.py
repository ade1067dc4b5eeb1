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

The order names, class lists and value tables live in tables.py and the words in describing.py
(tables <- describing <- evaluation, one way); the public names are re-exported here, so
`cardroom.engine.evaluation` stays the one module callers import from.
"""

from __future__ import annotations

import mmap
from array import array
from itertools import combinations
from functools import cache
from typing import Any, Callable, Sequence, Union

from cardroom.engine.cards import (
    COUNT_SHIFT, FLUSH_FLAGS, INDEX_MASK, RANK_SHIFT, SUIT_BIAS, SUIT_SHIFT, Card,
)
# Some of these are only re-exported (describe, category, the categories and CATEGORY_NAMES, ...):
# callers import every evaluation name from this module.
from cardroom.engine.describing import (  # noqa: F401
    a5_ranks, descriptor, high_ranks, category, describe, describe_hi_lo,
)
from cardroom.engine.tables import (  # noqa: F401
    ACE, ACE_TO_FIVE, ACE_TO_FIVE_CLASSES, CATEGORY_NAMES, CLASS_COUNTS, DEUCE_TO_SEVEN,
    DEUCE_TO_SEVEN_CLASSES, EIGHT_OR_BETTER, EIGHT_OR_BETTER_CLASSES, FLUSH, FULL_HOUSE, HIGH, HIGH_CARD,
    HIGH_CLASSES, LOW_ORDERS, OMAHA_EIGHT_OR_BETTER, OMAHA_HIGH, OMAHA_ORDERS, ORDERS, PAIR, QUADS, STRAIGHT,
    STRAIGHT_FLUSH, TRIPS, TWO_PAIR, EvaluationError, UnknownOrder, WrongCardCount, a5_tables, check_order,
    d27_tables, eight_mask, eight_tables, high_tables, ranks_key, rank_multisets, omaha_low_table,
)

__all__ = [
    "HIGH", "ACE_TO_FIVE", "DEUCE_TO_SEVEN", "EIGHT_OR_BETTER", "OMAHA_HIGH", "OMAHA_EIGHT_OR_BETTER",
    "ORDERS", "OMAHA_ORDERS", "LOW_ORDERS", "CLASS_COUNTS",
    "HIGH_CLASSES", "ACE_TO_FIVE_CLASSES", "DEUCE_TO_SEVEN_CLASSES", "EIGHT_OR_BETTER_CLASSES",
    "EvaluationError", "UnknownOrder", "WrongCardCount",
    "evaluator", "evaluate", "describe", "describe_hi_lo", "best_five", "omaha_hi_lo", "category",
]

# Omaha, memoised per rank multiset (bounded: a few thousand holes, 8,450 boards):
# a hole gives the indices of its distinct rank pairs (0..90) and its 8-bit low mask; a board gives
# the best non-flush five-card value for each of the 91 rank pairs played with three of its cards,
# and its low mask. A call is then two sums, two dict hits and at most six list indexings.
_PAIRS = [(a, b) for a in range(13) for b in range(a, 13)]
_PAIR_INDEX = {p: i for i, p in enumerate(_PAIRS)}
_PAIR_KEYS = [ranks_key(p) & INDEX_MASK for p in _PAIRS]
_HoleInfo = dict[int, tuple[tuple[int, ...], int]]
_BoardInfo = dict[int, tuple[list[int], int]]
_HOLE_INFO: _HoleInfo = {}
_BOARD_INFO: _BoardInfo = {}


def _rank(code: int) -> int:
    """The rank of a Card or of its plain code (the rank bit's position)."""
    return (code >> RANK_SHIFT).bit_length() - 1


def _hole_info(cards: Sequence[int], key: int) -> tuple[tuple[int, ...], int]:
    ranks = sorted(map(_rank, cards))
    info = (tuple({_PAIR_INDEX[p] for p in combinations(ranks, 2)}), eight_mask(ranks))
    _HOLE_INFO[key] = info
    return info


def _board_info(cards: Sequence[int], key: int) -> tuple[list[int], int]:
    ranks = [_rank(c) for c in cards]
    five = _five_by_rank_key()
    triples = {ranks_key(t) & INDEX_MASK for t in combinations(ranks, 3)}
    # .get: a pair and a triple can hold five of a rank only with cards that are not all real
    row = [max([five.get(p + t, 0) for t in triples]) for p in _PAIR_KEYS]
    info = (row, eight_mask(ranks))
    _BOARD_INFO[key] = info
    return info


_BOARD_BIAS = 0x5555 << SUIT_SHIFT       # with it, bit 3 of a suit nibble = 3 or more of that suit


# ---------------------------------------------------------------------------------------------------
# The evaluators.

# Every fast path below wants plain int codes (`cards.codes`): `sum()` adds exact ints in C, but an
# int subclass (a Card) falls off that path and costs about twice as much. Cards are accepted too.
# `sum & INDEX_MASK` is the card count << 23 | the rank key: unique per rank multiset of 5 to 7 cards.
_COUNT = 1 << COUNT_SHIFT                        # the count's unit in an index (2**23)
# The tables _count_array builds, by name (an array, or a memoryview over a mapping: _huge_array).
_Values = Union["array[int]", "memoryview[int]"]
_ARRAYS: dict[str, _Values] = {}


def _huge_array(n: int) -> _Values:
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


def _count_array(name: str, table: dict[int, int]) -> _Values:
    """The values of `table` (5, 6 and 7 cards, no flush) in an array of unsigned shorts indexed by
    the index itself, count << 23 | rank key: 5, 6 and 7 cards land in the sixth, seventh and
    eighth 16 MB of a 128 MB mapping whose first five are never written (address space only, see
    _huge_array), so about 48 MB is resident. One index, no length test, no dict probe and no
    offset to subtract: a dict probe on the same key measured ~20% slower for ace-to-five, and a
    sum() started at an offset ~5% slower. Built once per order."""
    a = _ARRAYS.get(name)
    if a is None:
        a = _ARRAYS[name] = _huge_array(8 * _COUNT)
        for key, _ranks in rank_multisets():
            a[key & INDEX_MASK] = table[key]
    return a


def _by_index(table: dict[int, int]) -> dict[int, int]:
    """The table keyed by `key & INDEX_MASK` (count and rank key: small one-digit ints)."""
    return {key & INDEX_MASK: table[key] for key, _ in rank_multisets() if key in table}


# The functions below bind their tables as default arguments (`_values=values`), not as closure
# variables: a closure copies its cells into every call's frame and reads them through the cell,
# which measured ~25% slower per call here (ace-to-five 2.27 vs 2.87 M/s). Callers never pass them.

def _make_high() -> Callable[[Sequence[int]], int]:
    _, table, flush = high_tables()

    def flush_value(cards: Sequence[int], _flush: list[int] = flush, _bias: int = SUIT_BIAS,
                    _flags: int = FLUSH_FLAGS, _shift: int = RANK_SHIFT) -> int:
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
    def evaluate_high(cards: Sequence[int], _values: _Values = _count_array("high-array", table),
                      _bias: int = SUIT_BIAS, _mask: int = INDEX_MASK | FLUSH_FLAGS,
                      _flush: Callable[[Sequence[int]], int] = flush_value) -> int:
        try:
            return _values[sum(cards, _bias) & _mask]
        except IndexError:
            return _flush(cards)

    return evaluate_high


def _make_a5() -> Callable[[Sequence[int]], int]:
    def evaluate_ace_to_five(cards: Sequence[int], _values: _Values = _count_array("a5-array", a5_tables()[1]),
                             _mask: int = INDEX_MASK) -> int:
        return _values[sum(cards) & _mask]

    return evaluate_ace_to_five


def _make_eight() -> Callable[[Sequence[int]], int | None]:
    def evaluate_eight_or_better(cards: Sequence[int],
                                 _get: Callable[[int], int | None] = _by_index(eight_tables()[1]).get,
                                 _mask: int = INDEX_MASK) -> int | None:
        return _get(sum(cards) & _mask)

    return evaluate_eight_or_better


def _make_d27() -> Callable[[Sequence[int]], int]:
    _, table, flush = d27_tables()

    def evaluate_deuce_to_seven(cards: Sequence[int], _five: dict[int, int] = _by_index(table),
                                _flush: list[int] = flush, _bias: int = SUIT_BIAS, _flags: int = FLUSH_FLAGS,
                                _mask: int = INDEX_MASK) -> int:
        if len(cards) != 5:
            # Six or seven cards (no common game): the best (lowest) five by enumeration.
            best: int = max(map(evaluator(DEUCE_TO_SEVEN), combinations(cards, 5)))
            return best
        s = sum(cards, _bias)
        if s & _flags:
            return _flush[s >> RANK_SHIFT]        # five cards of one suit: distinct ranks
        return _five[s & _mask]

    return evaluate_deuce_to_seven


@cache
def _five_by_rank_key() -> dict[int, int]:
    """Five-card high values (no flush) keyed by the rank key alone: 6,175 entries, small ints."""
    table = high_tables()[1]
    return {k & INDEX_MASK: table[k] for k, ranks in rank_multisets() if len(ranks) == 5}


def _make_omaha_high() -> Callable[[Sequence[int], Sequence[int]], int]:
    def evaluate_omaha_high(hole: Sequence[int], board: Sequence[int], _holes: _HoleInfo = _HOLE_INFO,
                            _boards: _BoardInfo = _BOARD_INFO, _flush: list[int] = high_tables()[2],
                            _bias: int = _BOARD_BIAS, _flags: int = FLUSH_FLAGS, _mask: int = INDEX_MASK) -> int:
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


def _omaha_flush(hole: Sequence[int], board: Sequence[int], suit: int, flush: list[int]) -> int:
    hs = [c >> RANK_SHIFT for c in hole if c & suit]
    if len(hs) < 2:
        return 0
    bs = [c >> RANK_SHIFT for c in board if c & suit]
    return max([flush[a | b | x | y | z] for a, b in combinations(hs, 2) for x, y, z in combinations(bs, 3)])


def _make_omaha_eight() -> Callable[[Sequence[int], Sequence[int]], int | None]:
    def evaluate_omaha_eight_or_better(hole: Sequence[int], board: Sequence[int], _holes: _HoleInfo = _HOLE_INFO,
                                       _boards: _BoardInfo = _BOARD_INFO,
                                       _low: list[int | None] = omaha_low_table(),
                                       _mask: int = INDEX_MASK) -> int | None:
        hk = sum(hole) & _mask
        bk = sum(board) & _mask
        hi = _holes.get(hk) or _hole_info(hole, hk)
        bi = _boards.get(bk) or _board_info(board, bk)
        return _low[hi[1] << 8 | bi[1]]

    return evaluate_omaha_eight_or_better


@cache   # made once, on first use
def _make_omaha_hi_lo() -> Callable[[Sequence[int], Sequence[int]], tuple[int, int | None]]:
    def omaha_hi_lo(hole: Sequence[int], board: Sequence[int], _holes: _HoleInfo = _HOLE_INFO,
                    _boards: _BoardInfo = _BOARD_INFO, _flush: list[int] = high_tables()[2],
                    _low: list[int | None] = omaha_low_table(), _bias: int = _BOARD_BIAS,
                    _flags: int = FLUSH_FLAGS, _mask: int = INDEX_MASK) -> tuple[int, int | None]:
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


# An evaluation function: f(cards), or f(hole, board) for the Omaha orders; an int, or None where an
# eight-or-better low does not qualify (evaluator's docstring). Any: which of these is the order's.
Evaluator = Callable[..., Any]
_MAKERS: dict[str, Callable[[], Evaluator]] = {
    HIGH: _make_high, ACE_TO_FIVE: _make_a5, DEUCE_TO_SEVEN: _make_d27, EIGHT_OR_BETTER: _make_eight,
    OMAHA_HIGH: _make_omaha_high, OMAHA_EIGHT_OR_BETTER: _make_omaha_eight,
}
_EVALUATORS: dict[str, Evaluator] = {}


def evaluator(order: str) -> Evaluator:
    """The fastest evaluation function for `order`.

    Non-Omaha orders: `f(cards)` with 5 to 7 Cards (the best five of them play).
    Omaha orders: `f(hole, board)`, exactly two of the 4 (to 6) hole cards and three of the 3 to 5
    board cards. The function does not check its arguments; see `evaluate` for a checked call.
    Returns an int (greater = better, equal = split) or, for the eight-or-better orders, None when no
    low qualifies.
    """
    f = _EVALUATORS.get(order)
    if f is None:
        check_order(order)
        f = _EVALUATORS[order] = _MAKERS[order]()
    return f


def omaha_hi_lo(hole: Sequence[Card], board: Sequence[Card]) -> tuple[int, int | None]:
    """(omaha-high value, omaha-eight-or-better value or None): both halves of Omaha hi-lo at once."""
    return _make_omaha_hi_lo()(hole, board)


def _check_cards(cards: Sequence[Card], low: int, high: int, what: str, order: str) -> None:
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
        value: int | None = f(hole, board)
        return value
    cards = hole + board
    _check_cards(cards, 5, 7, "cards", order)
    value = f(cards)
    return value


def best_five(order: str, hole: Sequence[Card], board: Sequence[Card] = ()) -> tuple[Card, ...] | None:
    """The five cards that play, in the order a hand history shows them (the most significant first:
    sets before kickers for high hands, the highest card first for lows). None if no low qualifies.
    Not fast: it tries every five-card choice (fine for showdown lines)."""
    check_order(order)
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
    d = descriptor(base, best_value)
    if base == HIGH:
        order_ranks = high_ranks(d)
    elif base == DEUCE_TO_SEVEN:
        order_ranks = sorted(high_ranks(d), reverse=True)
    else:
        order_ranks = [(r - 1) % 13 for r in a5_ranks(d)]
    remaining = sorted(best, key=lambda c: -c.suit)
    out = []
    for r in order_ranks:
        c = next(c for c in remaining if c.rank == r)
        remaining.remove(c)
        out.append(c)
    return tuple(out)
