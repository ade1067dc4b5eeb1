"""The SQLite schema, versioned with ``PRAGMA user_version``.

``MIGRATIONS[i]`` takes a database from version ``i`` to ``i + 1``. Migrations are applied in one
``BEGIN IMMEDIATE`` transaction together with the new ``user_version`` (both are transactional in
SQLite), so a crash mid-migration leaves the old version intact and the next start retries.
Never edit a released migration: append a new one.

The database itself refuses negative money: CHECK constraints on balances, table chips, escrow
stacks, the house's rake and ledger amounts; STRICT tables refuse non-integer cents.
"""

from __future__ import annotations

import sqlite3

from cardroom.room.ports import HAND_STATUSES, LEDGER_KINDS, TOURNAMENT_STATES

MAX_HELD_CENTS = 10**15  # the most any one place may hold; far above any real game

# The ledger's kinds as version 1 made them (released: never changed); version 8 adds the
# tournaments' (LEDGER_KINDS is every kind there is now).
V1_LEDGER_KINDS = ("open", "credit", "debit", "buy_in", "cash_out", "hand_start", "hand_end", "rake",
                   "hand_void")
_kinds = ", ".join(f"'{k}'" for k in V1_LEDGER_KINDS)
_statuses = ", ".join(f"'{s}'" for s in HAND_STATUSES)

_V1: tuple[str, ...] = (
    f"""
    CREATE TABLE accounts (
        id             INTEGER PRIMARY KEY AUTOINCREMENT,
        name           TEXT    NOT NULL UNIQUE,
        balance_cents  INTEGER NOT NULL
                       CHECK (balance_cents >= 0 AND balance_cents <= {MAX_HELD_CENTS}),
        starting_cents INTEGER NOT NULL CHECK (starting_cents >= 0),
        is_admin       INTEGER NOT NULL DEFAULT 0 CHECK (is_admin IN (0, 1)),
        created_at     TEXT    NOT NULL
    ) STRICT
    """,
    """
    CREATE TABLE account_keys (
        fingerprint TEXT    PRIMARY KEY,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        added_at    TEXT    NOT NULL
    ) STRICT
    """,
    "CREATE INDEX account_keys_by_account ON account_keys(account_id)",
    f"""
    CREATE TABLE table_chips (
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        table_name  TEXT    NOT NULL,
        chips_cents INTEGER NOT NULL CHECK (chips_cents >= 0 AND chips_cents <= {MAX_HELD_CENTS}),
        PRIMARY KEY (account_id, table_name)
    ) STRICT
    """,
    f"""
    CREATE TABLE house (
        id         INTEGER PRIMARY KEY CHECK (id = 1),
        rake_cents INTEGER NOT NULL CHECK (rake_cents >= 0 AND rake_cents <= {MAX_HELD_CENTS})
    ) STRICT
    """,
    "INSERT INTO house (id, rake_cents) VALUES (1, 0)",
    f"""
    CREATE TABLE hands (
        seq         INTEGER PRIMARY KEY AUTOINCREMENT,
        id          TEXT    NOT NULL UNIQUE,
        table_name  TEXT    NOT NULL,
        started_at  TEXT    NOT NULL,
        finished_at TEXT,
        status      TEXT    NOT NULL CHECK (status IN ({_statuses})),
        deck        TEXT    NOT NULL,
        events      TEXT,
        results     TEXT,
        history     TEXT,
        rake_cents  INTEGER NOT NULL DEFAULT 0 CHECK (rake_cents >= 0),
        CHECK ((status = 'in_progress') = (finished_at IS NULL))
    ) STRICT
    """,
    "CREATE INDEX hands_by_status ON hands(status)",
    # At most one live hand per table: the database enforces it too.
    "CREATE UNIQUE INDEX one_live_hand_per_table ON hands(table_name) WHERE status = 'in_progress'",
    """
    CREATE TABLE hand_seats (
        hand_seq    INTEGER NOT NULL REFERENCES hands(seq),
        seat        INTEGER NOT NULL,
        account_id  INTEGER NOT NULL REFERENCES accounts(id),
        start_cents INTEGER NOT NULL CHECK (start_cents > 0),
        end_cents   INTEGER CHECK (end_cents IS NULL OR end_cents >= 0),
        PRIMARY KEY (hand_seq, seat),
        UNIQUE (hand_seq, account_id)
    ) STRICT
    """,
    "CREATE INDEX hand_seats_by_account ON hand_seats(account_id, hand_seq)",
    f"""
    CREATE TABLE ledger (
        seq          INTEGER PRIMARY KEY AUTOINCREMENT,
        id           TEXT    NOT NULL UNIQUE,
        at           TEXT    NOT NULL,
        kind         TEXT    NOT NULL CHECK (kind IN ({_kinds})),
        account_id   INTEGER REFERENCES accounts(id),
        table_name   TEXT,
        amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
        reason       TEXT    NOT NULL DEFAULT '',
        admin        TEXT,
        hand_id      TEXT,
        CHECK ((kind = 'rake') = (account_id IS NULL))
    ) STRICT
    """,
    "CREATE INDEX ledger_by_account ON ledger(account_id, seq)",
    "CREATE INDEX ledger_by_hand ON ledger(hand_id) WHERE hand_id IS NOT NULL",
)

