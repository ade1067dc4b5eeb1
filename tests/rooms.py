"""The one way tests build a room: `table_settings(**overrides)` for a table, `build_room` for a real
Room over a real SQLite store in a temp dir with an injectable clock and deck, and `wait_for` for
anything a test must wait on (a screen's text, an event, a state) instead of a fixed sleep."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

from cardroom.engine.betting import Rules, Structure
from cardroom.engine.variants import find_variant
from cardroom.room.clock import FakeClock
from cardroom.room.room import Room, RoomSettings
from cardroom.room.table import TableSettings
from cardroom.store.sqlite import SqliteStore


def table_settings(name="T", game="holdem", kind="fixed", small=200, big=400, seats=6, **kw) -> TableSettings:
    """A table of `game`: fixed limit $2/$4 and no rake unless told otherwise; stud games get an ante;
    the game's own rules (Draw Lo deals and shows as seed 000)."""
    variant = find_variant(game)
    structure = kw.pop("structure", None) or Structure.make(kind, small, big, stud=variant.bring_in,
                                                           ante=25 if variant.bring_in else 0)
    rules = kw.pop("rules", None) or Rules.of_game(variant, rake_percent=0)   # the game's own page
    return TableSettings(name, variant, structure, rules, seats=seats, **kw)


def build_room(path: Path | None, *tables: TableSettings, clock=None, seed: int = 1, rng=None,
               settings: RoomSettings | None = None, start: bool = True, store_options: dict | None = None,
               store=None, **kw) -> tuple[Room, SqliteStore, object]:
    """A real Room over a real SqliteStore at `path` (`store_options` go to SqliteStore), or over
    `store` when given (a restart over the same open store; `path` is then None): (room, store,
    clock). The caller closes the store."""
    if store is None:
        store = SqliteStore(path, **(store_options or {}))
    elif path is not None or store_options:
        raise TypeError("build_room takes a path (and store_options) or a store, not both")
    clock = FakeClock() if clock is None else clock
    room = Room(list(tables) or [table_settings()], store, clock, settings=settings or RoomSettings(),
                rng=rng if rng is not None else random.Random(seed), **kw)
    if start:
        room.start()
    return room, store, clock


async def wait_for(predicate: Callable[[], object], timeout: float = 5.0, what: str = "a condition",
                   interval: float = 0.01) -> None:
    """Poll `predicate` until it is true; after `timeout` seconds fail naming `what` was awaited.
    A busy machine makes the wait longer, never the test wrong."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(interval)


async def wait_until_still(measure: Callable[[], object], still: float = 0.1, timeout: float = 5.0,
                           what: str = "output to settle") -> None:
    """Wait until `measure()` has not changed for `still` seconds (a screen done painting, say):
    a condition on what was written, not a guess at how long writing takes."""
    deadline = time.monotonic() + timeout
    last, since = measure(), time.monotonic()
    while time.monotonic() - since < still:
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        await asyncio.sleep(0.01)
        now = measure()
        if now != last:
            last, since = now, time.monotonic()
