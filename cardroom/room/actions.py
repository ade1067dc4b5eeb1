"""What a player may ask of a table, each action declared once as a small frozen record.

    session.send(table, Act("raise", 800))          # the room in this process: done, or RoomError
    await client.send(table, Act("raise", 800))     # any RoomClient, in this process or over the bus
    await client.act(table, "raise", 800)           # the same, through its friendly method (Intents)

A record is all there is to an action outside the table: its class name gives its verb (`BuyIn`
-> "buy_in"), which names it on the bus; its fields, with their types, are all it carries, which
is how the bus codec encodes it and checks what it decodes; and its handler at the table
(`cardroom.room.table`, registered with `handles`) is what it does. Adding an action is one
record here and one handler there: nothing in the clients, the Session, the RoomClient protocol
or the codec (`send` carries any record; a friendly method is a nicety for the old ones).

An action that answers a decision names it (`decision`, the token the seat's view showed:
`TableView.decision`): a key pressed for the last decision is refused when it arrives at the
next one. Left empty it answers whatever is asked now (bots, tests, scripts).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from cardroom.engine.cards import Card

# verb -> record class, every action there is (filled as the records below are declared)
ACTIONS: dict[str, type[Action]] = {}


class Action:
    """The base of every action record: its verb, and whether it wakes the table's watchers."""

    verb: ClassVar[str]
    # A quiet action wakes the watchers only if its handler says something changed (calls
    # Table.changed); the table's observers (the bus's table host) hear of it anyway. A
    # railbird's coming and going changes only the rail and wakes nobody (it did over the bus:
    # every session at a table redrew for each railbird that came, quadratic in the railbirds).
    quiet: ClassVar[bool] = False

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.verb = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", cls.__name__).lower()
        ACTIONS[cls.verb] = cls


@dataclass(frozen=True)
class Watch(Action):
    """Railbird the table: its changes wake me. Answers with my view of it."""

    quiet: ClassVar[bool] = True


@dataclass(frozen=True)
class Unwatch(Action):
    quiet: ClassVar[bool] = True


@dataclass(frozen=True)
class Join(Action):
    """Take a seat (by default the first free one clockwise from seat 2); watches the table too,
    even if the seat is refused. Answers with the seat's number."""

    seat: int | None = None


@dataclass(frozen=True)
class BuyIn(Action):
    """Buy in, or add chips (a change of table stake: after the hand in progress)."""

    cents: int


@dataclass(frozen=True)
class Act(Action):
    """My decision in the hand: "fold", "check", "call", "bet", "raise", "complete", "bring-in"
    (amount: the total to bet to), "draw" (discards), "stand pat"."""

    kind: str
    amount: int = 0
    discards: tuple[Card, ...] = ()
    decision: str = ""


@dataclass(frozen=True)
class SetAuto(Action):
    """An auto action for my next decision (one of api.AUTO_ACTIONS)."""

    auto: str


@dataclass(frozen=True)
class SetAutoBlind(Action):
    on: bool


@dataclass(frozen=True)
class PostBlind(Action):
    """Answer the blind prompt (Auto Blind off): post, or decline and sit out."""

    post: bool = True
    decision: str = ""


@dataclass(frozen=True)
class PostOrWait(Action):
    """New, or back after missing blinds: post as soon as I may (True) or wait for the big blind."""

    post: bool


@dataclass(frozen=True)
class SitOut(Action):
    pass


@dataclass(frozen=True)
class SitIn(Action):
    pass


@dataclass(frozen=True)
class Leave(Action):
    """Give the seat up: at once between hands, else folded when the action reaches me and gone
    when the hand ends."""


@dataclass(frozen=True)
class JoinWaitList(Action):
    """Wait for a seat at a full table (paged when one opens). Answers with my place."""


@dataclass(frozen=True)
class LeaveWaitList(Action):
    pass


@dataclass(frozen=True)
class Chat(Action):
    """A chat line, or (dealer) a question to the dealer, who answers how many cards a player
    drew while that is public. Answers with the dealer's answer, or None."""

    text: str
    dealer: bool = False


