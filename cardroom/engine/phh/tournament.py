"""A tournament hand's PHH fields (tournament.history.TournamentHand), both ways.

The standard's own fields where it has them: `event` (the tournament's name), `level` (from 1) and
`table` (the table's number in the tournament); its `currency` is XXX, ISO 4217's "no currency":
tournament chips are not money, and the amounts are whole chips (`_cardroom_cents_per_unit = 1`).
The rest, which the standard lacks, in the card room's own fields:

    _cardroom_tournament = 42                 the tournament's number
    _cardroom_level_stakes = [25, 50]         the level's blinds (limit and stud: bets), in chips
    _cardroom_buy_in = 10                     buy-in and fee, in units of its currency: ISO 4217,
    _cardroom_fee = 1                           XXX for play money
    _cardroom_buy_in_currency = "XXX"
    _cardroom_places = [0, 7, 0]              the places this hand decided, a player's or 0, in the
    _cardroom_prizes = [0, 0, 0]                file's player order, and their prizes (that currency)

`tournament_of(text)` reads them back (None for a cash-game hand).
"""

from __future__ import annotations

from typing import Any, Callable

from cardroom.engine.phh.errors import PHHFormatError
from cardroom.engine.phh.fields import NO_CURRENCY, PREFIX, to_cents, to_units
from cardroom.engine.phh.parse import chips_per_unit, load_hand
from cardroom.engine.pokerstars import CURRENCIES, PLAY
from cardroom.engine.tournament.history import Finish, TournamentHand

_MONEY_UNIT = 100            # cents to a unit of the buy-in's currency (play money's too)


def _iso(currency: str) -> str:
    if currency == PLAY:
        return NO_CURRENCY
    if currency not in CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}: one of {', '.join([*CURRENCIES, PLAY])}")
    return currency


def tournament_fields(t: TournamentHand, seats: list[int],
                      amt: Callable[[int], int | float]) -> tuple[list[tuple[str, Any]], list[tuple[str, Any]]]:
    """(standard fields, `_cardroom_` fields without the prefix) for a hand whose PHH players sit
    in `seats` (the file's order); `amt` writes chips in the file's units."""
    standard: list[tuple[str, Any]] = [("event", t.name)] if t.name else []
    standard += [("level", t.level), ("table", t.table)]
    by_seat = {f.seat: f for f in t.finishes}
    unknown = sorted(set(by_seat) - set(seats))
    if unknown:
        raise ValueError(f"places for seats {unknown}, where nobody played this hand")
    user: list[tuple[str, Any]] = [
        ("tournament", t.tournament),
        ("level_stakes", [amt(x) for x in t.stakes]),
        ("buy_in", to_units(t.buy_in, _MONEY_UNIT)), ("fee", to_units(t.fee, _MONEY_UNIT)),
        ("buy_in_currency", _iso(t.currency)),
    ]
    if t.finishes:
        user += [("places", [by_seat[s].place if s in by_seat else 0 for s in seats]),
                 ("prizes", [to_units(by_seat[s].prize, _MONEY_UNIT) if s in by_seat else 0 for s in seats])]
    return standard, user


def _field(data: dict[str, Any], key: str, what: str) -> int:
    value = data.get(key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PHHFormatError(f"{key} must be {what}, not {value!r}")
    return value


def tournament_of(phh: str | bytes | dict[str, Any]) -> TournamentHand | None:
    """The TournamentHand a PHH file (text, or the parsed dict) carries; None for a cash-game hand.
    Raises PHHFormatError for tournament fields it cannot read."""
    data = load_hand(phh)
    if PREFIX + "tournament" not in data:
        return None
    cpu = chips_per_unit(data, [])       # the file has our fields: their unit, never a guess
    number = _field(data, PREFIX + "tournament", "a tournament's number")
    level = _field(data, "level", "the level's number")
    table = _field(data, "table", "the table's number in the tournament")
    name = data.get("event", "")
    if not isinstance(name, str):
        raise PHHFormatError(f"event must be text, not {name!r}")
    stakes = data.get(PREFIX + "level_stakes")
    if not isinstance(stakes, list) or len(stakes) != 2:
        raise PHHFormatError(f"{PREFIX}level_stakes must be [small, big], not {stakes!r}")
    code = data.get(PREFIX + "buy_in_currency")
    currency = PLAY if code == NO_CURRENCY else code
    if currency != PLAY and currency not in CURRENCIES:
        raise PHHFormatError(f"{PREFIX}buy_in_currency must be XXX or one of {', '.join(CURRENCIES)}, "
                             f"not {code!r}")
    buy_in = to_cents(data.get(PREFIX + "buy_in"), _MONEY_UNIT, PREFIX + "buy_in")
    fee = to_cents(data.get(PREFIX + "fee"), _MONEY_UNIT, PREFIX + "fee")
    places, prizes, seats = data.get(PREFIX + "places"), data.get(PREFIX + "prizes"), data.get("seats")
    rows = []
    if places is not None:
        if not (isinstance(places, list) and isinstance(prizes, list) and isinstance(seats, list)
                and len(places) == len(prizes) == len(seats)):
            raise PHHFormatError(f"{PREFIX}places and {PREFIX}prizes are one per player, with the seats")
        for seat, place, prize in zip(seats, places, prizes):
            if isinstance(place, bool) or not isinstance(place, int) or place < 0:
                raise PHHFormatError(f"{PREFIX}places holds places (or 0), not {place!r}")
            if place:
                rows.append((seat, place, to_cents(prize, _MONEY_UNIT, PREFIX + "prizes")))
    try:
        small, big = (to_cents(x, cpu, PREFIX + "level_stakes") for x in stakes)
        return TournamentHand(number, table, level, (small, big),
                              buy_in, fee, currency, name, tuple(Finish(*row) for row in rows))
    except ValueError as e:
        raise PHHFormatError(f"tournament fields: {e}") from None
