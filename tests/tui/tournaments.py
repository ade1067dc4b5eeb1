"""Tournaments for the TUI's tests: a real room (real SQLite, a FakeClock, a seeded deck) dealing
sit & goes, players who register through the client API (their `register` run to its end here: in
a room on a fake clock the store's writes are made at once), practice bots where they play."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from cardroom.room.client import LocalClient
from cardroom.room.room import RoomSettings
from tests.engine.tournament.driver import sit_and_go
from tests.room.tournaments.helpers import Bots
from tests.rooms import build_room, table_settings

__all__ = ["Bots", "TournamentWorld", "done", "sit_and_go"]


def done(coroutine):
    """Run a room call that does not wait (the fake clock's room writes inline) and return its
    answer, from a test that has no loop of its own (a snapshot's set-up)."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    raise AssertionError("the room's call waited: it needs a loop")


class TournamentWorld:
    """A room with the cash table "T" and these tournaments; `player(name)` logs one in."""

    def __init__(self, path, *specs, seed: int = 7) -> None:
        self.room, self.store, self.clock = build_room(path, table_settings(), tournaments=list(specs), seed=seed,
                                                       settings=RoomSettings(starting_money=100_000), start=False)
        with closing(sqlite3.connect(path)) as raw, raw:   # the first hand is #1001, for snapshots
            raw.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('hands', 1000)")
        self.room.start()

    def player(self, name: str) -> LocalClient:
        return LocalClient(self.room.connect(name))

    def players(self, *names: str) -> list[LocalClient]:
        return [self.player(n) for n in names]

    def number(self, name: str | None = None) -> int:
        """The instance of tournament `name` (by default the first) open for registration now."""
        return next(s.number for s in self.room.tournaments.summaries()
                    if name in (None, s.name) and s.state == "registering")

    def register(self, clients, number: int | None = None) -> int:
        number = self.number() if number is None else number
        for c in clients:
            done(c.register(number))
        return number

    def tournament(self, number: int):
        return self.room.tournaments.get(number)

    def close(self) -> None:
        self.store.close()