@dataclass(frozen=True)
class Ready(Action):
    """Hot-seat: I have the device; my decision clock may start. Quiet: the hot-seat app sends
    it whenever the room changes, so it wakes the watchers only when a clock did start (else
    each answered the other for ever)."""

    quiet: ClassVar[bool] = True


# ------------------------------------------------------------------ what a player asks of the room

# verb -> record class, every room-level action there is
ROOM_ACTIONS: dict[str, type[RoomAction]] = {}


class RoomAction:
    """An action asked of the room rather than of one table (a tournament's registration): a
    record declared as a table's are, sent with `ask(action)` on either client; its handler is
    the room's (cardroom.room.tournaments.lobby, registered with `handles`)."""

    verb: ClassVar[str]

    def __init_subclass__(cls, **kw: Any) -> None:
        super().__init_subclass__(**kw)
        cls.verb = re.sub(r"(?<=[a-z])(?=[A-Z])", "_", cls.__name__).lower()
        ROOM_ACTIONS[cls.verb] = cls


@dataclass(frozen=True)
class Register(RoomAction):
    """Enter tournament number `tournament` (its buy-in and fee leave my balance; a re-entry in
    late registration where it allows). Answers with my entry's number."""

    tournament: int


@dataclass(frozen=True)
class Unregister(RoomAction):
    """Before its start: leave tournament number `tournament`; my buy-in and fee come back."""

    tournament: int


class Caller(Protocol):
    """Who sends an action, as its handler at the table needs to know him (the Session)."""

    account_id: int
    name: str

    def notify(self) -> None:
        """Wake this caller's screens: what a watch of the table calls at each change."""

    def chat_line(self, text: str) -> str:
        """`text` as a chat line this caller may say now (cleaned), or ChatRefused: muted,
        nothing to say, chatting too fast. The caller's own: his mute, his pace."""


class Intents(Protocol):
    """The friendly method of each action a screen sends, written once for every sender: the
    Session (whose `send` does it at once and returns the answer) and both RoomClients (whose
    `send` is a coroutine: each method here then returns one to await). Actions added later need
    none: `send(table, Record(...))`."""

    def send(self, table: str, action: Action) -> Any:
        """Do `action` at `table`: its answer, or a RoomError whose message is fit to show and
        nothing changed. Once done, `view(table)` shows what it did."""

    def watch(self, table: str) -> Any:
        return self.send(table, Watch())

    def unwatch(self, table: str) -> Any:
        return self.send(table, Unwatch())

    def join(self, table: str, seat: int | None = None) -> Any:
        return self.send(table, Join(seat))

    def buy_in(self, table: str, cents: int) -> Any:
        return self.send(table, BuyIn(cents))

    add_chips = buy_in   # "Change Table Stake": between hands, or after the hand in progress

    def act(self, table: str, kind: str, amount: int = 0, discards=(), decision: str = "") -> Any:
        return self.send(table, Act(kind, amount, tuple(discards), decision))

    def set_auto(self, table: str, auto: str) -> Any:
        return self.send(table, SetAuto(auto))

    def set_auto_blind(self, table: str, on: bool) -> Any:
        return self.send(table, SetAutoBlind(on))

    def post_blind(self, table: str, post: bool = True, decision: str = "") -> Any:
        return self.send(table, PostBlind(post, decision))

    def post_or_wait(self, table: str, post: bool) -> Any:
        return self.send(table, PostOrWait(post))

    def sit_out(self, table: str) -> Any:
        return self.send(table, SitOut())

    def sit_in(self, table: str) -> Any:
        return self.send(table, SitIn())

    def leave(self, table: str) -> Any:
        return self.send(table, Leave())

    def join_wait_list(self, table: str) -> Any:
        return self.send(table, JoinWaitList())

    def leave_wait_list(self, table: str) -> Any:
        return self.send(table, LeaveWaitList())

    def chat(self, table: str, text: str, *, dealer: bool = False) -> Any:
        return self.send(table, Chat(text, dealer))

    def ready(self, table: str) -> Any:
        return self.send(table, Ready())

    def ask(self, action: RoomAction) -> Any:
        """Do a room-level `action` (awaited on every client): its answer, or a RoomError."""

    def register(self, tournament: int) -> Any:
        return self.ask(Register(tournament))

    def unregister(self, tournament: int) -> Any:
        return self.ask(Unregister(tournament))
