"""Hand evaluation: the rule pages' examples, class and category counts, pokerkit as the oracle,
PokerStars wording (checked against the shared sample hand histories).

Fast by default; `pytest --deep` adds the exhaustive 2,598,960-hand sweeps and 100k-per-order oracle runs.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from itertools import combinations

import pytest

from cardroom.engine import evaluation as ev
from cardroom.engine.cards import CARDS, Card, codes, parse_cards
from cardroom.engine.evaluation import (
    ACE_TO_FIVE, DEUCE_TO_SEVEN, EIGHT_OR_BETTER, HIGH, OMAHA_EIGHT_OR_BETTER, OMAHA_HIGH, ORDERS,
    EvaluationError, UnknownOrder, WrongCardCount, best_five, describe, describe_hi_lo, evaluate, evaluator,
)


def v(order: str, text: str, board: str = ""):
    """Value of a hand written like the rule pages ("8,5,4,2,A" or "As Kd ..."); suits made up
    (rotating, so no flush) when the text has ranks only."""
    if "," in text and not any(ch in text for ch in "cdhs"):
        cards = _unique_suits([r.strip().replace("10", "T") for r in text.split(",")])
    else:
        cards = parse_cards(text)
    if board:
        return evaluate(order, cards, parse_cards(board))
    return evaluate(order, cards)


def _unique_suits(ranks: list[str]) -> list[Card]:
    """Give each rank a suit, never the same card twice, and never five of one suit."""
    used: set[Card] = set()
    out = []
    for i, r in enumerate(ranks):
        for s in "cdhs"[i % 4:] + "cdhs"[:i % 4]:
            c = Card.parse(r + s)
            if c not in used:
                used.add(c)
                out.append(c)
                break
    return out


A5, E8, D27 = ACE_TO_FIVE, EIGHT_OR_BETTER, DEUCE_TO_SEVEN


# ---------------------------------------------------------------------------------------------------
# Seed 000, "The Order Of Winning Hands" (5-card draw lowball, ace-to-five)

def test_lowball_wheel_5_4_3_2_A_is_the_best_hand():
    assert v(A5, "5,4,3,2,A") == ev.ACE_TO_FIVE_CLASSES >= max(evaluator(A5)(h) for h in _sample_hands(5, 2000))


def test_lowball_straights_and_flushes_do_not_count():
    assert v(A5, "5s 4s 3s 2s As") == v(A5, "5,4,3,2,A")
    assert v(A5, "9h 8h 7h 6h 5h") == v(A5, "9,8,7,6,5")


def test_lowball_suited_wheel_ties_unsuited_wheel():
    assert v(A5, "5s 4s 3s 2s As") == v(A5, "5c 4d 3h 2s Ac")


def test_lowball_hands_are_judged_from_the_highest_card_down_8_5_4_2_A_beats_8_7_3_2_A():
    assert v(A5, "8,5,4,2,A") > v(A5, "8,7,3,2,A")


def test_lowball_9_8_7_6_5_beats_10_5_4_3_2():
    assert v(A5, "9,8,7,6,5") > v(A5, "10,5,4,3,2")


def test_lowball_a_pair_of_aces_is_lower_than_a_pair_of_twos():
    assert v(A5, "A,A,K,Q,J") > v(A5, "2,2,5,4,3")
    assert v(A5, "A,A,4,3,2") > v(A5, "2,2,5,4,3")


def test_lowball_aces_are_low():
    assert v(A5, "Q,J,9,8,A") > v(A5, "K,4,3,2,A")
    assert v(A5, "K,Q,J,9,A") > v(A5, "K,Q,J,9,2")


def test_lowball_highest_card_9_6_5_3_2_beats_9_7_5_3_2():
    assert v(A5, "9,6,5,3,2") > v(A5, "9,7,5,3,2")


def test_lowball_7_6_4_3_A_beats_7_then_3_2_garbled_example():
    # The page reads "7,6,4,3,A beats 7, 3,2." (a card or two lost); both readings hold.
    assert v(A5, "7,6,4,3,A") > v(A5, "7,6,4,3,2")
    assert v(A5, "7,6,4,3,A") > v(A5, "7,6,5,3,2")


def test_lowball_pairs_lose_to_no_pair():
    assert v(A5, "K,Q,J,10,9") > v(A5, "2,2,3,4,5") > v(A5, "A,A,2,2,3")


def test_lowball_a_pair_of_sixes_beats_a_pair_of_eights():
    assert v(A5, "6,6,K,Q,J") > v(A5, "8,8,4,3,2")


def test_lowball_same_pair_lower_side_cards_win_8_8_6_4_2_beats_8_8_6_4_3():
    assert v(A5, "8,8,6,4,2") > v(A5, "8,8,6,4,3")


def test_lowball_two_pair_beats_three_of_a_kind_full_house_and_four_of_a_kind():
    two_pair = v(A5, "K,K,Q,Q,J")
    assert two_pair > v(A5, "2,2,2,3,4") > v(A5, "2,2,2,3,3") > v(A5, "2,2,2,2,3")


def test_lowball_two_pair_loses_to_one_pair():
    assert v(A5, "K,K,Q,J,10") > v(A5, "A,A,2,2,3")


def test_lowball_same_two_pair_fourth_card_decides_A_A_2_2_3_beats_A_A_2_2_4():
    assert v(A5, "A,A,2,2,3") > v(A5, "A,A,2,2,4")


def test_lowball_three_of_a_kind_loses_to_any_lower_three_of_a_kind():
    assert v(A5, "A,A,A,K,Q") > v(A5, "2,2,2,4,3") > v(A5, "3,3,3,2,A")


def test_lowball_four_aces_is_a_very_weak_hand():
    assert v(A5, "A,A,A,A,K") < v(A5, "K,K,K,Q,Q")                 # worse than any full house
    assert v(A5, "A,A,A,A,K") > v(A5, "2,2,2,2,A")                 # but the best four of a kind


def test_lowball_worst_hand_is_four_kings_with_a_queen():
    assert v(A5, "K,K,K,K,Q") == 1


def test_lowball_razz_best_five_of_seven():
    assert v(A5, "3c Ac 5s 2h Th Js 5h") == v(A5, "T,5,3,2,A")
    assert v(A5, "Kc Kd Kh Ks Qc Qd Jc") == v(A5, "K,K,Q,Q,J")


# ---------------------------------------------------------------------------------------------------
# Seed 001: high hands and hi-lo

def test_high_order_of_winning_hands():
    hands = ["As Ks Qs Js Ts", "9s Ts Js Qs Ks", "Ac Ad Ah As 2c", "Kc Kd Kh 7s 7c", "Ah 9h 7h 5h 3h",
             "6c 7d 8h 9s Tc", "7c 7d 7h 2s 3c", "Ac Ad Kh Ks 2c", "Ac Ad 4h 3s 2c", "Ac Kd 9h 7s 3c"]
    values = [v(HIGH, h) for h in hands]
    assert values == sorted(values, reverse=True) and len(set(values)) == len(values)
    assert values[0] == ev.HIGH_CLASSES


def test_high_royal_flush_is_a_straight_flush_with_an_ace_high():
    assert describe(HIGH, v(HIGH, "As Ks Qs Js Ts")) == "a Royal Flush"


def test_high_straight_ace_can_be_high_or_low():
    wheel, six = v(HIGH, "Ac 2d 3h 4s 5c"), v(HIGH, "2d 3h 4s 5c 6c")
    broadway = v(HIGH, "Tc Jd Qh Ks Ac")
    assert broadway > six > wheel > v(HIGH, "Ac Ad Ah Ks Qc")
    assert v(HIGH, "Qc Kd Ah 2s 3c") < wheel                       # no wrap-around straight


def test_high_highest_straight_wins():
    assert v(HIGH, "9c Td Jh Qs Kc") > v(HIGH, "8c 9d Th Js Qc")


def test_high_flush_9_7_5_3_2_beats_flush_9_6_5_3_2():
    assert v(HIGH, "9h 7h 5h 3h 2h") > v(HIGH, "9s 6s 5s 3s 2s")


def test_high_board_plays_split():
    board = "As Kd Qh Jc Tc"
    assert v(HIGH, "2c 3d", board) == v(HIGH, "4h 5s", board)


def test_high_kicker_A_J_beats_A_10_on_A_2_2_5_6():
    board = "Ac 2d 2h 5s 6c"
    assert v(HIGH, "Ad Jc", board) > v(HIGH, "Ah Tc", board)
    assert describe(HIGH, v(HIGH, "Ad Jc", board)) == "two pair, Aces and Deuces"


def test_high_same_hand_five_highest_cards_that_play():
    assert v(HIGH, "Ac Kd 9h 7s 3c 2d 4h") == v(HIGH, "Ac Kd 9h 7s 4h")


def test_hi_lo_eight_or_better_8_6_5_2_A_beats_8_7_5_2_A():
    assert v(E8, "8,6,5,2,A") > v(E8, "8,7,5,2,A")


def test_hi_lo_6_5_4_3_2_loses_to_6_5_4_3_A():
    assert v(E8, "6,5,4,3,2") < v(E8, "6,5,4,3,A")


def test_hi_lo_best_low_5_4_3_2_A_mixed_suits_same_as_suited():
    assert v(E8, "5s 4s 3s 2s As") == v(E8, "5c 4d 3h 2s Ac") == ev.EIGHT_OR_BETTER_CLASSES


def test_hi_lo_8_7_6_5_4_is_the_worst_qualifier():
    assert v(E8, "8,7,6,5,4") == 1
    assert v(E8, "9,7,6,5,4") is None
    assert v(E8, "9,5,4,3,2") is None


def test_hi_lo_9_high_does_not_qualify_and_pairs_do_not_qualify():
    assert v(E8, "9,4,3,2,A") is None
    assert v(E8, "8,8,3,2,A") is None
    assert v(E8, "8c 8d 3h 2s Ac Kd 4c") == v(E8, "8,4,3,2,A")


def test_hi_lo_straights_and_flushes_do_not_count_against_the_low():
    assert v(E8, "5h 4h 3h 2h Ah") == v(E8, "5,4,3,2,A")


def test_omaha_uses_exactly_two_hole_cards():
    # four spades on board and one in the hand: no flush
    assert describe(OMAHA_HIGH, v(OMAHA_HIGH, "Ah Kc 7d 2c", "Qs Js 9s 5s 3d")) == "high card Ace"
    # the board's straight cannot be played with fewer than two hole cards
    assert v(OMAHA_HIGH, "2c 2d 7h 8h", "Ts Jd Qc Kh Ad") == v(HIGH, "2c 2d Qc Kh Ad")


def test_omaha_low_needs_two_low_hole_cards_and_three_low_board_cards():
    assert v(OMAHA_EIGHT_OR_BETTER, "Ac Kd Qh Js", "2c 3d 4h 5s 6c") is None
    assert v(OMAHA_EIGHT_OR_BETTER, "Ac 2d Qh Js", "3c 4d 5h Ks Kc") == v(E8, "5,4,3,2,A")
    assert v(OMAHA_EIGHT_OR_BETTER, "Ac 2d Qh Js", "2c 3d 4h Ks Kc") is None      # 2 twice: no five ranks


# ---------------------------------------------------------------------------------------------------
# Seed 002: deuce-to-seven

def test_deuce_to_seven_7_5_4_3_2_is_the_best_hand():
    assert v(D27, "7c 5d 4h 3s 2c") == ev.DEUCE_TO_SEVEN_CLASSES


def test_deuce_to_seven_A_2_3_4_5_is_ace_high_not_a_straight():
    value = v(D27, "As 2c 3d 4h 5s")
    assert describe(D27, value) == "Lo: A,5,4,3,2"
    assert v(D27, "Kc 5d 4h 3s 2c") > value > v(D27, "2c 2d 3h 4s 5c")


def test_deuce_to_seven_aces_are_always_high():
    assert v(D27, "Kc Qd Jh 9s 8c") > v(D27, "Ac 5d 4h 3s 2c")


def test_deuce_to_seven_straights_and_flushes_count_against_you():
    assert v(D27, "8c 6d 5h 4s 3c") > v(D27, "7c 6d 5h 4s 3c")          # 7-6-5-4-3 is a straight
    assert v(D27, "8c 6d 5h 4s 3c") > v(D27, "7h 5h 4h 3h 2h")          # a flush
    assert v(D27, "Ac Kd Qh Js 9c") > v(D27, "2c 2d 3h 4s 5c")          # any pair loses to no pair


def test_deuce_to_seven_six_or_seven_cards_best_five():
    assert v(D27, "7c 5d 4h 3s 2c Kd") == v(D27, "7c 5d 4h 3s 2c")
    assert v(D27, "7h 5h 4h 3h 2h 8c Kd") == v(D27, "8c 5h 4h 3h 2h")


# ---------------------------------------------------------------------------------------------------
# API

def test_unknown_order_is_a_value_error_with_the_orders_listed():
    with pytest.raises(UnknownOrder) as info:
        evaluator("razz")
    assert isinstance(info.value, ValueError) and "ace-to-five" in str(info.value)
    with pytest.raises(UnknownOrder):
        describe("lowball", 1)


def test_evaluate_checks_card_counts_and_duplicates():
    with pytest.raises(WrongCardCount):
        evaluate(HIGH, parse_cards("As Ks Qs Js"))
    with pytest.raises(WrongCardCount):
        evaluate(HIGH, parse_cards("As Ks Qs Js Ts 9s 8s 7s"))
    with pytest.raises(WrongCardCount):
        evaluate(HIGH, [CARDS[0]] * 5)
    with pytest.raises(WrongCardCount):
        evaluate(OMAHA_HIGH, parse_cards("As Ks Qs"), parse_cards("2c 3c 4c"))
    with pytest.raises(EvaluationError):
        describe(HIGH, 0)


def test_values_are_plain_ints_and_class_counts_are_exported():
    assert type(v(HIGH, "As Ks Qs Js Ts")) is int
    assert ev.CLASS_COUNTS == {HIGH: 7462, ACE_TO_FIVE: 6175, DEUCE_TO_SEVEN: 7462, EIGHT_OR_BETTER: 56,
                               OMAHA_HIGH: 7462, OMAHA_EIGHT_OR_BETTER: 56}


def test_package_exports():
    import cardroom.engine as engine
    for name in ("evaluator", "evaluate", "describe", "EvaluationError", "UnknownOrder", "HIGH", "ORDERS"):
        assert hasattr(engine, name) and name in engine.__all__


def test_evaluator_accepts_lists_and_tuples_in_any_order():
    rng = random.Random(3)
    for order in (HIGH, A5, E8, D27):
        f = evaluator(order)
        for hand in _sample_hands(7 if order != D27 else 5, 300, seed=11):
            shuffled = list(hand)
            rng.shuffle(shuffled)
            assert f(hand) == f(shuffled) == f(tuple(shuffled))


def test_plain_int_codes_evaluate_exactly_as_the_cards_do():
    # codes() is the fast input: every order, 5, 6 and 7 cards, flushes included (a sixth of the
    # seven-card sample is forced suited so the flush path is exercised, not just reached by chance).
    rng = random.Random(5)
    spades = [c for c in CARDS if c.suit == 3]
    for order in (HIGH, A5, E8, D27):
        f = evaluator(order)
        for n in ((5,) if order == D27 else (5, 6, 7)):
            hands = [tuple(rng.sample(CARDS, n)) for _ in range(500)]
            hands += [tuple(rng.sample(spades, 5)) + tuple(rng.sample(CARDS[:20], n - 5)) for _ in range(100)]
            for hand in hands:
                if len(set(hand)) != n:
                    continue
                plain = codes(hand)
                assert all(type(c) is int for c in plain)
                assert f(plain) == f(hand), (order, hand)
    for order in (ev.OMAHA_HIGH, ev.OMAHA_EIGHT_OR_BETTER):
        f = evaluator(order)
        for _ in range(500):
            deal = rng.sample(CARDS, 9)
            hole, board = tuple(deal[:4]), tuple(deal[4:])
            assert f(codes(hole), codes(board)) == f(hole, board)
            assert ev.omaha_hi_lo(codes(hole), codes(board)) == ev.omaha_hi_lo(hole, board)


# ---------------------------------------------------------------------------------------------------
# Words

@pytest.mark.parametrize("cards, words", [
    ("Ac Kd 9h 7s 3c", "high card Ace"),
    ("Kc Kd 9h 7s 3c", "a pair of Kings"),
    ("Ac Ad Kh Ks 3c", "two pair, Aces and Kings"),
    ("7c 7d 7h Ks 3c", "three of a kind, Sevens"),
    ("6c 7d 8h 9s Tc", "a straight, Six to Ten"),
    ("Ac 2d 3h 4s 5c", "a straight, Ace to Five"),
    ("Ah 9h 7h 5h 3h", "a flush, Ace high"),
    ("Kc Kd Kh 7s 7c", "a full house, Kings full of Sevens"),
    ("Ac Ad Ah As 3c", "four of a kind, Aces"),
    ("9s Ts Js Qs Ks", "a straight flush, Nine to King"),
    ("As Ks Qs Js Ts", "a Royal Flush"),
    ("2c 2d 3h 3s 4c", "two pair, Threes and Deuces"),
    ("6c 6d 6h 9s 9c", "a full house, Sixes full of Nines"),
])
def test_describe_high(cards, words):
    assert describe(HIGH, v(HIGH, cards)) == words


@pytest.mark.parametrize("order, cards, words", [
    (A5, "8c 7d 6h 4s 2c", "Lo: 8,7,6,4,2"),
    (A5, "Tc 5d 3h 2s Ac", "Lo: T,5,3,2,A"),
    (A5, "8c 8d 6h 4s 2c", "Lo: a pair of Eights, 8,8,6,4,2"),
    (A5, "Ac Ad 6h 4s 2c", "Lo: a pair of Aces, 6,4,2,A,A"),
    (A5, "8c 8d 2h 2s 4c", "Lo: two pair, Eights and Deuces, 8,8,4,2,2"),
    (A5, "5c 5d 5h 2s 4c", "Lo: three of a kind, Fives, 5,5,5,4,2"),
    (A5, "5c 5d 5h 2s 2c", "Lo: a full house, Fives full of Deuces, 5,5,5,2,2"),
    (A5, "Kc Kd Kh Ks Qc", "Lo: four of a kind, Kings, K,K,K,K,Q"),
    (E8, "8c 6d 5h 2s Ac", "Lo: 8,6,5,2,A"),
    (D27, "8c 7d 6h 4s 2c", "Lo: 8,7,6,4,2"),
    (D27, "7c 5d 4h 3s 2c", "Lo: 7,5,4,3,2"),
    (D27, "As 2c 3d 4h 5s", "Lo: A,5,4,3,2"),
    (D27, "8c 8d 6h 4s 2c", "Lo: a pair of Eights, 8,8,6,4,2"),
    (D27, "2c 3d 4h 5s 6c", "Lo: a straight, Deuce to Six, 6,5,4,3,2"),
    (D27, "9h 7h 5h 3h 2h", "Lo: a flush, Nine high, 9,7,5,3,2"),
])
def test_describe_low(order, cards, words):
    assert describe(order, v(order, cards)) == words


def test_describe_no_low_and_hi_lo():
    assert describe(E8, None) == "no low"
    hi, lo = ev.omaha_hi_lo(parse_cards("Ah 2h Kh 2s"), parse_cards("5h 4d 2d Jd 6h"))
    assert describe_hi_lo(hi, lo) == "HI: three of a kind, Deuces; LO: 6,5,4,2,A"
    hi, lo = ev.omaha_hi_lo(parse_cards("Kh Qd 9s Th"), parse_cards("5h 4d 2d Jd 6h"))
    assert lo is None and describe_hi_lo(hi, lo) == "HI: high card King"


def test_best_five_orders_the_cards_as_a_hand_history_does():
    assert best_five(HIGH, parse_cards("Kc 7d Kd 7s 2c Kh 3c")) == tuple(parse_cards("Kh Kd Kc 7s 7d"))
    assert best_five(A5, parse_cards("3c Ac 5s 2h Th Js 5h")) == tuple(parse_cards("Th 5s 3c 2h Ac"))
    assert best_five(E8, parse_cards("9c 9d Kh Ks Qc Jd 2c")) is None
    assert best_five(OMAHA_HIGH, parse_cards("Ah Kh 2c 3d"), parse_cards("Qh Jh Th 4s 5s")) == \
        tuple(parse_cards("Ah Kh Qh Jh Th"))


# ---------------------------------------------------------------------------------------------------
# PokerStars samples: every shown hand's words, from our values

_SHOWS = re.compile(r"^(?P<who>.+?): shows \[(?P<cards>[^\]]+)\] \((?P<words>.+)\)\s*$")


def _sample_claims(samples):
    """(file, game, hole, board, words) for every 'shows' line with a description."""
    out = []
    for path in sorted((samples / "pokerstars").glob("*.txt")):
        text = path.read_text(encoding="utf-8-sig", errors="replace")
        for hand in re.split(r"\n(?=\ufeff?PokerStars (?:Game|Hand) #)", text):
            header = hand.strip().splitlines()[0] if hand.strip() else ""
            board = re.search(r"^Board \[([^\]]+)\]", hand, re.M)
            for line in hand.splitlines():
                m = _SHOWS.match(line.strip())
                if m:
                    out.append((path.name, header, m["cards"], board[1] if board else "", m["words"]))
    return out


def _our_words(header: str, hole: str, board: str) -> str:
    cards, table = parse_cards(hole), parse_cards(board) if board else []
    h = header.upper()
    if "OMAHA HI/LO" in h:
        return describe_hi_lo(*ev.omaha_hi_lo(cards, table))
    if "OMAHA" in h:
        return describe(OMAHA_HIGH, evaluate(OMAHA_HIGH, cards, table))
    if "HI/LO" in h:
        return describe_hi_lo(evaluate(HIGH, cards), evaluate(EIGHT_OR_BETTER, cards))
    if "RAZZ" in h:
        return describe(A5, evaluate(A5, cards))
    if "2-7" in h:
        return describe(D27, evaluate(D27, cards))
    return describe(HIGH, evaluate(HIGH, cards, table))


def test_describe_matches_every_shown_hand_in_the_pokerstars_samples(samples):
    claims = _sample_claims(samples)
    assert len(claims) >= 30
    for name, header, hole, board, words in claims:
        # PokerStars adds " - Ace+Queen kicker" only to tell apart hands shown in the same pot
        expected = re.sub(r" - [^;]+ kicker", "", words)
        assert _our_words(header, hole, board) == expected, (name, hole, board)


# ---------------------------------------------------------------------------------------------------
# Classes and categories over all 2,598,960 five-card hands

HIGH_CATEGORY_COUNTS = {
    "straight flush": 40, "four of a kind": 624, "full house": 3744, "flush": 5108, "straight": 10200,
    "three of a kind": 54912, "two pair": 123552, "one pair": 1098240, "high card": 1302540,
}
A5_CATEGORY_COUNTS = {   # straights and flushes are just high cards here
    "four of a kind": 624, "full house": 3744, "three of a kind": 54912, "two pair": 123552,
    "one pair": 1098240, "high card": 1317888,
}


def _weighted_five_card_values(order: str) -> Counter:
    """value -> number of the 2,598,960 five-card hands with that value, by rank multiset and suit
    pattern: one evaluation per (multiset, flush or not) weighted by how many hands share it."""
    f = evaluator(order)
    counts: Counter = Counter()
    for ranks in _rank_multisets5():
        mult = Counter(ranks)
        ways = 1
        for n in mult.values():
            ways *= _choose(4, n)
        cards = []
        for r, n in mult.items():
            cards.extend(CARDS[r * 4 + s] for s in range(n))
        if len(mult) == 5:                       # five ranks: 4 flushes and 1020 others
            cards = [CARDS[r * 4 + (i % 2)] for i, r in enumerate(ranks)]
            counts[f(cards)] += ways - 4
            counts[f([CARDS[r * 4 + 3] for r in ranks])] += 4
        else:
            counts[f(cards)] += ways
    return counts


def _rank_multisets5():
    from itertools import combinations_with_replacement
    return [r for r in combinations_with_replacement(range(13), 5) if r[0] != r[4]]


def _choose(n: int, k: int) -> int:
    from math import comb
    return comb(n, k)


def _categories(order: str, counts: Counter) -> dict[str, int]:
    out: Counter = Counter()
    for value, n in counts.items():
        out[ev.category(order, value)] += n
    return dict(out)


@pytest.mark.parametrize("order, classes, categories", [
    (HIGH, 7462, HIGH_CATEGORY_COUNTS),
    (ACE_TO_FIVE, 6175, A5_CATEGORY_COUNTS),
    (DEUCE_TO_SEVEN, 7462, {**HIGH_CATEGORY_COUNTS, "straight flush": 36, "straight": 9180,
                            "flush": 5112, "high card": 1303560}),
])
def test_five_card_classes_and_category_counts_by_suit_pattern(order, classes, categories):
    counts = _weighted_five_card_values(order)
    assert sum(counts.values()) == 2_598_960
    assert len(counts) == classes == ev.CLASS_COUNTS[order]
    assert sorted(counts) == list(range(1, classes + 1))
    assert _categories(order, counts) == categories


@pytest.mark.deep
@pytest.mark.parametrize("order", [HIGH, ACE_TO_FIVE, DEUCE_TO_SEVEN, EIGHT_OR_BETTER])
def test_deep_every_five_card_hand(order):
    f = evaluator(order)
    counts = Counter(map(f, combinations(CARDS, 5)))
    assert sum(counts.values()) == 2_598_960
    if order == EIGHT_OR_BETTER:
        assert len(counts) == 57 and counts[None] == 2_598_960 - 56 * 4 ** 5
        return
    assert counts == _weighted_five_card_values(order)


def test_eight_or_better_classes():
    counts = _weighted_five_card_values(EIGHT_OR_BETTER)
    assert len(counts) == 57 and counts[None] == 2_598_960 - 56 * 1024


# ---------------------------------------------------------------------------------------------------
# pokerkit as the oracle

def _sample_hands(n_cards: int, count: int, seed: int = 1) -> list[tuple[Card, ...]]:
    rng = random.Random(seed)
    return [tuple(rng.sample(CARDS, n_cards)) for _ in range(count)]


def _pokerkit_oracle(order: str):
    pokerkit = pytest.importorskip("pokerkit")
    to_pk = {c: next(iter(pokerkit.Card.parse(repr(c)))) for c in CARDS}
    cls = {HIGH: pokerkit.StandardHighHand, ACE_TO_FIVE: pokerkit.RegularLowHand,
           DEUCE_TO_SEVEN: pokerkit.StandardLowHand, EIGHT_OR_BETTER: pokerkit.EightOrBetterLowHand,
           OMAHA_HIGH: pokerkit.OmahaHoldemHand, OMAHA_EIGHT_OR_BETTER: pokerkit.OmahaEightOrBetterLowHand}[order]

    def oracle(hole, board=()):
        try:
            return cls.from_game([to_pk[c] for c in hole], [to_pk[c] for c in board])
        except ValueError:           # pokerkit: no valid hand (no qualifying low)
            return None

    return oracle


def _deals(order: str, count: int, seed: int):
    rng = random.Random(seed)
    for _ in range(count):
        if order in (OMAHA_HIGH, OMAHA_EIGHT_OR_BETTER):
            cards = rng.sample(CARDS, 9)
            yield tuple(cards[:4]), tuple(cards[4:])
        else:
            n = 5 if order == DEUCE_TO_SEVEN and rng.random() < 0.7 else rng.choice((5, 6, 7))
            yield tuple(rng.sample(CARDS, n)), ()


def _check_against_pokerkit(order: str, count: int, seed: int) -> int:
    """Same order as pokerkit on every pair of `count` random hands (sorted by pokerkit, each adjacent
    pair compared: equal iff equal, less iff less; so every pair agrees). Returns the pairs checked."""
    oracle = _pokerkit_oracle(order)
    f = evaluator(order)
    omaha = order in (OMAHA_HIGH, OMAHA_EIGHT_OR_BETTER)
    rows = []
    for hole, board in _deals(order, count, seed):
        ours = f(hole, board) if omaha else f(hole)
        theirs = oracle(hole, board)
        assert (ours is None) == (theirs is None), (order, hole, board, ours, theirs)
        if ours is not None:
            rows.append((theirs, ours))
    rows.sort(key=lambda r: r[0])
    for (t0, o0), (t1, o1) in zip(rows, rows[1:]):
        if t0 == t1:
            assert o0 == o1, (order, t0, t1, o0, o1)
        else:
            assert t0 < t1 and o0 < o1, (order, t0, t1, o0, o1)
    return len(rows) * (len(rows) - 1) // 2


@pytest.mark.parametrize("order, count", [
    (HIGH, 3000), (ACE_TO_FIVE, 3000), (DEUCE_TO_SEVEN, 3000), (EIGHT_OR_BETTER, 3000),
    (OMAHA_HIGH, 1500), (OMAHA_EIGHT_OR_BETTER, 1500),
])
def test_same_order_as_pokerkit(order, count):
    _check_against_pokerkit(order, count, seed=20240 + ORDERS.index(order))


@pytest.mark.deep
@pytest.mark.parametrize("order", ORDERS)
def test_deep_same_order_as_pokerkit_100k(order):
    _check_against_pokerkit(order, 100_000, seed=777 + ORDERS.index(order))


def test_omaha_equals_best_of_the_sixty_two_plus_three_choices():
    hi, lo = evaluator(OMAHA_HIGH), evaluator(OMAHA_EIGHT_OR_BETTER)
    high, eight = evaluator(HIGH), evaluator(EIGHT_OR_BETTER)
    rng = random.Random(9)
    for _ in range(1500):
        nh, nb = rng.choice((4, 5, 6)), rng.choice((3, 4, 5))
        cards = rng.sample(CARDS, nh + nb)
        hole, board = cards[:nh], cards[nh:]
        fives = [p + t for p in combinations(hole, 2) for t in combinations(board, 3)]
        assert hi(hole, board) == max(map(high, fives))
        lows = [x for x in map(eight, fives) if x is not None]
        assert lo(hole, board) == (max(lows) if lows else None)
        assert ev.omaha_hi_lo(hole, board) == (hi(hole, board), lo(hole, board))


def test_seven_cards_equal_best_of_the_twenty_one_fives():
    for order in (HIGH, ACE_TO_FIVE, EIGHT_OR_BETTER, DEUCE_TO_SEVEN):
        f = evaluator(order)
        for hand in _sample_hands(7, 1000, seed=5) + _sample_hands(6, 500, seed=6):
            fives = [x for x in map(f, combinations(hand, 5)) if x is not None]
            assert f(hand) == (max(fives) if fives else None)
