"""A tournament's summary for one player, as PokerStars writes its tournament summaries (the
file a player gets beside his hands; trackers import it for his buy-in, place and prize).

    text = tournament_summary(result, viewer="alice")      # result: tournament.history.TournamentResult

A pure function of the result; no I/O. The forms are PokerStars' (fpdb's regression summaries,
play money and real; tests/engine/test_pokerstars_summary.py holds fpdb's grammar of them)::

    PokerStars Tournament #42, No Limit Hold'em
    Sit & Go Hold'em 9                         the tournament's name, where PokerStars names its kind
    Buy-In: 10/1                               real money: "Buy-In: $10.00/$1.00 USD"; a freeroll: "Freeroll"
    9 players
    Total Prize Pool: 90                       real money: "$90.00 USD"
    Tournament started 2026/11/29 22:00:00 ET
    Tournament finished 2026/11/29 23:12:40 ET   once it is over
      1: alice (cardroom), 45 (50%)
      2: bob (cardroom), 27 (30%)
      3: carol (cardroom), 18 (20%)
      4: dave (cardroom),
    ...
    You finished in 3rd place.

- The game is "No Limit Hold'em", "Pot Limit Omaha Hi/Lo", "Limit Razz": the hands' words
  (pokerstars.game_name, limit_name) with the structure first, as the summaries have it.
- Money: play money in play chips as the room's lobby shows them (10, 10.50), real money with its
  symbol and always the cents ($10.00), as PokerStars' summaries of each. The prize pool is every
  entry's buy-in plus what the house added; added money has its own line, which trackers read
  only in PokerStars' words ("$100.00 USD added to the prize pool by PokerStars").
- "N players" counts players; a re-entry is another place in the list ("bob [2]") and adds to the
  prize pool, and the viewer's own are told at the end ("You made 1 re-entries for a total of
  $11.00.", PokerStars' words).
- Places: those decided, with their prizes and share of the pool ("(60%)", "(7.77%)", at most three
  decimals); players not placed yet come first, numbered from 1 in the result's order, "still
  playing" while they have chips; before the end a blank line follows the start, as PokerStars
  writes a summary of a tournament still running.
- "You finished in 3rd place." (his best entry's place), once his place is decided. PokerStars'
  later summaries add "(eliminated at hand #N)" there, which trackers do not read.
- Where PokerStars writes each player's country the summary writes the result's `where` (the card
  room knows no countries).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Callable

from cardroom.engine.pokerstars import CURRENCIES, PLAY, eastern_time, game_name, limit_name, money_formatter, ordinal
from cardroom.engine.tournament.history import TournamentResult
from cardroom.engine.variants import find_variant

__all__ = ["tournament_summary"]


def _money(currency: str) -> Callable[[int], str]:
    """cents -> the summary's amounts: play 10 / 10.50; real $10.00."""
    if currency == PLAY:
        return money_formatter(PLAY)
    if currency not in CURRENCIES:
        money_formatter(currency)          # its error names the currencies
    symbol = CURRENCIES[currency]
    return lambda c: f"{symbol}{c // 100}.{c % 100:02d}"


def _percent(prize: int, pool: int) -> str:
    share = (Decimal(prize) * 100 / Decimal(pool)).quantize(Decimal("0.001"), rounding=ROUND_HALF_UP)
    text = f"{share:f}"
    return (text.rstrip("0").rstrip(".") if "." in text else text) + "%"


def tournament_summary(result: TournamentResult, viewer: str) -> str:
    """PokerStars' summary of `result` for the player named `viewer` (lines joined by "\\n",
    final newline)."""
    if not any(e.name == viewer for e in result.entrants):
        raise ValueError(f"{viewer!r} did not play tournament #{result.tournament}")
    money = _money(result.currency)
    iso = f" {result.currency}" if result.currency in CURRENCIES else ""
    variant = find_variant(result.game)
    pool = result.pool
    lines = [f"PokerStars Tournament #{result.tournament}, {limit_name(variant, result.structure_kind)} "
             f"{game_name(variant)}"]
    name = "".join(ch for ch in result.name if ch.isprintable()).strip()
    if name:
        lines.append(name)
    if result.buy_in or result.fee:
        lines.append(f"Buy-In: {money(result.buy_in)}/{money(result.fee)}{iso}")
    else:
        lines.append("Freeroll")
    lines.append(f"{result.players} players")
    if result.added:
        # In PokerStars' words: a tracker reads this line only so (and no summary without it).
        lines.append(f"{money(result.added)}{iso} added to the prize pool by PokerStars")
    lines.append(f"Total Prize Pool: {money(pool)}{iso}")
    lines.append(f"Tournament started {eastern_time(result.started)}")
    if result.finished is not None:
        lines.append(f"Tournament finished {eastern_time(result.finished)}")
    else:
        lines.append("")
    unplaced = [e for e in result.entrants if e.place is None]
    rows = [(i, e) for i, e in enumerate(unplaced, 1)]
    rows += sorted(((e.place, e) for e in result.entrants if e.place is not None), key=lambda r: r[0])
    for number, e in rows:
        who = e.name + (f" [{e.entry}]" if e.entry > 1 else "")
        tail = ""
        if e.playing:
            tail = " still playing"
        elif e.prize:
            tail = f" {money(e.prize)} ({_percent(e.prize, pool)})"
        lines.append(f"  {number}: {who} ({result.where}),{tail}")
    lines.append("")
    mine = [e for e in result.entrants if e.name == viewer]
    places = [e.place for e in mine if e.place is not None]
    if places:
        lines.append(f"You finished in {ordinal(min(places))} place.")
    if len(mine) > 1:
        again = len(mine) - 1
        lines.append(f"You made {again} re-entries for a total of {money(again * (result.buy_in + result.fee))}{iso}.")
    return "\n".join(lines) + "\n"
