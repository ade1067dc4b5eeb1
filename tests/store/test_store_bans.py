"""Banned key fingerprints: the BanStore port, migration v2, and claim/add_key refusing bans."""

import sqlite3
from datetime import datetime

import pytest

from cardroom.room.ports import Ban, Banned, BanStore, Refused, Store
from cardroom.store import LATEST_VERSION, SqliteStore
from cardroom.store import migrations
from cardroom.store.migrations import migrate

FP = "SHA256:" + "a" * 43
FP2 = "SHA256:" + "b" * 43


def test_the_store_is_a_ban_store(store):
    assert isinstance(store, BanStore)
    assert isinstance(store, Store)


def test_ban_unban_is_banned_and_the_list(store):
    assert store.bans() == [] and not store.is_banned(FP)
    store.ban(FP, "collusion", "boss")
    store.ban(FP2, "", "SHA256:admin")
    assert store.is_banned(FP) and store.is_banned(FP2) and not store.is_banned("SHA256:other")
    got = store.bans()
    assert [b.fingerprint for b in got] == [FP, FP2]
    assert (got[0].reason, got[0].admin) == ("collusion", "boss")
    assert isinstance(got[0], Ban) and isinstance(got[0].at, datetime)
    with pytest.raises(AttributeError):
        got[0].reason = "x"                       # frozen
    assert store.unban(FP) is True
    assert store.unban(FP) is False               # not banned any more
    assert not store.is_banned(FP) and store.is_banned(FP2)
    assert [b.fingerprint for b in store.bans()] == [FP2]


def test_banning_again_replaces_the_reason_and_keeps_one_row(store):
    store.ban(FP, "first", "boss")
    store.ban(FP, "second", "other admin")
    [b] = store.bans()
    assert (b.reason, b.admin) == ("second", "other admin")


def test_bans_survive_a_restart(open_store):
    with open_store() as s:
        s.ban(FP, "spam", "boss")
    with open_store() as s:
        assert s.is_banned(FP)
        assert s.bans()[0].reason == "spam"


@pytest.mark.parametrize("fp, reason, admin", [
    ("", "r", "boss"), (None, "r", "boss"), (FP, None, "boss"), (FP, "r", ""), (FP, "r", None),
    (123, "r", "boss"),
])
def test_bad_ban_arguments_are_refused_and_change_nothing(store, fp, reason, admin):
    with pytest.raises(Refused):
        store.ban(fp, reason, admin)
    assert store.bans() == []


def test_hostile_text_is_stored_exactly_with_bound_parameters(store):
    fp = "x'); DROP TABLE bans; --"
    reason = "\x1b]0;pwned\x07[bold]r[/]\u202e"
    store.ban(fp, reason, "boss")
    assert store.is_banned(fp) and store.bans()[0].reason == reason


def test_a_banned_key_cannot_claim_a_name_or_be_added(store):
    a = store.claim("ann", FP, 1000)
    store.ban(FP, "cheating", "boss")
    with pytest.raises(Banned, match="banned"):
        store.claim("ann", FP, 1000)              # the owner logging in again
    with pytest.raises(Banned):
        store.claim("newname", FP, 1000)          # nor under a fresh name
    assert store.find("newname") is None          # nothing created
    b = store.get_or_create("bob", 0)
    with pytest.raises(Banned):
        store.add_key(b.id, FP)
    assert store.keys(b.id) == ()
    store.unban(FP)
    assert store.claim("ann", FP, 1000) == a      # lifted: back in
    store.audit()


def test_a_banned_but_unknown_key_is_refused_before_any_account_exists(store):
    store.ban(FP2, "pre-emptive", "boss")
    with pytest.raises(Banned):
        store.claim("carl", FP2, 500)
    assert store.accounts() == [] and store.total_money() == store.expected_money() == 0


def test_the_bans_table_is_created_by_migration_v2_from_a_v1_database(db_path):
    conn = sqlite3.connect(db_path, isolation_level=None)
    conn.execute("BEGIN IMMEDIATE")
    for statement in migrations.MIGRATIONS[0]:
        conn.execute(statement)
    conn.execute("PRAGMA user_version = 1")
    conn.execute("COMMIT")
    conn.execute("INSERT INTO accounts (name, balance_cents, starting_cents, created_at)"
                 " VALUES ('ann', 0, 0, '2026-01-01T00:00:00+00:00')")
    conn.close()
    assert LATEST_VERSION >= 2
    with SqliteStore(db_path) as s:
        assert s.settings()["user_version"] == LATEST_VERSION
        assert s.find("ann") is not None          # v1 data kept
        s.ban(FP, "r", "boss")
        assert s.is_banned(FP)
    conn = sqlite3.connect(db_path, isolation_level=None)
    assert migrate(conn) == 0
    conn.close()


def test_the_database_itself_refuses_an_empty_fingerprint(store, raw, db):
    with pytest.raises(db.IntegrityError):
        raw.execute("INSERT INTO bans (fingerprint, reason, admin, at) VALUES ('', '', 'a', 'x')")
    with pytest.raises(db.IntegrityError):
        raw.execute("INSERT INTO bans (fingerprint, reason, admin, at) VALUES ('f', '', '', 'x')")
