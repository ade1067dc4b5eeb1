"""A card room process for the crash test: `python tests/room/crash_worker.py DBPATH SEED [recover]`.

Starts a real Room on the SQLite file with the asyncio loop's clock (`room.start()` first: voids
the hands a crash cut off and returns every table chip to its owner), prints one JSON line about
that start-up, then plays two tables with practice bots as fast as it can (1 ms between hands and
between bot decisions) while it also changes stakes, tops up busted players, lets players leave and
come back mid-hand and has an admin credit accounts, printing progress lines, until it is killed.
With `recover` it only starts up, prints, and exits.

Every line on stdout is JSON: {"event": "started", ...}, {"event": "ready"}, {"event": "progress",
...}. The crash test kills it with SIGKILL at random moments.
"""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from cardroom.engine.betting import Rules, Structure  # noqa: E402
from cardroom.engine.variants import find_variant  # noqa: E402
from cardroom.room.api import RoomError  # noqa: E402
from cardroom.room.clock import LoopClock  # noqa: E402
from cardroom.room.room import Room, RoomSettings  # noqa: E402
from cardroom.room.table import TableSettings  # noqa: E402
from cardroom.room.writer import StoreWriter  # noqa: E402
from tests.rooms import build_room  # noqa: E402

STARTING = 50_000
ADMIN = "admin"
FAST = dict(between_hands=0.001, bot_delay=0.001)
TABLES = [
    TableSettings("Holdem NL", find_variant("holdem"), Structure.make("no", 200), Rules(),
                  seats=6, **FAST),
    TableSettings("Draw", find_variant("draw"), Structure.make("fixed", 200, 400),
                  Rules(rake_percent=10, rake_cap=200), seats=5, **FAST),
]
# Who plays where: p2 and p3 play both tables at once.
LINEUP = {"Holdem NL": ["p0", "p1", "p2", "p3"], "Draw": ["p2", "p3", "p4"]}


def say(**fields) -> None:
    print(json.dumps(fields), flush=True)


def db_facts(path: str) -> dict:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        q = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        return {"in_progress": q("SELECT COUNT(*) FROM hands WHERE status = 'in_progress'"),
                "table_chips": q("SELECT COALESCE(SUM(chips_cents), 0) FROM table_chips"),
                "settled": q("SELECT COUNT(*) FROM hands WHERE status = 'settled'")}
    finally:
        conn.close()


def seat_and_buy(room: Room, client, table: str, rng: random.Random) -> None:
    """Sit down (if not seated), buy in (topping the balance up from the admin if it is short)
    and hand the seat to a bot."""
    t = room.tables[table]
    if t.seat_of(client.account_id) is None:
        try:
            client.join(table)
        except RoomError:
            return
    seat = t.seat_of(client.account_id)
    lo, hi, _ = t.buy_in_limits(client.account_id)
    have = seat.table_chips              # with a buy-in still on its way to the store
    if have < lo:
        want = rng.randint(lo, hi if hi is not None else 4 * lo) - have
        if room.store.balance(client.account_id) < want:
            room.store.credit(client.account_id, want, "crash test top-up", ADMIN)
        client.buy_in(table, want)
    if seat.bot is None:
        t.make_bot(client.account_id, random.Random(rng.getrandbits(32)))


def warm_up() -> None:
    """Build the evaluators' tables (about a second, once per process) before touching the store,
    so the kills after "ready" land in play rather than in the first bot decision."""
    from cardroom.engine.cards import CARDS
    from cardroom.room.bots import strength
    for table in TABLES:
        v = table.variant
        strength(list(CARDS[:len(v.streets[0].hole)]), [], v, rng=random.Random(0))


async def play(path: str, seed: int, recover: bool) -> None:
    rng = random.Random(seed)
    if not recover:
        warm_up()
    room, store, _ = build_room(Path(path), *TABLES, clock=LoopClock(), seed=seed, start=False,
                                settings=RoomSettings(starting_money=STARTING),
                                writer=StoreWriter())   # as the server: writes off the loop
    voided = room.start()
    say(event="started", voided=voided, **db_facts(path))
    if recover:
        store.close()
        return
    clients = {}
    for table, names in LINEUP.items():
        for name in names:
            if name not in clients:         # a second login would take over the first
                clients[name] = room.connect(name)
            seat_and_buy(room, clients[name], table, rng)
    say(event="ready")
    n = 0
    while True:
        # time passing is the point: random gaps between steps, for the kills to land anywhere
        await asyncio.sleep(rng.choice((0.0005, 0.002, 0.005)))
        n += 1
        table = rng.choice(list(LINEUP))
        name = rng.choice(LINEUP[table])
        c, t = clients[name], room.tables[table]
        r = rng.random()
        if r < 0.04 and t.seat_of(c.account_id):
            c.leave(table)                  # mid-hand: folded when the action reaches him
        elif r < 0.08:
            store.credit(c.account_id, rng.randint(1, 5_000), "crash test credit", ADMIN)
        elif r < 0.14 and t.seat_of(c.account_id):
            try:                            # change the table stake (after the hand if in one)
                c.buy_in(table, rng.randint(1, 3_000))
            except RoomError:
                pass
        for tb, names in LINEUP.items():   # keep both tables going
            for nm in names:
                seat = room.tables[tb].seat_of(clients[nm].account_id)
                if seat is None or seat.table_chips == 0:
                    seat_and_buy(room, clients[nm], tb, rng)
        if n % 25 == 0:
            say(event="progress", steps=n, **db_facts(path))


def main() -> None:
    path, seed = sys.argv[1], int(sys.argv[2])
    recover = len(sys.argv) > 3 and sys.argv[3] == "recover"
    asyncio.run(play(path, seed, recover))


if __name__ == "__main__":
    main()
