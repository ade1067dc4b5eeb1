"""Schema, migrations, durability settings, the database's own refusals, start-up errors."""

import ast
import sqlite3
from pathlib import Path

import pytest

import cardroom
from cardroom.room.ports import StoreCorrupt, StoreUnavailable
from cardroom.store import LATEST_VERSION, SqliteStore
from cardroom.store.migrations import migrate


def schema(path):
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT type, name, sql FROM sqlite_master").fetchall(),
                      key=repr)
    finally:
        conn.close()


def test_fresh_file_gets_the_latest_schema(store, db_path):
    assert store.settings()["user_version"] == LATEST_VERSION
    names = {row[1] for row in schema(db_path)}
    assert {"accounts", "account_keys", "table_chips", "house", "hands", "hand_seats",
            "ledger"} <= names


def test_migration_is_idempotent(db_path):
    SqliteStore(db_path).close()
    first = schema(db_path)
    for _ in range(3):
        with SqliteStore(db_path) as s:
            assert s.settings()["user_version"] == LATEST_VERSION
    assert schema(db_path) == first
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert migrate(conn) == 0                       # nothing left to apply
    assert conn.execute("SELECT COUNT(*) FROM house").fetchone()[0] == 1  # seed row not doubled
    conn.close()


def test_reopening_the_database_migrates_nothing_and_keeps_every_row(store, open_store, dump):
    """On every store: a database of the latest version opened again (each restart, each other
    process) is left as it is."""
    a = store.get_or_create("ann", 1_000)
    store.buy_in(a.id, "t1", 400)
    store.ban("SHA256:x", "spam", "boss")
    before = dump()
    for _ in range(3):
        open_store().close()
    assert dump() == before
    store.audit()


def test_migration_from_an_empty_database_applies_every_step(db_path):
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert migrate(conn) == LATEST_VERSION
    assert migrate(conn) == 0
    conn.close()
    with SqliteStore(db_path) as s:
        s.get_or_create("ann", 100)
        s.audit()


def test_wal_synchronous_full_foreign_keys_and_busy_timeout_are_set(store, db_path):
    got = store.settings()
    assert got["journal_mode"] == "wal"
    assert got["synchronous"] == "FULL"
    assert got["foreign_keys"] is True
    assert got["busy_timeout_ms"] >= 1000
    # Asked directly of the store's own connection, not through settings():
    assert store.db._conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    # WAL is a property of the file: a fresh connection sees it too.
    conn = sqlite3.connect(db_path)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    conn.close()


@pytest.mark.parametrize("sql", [
    "UPDATE accounts SET balance_cents = -1",
    "UPDATE table_chips SET chips_cents = -1",
    "UPDATE house SET rake_cents = -5",
    "UPDATE ledger SET amount_cents = -1",
    "UPDATE ledger SET kind = 'gift'",
    "INSERT INTO house (id, rake_cents) VALUES (2, 0)",  # one house
])
def test_the_database_itself_refuses_bad_money(store, raw, db, sql):
    a = store.get_or_create("ann", 1000)
    store.buy_in(a.id, "t1", 400)
    with pytest.raises(db.IntegrityError):
        raw.execute(sql)
    assert store.balance(a.id) == 600
    store.audit()


@pytest.mark.parametrize("sql", [
    "UPDATE accounts SET balance_cents = 1.5",           # STRICT: no fractional cents
    "UPDATE accounts SET balance_cents = '12'  || 'x'",  # STRICT: no text in a money column
])
def test_the_sqlite_file_refuses_money_that_is_not_whole_cents(store, raw, db_path, sql):
    a = store.get_or_create("ann", 1000)
    with pytest.raises(sqlite3.IntegrityError):
        raw.execute(sql)
    assert store.balance(a.id) == 1000


def test_the_database_refuses_a_second_live_hand_on_a_table(store, raw, db):
    live = ("INSERT INTO hands (seq, id, table_name, started_at, status, deck)"
            " VALUES (?, ?, 't', 'now', 'in_progress', '')")
    raw.execute(live, (901, "x1"))
    with pytest.raises(db.IntegrityError):
        raw.execute(live, (902, "x2"))


def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "garbage.sqlite3"
    path.write_bytes(b"this is not a database at all\n" * 200)
    with pytest.raises(StoreCorrupt, match="corrupted or not a cardroom database"):
        SqliteStore(path)
    assert path.read_bytes().startswith(b"this is not")   # untouched


