"""Cards and the deck.

A `Card` is an `int` subclass, one interned instance per card, so the evaluators can add cards up
with the C-level `sum()` and look the total up in a table without touching a Python attribute.
The integer value is an evaluation code with four fields (low bits first):

    bits  0..22  rank key: RANK_KEYS[rank], chosen so that the sum over any seven cards (at most four
                 of a rank) is unique for the multiset of ranks
    bits 23..25  card count: 1 per card, so `sum & INDEX_MASK` (count << 23 | key) is unique across
                 5, 6 and 7 cards too (deuce's rank key is 0), and one table serves every count
    bits 26..41  suit nibbles: 1 << (26 + 4 * suit); four bits per suit, so a sum started at
                 SUIT_BIAS sets bit 3 of a nibble (FLUSH_FLAGS) exactly when five or more cards
                 share that suit
    bits 42..56  rank bit: 1 << (42 + rank) (rank 0 = deuce .. 12 = ace), on top so that
                 `x >> RANK_SHIFT` is the 13-bit rank mask of cards of one suit without a mask

The index (key and count) is at the bottom so that one `&` with INDEX_MASK | FLUSH_FLAGS both
extracts it and, when a flush flag is set, pushes it past the end of the table (an IndexError the
high evaluator catches): the flush test costs no operation of its own.
A sum of seven codes stays below 2**57, inside the C long that `sum()` accumulates plain ints in.
`sum()` has that fast path only for exact ints, not for the Card subclass: the hot paths (showdown,
equity, the benchmark) pass plain codes, `codes(cards)`, which are interned like the Cards.

Only the evaluators care about the code; everyone else uses `rank`, `suit`, `index` and `repr`.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from functools import cache
from typing import Callable, Protocol, cast

RANKS = "23456789TJQKA"
SUITS = "cdhs"  # index order: clubs < diamonds < hearts < spades (the stud suit order)
RANK_NAMES = ("Deuce", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King", "Ace")
SUIT_SYMBOLS = {"c": "\u2663", "d": "\u2666", "h": "\u2665", "s": "\u2660"}

# Rank keys whose sums over up to seven cards are unique per rank multiset (from SKPokerEval).
RANK_KEYS = (0, 1, 5, 22, 98, 453, 2031, 8698, 22854, 83661, 262349, 636345, 1479181)
COUNT_SHIFT = 23
INDEX_MASK = (1 << 26) - 1                 # count << 23 | rank key: the evaluators' table index
SUIT_SHIFT = 26
RANK_SHIFT = 42
SUIT_BIAS = 0x3333 << SUIT_SHIFT          # start value for sum(): makes "5 of a suit" one bit
FLUSH_FLAGS = 0x8888 << SUIT_SHIFT         # those bits


class CardError(ValueError):
    """Text that is not a card, or cards that cannot be together."""


class BadCardText(CardError):
    pass


class DuplicateCards(CardError):
    pass


class Card(int):
    """One playing card. `Card.parse("As")`; `repr(card) == "As"`; compares and hashes as its code."""

    __slots__ = ()

    def __new__(cls, rank: int, suit: int) -> Card:
        # Only called while building the 52 interned cards; use Card.parse / CARDS elsewhere.
        code = (1 << (RANK_SHIFT + rank)) | (1 << (SUIT_SHIFT + 4 * suit)) | 1 << COUNT_SHIFT | RANK_KEYS[rank]
        return super().__new__(cls, code)

    @classmethod
    def parse(cls, text: str) -> Card:
        if not isinstance(text, str):
            raise BadCardText(f"a card is two characters like 'As', not {text!r}")
        try:
            return _BY_TEXT[text.strip()]
        except KeyError:
            raise BadCardText(f"{text!r} is not a card: use a rank from {RANKS} then a suit from {SUITS}") from None

    def __repr__(self) -> str:
        return _TEXT[self]

    __str__ = __repr__

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:
        return (Card.parse, (repr(self),))

    # Attributes go on the type's per-instance storage; int subclasses with __slots__ = () have none,
    # so rank/suit/index come from a lookup table keyed by the code instead.
    @property
    def rank(self) -> int:
        """0 (deuce) .. 12 (ace)."""
        return _INDEX[self] // 4

    @property
    def suit(self) -> int:
        """0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return _INDEX[self] % 4

    @property
    def index(self) -> int:
        """0..51 = rank * 4 + suit."""
        return _INDEX[self]

    @property
    def text(self) -> str:
        return _TEXT[self]

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]


