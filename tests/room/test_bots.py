"""The practice bot: only legal actions, hands played to the end with chips conserved, sensible draws
and strengths, deterministic given its rng, and cheap."""

from __future__ import annotations

import random
import statistics
import time

import pytest

from cardroom.engine.betting import FIXED, NO, POT, SPREAD, Rules, Structure
from cardroom.engine.cards import CARDS, Deck, parse_cards
from cardroom.engine.hand import Hand, Legal, Player
from cardroom.engine.variants import VARIANTS, find_variant
from cardroom.room import bots

KINDS = {"fold", "check", "call", "bet", "bring-in", "complete", "draw", "show", "muck"}


def random_hand(variant, seed: int) -> Hand:
    rng = random.Random(seed)
    kind = (FIXED, SPREAD, POT, NO)[seed % 4]
    small = rng.choice((2, 10, 25, 50, 100, 200, 400))
    structure = Structure.make(kind, small, None, stud=variant.bring_in,
                               ante=rng.choice((0, max(1, small // 10))) if variant.bring_in else 0,
                               cap=rng.choice((3, 4, None)), uncapped_heads_up=rng.random() < 0.2)
    n = rng.randint(2, variant.max_seats)
    players = []
    for i in range(n):
        r = rng.random()
        stack = rng.randint(1, small * 2) if r < 0.1 else rng.randint(small * 2, small * 150)
        players.append(Player(f"P{i + 1}", stack, seat=i + 1))
    rules = Rules(rake_percent=rng.choice((0, 5)), rake_cap=300, show_all=rng.random() < 0.5,
                  must_raise_to_enter=variant.lowball and not variant.bring_in and rng.random() < 0.3,
                  draw_cap_four=variant.kind == "draw" and rng.random() < 0.3)
    return Hand(variant, structure, players, button=rng.randrange(n), deck=Deck(random.Random(seed)),
                rules=rules)


def check_legal(decision, lg: Legal, hole) -> None:
    """The decision is one the Legal allows, with its amount in range."""
    kind, amount, discards = decision
    assert kind in KINDS, decision
    assert isinstance(amount, int) and isinstance(discards, tuple)
    if lg.phase == "draw":
        assert kind == "draw"
        assert len(discards) <= lg.max_draw and len(set(discards)) == len(discards)
        assert all(c in hole for c in discards)
        return
    assert not discards
    if lg.phase == "showdown":
        assert kind == "show" and lg.show or kind == "muck" and lg.muck
        return
    assert lg.phase == "bet"
    if kind == "fold":
        assert lg.fold and not lg.check, "never folds when checking is free"
    elif kind == "check":
        assert lg.check
    elif kind == "call":
        assert lg.can_call and lg.call == amount > 0
    elif kind == "bring-in":
        assert lg.bring_in == amount > 0
    elif kind == "complete":
        assert lg.raise_kind == "complete" and amount == lg.min_to > 0
    elif kind == "bet":
        assert lg.min_to and lg.min_to <= amount <= lg.max_to
    else:
        raise AssertionError(decision)
    if lg.bring_in:
        assert kind in ("bring-in", "complete", "bet")


def play_out(hand: Hand, rng: random.Random, *, pass_draws_left: bool = False) -> list:
    start = hand.chips_in_play()
    assert start == sum(p.stack for p in hand.players)
    decisions = []
    steps = 0
    while hand.actor is not None:
        steps += 1
        assert steps < 500, "the hand never ends"
        lg = hand.legal()
        p = lg.player
        hole = list(hand.hole[p])
        draws_left = None
        if pass_draws_left and hand.variant.kind == "draw":
            draws_left = hand.variant.draws - hand.draw_index - 1
        d = bots.choose(lg, hole, list(hand.board), hand.variant, rng=rng, draws_left=draws_left)
        check_legal(d, lg, hole)
        if d[0] in ("fold", "check", "call", "bet", "bring-in", "complete"):
            assert hand.can(d[0], d[1] if d[0] == "bet" else lg.min_to if d[0] == "complete" else 0)
        bots.apply(hand, d)          # an IllegalAction here fails the test
        decisions.append(d)
        assert hand.chips_in_play() == start
    assert hand.over
    assert sum(hand.stacks) + hand.rake == start                 # chips conserved
    assert all(s >= 0 for s in hand.stacks)
    hand.all_cards()                                             # still 52 distinct cards
    return decisions


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_bots_play_200_hands_of_every_game_legally(game):
    variant = VARIANTS[game]
    kinds = set()
    showdowns = 0
    for seed in range(200):
        hand = random_hand(variant, seed)
        ds = play_out(hand, random.Random(seed * 7 + 1), pass_draws_left=seed % 2 == 0)
        kinds.update(d[0] for d in ds)
        showdowns += any(d[0] == "show" for d in ds) or bool(hand.shown)
    # They really play: bet, call and fold, and reach showdowns.
    assert {"bet", "call", "fold", "check"} <= kinds
    if variant.kind == "draw":
        assert "draw" in kinds
    if variant.bring_in:
        assert "bring-in" in kinds
    assert showdowns > 10


def test_bots_are_deterministic_given_the_rng():
    for game in ("holdem", "omaha8", "stud8", "27-triple"):
        v = VARIANTS[game]
        a = play_out(random_hand(v, 11), random.Random(5))
        b = play_out(random_hand(v, 11), random.Random(5))
        assert a == b


def test_never_folds_when_checking_is_free():
    rng = random.Random(3)
    v = VARIANTS["holdem"]
    hopeless = parse_cards("7c 2d")
    board = parse_cards("Ah Kh Qh Jh 9s")
    lg = Legal(0, "bet", fold=True, check=True, min_to=200, max_to=200, raise_kind="bet")
    for _ in range(200):
        assert bots.choose(lg, hopeless, board, v, rng=rng)[0] == "check"


def test_folds_weak_hands_to_a_bet_and_raises_strong_ones():
    rng = random.Random(4)
    v = VARIANTS["holdem"]
    board = parse_cards("Ah Kh Qh 4c 9s")
    lg = Legal(0, "bet", fold=True, call=200, can_call=True, min_to=400, max_to=400, raise_kind="raise")
    weak = [bots.choose(lg, parse_cards("7c 2d"), board, v, rng=rng)[0] for _ in range(50)]
    strong = [bots.choose(lg, parse_cards("Jh Th"), board, v, rng=rng) for _ in range(50)]
    assert weak.count("fold") == 50
    assert all(d == ("bet", 400, ()) for d in strong)        # a royal flush raises


def test_no_limit_sizes_stay_in_range_and_grow_with_strength():
    rng = random.Random(5)
    v = VARIANTS["holdem"]
    lg = Legal(0, "bet", fold=True, check=True, min_to=100, max_to=10_000, raise_kind="bet")
    sizes = [bots.choose(lg, parse_cards("As Ad"), parse_cards("Ac Ah 2d"), v, rng=rng) for _ in range(50)]
    assert all(k == "bet" and 100 <= a <= 10_000 for k, a, _ in sizes)
    assert max(a for _, a, _ in sizes) > 100


def test_must_raise_to_enter():
    rng = random.Random(6)
    v = VARIANTS["a5-draw"]
    lg = Legal(0, "bet", fold=True, call=0, can_call=False, min_to=400, max_to=400, raise_kind="raise")
    assert bots.choose(lg, parse_cards("As 2d 3c 4h 6s"), [], v, rng=rng, draws_left=1)[0] == "bet"
    assert bots.choose(lg, parse_cards("Ks Kd Qc Qh Js"), [], v, rng=rng, draws_left=1)[0] == "fold"


def test_bring_in():
    rng = random.Random(7)
    v = VARIANTS["stud"]
    lg = Legal(0, "bet", fold=False, bring_in=25, min_to=100, max_to=100, raise_kind="complete")
    d = bots.choose(lg, parse_cards("7c 2d 3h"), [], v, rng=rng)
    assert d == ("bring-in", 25, ())
    d = bots.choose(lg, parse_cards("Ac Ad As"), [], v, rng=rng)
    assert d == ("complete", 100, ())


def test_showdown_shows():
    lg = Legal(1, "showdown", show=True, muck=True)
    assert bots.choose(lg, parse_cards("7c 2d"), parse_cards("Ah Kh Qh 4c 9s"), VARIANTS["holdem"],
                       rng=random.Random(1)) == ("show", 0, ())


# ------------------------------------------------------------------------------ draws

@pytest.mark.parametrize("game, hand, throw", [
    ("a5-draw", "As 2d 3c 9h Ks", "9h Ks"),          # keep A-2-3
    ("a5-draw", "As Ad 3c 4h 5s", "Ad"),             # break the pair
    ("a5-draw", "As 2d 3c 4h 5s", ""),               # the wheel: pat
    ("a5-draw", "8s 7d 6c 5h 4s", ""),               # straights do not count in ace-to-five: pat
    ("a5-triple", "Ks Qd Jc Th 9s", "Ks Qd Jc Th 9s"),
    ("27-draw", "2s 3d 4c 5h 7s", ""),               # the nuts: pat
    ("27-draw", "As 2d 3c 4h 7s", "As"),             # an ace is high in deuce-to-seven
    ("27-draw", "2s 3d 4s 5h 6s", "6s"),             # a straight: break it
    ("27-draw", "2s 3s 4s 5s 7s", "7s"),             # a flush: break it
    ("27-triple", "2s 7d 7c 8h Ks", "7c Ks"),        # pair and high card
    ("draw", "As Ad 3c 4h 5s", "3c 4h 5s"),          # keep the pair
    ("draw", "9s 9d 9c 4h 2s", "4h 2s"),             # keep trips
    ("draw", "Ks Kd 4c 4h 2s", "2s"),                # two pair: draw one
    ("draw", "Ks Kd Kc 4h 4s", ""),                  # full house: pat
    ("draw", "2s 7s 9s Js 4d", "4d"),                # four to a flush
    ("draw", "As Ks Qs Js Ts", ""),                  # royal flush: pat
    ("draw", "9s Td Jc Qh Ks", ""),                  # straight: pat
])
def test_plan_discards(game, hand, throw):
    out = bots.plan_discards(parse_cards(hand), find_variant(game))
    assert set(out) == set(parse_cards(throw))
    assert len(out) == len(set(out))


def test_discards_respect_max_draw():
    v = find_variant("a5-triple")
    hand = parse_cards("Ks Qd Jc Th 9s")
    out = bots.plan_discards(hand, v, max_draw=4)
    assert len(out) == 4
    lg = Legal(0, "draw", max_draw=4)
    d = bots.choose(lg, hand, [], v, rng=random.Random(1))
    assert d[0] == "draw" and len(d[2]) <= 4 and set(d[2]) <= set(hand)


# ------------------------------------------------------------------------------ strength

@pytest.mark.parametrize("game, better, worse, board", [
    ("holdem", "As Ad", "7c 2d", ""),
    ("holdem", "As Kd", "7c 2d", "Ah Kc 2s"),
    ("omaha", "As Ad Ks Kd", "7c 2d 3h 9s", ""),
    ("omaha8", "As 2s 3d Kd", "Tc Jd 9h 9s", "4c 5d Qh"),
    ("stud", "As Ad Ah", "7c 2d 9h", ""),
    ("razz", "As 2d 3h", "Kc Qd Kh", ""),
    ("a5-draw", "As 2d 3c 4h 6s", "Ks Kd Qc Qh Js", ""),
    ("27-draw", "2s 3d 4c 5h 7s", "As Ad Kc Kh Qs", ""),
    ("draw", "As Ad Ac Kh Ks", "2c 7d 9h Js 4d", ""),
])
def test_strength_orders_hands(game, better, worse, board):
    v = find_variant(game)
    b = parse_cards(board) if board else []
    rng = random.Random(9)
    hi = statistics.mean(bots.strength(parse_cards(better), b, v, rng=rng) for _ in range(10))
    lo = statistics.mean(bots.strength(parse_cards(worse), b, v, rng=rng) for _ in range(10))
    assert 0.0 <= lo < hi <= 1.0


def test_decisions_are_cheap():
    """Budget: under 1 ms a decision. The assertion allows 2 ms (median) for a loaded test machine."""
    rng = random.Random(10)
    lg = Legal(0, "bet", fold=True, call=100, can_call=True, min_to=200, max_to=5000, raise_kind="raise")
    for game, v in VARIANTS.items():
        n_hole = 4 if v.omaha else 5 if v.kind == "draw" else 3 if v.bring_in else 2
        times = []
        bots.choose(lg, list(CARDS[:n_hole]), [], v, rng=rng)            # evaluator tables built
        for i in range(60):
            cards = rng.sample(CARDS, n_hole + 5)
            board = cards[n_hole:n_hole + (i % 3) * 2 + (1 if i % 3 else 0)] if v.kind == "board" else []
            t = time.perf_counter()
            bots.choose(lg, cards[:n_hole], board, v, rng=rng)
            times.append(time.perf_counter() - t)
        assert statistics.median(times) < 0.002, (game, statistics.median(times))
