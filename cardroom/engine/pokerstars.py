"""A finished hand as a PokerStars text hand history, for every game the card room deals.

    text = to_pokerstars(hand, hand_id="1001", table="Juno", when=datetime(...), max_seats=6, hero=2)

A pure function of the hand (its players, structure, button and event stream); no I/O. The line
forms follow real PokerStars histories (the third-party samples in ../shared/samples/pokerstars,
see tests/engine/test_pokerstars.py, which compares against them line by line).

Header, one per game, in PokerStars' own words (the two spaces after the colon are as the samples),
each a header that trackers parse (fpdb's PokerStars parser: tests/engine/test_pokerstars.py
encodes its grammar)::

    PokerStars Hand #ID:  Hold'em No Limit ($0.25/$0.50 USD) - 2026/11/29 22:00:00 ET
    ... Hold'em Limit / Hold'em Pot Limit
    ... Omaha Pot Limit                      ... Omaha Hi/Lo Pot Limit / Omaha Hi/Lo Limit
    ... 7 Card Stud Limit                    ... 7 Card Stud Hi/Lo Limit
    ... Razz Limit                           ... 5 Card Draw Limit
    ... Single Draw 2-7 Lowball No Limit     ... Triple Draw 2-7 Lowball Limit

PokerStars never dealt ace-to-five draw nor spread limit, and a header it never wrote is a hand no
tracker imports. So ace-to-five single and triple draw are written as the 2-7 lowball game with the
same draws ("Single Draw 2-7 Lowball", "Triple Draw 2-7 Lowball": a lowball game, five cards, one
or three draws, the blinds and streets alike), and spread limit as "No Limit" with its blinds as
the stakes (bets of any size between two bounds read as no limit's do; "Limit" would make a
tracker take every bet for the fixed one and look the blinds up from the big bet). PokerStars
dealt stud games in fixed limit only, and trackers read no other: a stud game in any structure is
written "Limit" with its small and big bet (pot and no limit: the smallest bet and twice it;
spread: the min and max). The lines after the header say what happened, whatever the header says.

The structure word is otherwise "Limit", "Pot Limit" or "No Limit". Stakes are the blinds for pot
and no limit (and spread) and the small/big bet for limit (as in the samples: LHE $0.05/$0.10 with
blinds $0.02/$0.05). The time is `when` in Eastern time (an aware datetime is converted; a naive
one is taken as ET already), the hour without a leading zero as PokerStars writes it ("9:49:52").

Amounts, by `currency`: "USD", "EUR" or "GBP" formats cents as PokerStars does ($2, $0.10, $1.50,
no thousands separators) with the code in the header; "play" (play chips, the room's default) as
PokerStars' play-money tables: no symbol, no code, and "(Play Money)" on the table line, so a
tracker files the hand apart from real money (a chip is a dollar of the room's amounts: 0.25/0.50,
as the lobby shows them); "" writes the integer amounts bare, as tournament chips ("posts the ante 10").

Tournament hands (`tournament=`, a tournament.history.TournamentHand) are written as PokerStars
writes them (fpdb's regression files of its tournaments; tests/engine/fpdb_grammar.py holds fpdb's
grammar of them): "PokerStars Hand #N: Tournament #T, $10+$1 USD Hold'em No Limit -
Level III (25/50) - 2026/11/29 22:00:00 ET" (play money "10+1", a freeroll "Freeroll  Hold'em"),
"Table 'T 2' 9-max Seat #4 is the button", whole chips everywhere ("Seat 1: alice (1500 in chips)",
"posts the ante 5", "brings in for 10"), and the places the hand decided before the summary.

Interpretations, where the engine and PokerStars differ or PokerStars left no sample:
- Single draw has no street line between its betting rounds (both single-draw samples); triple draw
  writes *** FIRST DRAW *** / *** SECOND DRAW *** / *** THIRD DRAW ***.
- Summary fold words: board games "before Flop", "on the Flop/Turn/River"; stud "on the 3rd Street"
  .. "on the 6th Street", "on the River"; draw "before the Draw" (the 2011 sample; the 2010 one
  says "before Flop"), then ours: "after the Draw" (single draw), "after the 1st/2nd/3rd Draw".
- A deferred fifth draw card (the engine deals it after everyone else) is reported in the hero's
  one "Dealt to" line; with nothing kept it is just "Dealt to Hero [new cards]".
- The showdown is written pot by pot as PokerStars does: from the last side pot to the main pot,
  the players contesting it who have not shown yet show (or muck), then that pot's collections.
- Completing a stud bring-in is "raises 35 to 50" (the Razz sample); a bring-in player who completes
  instead of bringing in "bets $X", as PokerStars writes it (its history in fpdb's regression file
  7-Stud-USD-0.04-0.08-200911.txt: "Hero: bets $0.04" from the bring-in; "completes it to" is Full
  Tilt's, which fpdb's PokerStars parser does not read: it lost that bet from the player's result).
- Three blinds (seed 002): "posts small blind", "posts big blind" (the largest), then the middle
  one as "posts straddle", PokerStars' only third blind, after the big blind where PokerStars writes
  it. fpdb reads a straddle as a live blind of its amount (the chips add up) and marks its poster a
  straddler; it reads blinds by kind, not by line order.
- A protected all-in (a timeout) is written "NAME has timed out".
- Cards mucked at the showdown appear in the summary ("mucked [..]") for the hero, and for everyone
  with reveal_mucked=True (the samples show them; the room asks for them in every history, as seed
  001 puts the hole cards of everyone who stayed in to the showdown in the hand history).
- The text is written from what the hero may know of the hand (views.history_events), never from
  the whole hand: no other player's hidden card, nor a draw's discards, can reach it.
- Player names are written exactly as given (brackets, spaces).
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Callable, Iterable, Protocol, Sequence

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, POT, SPREAD
from cardroom.engine.drawing import exchange
from cardroom.engine.evaluation import describe, describe_hi_lo
from cardroom.engine.pots import build_pots
from cardroom.engine.money import format_cents
from cardroom.engine.views import history_events
from cardroom.engine.variants import Variant

if TYPE_CHECKING:
    from cardroom.engine.betting import Structure
    from cardroom.engine.cards import Card
    from cardroom.engine.hand import Hand


class _Finish(Protocol):
    @property
    def seat(self) -> int: ...
    @property
    def place(self) -> int: ...
    @property
    def prize(self) -> int: ...


class TournamentLine(Protocol):
    """What a tournament hand's history tells of its tournament: tournament.history.TournamentHand
    (which imports this module, so it is named here by what it has)."""

    @property
    def tournament(self) -> int: ...
    @property
    def table(self) -> int: ...
    @property
    def level(self) -> int: ...
    @property
    def stakes(self) -> tuple[int, int]: ...
    @property
    def buy_in(self) -> int: ...
    @property
    def fee(self) -> int: ...
    @property
    def currency(self) -> str: ...
    @property
    def finishes(self) -> Sequence[_Finish]: ...
    @property
    def freeroll(self) -> bool: ...

__all__ = ["to_pokerstars", "game_name", "header_game", "header_stakes", "limit_name", "money_formatter",
           "tournament_header", "CURRENCIES", "PLAY"]

# PokerStars' words for each game, by variant key (variants.py's `pokerstars_name` is the fallback).
# Ace-to-five draw is written as the 2-7 game with the same draws: PokerStars never dealt it (above).
GAME_NAMES = {
    "holdem": "Hold'em",
    "omaha": "Omaha",
    "omaha8": "Omaha Hi/Lo",
    "stud": "7 Card Stud",
    "stud8": "7 Card Stud Hi/Lo",
    "razz": "Razz",
    "draw": "5 Card Draw",
    "27-draw": "Single Draw 2-7 Lowball",
    "27-triple": "Triple Draw 2-7 Lowball",
    "a5-draw": "Single Draw 2-7 Lowball",
    "a5-triple": "Triple Draw 2-7 Lowball",
}

# The header's structure word; spread limit is written as no limit (above).
LIMIT_NAMES = {FIXED: "Limit", SPREAD: "No Limit", POT: "Pot Limit", NO: "No Limit"}

# The currencies a room may name ([room] currency in config.toml): ISO code -> symbol, and play chips.
CURRENCIES = {"USD": "$", "EUR": "€", "GBP": "£"}
PLAY = "play"

_STUD_STREETS = ("3rd STREET", "4th STREET", "5th STREET", "6th STREET", "RIVER")
_BOARD_FOLDS = ("before Flop", "on the Flop", "on the Turn", "on the River")
_STUD_FOLDS = ("on the 3rd Street", "on the 4th Street", "on the 5th Street", "on the 6th Street",
               "on the River")
_DRAW_NAMES = ("FIRST", "SECOND", "THIRD")
_ORDINALS = ("1st", "2nd", "3rd")


def game_name(variant: Variant) -> str:
    """PokerStars' name of the game ("Hold'em", "Single Draw 2-7 Lowball" ...)."""
    return GAME_NAMES.get(variant.key, variant.pokerstars_name)


