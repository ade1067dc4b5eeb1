"""Betting structures and the table's rules for one hand, as frozen records. Money in cents.

Four structures, for any game:
- fixed:  every bet and raise is the small bet on the early rounds and the big bet later;
          at most `cap` bets a round (a bet and cap-1 raises; the big blind is the first bet).
- spread: any bet or raise between `small_bet` (min) and `big_bet` (max), at least the last raise.
- pot:    largest raise = the pot after calling (seed 001); smallest = the last full bet or raise.
- no:     largest = the whole stack; smallest = the last full bet or raise (at least the big blind).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Sequence

if TYPE_CHECKING:
    from cardroom.engine.variants import Variant

FIXED, SPREAD, POT, NO = "fixed", "spread", "pot", "no"
STRUCTURES = (FIXED, SPREAD, POT, NO)
STRUCTURE_NAMES = {FIXED: "Limit", SPREAD: "Spread Limit", POT: "Pot Limit", NO: "No Limit"}
# Who posts the ante: every player, only the big blind (for the whole table) or only the button.
ANTE_ALL, ANTE_BB, ANTE_BUTTON = "all", "bb", "button"
ANTE_STYLES = (ANTE_ALL, ANTE_BB, ANTE_BUTTON)

# Sub-dollar small blinds round down to one of these "even denominations" (seed 000: $.25 -> $.10).
_DENOMINATIONS = (1, 2, 5, 10, 25, 50)


class StructureError(ValueError):
    pass


def planet_small_blind(small_bet: int) -> int:
    """Half the small bet rounded down to a whole dollar, or below a dollar to an even denomination.

    $.25/$.50 -> 10c; $2/$4 -> $1; $3/$6 -> $1; $4/$8 -> $2 (seeds 000 and 001).
    """
    return _round_down(small_bet // 2)


def _round_down(cents: int) -> int:
    """Down to a whole dollar, or below a dollar to an even denomination (at least a cent)."""
    if cents >= 100:
        return cents // 100 * 100
    fitting = [d for d in _DENOMINATIONS if d <= cents]
    return fitting[-1] if fitting else max(1, cents)


@dataclass(frozen=True, slots=True)
class Structure:
    """How much may be bet. `small_bet`/`big_bet` are the limits (fixed), min/max (spread) or the
    big blind and (unused) for pot and no limit. `blinds` are posted left of the button in order
    (one to three blinds); `ante` by the players `ante_style` names (everyone, or the big blind or
    the button alone: dead money for the main pot, posted before the blinds); `bring_in` for stud
    games (0 = none)."""

    kind: str
    small_bet: int
    big_bet: int
    blinds: tuple[int, ...] = ()
    ante: int = 0
    bring_in: int = 0
    cap: int | None = 4            # bets a round in fixed/spread limit; None = uncapped
    uncapped_heads_up: bool = False
    ante_style: str = ANTE_ALL
    # A hand dealt without some of the table's blinds (for_hand): which of the table's blinds the
    # first of `blinds` is, so that those posted keep their names (a dead small blind leaves the $1
    # of $.50/$1/$2 the middle blind, not a small blind). 0 for a table's own structure.
    first_blind: int = 0

    def __post_init__(self) -> None:
        if self.kind not in STRUCTURES:
            raise StructureError(f"structure must be one of {', '.join(STRUCTURES)}, not {self.kind!r}")
        if self.small_bet <= 0 or self.big_bet < self.small_bet:
            raise StructureError("stakes must be positive and the big bet at least the small bet")
        if len(self.blinds) > 3 or any(b < 0 for b in self.blinds):
            raise StructureError("at most three blinds, none negative")
        if self.first_blind < 0 or len(self.blinds) + self.first_blind > 3:
            raise StructureError("at most three blinds at a table: first_blind counts those left out")
        if self.cap is not None and self.cap < 2:
            raise StructureError("the cap must allow at least a bet and a raise")
        if self.ante_style not in ANTE_STYLES:
            raise StructureError(f"ante_style must be one of {', '.join(ANTE_STYLES)}, not {self.ante_style!r}")
        if self.ante_style != ANTE_ALL and not self.blinds:
            raise StructureError(f"a {'big blind' if self.ante_style == ANTE_BB else 'button'} ante needs "
                                 "blinds and a button (stud games ante all round)")

    @classmethod
    def make(cls, kind: str, small_bet: int, big_bet: int | None = None, *, blinds: Sequence[int] | None = None,
             ante: int = 0, bring_in: int | None = None, cap: int | None = 4,
             stud: bool = False, uncapped_heads_up: bool = False, ante_style: str = ANTE_ALL) -> Structure:
        """The usual table: blinds from the Planet Poker formula (or stud's ante and bring-in).

        For pot and no limit, `small_bet` is the big blind and `big_bet` defaults to twice it.
        """
        if big_bet is None:
            big_bet = small_bet * 2
        if stud:
            if bring_in is None:
                # A third of the small bet (a quarter outside fixed limit), rounded down as the
                # small blind is: $2/$4 brings in for 50c, not 66c.
                bring_in = _round_down(small_bet // 3 if kind == FIXED else small_bet // 4)
            return cls(kind, small_bet, big_bet, (), ante, bring_in, cap, uncapped_heads_up, ante_style)
        if blinds is None:
            sb = planet_small_blind(small_bet) if kind in (FIXED, SPREAD) else max(1, small_bet // 2)
            blinds = (sb, small_bet)
        return cls(kind, small_bet, big_bet, tuple(blinds), ante, 0, cap, uncapped_heads_up, ante_style)

    def for_hand(self, posted: Sequence[bool]) -> Structure:
        """This table's structure for a hand in which only the blinds flagged in `posted` (one flag
        a blind, smallest first) are posted: the others are dead under the dead-button rule, or
        heads-up the smallest. The engine posts a structure's blinds left of the button in order,
        so those not posted are left out; first_blind keeps the names of those that are."""
        if all(posted):
            return self
        blinds = tuple(b for b, p in zip(self.blinds, posted) if p)
        first = next((i for i, p in enumerate(posted) if p), 0)
        return replace(self, blinds=blinds, first_blind=first if blinds else 0)

    @property
    def big_blind(self) -> int:
        return max(self.blinds) if self.blinds else self.small_bet

    def bet_size(self, big: bool) -> int:
        """The fixed-limit bet for a round (small or big)."""
        return self.big_bet if big else self.small_bet

    @property
    def limited(self) -> bool:
        return self.kind in (FIXED, SPREAD)

    def most_put_in(self, rounds: int, big_bet_from: int) -> int | None:
        """In fixed limit with a cap (not lifted heads-up) and blinds, the most one player can put
        into a hand of `rounds` betting rounds, the big bet from round `big_bet_from`: the ante,
        the largest blind and a capped round on every street. None for any other structure, where
        a stack of any size can go all-in."""
        if self.kind != FIXED or self.cap is None or self.uncapped_heads_up or self.bring_in:
            return None
        small = min(big_bet_from, rounds)
        return self.ante + max(self.blinds, default=0) + self.cap * (
            small * self.small_bet + (rounds - small) * self.big_bet)

    def describe(self) -> str:
        from cardroom.engine.money import format_cents as money
        if self.kind in (POT, NO):
            sb = self.blinds[0] if self.blinds else self.small_bet // 2
            return f"{money(sb)}/{money(self.big_blind)} {STRUCTURE_NAMES[self.kind]}"
        return f"{money(self.small_bet)}/{money(self.big_bet)} {STRUCTURE_NAMES[self.kind]}"


@dataclass(frozen=True, slots=True)
class Rules:
    """House rules that change how one hand is dealt, shown or raked (per table)."""

    rake_percent: int = 5            # of each pot, whole cents rounded down
    rake_cap: int = 300              # cents per hand
    no_flop_no_drop: bool = False    # no rake when the hand ends before the flop / first draw
    show_all: bool = False           # seed 000: every remaining hand is shown; else losers may muck
    must_raise_to_enter: bool = False  # lowball: nobody may just call the big blind
    draw_cap_four: bool = False      # house option: at most four cards on a draw
    # Draw dealing (seed 002): a burn before each draw; a fifth card waits until everyone has drawn
    # (burning first if that player is last); a reshuffle re-burns. Seed 000's worked example
    # counts none of these. A table chooses a procedure by name (DRAW_DEALINGS, of_game). What a
    # reshuffle deals back is the same for both (Drawing._draw_cards, Drawing._fifth_card).
    burn_before_draw: bool = True
    defer_fifth_card: bool = True
    reburn_on_reshuffle: bool = True

    @classmethod
    def of_game(cls, variant: Variant, draw_dealing: str | None = None, **house: Any) -> Rules:
        """The rules of `variant`'s own page (its draw dealing, whether every hand is shown) with a
        table's choices: `draw_dealing` names one of DRAW_DEALINGS, `house` sets other fields."""
        house.setdefault("show_all", variant.show_all)
        return cls(**DRAW_DEALINGS[draw_dealing or variant.draw_dealing], **house)

    def rake(self, pots: list[int], saw_flop: bool) -> list[int]:
        """Rake taken from each pot: 5% of each, rounded down, capped per hand (in pot order)."""
        if self.rake_percent <= 0 or (self.no_flop_no_drop and not saw_flop):
            return [0] * len(pots)
        left = self.rake_cap
        out = []
        for amount in pots:
            r = min(left, amount * self.rake_percent // 100)
            out.append(r)
            left -= r
        return out


NO_RAKE = Rules(rake_percent=0, rake_cap=0)

# The two ways to deal a draw (DESIGN.md), by the name a table gives in config.toml.
DRAW_DEALINGS: dict[str, dict[str, bool]] = {
    # Planet Poker's Draw Lo page (seed 000): no burn, all of a player's cards at his turn, the
    # folded and discarded cards reshuffled without a re-burn when the stub runs out.
    "planet": {"burn_before_draw": False, "defer_fifth_card": False, "reburn_on_reshuffle": False},
    # The lowball rules (seed 002): a burn, up to four cards at a player's turn and a fifth after
    # everyone else (a burn first if he is last), a re-burn after a reshuffle.
    "lowball": {"burn_before_draw": True, "defer_fifth_card": True, "reburn_on_reshuffle": True},
}
