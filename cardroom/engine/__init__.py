"""The pure rules of poker: cards, deck, evaluation, one hand as a state machine, hand histories.

Imports only the standard library; randomness is injected (see cards.Deck).
"""

from cardroom.engine.cards import (
    CARDS, BadCardText, Card, CardError, Deck, DuplicateCards, codes, format_cards, parse_cards,
)
from cardroom.engine.evaluation import (
    ACE_TO_FIVE, DEUCE_TO_SEVEN, EIGHT_OR_BETTER, HIGH, OMAHA_EIGHT_OR_BETTER, OMAHA_HIGH, ORDERS,
    EvaluationError, UnknownOrder, WrongCardCount, best_five, describe, describe_hi_lo, evaluate, evaluator,
    omaha_hi_lo,
)

__all__ = [
    "CARDS", "BadCardText", "Card", "CardError", "Deck", "DuplicateCards", "codes", "format_cards", "parse_cards",
    # evaluation
    "HIGH", "ACE_TO_FIVE", "DEUCE_TO_SEVEN", "EIGHT_OR_BETTER", "OMAHA_HIGH", "OMAHA_EIGHT_OR_BETTER", "ORDERS",
    "EvaluationError", "UnknownOrder", "WrongCardCount",
    "evaluator", "evaluate", "describe", "describe_hi_lo", "best_five", "omaha_hi_lo",
]
