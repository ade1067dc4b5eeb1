"""An honest practice bot: it sees only what its seat sees (its own cards and the board) and picks
one of the actions `Legal` allows, from a quick estimate of its hand's strength.

    kind, amount, discards = choose(hand.legal(), hole, board, variant, rng=rng)

kind is one of "fold", "check", "call", "bet" (a bet or raise TO `amount`), "bring-in",
"complete" (to `amount` = legal.min_to), "draw" (exchange `discards`, () stands pat), "show",
"muck". `amount` is 0 unless it means something. See `apply` for performing it on a Hand.

How it plays:
- strength is the chance of beating ONE random hand: a small Monte Carlo (board and stud games:
  the unseen cards are dealt out; draw games: its own planned draw is made) with
  `cardroom.engine.evaluation.evaluator`; hi-lo games count half a pot for each half won;
- strong hands bet and raise (in spread/pot/no limit the stronger, the larger, within
  [min_to, max_to]); medium hands call; weak hands check when it is free and fold otherwise.
  It never folds when checking is free. At the showdown it always shows (cards speak; mucking a
  winner would be a gift);
- draws: 5-card draw keeps pairs, trips, two pair, made straights/flushes/full houses, else four
  to a flush or its high cards; ace-to-five keeps unpaired A..8; deuce-to-seven keeps unpaired 2..8
  (an ace is high there) and breaks a straight or a flush by throwing its top card.

Cheap: well under a millisecond a decision (a few dozen evaluations). Deterministic: all chance
comes from `rng` (a `random.Random`); the same rng state gives the same decision.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Iterator, Sequence

from cardroom.engine.cards import CARDS, Card, codes
from cardroom.engine.evaluation import Evaluator, evaluator
from cardroom.engine.events import Event
from cardroom.engine.hand import Hand
from cardroom.engine.legality import Legal
from cardroom.engine.variants import Variant

__all__ = ["choose", "apply", "strength", "plan_discards", "Decision"]

Decision = tuple[str, int, tuple[Card, ...]]  # (kind, amount, discards)

# Strength thresholds (chance to beat one random hand).
RAISE_AT = 0.70
CALL_AT = 0.45
ENTER_AT = 0.58          # must-raise-to-enter tables: raise in with this, else fold
SAMPLES = {"board": 24, "omaha": 10, "stud": 16, "draw": 12}

_ACE = 12


def choose(legal: Legal, hole: Sequence[Card], board: Sequence[Card], variant: Variant, *, rng: random.Random,
           draws_left: int | None = None) -> Decision:
    """One legal action for the seat whose `legal` this is.

    hole: the seat's own cards (all of them in stud, up and down); board: the community cards.
    draws_left: draws still to come in a draw game, if the caller knows (None: assume one more
    before the draw is known to be over, weighing the hand as it stands and as it may become).
    """
    phase = legal.phase
    if phase == "draw":
        discards = plan_discards(hole, variant, legal.max_draw)
        return ("draw", 0, discards)
    if phase == "showdown":
        return ("show", 0, ()) if legal.show else ("muck", 0, ())
    if phase != "bet":
        raise ValueError(f"nothing to choose in phase {phase!r}")

    s = strength(hole, board, variant, rng=rng, draws_left=draws_left)
    s += (rng.random() - 0.5) * 0.08           # a little unpredictability

    if legal.bring_in:
        # Stud's forced bring-in (no folding): complete with a strong up card / hand.
        if legal.min_to and s >= RAISE_AT:
            return _aggress(legal, s)
        return ("bring-in", legal.bring_in, ())

    if s >= RAISE_AT and legal.min_to:
        return _aggress(legal, s)
    if legal.check:
        return ("check", 0, ())
    if legal.can_call and legal.call and s >= CALL_AT:
        return ("call", legal.call, ())
    if not legal.can_call and legal.min_to and s >= ENTER_AT:
        return _aggress(legal, s)              # a must-raise-to-enter table
    if legal.can_call and legal.call and s >= RAISE_AT:
        return ("call", legal.call, ())        # strong but may not raise (capped)
    return ("fold", 0, ())


def _aggress(legal: Legal, s: float) -> Decision:
    lo, hi = legal.min_to, legal.max_to
    if hi > lo:
        # Stronger hands bet more: from the minimum at RAISE_AT to half the range at certainty.
        f = min(1.0, max(0.0, (s - RAISE_AT) / (1.0 - RAISE_AT))) * 0.5
        to = lo + int((hi - lo) * f)
    else:
        to = lo
    to = max(lo, min(hi, to))
    if legal.raise_kind == "complete":
        return ("complete", lo, ())
    return ("bet", to, ())


# ----------------------------------------------------------------------------------------- strength

def strength(hole: Sequence[Card], board: Sequence[Card], variant: Variant, *, rng: random.Random,
             draws_left: int | None = None) -> float:
    """The chance (0..1) that these cards beat one random hand, by a small Monte Carlo."""
    if not hole:
        return 0.0
    seen = set(hole) | set(board)
    # The Monte Carlo deals plain int codes: the evaluators' fast input (codes compare equal to Cards).
    unknown = list(codes(c for c in CARDS if c not in seen))
    kind = variant.kind
    if kind == "draw":
        plain = list(codes(hole))
        if draws_left == 0:
            return _draw_equity(plain, (), unknown, variant, rng)
        discards = plan_discards(hole, variant, 5)
        after = _draw_equity(plain, discards, unknown, variant, rng)
        if draws_left is None:
            now = _draw_equity(plain, (), unknown, variant, rng)
            return (now + after) / 2
        return after
    mine, shared = list(codes(hole)), list(codes(board))
    if variant.omaha:
        return _omaha_equity(mine, shared, unknown, variant, rng)
    return _seven_equity(mine, shared, unknown, variant, rng)


def _score(ours: tuple[int, int | None], theirs: tuple[int, int | None]) -> float:
    """Share of one pot won: (high, low) values, low None = no qualifying low / no low half."""
    hi = 1.0 if ours[0] > theirs[0] else 0.5 if ours[0] == theirs[0] else 0.0
    if ours[1] is None and theirs[1] is None:
        return hi
    lo = 1.0 if theirs[1] is None or (ours[1] is not None and ours[1] > theirs[1]) else \
        0.5 if ours[1] == theirs[1] else 0.0
    return (hi + lo) / 2


def _deals(unknown: list[int], need: int, n: int, rng: random.Random) -> Iterator[list[int]]:
    """`n` random deals of `need` unseen cards: windows of a shuffled copy, reshuffled when used up
    (cheaper than `rng.sample` per deal; each deal is a uniform random subset)."""
    pool = list(unknown)
    per = max(1, len(pool) // max(1, need))
    for i in range(n):
        if i % per == 0:
            rng.shuffle(pool)
        j = (i % per) * need
        yield pool[j:j + need]


def _seven_equity(hole: list[int], board: list[int], unknown: list[int], variant: Variant,
                  rng: random.Random) -> float:
    """Hold'em and stud: deal the missing board (hold'em) or cards (stud) and a random opponent."""
    high = evaluator(variant.high)
    low = evaluator(variant.low) if variant.low else None
    if variant.bring_in:
        # Stud: seven cards each; when the deck runs short the last card is a community card.
        mine_need, board_need = max(0, 7 - len(hole) - len(board)), 0
        opp_n = max(0, 7 - len(board))
    else:
        mine_need, board_need, opp_n = 0, 5 - len(board), variant.hole_count
    n = SAMPLES["stud" if variant.bring_in else "board"]
    total = 0.0
    for draw in _deals(unknown, mine_need + board_need + opp_n, n, rng):
        b = board + draw[:board_need]
        mine = hole + draw[board_need:board_need + mine_need] + b
        opp = draw[board_need + mine_need:] + b
        ours = (high(mine), low(mine) if low else None)
        theirs = (high(opp), low(opp) if low else None)
        total += _score(ours, theirs)
    return total / n


def _omaha_value(hole: list[int], board: list[int], high: Evaluator,
                 low: Evaluator | None) -> tuple[int, int | None]:
    """Omaha values, approximately: the best over pairs of hole cards of the best five of that pair
    and the board, by the 5-to-7-card evaluators. It can count a hand that plays fewer than two
    hole cards (a board flush), which real Omaha does not; for a practice bot that is close
    enough, and it is 50 times cheaper than the exact evaluator on an unseen board."""
    hi, lo = 0, None
    for i in range(len(hole)):
        for j in range(i + 1, len(hole)):
            cards = [hole[i], hole[j], *board]
            v = high(cards)
            if v > hi:
                hi = v
            if low is not None:
                w = low(cards)
                if w is not None and (lo is None or w > lo):
                    lo = w
    return hi, lo


def _omaha_equity(hole: list[int], board: list[int], unknown: list[int], variant: Variant,
                  rng: random.Random) -> float:
    high = evaluator("high")
    low = evaluator("eight-or-better") if variant.low else None
    board_need, opp_n = 5 - len(board), len(hole)
    n = SAMPLES["omaha"]
    total = 0.0
    for draw in _deals(unknown, board_need + opp_n, n, rng):
        b = board + draw[:board_need]
        opp = draw[board_need:]
        total += _score(_omaha_value(hole, b, high, low), _omaha_value(opp, b, high, low))
    return total / n


def _draw_equity(hole: list[int], discards: Sequence[int], unknown: list[int], variant: Variant,
                 rng: random.Random) -> float:
    """Draw games: our hand after exchanging `discards` against a random pat five."""
    value = evaluator(variant.high)
    thrown = set(discards)
    keep = [c for c in hole if c not in thrown]
    k = len(hole) - len(keep)
    n = SAMPLES["draw"]
    total = 0.0
    for draw in _deals(unknown, k + 5, n, rng):
        ours, theirs = value(keep + draw[:k]), value(draw[k:])
        total += 1.0 if ours > theirs else 0.5 if ours == theirs else 0.0
    return total / n


# ----------------------------------------------------------------------------------------- draws

def plan_discards(hole: Sequence[Card], variant: Variant, max_draw: int = 5) -> tuple[Card, ...]:
    """The cards to throw: at most `max_draw`, always from `hole` (see the module docstring)."""
    cards = list(hole)
    order = variant.high
    if order == "ace-to-five":
        throw = _lowball_throw(cards, ace_low=True, check_straights=False)
    elif order == "deuce-to-seven":
        throw = _lowball_throw(cards, ace_low=False, check_straights=True)
    else:
        throw = _high_throw(cards)
    if len(throw) > max_draw:
        # Keep the extra cards that hurt least: for lowball the lowest, for high the highest.
        if variant.lowball:
            throw.sort(key=lambda c: _low_value(c, order == "ace-to-five"), reverse=True)
        else:
            throw.sort(key=lambda c: c.rank)
        throw = throw[:max_draw]
    return tuple(throw)


def _low_value(c: Card, ace_low: bool) -> int:
    """A=1 .. K=13 when aces are low, 2..14 (A=14) when they are high."""
    if ace_low:
        return 1 if c.rank == _ACE else c.rank + 2
    return c.rank + 2


def _lowball_throw(hole: list[Card], *, ace_low: bool, check_straights: bool) -> list[Card]:
    keep: list[Card] = []
    ranks: set[int] = set()
    for c in sorted(hole, key=lambda c: _low_value(c, ace_low)):
        v = _low_value(c, ace_low)
        if v <= 8 and c.rank not in ranks:
            keep.append(c)
            ranks.add(c.rank)
    if check_straights and len(keep) == 5:
        values = sorted(_low_value(c, ace_low) for c in keep)
        straight = values[-1] - values[0] == 4
        flush = len({c.suit for c in keep}) == 1
        if straight or flush:
            keep.remove(max(keep, key=lambda c: _low_value(c, ace_low)))
    kept = set(keep)
    return [c for c in hole if c not in kept]


def _high_throw(hole: list[Card]) -> list[Card]:
    if len(hole) != 5:
        return []
    counts = Counter(c.rank for c in hole)
    suits = Counter(c.suit for c in hole)
    ranks = sorted({c.rank for c in hole})
    straight = len(ranks) == 5 and (ranks[-1] - ranks[0] == 4 or ranks == [0, 1, 2, 3, _ACE])
    if straight or len(suits) == 1 or sorted(counts.values()) == [2, 3]:
        return []                                          # a made hand: pat
    if max(counts.values()) >= 2:
        pairs = {c for c in hole if counts[c.rank] >= 2}   # pairs, two pair, trips, quads
        if len(pairs) == 4 and len(counts) == 2:
            return []                                      # quads with a kicker
        return [c for c in hole if c not in pairs]
    suit, n = suits.most_common(1)[0]
    if n == 4:
        return [c for c in hole if c.suit != suit]         # four to a flush
    # Nothing: keep an ace or a king (with the next card if both are high), draw the rest.
    high = sorted(hole, key=lambda c: c.rank, reverse=True)
    keep = [c for c in high[:2] if c.rank >= 10]           # Q, K, A
    return [c for c in hole if c not in set(keep)]


# ----------------------------------------------------------------------------------------- applying

def apply(hand: Hand, decision: Decision) -> list[Event]:
    """Perform `decision` on a `cardroom.engine.hand.Hand` for its actor; returns the events."""
    kind, amount, discards = decision
    return hand.act(kind, amount, discards)
