"""What the room needs from storage, stated as Protocols the store implements.

The room never imports sqlite3: it depends on these Protocols, these frozen records and these
errors only. `cardroom.store` supplies the implementation (`cardroom.store.SqliteStore`).

Money model (all amounts are integer cents; never a float):

* Money lives in exactly six places: an account's ``balance``, an account's chips on a table
  (``table_chips(account, table)``), the start-of-hand stacks held by a hand that is in progress
  (the hand's *escrow*), the house's collected rake, and each tournament's prize pool not yet
  paid and the house's fees of it (tournament chips are not money: TournamentStore).
* ``buy_in`` moves balance -> table chips, ``cash_out`` table chips -> balance.
* ``begin_hand`` moves each seat's start-of-hand stack from its table chips into the hand's escrow.
  Bets and pots during the hand live in the room's memory only; ``settle_hand`` releases the
  escrow in ONE transaction: each seat's end stack (start + delta) back to its table chips and the
  rake to the house. A hand cut off by a crash is still in escrow; ``void_unfinished_hands``
  returns every seat's start-of-hand stack to its table chips.
* Money enters only when an account is opened with starting money, an admin credits it or the
  house adds money to a tournament's pool, and leaves only when an admin debits it, so at every
  moment ``total_money() == expected_money()`` (balances + table chips + escrow + rake +
  tournaments' pools and fees == starting money + credits - debits + added), and every movement
  is a ledger row with a unique id.

Calls are synchronous and each mutating call is one database transaction that either happens
completely or not at all; a refused call (`Refused` and its subclasses) changes nothing.
Implementations are safe to call from any thread. A write may wait (an fsync; another process
holding the database, up to a busy timeout), so the room never makes one on its loop: it hands
each write to its writer (`cardroom.room.writer`: one thread, in order). Reads must not wait for
writers (SQLite's WAL; PostgreSQL's MVCC), so the room makes them directly.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Literal, NamedTuple, Protocol, runtime_checkable

AccountId = int
"""An account's id: a positive integer the store assigns."""

LedgerKind = Literal[
    "open",        # an account is created with its starting money: outside -> balance
    "credit",      # an admin adds money: outside -> balance
    "debit",       # an admin removes money: balance -> outside
    "buy_in",      # balance -> table chips
    "cash_out",    # table chips -> balance
    "hand_start",  # table chips -> the hand's escrow (start-of-hand stack)
    "hand_end",    # the hand's escrow -> table chips (end-of-hand stack)
    "rake",        # the hand's escrow -> the house
    "hand_void",   # the hand's escrow -> table chips (start-of-hand stack back: a crashed hand,
                   # or one whose settlement could not be recorded)
    # Tournaments (each row names its tournament): chips there are not money; the money is the
    # prize pool (buy-ins and what the house adds) and the house's fees, held by the tournament.
    "tournament_buy_in",       # balance -> the tournament's prize pool (registration)
    "tournament_fee",          # balance -> the house's fees of the tournament (registration)
    "tournament_refund",       # the prize pool -> balance (the buy-in back: unregistered, cancelled)
    "tournament_fee_refund",   # the house's fees -> balance (the fee back with it)
    "tournament_prize",        # the prize pool -> balance (a place decided)
    "tournament_share",        # the prize pool -> balance (cancelled while running: a share by chips)
    "tournament_added",        # outside -> the prize pool (money the house adds: a freeroll's)
]
LEDGER_KINDS: tuple[str, ...] = (
    "open", "credit", "debit", "buy_in", "cash_out", "hand_start", "hand_end", "rake", "hand_void",
    "tournament_buy_in", "tournament_fee", "tournament_refund", "tournament_fee_refund",
    "tournament_prize", "tournament_share", "tournament_added",
)

TOURNAMENT_STATES: tuple[str, ...] = ("registering", "running", "finished", "cancelled")
TOURNAMENT_CHANGES: tuple[str, ...] = ("start", "refund", "prize", "share", "finish", "cancel")

HandStatus = Literal["in_progress", "settled", "void"]
HAND_STATUSES: tuple[str, ...] = ("in_progress", "settled", "void")

MAX_AMOUNT_CENTS = 10**12
"""The largest amount one operation may move (ten billion dollars); guards against overflow."""