# v2: banned key fingerprints (admin "ban"); refused by claim/add_key and asked by the session layer.
_V2: tuple[str, ...] = (
    """
    CREATE TABLE bans (
        fingerprint TEXT PRIMARY KEY CHECK (length(fingerprint) > 0),
        reason      TEXT NOT NULL DEFAULT '',
        admin       TEXT NOT NULL CHECK (length(admin) > 0),
        at          TEXT NOT NULL
    ) STRICT
    """,
)

# v3: what used to live only in memory and so ended with the process: admin mutes, and how many
# protected all-ins (a timeout while the daily quota lasts) each account has used on each day.
_V3: tuple[str, ...] = (
    """
    CREATE TABLE mutes (
        account_id INTEGER PRIMARY KEY REFERENCES accounts(id),
        admin      TEXT NOT NULL CHECK (length(admin) > 0),
        at         TEXT NOT NULL
    ) STRICT
    """,
    """
    CREATE TABLE allin_protections (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        day        TEXT    NOT NULL CHECK (length(day) = 10),
        used       INTEGER NOT NULL CHECK (used > 0),
        PRIMARY KEY (account_id, day)
    ) STRICT
    """,
)

# v4: hand ids are the hands' own sequence (``hands.seq``, which AUTOINCREMENT never reuses)
# instead of random 12-digit numbers the room drew (two could collide and pause a table). The
# sequence moves past every older all-digit id, so ids keep increasing and a new one can never
# equal an old one. No hand row yet means no sequence row and no old id: nothing to move.
_V4: tuple[str, ...] = (
    """
    UPDATE sqlite_sequence SET seq = MAX(seq, COALESCE(
        (SELECT MAX(CAST(id AS INTEGER)) FROM hands WHERE id <> '' AND id NOT GLOB '*[^0-9]*'),
        0))
    WHERE name = 'hands'
    """,
)

# v5: a player's display preferences (the Options dialog's ticks, the theme), kept across logins.
# Names and values are short text the room checks; what they mean is the TUI's business.
_V5: tuple[str, ...] = (
    """
    CREATE TABLE preferences (
        account_id INTEGER NOT NULL REFERENCES accounts(id),
        name       TEXT    NOT NULL CHECK (length(name) BETWEEN 1 AND 32),
        value      TEXT    NOT NULL CHECK (length(value) <= 64),
        PRIMARY KEY (account_id, name)
    ) STRICT
    """,
)

# v6: the seat each account's chips on a table are at (written by buy_in, kept through hands), so
# a table host that takes a table over from another (a room of several processes) seats everyone
# where they were. NULL for chips bought in before: such a seat is unknown. No CHECK: a hand's
# seat numbers (hand_seats.seat) are whatever the table numbers its seats by.
_V6: tuple[str, ...] = (
    "ALTER TABLE table_chips ADD COLUMN seat INTEGER",
)

# v7: the counter behind next_session_number (one live session per account: the newest login's
# number is the highest). PostgreSQL has a sequence; one row here keeps the protocol on both.
_V7: tuple[str, ...] = (
    """
    CREATE TABLE session_numbers (
        id   INTEGER PRIMARY KEY CHECK (id = 1),
        last INTEGER NOT NULL CHECK (last >= 0)
    ) STRICT
    """,
    "INSERT INTO session_numbers (id, last) VALUES (1, 0)",
)

