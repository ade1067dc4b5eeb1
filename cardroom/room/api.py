"""The client API's records and errors: what a session may see of the room.

A session (TUI over SSH, hot-seat, a bot, a test) holds a `RoomClient` (client.py) for one account.
It registers one callback; the room calls it, with no arguments, whenever something the client
can see has changed; the client then reads `client.view(table)`, `client.lobby()` or
`client.my_money()` in its own task. Intents (join, buy in, act, chat ...) are methods that
either do what was asked or raise a `RoomError` whose message is fit to show, changing nothing.

A `TableView` is built for one account: other players' hidden cards are not in it at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from cardroom.engine.cards import Card


class RoomError(ValueError):
    """An intent the room refused; the message says why. Nothing changed."""


class NotSeated(RoomError):
    pass


class SeatTaken(RoomError):
    pass


class BadBuyIn(RoomError):
    pass


class NotAllowedNow(RoomError):
    pass


class ChatRefused(RoomError):
    pass


class TableClosed(RoomError):
    pass


AUTO_ACTIONS = ("ask", "check/fold", "check/call", "bet/call", "raise", "fold")
AUTO_LABELS = {"ask": "Ask Me", "check/fold": "Check/Fold", "check/call": "Check/Call",
               "bet/call": "Bet/Call", "raise": "Raise It", "fold": "Fold in Turn"}


@dataclass(frozen=True, slots=True)
class TableSummary:
    """One row of the lobby."""

    name: str
    game: str
    stakes: str            # "$2/$4 Limit"
    seats: int
    players: int
    waiting: int
    railbirds: int
    average_pot: int       # cents, over recent hands
    seeing_flop: int       # percent of players who saw the flop / the draw
    hands_per_hour: int
    status: str            # "open", "paused", "closed"


@dataclass(frozen=True, slots=True)
class SeatState:
    number: int            # 1..seats
    name: str              # "" for an empty seat
    stack: int
    bet: int
    status: str            # "empty", "waiting", "active", "folded", "all-in", "protected", "sitting out"
    connected: bool = True
    cards: tuple[Card | None, ...] = ()   # None = face down to this viewer
    up: tuple[bool, ...] = ()
    shown: bool = False
    is_button: bool = False
    acting: bool = False
    held_for: str = ""     # a wait-lister this empty seat is held for


@dataclass(frozen=True, slots=True)
class ChatLine:
    kind: str              # "player", "dealer", "system"
    name: str
    text: str              # sanitised; render with markup off
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class TableRules:
    """The table's own rules, for the help screen."""

    game: str
    structure: str
    stakes: str
    cap: int | None
    rake: str
    action_seconds: int
    sit_out_minutes: int
    house: tuple[str, ...]
    min_buy_in: int
    max_buy_in: int | None


@dataclass(frozen=True, slots=True)
class TableView:
    name: str
    game: str
    stakes: str
    status: str
    seats: tuple[SeatState, ...]
    board: tuple[Card, ...]
    pots: tuple[int, ...]
    hand_id: str
    phase: str                     # "waiting", "bet", "draw", "showdown", "done"
    street: str
    my_seat: int | None            # seat number, None for a railbird
    my_cards: tuple[Card, ...]
    legal: object | None           # engine Legal when it is my decision
    acting_seat: int | None
    seconds_left: float | None     # on the acting player's clock
    countdown: int | None          # whole seconds shown in the last 10 s, else None
    auto_action: str               # one of AUTO_ACTIONS
    auto_blind: bool
    sitting_out: bool
    draw_counts: dict = field(default_factory=dict)   # seat number -> cards drawn, while public
    chat: tuple[ChatLine, ...] = ()
    railbirds: tuple[str, ...] = ()
    waiting_list: tuple[str, ...] = ()
    rules: TableRules | None = None
    buy_in: tuple[int, int | None, int] | None = None  # (min, max, default) when I may buy in
    pending_chips: int = 0          # a stake change waiting for the hand to end
    table_chips: int = 0            # my chips here as a change of stake counts them (Seat.table_chips)
    missed_blinds: bool = False     # I must post missed blinds or wait for the big blind
    missed_posts: tuple[int, int] = (0, 0)   # what posting them costs: (live, dead)
    new_player: bool = False        # I sat down in a game under way: post a big blind now or wait for it
    message: str = ""               # the last thing the table said to me (a page, a timeout ...)
    blind_prompt: int = 0           # Auto Blind off: the blind I am asked to post now (0: none)
    leaving: bool = False           # my seat is being left (it goes when the hand ends): not one of my tables
    decision: str = ""              # names the decision I am asked now (a bet, a draw, the blind), "" if none:
                                    # my answer carries it back (actions.Act, PostBlind), so it cannot answer the next
    tournament: TournamentLine | None = None   # at a tournament's table: where it stands (None: a cash game)