def test_a_damaged_database_is_refused(tmp_path):
    path = tmp_path / "damaged.sqlite3"
    with SqliteStore(path) as s:
        for i in range(200):
            s.get_or_create(f"player{i:03d}" + "x" * 200, 1000)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    data = bytearray(path.read_bytes())
    page = 4096
    for p in range(2, len(data) // page):             # scribble over every page but the first
        data[p * page + 8:p * page + 64] = b"\xff" * 56
    path.write_bytes(bytes(data))
    with pytest.raises(StoreCorrupt):
        SqliteStore(path)


def test_an_unopenable_path_is_refused(tmp_path):
    with pytest.raises(StoreUnavailable, match="cannot open"):
        SqliteStore(tmp_path / "no" / "such" / "dir" / "x.sqlite3")


def test_a_database_from_a_newer_version_is_refused(db_path):
    SqliteStore(db_path).close()
    conn = sqlite3.connect(db_path)
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 5}")
    conn.commit()
    conn.close()
    with pytest.raises(StoreUnavailable, match="newer"):
        SqliteStore(db_path)


def test_a_database_locked_at_start_up_is_refused_not_waited_on_forever(db_path):
    SqliteStore(db_path).close()
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("PRAGMA user_version = 0")           # make the store want to migrate...
    conn.execute("BEGIN EXCLUSIVE")                   # ...while another process holds the lock
    try:
        with pytest.raises(StoreUnavailable, match="busy|locked"):
            SqliteStore(db_path, busy_timeout_ms=100)
    finally:
        conn.execute("ROLLBACK")
        conn.close()


def test_migration_4_numbers_new_hands_past_every_old_random_id(db_path):
    """Issue 19: a database of the random 12-digit hand ids is upgraded so new ids (the store's
    sequence) are larger than all of them: increasing, and never equal to an old one."""
    from cardroom.room.ports import HandStart, SeatStack
    from cardroom.store.migrations import MIGRATIONS

    conn = sqlite3.connect(db_path, isolation_level=None)
    for step in MIGRATIONS[:3]:                       # the schema as version 3 left it
        for statement in step:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 3")
    conn.execute("PRAGMA journal_mode = WAL")
    old = ("512345678901", "100000000007", "h-imported")
    for hand_id in old:
        conn.execute("INSERT INTO hands (id, table_name, started_at, finished_at, status, deck)"
                     " VALUES (?, 'T', '2026-01-01T00:00:00+00:00', '2026-01-01T00:00:01+00:00',"
                     " 'void', '')", (hand_id,))
    conn.close()
    with SqliteStore(db_path) as s:
        assert s.settings()["user_version"] == LATEST_VERSION
        a, b = s.get_or_create("ann", 1_000), s.get_or_create("bob", 1_000)
        for acct in (a, b):
            s.buy_in(acct.id, "T", 500)
        new = []
        for _ in range(2):
            new.append(s.begin_hand(HandStart("T", (SeatStack(1, a.id, 100), SeatStack(2, b.id, 100)))).hand_id)
            s.void_hand(new[-1], "test")
        assert [int(i) for i in new] == [512345678902, 512345678903]
        assert all(s.get_hand(i).status == "void" for i in old)



def test_migrations_number_hand_ids_as_v4_and_preferences_as_v5(db_path):
    """Two branches each wrote a v4: hand ids (the store's sequence) stay v4 and preferences come
    after as v5. A database at v4 (hand ids) is upgraded to v5 with the preferences table."""
    from cardroom.store.migrations import MIGRATIONS

    assert LATEST_VERSION >= 5
    assert "sqlite_sequence" in MIGRATIONS[3][0] and "CREATE TABLE preferences" in MIGRATIONS[4][0]
    conn = sqlite3.connect(db_path, isolation_level=None)
    for step in MIGRATIONS[:4]:
        for statement in step:
            conn.execute(statement)
    conn.execute("PRAGMA user_version = 4")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()
    with SqliteStore(db_path) as s:
        assert s.settings()["user_version"] == LATEST_VERSION
        ann = s.get_or_create("ann", 1_000)
        s.set_preferences(ann.id, {"theme": "nord"})
        assert s.preferences(ann.id) == {"theme": "nord"}

# ----------------------------------------------------------------------------------- layering

PACKAGE = Path(cardroom.__file__).parent


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
    return found


def test_ports_import_no_storage_or_io():
    mods = imported_modules(PACKAGE / "room" / "ports.py")
    assert not {m for m in mods if m.split(".")[0] in {"sqlite3", "asyncio", "textual",
                                                       "asyncssh", "socket"}}
    assert not {m for m in mods if m.startswith("cardroom") and m != "cardroom.engine"
                and not m.startswith("cardroom.engine.")}


def test_store_imports_only_room_ports_engine_and_itself():
    for path in (PACKAGE / "store").glob("*.py"):
        for m in imported_modules(path):
            if m.startswith("cardroom"):
                assert (m == "cardroom.room.ports" or m.startswith("cardroom.store")
                        or m.startswith("cardroom.engine")), (path.name, m)
