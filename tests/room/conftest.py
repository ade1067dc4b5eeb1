"""Real rooms for tests: a real SQLite store in a temp dir and a fake clock."""

import random

import pytest

from cardroom.engine.betting import Rules, Structure
from cardroom.engine.variants import find_variant
from cardroom.room.clock import FakeClock
from cardroom.room.room import Room, RoomSettings
from cardroom.room.table import TableSettings
from cardroom.store.sqlite import SqliteStore


def table_settings(name="T", game="holdem", kind="fixed", small=200, big=400, seats=6, **kw):
    variant = find_variant(game)
    structure = kw.pop("structure", None) or Structure.make(kind, small, big, stud=variant.bring_in,
                                                           ante=25 if variant.bring_in else 0)
    rules = kw.pop("rules", None) or Rules(rake_percent=0)
    return TableSettings(name, variant, structure, rules, seats=seats, **kw)


@pytest.fixture
def make_room(tmp_path):
    stores = []

    def make(*tables, seed=1, settings=None):
        store = SqliteStore(tmp_path / f"room{len(stores)}.sqlite3")
        stores.append(store)
        clock = FakeClock()
        room = Room(list(tables) or [table_settings()], store, clock,
                    settings=settings or RoomSettings(), rng=random.Random(seed))
        room.start()
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
