"""Complete 6-max hands per second with random legal play: cardroom's Hand vs pokerkit's State.

    python -m benchmarks.engine [--hands N] [--reps R] [--seed S] [--json] [--profile]

Both libraries play the same way: at each decision, pick uniformly among the legal action kinds
(fold, check/call, bet/raise; a draw: a random number of random cards), a bet or raise to a uniform
random amount in the legal range; the showdown shows what must be shown (pokerkit's automation;
ours: everyone shows). Each library deals from its own seeded shuffle. Repetitions alternate
between the libraries and the median rate is reported; the clock is this process's CPU time.

Both drivers draw their uniform choices as `int(random() * k)` (one C call) rather than with
`choice`/`randint` (several Python frames each): those were about 5% of a cardroom hand, harness
cost that is no part of either engine. (The bias of that form is below 2**-40 for these k.)
For the same reason both pick a draw's discards with `_discards` (a uniform count, then a uniform
subset of that size from a table of index combinations) rather than `random.sample`, whose frames
and `_randbelow` calls were 5% of an ace-to-five hand.
Likewise both build their table's input once, outside the timed hands: pokerkit its stacks tuple,
cardroom its six Player records (immutable NamedTuples that Hand only reads). Building six per hand,
names formatted, was 5-7% of a cardroom hand against nothing on pokerkit's side.

The "driver" column is the cardroom driver alone: the same loop playing back the decisions recorded
from real hands against a stand-in that only steps to the next recorded answer. It is what the
harness itself costs a hand, so the engine's own share is the difference.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
import warnings
from functools import cache
from itertools import combinations

from benchmarks import positive


@cache
def _subsets(n: int, k: int) -> tuple[tuple[int, ...], ...]:
    """Every k-subset of n positions, as index tuples."""
    return tuple(combinations(range(n), k))


def _discards(hole, most: int, rand) -> list:
    """What a random drawer throws away from `hole`: a uniform number of cards in 0..most, then a
    uniform subset of that size (the distribution of `rng.sample(hole, k)` with k uniform)."""
    subsets = _subsets(len(hole), int(rand() * (most + 1)))
    return [hole[i] for i in subsets[int(rand() * len(subsets))]]


# The action kinds a random player picks among: 0 fold, 1 check or call, 2 bet or raise, indexed
# [may fold (facing a bet)][may bet or raise]: a table rather than a list built per decision.
_KINDS = (((1,), (1, 2)), ((0, 1), (0, 1, 2)))


def _play(hands, rng: random.Random) -> None:
    """The cardroom driver: random legal play of each hand (an iterable of Hands) to its end."""
    rand = rng.random
    for h in hands:
        while h.actor is not None:
            lg = h.legal()
            if lg.phase == "draw":
                h.draw(_discards(h.hole[lg.player], lg.max_draw, rand))
                continue
            if lg.phase == "showdown":
                h.show()
                continue
            kinds = _KINDS[lg.fold and not lg.check][lg.min_to > 0]
            k = kinds[int(rand() * len(kinds))]
            if k == 0:
                h.fold()
            elif k == 1:
                h.check() if lg.check else h.call()
            else:
                h.bet(lg.min_to + int(rand() * (lg.max_to - lg.min_to + 1)))


def _table(key: str, kind: str):
    """new_hand(i, rng): the i-th hand at the benchmark's 6-max table, dealt from a deck shuffled by rng."""
    from cardroom.engine.betting import NO_RAKE, Structure
    from cardroom.engine.cards import Deck
    from cardroom.engine.hand import Hand, Player
    from cardroom.engine.variants import VARIANTS

    variant = VARIANTS[key]
    structure = Structure.make(kind, 200, 400)

    # The table's six players, built once like pokerkit's stacks tuple (immutable records: the Hand
    # copies what it changes).
    players = tuple(Player(f"p{j}", 20_000, seat=j + 1) for j in range(6))

    def new_hand(i: int, rng: random.Random):
        return Hand(variant, structure, players, button=i % 6, deck=Deck(rng), rules=NO_RAKE)
    return new_hand


def _cardroom_case(key: str, kind: str):
    new_hand = _table(key, kind)

    def run(hands: int, seed: int) -> None:
        rng = random.Random(seed)
        _play((new_hand(i, rng) for i in range(hands)), rng)
    return run


