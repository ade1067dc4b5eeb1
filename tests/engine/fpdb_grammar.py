"""Our grammar of how fpdb reads PokerStars tournament hands and summaries (written by us from its
PokerStarsToFpdb.py and PokerStarsSummary.py, not copied): what a tracker must find in our text to
take a hand as a tournament hand, a summary as a tournament's result, and each player's chips.

Hands (PokerStarsToFpdb.re_game_info's tournament part, re_hand_info, re_player_info, its action
and finish regexes):
- header: "Tournament #T, " then the buy-in and fee ("$10+$1 USD": currency from the symbol; digits
  alone: play money; "Freeroll"), the game and structure words PokerStars wrote, "Level" and a
  Roman number, the stakes "(25/50)" (limit and stud: the small and big bet);
- table: "Table 'T n'" (fpdb takes the table's name as the word after the tournament's number);
- chips: "Seat N: NAME (1500 in chips)", whole chips, and every action's amount likewise (the
  blinds: "posts small blind", "posts big blind", "posts straddle", each a live bet of its amount);
- places: "NAME finished the tournament in 7th place", "... in 2nd place and received $141.51.",
  "NAME wins the tournament and receives 200.00 - congratulations!".
Summaries (PokerStarsSummary.re_tourney_info, re_player_stars, re_rank): the tournament line with
the structure before the game, "Buy-In: a/b" (or "Freeroll"), "N players", added money in
PokerStars' words, "Total Prize Pool", "Tournament started"; the places "  1: NAME [2] (where),
prize (share%)"; "You finished in 3rd place.".

`chips(text)` does what a tracker does with a hand: each player's chips at its start and end.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal

GAMES = ("Hold'em", "Omaha", "Omaha Hi/Lo", "Razz", "7 Card Stud", "7 Card Stud Hi/Lo", "Badugi",
         "Triple Draw 2-7 Lowball", "Single Draw 2-7 Lowball", "5 Card Draw")
LIMITS = ("No Limit", "Pot Limit", "Limit")
SYMBOLS = {"$": "USD", "€": "EUR", "£": "GBP"}
_GAME = "|".join(map(re.escape, GAMES))
_LIMIT = "|".join(LIMITS)
_MONEY = r"\d+(?:\.\d\d)?"
# The time in ET, or PokerStars' local time with the ET time in brackets (fpdb keeps the last one).
_WHEN = r"(?:\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d [A-Z]+ \[)?(?P<et>\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d) ET\]?"

HEADER = re.compile(
    r"PokerStars (?:Hand|Game) #(?P<hand>\d+): +Tournament #(?P<tourno>\d+), "
    r"(?:(?P<sym>[$€£]?)(?P<biamt>" + _MONEY + r")\+(?P=sym)(?P<birake>" + _MONEY + r")"
    r"(?:\+(?P=sym)(?P<bounty>" + _MONEY + r"))?(?: (?P<iso>USD|EUR|GBP))?|(?P<freeroll>Freeroll)) +"
    r"(?P<game>" + _GAME + r") (?P<limit>" + _LIMIT + r") - Level (?P<level>[IVXLCDM]+) "
    r"\((?P<sb>\d+)/(?P<bb>\d+)\) - " + _WHEN)
TABLE = re.compile(r"Table '(?P<tourno>\d+) (?P<table>\d+)' (?P<max>\d+)-max(?: Seat #(?P<button>\d+) is the button)?")
SEAT = re.compile(r"Seat (?P<seat>\d+): (?P<name>.+) \((?P<chips>\d+) in chips\)(?: is sitting out)?")
WINS = re.compile(r"(?P<name>.+) wins the tournament and receives (?P<sym>[$€£]?)(?P<amount>\d+\.\d\d)"
                  r" - congratulations!")
RECEIVED = re.compile(r"(?P<name>.+) finished the tournament in (?P<rank>\d+)(?:st|nd|rd|th) place and received "
                      r"(?P<sym>[$€£]?)(?P<amount>\d+\.\d\d)\.")
RANKED = re.compile(r"(?P<name>.+) finished the tournament in (?P<rank>\d+)(?:st|nd|rd|th) place")

_ALLIN = " and is all-in"
_ANTE = re.compile(r"(?P<name>.+): posts the ante (?P<amount>\d+)")
# fpdb's re_post_sb, re_post_bb and re_post_straddle: a straddle is a live blind of its amount, as
# the others are (Hand.addBlind), wherever its line comes.
_BLIND = re.compile(r"(?P<name>.+): posts (?:small blind|big blind|straddle) (?P<amount>\d+)")
_BRING_IN = re.compile(r"(?P<name>.+): brings in for (?P<amount>\d+)")
_CALL = re.compile(r"(?P<name>.+): calls (?P<amount>\d+)")
_BET = re.compile(r"(?P<name>.+): bets (?P<amount>\d+)")
_RAISE = re.compile(r"(?P<name>.+): raises (?P<by>\d+) to (?P<to>\d+)")
_UNCALLED = re.compile(r"Uncalled bet \((?P<amount>\d+)\) returned to (?P<name>.+)")
_FIRST_STREETS = ("*** HOLE CARDS ***", "*** DEALING HANDS ***", "*** 3rd STREET ***")
_DRAW = re.compile(r".+: (?:discards \d cards?|stands pat)(?: .*)?")
_COLLECTED = re.compile(r"(?P<name>.+) collected (?P<amount>\d+) from (?:pot|main pot|side pot(?:-\d+)?)")

ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}


def from_roman(text: str) -> int:
    values = [ROMAN[c] for c in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values))


def cents(amount: str) -> int:
    """What fpdb stores of an amount: int(100 * Decimal(text))."""
    return int(Decimal(amount) * 100)


@dataclass
class Place:
    name: str
    rank: int
    prize: int | None = None          # cents; None: no prize line
    currency: str = ""


@dataclass
class TournamentHandText:
    """A tournament hand as fpdb reads it."""

    hand: str
    tournament: int
    buy_in: int                        # cents
    fee: int
    currency: str                      # USD, EUR, GBP, play, FREE (fpdb's buyinCurrency)
    game: str
    limit: str
    level: int
    stakes: tuple[int, int]
    table: int
    max_seats: int
    button: int | None
    seats: dict[str, int] = field(default_factory=dict)       # name -> seat
    start: dict[str, int] = field(default_factory=dict)       # name -> chips at the start
    end: dict[str, int] = field(default_factory=dict)         # name -> chips at the end
    places: list[Place] = field(default_factory=list)


def read_hand(text: str) -> TournamentHandText:
    """The hand as fpdb takes it; AssertionError naming the line a tracker would not read."""
    lines = text.rstrip("\n").split("\n")
    hand = _read_header(lines[0], lines[1])
    i = 2
    while i < len(lines) and (m := SEAT.fullmatch(lines[i])):
        hand.seats[m["name"]] = int(m["seat"])
        hand.start[m["name"]] = int(m["chips"])
        i += 1
    assert hand.seats, f"no seat lines: {text}"
    put, won = _read_chips(lines[i:], hand)
    for name in hand.start:
        hand.end[name] = hand.start[name] - put[name] + won[name]
        assert 0 <= hand.end[name], (name, text)
    assert sum(hand.end.values()) == sum(hand.start.values()), text
    return hand


def _read_header(first: str, second: str) -> TournamentHandText:
    """The hand's first two lines: the tournament, its buy-in, the game, level and stakes; the table."""
    h = HEADER.fullmatch(first)
    assert h, f"not a tournament header fpdb reads: {first!r}"
    t = TABLE.fullmatch(second)
    assert t, f"not a tournament table line fpdb reads: {second!r}"
    assert t["tourno"] == h["tourno"], (first, second)
    if h["freeroll"]:
        currency, buy_in, fee = "FREE", 0, 0
    else:
        currency = SYMBOLS[h["sym"]] if h["sym"] else "play"
        assert (h["iso"] or None) == (currency if h["sym"] else None), first
        buy_in, fee = cents(h["biamt"]), cents(h["birake"])
    return TournamentHandText(h["hand"], int(h["tourno"]), buy_in, fee, currency, h["game"], h["limit"],
                              from_roman(h["level"]), (int(h["sb"]), int(h["bb"])), int(t["table"]),
                              int(t["max"]), int(t["button"]) if t["button"] else None)