# ----------------------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class Account:
    id: AccountId
    name: str
    balance_cents: int
    starting_cents: int
    created_at: datetime
    is_admin: bool = False


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One movement of money: ``amount_cents`` is never negative, ``kind`` says which way."""

    seq: int                    # the store's order of entries (strictly increasing)
    id: str                     # unique id (a uuid unless the caller supplied an entry id)
    at: datetime
    kind: str                   # one of LEDGER_KINDS
    account_id: AccountId | None  # None for the house's rake
    table: str | None
    amount_cents: int
    reason: str = ""
    admin: str | None = None    # the admin's name or key fingerprint for credit/debit
    hand_id: str | None = None
    tournament_id: int | None = None   # the tournament of a tournament_* entry


@dataclass(frozen=True, slots=True)
class SeatStack:
    """A seat in a hand: its start-of-hand stack, and once settled its end-of-hand stack."""

    seat: int
    account_id: AccountId
    start_cents: int
    end_cents: int | None = None


class TableHolding(NamedTuple):
    """An account's chips on a table (not counting a live hand's escrow) and the seat they were
    bought in at: what a table host that takes the table over seats again. ``seat`` is None for
    chips bought in before the store kept seats (or without saying the seat)."""

    account_id: AccountId
    chips_cents: int
    seat: int | None


@dataclass(frozen=True, slots=True)
class HandStart:
    """What ``begin_hand`` needs: table, seats and deck (the store numbers the hand)."""

    table: str
    seats: tuple[SeatStack, ...]
    deck: str = ""              # the deck order as text, e.g. "As Kd 7h ..."
    # A tournament's hand: its seats' stacks are tournament chips, not money, so nothing moves
    # in the ledger; it is settled with its tournament (TournamentStore.record_tournament).
    tournament_id: int | None = None


@dataclass(frozen=True, slots=True)
class HandRecord:
    hand_id: str
    table: str
    started_at: datetime
    finished_at: datetime | None
    status: str                 # one of HAND_STATUSES
    seats: tuple[SeatStack, ...]
    deck: str
    events_json: str | None     # the hand's events as JSON text (as given to settle_hand)
    results_json: str | None    # written by the store: seats' start/delta/end and the rake
    history: str | None         # a formatted hand history (as given to settle_hand)
    rake_cents: int = 0
    tournament_id: int | None = None   # a tournament's hand: its stacks are chips, not cents


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A tournament (one instance of a config.toml block) as the store keeps it. Its money: the
    prize pool still to pay (`pool_cents`: buy-ins and added money taken, less prizes, shares and
    refunds paid) and the house's fees (`fees_cents`); `snapshot` is the director's
    (engine.tournament.snapshot, JSON), written with every change so a restart resumes it;
    `version` orders the snapshots (a write never puts an older one back)."""

    id: int                     # its number: PokerStars' "Tournament #N"
    name: str                   # its config.toml name
    state: str                  # one of TOURNAMENT_STATES
    buy_in_cents: int
    fee_cents: int
    added_cents: int
    pool_cents: int
    fees_cents: int
    starts_at: datetime | None  # a scheduled one's start
    created_at: datetime
    started_at: datetime | None
    finished_at: datetime | None
    snapshot: str
    version: int


@dataclass(frozen=True, slots=True)
class TournamentEntry:
    """One entry (a re-entry is another): `status` "in" (paid) or "refunded"; its place and the
    prize (or cancel share) paid to the account once decided."""

    tournament_id: int
    entry: int
    account_id: AccountId
    status: str
    place: int | None
    prize_cents: int


@dataclass(frozen=True, slots=True)
class TournamentChange:
    """What a director's record does to a tournament's money and entries (kind one of
    TOURNAMENT_CHANGES): "start" (the house's added money joins the pool), "refund" (the entry's
    buy-in and fee back), "prize" (the entry finished `place` and wins `cents`, 0 for no prize),
    "share" (cancelled while running: the entry's share of the pool), "finish", "cancel". Each
    is applied once: written again (a retried write) it changes nothing."""

    kind: str
    entry: int | None = None
    place: int | None = None
    cents: int = 0


@dataclass(frozen=True, slots=True)
class TournamentHandEnd:
    """A tournament hand's end, recorded with its tournament's changes: each account's chips at
    the end (they sum to its chips at the start), its events and history."""

    hand_id: str
    stacks: Mapping[AccountId, int]
    events_json: str
    history: str = ""


@dataclass(frozen=True, slots=True)
class Ban:
    """A banned key: sessions with this key fingerprint are refused."""

    fingerprint: str
    reason: str
    admin: str                  # the admin's name or key fingerprint
    at: datetime


