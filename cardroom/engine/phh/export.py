"""A hand (finished or running) as PHH TOML text: the fields, the actions, our own `_cardroom_` fields."""

from __future__ import annotations

import datetime as _dt
import math
import re
from typing import Any, Callable, Iterable

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, POT, SPREAD
from cardroom.engine.cards import Card
from cardroom.engine.hand import Hand, ante_posters, blind_posters
from cardroom.engine.phh.fields import (
    NO_CURRENCY,
    PREFIX,
    STANDARD_CODES,
    to_units,
    game_name,
    variant_code,
)
from cardroom.engine.phh.tournament import tournament_fields
from cardroom.engine.pokerstars import CURRENCIES
from cardroom.engine.tournament.history import TournamentHand
from cardroom.engine.views import history_events


# ---------------------------------------------------------------------------- TOML writing
def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        elif 0xD800 <= o <= 0xDFFF:
            out.append("\uFFFD")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, _dt.datetime):
        return v.isoformat()
    if isinstance(v, (_dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to PHH")


_KEY = re.compile(r"^[A-Za-z0-9_-]+$")
# Chips (cents) in the file's units (fields.to_units, at the file's chips per unit).
_Amount = Callable[[int], int | float]


def _comment(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable()).strip()


# ---------------------------------------------------------------------------- export
def _cards(cards: Iterable[Card | None]) -> str:
    """Cards as PHH writes them; a card the reader may not see (None) is ??."""
    return "".join("??" if c is None else repr(c) for c in cards)


def player_order(hand: Hand) -> list[int]:
    """The hand's player indices in PHH order: from the left of the button round to the button
    (stud: seat order). `player_order(hand)[i]` is the engine index of PHH player p(i+1)."""
    n = hand.n
    if hand.variant.bring_in:
        return list(range(n))
    return [(hand.button + 1 + i) % n for i in range(n)]


def _when_fields(when: _dt.datetime) -> list[tuple[str, Any]]:
    """The spec's time fields for the hand's start: a local time, its IANA zone, the date. Written
    in UTC (an aware time is converted; a naive one is taken to be UTC already)."""
    if when.tzinfo is not None:
        when = when.astimezone(_dt.UTC)
    return [("time", when.time().replace(microsecond=0, tzinfo=None)), ("time_zone", "UTC"),
            ("day", when.day), ("month", when.month), ("year", when.year)]


def _currency_fields(currency: str) -> list[tuple[str, Any]]:
    """The spec's `currency` (ISO 4217; play chips are XXX, ISO's "no currency") and its symbol."""
    if not (isinstance(currency, str) and len(currency) == 3 and currency.isascii() and currency.isupper()):
        raise ValueError(f"currency must be a three-letter ISO 4217 code like \"USD\", not {currency!r}")
    symbol = CURRENCIES.get(currency)
    return [("currency", currency)] + ([("currency_symbol", symbol)] if symbol else [])


def export_hand(hand: Hand, /, *, viewer: int | None = None, cents_per_unit: int | None = None,
                comments: bool = True, when: _dt.datetime | None = None, currency: str | None = None,
                tournament: TournamentHand | None = None, **meta: Any) -> str:
    """The hand (finished or still running) as PHH TOML text.

    viewer: None writes every card (the dealer's history); a player index writes his history, from
    what he may know of the hand (views.history_events): others' hidden cards as ??, the hands at
    the showdown as seed 001 has them (a draw game's hand mucked there, whose deal and draws stay
    ??, in the muck's comment).
    cents_per_unit: 100 (the default) writes dollars, 1 integer cents. when: the hand's start (the
    spec's time, time_zone, day, month, year, in UTC). currency: an ISO 4217 code (NO_CURRENCY,
    XXX, for play chips). tournament: a tournament hand's tournament.history.TournamentHand, written
    as phh/tournament.py says (amounts in whole chips by default, currency XXX). meta: optional PHH
    fields (table, hand, seat_count, event, ...) or user fields (names starting with '_'); `players`
    and `seats` default to the hand's own.
    """
    cents_per_unit, currency = _unit(cents_per_unit, currency, tournament)
    v, s = hand.variant, hand.structure
    code = variant_code(v, s)
    order = player_order(hand)

    def amt(c: int) -> int | float:
        return to_units(c, cents_per_unit)

    required = _game_fields(hand, order, amt)
    lines = _ActionLines(hand, order, amt, comments).write(
        hand.events if viewer is None else history_events(hand.events, viewer))
    # The unit, always: a reader must not guess whether 2 is two dollars or two indivisible chips.
    user: list[tuple[str, Any]] = [("cents_per_unit", cents_per_unit), ("game", game_name(v, s))]
    optional: list[tuple[str, Any]] = []
    if tournament is not None:
        standard, own = tournament_fields(tournament, [hand.players[p].seat for p in order], amt)
        optional += standard
        user += own
    if when is not None:
        optional += _when_fields(when)
    optional += _result_fields(hand, order, amt)
    if currency is not None:
        optional += _currency_fields(currency)
    user += _rule_fields(hand, order, amt)
    optional = _with_meta(required, optional, meta)

    title = meta.get("table")
    out = [f"# cardroom hand history{(' - ' + _comment(str(title))) if title is not None else ''}"]
    if code not in STANDARD_CODES:
        # Said before anything else: a reader that knows only the standard's games stops here.
        out.append(f"# {code} ({game_name(v, s)}) is not one of the PHH standard's variants: cardroom's "
                   "own code, on the standard's pattern")
    out += [f"{key} = {_toml_value(value)}" for key, value in required]
    out += ["actions = [", *lines, "]"]
    out += [f"{key} = {_toml_value(value)}" for key, value in optional]
    out.append("# cardroom's own fields, which the standard lacks: the unit, the game, "
               + ("the tournament, " if tournament is not None else "")
               + "the table's rules, the rake taken (the winnings and finishing stacks are after it)")
    out += [f"{PREFIX}{key} = {_toml_value(value)}" for key, value in user]
    return "\n".join(out) + "\n"


def _unit(cents_per_unit: int | None, currency: str | None,
          tournament: TournamentHand | None) -> tuple[int, str | None]:
    """(cents_per_unit, currency) as written: a tournament's chips are no currency, in whole chips
    unless the caller says otherwise; a cash hand's unit is the dollar by default."""
    if tournament is not None:
        if currency not in (None, NO_CURRENCY):
            raise ValueError(f"a tournament hand's chips are no currency, not {currency!r} "
                             "(its buy-in's currency is the tournament's)")
        currency = NO_CURRENCY
    if cents_per_unit is None:
        cents_per_unit = 1 if tournament is not None else 100
    if not isinstance(cents_per_unit, int) or isinstance(cents_per_unit, bool) or cents_per_unit <= 0:
        raise ValueError("cents_per_unit must be a positive integer")
    return cents_per_unit, currency


def _game_fields(hand: Hand, order: list[int], amt: _Amount) -> list[tuple[str, Any]]:
    """The required fields, up to the starting stacks: the game, its forced bets and its stakes."""
    v, s, n = hand.variant, hand.structure, hand.n
    pos = {p: i for i, p in enumerate(order)}          # engine index -> PHH index (0-based)
    antes: list[int | float] = [0] * n
    for p in ante_posters(n, hand.button, s.blinds, s.ante_style):
        antes[pos[p]] = amt(s.ante)
    if n == 2:
        antes.reverse()       # reverse-assigned heads-up, as the blinds are (the spec)
    fields: list[tuple[str, Any]] = [("variant", variant_code(v, s)), ("antes", antes)]
    if v.bring_in:
        fields.append(("bring_in", amt(s.bring_in)))
    else:
        blinds = list(blind_posters(n, hand.button, s.blinds)[1])   # heads-up: the two largest
        fields.append(("blinds_or_straddles", [amt(b) for b in blinds] + [0] * (n - len(blinds))))
    if s.kind in (FIXED, SPREAD):
        fields += [("small_bet", amt(s.small_bet)), ("big_bet", amt(s.big_bet))]
    else:
        fields.append(("min_bet", amt(s.big_blind)))
    fields.append(("starting_stacks", [amt(hand.start_stacks[p]) for p in order]))
    return fields


def _result_fields(hand: Hand, order: list[int], amt: _Amount) -> list[tuple[str, Any]]:
    """Who played (names, seats) and where they ended: the stacks now, and once the hand is over
    what each won (after the rake, as the spec asks)."""
    fields: list[tuple[str, Any]] = [
        ("players", [hand.players[p].name for p in order]),
        ("seats", [hand.players[p].seat for p in order]),
        ("finishing_stacks", [amt(hand.stacks[p]) for p in order])]
    if hand.over:
        won = [0] * hand.n
        for e in hand.events:
            if isinstance(e, ev.Awarded):
                won[e.player] += e.amount
        fields.append(("winnings", [amt(won[p]) for p in order]))
    return fields


def _rule_fields(hand: Hand, order: list[int], amt: _Amount) -> list[tuple[str, Any]]:
    """Our own fields for what the standard cannot say: posts, the blinds' names, the stakes of pot
    and no limit, the cap, the house rules and the rake taken."""
    s, r = hand.structure, hand.rules
    user: list[tuple[str, Any]] = []
    live = [hand.players[p].live_post for p in order]
    dead = [hand.players[p].dead_post for p in order]
    if any(live):
        user.append(("live_posts", [amt(x) for x in live]))
    if any(dead):
        user.append(("dead_posts", [amt(x) for x in dead]))
    if s.first_blind:
        user.append(("first_blind", s.first_blind))   # the blinds posted keep their names
    if s.kind in (POT, NO):
        user.append(("stakes", [amt(s.small_bet), amt(s.big_bet)]))
    return user + [
        ("cap", s.cap if s.cap is not None else 0),
        ("uncapped_heads_up", s.uncapped_heads_up),
        ("rake_percent", r.rake_percent), ("rake_cap", amt(r.rake_cap)),
        ("no_flop_no_drop", r.no_flop_no_drop), ("show_all", r.show_all),
        ("must_raise_to_enter", r.must_raise_to_enter), ("draw_cap_four", r.draw_cap_four),
        ("burn_before_draw", r.burn_before_draw), ("defer_fifth_card", r.defer_fifth_card),
        ("reburn_on_reshuffle", r.reburn_on_reshuffle),
        ("rake", amt(hand.rake)),
    ]


def _with_meta(required: list[tuple[str, Any]], optional: list[tuple[str, Any]],
               meta: dict[str, Any]) -> list[tuple[str, Any]]:
    """The optional fields with the caller's: one of ours given again takes the caller's value in
    its place, a new one comes last; a required field or the actions cannot be given."""
    required_keys = {k for k, _ in required}
    optional_keys = {k for k, _ in optional}
    for key, value in meta.items():
        if not _KEY.match(key) or key in required_keys or key == "actions":
            raise ValueError(f"{key!r} cannot be given as an extra PHH field")
        if key in optional_keys:
            optional = [(k, value if k == key else val) for k, val in optional]
        else:
            optional.append((key, value))
    return optional


class _ActionLines:
    """The actions array's lines, written one event at a time. A draw's replacement cards wait
    until every player's discards are written (the spec's dealer), then come in draw order."""

    def __init__(self, hand: Hand, order: list[int], amt: _Amount, comments: bool) -> None:
        self.hand, self.amt, self.comments = hand, amt, comments
        self.pos = {p: i for i, p in enumerate(order)}
        self.names = [hand.players[p].name for p in range(hand.n)]
        self.lines: list[str] = []
        self.unseen: set[int] = set()              # players whose dealt cards this file hides
        self.draw_dealt: dict[int, list[Card | None]] = {}   # player -> replacement cards, in draw order

    def write(self, events: Iterable[ev.Event]) -> list[str]:
        for e in events:
            t = type(e)
            if self.draw_dealt and t not in (ev.Drew, ev.Burned, ev.Reshuffled):
                self._flush_draw()
            writer = _WRITERS.get(t)
            if writer is not None:
                writer(self, e)
        self._flush_draw()
        return self.lines

    def _who(self, p: int) -> str:
        return f"p{self.pos[p] + 1}"

    def _add(self, action: str, note: str = "") -> None:
        note = _comment(note) if self.comments else ""
        self.lines.append(f"  {_toml_str(action)},{('  # ' + note) if note else ''}")

    def _note(self, text: str) -> None:
        if self.comments:
            self.lines.append(f"  # {_comment(text)}")

    def _act(self, p: int, action: str, note: str = "") -> None:
        """A player's action, his name as its comment."""
        self._add(f"{self._who(p)} {action}", self.names[p] + note)

    def _flush_draw(self) -> None:
        for p, cards in self.draw_dealt.items():
            if cards:
                self._add(f"d dh {self._who(p)} {_cards(cards)}", self.names[p])
        self.draw_dealt.clear()

    def _dealt_hole(self, e: ev.DealtHole) -> None:
        if None in e.cards:
            self.unseen.add(e.player)
        self._add(f"d dh {self._who(e.player)} {_cards(e.cards)}", self.names[e.player])

    def _dealt_board(self, e: ev.DealtBoard) -> None:
        self._add(f"d db {_cards(e.cards)}", e.street)

    def _round_started(self, e: ev.RoundStarted) -> None:
        self._note(e.street.capitalize())

    def _draw_started(self, e: ev.DrawStarted) -> None:
        self._note(("First", "Second", "Third", "Fourth")[min(e.index, 3)] + " draw"
                   if self.hand.variant.draws > 1 else "Draw")

    def _folded(self, e: ev.Folded) -> None:
        self._act(e.player, "f")

    def _checked_or_called(self, e: ev.Checked | ev.Called) -> None:
        self._act(e.player, "cc")

    def _bet(self, e: ev.BetTo) -> None:
        self._act(e.player, "pb" if e.kind == "bring-in" else f"cbr {_toml_value(self.amt(e.to))}")

    def _drew(self, e: ev.Drew) -> None:
        dealt = self.draw_dealt.setdefault(e.player, [])
        if e.discards or not e.cards:
            text = _cards(e.discards)
            self._act(e.player, f"sd{(' ' + text) if text else ''}")
        dealt.extend(e.cards)

    def _reshuffled(self, e: ev.Reshuffled) -> None:
        self._note("the discards are reshuffled")

    def _shown(self, e: ev.Shown) -> None:
        self._act(e.player, f"sm {_cards(e.cards)}")

    def _mucked(self, e: ev.Mucked) -> None:
        # PHH has no place for a hand mucked but known other than its deal: where the deal is
        # ?? (a draw game), the hand goes in the comment.
        self._act(e.player, "sm", f" mucks {_cards(e.cards)}" if e.player in self.unseen and e.cards else "")

    def _protected(self, e: ev.ProtectedAllIn) -> None:
        self._add(f"# cardroom: {self._who(e.player)} protected all-in", self.names[e.player])


# Each event the actions array records, and how (others, burns and pots, write nothing).
_WRITERS: dict[type, Callable[[_ActionLines, Any], None]] = {
    ev.DealtHole: _ActionLines._dealt_hole, ev.DealtBoard: _ActionLines._dealt_board,
    ev.RoundStarted: _ActionLines._round_started, ev.DrawStarted: _ActionLines._draw_started,
    ev.Folded: _ActionLines._folded, ev.Checked: _ActionLines._checked_or_called,
    ev.Called: _ActionLines._checked_or_called, ev.BetTo: _ActionLines._bet, ev.Drew: _ActionLines._drew,
    ev.Reshuffled: _ActionLines._reshuffled, ev.Shown: _ActionLines._shown, ev.Mucked: _ActionLines._mucked,
    ev.ProtectedAllIn: _ActionLines._protected,
}
