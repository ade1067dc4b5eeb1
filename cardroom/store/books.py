"""The bookkeeping every write of the store shares: functions over a connection inside a
transaction (`cardroom.store.sql.Connection`), in SQL both dialects run.

Accounts' rows, balances, chips on tables, ledger entries and hands' rows are read and changed
only through these, by the store (`SqlStore`) and by any module that adds tables of its own and
moves money with them, so that every movement of money is written one way: the balance or the
chips change and a ledger entry says so, in one transaction, which the ledger check
(`cardroom.store.audit`) can then follow. The checks of what callers pass in are here too.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from cardroom.engine.money import format_cents
from cardroom.room.ports import (
    MAX_AMOUNT_CENTS, Account, AccountId, Banned, DuplicateEntry, HandRecord, InsufficientChips,
    InsufficientFunds, InvalidAmount, LedgerEntry, Refused, SeatStack, UnknownAccount,
)
from cardroom.store.database import Connection

ACCOUNT_COLS = "id, name, balance_cents, starting_cents, created_at, is_admin"
ENTRY_COLS = "seq, id, at, kind, account_id, table_name, amount_cents, reason, admin, hand_id, tournament_id"
HAND_COLS = ("seq, id, table_name, started_at, finished_at, status, deck, events, results,"
             " history, rake_cents, tournament_id")
MAX_PAGE = 500       # rows of one page of the ledger or of a player's hands, at most

# ----------------------------------------------------------------------------- what comes in


def cents(value: object, what: str = "amount", *, allow_zero: bool = False) -> int:
    """A positive (or non-negative) int of cents, or InvalidAmount. Bools and floats are refused."""
    if type(value) is not int:
        raise InvalidAmount(f"{what} must be a whole number of cents, not {type(value).__name__}")
    if value < 0 or (value == 0 and not allow_zero):
        raise InvalidAmount(f"{what} must be {'zero or more' if allow_zero else 'more than zero'} "
                            f"cents, not {value}")
    if value > MAX_AMOUNT_CENTS:
        raise InvalidAmount(f"{what} of {value} cents is larger than the limit "
                            f"of {MAX_AMOUNT_CENTS}")
    return value


def text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise Refused(f"{what} must be text, not {type(value).__name__}")
    return value


def nonempty(value: object, what: str) -> str:
    if not text(value, what):
        raise Refused(f"{what} must not be empty")
    return value  # type: ignore[return-value]


def page_size(limit: int) -> int:
    """A page's length as asked, kept within 1..MAX_PAGE."""
    return max(1, min(int(limit), MAX_PAGE))


# ---------------------------------------------------------------------------------- accounts


def account_row(row: tuple) -> Account:
    return Account(id=row[0], name=row[1], balance_cents=row[2], starting_cents=row[3],
                   created_at=datetime.fromisoformat(row[4]), is_admin=bool(row[5]))


def get_account(c: Connection, account_id: AccountId) -> Account:
    if type(account_id) is not int:
        raise UnknownAccount(f"no account with id {account_id!r}")
    row = c.execute(f"SELECT {ACCOUNT_COLS} FROM accounts WHERE id = ?", (account_id,)).fetchone()
    if row is None:
        raise UnknownAccount(f"no account with id {account_id!r}")
    return account_row(row)


def find_account(c: Connection, name: str) -> Account | None:
    row = c.execute(f"SELECT {ACCOUNT_COLS} FROM accounts WHERE name = ?", (name,)).fetchone()
    return None if row is None else account_row(row)


def open_account(c: Connection, at: str, name: str, starting_cents: int) -> Account:
    account_id = c.execute(
        "INSERT INTO accounts (name, balance_cents, starting_cents, created_at)"
        " VALUES (?, ?, ?, ?) RETURNING id", (name, starting_cents, starting_cents, at)
    ).fetchone()[0]
    add_entry(c, at, "open", account_id, None, starting_cents, reason="starting money")
    return get_account(c, account_id)


def keys_of(c: Connection, account_id: AccountId) -> set[str]:
    return {r[0] for r in c.execute("SELECT fingerprint FROM account_keys WHERE account_id = ?",
                                    (account_id,))}


def refuse_banned(c: Connection, fingerprint: str) -> None:
    if c.execute("SELECT 1 FROM bans WHERE fingerprint = ?", (fingerprint,)).fetchone():
        raise Banned("this key is banned from the card room")


# ------------------------------------------------------------------------------------ money