# ------------------------------------------------------------------------------------------ errors


class StoreError(Exception):
    """Base of every error the store raises on purpose."""


class StoreUnavailable(StoreError):
    """The store cannot be opened or used (missing directory, locked, too new, no WAL...).

    At start-up this means: refuse to deal rather than run without a ledger."""


class StoreCorrupt(StoreUnavailable):
    """The database file is not a database, or fails its integrity check."""


class ConservationError(StoreError):
    """``audit`` found money that does not add up: the ledger and the balances disagree."""


class Refused(StoreError):
    """An operation was refused and nothing changed. The message is fit to show to the user."""


class InvalidAmount(Refused, ValueError):
    """Not a positive int number of cents (floats, bools, strings, zero, negative, enormous)."""


class UnknownAccount(Refused, LookupError):
    pass


class UnknownHand(Refused, LookupError):
    pass


class InsufficientFunds(Refused):
    """The account's balance would go below zero."""


class InsufficientChips(Refused):
    """The account's chips on that table would go below zero."""


class NameTaken(Refused):
    """The name belongs to an account claimed by another key."""


class KeyInUse(Refused):
    """The key fingerprint already belongs to another account."""


class SelfAdjustment(Refused):
    """An admin tried to credit or debit their own account."""


class Banned(Refused):
    """The key fingerprint is banned (``claim`` and ``add_key`` refuse it)."""


class HandStateError(Refused):
    """The hand is not in progress, or the table already has a live hand."""


class SettlementError(Refused, ValueError):
    """The results of a hand do not add up (unknown seats, chips created or lost, a stack < 0)."""


class DuplicateEntry(Refused):
    """A caller-supplied entry id was already used for a different movement."""


class LeaseLost(Refused):
    """A table host's write to a table it no longer holds (its lease expired or another host
    claimed the table): refused, so only the table's one owner ever writes to it."""


# ------------------------------------------------------------------------------------------- ports


@runtime_checkable
class AccountStore(Protocol):
    def get_or_create(self, name: str, starting_cents: int) -> Account:
        """The account called ``name``; created with ``starting_cents`` (ledger 'open') if new."""

    def get(self, account_id: AccountId) -> Account:
        """Raises UnknownAccount."""

    def find(self, name: str) -> Account | None: ...

    def accounts(self, after: AccountId = 0) -> list[Account]:
        """Every account (or those with an id above `after`), in the order of their ids."""

    def balance(self, account_id: AccountId) -> int: ...

    def claim(self, name: str, fingerprint: str, starting_cents: int) -> Account:
        """Log in with a key under a name. A new name is created and bound to the key; a name
        whose account has no key yet is claimed by this first key; a name bound to other keys
        raises NameTaken; a key bound to another account raises KeyInUse."""

    def account_for_key(self, fingerprint: str) -> Account | None: ...

    def add_key(self, account_id: AccountId, fingerprint: str) -> None:
        """Bind another key to the account (idempotent); KeyInUse if bound elsewhere."""

    def remove_key(self, account_id: AccountId, fingerprint: str) -> bool: ...

    def keys(self, account_id: AccountId) -> tuple[str, ...]: ...

    def set_admin(self, account_id: AccountId, is_admin: bool) -> Account: ...