def _make_cards() -> tuple[Card, ...]:
    cards = []
    for rank in range(13):
        for suit in range(4):
            card = Card(rank, suit)
            cards.append(card)
    return tuple(cards)


CARDS: tuple[Card, ...] = _make_cards()
_TEXT = {c: RANKS[i // 4] + SUITS[i % 4] for i, c in enumerate(CARDS)}
_BY_TEXT = {t: c for c, t in _TEXT.items()}
_BY_TEXT.update({t[0].lower() + t[1]: c for t, c in list(_BY_TEXT.items())})
_BY_TEXT.update({t[0] + t[1].upper(): c for t, c in list(_BY_TEXT.items())})
_BY_TEXT.update({"10" + t[1]: c for t, c in list(_BY_TEXT.items()) if t[0] in "Tt"})
_INDEX = {c: i for i, c in enumerate(CARDS)}

# Plain-int twins of the 52 Cards (same values, exact ints, interned here): the evaluators' fast input.
_PLAIN = {c: int(c) for c in CARDS}
CODES: tuple[int, ...] = tuple(_PLAIN[c] for c in CARDS)


def codes(cards: Iterable[Card]) -> tuple[int, ...]:
    """The cards as plain int codes, for the evaluators' fast path (`sum()` adds exact ints in C)."""
    return tuple(map(_PLAIN.__getitem__, cards))


def card_at(index: int) -> Card:
    return CARDS[index]


def parse_cards(text: str | Iterable[str], *, unique: bool = True) -> list[Card]:
    """'As Kd 7c' (spaces or commas optional, 'AsKd7c' works too) -> [As, Kd, 7c]."""
    if isinstance(text, str):
        compact = text.replace(",", " ").split()
        parts: list[str] = []
        for chunk in compact:
            chunk = chunk.replace("10", "T")   # "10h" is the ten of hearts
            if len(chunk) % 2:
                raise BadCardText(f"{chunk!r} is not a list of cards")
            parts.extend(chunk[i:i + 2] for i in range(0, len(chunk), 2))
    else:
        parts = list(text)
    cards = [Card.parse(p) for p in parts]
    if unique:
        check_unique(cards)
    return cards


def check_unique(cards: Sequence[Card]) -> None:
    if len(set(cards)) != len(cards):
        seen: set[Card] = set()
        dups = []
        for c in cards:
            if c in seen:
                dups.append(c)
            seen.add(c)
        raise DuplicateCards(f"the same card twice: {' '.join(map(repr, dups))}")


def format_cards(cards: Iterable[Card]) -> str:
    return " ".join(map(repr, cards))


class RandomSource(Protocol):
    """What a deck needs from a random source: `secrets.SystemRandom()` or a seeded `random.Random`."""

    def randbelow(self, n: int) -> int: ...


class SeededRandom(Protocol):
    """A `random.Random` (tests seed one): randrange, not randbelow."""

    def randrange(self, n: int, /) -> int: ...


class _SystemRandomBelow:
    """The production source: the OS CSPRNG through `secrets.randbelow`."""

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)


class _RandomBelow:
    """Adapts a `random.Random` (which has randrange, not randbelow) for seeded tests: its
    randbelow is the generator's own randrange, with no frame of ours in between."""

    __slots__ = ("randbelow",)

    def __init__(self, rng: SeededRandom) -> None:
        self.randbelow = rng.randrange


def random_source(rng: RandomSource | SeededRandom | None = None) -> RandomSource:
    """None -> the system CSPRNG; an object with randbelow or randrange -> that (tests seed one)."""
    if rng is None or isinstance(rng, secrets.SystemRandom):
        return _SystemRandomBelow()
    if hasattr(rng, "randbelow"):
        return cast(RandomSource, rng)   # the protocols overlap (an object may have both): randbelow wins
    return _RandomBelow(rng)


_FACTORIALS = [1]
for _i in range(1, 53):
    _FACTORIALS.append(_FACTORIALS[-1] * _i)


def shuffled(cards: Iterable[Card], rng: RandomSource) -> list[Card]:
    """Fisher-Yates: for i = n-1 .. 1 swap position i with a uniform j in [0, i].

    The j's are the mixed-radix digits of ONE uniform draw `rng.randbelow(n!)`: the digit for i is
    uniform in [0, i] and independent of the others, exactly as n-1 separate randbelow(i + 1)
    calls would be, at the cost of one call to the (possibly slow) source instead of n-1.
    """
    out = list(cards)
    n = len(out)
    if n < 2:
        return out
    r = rng.randbelow(_FACTORIALS[n] if n <= 52 else _factorial(n))
    # The same digits, taken from the big number a word-sized chunk at a time (9 big-number
    # divisions for a deck instead of 51); a sixth less time than one divmod per card.
    for chunk, steps in _digit_plan(n):
        x = r % chunk
        r //= chunk
        for i, radix in steps:
            j = x % radix
            x //= radix
            out[i], out[j] = out[j], out[i]
    return out


@cache
def _digit_plan(n: int) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Fisher-Yates' steps (i, i + 1) for i = n-1 .. 1, grouped so each group's radices multiply
    to less than 2**30 (one machine digit): (product, steps) per group."""
    plan: list[tuple[int, tuple[tuple[int, int], ...]]] = []
    i = n - 1
    while i > 0:
        product, steps = 1, []
        while i > 0 and product * (i + 1) < 1 << 30:
            product *= i + 1
            steps.append((i, i + 1))
            i -= 1
        plan.append((product, tuple(steps)))
    return tuple(plan)


def _factorial(n: int) -> int:
    f = 1
    for i in range(2, n + 1):
        f *= i
    return f


class Deck:
    """A shuffled 52-card deck dealt from the top. `Deck(rng)` shuffles; `Deck.stacked(cards)` does not.

    The default source is the OS CSPRNG (secrets); tests inject a seeded random.Random or stack it.
    """

    __slots__ = ("_cards", "_pos", "rng")

    def __init__(self, rng: RandomSource | SeededRandom | None = None, *,
                 cards: Sequence[Card] | None = None) -> None:
        self.rng = random_source(rng)
        if cards is None:
            self._cards = shuffled(CARDS, self.rng)
        else:
            self._cards = list(cards)
            check_unique(self._cards)
        self._pos = 0

    @classmethod
    def stacked(cls, cards: str | Sequence[Card], rng: RandomSource | SeededRandom | None = None) -> Deck:
        """A deck whose top cards are `cards` in order (the rest follow in a fixed order)."""
        top = parse_cards(cards) if isinstance(cards, str) else list(cards)
        check_unique(top)
        rest = [c for c in CARDS if c not in set(top)]
        return cls(rng, cards=top + rest)

    def deal(self, n: int = 1) -> list[Card]:
        pos = self._pos
        if n > len(self._cards) - pos:     # self.remaining, without a property call per deal
            raise IndexError(f"cannot deal {n} cards: {self.remaining} left in the stub")
        self._pos = pos + n
        return self._cards[pos:pos + n]

    def deal_one(self) -> Card:
        return self.deal(1)[0]

    @property
    def remaining(self) -> int:
        return len(self._cards) - self._pos

    def order(self) -> list[Card]:
        """The whole deck order (dealt and undealt): what a hand history stores."""
        return list(self._cards)

    def replace_stub(self, cards: Sequence[Card]) -> None:
        """Put a new stub (a reshuffle of muck and discards) in place of the exhausted one."""
        self._cards = self._cards[:self._pos] + list(cards)