def _read_chips(lines: list[str], hand: TournamentHandText) -> tuple[dict[str, int], dict[str, int]]:
    """The lines after the seats, up to the summary: (chips each player put in, chips each won);
    the places the hand's lines announce go to `hand.places`."""
    put = dict.fromkeys(hand.start, 0)          # chips each player put in
    now = dict.fromkeys(hand.start, 0)          # ... in this betting round
    won = dict.fromkeys(hand.start, 0)
    for line in lines:
        if line.startswith("*** SUMMARY ***"):
            break
        if line.startswith("*** ") or _DRAW.fullmatch(line):
            # A new betting round: after a street's line, or a draw (single draw has no line); the
            # first street's line comes after the blinds, which are bets of its round.
            if line not in _FIRST_STREETS:
                now = dict.fromkeys(hand.start, 0)
            continue
        line = line.removesuffix(_ALLIN)
        if m := _ANTE.fullmatch(line):
            put[m["name"]] += int(m["amount"])
        elif m := (_BLIND.fullmatch(line) or _BRING_IN.fullmatch(line) or _CALL.fullmatch(line)
                   or _BET.fullmatch(line)):
            put[m["name"]] += int(m["amount"])
            now[m["name"]] += int(m["amount"])
        elif m := _RAISE.fullmatch(line):
            added = int(m["to"]) - now[m["name"]]
            assert added > 0 and int(m["by"]) > 0, line
            put[m["name"]] += added
            now[m["name"]] = int(m["to"])
        elif m := _UNCALLED.fullmatch(line):
            put[m["name"]] -= int(m["amount"])
        elif m := _COLLECTED.fullmatch(line):
            won[m["name"]] += int(m["amount"])
        elif place := _place(line):
            hand.places.append(place)
    return put, won


