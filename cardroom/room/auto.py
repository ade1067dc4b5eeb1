"""Auto actions (seed 000's Auto Buttons and seed 001's Fold in Turn), as the pages word them.

Chosen ahead, used for one decision, then back to Ask Me. Pure: (auto, Legal) -> (kind, amount).
"""

from __future__ import annotations

from cardroom.engine.legality import Legal


def auto_decision(auto: str, legal: Legal) -> tuple[str, int]:
    """The action `auto` takes when it is the player's turn in a betting round."""
    if legal.bring_in:
        return "bring-in", 0   # the lowest up card must bring in whatever was chosen ahead
    free = legal.check
    can_raise = legal.min_to > 0
    if auto == "check/fold":
        # "check if there is no action and fold if there has been a bet"
        return ("check", 0) if free else ("fold", 0)
    if auto == "check/call":
        # "Check if there is no action and Call if there is action"
        if free:
            return "check", 0
        return ("call", 0) if legal.can_call else ("fold", 0)
    if auto == "bet/call":
        # "initiate action with a Bet if there is no action ... or Call all action"
        if free and can_raise:
            return "bet", legal.min_to
        if free:
            return "check", 0
        return ("call", 0) if legal.can_call else ("fold", 0)
    if auto == "raise":
        # "Bet if there is no action ... Raise It if there is action" (a capped round: call)
        if can_raise:
            return "bet", legal.min_to
        if free:
            return "check", 0
        return ("call", 0) if legal.can_call else ("fold", 0)
    if auto == "fold":
        # Fold in Turn: "fold your hand the next time the bet comes to you"
        return "fold", 0
    raise ValueError(f"unknown auto action {auto!r}")
