"""The records a hand produces. Every change of a hand is one of these, returned by the call that
made it; the stream is the one source for views, dealer chat, history, persistence and replay.

NamedTuples: immutable, cheap to build (a hand makes dozens), and they pickle and compare.
`player` is the index into the hand's players (seat order), not the seat number.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Union

from cardroom.engine.cards import Card


class Posted(NamedTuple):
    player: int
    kind: str        # "ante", "small blind", "big blind", "blind", "live", "dead", "bring-in"
    amount: int
    all_in: bool = False


# A card field is None where a seat's view hides the card (views.redact), in the records a player is
# sent and in the histories stored from them.
class DealtHole(NamedTuple):
    player: int
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]     # per card: face up (stud) or down


class DealtBoard(NamedTuple):
    cards: tuple[Card, ...]
    street: str


class Burned(NamedTuple):
    card: Card | None


class RoundStarted(NamedTuple):
    # A field named like tuple.index (a method) is one mypy cannot square with tuple's; the records
    # are stored and sent by field name, so the name stays.
    index: int  # type: ignore[assignment]  # betting round, 0-based
    street: str
    pot: int         # chips in the middle when the round starts


class Folded(NamedTuple):
    player: int


class Checked(NamedTuple):
    player: int


class Called(NamedTuple):
    player: int
    amount: int      # chips added
    all_in: bool = False


class BetTo(NamedTuple):
    player: int
    kind: str        # "bet", "raise", "complete", "bring-in"
    to: int          # the player's total for the round after this action
    added: int
    all_in: bool = False


class ProtectedAllIn(NamedTuple):
    """A timed-out player stays in for the pots built so far and is not asked again."""
    player: int
    contributed: int


class DrawStarted(NamedTuple):
    index: int  # type: ignore[assignment]  # 0-based draw number (as RoundStarted.index)


class Drew(NamedTuple):
    player: int
    discards: tuple[Card | None, ...]
    cards: tuple[Card | None, ...]  # dealt now (a deferred fifth card comes in a later Drew with no discards)
    deferred: int = 0        # cards still owed (the fifth, dealt after everyone else)


class Reshuffled(NamedTuple):
    count: int  # type: ignore[assignment]  # cards in the new stub (after any re-burn); see RoundStarted
    burned: bool


class UncalledReturned(NamedTuple):
    player: int
    amount: int


class Shown(NamedTuple):
    player: int
    cards: tuple[Card, ...]
    high: int
    low: int | None


class Mucked(NamedTuple):
    player: int
    # The hand mucked: the engine leaves it out (nobody at the table sees a mucked hand); a hand
    # history fills it in, as seed 001 puts it there (views.history_events).
    cards: tuple[Card | None, ...] = ()


class Raked(NamedTuple):
    amount: int


class Awarded(NamedTuple):
    player: int
    amount: int
    pot: int         # 0 = main pot, 1.. side pots
    half: str        # "" whole pot, "high", "low"


class HandEnded(NamedTuple):
    stacks: tuple[int, ...]
    rake: int


# Any one of them (Union, not |: a module-level alias is evaluated at run time).
Event = Union[Posted, DealtHole, DealtBoard, Burned, RoundStarted, Folded, Checked, Called, BetTo, ProtectedAllIn,
              DrawStarted, Drew, Reshuffled, UncalledReturned, Shown, Mucked, Raked, Awarded, HandEnded]

# ---------------------------------------------------------------------------- JSON, for storage

EVENT_TYPES = {cls.__name__: cls for cls in (
    Posted, DealtHole, DealtBoard, Burned, RoundStarted, Folded, Checked, Called, BetTo,
    ProtectedAllIn, DrawStarted, Drew, Reshuffled, UncalledReturned, Shown, Mucked, Raked,
    Awarded, HandEnded)}


def _plain(x: object) -> object:
    if isinstance(x, Card):
        return repr(x)
    if isinstance(x, tuple):
        return [_plain(v) for v in x]
    return x


def to_json_list(events: Iterable[Event]) -> list[list[Any]]:
    """Events as JSON-ready lists: ["Called", 2, 400, false]; cards as text ("As")."""
    return [[type(e).__name__, *(_plain(v) for v in e)] for e in events]


def from_json_list(rows: Iterable[Sequence[Any]]) -> list[Event]:
    """The inverse of to_json_list (card fields come back as Card)."""
    out: list[Event] = []
    for name, *values in rows:
        cls = EVENT_TYPES[name]
        fields: list[Any] = []   # JSON's values, made records' fields below
        for f, v in zip(cls._fields, values):
            if f in ("cards", "discards"):
                v = tuple(None if c is None else Card.parse(c) for c in v)
            elif f == "card":
                v = None if v is None else Card.parse(v)
            elif isinstance(v, list):
                v = tuple(v)
            fields.append(v)
        out.append(cls(*fields))
    return out
