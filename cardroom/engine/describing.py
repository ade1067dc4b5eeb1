"""Values into words: `describe(order, value)` gives the words a PokerStars hand history uses
("a full house, Kings full of Sevens", "Lo: 8,7,6,4,2"), `describe_hi_lo` a hi-lo showdown line,
`category` a value's category name. `descriptor`, `high_ranks` and `a5_ranks` also serve
evaluation.best_five (the five cards that play, in the order the words name them).

Lowball descriptions always declare a pair (and anything worse): "Lo: 8,7,6,4,2" for a hand without
a pair, "Lo: a pair of Eights, 8,8,6,4,2" otherwise; see `describe`.
"""

from __future__ import annotations

from cardroom.engine.cards import RANK_NAMES, RANKS
from cardroom.engine.tables import (
    A5_CATEGORY, ACE, ACE_TO_FIVE, CATEGORY_NAMES, DEUCE_TO_SEVEN, EIGHT_OR_BETTER, FLUSH, FULL_HOUSE,
    HIGH, HIGH_CARD, OMAHA_EIGHT_OR_BETTER, OMAHA_HIGH, PAIR, QUADS, STRAIGHT, STRAIGHT_FLUSH, TRIPS,
    TWO_PAIR, Descriptor, EvaluationError, a5_tables, check_order, d27_tables, eight_tables, high_tables,
)

__all__ = ["describe", "describe_hi_lo", "category"]

_PLURAL = ("Deuces", "Threes", "Fours", "Fives", "Sixes", "Sevens", "Eights", "Nines", "Tens",
           "Jacks", "Queens", "Kings", "Aces")
_LOW_CHAR = "A23456789TJQK"          # by ace-low index


def _high_words(d: Descriptor) -> str:
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


def high_ranks(d: Descriptor) -> list[int]:
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


def a5_ranks(d: Descriptor) -> list[int]:
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


def _a5_words(d: Descriptor) -> str:
    cat = A5_CATEGORY[d[0]]
    cards = ",".join(_LOW_CHAR[r] for r in a5_ranks(d))
    if cat == HIGH_CARD:
        return f"Lo: {cards}"
    # ace-low index i is rank (i - 1) % 13
    high_d = (cat, *((r - 1) % 13 for r in d[1:]))
    return f"Lo: {_high_words(high_d)}, {cards}"


def _d27_words(d: Descriptor) -> str:
    ranks = high_ranks(d)
    if d[0] in (STRAIGHT, STRAIGHT_FLUSH):
        ranks = sorted(ranks, reverse=True)
    cards = ",".join(RANKS[r] for r in ranks)
    if d[0] == HIGH_CARD:
        return f"Lo: {cards}"
    return f"Lo: {_high_words(d)}, {cards}"


def _classes(order: str) -> list[Descriptor | None]:
    """The order's classes by value: None at 0, as values start at 1."""
    if order in (HIGH, OMAHA_HIGH):
        return [None, *high_tables()[0]]
    if order == DEUCE_TO_SEVEN:
        return d27_tables()[0]
    if order == ACE_TO_FIVE:
        return a5_tables()[0]
    return eight_tables()[0]


def descriptor(order: str, value: int | None) -> Descriptor:
    """`value`'s class; an EvaluationError for anything that is not one of the order's values."""
    check_order(order)
    classes = _classes(order)
    d = classes[value] if type(value) is int and 1 <= value < len(classes) else None
    if d is None:
        raise EvaluationError(f"{value!r} is not a {order} value (1 to {len(classes) - 1})")
    return d


def category(order: str, value: int) -> str:
    """The category of a value: one of CATEGORY_NAMES ("high card" .. "straight flush")."""
    d = descriptor(order, value)
    if order in (ACE_TO_FIVE, EIGHT_OR_BETTER, OMAHA_EIGHT_OR_BETTER):
        return CATEGORY_NAMES[A5_CATEGORY[d[0]]]
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
    d = descriptor(order, value)
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