# v8: tournaments (issue 38). A tournament instance with its money (the prize pool not yet paid,
# the house's fees) and its director's snapshot; its entries; its hands (a hand's `tournament_id`:
# stacks in chips, no money in escrow); and the ledger's tournament kinds, each row naming its
# tournament. SQLite cannot change a table's CHECK, so the ledger is rebuilt (same rows, same seq).
_tournament_states = ", ".join(f"'{s}'" for s in TOURNAMENT_STATES)
_all_kinds = ", ".join(f"'{k}'" for k in LEDGER_KINDS)
_V8: tuple[str, ...] = (
    f"""
    CREATE TABLE tournaments (
        id           INTEGER PRIMARY KEY AUTOINCREMENT,
        name         TEXT    NOT NULL CHECK (length(name) > 0),
        state        TEXT    NOT NULL CHECK (state IN ({_tournament_states})),
        buy_in_cents INTEGER NOT NULL CHECK (buy_in_cents >= 0),
        fee_cents    INTEGER NOT NULL CHECK (fee_cents >= 0),
        added_cents  INTEGER NOT NULL CHECK (added_cents >= 0),
        pool_cents   INTEGER NOT NULL DEFAULT 0
                     CHECK (pool_cents >= 0 AND pool_cents <= {MAX_HELD_CENTS}),
        fees_cents   INTEGER NOT NULL DEFAULT 0
                     CHECK (fees_cents >= 0 AND fees_cents <= {MAX_HELD_CENTS}),
        starts_at    TEXT,
        created_at   TEXT    NOT NULL,
        started_at   TEXT,
        finished_at  TEXT,
        snapshot     TEXT    NOT NULL,
        version      INTEGER NOT NULL DEFAULT 0
    ) STRICT
    """,
    "CREATE INDEX tournaments_by_state ON tournaments(state)",
    """
    CREATE TABLE tournament_entries (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
        entry         INTEGER NOT NULL CHECK (entry >= 1),
        account_id    INTEGER NOT NULL REFERENCES accounts(id),
        status        TEXT    NOT NULL CHECK (status IN ('in', 'refunded')),
        place         INTEGER CHECK (place IS NULL OR place >= 1),
        prize_cents   INTEGER NOT NULL DEFAULT 0 CHECK (prize_cents >= 0),
        registered_at TEXT    NOT NULL,
        PRIMARY KEY (tournament_id, entry)
    ) STRICT
    """,
    "CREATE INDEX tournament_entries_by_account ON tournament_entries(account_id)",
    "ALTER TABLE hands ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id)",
    f"""
    CREATE TABLE ledger_v8 (
        seq           INTEGER PRIMARY KEY AUTOINCREMENT,
        id            TEXT    NOT NULL UNIQUE,
        at            TEXT    NOT NULL,
        kind          TEXT    NOT NULL CHECK (kind IN ({_all_kinds})),
        account_id    INTEGER REFERENCES accounts(id),
        table_name    TEXT,
        amount_cents  INTEGER NOT NULL CHECK (amount_cents >= 0),
        reason        TEXT    NOT NULL DEFAULT '',
        admin         TEXT,
        hand_id       TEXT,
        tournament_id INTEGER REFERENCES tournaments(id),
        CHECK ((kind IN ('rake', 'tournament_added')) = (account_id IS NULL)),
        CHECK ((substr(kind, 1, 11) = 'tournament_') = (tournament_id IS NOT NULL))
    ) STRICT
    """,
    "INSERT INTO ledger_v8 (seq, id, at, kind, account_id, table_name, amount_cents, reason, admin, hand_id)"
    " SELECT seq, id, at, kind, account_id, table_name, amount_cents, reason, admin, hand_id FROM ledger",
    "DROP TABLE ledger",
    "ALTER TABLE ledger_v8 RENAME TO ledger",
    "CREATE INDEX ledger_by_account ON ledger(account_id, seq)",
    "CREATE INDEX ledger_by_hand ON ledger(hand_id) WHERE hand_id IS NOT NULL",
    "CREATE INDEX ledger_by_tournament ON ledger(tournament_id) WHERE tournament_id IS NOT NULL",
)

MIGRATIONS: tuple[tuple[str, ...], ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7, _V8)
LATEST_VERSION = len(MIGRATIONS)


class SchemaTooNew(Exception):
    """The database was written by a newer cardroom than this one."""


def schema_version(conn: sqlite3.Connection) -> int:
    return conn.execute("PRAGMA user_version").fetchone()[0]


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the schema to LATEST_VERSION; returns the number of migrations applied.

    ``conn`` must be in autocommit mode (``isolation_level=None``). Safe to run from several
    processes at once: the version is re-read inside the write transaction.
    """
    if schema_version(conn) == LATEST_VERSION:
        return 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(conn)
        if version > LATEST_VERSION:
            raise SchemaTooNew(f"database schema version {version} is newer than this "
                               f"cardroom understands ({LATEST_VERSION})")
        for target in range(version + 1, LATEST_VERSION + 1):
            for statement in MIGRATIONS[target - 1]:
                conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {int(target)}")
        applied = LATEST_VERSION - version
        conn.execute("COMMIT")
        return applied
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
