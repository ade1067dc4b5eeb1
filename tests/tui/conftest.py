"""TUI test set-up: real rooms (a real SQLite store in tmp_path, a FakeClock, a seeded deck)."""

from __future__ import annotations

import itertools
import random

import pytest

from cardroom.engine.betting import Rules, Structure
from cardroom.engine.variants import find_variant
from cardroom.room.clock import FakeClock
from cardroom.room.room import Room, RoomSettings
from cardroom.room.table import TableSettings
from cardroom.store.sqlite import SqliteStore

SIZE = (120, 40)


def table_settings(name="T", game="holdem", kind="fixed", small=200, big=400, seats=6, **kw):
    variant = find_variant(game)
    structure = kw.pop("structure", None) or Structure.make(kind, small, big, stud=variant.bring_in,
                                                           ante=25 if variant.bring_in else 0)
    rules = kw.pop("rules", None) or Rules(rake_percent=0)
    return TableSettings(name, variant, structure, rules, seats=seats, **kw)


class World:
    """A room for one test: its clock, its tables, helpers to seat players and move the clock."""

    def __init__(self, path, tables, seed):
        self.store = SqliteStore(path)
        self.clock = FakeClock()
        self.room = Room(tables, self.store, self.clock, settings=RoomSettings(), rng=random.Random(seed))
        self.room.start()
        ids = itertools.count(1001)
        for t in self.room.tables.values():   # deterministic hand numbers for snapshots
            t._new_hand_id = lambda: str(next(ids))

    def seat(self, table, names, stack=10_000):
        out = []
        for n in names:
            c = self.room.connect(n)
            c.join(table)
            c.buy_in(table, stack)
            out.append(c)
        return out

    def actor(self, clients, table="T"):
        for c in clients:
            if c.view(table).legal is not None:
                return c
        return None

    def close(self):
        self.store.close()


@pytest.fixture
def world(tmp_path):
    made = []

    def make(*tables, seed=7):
        w = World(tmp_path / f"room{len(made)}.sqlite3", list(tables) or [table_settings()], seed)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def screen_text(app) -> str:
    """The screen as plain text lines: exactly the characters a person would read."""
    return "\n".join(strip.text for strip in app.screen._compositor.render_strips())
