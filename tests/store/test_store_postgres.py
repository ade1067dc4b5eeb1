"""What only the PostgreSQL store has: its schema versions table, migrating from several processes
at once, connecting by URL (never showing its password), a connection PostgreSQL dropped. The
rules it shares with SQLite are the contract suite's (every test taking `store`)."""

import threading

import pytest

from cardroom.room.ports import StoreUnavailable
from cardroom.store import open_store


@pytest.fixture
def pg_url(pg_cluster):
    return pg_cluster.new_database()


def versions(url):
    import psycopg

    with psycopg.connect(url) as conn:
        return [r[0] for r in conn.execute("SELECT version FROM schema_versions ORDER BY version")]


def test_pg_a_fresh_database_is_migrated_and_the_version_recorded(pg_url):
    from cardroom.store.pgschema import LATEST_VERSION

    with open_store(pg_url) as s:
        assert s.settings()["schema_version"] == LATEST_VERSION
        assert s.settings()["write_isolation"] == "serializable"
    assert versions(pg_url) == list(range(1, LATEST_VERSION + 1))


def test_pg_opening_again_migrates_nothing(pg_url):
    import psycopg

    from cardroom.store.pgschema import migrate

    open_store(pg_url).close()
    first = versions(pg_url)
    for _ in range(3):
        open_store(pg_url).close()
    assert versions(pg_url) == first
    with psycopg.connect(pg_url, autocommit=True) as conn:
        assert migrate(conn) == 0
        assert conn.execute("SELECT COUNT(*) FROM house").fetchone()[0] == 1


def test_pg_stores_started_together_migrate_once(pg_url):
    """Table hosts and gateways starting at the same moment on an empty database: one migrates
    (under an advisory lock), the others wait and find it done."""
    opened, failed = [], []
    barrier = threading.Barrier(4)

    def start():
        barrier.wait()
        try:
            opened.append(open_store(pg_url))
        except Exception as e:      # noqa: BLE001 - any failure is the finding
            failed.append(e)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for s in opened:
        s.close()
    from cardroom.store.pgschema import LATEST_VERSION

    assert failed == [] and len(opened) == 4
    assert versions(pg_url) == list(range(1, LATEST_VERSION + 1))


def test_pg_a_database_from_a_newer_version_is_refused(pg_url):
    import psycopg

    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("INSERT INTO schema_versions (version) VALUES (99)")
    with pytest.raises(StoreUnavailable, match="newer"):
        open_store(pg_url)


def test_pg_an_unreachable_server_is_refused_without_showing_the_password(pg_cluster):
    from tests.pgcluster import free_port

    url = f"postgresql://ann:s3cret@127.0.0.1:{free_port()}/cardroom"
    with pytest.raises(StoreUnavailable, match="cannot connect to the PostgreSQL database "
                                               "'cardroom' on 127.0.0.1") as caught:
        open_store(url)
    assert "s3cret" not in str(caught.value)


def test_pg_a_dropped_connection_is_opened_again(pg_url):
    """PostgreSQL restarted (here: the store's sessions ended by an admin): the next call finds
    its idle connection dropped when it begins, and goes on, on a new one -- the write and the
    read both work at once, as if nothing had happened."""
    import psycopg

    with open_store(pg_url) as s:
        ann = s.get_or_create("ann", 1_000)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                          " WHERE application_name = 'cardroom'")
        s.buy_in(ann.id, "t1", 100)
        assert s.balance(ann.id) == 900 and s.table_chips(ann.id, "t1") == 100
        s.audit()


def test_pg_a_call_while_the_server_is_away_says_so_then_works_again(tmp_path):
    """The server stopped: a call is StoreUnavailable (never a hang past the connect timeout),
    and once it is back the same store works, with nothing changed meanwhile."""
    from tests.pgcluster import Cluster, missing, pg_bin

    if pg_bin() is None:
        missing("its server binaries (initdb, pg_ctl) are not installed")
    cluster = Cluster(pg_bin())
    try:
        with open_store(cluster.url()) as s:
            ann = s.get_or_create("ann", 1_000)
            cluster.stop_server()
            with pytest.raises(StoreUnavailable):
                s.buy_in(ann.id, "t1", 100)
            with pytest.raises(StoreUnavailable):
                s.balance(ann.id)
            cluster.start_server()
            assert s.balance(ann.id) == 1_000
            s.buy_in(ann.id, "t1", 100)
            assert s.balance(ann.id) == 900 and s.table_chips(ann.id, "t1") == 100
            s.audit()
    finally:
        cluster.stop()


def test_open_store_takes_a_url_or_a_path(tmp_path, pg_url):
    from cardroom.store import SqliteStore
    from cardroom.store.postgres import PostgresStore

    with open_store(pg_url) as s:
        assert type(s) is PostgresStore
    with open_store(tmp_path / "room.sqlite3") as s:
        assert type(s) is SqliteStore


def test_without_the_server_the_tests_skip_saying_why_but_fail_in_ci(monkeypatch):
    """CI must not pass by skipping the PostgreSQL half of the contract suite."""
    from tests.pgcluster import missing

    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="PostgreSQL tests skipped: no initdb"):
        missing("no initdb")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="PostgreSQL is needed in CI and no initdb"):
        missing("no initdb")


def test_pg_every_public_write_runs_again_when_it_loses_a_race():
    """A write not marked `@writes` would fail with StoreUnavailable on any race with another
    process instead of running again: every method that opens a write transaction -- the store's
    and the leases' -- is wrapped by it (credit and debit through _adjust)."""
    import inspect

    from cardroom.store.leases import Leases
    from cardroom.store.database import writes
    from cardroom.store.sql import SqlStore

    wrapper = writes(lambda self: None).__code__
    for cls in (SqlStore, Leases):
        opening = {name for name, f in inspect.getmembers(cls, inspect.isfunction)
                   if "self.db.transaction()" in inspect.getsource(f)}
        assert opening
        assert {name for name in opening if getattr(cls, name).__code__ is not wrapper} == set()
    assert {"buy_in", "settle_hand", "_adjust", "next_session_number"} <= {
        name for name, f in inspect.getmembers(SqlStore, inspect.isfunction) if f.__code__ is wrapper}


def test_pg_a_database_at_version_1_gains_the_preferences_table(pg_url, monkeypatch):
    """A database made before preferences (version 1, SQLite's 4) is upgraded in place."""
    from cardroom.store import pgschema

    assert "CREATE TABLE preferences" in pgschema.MIGRATIONS[1][0]
    with monkeypatch.context() as m:                 # the cardroom of version 1
        m.setattr(pgschema, "MIGRATIONS", pgschema.MIGRATIONS[:1])
        m.setattr(pgschema, "LATEST_VERSION", 1)
        open_store(pg_url).close()
    assert versions(pg_url) == [1]
    with open_store(pg_url) as s:
        assert s.settings()["schema_version"] == pgschema.LATEST_VERSION
        ann = s.get_or_create("ann", 1_000)
        s.set_preferences(ann.id, {"theme": "nord"})
        assert s.preferences(ann.id) == {"theme": "nord"}
    assert versions(pg_url) == list(range(1, pgschema.LATEST_VERSION + 1))