class _Recording:
    """A Hand seen through the driver, keeping each legal() answer: what _Replay plays back."""

    def __init__(self, hand, answers: list) -> None:
        self.hand, self.answers = hand, answers
        for name in ("hole", "draw", "show", "fold", "check", "call", "bet"):
            setattr(self, name, getattr(hand, name))

    @property
    def actor(self):
        return self.hand.actor

    def legal(self):
        lg = self.hand.legal()
        self.answers.append(lg)
        return lg


class _Replay:
    """The same decisions with no engine behind them: each action only steps to the next recorded
    legal() answer. The driver's own cost per hand, the floor under any engine's."""

    __slots__ = ("actor", "_answers", "_i")
    hole = [[0, 1, 2, 3, 4]] * 10   # what the driver samples its discards from

    def __init__(self, answers: list) -> None:
        self._answers, self._i, self.actor = answers, 0, 0

    def legal(self):
        return self._answers[self._i]

    def _step(self, *_) -> None:
        self._i += 1
        if self._i == len(self._answers):
            self.actor = None

    fold = check = call = bet = draw = show = _step


def _record(key: str, kind: str, hands: int) -> list[list]:
    """Play `hands` real hands with the driver; return each hand's legal() answers in order."""
    new_hand, rng = _table(key, kind), random.Random(0)
    recorded: list[list] = [[] for _ in range(hands)]
    _play((_Recording(new_hand(i, rng), answers) for i, answers in enumerate(recorded)), rng)
    return recorded


def _driver_case(key: str, kind: str, hands: int):
    """A run(hands, seed) that drives replays of `hands` recorded hands: the same driver, no engine."""
    recorded = _record(key, kind, hands)

    def run(n: int, seed: int) -> None:
        _play((_Replay(recorded[i]) for i in range(n)), random.Random(seed))
    return run


def _pokerkit_case(name: str):
    import pokerkit as pk
    from pokerkit import Automation

    auto = (Automation.ANTE_POSTING, Automation.BET_COLLECTION, Automation.BLIND_OR_STRADDLE_POSTING,
            Automation.CARD_BURNING, Automation.HOLE_DEALING, Automation.BOARD_DEALING,
            Automation.RUNOUT_COUNT_SELECTION, Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
            Automation.HAND_KILLING, Automation.CHIPS_PUSHING, Automation.CHIPS_PULLING)
    stacks = (20_000,) * 6

    if name == "nlhe":
        def make():
            return pk.NoLimitTexasHoldem.create_state(auto, True, 0, (100, 200), 200, stacks, 6)
    elif name == "a5":
        streets = (
            pk.Street(False, (False,) * 5, 0, False, pk.Opening.POSITION, 200, 3),
            pk.Street(True, (), 0, True, pk.Opening.POSITION, 400, 4),
        )

        def make():
            return pk.State(auto, pk.Deck.STANDARD, (pk.RegularLowHand,), streets,
                            pk.BettingStructure.FIXED_LIMIT, True, 0, (100, 200), 0, stacks, 6)
    else:
        streets = tuple(
            pk.Street(i > 0, (False,) * 4 if i == 0 else (), (0, 3, 1, 1)[i], False, pk.Opening.POSITION,
                      200 if i < 2 else 400, 3 if i == 0 else 4)
            for i in range(4))

        def make():
            return pk.State(auto, pk.Deck.STANDARD, (pk.OmahaHoldemHand, pk.OmahaEightOrBetterLowHand),
                            streets, pk.BettingStructure.FIXED_LIMIT, True, 0, (100, 200), 0, stacks, 6)

    def run(hands: int, seed: int) -> None:
        rng = random.Random(seed)
        rand = rng.random
        random.seed(seed)   # pokerkit shuffles with the module-level random
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for _ in range(hands):
                s = make()
                while s.status:
                    if s.can_stand_pat_or_discard():
                        i = s.stand_patter_or_discarder_index
                        hole = s.hole_cards[i]
                        s.stand_pat_or_discard(_discards(hole, len(hole), rand))
                        continue
                    if s.actor_index is None:
                        break
                    kinds = _KINDS[s.can_fold()][s.can_complete_bet_or_raise_to()]
                    k = kinds[int(rand() * len(kinds))]
                    if k == 0:
                        s.fold()
                    elif k == 1:
                        s.check_or_call()
                    else:
                        lo = s.min_completion_betting_or_raising_to_amount
                        hi = s.max_completion_betting_or_raising_to_amount
                        s.complete_bet_or_raise_to(lo + int(rand() * (hi - lo + 1)))
    return run


