"""What a tournament says, as pure functions of the director's records: the line its tables' chat
carries, the page a player gets once his money is in, the room's word of the winner. Names and
amounts come in already known (money is cents, chips are chips)."""

from __future__ import annotations

from cardroom.engine.tournament import (
    BreakStarted, Cancelled, HandForHand, LateRegistrationClosed, LevelStarted, Paused, Placed, Refunded,
    Resumed, Shared,
)
from cardroom.room.narration import money


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def table_line(r) -> str:
    """The tables' chat line for a record ("" for none)."""
    if isinstance(r, LevelStarted):
        return f"Level {r.number}: {r.level.describe()}"
    if isinstance(r, BreakStarted):
        return f"Break: {r.minutes} minutes; level {r.before_level} comes after it"
    if isinstance(r, HandForHand):
        return ("Hand for hand: every table waits for the others' hands to end" if r.on
                else "The bubble has burst: the tables deal on their own again")
    if isinstance(r, Paused):
        return "The tournament is paused: hands in progress are played out, the clock has stopped"
    if isinstance(r, Resumed):
        return "The tournament resumes"
    if isinstance(r, LateRegistrationClosed):
        return f"Registration is closed: {r.entrants} entries, prize pool {money(r.pool)}, {r.places_paid} places paid"
    if isinstance(r, Cancelled):
        return f"The tournament is cancelled: {r.reason}"
    return ""


def page(name: str, r) -> str:
    """What the record's player is paged once the store has its money ("" for none)."""
    if isinstance(r, Placed):
        won = f" and won {money(r.prize)}" if r.prize else ": no prize"
        shared = f" (sharing the prizes of places {ordinal(r.shared[0])} to {ordinal(r.shared[-1])})" if r.shared else ""
        return f"{name}: you finished {ordinal(r.place)} of {r.entrants}{won}{shared}"
    if isinstance(r, Shared):
        return f"{name} was cancelled: your share of the prize pool by chips, {money(r.amount)}, is in your balance"
    if isinstance(r, Refunded):
        return f"{name} was cancelled: your buy-in and fee, {money(r.amount)}, are back in your balance"
    return ""


def result(name: str, number: int, placed: list[Placed], names) -> str:
    """The room's word of the end: the winner and the places paid (`names`: player -> name)."""
    paid = sorted((p for p in placed if p.prize), key=lambda p: p.place)
    places = ", ".join(f"{ordinal(p.place)} {names(p.player)} {money(p.prize)}" for p in paid)
    winner = min(placed, key=lambda p: p.place) if placed else None
    who = names(winner.player) if winner else "nobody"
    return f"{name} #{number}: {who} wins!" + (f" Places paid: {places}" if places else "")


__all__ = ["ordinal", "page", "result", "table_line"]
