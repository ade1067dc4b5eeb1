"""What the actor may do now, and why an action is refused: Legal, legal(), verify() and the
IllegalAction errors. A mixin of Hand (the same object's state), kept in its own file: these read
the betting state that hand.py keeps and change nothing but the cached answer.
"""

from __future__ import annotations

from typing import NamedTuple

from cardroom.engine.betting import FIXED, NO, SPREAD
from cardroom.engine.handstate import HandState
from cardroom.engine.money import format_cents


class SetupError(ValueError):
    """A table snapshot that cannot start a hand (too few players, a stack of nothing...)."""


class IllegalAction(ValueError):
    """An action the rules do not allow now. Nothing was changed."""


class NotYourTurn(IllegalAction):
    pass


class ActionNotAllowed(IllegalAction):
    pass


class BadAmount(IllegalAction):
    pass


class BadDiscard(IllegalAction):
    pass


class Legal(NamedTuple):
    """What the actor may do now. Amounts are round totals ("raise to") except `call` (chips added)."""

    player: int
    phase: str              # "bet", "draw", "showdown"
    fold: bool = False
    check: bool = False
    call: int = 0           # chips to call (0: nothing to call or calling not allowed)
    can_call: bool = False
    min_to: int = 0         # smallest bet/raise/complete, as the round total; 0 = not allowed
    max_to: int = 0         # largest
    raise_kind: str = ""    # "bet", "raise" or "complete"
    bring_in: int = 0       # the bring-in amount when the actor may bring in
    max_draw: int = 0       # cards the actor may exchange
    show: bool = False
    muck: bool = False


BET, DRAW, SHOWDOWN, DONE = "bet", "draw", "showdown", "done"
_new = tuple.__new__   # as in hand.py: a NamedTuple record in one C call, every field given
_OVER = Legal(-1, DONE)
# _raise_range's answer when no bet or raise is allowed but for the cap: p could not put in more
# than the bet, nobody else could call more, or only a short all-in came since p acted.
_NO_RAISE = (0, 0, ("you may not raise now: only call or fold "
                        "(an all-in for less than a full raise does not reopen the betting)"))


