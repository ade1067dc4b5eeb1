"""The dealer's words: one line of dealer chat per public event of a hand.

Only what a railbird may know is narrated (events are redacted for nobody first), and a pair is
always declared in lowball ("Cards speak"; seed 002: a hand containing a pair must be declared).
"""

from __future__ import annotations

import re

from cardroom.engine import events as ev
from cardroom.engine.cards import format_cards
from cardroom.engine.evaluation import describe
from cardroom.engine.money import format_cents

# The kinds of Posted that are not a blind's name: a newcomer's (or a returning player's) big
# blind, live; the smaller blinds he missed, dead (the small blind, or of three the small, the
# middle or both: one amount); the middle of three blinds (seed 002).
_POSTS = {"ante": "an ante", "live": "a live big blind", "dead": "dead blinds",
          "blind": "the middle blind"}


def money(cents: int) -> str:
    return format_cents(cents)


def narrate(event, names: list[str], variant, money=money) -> str | None:
    """The dealer's line for `event`, or None for events the dealer keeps quiet about. `money`
    says an amount (the table's: cents, or a tournament's chips)."""
    n = names
    if isinstance(event, ev.Posted):
        what = _POSTS.get(event.kind, f"the {event.kind}")
        return f"{n[event.player]} posts {what} of {money(event.amount)}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, ev.DealtBoard):
        return f"Dealing the {event.street}: {format_cards(event.cards)}"
    if isinstance(event, ev.DealtHole):
        ups = [c for c, u in zip(event.cards, event.up) if u]
        # "shows" is kept for the showdown: up cards dealt are said as dealt.
        return f"{n[event.player]} is dealt {format_cards(ups)} face up" if ups else None
    if isinstance(event, ev.Folded):
        return f"{n[event.player]} folds"
    if isinstance(event, ev.Checked):
        return f"{n[event.player]} checks"
    if isinstance(event, ev.Called):
        return f"{n[event.player]} calls {money(event.amount)}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, ev.BetTo):
        verb = {"bet": "bets", "raise": "raises to", "complete": "completes to",
                "bring-in": "brings in for"}[event.kind]
        return f"{n[event.player]} {verb} {money(event.to)}" + (" and is all-in" if event.all_in else "")
    if isinstance(event, ev.ProtectedAllIn):
        return f"{n[event.player]} is all-in (protected: timed out)"
    if isinstance(event, ev.Drew):
        if not event.discards and not event.cards:
            return f"{n[event.player]} stands pat"
        if not event.discards:
            return None   # a deferred fifth card: the count was already announced
        k = len(event.discards)
        return f"{n[event.player]} draws {k}"
    if isinstance(event, ev.Reshuffled):
        return "The dealer reshuffles the muck to finish the draw"
    if isinstance(event, ev.UncalledReturned):
        return f"Uncalled bet of {money(event.amount)} returned to {n[event.player]}"
    if isinstance(event, ev.Shown):
        return f"{n[event.player]} shows {format_cards(event.cards)}: {hand_words(event, variant)}"
    if isinstance(event, ev.Mucked):
        return f"{n[event.player]} mucks"
    if isinstance(event, ev.Awarded):
        which = "the pot" if event.pot == 0 else f"side pot {event.pot}"
        half = {"high": " (high)", "low": " (low)"}.get(event.half, "")
        return f"{n[event.player]} wins {money(event.amount)} from {which}{half}"
    if isinstance(event, ev.Raked):
        return f"Rake {money(event.amount)}"
    return None


def hand_words(shown: ev.Shown, variant) -> str:
    parts = []
    if shown.high is not None and variant.high:
        parts.append(describe(variant.high, shown.high))
    if variant.low:
        parts.append(describe(variant.low, shown.low) if shown.low is not None else "no low")
    return "; ".join(parts)


def dealer_answer(hand, seated: list[str], text: str) -> str:
    """What the dealer says to a question in dealer chat: how many cards players drew, while the
    draw is public (until the first action after it), naming the seated players asked about."""
    low = text.lower()
    if "draw" not in low and "drew" not in low:
        return "I answer questions about the draw; type: how many did NAME draw?"
    if not hand or not hand.draw_counts:
        return "I can't answer that now (only until the first action after the draw)"
    drew = {hand.players[p].name: k for p, k in hand.draw_counts.items()}
    # The seated players the question names, as whole words ("ann" is not in "joanne").
    asked = [name for name in seated if re.search(rf"(?<!\w){re.escape(name.lower())}(?!\w)", low)]
    in_hand = {pl.name for p, pl in enumerate(hand.players) if not hand.folded[p]}
    parts = [f"{n} drew {drew[n]}" if n in drew else
             f"{n} has not drawn yet" if n in in_hand else f"{n} is not in this hand"
             for n in asked] or [f"{n} drew {k}" for n, k in drew.items()]
    return "; ".join(parts)
