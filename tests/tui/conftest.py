"""TUI test set-up: real rooms (a real SQLite store in tmp_path, a FakeClock, a seeded deck)."""

from __future__ import annotations

import sqlite3
from contextlib import closing

import pytest

from cardroom import textual_adapter
from tests.rooms import build_room, table_settings

SIZE = (120, 40)




class World:
    """A room for one test: its clock, its tables, helpers to seat players and move the clock."""

    def __init__(self, path, tables, seed):
        self.room, self.store, self.clock = build_room(path, *tables, seed=seed, start=False)
        with closing(sqlite3.connect(path)) as raw, raw:   # the first hand is #1001, for snapshots
            raw.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('hands', 1000)")
        self.room.start()

    def seat(self, table, names, stack=10_000, auto_blind=True):
        """Seat and buy in `names`, with Auto Blind turned on (it starts off, seed 000) unless
        told not to."""
        out = []
        for n in names:
            c = self.room.connect(n)
            c.join(table)
            if auto_blind:
                c.set_auto_blind(table, True)
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
    return "\n".join(strip.text for strip in textual_adapter.compositor_of(app.screen).render_strips())


def passive(client, table="T"):
    """Check when free, else call; stand pat at a draw."""
    lg = client.view(table).legal
    if lg.phase == "draw":
        client.act(table, "stand pat")
    elif lg.bring_in:
        client.act(table, "bring-in")
    elif lg.check:
        client.act(table, "check")
    else:
        client.act(table, "call")


def others_until(world, clients, me, pred=None, table="T", limit=50):
    """Let everyone but `me` play passively until it is `me`'s turn (and `pred(view)` holds)."""
    world.clock.advance(0.01)
    for _ in range(limit):
        a = world.actor(clients, table)
        if a is me and (pred is None or pred(me.view(table))):
            return me.view(table)
        if a is None:
            world.clock.advance(0.5)
            continue
        passive(a, table)
    raise AssertionError("never reached the wanted state")


async def open_table(app, pilot, table="T"):
    """Welcome -> lobby -> watch the table (the app's player is already seated there). When the
    table is waiting for the player's decision, the welcome screen's Enter opens it at once."""
    from cardroom.tui.screens.table import TableScreen
    await pilot.press("enter")
    await pilot.pause()
    if not isinstance(app.screen, TableScreen):
        await pilot.press("enter")
        await pilot.pause()
    assert isinstance(app.screen, TableScreen), app.screen
    return app.screen


def notified(app) -> str:
    """Every notification the app has shown (toasts slide in; their text is checked here)."""
    return "\n".join(n.message for n in textual_adapter.toasts(app))


def alices_turn_three_handed(world, *tables, stack=10_000):
    """A three-handed table (`tables`: its settings, default the world's) where the others have
    played until it is alice's decision."""
    w = world(*tables)
    clients = w.seat("T", ["alice", "bob", "carol"], stack=stack)
    others_until(w, clients, clients[0])
    return w, clients
