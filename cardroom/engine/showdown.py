"""The end of a hand: showing down and settling. A mixin of Hand (the same object's state), kept
in its own file: which players show or may muck, what their hands are worth, and how each pot,
after the rake, is split between the best hands (hi-lo halves, odd chips).

Hand decides when the showdown starts and in what order (Hand._start_showdown); this part shows,
mucks and pays, and calls Hand._end.
"""

from __future__ import annotations

from itertools import combinations
from typing import Sequence

from cardroom.engine import events as ev
from cardroom.engine.cards import CARDS, Card, codes
from cardroom.engine.evaluation import EIGHT_OR_BETTER, HIGH, OMAHA_EIGHT_OR_BETTER, OMAHA_HIGH, evaluator
from cardroom.engine.handstate import HandState
from cardroom.engine.pots import split, split_hi_lo

_new = tuple.__new__   # as in hand.py: a NamedTuple record in one C call, every field given

# The cards an eight-or-better low can use (ace to eight), as plain codes.
_LOW_CODES = frozenset(codes(c for c in CARDS if c.rank <= 6 or c.rank == 12))


def _omaha_values(hole_cards: Sequence[Card], board_cards: Sequence[Card], has_low: bool) -> tuple[int, int | None]:
    """Omaha's (high, eight-or-better low or None) for one shown hand, as the best of the five-card
    hands made of two hole and three board cards.

    Not the Omaha evaluators: they memoise a 91-entry row per board rank multiset (~0.25 ms to fill,
    8,450 boards), the right trade for equity loops over one board, but a showdown meets each
    board once, and a room (or the benchmark: ~75% of O/8 showdown boards new after 3,000 hands)
    needs many thousands of hands before that memo pays. The sixty five-card lookups here cost
    ~25-50 us a shown hand on the benchmark machine (load varies), and the low only looks at the
    ace-to-eight cards (what can make a low).
    (evaluator() is asked on each call, not at import: it builds its tables on first use.)"""
    hole, board = codes(hole_cards), codes(board_cards)
    triples = list(combinations(board, 3))
    hi: int = max(map(evaluator(HIGH), [pair + t for pair in combinations(hole, 2) for t in triples]))
    if not has_low:
        return hi, None
    low_hole = [c for c in hole if c in _LOW_CODES]
    low_board = [c for c in board if c in _LOW_CODES]
    if len(low_hole) < 2 or len(low_board) < 3:
        return hi, None
    lows = [pair + t for pair in combinations(low_hole, 2) for t in combinations(low_board, 3)]
    return hi, max(filter(None, map(evaluator(EIGHT_OR_BETTER), lows)), default=None)


class Showdown(HandState):
    """Hand's showdown and settlement methods (they read and write the Hand's own attributes)."""

    __slots__ = ()   # Hand's attributes are HandState's slots; a mixin with a dict would undo that

    def _award_uncontested(self, winner: int) -> None:
        """Everyone else folded: the winner takes the middle, less the rake, without showing."""
        pot = sum(self.totals)
        rake = sum(self.rules.rake([pot], self.saw_flop)) if pot else 0
        if rake:
            self.events.append(ev.Raked(rake))
        self.rake = rake
        self.stacks[winner] += pot - rake
        self.events.append(ev.Awarded(winner, pot - rake, 0, ""))
        self._end()

    def _may_muck(self, p: int) -> bool:
        return not self.rules.show_all and p != self.showdown_order[0]

    def showdown_values(self, p: int) -> tuple[int, int | None]:
        """The (high, low) values player `p`'s cards make with the board now (low None: no low)."""
        v = self.variant
        low = self._low
        if v.high != OMAHA_HIGH:   # not v.omaha (without the property's call)
            cards = self.hole[p] + self.board
            return self._high(cards), (low(cards) if low else None)
        if v.low in (None, OMAHA_EIGHT_OR_BETTER):
            return _omaha_values(self.hole[p], self.board, v.low is not None)
        return self._high(self.hole[p], self.board), (low(self.hole[p], self.board) if low else None)

    def _show_player(self, p: int) -> None:
        hi, lo = self.showdown_values(p)
        self.shown[p] = (hi, lo)
        self.events.append(_new(ev.Shown, (p, tuple(self.hole[p]), hi, lo)))

    def _muck(self, p: int) -> None:
        self._discard_hand(p)
        self.events.append(ev.Mucked(p))
        self._next_shower()

    def _next_shower(self) -> None:
        self._sd_pos += 1   # players handled so far, in showdown order
        order = self.showdown_order
        self.actor = order[self._sd_pos] if self._sd_pos < len(order) else None

    def _odd_chip_order(self, winners: list[int], low: bool) -> list[int]:
        """`winners` in the order they take a split's odd chips; `low`: they tied for a low."""
        if len(winners) < 2:
            return winners
        if self.variant.bring_in:
            # Stud: the highest card by suit (spades, hearts, diamonds, clubs) first, of all the
            # winner's cards; a low (razz, stud/8's low half): the lowest, aces low, the suits
            # ranked the same way, so the two of clubs before the two of spades (Robert's Rules:
            # tied lows as in a low game; DESIGN: odd chips).
            if low:
                return sorted(winners, key=lambda p: min(((c.rank + 1) % 13, c.suit) for c in self.hole[p]))
            return sorted(winners, key=lambda p: max((c.rank, c.suit) for c in self.hole[p]), reverse=True)
        n, b = self.n, self.button
        return sorted(winners, key=lambda p: (p - b - 1) % n)

    def _settle(self) -> None:
        pots = self.pots()
        rakes = self.rules.rake([pot.amount for pot in pots], self.saw_flop)
        self.rake = sum(rakes)
        if self.rake:
            self.events.append(ev.Raked(self.rake))
        shown = self.shown
        has_low = self._low is not None
        for i, (pot, rake) in enumerate(zip(pots, rakes)):
            amount = pot.amount - rake
            contenders = [p for p in pot.eligible if p in shown] or list(pot.eligible)
            if len(contenders) == 1:
                self._pay(contenders[0], amount, i, "")
                continue
            highs = [shown[p][0] for p in contenders]
            best_hi = max(highs)
            if not has_low and highs.count(best_hi) == 1:
                self._pay(contenders[highs.index(best_hi)], amount, i, "")   # one winner: the usual case
                continue
            hi_winners = [p for p, h in zip(contenders, highs) if h == best_hi]
            best_lo = None
            if has_low:
                values = [shown[p] for p in contenders]
                best_lo = max([v[1] for v in values if v[1] is not None], default=None)
            if best_lo is not None:
                lo_winners = [p for p, v in zip(contenders, values) if v[1] == best_lo]
                hi_amt, lo_amt = split_hi_lo(amount)
                self._pay_split(hi_amt, hi_winners, i, "high")
                self._pay_split(lo_amt, lo_winners, i, "low")
            else:
                self._pay_split(amount, hi_winners, i, "")
        self._end()

    def _pay_split(self, amount: int, winners: list[int], pot: int, half: str) -> None:
        if len(winners) == 1:     # the usual case: no split, no odd chips
            self._pay(winners[0], amount, pot, half)
            return
        for w, a in split(amount, self._odd_chip_order(winners, half == "low" or self.variant.lowball)):
            self._pay(w, a, pot, half)

    def _pay(self, p: int, amount: int, pot: int, half: str) -> None:
        self.stacks[p] += amount
        self.events.append(_new(ev.Awarded, (p, amount, pot, half)))
