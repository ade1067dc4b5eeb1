"""Fixtures for the store tests: one contract suite, run against every store on a real database.

A test that takes `store` (or `db`, `dump`, `raw`, `open_store`) runs once on a SQLite file under
tmp_path and once on a fresh PostgreSQL database of the session's throw-away cluster
(`tests.conftest.pg_cluster`). A test that takes `db_path` is about the SQLite file itself and runs
on SQLite only.
"""

import sqlite3

import pytest

from cardroom.store import open_store as open_any

TABLES = ("accounts", "account_keys", "table_chips", "house", "hands", "hand_seats", "ledger")
BACKENDS = ("sqlite", "postgresql")


def dump_db(path) -> dict[str, list[tuple]]:
    """Every row of every table, read through a separate raw connection."""
    conn = sqlite3.connect(path)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in TABLES}
    finally:
        conn.close()


class SqliteDb:
    """A SQLite file: `where` for open_store, a raw connection, every row."""

    name = "sqlite"
    IntegrityError = sqlite3.IntegrityError

    def __init__(self, path):
        self.where = self.path = path

    def raw(self):
        conn = sqlite3.connect(self.path, isolation_level=None)
        conn.execute("PRAGMA foreign_keys = ON")
        return conn

    def dump(self):
        return dump_db(self.path)


class PgRaw:
    """A raw autocommit psycopg connection taking `?` placeholders, as the tests write SQL."""

    def __init__(self, url):
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)

    def execute(self, sql, params=()):
        return self.conn.execute(sql.replace("?", "%s"), params or None)

    def close(self):
        self.conn.close()


class PgDb:
    name = "postgresql"

    def __init__(self, url):
        import psycopg

        self.where = self.url = url
        self.IntegrityError = psycopg.IntegrityError

    def raw(self):
        return PgRaw(self.url)

    def dump(self):
        conn = PgRaw(self.url)
        try:
            return {t: sorted(map(tuple, conn.execute(f"SELECT * FROM {t}").fetchall()), key=repr)
                    for t in TABLES}
        finally:
            conn.close()


def pytest_generate_tests(metafunc):
    if "db" in metafunc.fixturenames:
        sqlite_file = "db_path" in metafunc.fixturenames
        metafunc.parametrize("db", ["sqlite"] if sqlite_file else list(BACKENDS), indirect=True)


@pytest.fixture
def db(request, tmp_path):
    if request.param == "sqlite":
        return SqliteDb(tmp_path / "cardroom.sqlite3")
    return PgDb(request.getfixturevalue("pg_cluster").new_database())


@pytest.fixture
def db_path(db):
    return db.path


@pytest.fixture
def open_store(db):
    """Opens another store on the test's database (another process's view of it)."""
    opened = []

    def another():
        opened.append(open_any(db.where))
        return opened[-1]

    yield another
    for s in opened:
        s.close()


@pytest.fixture
def store(db):
    s = open_any(db.where)
    yield s
    s.close()


@pytest.fixture
def dump(db):
    return db.dump


@pytest.fixture
def raw(db, store):
    """A raw connection to the same database (after the store created the schema)."""
    conn = db.raw()
    yield conn
    conn.close()