# ------------------------------------------------------------------------------ tournaments
# Money (buy-in, fee, prizes) is cents; chips (stacks, blinds) are tournament chips. Times are
# seconds as of `at` (the client's `now()` when the record was made), so a screen counts down
# without asking again; None where there is nothing to count (paused, the last level).

TOURNAMENT_STATES = ("registering", "late registration", "running", "on break", "paused", "finished",
                     "cancelled")


@dataclass(frozen=True, slots=True)
class TournamentSummary:
    """One row of the lobby's tournaments: one instance of a config.toml tournament."""

    number: int                    # "Tournament #N": what Register and the tournament view name
    name: str                      # the tournament's name (config.toml)
    game: str                      # "Hold'em", "Draw Lo" ...
    structure: str                 # "No Limit", "Pot Limit", "Limit"
    kind: str                      # "sit-and-go" or "scheduled"
    buy_in: int                    # cents, to the prize pool
    fee: int                       # cents, the house's
    entries: int                   # registered so far (re-entries count)
    max_entries: int | None        # None: no limit
    state: str                     # one of TOURNAMENT_STATES
    starts_in: float | None        # a scheduled start still to come; a sit & go starts when full
    starts_at: datetime | None     # that start (UTC)
    players_left: int
    prize_pool: int                # cents, for the entries so far
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class TournamentLevel:
    number: int                    # from 1
    stakes: str                    # "10/20 ante 2" (chips), stud "ante 2, bring-in 5, 20/40"
    minutes: int
    break_after: int = 0           # minutes of break after this level, 0: none


@dataclass(frozen=True, slots=True)
class TournamentPlayer:
    """One entry in the standings: chips, table and seat while in; place and prize once out."""

    name: str
    entry: int
    chips: int
    table: str | None              # the room's name of his table (watch it), None when out
    seat: int | None
    place: int | None
    prize: int = 0                 # cents


@dataclass(frozen=True, slots=True)
class TournamentTable:
    number: int                    # the tournament's table number ("table 3")
    name: str                      # the room's table name: watch it as a railbird
    players: int
    hand_live: bool


@dataclass(frozen=True, slots=True)
class TournamentView:
    """A tournament's lobby, for one account."""

    summary: TournamentSummary
    levels: tuple[TournamentLevel, ...]
    level: int                     # the level in force, from 1; 0 before the start
    payouts: tuple[int, ...]       # cents each paid place wins for the entries so far, first first
    tables: tuple[TournamentTable, ...]
    players: tuple[TournamentPlayer, ...]   # players in (most chips first), then those out (best first)
    me: TournamentPlayer | None    # my latest entry, if I have one
    my_rank: int | None            # among the players in, by chips
    registered: bool               # I have an entry that is in (before the start: I may unregister)
    may_register: str              # "" if I may register (or re-enter) now, else why not
    late_registration: bool        # open now
    hand_for_hand: bool
    paused: bool


@dataclass(frozen=True, slots=True)
class TournamentLine:
    """What a tournament table's view says of its tournament."""

    number: int
    name: str
    table: int                     # this table's number in the tournament
    level: int                     # from 1
    stakes: str                    # the level's blinds and antes (bring-in for stud), chips
    next_level_in: float | None    # seconds as of `at`
    next_break_in: float | None
    on_break: bool
    paused: bool
    hand_for_hand: bool
    players_left: int
    entrants: int
    average_stack: int
    my_rank: int | None            # among the players in, by chips (None: a railbird)
    hold: str                      # why this table is not dealing now ("" when it may)
    at: float = 0.0


@dataclass(frozen=True, slots=True)
class MyMoney:
    balance: int
    on_tables: dict                 # table name -> chips
    @property
    def total(self) -> int:
        return self.balance + sum(self.on_tables.values())