@runtime_checkable
class MoneyStore(Protocol):
    """Each mutating call is ONE transaction; a refused call raises a Refused and changes nothing.

    ``entry_id`` (optional) makes a call idempotent: the same id with the same movement returns
    the entry already recorded instead of moving the money twice (double submissions, retries
    after an uncertain commit); the same id with a different movement raises DuplicateEntry."""

    def buy_in(self, account_id: AccountId, table: str, cents: int, *,
               entry_id: str | None = None, seat: int | None = None) -> LedgerEntry:
        """Balance -> table chips. InsufficientFunds if the balance would go negative.
        ``seat`` (a seat number from 1) is where the chips sit: kept with them, through every
        hand, until they are cashed out (None keeps the seat already recorded)."""

    def cash_out(self, account_id: AccountId, table: str, cents: int, *,
                 entry_id: str | None = None) -> LedgerEntry:
        """Table chips -> balance. InsufficientChips if the (non-escrowed) chips are short."""

    def credit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
               entry_id: str | None = None) -> LedgerEntry:
        """An admin adds money. SelfAdjustment if ``admin`` is the account's name or key."""

    def debit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
              entry_id: str | None = None) -> LedgerEntry:
        """An admin removes money; InsufficientFunds below zero; SelfAdjustment as credit."""

    def table_chips(self, account_id: AccountId, table: str) -> int: ...

    def holdings(self, account_id: AccountId) -> dict[str, int]:
        """Chips the account has on each table (not counting chips in a live hand's escrow)."""

    def on_tables(self, account_id: AccountId) -> dict[str, int]:
        """Chips the account has on each table as he counts them: his holdings, and a live hand's
        start-of-hand stack in its escrow (one read)."""

    def table_holdings(self, table: str) -> list[TableHolding]:
        """Every account's chips on the table with its seat, by seat (unknown seats last)."""

    def ledger(self, account_id: AccountId | None = None, *, hand_id: str | None = None,
               limit: int = 100, before_seq: int | None = None) -> list[LedgerEntry]:
        """Ledger entries, newest first; page with ``before_seq`` = the last seq seen."""

    def rake_total(self) -> int: ...

    def total_money(self) -> int:
        """Balances + table chips + live hands' escrow + rake collected."""

    def expected_money(self) -> int:
        """Starting money of all accounts + credits - debits (from the ledger)."""

    def audit(self) -> None:
        """Replay the ledger and compare with every balance, table chips, escrow and the rake;
        raises ConservationError on any difference (including total != expected)."""


@runtime_checkable
class HandStore(Protocol):
    def begin_hand(self, start: HandStart) -> HandRecord:
        """Record a hand as in progress and move each seat's start stack from its table chips
        into the hand's escrow. The store gives the hand its id: the next number of a sequence
        (increasing, never reused). HandStateError if the table has a live hand;
        InsufficientChips if a seat's table chips are short."""

    def settle_hand(self, hand_id: str, deltas: Mapping[AccountId, int], rake_cents: int,
                    events_json: str, history: str = "") -> HandRecord:
        """ONE transaction: each seat's end stack (start + delta) back to its table chips, the
        rake to the house, the hand marked settled with its events, results and history.
        ``deltas`` must name exactly the hand's seats and sum(deltas) + rake_cents == 0;
        otherwise SettlementError and nothing is written."""

    def void_hand(self, hand_id: str, reason: str) -> HandRecord:
        """A hand whose settlement cannot be recorded: if still in progress it becomes void and
        each seat gets its start-of-hand stack back. Returns the hand as it now stands, so a
        caller unsure whether a settlement went through reads it in the status. UnknownHand."""

    def void_unfinished_hands(self, tables: Iterable[str] | None = None, *,
                              tournament: int | None = None) -> list[str]:
        """At start-up: every hand still in progress becomes void and each seat gets its
        start-of-hand stack back on its table. Returns the voided hand ids. Idempotent.
        `tables`: only the hands of these tables (a table host taking a table over must not void
        the live hands of tables other hosts deal); `tournament`: only that tournament's (a table
        host taking it over); each is fenced as any write to its money is."""

    def get_hand(self, hand_id: str) -> HandRecord | None: ...

    def hands_for_account(self, account_id: AccountId, *, limit: int = 20,
                          offset: int = 0) -> list[HandRecord]:
        """The account's hands, newest first."""


@runtime_checkable
class BanStore(Protocol):
    """Banned key fingerprints. A banned key cannot ``claim`` a name or be added to an account
    (Banned); the session layer should also ask ``is_banned`` before it accepts the key."""

    def ban(self, fingerprint: str, reason: str, admin: str) -> None:
        """Ban the key (idempotent: banning it again replaces the reason, admin and time)."""

    def unban(self, fingerprint: str) -> bool:
        """Lift the ban; False if the key was not banned."""

    def is_banned(self, fingerprint: str) -> bool: ...

    def bans(self) -> list[Ban]:
        """Every ban, oldest first."""


@runtime_checkable
class ModerationStore(Protocol):
    """What outlives a restart besides money and bans: admin mutes, and the protected all-ins
    (timeouts while the daily quota lasts) each account has used each day."""

    def set_muted(self, account_id: AccountId, muted: bool, admin: str) -> bool:
        """Mute or unmute; False if the account already was so."""

    def muted_accounts(self) -> set[AccountId]: ...

    def use_allin_protection(self, account_id: AccountId, day: str, quota: int) -> bool:
        """Count one protected all-in for the account on `day` (YYYY-MM-DD) if it has used
        fewer than `quota` that day; False (and nothing counted) once the quota is used up."""


