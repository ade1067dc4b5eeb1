"""`RoomClient`: all a session's screens know of the room, in this process or across the bus.

The TUI (an SSH session, hot-seat, a test) holds one `RoomClient` for one account and cannot tell
where the room is: `LocalClient` is the room in this process (`Room.connect` / `Room.login` make
the `Session` it wraps); `cardroom.bus.client.RemoteClient` is a room of table hosts reached over
NATS. The same contract tests (tests/bus/test_contract.py) run on both.

Two kinds of call:
- what the room has already told this client, read without waiting: `view`, `lobby`,
  `my_tables`, `waiting_for_me`, `pages`, `closed`, `now`;
- what has to be asked of the room or its records, awaited: every intent, `send(table, action)`
  with an action record of room/actions.py (or its friendly method: `join`, `buy_in`, `act`,
  `chat` ..., written once for both clients in `actions.Intents`), and every read of the store
  (money, keys, hands, preferences). An intent either does what was asked or raises a
  `RoomError` whose message is fit to show, changing nothing; once it returns, `view(table)`
  already shows what it did.

`on_change(callback)`: the room calls `callback()` (no arguments, on the loop) whenever something
this client can see has changed; the client's owner then reads what it needs in its own task.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from cardroom.room import api
from cardroom.room.actions import Action, Intents, RoomAction

if TYPE_CHECKING:
    from cardroom.room.history import PlayerHand
    from cardroom.room.room import Session


@runtime_checkable
class RoomClient(Intents, Protocol):
    name: str
    account_id: int
    fingerprint: str | None     # the key this session logged in with (None: no key)
    is_admin: bool

    @property
    def pages(self) -> list[str]:
        """What the room paged this session (a seat offered, an admin's word ...), newest last."""
        ...

    @property
    def closed(self) -> bool:
        """Ended: logged out, taken over by a newer login, kicked or banned."""
        ...

    @property
    def taken_over(self) -> bool: ...

    def on_change(self, callback: Callable[[], None]) -> None: ...

    def on_end(self, callback: Callable[[str], None]) -> None:
        """`callback(reason)` ends the session this client belongs to (over ssh: hangs up)."""
        ...

    def close(self) -> None:
        """The session ended (or the connection dropped): seats are kept, marked disconnected."""
        ...

    def now(self) -> float:
        """Seconds on the clock the views' `seconds_left` counts down on."""
        ...

    # -- known without asking ---------------------------------------------------------------------
    def lobby(self) -> list[api.TableSummary]: ...

    def view(self, table: str) -> api.TableView: ...

    def my_tables(self) -> list[str]: ...

    def waiting_for_me(self) -> list[str]: ...

    def tournaments(self) -> list[api.TournamentSummary]:
        """The lobby's tournaments (RemoteClient: none yet, tournaments are a one-process room's)."""
        ...

    def tournament(self, number: int) -> api.TournamentView:
        """Tournament `number`'s lobby as this account sees it; RoomError if there is none."""
        ...

    # -- asked of the room ------------------------------------------------------------------------
    async def my_money(self) -> api.MyMoney: ...

    async def keys(self) -> tuple[str, ...]: ...

    async def add_key(self, public_key: str) -> str: ...

    async def remove_key(self, fingerprint: str) -> None: ...

    async def preferences(self) -> dict[str, str]: ...

    async def save_preferences(self, values: dict[str, str]) -> None: ...

    async def hands(self, limit: int = 20, offset: int = 0) -> list: ...

    async def hand(self, hand_id: str) -> PlayerHand: ...

    async def tournament_summary(self, number: int) -> str:
        """My PokerStars summary of tournament `number` (RoomError: not mine, not started)."""
        ...

    async def send(self, table: str, action: Action) -> Any:
        """Do `action` at `table` (awaited): its answer, or a RoomError and nothing changed. The
        friendly methods (Intents: `join`, `act` ...) return this to await."""
        ...

    async def ask(self, action: RoomAction) -> Any:
        """Do a room-level action (Register, Unregister: `register`, `unregister`), awaited."""
        ...


class LocalClient(Intents):
    """The room in this process: each call is the `Session`'s own, run on the loop at once (the
    store's writes still go through the room's writer)."""

    def __init__(self, session: Session) -> None:
        self.session = session

    # -- who ----------------------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.session.name

    @property
    def account_id(self) -> int:
        return self.session.account_id

    @property
    def fingerprint(self) -> str | None:
        return self.session.fingerprint

    @property
    def is_admin(self) -> bool:
        return self.session.is_admin

    @is_admin.setter
    def is_admin(self, value: bool) -> None:
        self.session.is_admin = value

    @property
    def pages(self) -> list[str]:
        return self.session.pages

    @property
    def closed(self) -> bool:
        return self.session.closed

    @property
    def taken_over(self) -> bool:
        return self.session.taken_over

    def on_change(self, callback: Callable[[], None]) -> None:
        self.session.on_change(callback)

    def on_end(self, callback: Callable[[str], None]) -> None:
        self.session.on_end(callback)

    def close(self) -> None:
        self.session.close()

    def now(self) -> float:
        return self.session.room.clock.now()

    # -- known without asking -------------------------------------------------------------------------
    def lobby(self) -> list[api.TableSummary]:
        return self.session.lobby()

    def view(self, table: str) -> api.TableView:
        return self.session.view(table)

    def my_tables(self) -> list[str]:
        return self.session.my_tables()

    def waiting_for_me(self) -> list[str]:
        return self.session.waiting_for_me()

    def tournaments(self) -> list[api.TournamentSummary]:
        return self.session.tournaments()

    def tournament(self, number: int) -> api.TournamentView:
        return self.session.tournament(number)

    # -- asked of the room ------------------------------------------------------------------------------
    async def my_money(self) -> api.MyMoney:
        return self.session.my_money()

    async def keys(self) -> tuple[str, ...]:
        return self.session.keys()

    async def add_key(self, public_key: str) -> str:
        return await self.session.add_key(public_key)

    async def remove_key(self, fingerprint: str) -> None:
        await self.session.remove_key(fingerprint)

    async def preferences(self) -> dict[str, str]:
        return self.session.preferences()

    async def save_preferences(self, values: dict[str, str]) -> None:
        self.session.save_preferences(values)

    async def hands(self, limit: int = 20, offset: int = 0) -> list:
        return self.session.hands(limit=limit, offset=offset)

    async def hand(self, hand_id: str) -> PlayerHand:
        return self.session.hand(hand_id)

    async def tournament_summary(self, number: int) -> str:
        return self.session.tournament_summary(number)

    async def send(self, table: str, action: Action) -> Any:
        return self.session.send(table, action)

    async def ask(self, action: RoomAction) -> Any:
        return await self.session.ask(action)


def as_client(client) -> RoomClient:
    """What a screen talks to: a `Session` of this process's room gets its `LocalClient`; any
    RoomClient (a LocalClient, a gateway's RemoteClient) is itself."""
    from cardroom.room.room import Session
    return LocalClient(client) if isinstance(client, Session) else client
