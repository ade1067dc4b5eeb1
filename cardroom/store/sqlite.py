"""The SQLite implementation of the room's storage ports (`cardroom.room.ports.Store`).

Durability: WAL journal, ``synchronous=FULL`` (a commit survives power loss), foreign keys on,
a busy timeout, and every write is one ``BEGIN IMMEDIATE`` transaction, so concurrent writers
(other threads, other processes such as an admin tool) queue instead of interleaving and a
check-then-write inside a transaction cannot race.

Threads: one ``SqliteStore`` owns two connections (opened with ``check_same_thread=False``),
one for writes and one for reads, each serialised by its own lock, so it is safe to call from
any thread. A write may wait for the busy timeout (another process holding the database) and
for an fsync, so the room sends its writes through one writer thread (`cardroom.room.writer`);
a read never waits for a writer under WAL, nor (having its own connection and lock) for a
write of this process that is queued behind one. Several processes or several ``SqliteStore``
objects on one file are also fine (SQLite's locking + the busy timeout).

SQL is never built from values: every value is a bound parameter. Names and other text are
stored exactly as given; sanitising them for display is the caller's job.
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from cardroom.engine.money import format_cents
from cardroom.room.ports import (
    MAX_AMOUNT_CENTS, Account, AccountId, ConservationError, DuplicateEntry, HandRecord,
    HandStart, HandStateError, InsufficientChips, InsufficientFunds, InvalidAmount, KeyInUse,
    LedgerEntry, NameTaken, Refused, SeatStack, SelfAdjustment, SettlementError, StoreCorrupt,
    StoreUnavailable, TableHolding, UnknownAccount, UnknownHand,
)
from cardroom.room.ports import Ban, Banned
from cardroom.store import migrations

MIN_SQLITE = (3, 37, 0)  # STRICT tables
DEFAULT_BUSY_TIMEOUT_MS = 5_000
MAX_PAGE = 500


def _utc_now() -> datetime:
    return datetime.now(timezone.utc)


def _cents(value: object, what: str = "amount", *, allow_zero: bool = False) -> int:
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


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise Refused(f"{what} must be text, not {type(value).__name__}")
    return value


def _nonempty(value: object, what: str) -> str:
    if not _text(value, what):
        raise Refused(f"{what} must not be empty")
    return value  # type: ignore[return-value]


class SqliteStore:
    """Accounts, the ledger and hand histories in one SQLite file. See the module docstring."""

    def __init__(self, path: str | os.PathLike[str], *,
                 clock: Callable[[], datetime] = _utc_now,
                 busy_timeout_ms: int = DEFAULT_BUSY_TIMEOUT_MS,
                 integrity_check: bool = True) -> None:
        """Open (creating if needed) and migrate the database.

        Raises StoreUnavailable (or StoreCorrupt) with a clear message if the file cannot be
        opened, is not a database, fails ``PRAGMA quick_check``, is from a newer version, or
        cannot use WAL: the caller must then refuse to deal.
        """
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            raise StoreUnavailable(f"SQLite {sqlite3.sqlite_version} is too old; cardroom needs "
                                   f"{'.'.join(map(str, MIN_SQLITE))} or newer")
        self.path = Path(path)
        self._clock = clock
        self._lock = threading.RLock()
        self._read_lock = threading.RLock()
        self._conn = self._connect(busy_timeout_ms)
        try:
            self._configure(busy_timeout_ms, integrity_check)
            self._reader = self._connect(busy_timeout_ms)
        except BaseException:
            self._conn.close()
            raise
        self._reader.execute("PRAGMA query_only = ON")

    def _connect(self, busy_timeout_ms: int) -> sqlite3.Connection:
        try:
            return sqlite3.connect(self.path, isolation_level=None, check_same_thread=False,
                                   timeout=busy_timeout_ms / 1000)
        except sqlite3.Error as e:
            raise StoreUnavailable(f"cannot open the database {self.path}: {e}") from e

    def _configure(self, busy_timeout_ms: int, integrity_check: bool) -> None:
        c = self._conn
        where = f"the database {self.path}"
        try:
            c.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
            mode = c.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreUnavailable(f"{where} cannot use WAL journaling (got {mode!r})")
            c.execute("PRAGMA synchronous = FULL")
            c.execute("PRAGMA foreign_keys = ON")
            if integrity_check:
                problems = [row[0] for row in c.execute("PRAGMA quick_check")]
                if problems != ["ok"]:
                    raise StoreCorrupt(f"{where} failed its integrity check: "
                                       + "; ".join(problems[:5]))
            migrations.migrate(c)
        except migrations.SchemaTooNew as e:
            raise StoreUnavailable(f"{where}: {e}") from e
        except sqlite3.DatabaseError as e:
            msg = str(e)
            if "locked" in msg or "busy" in msg:
                raise StoreUnavailable(f"{where} is busy (locked by another process): {e}") from e
            if isinstance(e, sqlite3.OperationalError) and "unable to open" in msg:
                raise StoreUnavailable(f"cannot open {where}: {e}") from e
            raise StoreCorrupt(f"{where} is corrupted or not a cardroom database: {e}") from e

    # ------------------------------------------------------------------------------ plumbing

    def close(self) -> None:
        with self._lock, self._read_lock:
            self._conn.close()
            self._reader.close()

    def __enter__(self) -> SqliteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def settings(self) -> dict[str, object]:
        """The connection's effective settings, for diagnostics and tests."""
        with self._lock:
            q = lambda p: self._conn.execute(f"PRAGMA {p}").fetchone()[0]  # noqa: E731
            return {
                "journal_mode": q("journal_mode"),
                "synchronous": {0: "OFF", 1: "NORMAL", 2: "FULL", 3: "EXTRA"}.get(q("synchronous")),
                "foreign_keys": bool(q("foreign_keys")),
                "busy_timeout_ms": q("busy_timeout"),
                "user_version": q("user_version"),
            }

    @contextmanager
    def _tx(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """One transaction: BEGIN IMMEDIATE for writes, a consistent snapshot for reads.

        Any exception rolls everything back. sqlite3 errors are translated to StoreErrors so the
        room never needs to import sqlite3.
        """
        with self._lock if write else self._read_lock:
            c = self._conn if write else self._reader
            try:
                c.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                try:
                    yield c
                    c.execute("COMMIT")
                finally:
                    if c.in_transaction:
                        c.execute("ROLLBACK")
            except sqlite3.IntegrityError as e:
                raise Refused(f"the database refused the change: {e}") from e
            except sqlite3.Error as e:
                msg = str(e)
                if "locked" in msg or "busy" in msg:
                    raise StoreUnavailable(f"the database is busy: {e}") from e
                raise StoreUnavailable(f"the database failed: {e}") from e

    def _now(self) -> str:
        return self._clock().isoformat()

    @staticmethod
    def _when(text: str | None) -> datetime | None:
        return None if text is None else datetime.fromisoformat(text)

    # ------------------------------------------------------------------------------ accounts

    _ACCOUNT_COLS = "id, name, balance_cents, starting_cents, created_at, is_admin"

    def _account_row(self, row: tuple) -> Account:
        return Account(id=row[0], name=row[1], balance_cents=row[2], starting_cents=row[3],
                       created_at=datetime.fromisoformat(row[4]), is_admin=bool(row[5]))

    def _get(self, c: sqlite3.Connection, account_id: AccountId) -> Account:
        if type(account_id) is not int:
            raise UnknownAccount(f"no account with id {account_id!r}")
        row = c.execute(f"SELECT {self._ACCOUNT_COLS} FROM accounts WHERE id = ?",
                        (account_id,)).fetchone()
        if row is None:
            raise UnknownAccount(f"no account with id {account_id!r}")
        return self._account_row(row)

    def _find(self, c: sqlite3.Connection, name: str) -> Account | None:
        row = c.execute(f"SELECT {self._ACCOUNT_COLS} FROM accounts WHERE name = ?",
                        (name,)).fetchone()
        return None if row is None else self._account_row(row)

    def _create(self, c: sqlite3.Connection, name: str, starting_cents: int) -> Account:
        now = self._now()
        account_id = c.execute(
            "INSERT INTO accounts (name, balance_cents, starting_cents, created_at)"
            " VALUES (?, ?, ?, ?) RETURNING id", (name, starting_cents, starting_cents, now)
        ).fetchone()[0]
        self._entry(c, "open", account_id, None, starting_cents, reason="starting money")
        return self._get(c, account_id)

    def get_or_create(self, name: str, starting_cents: int) -> Account:
        _text(name, "name")
        _cents(starting_cents, "starting money", allow_zero=True)
        with self._tx() as c:
            return self._find(c, name) or self._create(c, name, starting_cents)

    def get(self, account_id: AccountId) -> Account:
        with self._tx(write=False) as c:
            return self._get(c, account_id)

    def find(self, name: str) -> Account | None:
        with self._tx(write=False) as c:
            return self._find(c, _text(name, "name"))

    def accounts(self) -> list[Account]:
        with self._tx(write=False) as c:
            rows = c.execute(f"SELECT {self._ACCOUNT_COLS} FROM accounts ORDER BY id").fetchall()
            return [self._account_row(r) for r in rows]

    def balance(self, account_id: AccountId) -> int:
        return self.get(account_id).balance_cents

    def claim(self, name: str, fingerprint: str, starting_cents: int) -> Account:
        _text(name, "name")
        _nonempty(fingerprint, "key fingerprint")
        _cents(starting_cents, "starting money", allow_zero=True)
        with self._tx() as c:
            self._refuse_banned(c, fingerprint)
            owner = c.execute("SELECT account_id FROM account_keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
            account = self._find(c, name)
            if owner is not None:
                if account is not None and owner[0] == account.id:
                    return account
                raise KeyInUse("this key already belongs to another account")
            if account is None:
                account = self._create(c, name, starting_cents)
            elif c.execute("SELECT 1 FROM account_keys WHERE account_id = ? LIMIT 1",
                           (account.id,)).fetchone() is not None:
                raise NameTaken(f"the name {name!r} is taken")
            c.execute("INSERT INTO account_keys (fingerprint, account_id, added_at)"
                      " VALUES (?, ?, ?)", (fingerprint, account.id, self._now()))
            return account

    def account_for_key(self, fingerprint: str) -> Account | None:
        with self._tx(write=False) as c:
            row = c.execute(f"SELECT {self._ACCOUNT_COLS} FROM accounts WHERE id ="
                            " (SELECT account_id FROM account_keys WHERE fingerprint = ?)",
                            (_text(fingerprint, "key fingerprint"),)).fetchone()
            return None if row is None else self._account_row(row)

    def add_key(self, account_id: AccountId, fingerprint: str) -> None:
        _nonempty(fingerprint, "key fingerprint")
        with self._tx() as c:
            self._get(c, account_id)
            self._refuse_banned(c, fingerprint)
            owner = c.execute("SELECT account_id FROM account_keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
            if owner is not None:
                if owner[0] == account_id:
                    return
                raise KeyInUse("this key already belongs to another account")
            c.execute("INSERT INTO account_keys (fingerprint, account_id, added_at)"
                      " VALUES (?, ?, ?)", (fingerprint, account_id, self._now()))

    def remove_key(self, account_id: AccountId, fingerprint: str) -> bool:
        with self._tx() as c:
            cur = c.execute("DELETE FROM account_keys WHERE account_id = ? AND fingerprint = ?",
                            (account_id, fingerprint))
            return cur.rowcount > 0

    def keys(self, account_id: AccountId) -> tuple[str, ...]:
        with self._tx(write=False) as c:
            rows = c.execute("SELECT fingerprint FROM account_keys WHERE account_id = ?"
                             " ORDER BY added_at, fingerprint", (account_id,)).fetchall()
            return tuple(r[0] for r in rows)

    def set_admin(self, account_id: AccountId, is_admin: bool) -> Account:
        if type(is_admin) is not bool:
            raise Refused("is_admin must be True or False")
        with self._tx() as c:
            self._get(c, account_id)
            c.execute("UPDATE accounts SET is_admin = ? WHERE id = ?", (int(is_admin), account_id))
            return self._get(c, account_id)

    # -------------------------------------------------------------------------------- ledger

    _ENTRY_COLS = "seq, id, at, kind, account_id, table_name, amount_cents, reason, admin, hand_id"

    @staticmethod
    def _entry_row(row: tuple) -> LedgerEntry:
        return LedgerEntry(seq=row[0], id=row[1], at=datetime.fromisoformat(row[2]), kind=row[3],
                           account_id=row[4], table=row[5], amount_cents=row[6], reason=row[7],
                           admin=row[8], hand_id=row[9])

    def _entry(self, c: sqlite3.Connection, kind: str, account_id: AccountId | None,
               table: str | None, cents: int, *, reason: str = "", admin: str | None = None,
               hand_id: str | None = None, entry_id: str | None = None) -> LedgerEntry:
        row = c.execute(
            "INSERT INTO ledger (id, at, kind, account_id, table_name, amount_cents, reason,"
            f" admin, hand_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {self._ENTRY_COLS}",
            (entry_id or uuid.uuid4().hex, self._now(), kind, account_id, table, cents, reason,
             admin, hand_id)).fetchone()
        return self._entry_row(row)

    def _replayed(self, c: sqlite3.Connection, entry_id: str | None, kind: str,
                  account_id: AccountId, table: str | None, cents: int) -> LedgerEntry | None:
        """The entry already recorded under a caller's entry id, if it is the same movement."""
        if entry_id is None:
            return None
        _nonempty(entry_id, "entry id")
        row = c.execute(f"SELECT {self._ENTRY_COLS} FROM ledger WHERE id = ?",
                        (entry_id,)).fetchone()
        if row is None:
            return None
        entry = self._entry_row(row)
        if (entry.kind, entry.account_id, entry.table, entry.amount_cents) != (
                kind, account_id, table, cents):
            raise DuplicateEntry(f"entry id {entry_id!r} was already used for another movement")
        return entry

    @staticmethod
    def _add_balance(c: sqlite3.Connection, account: Account, delta: int) -> None:
        if account.balance_cents + delta < 0:
            raise InsufficientFunds(   # read by players and admins: dollars, as everywhere they look
                f"{account.name!r} has {format_cents(account.balance_cents)}, "
                f"{format_cents(-delta)} is needed")
        c.execute("UPDATE accounts SET balance_cents = balance_cents + ? WHERE id = ?",
                  (delta, account.id))

    @staticmethod
    def _chips(c: sqlite3.Connection, account_id: AccountId, table: str) -> int:
        row = c.execute("SELECT chips_cents FROM table_chips WHERE account_id = ? AND"
                        " table_name = ?", (account_id, table)).fetchone()
        return 0 if row is None else row[0]

    def _add_chips(self, c: sqlite3.Connection, account_id: AccountId, table: str,
                   delta: int, seat: int | None = None) -> None:
        """Change the account's chips on the table; `seat`, if known, is where they now sit (a
        row whose chips all went into a hand's escrow is gone, and comes back with the seat
        the hand names when the hand gives them back)."""
        have = self._chips(c, account_id, table)
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

    def _fence(self, c: sqlite3.Connection, table: str) -> None:
        """First in every write to a table's money (buy-in, cash-out, begin/settle/void hand):
        refuse it, in the same transaction, if this process may no longer write to the table.
        A SQLite room is one process dealing every table; PostgresStore checks a lease."""

    def buy_in(self, account_id: AccountId, table: str, cents: int, *,
               entry_id: str | None = None, seat: int | None = None) -> LedgerEntry:
        _nonempty(table, "table name")
        _cents(cents, "buy-in")
        if seat is not None and (type(seat) is not int or seat < 1):
            raise Refused(f"a seat is a number from 1, not {seat!r}")
        with self._tx() as c:
            self._fence(c, table)
            if done := self._replayed(c, entry_id, "buy_in", account_id, table, cents):
                return done
            account = self._get(c, account_id)
            self._add_balance(c, account, -cents)
            self._add_chips(c, account_id, table, cents, seat)
            return self._entry(c, "buy_in", account_id, table, cents, entry_id=entry_id)

    def cash_out(self, account_id: AccountId, table: str, cents: int, *,
                 entry_id: str | None = None) -> LedgerEntry:
        _nonempty(table, "table name")
        _cents(cents, "cash-out")
        with self._tx() as c:
            self._fence(c, table)
            if done := self._replayed(c, entry_id, "cash_out", account_id, table, cents):
                return done
            account = self._get(c, account_id)
            self._add_chips(c, account_id, table, -cents)
            self._add_balance(c, account, cents)
            return self._entry(c, "cash_out", account_id, table, cents, entry_id=entry_id)

    def _adjust(self, kind: str, account_id: AccountId, cents: int, reason: str, admin: str,
                entry_id: str | None) -> LedgerEntry:
        _cents(cents, kind)
        _text(reason, "reason")
        _nonempty(admin, "admin")
        with self._tx() as c:
            if done := self._replayed(c, entry_id, kind, account_id, None, cents):
                return done
            account = self._get(c, account_id)
            if admin == account.name or admin in self._keys(c, account_id):
                raise SelfAdjustment("an admin may not adjust their own account")
            self._add_balance(c, account, cents if kind == "credit" else -cents)
            return self._entry(c, kind, account_id, None, cents, reason=reason, admin=admin,
                               entry_id=entry_id)

    @staticmethod
    def _keys(c: sqlite3.Connection, account_id: AccountId) -> set[str]:
        return {r[0] for r in c.execute("SELECT fingerprint FROM account_keys"
                                        " WHERE account_id = ?", (account_id,))}

    def credit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
               entry_id: str | None = None) -> LedgerEntry:
        return self._adjust("credit", account_id, cents, reason, admin, entry_id)

    def debit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
              entry_id: str | None = None) -> LedgerEntry:
        return self._adjust("debit", account_id, cents, reason, admin, entry_id)

    def table_chips(self, account_id: AccountId, table: str) -> int:
        with self._tx(write=False) as c:
            return self._chips(c, account_id, table)

    def holdings(self, account_id: AccountId) -> dict[str, int]:
        with self._tx(write=False) as c:
            return dict(c.execute("SELECT table_name, chips_cents FROM table_chips"
                                  " WHERE account_id = ? ORDER BY table_name", (account_id,)))

    def table_holdings(self, table: str) -> list[TableHolding]:
        _text(table, "table name")
        with self._tx(write=False) as c:
            return [TableHolding(a, chips, seat) for a, chips, seat in c.execute(
                "SELECT account_id, chips_cents, seat FROM table_chips WHERE table_name = ?"
                " ORDER BY seat IS NULL, seat, account_id", (table,))]

    def ledger(self, account_id: AccountId | None = None, *, hand_id: str | None = None,
               limit: int = 100, before_seq: int | None = None) -> list[LedgerEntry]:
        limit = max(1, min(int(limit), MAX_PAGE))
        where, params = [], []
        if account_id is not None:
            where.append("account_id = ?")
            params.append(account_id)
        if hand_id is not None:
            where.append("hand_id = ?")
            params.append(hand_id)
        if before_seq is not None:
            where.append("seq < ?")
            params.append(int(before_seq))
        sql = f"SELECT {self._ENTRY_COLS} FROM ledger"
        if where:
            sql += " WHERE " + " AND ".join(where)  # fixed fragments only; values are bound
        sql += " ORDER BY seq DESC LIMIT ?"
        with self._tx(write=False) as c:
            return [self._entry_row(r) for r in c.execute(sql, (*params, limit))]

    def rake_total(self) -> int:
        with self._tx(write=False) as c:
            return c.execute("SELECT rake_cents FROM house WHERE id = 1").fetchone()[0]

    _TOTAL_SQL = """
        SELECT CAST((SELECT COALESCE(SUM(balance_cents), 0) FROM accounts)
             + (SELECT COALESCE(SUM(chips_cents), 0) FROM table_chips)
             + (SELECT COALESCE(SUM(s.start_cents), 0) FROM hand_seats s
                  JOIN hands h ON h.seq = s.hand_seq WHERE h.status = 'in_progress')
             + (SELECT rake_cents FROM house WHERE id = 1) AS BIGINT)
    """
    _EXPECTED_SQL = """
        SELECT CAST(COALESCE(SUM(CASE WHEN kind IN ('open', 'credit') THEN amount_cents
                                      WHEN kind = 'debit' THEN -amount_cents ELSE 0 END), 0)
                    AS BIGINT)
        FROM ledger
    """

    def total_money(self) -> int:
        with self._tx(write=False) as c:
            return c.execute(self._TOTAL_SQL).fetchone()[0]

    def expected_money(self) -> int:
        with self._tx(write=False) as c:
            return c.execute(self._EXPECTED_SQL).fetchone()[0]

    def audit(self) -> None:
        """Raise ConservationError naming every way the money fails to add up (store/audit.py's
        check, the one start-up and the admin `audit` run too), on this store's read snapshot."""
        from cardroom.store.audit import ledger_problems   # audit imports this module
        with self._tx(write=False) as c:
            problems = ledger_problems(c)
        if problems:
            raise ConservationError("; ".join(problems))

    # --------------------------------------------------------------------------------- hands

    def _hand_row(self, c: sqlite3.Connection, row: tuple) -> HandRecord:
        (seq, hand_id, table, started, finished, status, deck, events, results, history,
         rake) = row
        seats = tuple(SeatStack(seat=s, account_id=a, start_cents=st, end_cents=e) for s, a, st, e
                      in c.execute("SELECT seat, account_id, start_cents, end_cents FROM"
                                   " hand_seats WHERE hand_seq = ? ORDER BY seat", (seq,)))
        return HandRecord(hand_id=hand_id, table=table, started_at=datetime.fromisoformat(started),
                          finished_at=self._when(finished), status=status, seats=seats, deck=deck,
                          events_json=events, results_json=results, history=history,
                          rake_cents=rake)

    _HAND_COLS = ("seq, id, table_name, started_at, finished_at, status, deck, events, results,"
                  " history, rake_cents")

    def _hand(self, c: sqlite3.Connection, hand_id: str) -> tuple[int, HandRecord] | None:
        row = c.execute(f"SELECT {self._HAND_COLS} FROM hands WHERE id = ?",
                        (hand_id,)).fetchone()
        return None if row is None else (row[0], self._hand_row(c, row))

    def begin_hand(self, start: HandStart) -> HandRecord:
        _nonempty(start.table, "table name")
        _text(start.deck, "deck")
        if not start.seats:
            raise HandStateError("a hand needs at least one seat")
        for s in start.seats:
            if type(s.seat) is not int or type(s.account_id) is not int:
                raise HandStateError("seat numbers and account ids must be ints")
            _cents(s.start_cents, f"seat {s.seat}'s start stack")
        if len({s.seat for s in start.seats}) != len(start.seats):
            raise HandStateError("a seat appears twice in the hand")
        if len({s.account_id for s in start.seats}) != len(start.seats):
            raise HandStateError("an account appears twice in the hand")
        with self._tx() as c:
            self._fence(c, start.table)
            if c.execute("SELECT 1 FROM hands WHERE table_name = ? AND status = 'in_progress'",
                         (start.table,)).fetchone():
                raise HandStateError(f"table {start.table!r} already has a hand in progress")
            seq = self._next_hand_seq(c)
            hand_id = str(seq)
            c.execute("INSERT INTO hands (seq, id, table_name, started_at, status, deck)"
                      " VALUES (?, ?, ?, ?, 'in_progress', ?)",
                      (seq, hand_id, start.table, self._now(), start.deck))
            for s in start.seats:
                self._get(c, s.account_id)
                self._add_chips(c, s.account_id, start.table, -s.start_cents, s.seat)
                c.execute("INSERT INTO hand_seats (hand_seq, seat, account_id, start_cents)"
                          " VALUES (?, ?, ?, ?)", (seq, s.seat, s.account_id, s.start_cents))
                self._entry(c, "hand_start", s.account_id, start.table, s.start_cents,
                            hand_id=hand_id)
            return self._hand(c, hand_id)[1]

    @staticmethod
    def _next_hand_seq(c: sqlite3.Connection) -> int:
        """The hand's id: the next number of the hands' sequence (AUTOINCREMENT never reuses
        one, and migration 4 put it past every older, random, id)."""
        return c.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM sqlite_sequence"
                         " WHERE name = 'hands'").fetchone()[0]

    def settle_hand(self, hand_id: str, deltas: Mapping[AccountId, int], rake_cents: int,
                    events_json: str, history: str = "") -> HandRecord:
        _nonempty(hand_id, "hand id")
        if not isinstance(deltas, Mapping):
            raise SettlementError("the results must map account ids to stack changes")
        for account, delta in deltas.items():
            if type(account) is not int or type(delta) is not int:
                raise SettlementError(f"stack change {account!r}: {delta!r} is not int: int")
            if abs(delta) > MAX_AMOUNT_CENTS:
                raise SettlementError(f"stack change of {delta} cents is out of range")
        _cents(rake_cents, "rake", allow_zero=True)
        _text(events_json, "events")
        _text(history, "history")
        try:
            json.loads(events_json)
        except ValueError as e:
            raise SettlementError(f"the events are not valid JSON: {e}") from e
        with self._tx() as c:
            found = self._hand(c, hand_id)
            if found is None:
                raise UnknownHand(f"no hand {hand_id!r}")
            seq, hand = found
            self._fence(c, hand.table)
            if hand.status != "in_progress":
                raise HandStateError(f"hand {hand_id!r} is {hand.status}, not in progress")
            seated = {s.account_id for s in hand.seats}
            if set(deltas) != seated:
                raise SettlementError(f"results name accounts {sorted(deltas)} but the hand "
                                      f"seats {sorted(seated)}")
            if sum(deltas.values()) + rake_cents != 0:
                raise SettlementError(f"stack changes sum to {sum(deltas.values())} and the rake "
                                      f"is {rake_cents}: chips would be created or lost")
            seats_out = []
            for s in hand.seats:
                end = s.start_cents + deltas[s.account_id]
                if end < 0:
                    raise SettlementError(f"seat {s.seat} would end with {end} cents")
                seats_out.append({"seat": s.seat, "account_id": s.account_id,
                                  "start_cents": s.start_cents,
                                  "delta_cents": deltas[s.account_id], "end_cents": end})
            for out in seats_out:
                c.execute("UPDATE hand_seats SET end_cents = ? WHERE hand_seq = ? AND seat = ?",
                          (out["end_cents"], seq, out["seat"]))
                self._add_chips(c, out["account_id"], hand.table, out["end_cents"], out["seat"])
                self._entry(c, "hand_end", out["account_id"], hand.table, out["end_cents"],
                            hand_id=hand_id)
            self._collect_rake(c, hand, rake_cents)
            results = json.dumps({"seats": seats_out, "rake_cents": rake_cents})
            c.execute("UPDATE hands SET status = 'settled', finished_at = ?, events = ?,"
                      " results = ?, history = ?, rake_cents = ? WHERE seq = ?",
                      (self._now(), events_json, results, history, rake_cents, seq))
            return self._hand(c, hand_id)[1]

    def _collect_rake(self, c: sqlite3.Connection, hand: HandRecord, rake_cents: int) -> None:
        """The house's share of a hand (a separate step so tests can fail mid-settlement)."""
        if rake_cents:
            c.execute("UPDATE house SET rake_cents = rake_cents + ? WHERE id = 1", (rake_cents,))
            self._entry(c, "rake", None, hand.table, rake_cents, hand_id=hand.hand_id)

    def _void(self, c: sqlite3.Connection, seq: int, hand: HandRecord, reason: str) -> None:
        """Every seat of a hand in progress gets its start-of-hand stack back on its table."""
        for s in hand.seats:
            self._add_chips(c, s.account_id, hand.table, s.start_cents, s.seat)
            self._entry(c, "hand_void", s.account_id, hand.table, s.start_cents, reason=reason,
                        hand_id=hand.hand_id)
        results = json.dumps({"void": True, "seats": [
            {"seat": s.seat, "account_id": s.account_id, "start_cents": s.start_cents,
             "returned_cents": s.start_cents} for s in hand.seats]})
        c.execute("UPDATE hands SET status = 'void', finished_at = ?, results = ?"
                  " WHERE seq = ?", (self._now(), results, seq))

    def void_hand(self, hand_id: str, reason: str) -> HandRecord:
        _nonempty(hand_id, "hand id")
        _text(reason, "reason")
        with self._tx() as c:
            found = self._hand(c, hand_id)
            if found is None:
                raise UnknownHand(f"no hand {hand_id!r}")
            seq, hand = found
            self._fence(c, hand.table)
            if hand.status != "in_progress":
                return hand
            self._void(c, seq, hand, reason)
            return self._hand(c, hand_id)[1]

    def void_unfinished_hands(self, tables: Iterable[str] | None = None) -> list[str]:
        wanted = None if tables is None else {_text(t, "table") for t in tables}
        with self._tx() as c:
            live = [hand_id for hand_id, table in c.execute(
                "SELECT id, table_name FROM hands WHERE status = 'in_progress' ORDER BY seq").fetchall()
                if wanted is None or table in wanted]
            for hand_id in live:
                seq, hand = self._hand(c, hand_id)
                self._fence(c, hand.table)
                self._void(c, seq, hand, "hand cut off (restart); start-of-hand stack returned")
            return live

    def get_hand(self, hand_id: str) -> HandRecord | None:
        with self._tx(write=False) as c:
            found = self._hand(c, _text(hand_id, "hand id"))
            return None if found is None else found[1]

    def hands_for_account(self, account_id: AccountId, *, limit: int = 20,
                          offset: int = 0) -> list[HandRecord]:
        limit = max(1, min(int(limit), MAX_PAGE))
        offset = max(0, int(offset))
        with self._tx(write=False) as c:
            rows = c.execute(
                f"SELECT {', '.join('h.' + col.strip() for col in self._HAND_COLS.split(','))}"
                " FROM hand_seats s JOIN hands h ON h.seq = s.hand_seq"
                " WHERE s.account_id = ? ORDER BY h.seq DESC LIMIT ? OFFSET ?",
                (account_id, limit, offset)).fetchall()
            return [self._hand_row(c, r) for r in rows]

    # ---------------------------------------------------------------------------------- bans

    @staticmethod
    def _refuse_banned(c: sqlite3.Connection, fingerprint: str) -> None:
        if c.execute("SELECT 1 FROM bans WHERE fingerprint = ?", (fingerprint,)).fetchone():
            raise Banned("this key is banned from the card room")

    def ban(self, fingerprint: str, reason: str, admin: str) -> None:
        _nonempty(fingerprint, "key fingerprint")
        _text(reason, "reason")
        _nonempty(admin, "admin")
        with self._tx() as c:
            c.execute("INSERT INTO bans (fingerprint, reason, admin, at) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT (fingerprint) DO UPDATE SET reason = excluded.reason,"
                      " admin = excluded.admin, at = excluded.at",
                      (fingerprint, reason, admin, self._now()))

    def unban(self, fingerprint: str) -> bool:
        _text(fingerprint, "key fingerprint")
        with self._tx() as c:
            return c.execute("DELETE FROM bans WHERE fingerprint = ?",
                             (fingerprint,)).rowcount > 0

    def is_banned(self, fingerprint: str) -> bool:
        _text(fingerprint, "key fingerprint")
        with self._tx(write=False) as c:
            return c.execute("SELECT 1 FROM bans WHERE fingerprint = ?",
                             (fingerprint,)).fetchone() is not None

    def bans(self) -> list[Ban]:
        with self._tx(write=False) as c:
            return [Ban(fingerprint=f, reason=r, admin=a, at=datetime.fromisoformat(at))
                    for f, r, a, at in c.execute("SELECT fingerprint, reason, admin, at FROM bans"
                                                 " ORDER BY at, rowid")]

    # ---------------------------------------------------------------------------------- moderation

    def set_muted(self, account_id: AccountId, muted: bool, admin: str) -> bool:
        _nonempty(admin, "admin")
        with self._tx() as c:
            self._get(c, account_id)
            if muted:
                return c.execute("INSERT INTO mutes (account_id, admin, at) VALUES (?, ?, ?)"
                                 " ON CONFLICT (account_id) DO NOTHING",
                                 (account_id, admin, self._now())).rowcount > 0
            return c.execute("DELETE FROM mutes WHERE account_id = ?", (account_id,)).rowcount > 0

    def muted_accounts(self) -> set[AccountId]:
        with self._tx(write=False) as c:
            return {AccountId(a) for (a,) in c.execute("SELECT account_id FROM mutes")}

    def use_allin_protection(self, account_id: AccountId, day: str, quota: int) -> bool:
        _text(day, "day")
        with self._tx() as c:
            # One statement: counts the use only while the day's count is under the quota.
            return c.execute(
                "INSERT INTO allin_protections (account_id, day, used) SELECT ?, ?, 1 WHERE ? > 0"
                " ON CONFLICT (account_id, day) DO UPDATE SET used = allin_protections.used + 1"
                " WHERE allin_protections.used < ?",
                (account_id, day, quota, quota)).rowcount > 0

    # -------------------------------------------------------------------------------- sessions

    def next_session_number(self) -> int:
        with self._tx() as c:
            return self._next_session_number(c)

    @staticmethod
    def _next_session_number(c: sqlite3.Connection) -> int:
        return c.execute("UPDATE session_numbers SET last = last + 1 WHERE id = 1"
                         " RETURNING last").fetchone()[0]

    # ------------------------------------------------------------------ preferences
    def preferences(self, account_id: AccountId) -> dict[str, str]:
        with self._tx(write=False) as c:
            return dict(c.execute("SELECT name, value FROM preferences WHERE account_id = ?",
                                  (account_id,)))

    def set_preferences(self, account_id: AccountId, values: Mapping[str, str]) -> None:
        for name, value in values.items():
            _nonempty(name, "preference name")
            _text(value, "preference value")
        with self._tx() as c:
            self._get(c, account_id)
            c.executemany("INSERT INTO preferences (account_id, name, value) VALUES (?, ?, ?)"
                          " ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value",
                          [(account_id, name, value) for name, value in values.items()])


__all__ = ["SqliteStore"]
