"""Prize pools and what each place wins, in integer cents that always add up.

- The pool is the buy-ins of every entry (late entries and re-entries included) plus what the
  house adds (a freeroll's whole pool). The fee is the house's and never in it.
- The payout table has bands by number of entrants; a band gives each paid place its share in
  hundredths of a percent. Each prize is its share of the pool rounded down; the cents rounding
  leaves over (fewer than there are paid places) go one each to the first places, so prizes
  still sum to the pool and a higher place never gets less than a lower one.
- Players who share places (out on the same hand with the same chips) share those places'
  prizes equally, the odd cent to the earlier place; a tournament cancelled while running shares
  what is left in proportion to chips (largest remainders get the odd cents).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

WHOLE = 10_000          # 100% in hundredths of a percent


class PayoutError(ValueError):
    """A payout table that cannot be paid."""


@dataclass(frozen=True, slots=True)
class PayoutBand:
    """From `entrants` entrants (up to the next band's), place i+1 wins shares[i] / WHOLE of the pool."""

    entrants: int
    shares: tuple[int, ...]

    def __post_init__(self) -> None:
        if self.entrants < 2:
            raise PayoutError("a band starts at two entrants or more")
        if not self.shares or any(s <= 0 for s in self.shares):
            raise PayoutError("every paid place wins a share above zero")
        if sum(self.shares) != WHOLE:
            raise PayoutError(f"the shares add up to {sum(self.shares) / 100:g}%, not 100%")
        if any(a < b for a, b in zip(self.shares, self.shares[1:])):
            raise PayoutError("a place never wins more than the place above it")
        if len(self.shares) > self.entrants:
            raise PayoutError(f"{len(self.shares)} places paid of {self.entrants} entrants")


@dataclass(frozen=True, slots=True)
class Payouts:
    bands: tuple[PayoutBand, ...]

    def __post_init__(self) -> None:
        if not self.bands:
            raise PayoutError("a payout table needs a band")
        starts = [b.entrants for b in self.bands]
        if starts != sorted(set(starts)):
            raise PayoutError("bands go up in entrants, each from a different number")

    def band(self, entrants: int) -> PayoutBand:
        """The band for `entrants` (the first band covers any fewer)."""
        found = self.bands[0]
        for b in self.bands:
            if b.entrants <= entrants:
                found = b
        return found

    def places_paid(self, entrants: int) -> int:
        return min(len(self.band(entrants).shares), entrants)

    def prizes(self, pool: int, entrants: int) -> tuple[int, ...]:
        """Prize of each paid place, first place first; they sum to `pool`."""
        shares = self.band(entrants).shares[:entrants]
        total = sum(shares)     # WHOLE, unless fewer entrants than the band's places
        prizes = [pool * s // total for s in shares]
        for i in range(pool - sum(prizes)):     # fewer than len(prizes) cents
            prizes[i] += 1
        return tuple(prizes)


def pool(buy_in: int, entries: int, added: int) -> int:
    return buy_in * entries + added


def split(amount: int, n: int) -> list[int]:
    """`amount` in n equal parts, the odd cents one each to the first parts."""
    q, r = divmod(amount, n)
    return [q + (1 if i < r else 0) for i in range(n)]


def share_by_chips(amount: int, chips: Sequence[int]) -> list[int]:
    """`amount` in proportion to `chips` (a cancelled tournament's rest of the pool): each share
    rounded down, the cents left over one each to the largest remainders (ties: more chips, then
    the earlier). Sums exactly to `amount`."""
    total = sum(chips)
    if total <= 0:
        return split(amount, len(chips)) if chips else []
    shares = [amount * c // total for c in chips]
    remainders = sorted(range(len(chips)), key=lambda i: (-(amount * chips[i] % total), -chips[i], i))
    for i in remainders[: amount - sum(shares)]:
        shares[i] += 1
    return shares
