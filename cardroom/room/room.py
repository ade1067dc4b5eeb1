"""The room: its tables, its accounts service, and the API of one account's session.

    room = Room(tables=[TableSettings(...)], store=SqliteStore(path), clock=LoopClock(),
                writer=StoreWriter())              # the store's writes off the loop
    room.start()                                   # voids hands a crash cut off; returns stray chips
    session = await room.login("alice", fingerprint)   # one Session per login
    session.on_change(lambda: app.post_message(Refresh()))
    session.watch("Planet Hold'em $2/$4"); session.join(...); session.buy_in(..., 10_000)
    session.act(table, "raise", 800); session.view(table) -> TableView
    session.send(table, Act("raise", 800))   # the same: each intent is an action record (actions.py)
    LocalClient(session)            # what a session's screens hold (cardroom.room.client)

Every intent runs on the loop and returns or raises a RoomError (the message is for the user).
What an intent writes to the store is recorded by the writer (`cardroom.room.writer`) after it
returns; a write the store then refuses comes back to the player as a page.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import logging
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, TypeVar

from cardroom.engine.tournament import TournamentSpec
from cardroom.room import api
from cardroom.room.actions import Action, Intents, RoomAction
from cardroom.room.api import RoomError
from cardroom.room.clock import Clock
from cardroom.room.ports import Account, Refused, Store, StoreError
from cardroom.room.table import Table, TablePolicy, TableSettings
from cardroom.room.tournaments import Tournaments
from cardroom.room.writer import InlineWriter, Writer

log = logging.getLogger("cardroom.room")
T = TypeVar("T")

_BUSY = "the card room's records are busy: please try again in a minute"


def room_error(e: StoreError) -> RoomError:
    """What a player reads of a store error: a refusal says why; a failure is ours (logged)."""
    if isinstance(e, Refused):
        return RoomError(str(e))
    log.error("the store failed: %s", e)
    return RoomError(_BUSY)


_KEY_TYPES = ("ssh-ed25519", "ssh-rsa", "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
              "sk-ssh-ed25519@openssh.com", "sk-ecdsa-sha2-nistp256@openssh.com")


_PREFERENCE_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}", re.ASCII)
PREFERENCE_VALUE_MAX = 64
PREFERENCES_MAX = 32          # names one account may keep


def key_fingerprint(public_key: str) -> str:
    """The SHA256 fingerprint (as `ssh-keygen -l` prints it) of an OpenSSH public key line."""
    parts = public_key.strip().split()
    if len(parts) < 2 or parts[0] not in _KEY_TYPES or len(parts[1]) > 16_384:
        raise RoomError("paste a public key line: ssh-ed25519 AAAA... (from your .pub file)")
    try:
        blob = base64.b64decode(parts[1], validate=True)
    except (binascii.Error, ValueError):
        raise RoomError("that key is not valid base64") from None
    # The blob starts with its own type name: a length-prefixed string.
    n = int.from_bytes(blob[:4], "big") if len(blob) >= 4 else -1
    if n <= 0 or blob[4:4 + n].decode("ascii", "replace") != parts[0]:
        raise RoomError("that key's data does not match its type")
    digest = base64.b64encode(hashlib.sha256(blob).digest()).decode().rstrip("=")
    return "SHA256:" + digest


def check_preferences(values: dict[str, str], kept: Iterable[str]) -> None:
    """RoomError unless `values` may be kept beside the preferences called `kept`: short
    lower-case names, short printable text, PREFERENCES_MAX names in all."""
    if not isinstance(values, dict):
        raise RoomError("preferences are names and values")
    for name, value in values.items():
        if not (isinstance(name, str) and _PREFERENCE_NAME.fullmatch(name)):
            raise RoomError(f"{str(name)[:40]!r} is not a preference name")
        if not (isinstance(value, str) and len(value) <= PREFERENCE_VALUE_MAX and value.isprintable()):
            raise RoomError(f"the value of {name} is not short printable text")
    if len(set(kept) | set(values)) > PREFERENCES_MAX:
        raise RoomError("too many preferences")


@dataclass(frozen=True, slots=True)
class RoomSettings:
    starting_money: int = 100_000          # cents for a new account
    timeout_allin_quota: int = 2           # protected all-ins a day
    chat_max_len: int = 200
    chat_burst: int = 5                    # lines at once
    chat_per_second: float = 0.5           # then this many a second


# Seconds left at which a shutdown's countdown warns everyone again (those under its length).
SHUTDOWN_WARNINGS = (3600, 1800, 900, 600, 300, 240, 180, 120, 60, 30, 10)


def span(seconds: float) -> str:
    """A countdown's time left for people: "5 minutes", "1 minute 30 seconds", "10 seconds"."""
    minutes, secs = divmod(max(1, round(seconds)), 60)
    parts = [f"{n} {unit}{'s' if n != 1 else ''}" for n, unit in ((minutes, "minute"), (secs, "second")) if n]
    return " ".join(parts)


