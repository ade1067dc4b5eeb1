"""A card room process dealing a tournament, for the crash test:
`python tests/room/tournaments/crash_worker.py DBPATH SEED [recover]`.

Starts a real Room on the SQLite file with the asyncio loop's clock and the store's writer thread
(as the server), dealing one 18-player sit & go (three six-seat tables: players move and tables
break) played by practice bots as fast as they go (1 ms between hands and decisions). `room.start()`
first voids the hands a crash cut off and restores the tournament from its last snapshot; the
worker prints what it restored, then registers players while a sit & go is open (a new one opens
as each starts) and plays on until it is killed. With `recover` it only starts up, prints and exits.

Every line on stdout is JSON: {"event": "started", "tournaments": {number: {state, clock, level,
entries: {entry: [player, chips, out]}, seated: {entry: chips}}}, "voided": [...]},
{"event": "ready"}, {"event": "moved", ...} as each move is made in memory (its store write is
still on its way: a kill then lands mid-move), {"event": "progress", ...}.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from cardroom.engine.tournament import Schedule  # noqa: E402
from cardroom.room.api import RoomError  # noqa: E402
from cardroom.room.client import LocalClient  # noqa: E402
from cardroom.room.clock import LoopClock  # noqa: E402
from cardroom.room.room import RoomSettings  # noqa: E402
from cardroom.room.table import TableSettings  # noqa: E402
from cardroom.room.writer import StoreWriter  # noqa: E402
from tests.engine.tournament.driver import levels, sit_and_go  # noqa: E402
from tests.rooms import build_room  # noqa: E402

PLAYERS = 18
SPEC = sit_and_go(PLAYERS, 6, schedule=Schedule(levels(False), break_every=0, break_minutes=0))
TEMPLATE = TableSettings("", SPEC.variant, SPEC.structure(0), seats=6, between_hands=0.001, bot_delay=0.001)


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


class Moves(logging.Handler):
    """Says each move as the tournament makes it in memory (its store write is on its way)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            if " moves from table " in record.getMessage():
                say(event="moved", what=record.getMessage())
        except Exception:        # noqa: BLE001 - as every handler: a log line never breaks the room
            self.handleError(record)


def db_facts(path: str) -> dict:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        q = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        return {"in_progress": q("SELECT COUNT(*) FROM hands WHERE status = 'in_progress'"),
                "settled": q("SELECT COUNT(*) FROM hands WHERE status = 'settled'")}
    finally:
        conn.close()


def restored(room) -> dict:
    """What each live tournament is after the start: the director's picture and the tables'."""
    out = {}
    for t in room.tournaments.live.values():
        d = t.director
        seated = {}
        for table in t.tables.values():
            for s in table.seats.values():
                entry = next(e.number for e in d.entries.values() if e.player == s.account and not e.out)
                seated[entry] = s.stack
        out[t.number] = {"state": d.state, "clock": d.elapsed(t.now()), "level": d.stage(t.now()).level,
                         "entries": {e.number: [e.player, e.chips, e.out] for e in d.entries.values()},
                         "seated": seated}
    return out


async def play(path: str, seed: int, recover: bool) -> None:
    rng = random.Random(seed)
    room, store, _ = build_room(Path(path), clock=LoopClock(), seed=seed, start=False,
                                settings=RoomSettings(starting_money=1_000_000), writer=StoreWriter(),
                                tournaments=[SPEC], tournament_table=TEMPLATE)
    voided = room.start()
    say(event="started", voided=voided, tournaments=restored(room), **db_facts(path))
    if recover:
        room.tournaments.stop()
        room.writer.close()
        store.close()
        return
    clients = {}
    logging.getLogger("cardroom.tournament").addHandler(Moves())
    logging.getLogger("cardroom.tournament").setLevel(logging.INFO)
    say(event="ready")
    n = 0
    while True:
        await asyncio.sleep(rng.choice((0.0005, 0.002, 0.005)))
        n += 1
        for t in list(room.tournaments.live.values()):
            if t.director.state == "registering":
                for i in range(PLAYERS):
                    name = f"p{i}"
                    if name not in clients:
                        clients[name] = LocalClient(await room.login(name))
                    try:
                        await clients[name].register(t.number)
                    except RoomError:     # already in (a restart), or it filled
                        pass
                    if t.director.state != "registering":
                        break
            for table in list(t.tables.values()):
                for s in list(table.seats.values()):
                    if s.bot is None:       # (its decision now, if it is: the bot takes it)
                        table.make_bot(s.account, random.Random(rng.getrandbits(32)))
        if n % 50 == 0:
            say(event="progress", steps=n, **db_facts(path))


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    recover = len(sys.argv) > 3 and sys.argv[3] == "recover"
    asyncio.run(play(path, seed, recover))


if __name__ == "__main__":
    main()