class Legality(HandState):
    """Hand's queries (they read the Hand's own attributes)."""

    __slots__ = ()   # Hand's attributes are HandState's slots; a mixin with a dict would undo that
    _legal: Legal | None   # legal() for the current state; every change clears it

    def legal(self) -> Legal:
        """What the actor may do now: computed once per state (every change clears _legal), in
        this one frame, as it is asked before every decision."""
        lg = self._legal
        if lg is not None:
            return lg
        p = self.actor
        if p is None:
            return _OVER
        phase = self.phase
        if phase != BET:
            # Every field given, in Legal's order (keyword construction costs three times as much).
            if phase == DRAW:
                max_draw = len(self.hole[p])
                if max_draw > 4:
                    max_draw = 4 if self.rules.draw_cap_four else 5
                lg = _new(Legal, (p, DRAW, False, False, 0, False, 0, 0, "", 0, max_draw, False, False))
            else:
                lg = _new(Legal, (p, SHOWDOWN, False, False, 0, False, 0, 0, "", 0, 0, True, self._may_muck(p)))
            self._legal = lg
            return lg
        bet, to_call = self.bets[p], self._to_call
        owe = to_call - bet
        if self._no_stack_runs_out:
            # Fixed limit where no stack can run out this hand (Hand._no_stack_runs_out): the
            # all-in clauses of _raise_range (a short all-in does not reopen, a raise needs someone
            # who could call it, a stack short of the call) cannot apply, nobody brings in, and the
            # amount to call is the level of the last full bet. What is left of the rule is the cap
            # and someone else who may still bet. _raise_range's answer in a quarter of its steps:
            # a tenth of a fixed-limit hand (a hypothesis test compares the two at every decision).
            cap = self.structure.cap   # not None: an uncapped hand may always run a stack out
            if cap is not None and self._bet_count < cap and len(self._active) > 1:
                lo = hi = to_call + self._size
                kind = "raise" if to_call else "bet"
            else:
                lo = hi = 0
                kind = ""
            call = owe
        else:
            stack = self.stacks[p]
            lo, hi, kind = self._raise_range(p, bet, bet + stack, to_call)
            if not lo:
                kind = ""     # _raise_range's reason, for verify()
            if self._bring_in_due:
                lg = self._legal = Legal(p, BET, False, False, 0, False, lo, hi, kind,
                                         min(self.structure.bring_in, stack))
                return lg
            call = owe if owe < stack else stack
        # Must raise to enter, but a player who cannot raise (his stack is no bigger than the call,
        # or nobody could call a raise) may still call, all-in or not: the rule leaves him more than a fold.
        can_call = owe > 0 and not (self._must_raise and lo and self._call_refused())
        lg = self._legal = _new(Legal, (p, BET, True, owe <= 0, call if can_call else 0, can_call, lo, hi, kind,
                                        0, 0, False, False))
        return lg

    def _call_refused(self) -> str | None:
        """Why the actor may not just call now, or None: lowball's house rule (Rules.
        must_raise_to_enter), nobody may call the big blind; he raises to enter, and once someone
        has, the raise may be called. legal() asks only when the table has the rule and the actor
        could raise (one who cannot, a stack no bigger than the big blind, may call all-in)."""
        if self._must_raise and self.round == 0 and self._to_call <= self._blind_level and self._bet_count <= 1:
            return "house rule: you must raise the big blind to enter the pot"
        return None

    def _raise_range(self, p: int, bet: int, most: int, to_call: int) -> tuple[int, int, str]:
        """(min_to, max_to, kind) for a bet/raise by p, who has `bet` in this round and could have
        `most` in it; when none is allowed, (0, 0, why): the message verify() gives."""
        s = self.structure
        skind = s.kind
        if (skind == FIXED or skind == SPREAD) and s.cap is not None and self._bet_count >= s.cap and not (
                s.uncapped_heads_up and self._bettors() == 2):
            return 0, 0, f"the betting is capped at {s.cap} bets this round: call or fold"
        if most <= to_call:
            return _NO_RAISE
        # _acted_at starts at -1 and raise ids at 1 (Hand._start_round): no test for "has acted".
        if self._acted_at[p] == self._raise_id and to_call > bet:
            return _NO_RAISE   # only a short all-in since p acted: betting is not reopened
        stacks, bets = self.stacks, self.bets
        for q in self._active:
            if q != p and stacks[q] + bets[q] > to_call:
                break
        else:
            return _NO_RAISE   # nobody else could put in more than the current bet: no raise
        full_level = self._full_level
        kind = "raise" if full_level > 0 or (to_call > 0 and not self._bring_in_due and
                                             self._bet_count > 0) else "bet"
        stud_opening = self._stud and full_level == 0 and self.round == 0
        if stud_opening:
            kind = "complete" if skind == FIXED or skind == SPREAD else "bet"
        if skind == NO:
            lo = self._full_raise_to()
            return (lo if lo < most else most), most, kind
        if skind == FIXED:
            target = self._full_raise_to()
            if target <= to_call:   # short all-ins have passed the last full level: a bet above them
                target = to_call + self._size
            lo = hi = target if target < most else most
        elif skind == SPREAD:
            base = max(to_call, full_level)
            lo = min(base + max(s.small_bet, self._last_raise), most)
            hi = min(base + s.big_bet, most)
            if stud_opening:
                lo = min(s.small_bet, most)
        else:   # pot limit: at most the pot after calling
            lo = min(self._full_raise_to(), most)
            pot_after_call = sum(self.totals) + to_call - bet
            hi = max(min(to_call + pot_after_call, most), lo)
        return lo, hi, kind

    def _full_raise_to(self) -> int:
        """The least round total that is a full bet or raise, the only kind that reopens the
        betting to those who have acted (an all-in for less does not): in fixed limit the last
        full bet's level plus the round's bet (short all-ins that reach it together make it);
        a spread-limit stud completion the small bet; otherwise the amount to call plus the last
        full bet or raise. _raise_range's smallest raise, and Hand._raise's test of a raise."""
        s = self.structure
        if s.kind == FIXED:
            return self._full_level + self._size
        if s.kind == SPREAD and self._stud and self._full_level == 0:
            return s.small_bet
        return self._to_call + self._last_raise

    def _bettors(self) -> int:
        return sum(1 for p in range(self.n) if not self.folded[p])

    def can(self, kind: str, amount: int = 0, player: int | None = None) -> bool:
        try:
            self.verify(kind, amount, player)
        except IllegalAction:
            return False
        return True

    def verify(self, kind: str, amount: int = 0, player: int | None = None) -> Legal:
        """Raise the IllegalAction that `kind` would meet now; return the Legal it was checked against."""
        self._verify_turn(player)
        lg = self.legal()
        if kind in ("draw", "stand pat"):
            if lg.phase != DRAW:
                raise ActionNotAllowed("there is no draw now")
        elif kind in ("show", "muck"):
            self._verify_showdown(kind, lg)
        else:
            self._verify_betting(kind, amount, lg)
        return lg

    def _verify_turn(self, player: int | None) -> None:
        if self.actor is None:
            raise NotYourTurn("the hand is over")
        if player is not None and player != self.actor:
            raise NotYourTurn(f"it is {self.players[self.actor].name}'s turn, not {self.players[player].name}'s")

    def _verify_showdown(self, kind: str, lg: Legal) -> None:
        if lg.phase != SHOWDOWN:
            raise ActionNotAllowed("it is not the showdown")
        if kind == "muck" and not lg.muck:
            raise ActionNotAllowed("the last aggressor must show first" if not self.rules.show_all
                                   else "at this table every remaining hand is shown")

    def _verify_betting(self, kind: str, amount: int, lg: Legal) -> None:
        if lg.phase != BET:
            raise ActionNotAllowed("this is not a betting round" if lg.phase == DRAW else
                                   "the betting is over")
        if self._bring_in_due and kind not in ("bring-in", "complete", "bet", "raise"):
            card = "highest" if self.variant.lowball else "lowest"   # razz brings in with the highest
            raise ActionNotAllowed(f"the {card} up card must bring in or complete")
        if kind in ("bet", "raise", "complete"):
            self._verify_raise(amount, lg)
        elif kind == "check":
            if not lg.check:
                raise ActionNotAllowed(f"you cannot check: there is a bet of {self._money(self._to_call)} to you")
        elif kind == "call":
            if lg.check:
                raise ActionNotAllowed("there is nothing to call: check instead")
            if not lg.can_call:
                raise ActionNotAllowed(self._call_refused())
        elif kind == "bring-in":
            if not self._bring_in_due:
                raise ActionNotAllowed("there is no bring-in to make")
        elif kind != "fold":
            raise ActionNotAllowed(f"unknown action {kind!r}")

    def _verify_raise(self, amount: int, lg: Legal) -> None:
        """A bet, raise or completion to `amount`: allowed now, and to an amount in range."""
        if not isinstance(amount, int) or isinstance(amount, bool):
            raise BadAmount(f"an amount is a whole number of cents, not {amount!r}")
        if not lg.min_to:
            p = lg.player
            bet = self.bets[p]
            raise ActionNotAllowed(self._raise_range(p, bet, bet + self.stacks[p], self._to_call)[2])
        if not (lg.min_to <= amount <= lg.max_to):
            if lg.min_to == lg.max_to:
                raise BadAmount(f"the {lg.raise_kind} here is exactly {self._money(lg.min_to)}")
            raise BadAmount(f"{self._money(amount)} is not allowed: {lg.raise_kind} to between "
                            f"{self._money(lg.min_to)} and {self._money(lg.max_to)}")

    @staticmethod
    def _money(c: int) -> str:
        return format_cents(c, always_cents=True)
