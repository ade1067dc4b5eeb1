"""Hand evaluation throughput: cardroom's `evaluator(order)` functions against treys, phevaluator,
eval7 and pokerkit on the same seeded hands.

    python -m benchmarks evaluation [--hands N] [--repeat R] [--seed S] [--json]

Every library gets the same hands, converted to its own card representation before any timing
(cardroom's: the plain int codes of `cardroom.engine.cards.codes`, as the bots' equity Monte Carlo
passes them; the row "cardroom (Cards)" times the same functions on Card objects).
Harness (identical for every library): `collections.deque(map(f, hands), maxlen=0)`, or
`itertools.starmap` where the library takes several arguments; so the per-call cost measured is the
library's call plus one C-level iteration step. Each library first makes one untimed pass over its
hands (cardroom builds its tables on first use and memoises Omaha boards; peers warm their caches
too). Then repetitions are interleaved round-robin across the libraries of a case; the table shows
the median evaluations per second and cardroom / peer. The clock is CPU time of this process
(`time.process_time`) by default, which other processes on a shared machine disturb least;
`--clock wall` uses `time.perf_counter`. pokerkit is much slower, so it is timed on the first
`--slow-hands` hands of the same list.

Two "floor" rows time what no evaluator on the same harness can beat: `sum` over the same card
codes (the builtin alone, no Python frame, no lookup) and a Python function that returns 0 at once.
A pure-Python evaluator needs at least one call and one pass over the cards, so its rate stays
below both; the ratio column then reads cardroom / floor.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from collections import deque
from itertools import starmap
from typing import Any, Callable, NamedTuple

from benchmarks import positive
from cardroom.engine import evaluation as ev
from cardroom.engine.cards import CARDS, codes

HARNESS = "deque(map(f, hands), maxlen=0) / deque(starmap(f, args), maxlen=0)"
CLOCKS = {"cpu": time.process_time, "wall": time.perf_counter}


def _import(name: str):
    try:
        return __import__(name)
    except ImportError:
        return None


def _deal(rng: random.Random, n: int, size: int) -> list[tuple]:
    return [tuple(rng.sample(CARDS, size)) for _ in range(n)]


class Case:
    def __init__(self, name: str, title: str) -> None:
        self.name = name
        self.title = title
        # library -> (callable, args list, star?) or a string saying why it is absent
        self.entries: dict[str, tuple[Callable, list, bool] | str] = {}

    def add(self, library: str, f: Callable, args: list, star: bool = False) -> None:
        self.entries[library] = (f, args, star)

    def absent(self, library: str, why: str) -> None:
        self.entries[library] = why


def _time(f: Callable, args: list, star: bool, clock: Callable[[], float] = time.process_time) -> float:
    it = starmap(f, args) if star else map(f, args)
    t = clock()
    deque(it, maxlen=0)
    return len(args) / max(clock() - t, 1e-9)


def _nothing(cards) -> int:
    """The cheapest Python function of the cards: one call, no work (a floor row)."""
    return 0


class _Peers(NamedTuple):
    """The peer libraries' modules, None for one not installed."""
    treys: Any
    phe: Any
    eval7: Any
    pokerkit: Any


