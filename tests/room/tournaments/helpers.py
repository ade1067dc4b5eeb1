"""Tournaments in a real room for the tests: a Room over a real SQLite store on a fake clock, with
config-like tournaments (`sit_and_go`, from the engine's driver), players who log in and
register through the client API, and practice bots for whoever should play by himself."""

from __future__ import annotations

import random

from cardroom.room.client import LocalClient
from cardroom.room.room import RoomSettings
from cardroom.store.audit import check_store
from tests.engine.tournament.driver import sit_and_go
from tests.rooms import build_room

START = 100_000

__all__ = ["START", "Bots", "audit_clean", "registered", "room_with", "sit_and_go"]


def room_with(tmp_path, *specs, seed: int = 3, **kw):
    """(room, store, clock): a room dealing these tournaments (and one cash table, "T")."""
    return build_room(tmp_path / "room.sqlite3", tournaments=list(specs), seed=seed,
                      settings=RoomSettings(starting_money=START), **kw)


async def registered(room, names, number: int | None = None):
    """Clients of `names`, each logged in and registered for tournament `number` (by default the
    first one listed). Returns (clients, the tournament)."""
    clients = [LocalClient(await room.login(n)) for n in names]
    if number is None:
        number = clients[0].tournaments()[0].number
    for c in clients:
        await c.register(number)
    return clients, room.tournaments.get(number)


class Bots:
    """Every seat of the tournament played by a practice bot (but `spare`'s accounts), wherever
    the director moves it: call it between clock steps (`clock.run_until(bots.done)`)."""

    def __init__(self, tournament, seed: int = 1, spare=()) -> None:
        self.t = tournament
        self.rng = random.Random(seed)
        self.spare = set(spare)

    def seat_them(self) -> None:
        for table in list(self.t.tables.values()):
            for s in list(table.seats.values()):
                if s.bot is None and s.account not in self.spare:
                    table.make_bot(s.account, random.Random(self.rng.getrandbits(32)))

    def done(self) -> bool:
        self.seat_them()
        return self.t.over


def audit_clean(store) -> None:
    problems = check_store(store)
    assert problems == [], problems
    assert store.total_money() == store.expected_money()