class Room:
    def __init__(self, tables: list[TableSettings], store: Store, clock: Clock, *,
                 settings: RoomSettings | None = None, rng=None, writer: Writer | None = None,
                 tournaments: Iterable[TournamentSpec] = (), tournament_table: TableSettings | None = None) -> None:
        self.settings = settings or RoomSettings()
        self.store = store
        self.clock = clock
        self.rng = rng
        self.writer = writer or InlineWriter()
        self.tables: dict[str, Table] = {}
        self.clients: dict[int, list[Session]] = {}   # account -> live clients
        self.muted: set[int] = store.muted_accounts()   # kept in the store too: mutes outlive a restart
        # A shutdown under way (shutdown_in): when dealing stops, its timers, and what stops the server.
        self.closing_at: float | None = None
        self.draining = False            # dealing has stopped: the room waits for the hands in progress
        self._shutdown_timers: list = []
        self._stop: Callable[[], None] | None = None
        for t in tables:
            self.add_table(t)
        # config.toml's tournaments (room/tournaments): their tables are this room's tables too,
        # each with the tournament's policy; `tournament_table` is what they are like besides.
        self.tournaments = Tournaments(self, tournaments, table=tournament_table, rng=rng)

    def add_table(self, settings: TableSettings, policy: TablePolicy | None = None) -> Table:
        if settings.name in self.tables:
            raise RoomError(f"there is already a table called {settings.name!r}")
        table = Table(settings, self.store, self.clock, rng=self.rng, quota=self._use_quota,
                      page=self.page, writer=self.writer, policy=policy)
        self.tables[settings.name] = table
        return table

    def remove_table(self, table: Table) -> None:
        """A table the room no longer deals (a tournament's, broken or over)."""
        if self.tables.get(table.name) is table:
            del self.tables[table.name]

    def start(self) -> list[str]:
        """Start-up: void any hand a crash cut off, return every chip left on a table to its
        owner's balance (nobody is seated in a fresh process), and restore the tournaments the
        store holds where they were (opening those due). Returns the voided hand ids."""
        voided = self.recover()
        self.tournaments.start()
        return voided

    def recover(self) -> list[str]:
        """Void every hand a stop cut off and return every chip on a table to its owner's balance
        (a store write: a server runs it on its writer). Returns the voided hand ids."""
        voided = self.store.void_unfinished_hands()
        for account in self.store.accounts():
            for table, chips in self.store.holdings(account.id).items():
                if chips:
                    self.store.cash_out(account.id, table, chips)
        return voided

    def stop_tables(self) -> None:
        """No table deals again and no decision clock runs (the room is about to close)."""
        for table in self.tables.values():
            table.stop()

    def close(self) -> list[str]:
        """The room stops: no table deals again, a hand still in progress is void and every chip
        on a table goes back to its owner's balance (what start-up would do, done now, so the
        ledger is whole when the process ends); the tournaments wait in the store for the next
        start. Returns the voided hand ids."""
        self.stop_tables()
        self.tournaments.stop()
        return self.recover()

    # ------------------------------------------------------------------ accounts and sessions
    def connect(self, name: str, fingerprint: str | None = None) -> Session:
        """A session for `name`: claims the name with the key (or creates it without one).
        The store's write runs here, on the caller's thread: for a process with no loop to keep
        free (hot-seat, tests); the server logs players in with `login`."""
        try:
            account = self._account(name, fingerprint)
        except StoreError as e:
            raise room_error(e) from None
        return self.open_session(account, fingerprint)

    async def login(self, name: str, fingerprint: str | None = None) -> Session:
        """`connect`, with the store's write on the writer: a busy database holds up this
        login only, and ends it with a RoomError saying so if it stays busy."""
        return self.open_session(await self.write(lambda: self._account(name, fingerprint)), fingerprint)

    async def write(self, call: Callable[[], T]) -> T:
        """A store write on the writer; a refusal or failure comes back as a RoomError."""
        try:
            return await self.writer.run(call)
        except StoreError as e:
            raise room_error(e) from None

    def _account(self, name: str, fingerprint: str | None) -> Account:
        if fingerprint:
            return self.store.claim(name, fingerprint, self.settings.starting_money)
        return self.store.get_or_create(name, self.settings.starting_money)

    def open_session(self, account: Account, fingerprint: str | None,
                     make: Callable[..., Session] | None = None, *, attach: bool = False) -> Session:
        """A session for an account already claimed. `make` builds it (the bus's table host makes
        sessions that also send their pages over the bus); registered here, so pages, broadcasts
        and a newer login reach it. A login takes over the account's older session, which is told
        and ends. `attach`: not a login but a table host attaching the account a gateway serves
        (the host's start, a claim of a table, his first intent there): an older session here is
        only replaced, silently -- the gateways keep one live session per account, and a player
        must never read that he logged in elsewhere because a host claimed a table."""
        client = (make or Session)(self, account, fingerprint)
        client.attached = attach
        older = self.clients.get(account.id, [])
        self.clients[account.id] = [client]
        if attach:
            log.info("attached: %s (account %d), served through a gateway", account.name, account.id)
        else:
            log.info("login: %s (account %d, key %s)%s", account.name, account.id, fingerprint or "none",
                     " takes over the session before" if older else "")
        for old in older:
            if attach:
                old.close()          # replaced (it is no longer the room's client: nothing else moves)
                continue
            # A second login of the same account takes over: the older session is told and ends.
            old.taken_over = True
            old.end("You logged in from somewhere else: this session is closed")
        for table in self.tables.values():
            table.set_connected(account.id, True)
        if self.closing_at is not None:
            client._page(self._closing_words())
        return client

    def _disconnected(self, client: Session) -> None:
        left = self.clients.get(client.account_id, [])
        if client in left:
            left.remove(client)
            log.info("%s: %s", "detached" if client.attached else "logout", client.name)
        if not left:
            self.clients.pop(client.account_id, None)
            for table in self.tables.values():
                table.unwatch(client.account_id)
                table.set_connected(client.account_id, False)

    def page(self, account: int, text: str) -> None:
        for client in list(self.clients.get(account, [])):
            client._page(text)

    def _use_quota(self, account: int) -> bool:
        # Counted in the store, so a restart does not hand out the day's protections again.
        return self.store.use_allin_protection(account, self.clock.wall().date().isoformat(),
                                               self.settings.timeout_allin_quota)

    async def set_muted(self, account: int, muted: bool, admin: str) -> bool:
        """Mute or unmute a player's chat (kept in the store); False if already so."""
        changed = await self.writer.run(lambda: self.store.set_muted(account, muted, admin))
        if muted:
            self.muted.add(account)
        else:
            self.muted.discard(account)
        return changed

    def broadcast(self, text: str) -> None:
        for table in self.tables.values():
            table.say(text, "system", "Room")
            table.changed()
        for clients in list(self.clients.values()):
            for c in clients:
                c._page(text)

    def lobby(self) -> list[api.TableSummary]:
        """The cash tables (a tournament's are in its own lobby)."""
        return [t.summary() for t in self.tables.values() if t.policy.money]

    # ------------------------------------------------------------------ closing the room
    def shutdown_in(self, seconds: float, stop: Callable[[], None]) -> None:
        """Close the room after a countdown, voiding nothing: everyone (every table and every
        session) is told now and again as it runs down (SHUTDOWN_WARNINGS); at zero no new hand
        starts, the hands in progress are played out and settled, and then `stop()` is called
        (serve stops the server). A countdown already running is replaced."""
        if not seconds > 0:
            raise RoomError("a shutdown countdown is longer than zero")
        self._call_off()
        self._stop = stop
        self.closing_at = self.clock.now() + seconds
        log.info("shutdown in %s", span(seconds))
        self.broadcast(self._closing_words())
        for left in SHUTDOWN_WARNINGS:
            if left < seconds:
                self._shutdown_timers.append(self.clock.call_later(
                    seconds - left, lambda: self.broadcast(self._closing_words())))
        self._shutdown_timers.append(self.clock.call_later(seconds, self._stop_dealing))

    def cancel_shutdown(self) -> bool:
        """Call off a shutdown (during its countdown or while its last hands are played out):
        tables deal again. False if none was under way."""
        if self.closing_at is None:
            return False
        self._call_off()
        log.info("shutdown cancelled")
        self.broadcast("The shutdown is cancelled: the room stays open")
        return True

    def _call_off(self) -> None:
        for timer in self._shutdown_timers:
            timer.cancel()
        self._shutdown_timers = []
        self.closing_at, self.draining, self._stop = None, False, None
        for table in self.tables.values():
            if table.closing is not None:
                table.closing = None
                table.maybe_start()

    def _closing_words(self) -> str:
        if self.draining:
            return "The room is closing: no new hands; the hands in progress are played out"
        return (f"The room closes in {span(self.closing_at - self.clock.now())}: then no new hand "
                "starts, and the hands in progress are played out")

    def _stop_dealing(self) -> None:
        self._shutdown_timers = []
        self.draining = True
        log.info("shutdown: no new hands; waiting for the hands in progress")
        self.broadcast(self._closing_words())
        for table in self.tables.values():
            table.closing = self._table_idle
        self._table_idle()

    def _table_idle(self) -> None:
        """A table has no hand in progress: once none has (each one's end recorded by the store),
        the room stops."""
        if not self.draining or not all(t.idle() for t in self.tables.values()):
            return
        stop, self._stop = self._stop, None
        if stop is not None:
            log.info("shutdown: every hand is settled; the room stops")
            stop()

    def table(self, name: str) -> Table:
        try:
            return self.tables[name]
        except KeyError:
            raise RoomError(f"there is no table called {name!r}") from None

    def chips_on_tables(self) -> int:
        """Money on the tables (a tournament's chips are not money)."""
        return sum(t.chips() for t in self.tables.values() if t.policy.money)


