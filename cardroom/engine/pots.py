"""Pots as pure functions of what each player put in. Money in cents.

Pots are rebuilt from the contributions whenever they are needed (a view, the showdown), which
keeps one source of truth: a player who is all-in, or protected after a timeout, caps the pots
they contest at what they put in; folded chips stay in but win nothing.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence


class Pot(NamedTuple):
    amount: int
    eligible: tuple[int, ...]   # players who may win it, in player order


def build_pots(totals: Sequence[int], live: Sequence[bool], capped: Sequence[bool]) -> list[Pot]:
    """Main pot then side pots.

    totals: chips each player put in this hand; live: still in the hand (not folded or mucked);
    capped: all-in or protected (contests only up to its own total).
    """
    players = [p for p in range(len(totals)) if live[p]]
    return pots_of(totals, players, {totals[p] for p in players if capped[p]})


_new = tuple.__new__   # a Pot in one C call (a NamedTuple's own __new__ is a Python function)


def pots_of(totals: Sequence[int], players: list[int], caps: set[int]) -> list[Pot]:
    """build_pots from the live players (in player order) and the totals of those of them who are
    capped: what a Hand knows without building the two flag lists."""
    live = [totals[p] for p in players]
    top = max(live, default=0)
    if not caps or min(live) == top:
        # The usual showdown: nobody in it all-in or protected, or all the live players in for the
        # same amount (everyone all-in for the same stack, as no limit often ends). One pot of
        # everything for the live players who put in the most: what the general case below comes
        # to, since any cap is then `top` itself.
        total = sum(totals)
        if not total:
            return []
        return [_new(Pot, (total, tuple([p for p in players if totals[p] == top])))]
    caps.discard(0)
    levels = sorted(caps)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    below = 0   # sum(min(t, level) for t in totals) at the previous level: what earlier pots took
    for level in levels:
        upto = sum([t if t < level else level for t in totals])
        amount = upto - below
        if amount:
            # One pot per level, never merged with the last: a capped player is in for exactly his
            # level, so no two levels have the same contenders, and the main pot and each side pot
            # are split on their own (Robert's Rules), their odd chips too.
            pots.append(_new(Pot, (amount, tuple([p for p in players if totals[p] >= level]))))
        below = upto
    # Chips above the highest live level (dead money, or a folded player's bet that no live player
    # matched because the live ones are all-in or protected below it) go to the last pot; when no
    # live player put in anything (two protected all-ins at 0), to a pot they all contest.
    rest = sum(totals) - below
    if rest:
        if pots:
            pots[-1] = _new(Pot, (pots[-1][0] + rest, pots[-1][1]))
        else:
            pots.append(_new(Pot, (rest, tuple(players))))
    return pots


def uncalled(totals: Sequence[int]) -> tuple[int, int]:
    """(player, amount) of the part of the biggest contribution nobody matched; (-1, 0) if none."""
    if len(totals) < 2:
        return (0, totals[0]) if totals and totals[0] > 0 else (-1, 0)
    top = max(totals)
    if totals.count(top) > 1:
        return (-1, 0)            # the usual end of a round: the biggest contribution was called
    ordered = sorted(totals)      # cheaper than a Python loop for a table's few players
    return totals.index(top), top - ordered[-2]


def split(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Share `amount` among `winners`, given in odd-chip order: the first ones get the odd cents."""
    k = len(winners)
    share, odd = divmod(amount, k)
    return [(w, share + (1 if i < odd else 0)) for i, w in enumerate(winners)]


def split_hi_lo(amount: int) -> tuple[int, int]:
    """A hi-lo pot's halves: the odd chip goes to the high half (DESIGN: odd chips)."""
    low = amount // 2
    return amount - low, low
