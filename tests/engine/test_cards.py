"""Cards and the deck: parse and format are symmetric, bad text is a clear error, the deck's
randomness is injected (the OS CSPRNG by default)."""

import random
import secrets
from collections import Counter

import pytest

from cardroom.engine.cards import (
    CARDS, COUNT_SHIFT, FLUSH_FLAGS, INDEX_MASK, RANK_KEYS, RANK_SHIFT, SUIT_BIAS, SUIT_SHIFT, BadCardText,
    Card, CardError, Deck, DuplicateCards, codes, format_cards, parse_cards, shuffled,
)


def test_card_parse_and_repr_are_symmetric():
    card = Card.parse("As")
    assert repr(card) == "As" and str(card) == "As"
    assert (card.rank, card.suit) == (12, 3)
    assert all(Card.parse(repr(c)) is c for c in CARDS)
    assert len(set(CARDS)) == 52


def test_parse_cards_reads_a_hand_in_the_usual_forms():
    assert parse_cards("As Kd 7c") == [Card.parse("As"), Card.parse("Kd"), Card.parse("7c")]
    assert parse_cards("AsKd7c") == parse_cards("as, kd, 7c") == parse_cards(["As", "Kd", "7c"])
    assert parse_cards("10h") == [Card.parse("Th")]
    assert format_cards(parse_cards("As Kd")) == "As Kd"


def test_card_codes_hold_their_fields_and_sums_of_up_to_seven_keep_them_apart():
    # The evaluators' layout (see the cards module docstring): every field of a sum of 5 to 7 codes
    # reads back exactly, and the flush flags are set exactly when five or more share a suit.
    for c in CARDS:
        rank_bit, suit_bit = 1 << (RANK_SHIFT + c.rank), 1 << (SUIT_SHIFT + 4 * c.suit)
        assert c == rank_bit | suit_bit | 1 << COUNT_SHIFT | RANK_KEYS[c.rank]
    rng = random.Random(3)
    spades = [c for c in CARDS if c.suit == 3]
    hands = [rng.sample(CARDS, n) for n in (5, 6, 7) for _ in range(3000)]
    hands += [rng.sample(spades, k) + rng.sample([c for c in CARDS if c.suit != 3], n - k)
              for n in (5, 6, 7) for k in range(4, n + 1) for _ in range(200)]
    hands += [[Card.parse(t) for t in "Ac Ad Ah As Kc Kd Kh".split()]]          # the largest key sum
    for hand in hands:
        s = sum(codes(hand), SUIT_BIAS)
        assert s < 1 << 57
        assert s & INDEX_MASK == len(hand) << COUNT_SHIFT | sum(RANK_KEYS[c.rank] for c in hand)
        by_suit = Counter(c.suit for c in hand)
        assert bool(s & FLUSH_FLAGS) == (max(by_suit.values()) >= 5)
        assert (s & (INDEX_MASK | FLUSH_FLAGS) > INDEX_MASK) == bool(s & FLUSH_FLAGS)  # past the table
        suited = [c for c in hand if by_suit[c.suit] >= 5]
        if suited:
            assert (s & FLUSH_FLAGS) >> 3 == 1 << (SUIT_SHIFT + 4 * suited[0].suit)
            m = 0
            for c in suited:
                m |= c
            assert m >> RANK_SHIFT == sum(1 << c.rank for c in suited)


@pytest.mark.parametrize("text", ["Zz", "A", "1s", "Ax", "", "  ", "AsK", None, 12])
def test_bad_card_text_is_a_clear_value_error(text):
    with pytest.raises(BadCardText):
        Card.parse(text)
    assert issubclass(BadCardText, CardError) and issubclass(CardError, ValueError)


def test_duplicate_cards_are_refused_where_a_hand_must_not_have_them():
    with pytest.raises(DuplicateCards, match="As"):
        parse_cards("As Kd As")
    assert len(parse_cards("As As", unique=False)) == 2


def test_deck_deals_every_card_once():
    deck = Deck(random.Random(3))
    dealt = deck.deal(52)
    assert sorted(dealt) == sorted(CARDS) and deck.remaining == 0
    with pytest.raises(IndexError):
        deck.deal(1)


def test_an_injected_seed_repeats_the_shuffle_and_the_default_is_the_os_csprng(monkeypatch):
    assert Deck(random.Random(7)).order() == Deck(random.Random(7)).order()
    assert Deck(random.Random(7)).order() != Deck(random.Random(8)).order()
    calls = []
    real = secrets.randbelow
    monkeypatch.setattr(secrets, "randbelow", lambda n: calls.append(n) or real(n))
    Deck()
    assert calls, "the default deck must draw from secrets (the OS CSPRNG)"


def test_stacked_deck_deals_the_given_cards_first():
    deck = Deck.stacked("As Kd 7c")
    assert deck.deal(3) == parse_cards("As Kd 7c")
    assert deck.remaining == 49


def test_fisher_yates_from_one_draw_is_uniform_over_small_permutations():
    # Every one of the 24 orders of four cards is equally likely (chi-square, fixed seed).
    rng = random.Random(11)
    four = CARDS[:4]
    counts = Counter(tuple(shuffled(four, _Below(rng))) for _ in range(24_000))
    assert len(counts) == 24
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < 50          # 23 degrees of freedom: p ~ 0.001


class _Below:
    def __init__(self, rng):
        self.rng = rng

    def randbelow(self, n):
        return self.rng.randrange(n)