def _place(line: str) -> Place | None:
    """A line saying where a player finished (and what he won), as fpdb reads it."""
    if m := WINS.fullmatch(line):
        return Place(m["name"], 1, cents(m["amount"]), m["sym"])
    if m := RECEIVED.fullmatch(line):
        return Place(m["name"], int(m["rank"]), cents(m["amount"]), m["sym"])
    if m := RANKED.fullmatch(line):
        return Place(m["name"], int(m["rank"]))
    return None


# ------------------------------------------------------------------------------------------ summaries

_LS = "$€£"
SUMMARY_HEAD = re.compile(
    r"PokerStars Tournament #(?P<tourno>\d+), (?:(?P<limit>" + _LIMIT + r") )?(?P<game>" + _GAME + r")\n"
    r"(?:.*\n)*?"                                          # fpdb skips lines (names, kinds) up to the buy-in
    r"(?:Buy-In: (?P<cur>[" + _LS + r"]?)(?P<buyin>[,.0-9]+)/[" + _LS + r"]?(?P<fee>[,.0-9]+)"
    r"(?:/[" + _LS + r"]?(?P<bounty>[,.0-9]+))?(?: (?P<iso>USD|EUR|GBP))?\n)?"
    r"(?P<entries>\d+) players\n"
    r"(?:[" + _LS + r"]?(?P<added>[,.0-9]+)(?: (?:USD|EUR|GBP))? added to the prize pool by PokerStars\n)?"
    r"(?:Total Prize Pool: [" + _LS + r"]?(?P<pool>[,.0-9]+)[^\n]*\n)?"
    r"(?:Target Tournament .*\n)?"
    r"Tournament started " + _WHEN.replace("?P<et>", "?P<started>") + r"\n"
    r"(?:Tournament finished (?P<finished>.*)\n)?")
SUMMARY_PLAYER = re.compile(
    r" *(?P<rank>\d+): (?P<name>.+?)(?: \[(?P<entry>\d+)\])? \(.+?\),"
    r"(?: (?P<cur>[" + _LS + r"]?)(?P<winnings>[,.0-9]+) \((?P<share>[.0-9]+)%\)| (?P<playing>still playing))? *")
SUMMARY_RANK = re.compile(r"^You finished (?:the tournament )?in (?P<rank>\d+)(?:st|nd|rd|th) place\.", re.M)


@dataclass
class SummaryText:
    tournament: int
    limit: str | None
    game: str
    currency: str                     # USD, EUR, GBP, play, FREE
    buy_in: int
    fee: int
    entries: int
    pool: int | None
    added: int | None
    finished: bool
    players: list[dict]               # rank, name, entry, winnings (cents or None), share, playing
    hero_rank: int | None


def read_summary(text: str) -> SummaryText:
    h = SUMMARY_HEAD.match(text.removeprefix("\ufeff"))
    assert h, f"not a summary fpdb reads: {text[:300]!r}"
    def money(amount: str) -> int:
        return cents(amount.replace(",", ""))

    if h["buyin"] is None or (money(h["buyin"]) == 0):
        currency = "FREE"
    elif h["cur"]:
        currency = SYMBOLS[h["cur"]]
    else:
        currency = "play"
    rows = []
    for line in text.split("\n"):
        m = SUMMARY_PLAYER.fullmatch(line)
        if m:
            rows.append({"rank": int(m["rank"]), "name": m["name"], "entry": int(m["entry"] or 1),
                         "winnings": money(m["winnings"]) if m["winnings"] else None,
                         "share": m["share"], "playing": bool(m["playing"])})
    r = SUMMARY_RANK.search(text)
    return SummaryText(int(h["tourno"]), h["limit"], h["game"], currency,
                       money(h["buyin"]) if h["buyin"] else 0, money(h["fee"]) if h["fee"] else 0,
                       int(h["entries"]), money(h["pool"]) if h["pool"] else None,
                       money(h["added"]) if h["added"] else None, h["finished"] is not None, rows,
                       int(r["rank"]) if r else None)
