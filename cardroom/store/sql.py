"""The room's storage ports (`cardroom.room.ports.Store`) in SQL: every rule and query, once.

`SqlStore` holds what a store does -- accounts, keys, the ledger, table chips, hands, bans,
moderation, preferences -- as SQL that SQLite and PostgreSQL both run: every value a bound
parameter written `?`, RETURNING, `ON CONFLICT ... DO UPDATE` upserts (the same on both), sums
cast to BIGINT (PostgreSQL's SUM of BIGINTs is NUMERIC). What differs between the two is the
`Database` it is given (`cardroom.store.database`), one per dialect (`cardroom.store.sqlite`,
`cardroom.store.postgres`): connections, transactions and their locking, the placeholders,
sequences, the fence of a table host's writes, running a write again when it loses a race, and
the schema and its migrations. The bookkeeping every write shares (balances, chips, ledger
entries, the checks of what comes in) is `cardroom.store.books`.

Extending the store (a new table): its DDL goes in a migration of each dialect (`migrations.py`,
`pgschema.py`); its queries are written once, here or in a module of their own over the store's
`db` (as `leases.py` is): a read in `with db.transaction(write=False) as c:`, a write in a method
marked `@writes` around `with db.transaction() as c:`, its money moved with `books`.

SQL is never built from values: every value is a bound parameter. Names and other text are
stored exactly as given; sanitising them for display is the caller's job.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime, timezone

from cardroom.room.ports import (
    MAX_AMOUNT_CENTS, Account, AccountId, Ban, ConservationError, HandRecord, HandStart,
    HandStateError, KeyInUse, LedgerEntry, NameTaken, Refused, SelfAdjustment, SettlementError,
    TableHolding, UnknownHand,
)
from cardroom.store import books
from cardroom.store.audit import EXPECTED_SQL, TOTAL_SQL, ledger_problems
from cardroom.store.database import Connection, Database, writes
from cardroom.store.tournaments import TournamentBooks, fence_name

def utc_now() -> datetime:
    return datetime.now(timezone.utc)


def hand_fence(hand: HandRecord) -> str:
    """What a write to this hand is fenced by: its table's lease, or its tournament's."""
    return hand.table if hand.tournament_id is None else fence_name(hand.tournament_id)


class SqlStore(TournamentBooks):
    """Accounts, the ledger and hand histories in a SQL database (`db`), and tournaments
    (`TournamentBooks`, cardroom.store.tournaments). See the module docstring; `SqliteStore(path)`
    and `PostgresStore(url)` open one."""

    def __init__(self, db: Database, *, clock: Callable[[], datetime] = utc_now) -> None:
        self.db = db
        self.where = db.where
        self._clock = clock

    # ------------------------------------------------------------------------------ plumbing

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SqlStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def settings(self) -> dict[str, object]:
        """The database's effective settings, for diagnostics and tests."""
        return self.db.settings()

    def _now(self) -> str:
        return self._clock().isoformat()

    # ------------------------------------------------------------------------------ accounts

    @writes
    def get_or_create(self, name: str, starting_cents: int) -> Account:
        books.text(name, "name")
        books.cents(starting_cents, "starting money", allow_zero=True)
        with self.db.transaction() as c:
            return books.find_account(c, name) or books.open_account(c, self._now(), name, starting_cents)

    def get(self, account_id: AccountId) -> Account:
        with self.db.transaction(write=False) as c:
            return books.get_account(c, account_id)

    def find(self, name: str) -> Account | None:
        with self.db.transaction(write=False) as c:
            return books.find_account(c, books.text(name, "name"))

    def accounts(self, after: AccountId = 0) -> list[Account]:
        with self.db.transaction(write=False) as c:
            rows = c.execute(f"SELECT {books.ACCOUNT_COLS} FROM accounts WHERE id > ? ORDER BY id",
                             (int(after),)).fetchall()
            return [books.account_row(r) for r in rows]

    def balance(self, account_id: AccountId) -> int:
        return self.get(account_id).balance_cents

    @writes
    def claim(self, name: str, fingerprint: str, starting_cents: int) -> Account:
        books.text(name, "name")
        books.nonempty(fingerprint, "key fingerprint")
        books.cents(starting_cents, "starting money", allow_zero=True)
        with self.db.transaction() as c:
            books.refuse_banned(c, fingerprint)
            owner = c.execute("SELECT account_id FROM account_keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
            account = books.find_account(c, name)
            if owner is not None:
                if account is not None and owner[0] == account.id:
                    return account
                raise KeyInUse("this key already belongs to another account")
            if account is None:
                account = books.open_account(c, self._now(), name, starting_cents)
            elif c.execute("SELECT 1 FROM account_keys WHERE account_id = ? LIMIT 1",
                           (account.id,)).fetchone() is not None:
                raise NameTaken(f"the name {name!r} is taken")
            c.execute("INSERT INTO account_keys (fingerprint, account_id, added_at)"
                      " VALUES (?, ?, ?)", (fingerprint, account.id, self._now()))
            return account

    def account_for_key(self, fingerprint: str) -> Account | None:
        with self.db.transaction(write=False) as c:
            row = c.execute(f"SELECT {books.ACCOUNT_COLS} FROM accounts WHERE id ="
                            " (SELECT account_id FROM account_keys WHERE fingerprint = ?)",
                            (books.text(fingerprint, "key fingerprint"),)).fetchone()
            return None if row is None else books.account_row(row)

    @writes
    def add_key(self, account_id: AccountId, fingerprint: str) -> None:
        books.nonempty(fingerprint, "key fingerprint")
        with self.db.transaction() as c:
            books.get_account(c, account_id)
            books.refuse_banned(c, fingerprint)
            owner = c.execute("SELECT account_id FROM account_keys WHERE fingerprint = ?",
                              (fingerprint,)).fetchone()
            if owner is not None:
                if owner[0] == account_id:
                    return
                raise KeyInUse("this key already belongs to another account")
            c.execute("INSERT INTO account_keys (fingerprint, account_id, added_at)"
                      " VALUES (?, ?, ?)", (fingerprint, account_id, self._now()))

    @writes
    def remove_key(self, account_id: AccountId, fingerprint: str) -> bool:
        with self.db.transaction() as c:
            cur = c.execute("DELETE FROM account_keys WHERE account_id = ? AND fingerprint = ?",
                            (account_id, fingerprint))
            return cur.rowcount > 0

    def keys(self, account_id: AccountId) -> tuple[str, ...]:
        with self.db.transaction(write=False) as c:
            rows = c.execute("SELECT fingerprint FROM account_keys WHERE account_id = ?"
                             " ORDER BY added_at, fingerprint", (account_id,)).fetchall()
            return tuple(r[0] for r in rows)

    @writes
    def set_admin(self, account_id: AccountId, is_admin: bool) -> Account:
        if type(is_admin) is not bool:
            raise Refused("is_admin must be True or False")
        with self.db.transaction() as c:
            books.get_account(c, account_id)
            c.execute("UPDATE accounts SET is_admin = ? WHERE id = ?", (int(is_admin), account_id))
            return books.get_account(c, account_id)

    # -------------------------------------------------------------------------------- ledger

    @writes
    def buy_in(self, account_id: AccountId, table: str, cents: int, *,
               entry_id: str | None = None, seat: int | None = None) -> LedgerEntry:
        books.nonempty(table, "table name")
        books.cents(cents, "buy-in")
        if seat is not None and (type(seat) is not int or seat < 1):
            raise Refused(f"a seat is a number from 1, not {seat!r}")
        with self.db.transaction() as c:
            self.db.fence(c, table)
            if done := books.replayed(c, entry_id, "buy_in", account_id, table, cents):
                return done
            account = books.get_account(c, account_id)
            books.add_balance(c, account, -cents)
            books.add_chips(c, account_id, table, cents, seat)
            return books.add_entry(c, self._now(), "buy_in", account_id, table, cents, entry_id=entry_id)

    @writes
    def cash_out(self, account_id: AccountId, table: str, cents: int, *,
                 entry_id: str | None = None) -> LedgerEntry:
        books.nonempty(table, "table name")
        books.cents(cents, "cash-out")
        with self.db.transaction() as c:
            self.db.fence(c, table)
            if done := books.replayed(c, entry_id, "cash_out", account_id, table, cents):
                return done
            account = books.get_account(c, account_id)
            books.add_chips(c, account_id, table, -cents)
            books.add_balance(c, account, cents)
            return books.add_entry(c, self._now(), "cash_out", account_id, table, cents, entry_id=entry_id)

    @writes
    def _adjust(self, kind: str, account_id: AccountId, cents: int, reason: str, admin: str,
                entry_id: str | None) -> LedgerEntry:
        books.cents(cents, kind)
        books.text(reason, "reason")
        books.nonempty(admin, "admin")
        with self.db.transaction() as c:
            if done := books.replayed(c, entry_id, kind, account_id, None, cents):
                return done
            account = books.get_account(c, account_id)
            if admin == account.name or admin in books.keys_of(c, account_id):
                raise SelfAdjustment("an admin may not adjust their own account")
            books.add_balance(c, account, cents if kind == "credit" else -cents)
            return books.add_entry(c, self._now(), kind, account_id, None, cents, reason=reason,
                                   admin=admin, entry_id=entry_id)

    def credit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
               entry_id: str | None = None) -> LedgerEntry:
        return self._adjust("credit", account_id, cents, reason, admin, entry_id)

    def debit(self, account_id: AccountId, cents: int, reason: str, admin: str, *,
              entry_id: str | None = None) -> LedgerEntry:
        return self._adjust("debit", account_id, cents, reason, admin, entry_id)

    def table_chips(self, account_id: AccountId, table: str) -> int:
        with self.db.transaction(write=False) as c:
            return books.chips(c, account_id, table)

    def holdings(self, account_id: AccountId) -> dict[str, int]:
        with self.db.transaction(write=False) as c:
            return dict(c.execute("SELECT table_name, chips_cents FROM table_chips"
                                  " WHERE account_id = ? ORDER BY table_name", (account_id,)))

    def on_tables(self, account_id: AccountId) -> dict[str, int]:
        with self.db.transaction(write=False) as c:
            out = dict(c.execute("SELECT table_name, chips_cents FROM table_chips WHERE account_id = ?",
                                 (account_id,)))
            for table, cents in c.execute(
                    "SELECT h.table_name, s.start_cents FROM hand_seats s JOIN hands h ON h.seq = s.hand_seq"
                    " WHERE s.account_id = ? AND h.status = 'in_progress'", (account_id,)):
                out[table] = out.get(table, 0) + cents
            return dict(sorted(out.items()))

    def table_holdings(self, table: str) -> list[TableHolding]:
        books.text(table, "table name")
        with self.db.transaction(write=False) as c:
            return [TableHolding(a, chips, seat) for a, chips, seat in c.execute(
                "SELECT account_id, chips_cents, seat FROM table_chips WHERE table_name = ?"
                " ORDER BY seat IS NULL, seat, account_id", (table,))]

    def ledger(self, account_id: AccountId | None = None, *, hand_id: str | None = None,
               limit: int = 100, before_seq: int | None = None) -> list[LedgerEntry]:
        limit = books.page_size(limit)
        where: list[str] = []
        params: list[object] = []
        if account_id is not None:
            where.append("account_id = ?")
            params.append(account_id)
        if hand_id is not None:
            where.append("hand_id = ?")
            params.append(hand_id)
        if before_seq is not None:
            where.append("seq < ?")
            params.append(int(before_seq))
        sql = f"SELECT {books.ENTRY_COLS} FROM ledger"
        if where:
            sql += " WHERE " + " AND ".join(where)  # fixed fragments only; values are bound
        sql += " ORDER BY seq DESC LIMIT ?"
        with self.db.transaction(write=False) as c:
            return [books.entry_row(r) for r in c.execute(sql, (*params, limit))]

    def rake_total(self) -> int:
        with self.db.transaction(write=False) as c:
            return c.execute("SELECT rake_cents FROM house WHERE id = 1").fetchone()[0]

    def total_money(self) -> int:
        with self.db.transaction(write=False) as c:
            return c.execute(TOTAL_SQL).fetchone()[0]

    def expected_money(self) -> int:
        with self.db.transaction(write=False) as c:
            return c.execute(EXPECTED_SQL).fetchone()[0]

    def ledger_problems(self) -> list[str]:
        """Every way the money fails to add up, in words (`cardroom.store.audit`, the check that
        start-up and the admin `audit` run), on one read snapshot."""
        with self.db.transaction(write=False) as c:
            return ledger_problems(c)

    def audit(self) -> None:
        """Raise ConservationError naming every way the money fails to add up."""
        problems = self.ledger_problems()
        if problems:
            raise ConservationError("; ".join(problems))

    # --------------------------------------------------------------------------------- hands

    @writes
    def begin_hand(self, start: HandStart) -> HandRecord:
        books.nonempty(start.table, "table name")
        books.text(start.deck, "deck")
        if not start.seats:
            raise HandStateError("a hand needs at least one seat")
        for s in start.seats:
            if type(s.seat) is not int or type(s.account_id) is not int:
                raise HandStateError("seat numbers and account ids must be ints")
            books.cents(s.start_cents, f"seat {s.seat}'s start stack")
        if len({s.seat for s in start.seats}) != len(start.seats):
            raise HandStateError("a seat appears twice in the hand")
        if len({s.account_id for s in start.seats}) != len(start.seats):
            raise HandStateError("an account appears twice in the hand")
        tournament = start.tournament_id
        with self.db.transaction() as c:
            self.db.fence(c, start.table if tournament is None else fence_name(tournament))
            if c.execute("SELECT 1 FROM hands WHERE table_name = ? AND status = 'in_progress'",
                         (start.table,)).fetchone():
                raise HandStateError(f"table {start.table!r} already has a hand in progress")
            if tournament is not None and c.execute(
                    "SELECT 1 FROM tournaments WHERE id = ? AND state = 'running'", (tournament,)).fetchone() is None:
                raise HandStateError(f"tournament #{tournament} is not running")
            seq = self.db.next_value(c, "hand_ids")
            hand_id = str(seq)
            c.execute("INSERT INTO hands (seq, id, table_name, started_at, status, deck, tournament_id)"
                      " VALUES (?, ?, ?, ?, 'in_progress', ?, ?)",
                      (seq, hand_id, start.table, self._now(), start.deck, tournament))
            for s in start.seats:
                books.get_account(c, s.account_id)
                c.execute("INSERT INTO hand_seats (hand_seq, seat, account_id, start_cents)"
                          " VALUES (?, ?, ?, ?)", (seq, s.seat, s.account_id, s.start_cents))
                if tournament is None:   # tournament chips are not money: nothing in escrow
                    books.add_chips(c, s.account_id, start.table, -s.start_cents, s.seat)
                    books.add_entry(c, self._now(), "hand_start", s.account_id, start.table,
                                    s.start_cents, hand_id=hand_id)
            return books.hand_there(c, hand_id)[1]

    @writes
    def settle_hand(self, hand_id: str, deltas: Mapping[AccountId, int], rake_cents: int,
                    events_json: str, history: str = "") -> HandRecord:
        books.nonempty(hand_id, "hand id")
        if not isinstance(deltas, Mapping):
            raise SettlementError("the results must map account ids to stack changes")
        for account, delta in deltas.items():
            if type(account) is not int or type(delta) is not int:
                raise SettlementError(f"stack change {account!r}: {delta!r} is not int: int")
            if abs(delta) > MAX_AMOUNT_CENTS:
                raise SettlementError(f"stack change of {delta} cents is out of range")
        books.cents(rake_cents, "rake", allow_zero=True)
        books.text(events_json, "events")
        books.text(history, "history")
        try:
            json.loads(events_json)
        except ValueError as e:
            raise SettlementError(f"the events are not valid JSON: {e}") from e
        with self.db.transaction() as c:
            found = books.find_hand(c, hand_id)
            if found is None:
                raise UnknownHand(f"no hand {hand_id!r}")
            seq, hand = found
            self.db.fence(c, hand.table)
            if hand.tournament_id is not None:
                raise HandStateError(f"hand {hand_id!r} is a tournament's: it is settled with its tournament")
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
                books.add_chips(c, out["account_id"], hand.table, out["end_cents"], out["seat"])
                books.add_entry(c, self._now(), "hand_end", out["account_id"], hand.table,
                                out["end_cents"], hand_id=hand_id)
            self._collect_rake(c, hand, rake_cents)
            results = json.dumps({"seats": seats_out, "rake_cents": rake_cents})
            c.execute("UPDATE hands SET status = 'settled', finished_at = ?, events = ?,"
                      " results = ?, history = ?, rake_cents = ? WHERE seq = ?",
                      (self._now(), events_json, results, history, rake_cents, seq))
            return books.hand_there(c, hand_id)[1]

    def _collect_rake(self, c: Connection, hand: HandRecord, rake_cents: int) -> None:
        """The house's share of a hand (a separate step so tests can fail mid-settlement)."""
        if rake_cents:
            c.execute("UPDATE house SET rake_cents = rake_cents + ? WHERE id = 1", (rake_cents,))
            books.add_entry(c, self._now(), "rake", None, hand.table, rake_cents, hand_id=hand.hand_id)

    def _void(self, c: Connection, seq: int, hand: HandRecord, reason: str) -> None:
        """Every seat of a hand in progress gets its start-of-hand stack back on its table (a
        tournament's hand has none to give: its chips are its tournament's, restored with it)."""
        for s in hand.seats if hand.tournament_id is None else ():
            books.add_chips(c, s.account_id, hand.table, s.start_cents, s.seat)
            books.add_entry(c, self._now(), "hand_void", s.account_id, hand.table, s.start_cents,
                            reason=reason, hand_id=hand.hand_id)
        results = json.dumps({"void": True, "seats": [
            {"seat": s.seat, "account_id": s.account_id, "start_cents": s.start_cents,
             "returned_cents": s.start_cents} for s in hand.seats]})
        c.execute("UPDATE hands SET status = 'void', finished_at = ?, results = ?"
                  " WHERE seq = ?", (self._now(), results, seq))

    @writes
    def void_hand(self, hand_id: str, reason: str) -> HandRecord:
        books.nonempty(hand_id, "hand id")
        books.text(reason, "reason")
        with self.db.transaction() as c:
            found = books.find_hand(c, hand_id)
            if found is None:
                raise UnknownHand(f"no hand {hand_id!r}")
            seq, hand = found
            self.db.fence(c, hand_fence(hand))
            if hand.status != "in_progress":
                return hand
            self._void(c, seq, hand, reason)
            return books.hand_there(c, hand_id)[1]

    @writes
    def void_unfinished_hands(self, tables: Iterable[str] | None = None, *,
                              tournament: int | None = None) -> list[str]:
        wanted = None if tables is None else {books.text(t, "table") for t in tables}
        if tournament is not None and type(tournament) is not int:
            raise Refused(f"no tournament #{tournament!r}")
        with self.db.transaction() as c:
            live = [hand_id for hand_id, table, cup in c.execute(
                "SELECT id, table_name, tournament_id FROM hands WHERE status = 'in_progress' ORDER BY seq").fetchall()
                if (wanted is None or table in wanted) and (tournament is None or cup == tournament)]
            for hand_id in live:
                seq, hand = books.hand_there(c, hand_id)
                self.db.fence(c, hand_fence(hand))
                self._void(c, seq, hand, "hand cut off (restart); start-of-hand stack returned")
            return live

    def get_hand(self, hand_id: str) -> HandRecord | None:
        with self.db.transaction(write=False) as c:
            found = books.find_hand(c, books.text(hand_id, "hand id"))
            return None if found is None else found[1]

    def hands_for_account(self, account_id: AccountId, *, limit: int = 20,
                          offset: int = 0) -> list[HandRecord]:
        limit = books.page_size(limit)
        offset = max(0, int(offset))
        with self.db.transaction(write=False) as c:
            rows = c.execute(
                f"SELECT {', '.join('h.' + col.strip() for col in books.HAND_COLS.split(','))}"
                " FROM hand_seats s JOIN hands h ON h.seq = s.hand_seq"
                " WHERE s.account_id = ? ORDER BY h.seq DESC LIMIT ? OFFSET ?",
                (account_id, limit, offset)).fetchall()
            return [books.hand_row(c, r) for r in rows]

    # ---------------------------------------------------------------------------------- bans

    @writes
    def ban(self, fingerprint: str, reason: str, admin: str) -> None:
        books.nonempty(fingerprint, "key fingerprint")
        books.text(reason, "reason")
        books.nonempty(admin, "admin")
        with self.db.transaction() as c:
            c.execute("INSERT INTO bans (fingerprint, reason, admin, at) VALUES (?, ?, ?, ?)"
                      " ON CONFLICT (fingerprint) DO UPDATE SET reason = excluded.reason,"
                      " admin = excluded.admin, at = excluded.at",
                      (fingerprint, reason, admin, self._now()))

    @writes
    def unban(self, fingerprint: str) -> bool:
        books.text(fingerprint, "key fingerprint")
        with self.db.transaction() as c:
            return c.execute("DELETE FROM bans WHERE fingerprint = ?",
                             (fingerprint,)).rowcount > 0

    def is_banned(self, fingerprint: str) -> bool:
        books.text(fingerprint, "key fingerprint")
        with self.db.transaction(write=False) as c:
            return c.execute("SELECT 1 FROM bans WHERE fingerprint = ?",
                             (fingerprint,)).fetchone() is not None

    def bans(self) -> list[Ban]:
        with self.db.transaction(write=False) as c:
            return [Ban(fingerprint=f, reason=r, admin=a, at=datetime.fromisoformat(at))
                    for f, r, a, at in c.execute("SELECT fingerprint, reason, admin, at FROM bans"
                                                 " ORDER BY at, rowid")]

    # ---------------------------------------------------------------------------------- moderation

    @writes
    def set_muted(self, account_id: AccountId, muted: bool, admin: str) -> bool:
        books.nonempty(admin, "admin")
        with self.db.transaction() as c:
            books.get_account(c, account_id)
            if muted:
                return c.execute("INSERT INTO mutes (account_id, admin, at) VALUES (?, ?, ?)"
                                 " ON CONFLICT (account_id) DO NOTHING",
                                 (account_id, admin, self._now())).rowcount > 0
            return c.execute("DELETE FROM mutes WHERE account_id = ?", (account_id,)).rowcount > 0

    def muted_accounts(self) -> set[AccountId]:
        with self.db.transaction(write=False) as c:
            return {AccountId(a) for (a,) in c.execute("SELECT account_id FROM mutes")}

    @writes
    def use_allin_protection(self, account_id: AccountId, day: str, quota: int) -> bool:
        books.text(day, "day")
        with self.db.transaction() as c:
            # One statement: counts the use only while the day's count is under the quota.
            return c.execute(
                "INSERT INTO allin_protections (account_id, day, used) SELECT ?, ?, 1 WHERE ? > 0"
                " ON CONFLICT (account_id, day) DO UPDATE SET used = allin_protections.used + 1"
                " WHERE allin_protections.used < ?",
                (account_id, day, quota, quota)).rowcount > 0

    # -------------------------------------------------------------------------------- sessions

    @writes
    def next_session_number(self) -> int:
        with self.db.transaction() as c:
            return self.db.next_value(c, "session_numbers")

    # ------------------------------------------------------------------ preferences
    def preferences(self, account_id: AccountId) -> dict[str, str]:
        with self.db.transaction(write=False) as c:
            return dict(c.execute("SELECT name, value FROM preferences WHERE account_id = ?",
                                  (account_id,)))

    @writes
    def set_preferences(self, account_id: AccountId, values: Mapping[str, str]) -> None:
        for name, value in values.items():
            books.nonempty(name, "preference name")
            books.text(value, "preference value")
        with self.db.transaction() as c:
            books.get_account(c, account_id)
            c.executemany("INSERT INTO preferences (account_id, name, value) VALUES (?, ?, ?)"
                          " ON CONFLICT (account_id, name) DO UPDATE SET value = excluded.value",
                          [(account_id, name, value) for name, value in values.items()])


__all__ = ["SqlStore", "utc_now"]
