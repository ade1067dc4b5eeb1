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
    line = _LINES.get(type(event))
    return line(event, names, variant, money) if line is not None else None


def _all_in(event) -> str:
    return " and is all-in" if event.all_in else ""


def _posted(e: ev.Posted, n: list[str], variant, m) -> str:
    what = _POSTS.get(e.kind, f"the {e.kind}")
    return f"{n[e.player]} posts {what} of {m(e.amount)}{_all_in(e)}"


def _dealt_hole(e: ev.DealtHole, n: list[str], variant, m) -> str | None:
    ups = [c for c, u in zip(e.cards, e.up) if u]
    # "shows" is kept for the showdown: up cards dealt are said as dealt.
    return f"{n[e.player]} is dealt {format_cards(ups)} face up" if ups else None


_BETS = {"bet": "bets", "raise": "raises to", "complete": "completes to", "bring-in": "brings in for"}


def _drew(e: ev.Drew, n: list[str], variant, m) -> str | None:
    if not e.discards and not e.cards:
        return f"{n[e.player]} stands pat"
    if not e.discards:
        return None   # a deferred fifth card: the count was already announced
    return f"{n[e.player]} draws {len(e.discards)}"


def _awarded(e: ev.Awarded, n: list[str], variant, m) -> str:
    which = "the pot" if e.pot == 0 else f"side pot {e.pot}"
    half = {"high": " (high)", "low": " (low)"}.get(e.half, "")
    return f"{n[e.player]} wins {m(e.amount)} from {which}{half}"


# The events the dealer speaks of (NamedTuples, matched by their exact type), and his line for each.
_LINES = {
    ev.Posted: _posted,
    ev.DealtBoard: lambda e, n, v, m: f"Dealing the {e.street}: {format_cards(e.cards)}",
    ev.DealtHole: _dealt_hole,
    ev.Folded: lambda e, n, v, m: f"{n[e.player]} folds",
    ev.Checked: lambda e, n, v, m: f"{n[e.player]} checks",
    ev.Called: lambda e, n, v, m: f"{n[e.player]} calls {m(e.amount)}{_all_in(e)}",
    ev.BetTo: lambda e, n, v, m: f"{n[e.player]} {_BETS[e.kind]} {m(e.to)}{_all_in(e)}",
    ev.ProtectedAllIn: lambda e, n, v, m: f"{n[e.player]} is all-in (protected: timed out)",
    ev.Drew: _drew,
    ev.Reshuffled: lambda e, n, v, m: "The dealer reshuffles the muck to finish the draw",
    ev.UncalledReturned: lambda e, n, v, m: f"Uncalled bet of {m(e.amount)} returned to {n[e.player]}",
    ev.Shown: lambda e, n, v, m: f"{n[e.player]} shows {format_cards(e.cards)}: {hand_words(e, v)}",
    ev.Mucked: lambda e, n, v, m: f"{n[e.player]} mucks",
    ev.Awarded: _awarded,
    ev.Raked: lambda e, n, v, m: f"Rake {m(e.amount)}",
}


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
