"""The holdings pre-pass: who holds which of the file's dealt cards, before anything is replayed."""

from __future__ import annotations

from cardroom.engine.cards import Card
from cardroom.engine.phh.errors import PHHRuleError
from cardroom.engine.phh.parse import Action, Setup, Slot


def resolve_cards(setup: Setup) -> None:
    """Follow who holds which dealt card through the file: tie each discard to a held card, and let
    a showdown reveal cards that were dealt as ?? (the replay puts them in the hand at the showdown:
    the file says what the hand is there, not which deal brought each card)."""
    held: list[list[Slot]] = [[] for _ in setup.players]
    live: dict[Card, int] = {}     # card -> action that put it in play (held or on the board)
    for a in setup.actions:
        if a.verb in ("dh", "db"):
            _dealt(a, held, live)
        elif a.verb == "f":
            for s in held[a.player]:
                if s.card is not None:
                    live.pop(s.card, None)
        elif a.verb == "sd":
            _discarded(a, held[a.player], live)
        elif a.verb == "sm" and a.cards:
            _shown(a, held[a.player], live)


def _dealt(a: Action, held: list[list[Slot]], live: dict[Card, int]) -> None:
    """A deal: its known cards come into play (each at most once); a hole deal is the player's."""
    for s in a.slots:
        if s.card is not None:
            if s.card in live:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): duplicate card {s.card!r} "
                                   f"(already dealt at action {live[s.card]})")
            live[s.card] = a.number
    if a.verb == "dh":
        held[a.player].extend(a.slots)


def _discarded(a: Action, hand: list[Slot], live: dict[Card, int]) -> None:
    """A draw's discards: each is tied to a held slot (a ?? discard to an unknown one if any, else
    to any), which leaves the hand and play; `a.chosen` keeps them for the replay."""
    chosen: list[Slot] = []
    for c in a.cards:
        pick = next((s for s in hand if s not in chosen and
                     (s.card == c if c is not None else s.card is None)), None)
        if pick is None and c is None:
            pick = next((s for s in hand if s not in chosen), None)
        if pick is None:
            what = repr(c) if c is not None else "an unknown card"
            raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.player + 1} discards {what}, "
                               "which is not in their hand")
        chosen.append(pick)
    for s in chosen:
        hand.remove(s)
        if s.card is not None:
            live.pop(s.card, None)
    a.chosen = chosen


def _shown(a: Action, hand: list[Slot], live: dict[Card, int]) -> None:
    """A showdown's cards: those not held as known cards are revealed in the places of the ?? the
    player holds (`a.reveals`), and come into play."""
    if len(a.cards) > len(hand):
        raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.player + 1} shows {len(a.cards)} "
                           f"cards but holds {len(hand)}")
    known = [c for c in a.cards if c is not None]
    if len(set(known)) != len(known):
        raise PHHRuleError(f"action {a.number} ({a.text!r}): the same card is shown twice")
    held_known = {s.card for s in hand if s.card is not None}
    unknown = sum(1 for s in hand if s.card is None)
    for c in known:
        if c in held_known:
            continue
        if len(a.reveals) == unknown:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.player + 1} shows {c!r}, "
                               "which is not in their hand")
        if c in live:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): duplicate card {c!r} "
                               f"(already dealt at action {live[c]})")
        a.reveals.append(c)
        live[c] = a.number
