"""roles/logins.py: who may take a new name. The look-alike check of a new name reads the
accounts created since it last looked, not every account at each login."""

from __future__ import annotations

from cardroom.roles import logins
from cardroom.store.sqlite import SqliteStore


class _Counting:
    """A real store whose `accounts` reads are counted (rows read)."""

    def __init__(self, store) -> None:
        self._store, self.read = store, 0

    def accounts(self, *args, **kw):
        rows = self._store.accounts(*args, **kw)
        self.read += len(rows)
        return rows

    def __getattr__(self, name):
        return getattr(self._store, name)


def test_a_storm_of_new_names_reads_each_account_about_once(tmp_path):
    store = SqliteStore(tmp_path / "room.sqlite3")
    try:
        for i in range(600):
            store.get_or_create(f"player{i:03d}x", 0)
        counting = _Counting(store)
        refused = logins.make_name_refused(counting)
        assert refused("newcomer") is None           # the first look reads them all
        first = counting.read
        assert first >= 600
        for i in range(300):                         # a storm of new players, each a new account
            name = f"late{i}z"
            assert refused(name) is None
            store.get_or_create(name, 0)
        # Each look reads the accounts made since and a bounded margin, never all of them again.
        assert counting.read - first <= 300 * (logins.IN_FLIGHT + 2)
        assert refused("PLAYER007X") is not None     # the old accounts are still looked at
    finally:
        store.close()


def test_a_look_alike_of_a_name_taken_through_another_process_is_refused(tmp_path):
    here, there = SqliteStore(tmp_path / "room.sqlite3"), SqliteStore(tmp_path / "room.sqlite3")
    try:
        refused = logins.make_name_refused(here)
        assert refused("alice") is None              # read once: nobody yet
        there.get_or_create("alice", 0)              # another gateway's new player
        assert "looks like another player's" in refused("Ali.ce")
        assert refused("alice") is None              # her own name: decided by her keys
    finally:
        here.close()
        there.close()
