"""`cardroom demo`: practice bots play a few hands at one table and the dealer's words are printed.

Runs the real room (a real SQLite file in a temporary folder, the real table actor and bots) on a
fake clock, so it needs no server and finishes at once.
"""

from __future__ import annotations

import random
import secrets
import tempfile
from pathlib import Path

from cardroom.engine.betting import Rules, Structure
from cardroom.engine.variants import find_variant
from cardroom.room.clock import FakeClock
from cardroom.room.room import Room
from cardroom.room.table import TableSettings
from cardroom.store.sqlite import SqliteStore


def run_demo(game: str, structure: str, players: int, hands: int, *, seed: int | None = None) -> int:
    variant = find_variant(game)
    players = max(2, min(players, variant.max_seats))
    rng = random.Random(seed) if seed is not None else None
    bot_rng = random.Random(seed if seed is not None else secrets.randbits(64))
    st = Structure.make(structure, 200, 400, stud=variant.bring_in, ante=25 if variant.bring_in else 0)
    settings = TableSettings("Demo", variant, st, rules=Rules.of_game(variant), seats=max(players, 2))
    with tempfile.TemporaryDirectory() as d:
        store = SqliteStore(Path(d) / "demo.sqlite3")
        clock = FakeClock()
        room = Room([settings], store, clock, rng=rng)
        room.start()
        table = room.tables["Demo"]
        for i in range(players):
            client = room.connect(f"bot{i + 1}")
            client.join("Demo")
            client.buy_in("Demo", 10_000)
            table.make_bot(client.account_id, random.Random(bot_rng.random()))
        last = None   # the last line printed: the chat keeps only its newest lines, so count from it
        print(f"{variant.name}, {st.describe()}: {players} practice bots, {hands} hands\n")
        played = 0
        while played < hands:
            clock.advance(0.5)
            lines = list(table.chat)
            start = next((i + 1 for i in range(len(lines) - 1, -1, -1) if lines[i] is last), 0)
            for line in lines[start:]:
                print(f"{line.name:>6}: {line.text}")
            if lines:
                last = lines[-1]
            played = len(table.stats)
            if clock.now() > 10**6:
                break
        money = store.total_money() == store.expected_money()
        print(f"\n{played} hands; money conserved: {money}")
        store.close()
    return 0 if money else 1