def build_cases(hands: int, slow_hands: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    five = _deal(rng, hands, 5)
    seven = _deal(rng, hands, 7)
    omaha = [(h[:4], h[4:]) for h in _deal(rng, hands, 9)]
    peers = _Peers(_import("treys"), _import("phevaluator"), _import("eval7"), _import("pokerkit"))
    return (_high_cases(peers, five, seven, slow_hands) + _lowball_cases(peers, five, slow_hands)
            + [_eight_or_better_case(peers, seven, slow_hands)] + _omaha_cases(peers, omaha, slow_hands))


def _text(cards) -> list[str]:
    return [repr(c) for c in cards]


def _pokerkit_cards(pokerkit, cards) -> tuple:
    return tuple(pokerkit.Card.parse("".join(_text(cards))))


def _floors(case: Case, deal_c: list) -> None:
    case.add("floor: sum() alone", sum, deal_c)
    case.add("floor: empty function", _nothing, deal_c)


def _without(case: Case, peers: _Peers, why: dict[str, str]) -> None:
    """Peers that cannot play this case: 'not installed', or (when installed) the reason given."""
    for lib, mod in (("treys", peers.treys), ("phevaluator", peers.phe), ("eval7", peers.eval7)):
        if lib in why:
            case.absent(lib, "not installed" if mod is None else why[lib])


def _high_cases(peers: _Peers, five: list, seven: list, slow_hands: int) -> list[Case]:
    """High hands of 5 and 7 cards: every peer has them. cardroom's fast input is the cards' plain
    int codes (what its Monte Carlo passes); the Card objects themselves are timed too, on the row
    "cardroom (Cards)"."""
    cases = []
    for size, deal in ((5, five), (7, seven)):
        deal_c = [codes(h) for h in deal]
        case = Case(f"high-{size}", f"{size}-card high")
        case.add("cardroom", ev.evaluator(ev.HIGH), deal_c)
        case.add("cardroom (Cards)", ev.evaluator(ev.HIGH), deal)
        if peers.treys:
            t_ev = peers.treys.Evaluator()
            new = peers.treys.Card.new
            case.add("treys", t_ev.evaluate, [([new(c) for c in _text(h)[:2]], [new(c) for c in _text(h)[2:]])
                                              for h in deal], star=True)
        else:
            case.absent("treys", "not installed")
        if peers.phe:
            case.add("phevaluator", peers.phe.evaluate_cards, [tuple(c.index for c in h) for h in deal], star=True)
        else:
            case.absent("phevaluator", "not installed")
        if peers.eval7:
            case.add("eval7", peers.eval7.evaluate, [[peers.eval7.Card(t) for t in _text(h)] for h in deal])
        else:
            case.absent("eval7", "not installed")
        if peers.pokerkit:
            pk = peers.pokerkit.StandardHighHand
            f = pk if size == 5 else pk.from_game
            case.add("pokerkit", f, [_pokerkit_cards(peers.pokerkit, h) for h in deal[:slow_hands]])
        else:
            case.absent("pokerkit", "not installed")
        _floors(case, deal_c)
        cases.append(case)
    return cases


def _lowball_cases(peers: _Peers, five: list, slow_hands: int) -> list[Case]:
    """Lowball, 5 cards (only pokerkit has these orders among the peers)."""
    five_c = [codes(h) for h in five]
    cases = []
    for order, pk_name, title in ((ev.ACE_TO_FIVE, "RegularLowHand", "5-card ace-to-five"),
                                  (ev.DEUCE_TO_SEVEN, "StandardLowHand", "5-card deuce-to-seven")):
        case = Case(f"{order}-5", title)
        case.add("cardroom", ev.evaluator(order), five_c)
        case.add("cardroom (Cards)", ev.evaluator(order), five)
        _without(case, peers, dict.fromkeys(("treys", "phevaluator", "eval7"), f"has no {order} order"))
        if peers.pokerkit:
            case.add("pokerkit", getattr(peers.pokerkit, pk_name),
                     [_pokerkit_cards(peers.pokerkit, h) for h in five[:slow_hands]])
        else:
            case.absent("pokerkit", "not installed")
        if order == ev.ACE_TO_FIVE:
            _floors(case, five_c)
        cases.append(case)
    return cases


def _eight_or_better_case(peers: _Peers, seven: list, slow_hands: int) -> Case:
    """Eight-or-better, 7 cards (stud hi-lo's low half)."""
    case = Case("eight-or-better-7", "7-card eight-or-better")
    case.add("cardroom", ev.evaluator(ev.EIGHT_OR_BETTER), [codes(h) for h in seven])
    case.add("cardroom (Cards)", ev.evaluator(ev.EIGHT_OR_BETTER), seven)
    _without(case, peers, dict.fromkeys(("treys", "phevaluator", "eval7"), "has no eight-or-better order"))
    if peers.pokerkit:
        from_game = peers.pokerkit.EightOrBetterLowHand.from_game

        def pk_eight(cards, from_game=from_game):
            try:
                return from_game(cards)
            except ValueError:          # pokerkit's way of saying "no low"
                return None

        case.add("pokerkit", pk_eight, [_pokerkit_cards(peers.pokerkit, h) for h in seven[:slow_hands]])
    else:
        case.absent("pokerkit", "not installed")
    return case


def _omaha_cases(peers: _Peers, omaha: list, slow_hands: int) -> list[Case]:
    """Omaha high and Omaha hi-lo, 4 hole cards + 5 board."""
    omaha_c = [(codes(h), codes(b)) for h, b in omaha]
    pokerkit = peers.pokerkit
    pk_omaha = [(_pokerkit_cards(pokerkit, h), _pokerkit_cards(pokerkit, b))
                for h, b in omaha[:slow_hands]] if pokerkit else None
    high = Case("omaha-high", "Omaha high (4 hole + 5 board)")
    high.add("cardroom", ev.evaluator(ev.OMAHA_HIGH), omaha_c, star=True)
    high.add("cardroom (Cards)", ev.evaluator(ev.OMAHA_HIGH), omaha, star=True)
    _without(high, peers, {"treys": "has no Omaha"})
    if peers.phe:
        high.add("phevaluator", peers.phe.evaluate_omaha_cards,
                 [tuple(c.index for c in b) + tuple(c.index for c in h) for h, b in omaha], star=True)
    else:
        high.absent("phevaluator", "not installed")
    _without(high, peers, {"eval7": "has no Omaha"})
    if pokerkit:
        high.add("pokerkit", pokerkit.OmahaHoldemHand.from_game, pk_omaha, star=True)
    else:
        high.absent("pokerkit", "not installed")

    hi_lo = Case("omaha-hi-lo", "Omaha hi-lo, high and low (4 hole + 5 board)")
    hi_lo.add("cardroom", ev.omaha_hi_lo, omaha_c, star=True)
    hi, lo = ev.evaluator(ev.OMAHA_HIGH), ev.evaluator(ev.OMAHA_EIGHT_OR_BETTER)

    def two_calls(hole, board, hi=hi, lo=lo):
        return hi(hole, board), lo(hole, board)

    hi_lo.add("cardroom (2 calls)", two_calls, omaha_c, star=True)
    hi_lo.add("cardroom (Cards)", ev.omaha_hi_lo, omaha, star=True)
    _without(hi_lo, peers, {"treys": "has no Omaha", "phevaluator": "has no Omaha low", "eval7": "has no Omaha"})
    if pokerkit:
        pk_hi = pokerkit.OmahaHoldemHand.from_game
        pk_lo = pokerkit.OmahaEightOrBetterLowHand.from_game

        def pk_hi_lo(hole, board, pk_hi=pk_hi, pk_lo=pk_lo):
            try:
                low = pk_lo(hole, board)
            except ValueError:
                low = None
            return pk_hi(hole, board), low

        hi_lo.add("pokerkit", pk_hi_lo, pk_omaha, star=True)
    else:
        hi_lo.absent("pokerkit", "not installed")
    return [high, hi_lo]


def run(cases: list[Case], repeat: int, clock: Callable[[], float] = time.process_time) -> list[dict]:
    rows = []
    for case in cases:
        timed = {lib: e for lib, e in case.entries.items() if not isinstance(e, str)}
        rates: dict[str, list[float]] = {lib: [] for lib in timed}
        for f, args, star in timed.values():      # one untimed pass: tables, memos, caches
            _time(f, args, star, clock)
        for _ in range(repeat):
            for lib, (f, args, star) in timed.items():
                rates[lib].append(_time(f, args, star, clock))
        ours = statistics.median(rates["cardroom"])
        for lib, entry in case.entries.items():
            if isinstance(entry, str):
                rows.append({"case": case.name, "title": case.title, "library": lib, "note": entry})
                continue
            med = statistics.median(rates[lib])
            rows.append({"case": case.name, "title": case.title, "library": lib, "hands": len(entry[1]),
                         "median_per_s": med, "min_per_s": min(rates[lib]), "max_per_s": max(rates[lib]),
                         "cardroom_ratio": ours / med})
    return rows


def _fmt_rate(x: float) -> str:
    return f"{x / 1e6:.2f} M/s" if x >= 1e6 else f"{x / 1e3:.1f} k/s"


def print_table(rows: list[dict], meta: dict) -> None:
    print(f"Hand evaluation: {meta['python']} on {meta['machine']}; seed {meta['seed']}, "
          f"{meta['hands']} hands ({meta['slow_hands']} for pokerkit), {meta['repeat']} interleaved repetitions")
    print(f"harness: {meta['harness']}; clock: {meta['clock']}; one untimed warm-up pass each")
    print("median evaluations/s; ratio = cardroom / library")
    print()
    print(f"{'case':<46} {'library':<20} {'median':>12} {'ratio':>9}")
    print("-" * 90)
    last = None
    for row in rows:
        title = row["title"] if row["title"] != last else ""
        last = row["title"]
        if "note" in row:
            print(f"{title:<46} {row['library']:<20} {row['note']}")
        else:
            ratio = "" if row["library"].startswith("cardroom") else f"{row['cardroom_ratio']:.2f}x"
            print(f"{title:<46} {row['library']:<20} {_fmt_rate(row['median_per_s']):>12} {ratio:>9}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks evaluation", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=positive, default=20_000, help="hands per case (default 20000)")
    parser.add_argument("--slow-hands", type=positive, default=1_000, help="hands for pokerkit (default 1000)")
    parser.add_argument("--repeat", type=positive, default=7, help="interleaved repetitions (default 7)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--clock", choices=sorted(CLOCKS), default="cpu",
                        help="cpu = time.process_time (default), wall = time.perf_counter")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args(argv)
    cases = build_cases(args.hands, min(args.slow_hands, args.hands), args.seed)
    rows = run(cases, args.repeat, CLOCKS[args.clock])
    meta = {"python": f"Python {platform.python_version()} ({platform.python_implementation()})",
            "machine": platform.machine(), "seed": args.seed, "hands": args.hands,
            "slow_hands": min(args.slow_hands, args.hands), "repeat": args.repeat, "harness": HARNESS,
            "clock": f"{args.clock} ({CLOCKS[args.clock].__name__})"}
    if args.json:
        json.dump({"meta": meta, "results": rows}, sys.stdout, indent=2)
        print()
    else:
        print_table(rows, meta)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