def entry_row(row: tuple) -> LedgerEntry:
    return LedgerEntry(seq=row[0], id=row[1], at=datetime.fromisoformat(row[2]), kind=row[3],
                       account_id=row[4], table=row[5], amount_cents=row[6], reason=row[7],
                       admin=row[8], hand_id=row[9], tournament_id=row[10])


def add_entry(c: Connection, at: str, kind: str, account_id: AccountId | None,
              table: str | None, amount: int, *, reason: str = "", admin: str | None = None,
              hand_id: str | None = None, entry_id: str | None = None,
              tournament_id: int | None = None) -> LedgerEntry:
    """A row of the ledger (`kind` one of LEDGER_KINDS), made at `at`: what the audit follows."""
    row = c.execute(
        "INSERT INTO ledger (id, at, kind, account_id, table_name, amount_cents, reason,"
        f" admin, hand_id, tournament_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {ENTRY_COLS}",
        (entry_id or uuid.uuid4().hex, at, kind, account_id, table, amount, reason, admin,
         hand_id, tournament_id)).fetchone()
    return entry_row(row)


def replayed(c: Connection, entry_id: str | None, kind: str, account_id: AccountId,
             table: str | None, amount: int) -> LedgerEntry | None:
    """The entry already recorded under a caller's entry id, if it is the same movement."""
    if entry_id is None:
        return None
    nonempty(entry_id, "entry id")
    row = c.execute(f"SELECT {ENTRY_COLS} FROM ledger WHERE id = ?", (entry_id,)).fetchone()
    if row is None:
        return None
    entry = entry_row(row)
    if (entry.kind, entry.account_id, entry.table, entry.amount_cents) != (
            kind, account_id, table, amount):
        raise DuplicateEntry(f"entry id {entry_id!r} was already used for another movement")
    return entry


def add_balance(c: Connection, account: Account, delta: int) -> None:
    if account.balance_cents + delta < 0:
        raise InsufficientFunds(   # read by players and admins: dollars, as everywhere they look
            f"{account.name!r} has {format_cents(account.balance_cents)}, "
            f"{format_cents(-delta)} is needed")
    c.execute("UPDATE accounts SET balance_cents = balance_cents + ? WHERE id = ?",
              (delta, account.id))


def chips(c: Connection, account_id: AccountId, table: str) -> int:
    row = c.execute("SELECT chips_cents FROM table_chips WHERE account_id = ? AND"
                    " table_name = ?", (account_id, table)).fetchone()
    return 0 if row is None else row[0]


def add_chips(c: Connection, account_id: AccountId, table: str, delta: int,
              seat: int | None = None) -> None:
    """Change the account's chips on the table; `seat`, if known, is where they now sit (a
    row whose chips all went into a hand's escrow is gone, and comes back with the seat
    the hand names when the hand gives them back)."""
    have = chips(c, account_id, table)
    if have + delta < 0:
        raise InsufficientChips(f"only {format_cents(have)} of chips on table {table!r}, "
                                f"{format_cents(-delta)} is needed")
    if have + delta == 0:
        c.execute("DELETE FROM table_chips WHERE account_id = ? AND table_name = ?",
                  (account_id, table))
    elif have:
        c.execute("UPDATE table_chips SET chips_cents = chips_cents + ?,"
                  " seat = COALESCE(?, seat) WHERE account_id = ? AND table_name = ?",
                  (delta, seat, account_id, table))
    else:
        c.execute("INSERT INTO table_chips (account_id, table_name, chips_cents, seat)"
                  " VALUES (?, ?, ?, ?)", (account_id, table, delta, seat))


# ------------------------------------------------------------------------------------ hands


def hand_row(c: Connection, row: tuple) -> HandRecord:
    (seq, hand_id, table, started, finished, status, deck, events, results, history,
     rake, tournament) = row
    seats = tuple(SeatStack(seat=s, account_id=a, start_cents=st, end_cents=e) for s, a, st, e
                  in c.execute("SELECT seat, account_id, start_cents, end_cents FROM"
                               " hand_seats WHERE hand_seq = ? ORDER BY seat", (seq,)))
    return HandRecord(hand_id=hand_id, table=table, started_at=datetime.fromisoformat(started),
                      finished_at=None if finished is None else datetime.fromisoformat(finished),
                      status=status, seats=seats, deck=deck, events_json=events,
                      results_json=results, history=history, rake_cents=rake,
                      tournament_id=tournament)


def find_hand(c: Connection, hand_id: str) -> tuple[int, HandRecord] | None:
    """The hand's row number (`seq`) and record, or None."""
    row = c.execute(f"SELECT {HAND_COLS} FROM hands WHERE id = ?", (hand_id,)).fetchone()
    return None if row is None else (row[0], hand_row(c, row))
