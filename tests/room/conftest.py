"""Real rooms for tests: a real SQLite store in a temp dir and a fake clock (built by tests/rooms.py)."""

import pytest

from tests.rooms import build_room


@pytest.fixture
def make_room(tmp_path):
    stores = []

    def make(*tables, seed=1, settings=None):
        room, store, clock = build_room(tmp_path / f"room{len(stores)}.sqlite3", *tables, seed=seed,
                                        settings=settings)
        stores.append(store)
        return room, clock

    yield make
    for s in stores:
        s.close()


def seat_players(room, table="T", names=("alice", "bob", "carol"), stack=10_000, auto_blind=True):
    """Seat and buy in `names`. Auto Blind starts off (seed 000); these players turn it on unless
    told not to, so hands are dealt without asking each for his blind."""
    clients = []
    for n in names:
        c = room.connect(n)
        c.join(table)
        if auto_blind:
            c.set_auto_blind(table, True)
        c.buy_in(table, stack)
        clients.append(c)
    return clients


def actor_client(clients, table="T"):
    for c in clients:
        if c.view(table).legal is not None:
            return c
    return None
