"""Fixtures for the store tests: real SQLite files under tmp_path, never mocks."""

import sqlite3

import pytest

from cardroom.store import SqliteStore

TABLES = ("accounts", "account_keys", "table_chips", "house", "hands", "hand_seats", "ledger")


def dump_db(path) -> dict[str, list[tuple]]:
    """Every row of every table, read through a separate raw connection."""
    conn = sqlite3.connect(path)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        conn.close()


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "cardroom.sqlite3"


@pytest.fixture
def store(db_path):
    s = SqliteStore(db_path)
    yield s
    s.close()


@pytest.fixture
def dump(db_path):
    return lambda: dump_db(db_path)


@pytest.fixture
def raw(db_path, store):
    """A raw connection to the same file (after the store created the schema)."""
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    yield conn
    conn.close()
