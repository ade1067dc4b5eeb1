"""`cardroom backup PATH`: a consistent copy of the database while the room runs (SQLite's
online backup API), checked before it is put in place, never over an existing file."""

import os
import sqlite3
import stat
import threading
from datetime import UTC, datetime

import pytest

from cardroom.cli import main
from cardroom.store import SqliteStore
from cardroom.store.backup import BackupError, backup


@pytest.fixture
def store(store, db_path):
    """The contract suite's store, on SQLite only (db_path): a backup copies the SQLite file."""
    return store


def _rows(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT COUNT(*) FROM ledger").fetchone()[0]
    finally:
        conn.close()


def test_a_backup_taken_while_another_connection_writes_is_whole_and_its_ledger_adds_up(tmp_path, store):
    """Another connection (as the running room's) moves money in multi-row transactions the whole
    time; every copy opens, passes SQLite's integrity check and the ledger audit, and holds exactly
    the transactions committed when it was taken (between the counts before and after)."""
    accounts = [store.get_or_create(f"p{i}", 100_000).id for i in range(4)]
    initial = _rows(store.path)
    done = 0
    progress = threading.Condition()
    stop = threading.Event()
    failure = []

    def writer():
        nonlocal done
        room = SqliteStore(store.path)        # its own connection, as the room's process has
        try:
            i = 0
            while not stop.is_set():
                a = accounts[(i // 3) % len(accounts)]     # buys in, cashes out, is credited
                step = i % 3
                if step == 0:
                    room.buy_in(a, "T", 500)        # balance, table chips and ledger in one transaction
                elif step == 1:
                    room.cash_out(a, "T", 500)
                else:
                    room.credit(a, 7, "refund", "boss")
                i += 1
                with progress:
                    done += 1
                    progress.notify_all()
        except Exception as e:  # noqa: BLE001 (reported by the test, not lost in the thread)
            failure.append(e)
            with progress:
                progress.notify_all()
        finally:
            room.close()

    thread = threading.Thread(target=writer)
    thread.start()
    copies = []
    try:
        for k in range(5):
            with progress:
                target = done + 20
                assert progress.wait_for(lambda t=target: done >= t or failure, timeout=60)
                before = done
            dest = tmp_path / f"copy{k}.sqlite3"
            assert main(["backup", str(dest), "--data-dir", str(tmp_path)]) == 0
            with progress:
                after = done
            copies.append((dest, before, after))
    finally:
        stop.set()
        thread.join()
    assert not failure, failure
    counts = []
    for dest, before, after in copies:
        assert not dest.with_name(dest.name + ".part").exists()
        copy = SqliteStore(dest)              # quick_check on open
        try:
            assert [r[0] for r in copy.db._conn.execute("PRAGMA integrity_check")] == ["ok"]
            copy.audit()
            assert copy.total_money() == copy.expected_money()
        finally:
            copy.close()
        rows = _rows(dest)
        assert initial + before <= rows <= initial + after, (rows, initial, before, after)
        counts.append(rows)
    assert counts == sorted(counts) and counts[-1] > counts[0]   # each copy is newer: taken live
    assert any(after > before for _, before, after in copies)    # commits landed while copying


def test_a_backup_never_overwrites_and_says_why(tmp_path, store, capsys):
    store.get_or_create("alice", 100_000)
    existing = tmp_path / "old.sqlite3"
    existing.write_bytes(b"an older backup")
    assert main(["backup", str(existing), "--data-dir", str(tmp_path)]) == 1
    assert "already exists" in capsys.readouterr().err
    assert existing.read_bytes() == b"an older backup"
    assert main(["backup", str(tmp_path / "no" / "such" / "folder.sqlite3"), "--data-dir", str(tmp_path)]) == 1
    assert "there is no folder" in capsys.readouterr().err
    assert main(["backup", str(tmp_path / "x.sqlite3"), "--data-dir", str(tmp_path / "empty")]) == 1
    assert "there is no database" in capsys.readouterr().err
    assert not (tmp_path / "empty").exists() and not (tmp_path / "x.sqlite3").exists()


def test_a_backup_into_a_folder_is_named_by_the_time(tmp_path, store):
    store.get_or_create("alice", 100_000)
    folder = tmp_path / "backups"
    folder.mkdir()
    written = backup(store.path, folder, now=datetime(2026, 12, 2, 10, 5, 9, tzinfo=UTC))
    assert written == folder / "cardroom-20261202-100509.sqlite3"
    assert sorted(p.name for p in folder.iterdir()) == [written.name]
    with SqliteStore(written) as copy:
        assert copy.find("alice").balance_cents == 100_000


def test_a_copy_that_fails_its_checks_is_not_left_behind(tmp_path, store):
    """A database whose ledger does not add up is copied, refused and removed: a file at the
    destination is always a checked backup."""
    alice = store.get_or_create("alice", 100_000)
    store.db._conn.execute("UPDATE accounts SET balance_cents = 1 WHERE id = ?", (alice.id,))
    with pytest.raises(BackupError, match="ledger does not add up"):
        backup(store.path, tmp_path / "bad.sqlite3")
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("bad")) == []


def test_a_room_on_postgresql_is_not_backed_up_from_a_sqlite_file(tmp_path, capsys):
    config = tmp_path / "config.toml"
    config.write_text('[server]\nstore = "postgresql://cardroom@db.example/cardroom"\n'
                      '[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    assert main(["backup", str(tmp_path / "x.sqlite3"), "--config", str(config)]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "x.sqlite3").exists()


def test_a_backup_is_its_owners_alone_as_the_database_is(tmp_path, store):
    """Issue 34: backups were written 0644 (by the umask) while the database is 0600; a copy holds
    every account and key of the room."""
    store.get_or_create("alice", 100_000)
    (tmp_path / "left.sqlite3.part").write_bytes(b"")     # a backup that stopped left its part file
    os.chmod(tmp_path / "left.sqlite3.part", 0o644)
    old = os.umask(0o022)
    try:
        written = [backup(store.path, tmp_path / "one.sqlite3"), backup(store.path, tmp_path / "left.sqlite3")]
        assert main(["backup", str(tmp_path / "cli.sqlite3"), "--data-dir", str(store.path.parent)]) == 0
    finally:
        os.umask(old)
    for path in [*written, tmp_path / "cli.sqlite3"]:
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_a_room_started_with_data_dir_is_found_or_the_error_says_how(tmp_path, capsys, monkeypatch):
    """Issue 35: `cardroom backup PATH` as the README writes it failed for a room started with
    `--data-dir`, saying only that there was no database beside the config. The error names the
    folder it looked in and the option that finds the other; with it the copy is made."""
    config = tmp_path / "config.toml"
    config.write_text('[[tables]]\nname = "T"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    elsewhere = tmp_path / "room-data"
    elsewhere.mkdir()
    with SqliteStore(elsewhere / "cardroom.sqlite3") as room:      # what `serve --data-dir` made
        room.get_or_create("alice", 100_000)
    dest = tmp_path / "copy.sqlite3"
    assert main(["backup", str(dest), "--config", str(config)]) == 1
    err = capsys.readouterr().err
    assert f"no database at {tmp_path / 'cardroom.sqlite3'}" in err
    assert f"cardroom backup {dest} --data-dir DIR" in err and not dest.exists()
    monkeypatch.chdir(tmp_path / "room-data")                     # no config.toml here
    assert main(["backup", str(dest)]) == 2
    err = capsys.readouterr().err
    assert "config.toml" in err and "--data-dir DIR" in err and "Traceback" not in err
    assert main(["backup", str(dest), "--data-dir", str(elsewhere)]) == 0
    with SqliteStore(dest) as copy:
        assert copy.find("alice").balance_cents == 100_000