CASES = (
    ("no-limit hold'em", ("holdem", "no"), "nlhe", 10_000),
    ("FL ace-to-five single draw", ("a5-draw", "fixed"), "a5", 10_000),
    ("FL Omaha hi-lo", ("omaha8", "fixed"), "o8", 5_000),
)


def _rate(run, hands: int, seed: int) -> float:
    # CPU time of this process: what other processes on a shared 2-core machine disturb least.
    t0 = time.process_time()
    run(hands, seed)
    return hands / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks engine", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=positive, default=2000, help="cardroom hands per repetition")
    parser.add_argument("--pk-hands", type=positive, default=100, help="pokerkit hands per repetition")
    parser.add_argument("--reps", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--profile", action="store_true", help="cProfile cardroom's runs instead")
    args = parser.parse_args(argv)

    if args.profile:
        import cProfile
        import pstats
        for title, (key, kind), _, _ in CASES:
            run = _cardroom_case(key, kind)
            run(50, 0)   # warm up: the evaluator builds its tables on first use
            prof = cProfile.Profile()
            prof.runcall(run, args.hands, args.seed)
            print(f"== {title}")
            pstats.Stats(prof).sort_stats("tottime").print_stats(12)
        return 0

    try:
        import pokerkit  # noqa: F401
        have_pk = True
    except ImportError:
        have_pk = False
    rows = []
    for title, (key, kind), pk_name, target in CASES:
        ours = _cardroom_case(key, kind)
        theirs = _pokerkit_case(pk_name) if have_pk else None
        driver = _driver_case(key, kind, args.hands)
        ours(500, 0)                     # warm up: evaluator tables, the Omaha board memo
        if theirs:
            theirs(5, 0)
        rates_ours, rates_pk, rates_driver = [], [], []
        for r in range(args.reps):       # interleaved repetitions
            rates_ours.append(_rate(ours, args.hands, args.seed + r))
            rates_driver.append(_rate(driver, args.hands, args.seed + r))
            if theirs:
                rates_pk.append(_rate(theirs, args.pk_hands, args.seed + r))
        a = statistics.median(rates_ours)
        b = statistics.median(rates_pk) if rates_pk else None
        driver_us = 1e6 / statistics.median(rates_driver)
        rows.append({"case": title, "cardroom_hands_per_s": round(a, 1),
                     "pokerkit_hands_per_s": round(b, 1) if b else None,
                     "ratio": round(a / b, 1) if b else None, "target": target, "meets_target": a >= target,
                     "hand_us": round(1e6 / a, 1), "driver_us": round(driver_us, 1)})
    if args.json:
        print(json.dumps(rows, indent=2))
        return 0
    # Which interpreter ran it: both libraries' rates move with its build. On the benchmark machine
    # pyenv's 3.11.7 (built without PGO or LTO) executes ~9% more instructions per hand than
    # Debian's /usr/bin/python3.11 and ran both libraries 15-30% slower in interleaved runs.
    print(f"python {sys.version.split()[0]} at {sys.executable}")
    print(f"{'case':30} {'cardroom h/s':>13} {'pokerkit h/s':>13} {'ratio':>7} {'target':>7}  ok  "
          f"{'us/hand':>8} {'driver':>7}")
    for r in rows:
        pk_rate = f"{r['pokerkit_hands_per_s']:13.1f}" if r["pokerkit_hands_per_s"] else f"{'-':>13}"
        ratio = f"{r['ratio']:6.1f}x" if r["ratio"] else f"{'-':>7}"
        print(f"{r['case']:30} {r['cardroom_hands_per_s']:13.1f} {pk_rate} {ratio} {r['target']:7d}  "
              f"{'yes' if r['meets_target'] else 'NO ':3} {r['hand_us']:8.1f} {r['driver_us']:7.1f}")
    print(f"(medians of {args.reps} interleaved repetitions; {args.hands} cardroom / {args.pk_hands} pokerkit "
          "hands each; 6-max, random legal play. us/hand: cardroom's whole hand; driver: the driver alone,\n"
          " playing back the same hands' recorded decisions with no engine behind them: the floor under any engine)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