def money_formatter(currency: str = "USD") -> Callable[[int], str]:
    """cents -> text as PokerStars writes it: $2, $0.10, $1.50; play chips 2, 0.10, 1.50; with
    currency "" bare integers (tournament chips)."""
    if not currency:
        return lambda c: str(c)
    if currency == PLAY:
        return lambda c: format_cents(c, currency="", thousands=False)
    if currency not in CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}: one of {', '.join([*CURRENCIES, PLAY])}")
    return lambda c: format_cents(c, currency=CURRENCIES[currency], thousands=False)


def _limited(variant: Variant, kind: str) -> bool:
    return kind == FIXED or variant.kind == "stud"        # stud: always "Limit" (above)


def limit_name(variant: Variant, kind: str) -> str:
    """The structure as the header names it: "Limit", "Pot Limit" or "No Limit" (above)."""
    return LIMIT_NAMES[FIXED if _limited(variant, kind) else kind]


def header_stakes(variant: Variant, structure: Structure) -> tuple[int, int]:
    """The header's two amounts: the small and big bet in limit and stud, else the blinds."""
    if _limited(variant, structure.kind):
        return structure.small_bet, structure.big_bet
    small = structure.blinds[0] if len(structure.blinds) >= 2 else structure.big_blind // 2
    return small, structure.big_blind