@runtime_checkable
class PreferenceStore(Protocol):
    """A player's display preferences, kept across logins: short text names and values (the room
    checks them; what they mean is the session's business)."""

    def preferences(self, account_id: AccountId) -> dict[str, str]: ...

    def set_preferences(self, account_id: AccountId, values: Mapping[str, str]) -> None:
        """Set (add or replace) these preferences, in one transaction; others are kept."""


@runtime_checkable
class SessionStore(Protocol):
    """One live session per account across the processes of a room: each login takes a number,
    and a session of the account with a lower number ends."""

    def next_session_number(self) -> int:
        """The next number of a counter every process of the room shares: strictly greater than
        every number any process was given before this call began; never reused."""


@runtime_checkable
class TournamentStore(Protocol):
    """Tournaments, their entries and their money. Tournament chips are not money: registration
    takes the buy-in into the tournament's prize pool and the fee to the house (ledger rows naming
    the tournament); a prize leaves the pool for the balance the moment its place is decided. The
    ledger check covers it: buy-ins (and added money) taken = the pool = prizes paid + the pool
    still held."""

    def create_tournament(self, name: str, *, buy_in: int, fee: int, added: int,
                          starts_at: datetime | None, snapshot: str) -> TournamentRecord:
        """A new instance of tournament `name`, registering, with the director's first snapshot."""

    def tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    def tournaments(self, states: Iterable[str] = ("registering", "running")) -> list[TournamentRecord]:
        """The tournaments in these states, oldest first."""

    def tournament_entries(self, tournament_id: int) -> list[TournamentEntry]: ...

    def tournaments_of(self, account_id: AccountId) -> list[TournamentRecord]:
        """The tournaments the account has (or had) a paid entry in, oldest first."""

    def enter_tournament(self, tournament_id: int, account_id: AccountId, entry: int) -> TournamentEntry:
        """ONE transaction: the entry (numbered `entry`) paid for: the tournament's buy-in from the
        balance to its pool, its fee to the house. InsufficientFunds, or Refused (the tournament
        is over, the entry number is taken), and nothing changes."""

    def record_tournament(self, tournament_id: int, changes: Iterable[TournamentChange], *,
                          snapshot: str, version: int, hand: TournamentHandEnd | None = None,
                          amend: Iterable[TournamentHandEnd] = ()) -> None:
        """ONE transaction: the changes (money and entries; "start", "finish" and "cancel" move
        its state), the director's snapshot (kept only if `version` is newer than the one
        stored), the tournament hand that made them, settled (no money moves in it), and the
        events and history of earlier settled hands written again (`amend`: their players were
        placed only now). A change already applied is skipped."""


@runtime_checkable
class Store(AccountStore, MoneyStore, HandStore, BanStore, ModerationStore, PreferenceStore,
            SessionStore, TournamentStore, Protocol):
    """Everything the room needs from storage."""

    def close(self) -> None: ...


# Where a store is: the path of a SQLite file, or a URL with one of these schemes (PostgreSQL).
# Here, below both the config that names it and the store package that opens it.
STORE_URL_SCHEMES = ("postgresql://", "postgres://")


def is_store_url(where: object) -> bool:
    """Whether `where` names a PostgreSQL database (else it is the path of a SQLite file)."""
    return isinstance(where, str) and where.startswith(STORE_URL_SCHEMES)


__all__ = [
    "AccountId", "LedgerKind", "LEDGER_KINDS", "HandStatus", "HAND_STATUSES", "MAX_AMOUNT_CENTS",
    "Account", "LedgerEntry", "SeatStack", "TableHolding", "HandStart", "HandRecord", "Ban",
    "TOURNAMENT_STATES", "TOURNAMENT_CHANGES", "TournamentRecord", "TournamentEntry", "TournamentChange",
    "TournamentHandEnd", "TournamentStore",
    "StoreError", "StoreUnavailable", "StoreCorrupt", "ConservationError", "Refused",
    "InvalidAmount", "UnknownAccount", "UnknownHand", "InsufficientFunds", "InsufficientChips",
    "NameTaken", "KeyInUse", "SelfAdjustment", "HandStateError", "SettlementError",
    "DuplicateEntry", "Banned", "LeaseLost",
    "AccountStore", "MoneyStore", "HandStore", "BanStore", "ModerationStore", "PreferenceStore",
    "SessionStore", "Store",
    "STORE_URL_SCHEMES", "is_store_url",
]
