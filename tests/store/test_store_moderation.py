"""Admin mutes and the daily protected all-in counts: the ModerationStore port, migration v3.
Both used to live in the room's memory and ended with the process."""

import threading

import pytest

from cardroom.room.ports import ModerationStore, Refused, Store, UnknownAccount


def test_the_store_is_a_moderation_store(store):
    assert isinstance(store, ModerationStore) and isinstance(store, Store)


def test_mute_unmute_and_the_list(store):
    ann, bob = store.get_or_create("ann", 0), store.get_or_create("bob", 0)
    assert store.muted_accounts() == set()
    assert store.set_muted(ann.id, True, "boss") is True
    assert store.set_muted(ann.id, True, "boss") is False        # already muted
    assert store.muted_accounts() == {ann.id}
    assert store.set_muted(bob.id, False, "boss") is False       # was not muted
    assert store.set_muted(ann.id, False, "boss") is True
    assert store.muted_accounts() == set()


def test_muting_needs_a_real_account_and_an_admin(store):
    ann = store.get_or_create("ann", 0)
    with pytest.raises(Refused):
        store.set_muted(ann.id, True, "")
    with pytest.raises(UnknownAccount):
        store.set_muted(ann.id + 99, True, "boss")                # no such account
    assert store.muted_accounts() == set()


def test_mutes_and_protection_counts_survive_a_restart(open_store):
    s = open_store()
    ann = s.get_or_create("ann", 0)
    s.set_muted(ann.id, True, "boss")
    assert s.use_allin_protection(ann.id, "2026-11-30", 2)
    s.close()
    s = open_store()
    assert s.muted_accounts() == {ann.id}
    assert s.use_allin_protection(ann.id, "2026-11-30", 2)       # the second of two
    assert not s.use_allin_protection(ann.id, "2026-11-30", 2)   # used up, restart or not


def test_protected_all_ins_are_counted_per_account_and_day_up_to_the_quota(store):
    ann, bob = store.get_or_create("ann", 0), store.get_or_create("bob", 0)
    assert [store.use_allin_protection(ann.id, "2026-11-30", 2) for _ in range(4)] == [True, True, False, False]
    assert store.use_allin_protection(bob.id, "2026-11-30", 2)        # another account
    assert store.use_allin_protection(ann.id, "2026-12-01", 2)        # another day
    assert not store.use_allin_protection(ann.id, "2026-12-02", 0)    # a quota of none
    rows = store.db._conn.execute("SELECT account_id, day, used FROM allin_protections ORDER BY 1, 2").fetchall()
    assert rows == [(ann.id, "2026-11-30", 2), (ann.id, "2026-12-01", 1), (bob.id, "2026-11-30", 1)]


def test_two_processes_sharing_the_database_never_exceed_the_quota(store, open_store):
    """The count and the check are one statement: four stores racing over one database grant the
    day's quota exactly, never more."""
    ann = store.get_or_create("ann", 0)
    granted = []
    stores = [open_store() for _ in range(4)]

    def use(s):
        for _ in range(20):
            granted.append(s.use_allin_protection(ann.id, "2026-11-30", 5))

    threads = [threading.Thread(target=use, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert granted.count(True) == 5 and len(granted) == 80


def test_the_database_refuses_a_bad_count_or_day(store, raw, db):
    ann = store.get_or_create("ann", 0)
    for day, used in (("2026-11-30", 0), ("2026-11-30", -1), ("today", 1)):
        with pytest.raises(db.IntegrityError):
            raw.execute("INSERT INTO allin_protections (account_id, day, used) VALUES (?, ?, ?)", (ann.id, day, used))