class Session(Intents):
    """One account's handle on the room in this process: the room's own API, every call run at
    once on the caller's thread (tests, bots and hot-seat seating use it as it is). Screens get it
    wrapped as a `cardroom.room.client.LocalClient`, the RoomClient of a room in this process.
    Its intents are `send(table, action)` (and the friendly methods of `Intents` that call it);
    it is also who sends them, as the table's handlers know him (actions.Caller)."""

    def __init__(self, room: Room, account: Account, fingerprint: str | None = None) -> None:
        from cardroom.room.ratelimit import TokenBucket
        self.room = room
        self.account_id = account.id
        self.name = account.name
        self.is_admin = account.is_admin
        self.pages: list[str] = []
        self.taken_over = False
        self.attached = False            # a table host's session of an account a gateway serves
        self.fingerprint = fingerprint   # the key this session logged in with (None: no key)
        self._callback: Callable[[], None] | None = None
        self._on_end: Callable[[str], None] | None = None
        s = room.settings
        self._chat_bucket = TokenBucket(s.chat_per_second, s.chat_burst, room.clock.now)
        self.closed = False

    # ------------------------------------------------------------------ plumbing
    def on_change(self, callback: Callable[[], None]) -> None:
        self._callback = callback

    def notify(self) -> None:
        if self._callback is not None and not self.closed:
            self._callback()

    def _page(self, text: str) -> None:
        self.pages.append(text)
        del self.pages[:-20]
        if self._callback is not None:
            self._callback()   # even a client being closed hears why (its UI then ends)

    def on_end(self, callback: Callable[[str], None]) -> None:
        """`callback(reason)` ends the session this client belongs to (over ssh: hangs up)."""
        self._on_end = callback

    def _table(self, name: str) -> Table:
        """The table an intent acts on. A closed client acts on nothing: it may be one a newer
        login took over, or a banned player's whose session has not ended yet."""
        if self.closed:
            raise RoomError("this session is closed")
        return self.room.table(name)

    def close(self) -> None:
        """The session ended (or the connection dropped): seats are kept, marked disconnected."""
        if not self.closed:
            self.closed = True
            self.room._disconnected(self)

    def end(self, reason: str) -> None:
        """The room ends this session (taken over, kicked, banned): it is closed, told why, and
        the session itself is ended with the reason (over ssh: written on his terminal)."""
        if self.closed:
            return
        self.close()
        try:
            self._page(reason)      # what the app hears is already a closed client
        finally:
            if self._on_end is not None:
                self._on_end(reason)

    # ------------------------------------------------------------------ looking
    def lobby(self) -> list[api.TableSummary]:
        return self.room.lobby()

    def my_money(self) -> api.MyMoney:
        # The store's count (a live hand's escrow included: a table another process deals) where
        # no table here says better.
        return api.MyMoney(self.room.store.balance(self.account_id),
                           self.room.store.on_tables(self.account_id) | self._on_tables())

    def _on_tables(self) -> dict:
        out = {}
        for t in self.room.tables.values():
            seat = t.seat_of(self.account_id)
            if seat is not None and t.policy.money:
                out[t.name] = seat.stack + seat.pending_chips
        return out

    def view(self, table: str) -> api.TableView:
        return self.room.table(table).view_for(self.account_id)   # a closed session's last screen too

    def my_tables(self) -> list[str]:
        """Tables where this account is seated; a seat being left (it folds when the action
        reaches it, and goes when the hand ends) is no longer one of them."""
        return [t.name for t in self.room.tables.values()
                if (seat := t.seat_of(self.account_id)) is not None and not seat.leaving]

    def waiting_for_me(self) -> list[str]:
        """Tables where it is this account's decision now (multi-tabling)."""
        return [t.name for t in self.room.tables.values() if t.waiting_on(self.account_id)]

    def tournaments(self) -> list[api.TournamentSummary]:
        """The lobby's tournaments: every instance registering or running, and the last one of
        each that is over."""
        return self.room.tournaments.summaries()

    def tournament(self, number: int) -> api.TournamentView:
        """Tournament number `number`'s lobby, as I see it (RoomError: no such tournament)."""
        return self.room.tournaments.get(number).view(self.account_id)

    def tournament_summary(self, number: int) -> str:
        """My PokerStars summary of tournament `number` (RoomError: I did not play it, it has not
        started): the file trackers import beside its hands."""
        return self.room.tournaments.summary_text(self.account_id, number)

    # ------------------------------------------------------------------ intents
    def send(self, table: str, action: Action) -> Any:
        """Do `action` (an actions.py record) at `table`: its answer, or a RoomError and nothing
        changed."""
        return self._table(table).handle(self, action)

    async def ask(self, action: RoomAction) -> Any:
        """Do a room-level action (actions.py `RoomAction`: Register, Unregister): its answer, or
        a RoomError and nothing changed. A coroutine: it waits for the store (a buy-in)."""
        if self.closed:
            raise RoomError("this session is closed")
        return await self.room.tournaments.handle(self, action)

    def chat_line(self, text: str) -> str:
        """`text` as a chat line I may say now (actions.Caller): not muted, not empty once
        cleaned, not too fast."""
        from cardroom.room.text import clean_text
        if self.account_id in self.room.muted:
            raise api.ChatRefused("you are muted")
        clean = clean_text(text, self.room.settings.chat_max_len)
        if not clean:
            raise api.ChatRefused("nothing to say")
        if not self._chat_bucket.allow():
            raise api.ChatRefused("you are chatting too fast: wait a moment")
        return clean

    # ------------------------------------------------------------------ my keys
    def keys(self) -> tuple[str, ...]:
        """Fingerprints of the SSH keys that may log in as me."""
        return self.room.store.keys(self.account_id)

    async def add_key(self, public_key: str) -> str:
        """Let another key log in as me: an OpenSSH public key line ("ssh-ed25519 AAAA... comment")."""
        fingerprint = key_fingerprint(public_key)
        await self.room.write(lambda: self.room.store.add_key(self.account_id, fingerprint))
        return fingerprint

    async def remove_key(self, fingerprint: str) -> None:
        keys = self.keys()
        if fingerprint not in keys:
            raise RoomError("that key is not one of yours")
        if len(keys) == 1:
            raise RoomError("that is your only key: add another before removing it")
        await self.room.write(lambda: self.room.store.remove_key(self.account_id, fingerprint))

    # ------------------------------------------------------------------ my preferences
    def preferences(self) -> dict[str, str]:
        """What this account chose to keep across logins (the session's display options); {} when
        the store can't say (the session then starts with its defaults)."""
        try:
            return self.room.store.preferences(self.account_id)
        except StoreError:
            log.exception("reading the preferences of %s", self.name)
            return {}

    def save_preferences(self, values: dict[str, str]) -> None:
        """Keep these preferences for my next logins (others already kept stay). Names are short
        lower-case words, values short printable text."""
        check_preferences(values, self.preferences())
        # Through the room's writer, like every store write: a database held busy must not stall
        # the loop. A refusal known at once (the inline writer) is raised; one that comes back
        # later from the writer thread is paged to the player.
        at_once: list[str] = []
        waiting = [True]

        def then(_result, error: Exception | None) -> None:
            if error is None:
                return
            if not isinstance(error, StoreError):
                log.error("keeping preferences for %s failed", self.name, exc_info=error)
            text = f"your preferences could not be kept: {error}"
            if waiting[0]:
                at_once.append(text)
            else:
                self._page(text)

        account, store = self.account_id, self.room.store
        self.room.writer.submit(lambda: store.set_preferences(account, values), then)
        waiting[0] = False
        if at_once:
            raise RoomError(at_once[0])

    # ------------------------------------------------------------------ history
    def hands(self, limit: int = 20, offset: int = 0):
        """My hands, newest first, without what only the operator may read (see history.py)."""
        from cardroom.room.history import player_hands
        return player_hands(self.room.store, self.account_id, limit=limit, offset=offset)

    def hand(self, hand_id: str):
        """One of my hands: others' cards only where they were shown (see history.py)."""
        from cardroom.room.history import player_history
        return player_history(self.room.store, hand_id, self.account_id)
