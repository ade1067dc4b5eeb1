"""Admin tests run against a real room: the room tests' fixture (real SQLite + FakeClock)."""

import asyncio

import pytest

from cardroom.admin.commands import AdminContext
from tests.rooms import table_settings
from tests.room.conftest import make_room, seat_players  # noqa: F401 (fixture)

BOSS_FP = "SHA256:" + "B" * 43
ALICE_FP = "SHA256:" + "a" * 43
ALICE_FP2 = "SHA256:" + "c" * 43
BOB_FP = "SHA256:" + "b" * 43
SPACED = "Planet Hold'em $2/$4"


class Admin:
    """A room with two tables, an admin account and a context for its commands."""

    def __init__(self, make_room):  # noqa: F811 - the fixture imported above, passed in
        self.room, self.clock = make_room(table_settings("T"), table_settings(SPACED))
        self.store = self.room.store
        self.boss = self.room.connect("boss", BOSS_FP)
        self.store.set_admin(self.boss.account_id, True)
        self.shutdowns = []
        self.ctx = AdminContext(self.room, self.store, BOSS_FP, lambda: self.shutdowns.append(1))

    def run(self, line, ctx=None):
        """One command line, as the panel runs it (the room's writer is the inline one here)."""
        from cardroom.admin.commands import execute
        return asyncio.run(execute(ctx or self.ctx, line))

    def players(self, table="T", names=("alice", "bob"), keys=(ALICE_FP, BOB_FP), stack=10_000):
        clients = []
        for name, fp in zip(names, keys):
            c = self.room.connect(name, fp)
            c.join(table)
            c.set_auto_blind(table, True)     # it starts off (seed 000): deal without asking
            c.buy_in(table, stack)
            clients.append(c)
        return clients

    def state(self):
        """Everything a refused command must leave alone."""
        store, room = self.store, self.room
        return (
            store.total_money(), store.expected_money(),
            tuple((a.id, a.name, a.balance_cents) for a in store.accounts()),
            len(store.ledger(limit=500)), tuple(b.fingerprint for b in store.bans()),
            frozenset(room.muted),
            tuple((t.name, t.status, tuple(sorted((n, s.account, s.stack)
                                                  for n, s in t.seats.items())))
                  for t in room.tables.values()),
            tuple(sorted((a, len(c)) for a, c in room.clients.items())),
        )

    def conserved(self):
        assert self.store.total_money() == self.store.expected_money()
        self.store.audit()


@pytest.fixture
def admin(make_room):  # noqa: F811 - the room tests' fixture, imported above
    return Admin(make_room)
