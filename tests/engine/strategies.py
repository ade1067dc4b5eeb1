"""Shared helpers for driving hands with random legal play (tests and benchmarks).

`choose(hand, rng, ...)` picks one legal action uniformly among the legal action *kinds* (fold,
check, call, bet/raise, bring-in, complete; draw; show/muck), with a random amount in range for a
bet or raise, and returns it as a small tuple; `apply(hand, action)` performs it on the hand.
Everything random comes from the `random.Random` passed in, so a seed replays a hand exactly.
"""

from __future__ import annotations

import random
from typing import Iterator

from cardroom.engine.betting import FIXED, NO, POT, SPREAD, Rules, Structure
from cardroom.engine.hand import Hand, Player
from cardroom.engine.cards import Deck
from cardroom.engine.variants import Variant

Action = tuple  # ("fold",), ("check",), ("call",), ("bet", to), ("bring-in",), ("complete",),
                # ("draw", discards), ("show",), ("muck",), ("protect",)


def amount_in(rng: random.Random, lo: int, hi: int) -> int:
    """A bet size in [lo, hi]: the ends (min raise, all-in / pot) a third of the time each."""
    if lo >= hi:
        return lo
    r = rng.random()
    if r < 1 / 3:
        return lo
    if r < 2 / 3:
        return hi
    return rng.randint(lo, hi)


def choose(hand: Hand, rng: random.Random, *, free_fold: bool = True, protect: float = 0.0,
           muck: float = 0.3, uniform_amount: bool = False) -> Action:
    """A random legal action for `hand.actor`.

    free_fold: offer folding when checking is free (the engine allows it; pokerkit does not).
    protect: probability of a protected all-in (a timeout) instead of a chosen betting action.
    muck: probability of mucking at the showdown when allowed.
    """
    lg = hand.legal()
    if lg.phase == "draw":
        hole = hand.hole[lg.player]
        k = rng.randint(0, lg.max_draw)
        return ("draw", tuple(rng.sample(hole, k)))
    if lg.phase == "showdown":
        return ("muck",) if lg.muck and rng.random() < muck else ("show",)
    if protect and rng.random() < protect:
        return ("protect",)
    opts: list[str] = []
    if lg.bring_in:
        opts.append("bring-in")
    if lg.fold and (free_fold or not lg.check):
        opts.append("fold")
    if lg.check:
        opts.append("check")
    if lg.can_call and lg.call:
        opts.append("call")
    if lg.min_to:
        opts.append("bet")
    kind = rng.choice(opts)
    if kind == "bet":
        to = rng.randint(lg.min_to, lg.max_to) if uniform_amount else amount_in(rng, lg.min_to, lg.max_to)
        return ("bet", to)
    return (kind,)


def apply(hand: Hand, action: Action) -> list:
    """Perform a chosen action: Hand.act by name, plus the table's protected all-in."""
    kind = action[0]
    if kind == "protect":
        return hand.protect_all_in(hand.actor)
    if kind == "draw":
        return hand.act("draw", discards=action[1])
    return hand.act(kind, action[1] if len(action) > 1 else 0)


def play(hand: Hand, rng: random.Random, **kw) -> Iterator[tuple[Action, list]]:
    """Play the hand out at random, yielding (action, events) after each action."""
    while hand.actor is not None:
        action = choose(hand, rng, **kw)
        yield action, apply(hand, action)


def random_stack(rng: random.Random, big_blind: int) -> int:
    """Mostly ordinary stacks, sometimes tiny ones (less than a blind) and sometimes deep ones."""
    r = rng.random()
    if r < 0.15:
        return rng.randint(1, max(1, big_blind * 2))
    if r < 0.3:
        return rng.randint(big_blind * 2, big_blind * 10)
    if r < 0.9:
        return rng.randint(big_blind * 10, big_blind * 100)
    return rng.randint(big_blind * 100, big_blind * 400)


def random_structure(rng: random.Random, variant: Variant, kind: str | None = None) -> Structure:
    kind = kind or rng.choice((FIXED, SPREAD, POT, NO))
    small = rng.choice((2, 5, 10, 25, 50, 100, 200, 300, 400))
    cap = rng.choice((3, 4, 4, None))
    if variant.bring_in:
        ante = rng.choice((0, max(1, small // 10), max(1, small // 4)))
        bring = max(1, small // rng.choice((2, 3, 4, 5)))
        if bring >= small:
            bring = max(1, small - 1)
        return Structure.make(kind, small, small * 2, ante=ante, bring_in=bring, cap=cap, stud=True)
    ante = rng.choice((0, 0, 0, max(1, small // 10)))
    return Structure.make(kind, small, small * 2, ante=ante, cap=cap)


def random_rules(rng: random.Random) -> Rules:
    rake = rng.random() < 0.5
    return Rules(
        rake_percent=5 if rake else 0,
        rake_cap=rng.choice((100, 300)) if rake else 0,
        no_flop_no_drop=rng.random() < 0.3,
        show_all=rng.random() < 0.3,
        must_raise_to_enter=rng.random() < 0.3,
        draw_cap_four=rng.random() < 0.3,
        burn_before_draw=rng.random() < 0.8,
        defer_fifth_card=rng.random() < 0.7,
        reburn_on_reshuffle=rng.random() < 0.8,
    )


def random_hand(rng: random.Random, variant: Variant, *, kind: str | None = None, players: int | None = None,
                rules: Rules | None = None) -> Hand:
    structure = random_structure(rng, variant, kind)
    n = players or rng.randint(2, variant.max_seats)
    bb = structure.big_blind if not variant.bring_in else structure.small_bet
    seated = [Player(f"p{i}", random_stack(rng, bb), seat=i + 1) for i in range(n)]
    return Hand(variant, structure, seated, button=rng.randrange(n), deck=Deck(rng),
                rules=rules if rules is not None else random_rules(rng))
