"""The pure rules of poker: cards, deck, evaluation, one hand as a state machine, hand histories.

Imports only the standard library; randomness is injected (see cards.Deck).
"""

from cardroom.engine.cards import (
    CARDS, BadCardText, Card, CardError, Deck, DuplicateCards, format_cards, parse_cards,
)

__all__ = [
    "CARDS", "BadCardText", "Card", "CardError", "Deck", "DuplicateCards", "format_cards", "parse_cards",
]