def header_game(variant: Variant, structure: Structure, currency: str = "USD") -> str:
    """The header's game part: "Hold'em No Limit ($0.25/$0.50 USD)"."""
    money = money_formatter(currency)
    small, big = header_stakes(variant, structure)
    stakes = f"{money(small)}/{money(big)}"
    if currency in CURRENCIES:
        stakes += f" {currency}"
    return f"{game_name(variant)} {limit_name(variant, structure.kind)} ({stakes})"


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd."""
    suffix = "th" if n % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def roman(n: int) -> str:
    """A level's number as PokerStars writes it: I, IV, XL."""
    out = []
    for value, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                           (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, n = divmod(n, value)
        out.append(letters * count)
    return "".join(out)


def prize_text(cents: int, currency: str) -> str:
    """A tournament prize in the hand's "received" line: "$141.51", play money "200.00" (always
    the cents, as PokerStars writes it there)."""
    if currency != PLAY and currency not in CURRENCIES:
        money_formatter(currency)          # the unknown currency's error
    return f"{CURRENCIES.get(currency, '')}{cents // 100}.{cents % 100:02d}"


def tournament_header(variant: Variant, kind: str, t: TournamentLine) -> str:
    """A tournament hand's header between the hand number and the time: "Tournament #T, $10+$1 USD
    Hold'em No Limit - Level III (25/50)"; play money "10+1 ..."; a freeroll "Freeroll  Hold'em ..."
    (two spaces, as PokerStars writes it). `t` is a tournament.history.TournamentHand."""
    if t.freeroll:
        buy_in = "Freeroll "
    else:
        money = money_formatter(t.currency)
        buy_in = f"{money(t.buy_in)}+{money(t.fee)}" + (f" {t.currency}" if t.currency in CURRENCIES else "")
    small, big = t.stakes
    return (f"Tournament #{t.tournament}, {buy_in} {game_name(variant)} {limit_name(variant, kind)} "
            f"- Level {roman(t.level)} ({small}/{big})")


def eastern_time(when: datetime) -> str:
    """"2026/11/29 22:00:00 ET": an aware time in Eastern time, a naive one as given (above)."""
    if when.tzinfo is not None:
        try:
            from zoneinfo import ZoneInfo
            when = when.astimezone(ZoneInfo("America/New_York"))
        except Exception:      # no tz database: keep the given wall time
            pass
    return f"{when.year}/{when.month:02d}/{when.day:02d} {when.hour}:{when.minute:02d}:{when.second:02d} ET"


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(repr(c) for c in cards)


def _count(k: int) -> str:
    return f"{k} card" if k == 1 else f"{k} cards"


def to_pokerstars(hand: Hand, *, hand_id: str, when: datetime, max_seats: int, table: str = "",
                  currency: str = "USD", hero: int | None = None, reveal_mucked: bool = False,
                  tournament: TournamentLine | None = None) -> str:
    """The PokerStars-format history of a finished hand (lines joined by "\\n", final newline).

    currency: "USD", "EUR", "GBP", "play" (play chips) or "" (tournament chips); see above.
    hero: the player index whose hole cards (and discards) are shown, as in the history PokerStars
    gives that player; None for an observer's history (stud up cards are still shown).
    reveal_mucked: also show other players' cards mucked at the showdown in the summary.
    tournament: a tournament hand's tournament.history.TournamentHand. The hand is then written as
    PokerStars writes tournament hands: its header ("PokerStars Hand #N: Tournament #T, 10+1
    Hold'em No Limit - Level III (25/50) - date"; tournament_header), the table "T n" (`table` is
    not used) without "(Play Money)", the hand's amounts as whole chips (`currency` is not used:
    the buy-in's is the tournament's), and before the summary a line for each place the hand
    decided, the worst first: "NAME finished the tournament in 7th place", "... in 2nd place and
    received $141.51.", "NAME wins the tournament and receives 200.00 - congratulations!".
    """
    return _Writer(hand, hand_id, table, when, max_seats, currency, hero, reveal_mucked, tournament).text()


def _straddle_after_big_blind(events: list[ev.Event]) -> list[ev.Event]:
    """The middle of three blinds (seed 002) moved after the big blind, where PokerStars writes its
    one third blind, a straddle (the engine posts the blinds left of the button in order)."""
    middle = next((i for i, e in enumerate(events) if isinstance(e, ev.Posted) and e.kind == "blind"), None)
    if middle is None:
        return events
    big = next((i for i, e in enumerate(events) if isinstance(e, ev.Posted) and e.kind == "big blind"), None)
    if big is None or big < middle:
        return events
    events = list(events)
    events.insert(big, events.pop(middle))
    return events


class _Writer:
    def __init__(self, hand: Hand, hand_id: str, table: str, when: datetime, max_seats: int, currency: str,
                 hero: int | None, reveal_mucked: bool, tournament: TournamentLine | None) -> None:
        self.h = hand
        self.v = hand.variant
        self.s = hand.structure
        self.kind = self.v.kind
        self.n = len(hand.players)
        self.names = [p.name for p in hand.players]
        self.tournament = tournament
        if tournament is not None:
            currency = ""          # chips; the buy-in's currency is the tournament's
            prize_text(0, tournament.currency)      # an unknown currency fails before a word is written
        self.money = money_formatter(currency)
        self.currency = currency
        self.hand_id, self.table, self.when, self.max_seats = hand_id, table, when, max_seats
        self.hero = hero
        self.reveal = reveal_mucked
        n = self.n
        self.lines: list[str] = []
        self.hole: list[list[Card | None]] = [[] for _ in range(n)]
        self.up: list[list[bool]] = [[] for _ in range(n)]
        self.board: list[Card | None] = []
        self.totals = [0] * n
        self.bets = [0] * n
        self.folded = [False] * n
        self.mucked = [False] * n
        self.all_in = [False] * n
        self.protected = [False] * n
        self.bet_any = [False] * n       # put chips in beyond antes (summary "(didn't bet)")
        self.fold_round: dict[int, int] = {}
        self.mucked_cards: dict[int, list[Card | None]] = {}
        self.labels: dict[int, list[str]] = {}
        self.round = 0
        self.marker: str | int | None = None   # the last street header written
        self.full_level = 0
        self.bet_count = 0
        self.pending_draw: dict[int, tuple[list[Card | None], list[Card | None]]] = {}
        self.shown: dict[int, ev.Shown] = {}
        self.sd_lines: list[tuple[int, str]] = []
        self.awards: list[ev.Awarded] = []
        self.rake = 0

    # ------------------------------------------------------------------ helpers
    def out(self, line: str) -> None:
        self.lines.append(line)

    def name(self, p: int) -> str:
        return self.names[p]

    def allin(self, flag: bool) -> str:
        return " and is all-in" if flag else ""

    def level(self) -> int:
        return max(self.bets) if self.bets else 0

    def put(self, p: int, amount: int, live: bool = True) -> None:
        self.totals[p] += amount
        if live:
            self.bets[p] += amount

    # ------------------------------------------------------------------ the whole text
    def text(self) -> str:
        h, s, v, t = self.h, self.s, self.v, self.tournament
        if t is None:
            self.out(f"PokerStars Hand #{self.hand_id}:  {header_game(v, s, self.currency)} - {eastern_time(self.when)}")
            table = f"Table '{self.table}' {self.max_seats}-max" + (" (Play Money)" if self.currency == PLAY else "")
        else:          # one space after the colon here, as in PokerStars' tournament hands
            self.out(f"PokerStars Hand #{self.hand_id}: {tournament_header(v, s.kind, t)} - {eastern_time(self.when)}")
            table = f"Table '{t.tournament} {t.table}' {self.max_seats}-max"
        if self.kind == "stud":
            self.out(table)
        else:
            self.out(f"{table} Seat #{h.players[h.button].seat} is the button")
            self.labels.setdefault(h.button, []).append("button")
        # Seat lines in seat order, whatever order the hand lists its players in (PHH: from the blinds).
        for p, pl in sorted(enumerate(h.players), key=lambda x: x[1].seat):
            self.out(f"Seat {pl.seat}: {pl.name} ({self.money(h.start_stacks[p])} in chips)")
        if self.kind != "stud" and s.blinds:
            self.full_level = s.big_blind
            self.bet_count = 1
        events = _straddle_after_big_blind(history_events(h.events, self.hero))
        i = 0
        while i < len(events):
            e = events[i]
            nxt = events[i + 1] if i + 1 < len(events) else None
            if isinstance(e, ev.Posted) and e.kind == "live" and isinstance(nxt, ev.Posted) \
                    and nxt.kind == "dead" and nxt.player == e.player:
                self.posted_both(e, nxt)
                i += 2
                continue
            self.handle(e)
            i += 1
        return "\n".join(self.lines) + "\n"

    # ------------------------------------------------------------------ events
    def handle(self, e: ev.Event) -> None:
        method = getattr(self, "on_" + type(e).__name__, None)
        if method is not None:
            method(e)

    def on_Posted(self, e: ev.Posted) -> None:
        p, m = e.player, self.money(e.amount)
        if e.all_in:
            self.all_in[p] = True
        if e.kind == "ante":
            self.put(p, e.amount, live=False)
            self.out(f"{self.name(p)}: posts the ante {m}{self.allin(e.all_in)}")
            return
        self.bet_any[p] = True
        if e.kind == "dead":
            self.put(p, e.amount, live=False)
            self.out(f"{self.name(p)}: posts small blind {m}{self.allin(e.all_in)}")
            return
        self.put(p, e.amount)
        if e.kind == "small blind":
            self.labels.setdefault(p, []).append("small blind")
            words = "small blind"
        elif e.kind == "big blind":
            self.labels.setdefault(p, []).append("big blind")
            words = "big blind"
        elif e.kind == "blind":
            # The middle of three blinds: trackers know no third blind but a straddle, a live blind
            # (fpdb counts its amount as the poster's bet and marks him a straddler).
            words = "straddle"
        else:                      # a new player's live post
            words = "big blind"
        self.out(f"{self.name(p)}: posts {words} {m}{self.allin(e.all_in)}")

    def posted_both(self, live: ev.Posted, dead: ev.Posted) -> None:
        p = live.player
        self.bet_any[p] = True
        self.all_in[p] = live.all_in or dead.all_in
        self.put(p, live.amount)
        self.put(p, dead.amount, live=False)
        self.out(f"{self.name(p)}: posts small & big blinds {self.money(live.amount + dead.amount)}"
                 f"{self.allin(self.all_in[p])}")

    def on_DealtHole(self, e: ev.DealtHole) -> None:
        p = e.player
        before = list(self.hole[p])
        ups_before = [c for c, u in zip(self.hole[p], self.up[p]) if u]
        self.hole[p].extend(e.cards)
        self.up[p].extend(e.up)
        if self.kind != "stud":
            if self.marker is None:
                self.marker = "first"
                self.out("*** DEALING HANDS ***" if self.kind == "draw" else "*** HOLE CARDS ***")
            if p == self.hero:
                self.out(f"Dealt to {self.name(p)} [{_cards(self.hole[p])}]")
            return
        street = {0: 0, 3: 1, 4: 2, 5: 3}.get(len(before), 4)
        if self.marker != street:
            self.marker = street
            self.out(f"*** {_STUD_STREETS[street]} ***")
        if p == self.hero:
            shown_before, new = before, list(e.cards)
        else:
            shown_before, new = ups_before, [c for c, u in zip(e.cards, e.up) if u]
            if not new:
                return
        if street == 0:
            self.out(f"Dealt to {self.name(p)} [{_cards(shown_before + new)}]")
        else:
            self.out(f"Dealt to {self.name(p)} [{_cards(shown_before)}] [{_cards(new)}]")

    def on_DealtBoard(self, e: ev.DealtBoard) -> None:
        old = list(self.board)
        self.board.extend(e.cards)
        if self.kind == "stud":
            self.marker = 4
            self.out(f"*** RIVER *** [{_cards(e.cards)}]")
            return
        if not old:
            self.out(f"*** FLOP *** [{_cards(e.cards)}]")
        else:
            word = "TURN" if len(old) == 3 else "RIVER"
            self.out(f"*** {word} *** [{_cards(old)}] [{_cards(e.cards)}]")

    def on_RoundStarted(self, e: ev.RoundStarted) -> None:
        self.round = e.index
        if e.index > 0:
            self.bets = [0] * self.n
            self.full_level = 0
            self.bet_count = 0

    def on_DrawStarted(self, e: ev.DrawStarted) -> None:
        if self.v.draws > 1:
            self.out(f"*** {_DRAW_NAMES[e.index]} DRAW ***")

    def on_Drew(self, e: ev.Drew) -> None:
        p = e.player
        hand = self.hole[p]
        if not e.discards and e.cards:
            # A deferred fifth card.
            hand.extend(e.cards)
            if p in self.pending_draw:
                kept, new = self.pending_draw.pop(p)
                self.dealt_after_draw(p, kept, new + list(e.cards))
            return
        if not e.discards:
            if p == self.hero:
                self.out(f"{self.name(p)}: stands pat on [{_cards(hand)}]")
            else:
                self.out(f"{self.name(p)}: stands pat")
            return
        kept = [c for c in hand if c not in e.discards]
        self.hole[p] = exchange(hand, e.discards, e.cards)   # the new cards where the thrown ones were
        if p == self.hero:
            self.out(f"{self.name(p)}: discards {_count(len(e.discards))} [{_cards(e.discards)}]")
            if e.deferred:
                self.pending_draw[p] = (kept, list(e.cards))
            else:
                self.dealt_after_draw(p, kept, list(e.cards))
        else:
            self.out(f"{self.name(p)}: discards {_count(len(e.discards))}")

    def dealt_after_draw(self, p: int, kept: list[Card | None], new: list[Card | None]) -> None:
        if kept:
            self.out(f"Dealt to {self.name(p)} [{_cards(kept)}] [{_cards(new)}]")
        else:
            self.out(f"Dealt to {self.name(p)} [{_cards(new)}]")

    def on_Folded(self, e: ev.Folded) -> None:
        self.folded[e.player] = True
        self.fold_round[e.player] = self.round
        self.out(f"{self.name(e.player)}: folds")

    def on_Checked(self, e: ev.Checked) -> None:
        self.out(f"{self.name(e.player)}: checks")

    def on_Called(self, e: ev.Called) -> None:
        p = e.player
        self.put(p, e.amount)
        if e.amount:
            self.bet_any[p] = True
        self.all_in[p] = self.all_in[p] or e.all_in
        self.out(f"{self.name(p)}: calls {self.money(e.amount)}{self.allin(e.all_in)}")

    def on_BetTo(self, e: ev.BetTo) -> None:
        p = e.player
        level = self.level()
        self.put(p, e.added)
        self.bet_any[p] = True
        self.all_in[p] = self.all_in[p] or e.all_in
        if e.kind == "bring-in":
            self.out(f"{self.name(p)}: brings in for {self.money(e.added)}{self.allin(e.all_in)}")
            return
        if level == 0:             # stud: also the bring-in player completing instead
            self.out(f"{self.name(p)}: bets {self.money(e.to)}{self.allin(e.all_in)}")
        else:
            self.out(f"{self.name(p)}: raises {self.money(e.to - level)} to {self.money(e.to)}"
                     f"{self.allin(e.all_in)}")
        self.check_cap(e.to)

    def check_cap(self, to: int) -> None:
        """Fixed limit: "Betting is capped" when the round's last allowed bet is made."""
        s = self.s
        if s.kind != FIXED or s.cap is None:
            return
        size = s.bet_size(self.round >= self.v.big_bet_from)
        if to < self.full_level + size:
            return                  # a short all-in: not a full bet
        self.full_level = to
        self.bet_count += 1
        if self.bet_count != s.cap:
            return
        if s.uncapped_heads_up:
            live = [q for q in range(self.n) if not self.folded[q]]
            if len(live) == 2:
                return
        self.out("Betting is capped")

    def on_ProtectedAllIn(self, e: ev.ProtectedAllIn) -> None:
        self.protected[e.player] = True
        self.out(f"{self.name(e.player)} has timed out")

    def on_UncalledReturned(self, e: ev.UncalledReturned) -> None:
        p = e.player
        self.totals[p] -= e.amount
        self.bets[p] = max(0, self.bets[p] - e.amount)
        self.all_in[p] = False
        self.out(f"Uncalled bet ({self.money(e.amount)}) returned to {self.name(p)}")

    def on_Shown(self, e: ev.Shown) -> None:
        self.shown[e.player] = e
        self.sd_lines.append((e.player, f"{self.name(e.player)}: shows [{_cards(e.cards)}] ({self.words(e)})"))

    def on_Mucked(self, e: ev.Mucked) -> None:
        p = e.player
        self.mucked[p] = True
        self.mucked_cards[p] = list(e.cards)
        self.sd_lines.append((p, f"{self.name(p)}: mucks hand"))

    def on_Raked(self, e: ev.Raked) -> None:
        self.rake += e.amount

    def on_Awarded(self, e: ev.Awarded) -> None:
        self.awards.append(e)

    def on_HandEnded(self, e: ev.HandEnded) -> None:
        pots = self.pot_names()
        if self.sd_lines:
            self.showdown(pots)
        else:
            for a in self.awards:
                self.out(f"{self.name(a.player)} collected {self.money(a.amount)} from {pots[a.pot]}")
        if self.tournament is not None:
            self.finishes(self.tournament)
        self.summary(pots)

    def finishes(self, t: TournamentLine) -> None:
        """The places this tournament hand decided, the worst first (PokerStars' order: the
        runner-up, then the winner), players sharing a place in seat order."""
        by_seat = {pl.seat: p for p, pl in enumerate(self.h.players)}
        unknown = [f.seat for f in t.finishes if f.seat not in by_seat]
        if unknown:
            raise ValueError(f"places for seats {unknown}, where nobody played this hand")
        for f in sorted(t.finishes, key=lambda f: (-f.place, f.seat)):
            name = self.name(by_seat[f.seat])
            if f.prize and f.place == 1:
                self.out(f"{name} wins the tournament and receives {prize_text(f.prize, t.currency)} "
                         "- congratulations!")
            elif f.prize:
                self.out(f"{name} finished the tournament in {ordinal(f.place)} place and received "
                         f"{prize_text(f.prize, t.currency)}.")
            else:
                self.out(f"{name} finished the tournament in {ordinal(f.place)} place")

    # ------------------------------------------------------------------ showdown and summary
    def words(self, e: ev.Shown) -> str:
        v = self.v
        if v.is_split:
            return describe_hi_lo(e.high, e.low)
        return describe(v.high, e.high)

    def pot_count(self) -> int:
        return max((a.pot for a in self.awards), default=0) + 1

    def pot_names(self) -> dict[int, str]:
        k = self.pot_count()
        if k == 1:
            return {0: "pot"}
        names = {0: "main pot"}
        for i in range(1, k):
            names[i] = "side pot" if k == 2 else f"side pot-{i}"
        return names

    def showdown(self, names: dict[int, str]) -> None:
        self.out("*** SHOW DOWN ***")
        k = self.pot_count()
        live = [not (self.folded[p] or self.mucked[p]) for p in range(self.n)]
        capped = [self.all_in[p] or self.protected[p] for p in range(self.n)]
        pots = build_pots(self.totals, live, capped)
        if len(pots) != k:          # cannot happen with the engine's own pots; keep it readable
            pots = []
        done: set[int] = set()
        for i in reversed(range(k)):
            eligible = set(pots[i].eligible) if pots else set(range(self.n))
            for p, line in self.sd_lines:
                if p in done:
                    continue
                if i == 0 or p in eligible or (self.mucked[p] and i == k - 1):
                    done.add(p)
                    self.out(line)
            paid = [a for a in self.awards if a.pot == i]
            for a in paid:
                self.out(f"{self.name(a.player)} collected {self.money(a.amount)} from {names[i]}")
            contested = sum(1 for p in eligible if p in self.shown) >= 2
            if self.v.is_split and contested and paid and not any(a.half == "low" for a in paid):
                self.out("No low hand qualified")

    def summary(self, names: dict[int, str]) -> None:
        h = self.h
        self.out("*** SUMMARY ***")
        by_pot: dict[int, int] = {}
        won = [0] * self.n
        for a in self.awards:
            by_pot[a.pot] = by_pot.get(a.pot, 0) + a.amount
            won[a.player] += a.amount
        total = sum(by_pot.values()) + self.rake
        parts = f"Total pot {self.money(total)}"
        if len(by_pot) > 1:
            parts += " " + " ".join(f"{names[i][0].upper()}{names[i][1:]} {self.money(by_pot[i])}."
                                    for i in sorted(by_pot))
        self.out(f"{parts} | Rake {self.money(self.rake)}")
        if self.board:
            self.out(f"Board [{_cards(self.board)}]")
        for p, pl in sorted(enumerate(h.players), key=lambda x: x[1].seat):
            label = "".join(f" ({x})" for x in self.labels.get(p, []))
            self.out(f"Seat {pl.seat}: {pl.name}{label} {self.result(p, won[p])}")

    def result(self, p: int, won: int) -> str:
        if p in self.shown:
            e = self.shown[p]
            if won:
                return f"showed [{_cards(e.cards)}] and won ({self.money(won)}) with {self.words(e)}"
            return f"showed [{_cards(e.cards)}] and lost with {self.words(e)}"
        if self.mucked[p]:
            if self.reveal or p == self.hero:
                return f"mucked [{_cards(self.mucked_cards[p])}]"
            return "mucked"
        if self.folded[p]:
            words = self.fold_words(self.fold_round.get(p, 0))
            return f"folded {words}" + ("" if self.bet_any[p] else " (didn't bet)")
        if won:
            return f"collected ({self.money(won)})"
        return "lost"

    def fold_words(self, r: int) -> str:
        if self.kind == "stud":
            return _STUD_FOLDS[min(r, 4)]
        if self.kind == "draw":
            if r == 0:
                return "before the Draw"
            if self.v.draws == 1:
                return "after the Draw"
            return f"after the {_ORDINALS[min(r, 3) - 1]} Draw"
        return _BOARD_FOLDS[min(r, 3)]
