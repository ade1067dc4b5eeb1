"""A whole multi-table tournament played by practice bots in one room, beside cash tables' rate.

    python -m benchmarks tournament [--players 1000] [--cash-hands N] [--seed S] [--json] [--profile]

The tournament is config.toml's 45-player no-limit hold'em sit & go (its levels, breaks, chips and
tables of nine) for `--players` entrants, paying a tenth of the field; the room is the real one:
its Tournament actor and director, real Tables with practice bots (room/bots.py) in every seat,
a real SQLite file (every hand's end recorded with the tournament's snapshot, as a server does),
on a fake clock (a bot answers after its second of thinking, a level lasts its minutes: none of it
waited for). What it costs is this process's CPU and wall time from the start to the winner:
hands, hands per second and CPU per hand, moves and tables broken. Registering the field comes
first and is timed apart (each registration is recorded with the director's snapshot). The
store's writes run inline, on the one thread (a server runs them on its writer thread): the wall
time includes waiting for every commit, which a server's loop does not.

The cash-game rate is measured in the same run, the same way: no-limit hold'em tables of nine
in the same kind of room, bots in every seat (topped up when short), until `--cash-hands` hands
(default: as many as the tournament dealt, at most 5,000). The ratio is what a tournament's hand
costs beyond a cash hand (the director's bookkeeping, balancing, the snapshot in each hand's
transaction).
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import pstats
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from benchmarks import positive

ROOT = Path(__file__).resolve().parents[1]
SHAPE = "45-Player Sit & Go"      # config.toml's tournament whose structure is played
LIMIT = 30 * 24 * 3600.0          # seconds of fake play before giving up (a bug, not a slow machine)
STEP = 5.0


def spec_for(players: int):
    """The shipped multi-table sit & go's structure for `players` entrants, a tenth of them paid
    (shares falling as 1/place, in hundredths of a percent, adding up to 100%)."""
    from cardroom.config import load_config
    from cardroom.engine.tournament import PayoutBand, Payouts

    base = load_config(ROOT / "config.toml").tournament(SHAPE)
    paid = max(1, min(players - 1, players // 10))
    weights = [1 / (i + 1) for i in range(paid)]
    shares = [int(10_000 * w / sum(weights)) for w in weights]
    shares[0] += 10_000 - sum(shares)
    return replace(base, name=f"{players}-player benchmark", seats=players,
                   payouts=Payouts((PayoutBand(max(2, players), tuple(shares)),)))


def _room(where: Path, tables=(), spec=None, seed: int = 1):
    from cardroom.room.clock import FakeClock
    from cardroom.room.room import Room, RoomSettings
    from cardroom.store.sqlite import SqliteStore

    clock = FakeClock()
    store = SqliteStore(where / "bench.sqlite3", clock=clock.wall)
    room = Room(list(tables), store, clock, settings=RoomSettings(starting_money=10**9),
                rng=random.Random(seed), tournaments=[spec] if spec else [])
    room.start()
    return room, store, clock


def _cpu_wall():
    return time.process_time(), time.perf_counter()


def run_tournament(players: int, seed: int, profile: cProfile.Profile | None = None) -> dict:
    """Register `players` bots, then play the tournament to its winner: what it took."""
    from cardroom.engine.tournament import Moved, Seated, TableBroken
    from cardroom.room.client import LocalClient

    spec = spec_for(players)
    with tempfile.TemporaryDirectory() as d:
        room, store, clock = _room(Path(d), spec=spec, seed=seed)
        try:
            t = next(iter(room.tournaments.live.values()))
            rng = random.Random(seed)
            counts = {"moves": 0, "broken": 0}

            def hear(records: list) -> None:
                for r in records:
                    if isinstance(r, Seated):
                        t.tables[r.table].make_bot(r.player, random.Random(rng.getrandbits(64)))
                    elif isinstance(r, Moved):
                        counts["moves"] += 1
                    elif isinstance(r, TableBroken):
                        counts["broken"] += 1
            t.listeners.append(hear)

            async def register() -> None:
                for i in range(players - 1):       # the last one starts it: timed with the play
                    await LocalClient(room.connect(f"bot{i + 1}")).register(t.number)
            cpu0, wall0 = _cpu_wall()
            asyncio.run(register())
            cpu1, wall1 = _cpu_wall()
            if profile is not None:
                profile.enable()
            asyncio.run(LocalClient(room.connect(f"bot{players}")).register(t.number))
            tables = len(t.tables)
            ended = clock.run_until(lambda: t.over, limit=LIMIT, step=STEP)
            if profile is not None:
                profile.disable()
            cpu2, wall2 = _cpu_wall()
            if not ended:
                raise SystemExit(f"the tournament had not ended after {LIMIT / 3600:.0f} hours of play")
            hands = t.director.hands
            return {"players": players, "tables": tables, "hands": hands, "moves": counts["moves"],
                    "broken": counts["broken"], "play_s": round(t.director.elapsed(t.now())),
                    "register_cpu_s": cpu1 - cpu0, "register_wall_s": wall1 - wall0,
                    "cpu_s": cpu2 - cpu1, "wall_s": wall2 - wall1,
                    "hands_per_s": hands / (wall2 - wall1), "cpu_ms_per_hand": 1000 * (cpu2 - cpu1) / hands,
                    "money_ok": store.total_money() == store.expected_money()}
        finally:
            store.close()


def run_cash(hands: int, seed: int, tables: int = 10) -> dict:
    """Bots at `tables` no-limit hold'em tables of nine until `hands` hands are over."""
    from cardroom.engine.betting import Rules, Structure
    from cardroom.engine.variants import find_variant
    from cardroom.room.table import TableSettings

    holdem = find_variant("holdem")
    settings = [TableSettings(f"Cash {i + 1}", holdem, Structure.make("no", 100, 200, blinds=(100, 200)),
                              rules=Rules.of_game(holdem, rake_percent=0), seats=9) for i in range(tables)]
    with tempfile.TemporaryDirectory() as d:
        room, store, clock = _room(Path(d), settings, seed=seed)
        try:
            rng = random.Random(seed)
            clients = {}
            for i, s in enumerate(settings):
                for j in range(9):
                    client = room.connect(f"cash{i}-{j}")     # a session: joins at once
                    client.join(s.name)
                    client.buy_in(s.name, 20_000)
                    room.tables[s.name].make_bot(client.account_id, random.Random(rng.getrandbits(64)))
                    clients[client.account_id] = client

            def played() -> int:
                """Hands over: the room numbers its hands from 1 (a table's stats keep its last 200)."""
                tables = [room.tables[s.name] for s in settings]
                begun = max((int(t.hand_id) for t in tables if t.hand_id), default=0)
                return begun - sum(t.hand is not None and not t.hand.over for t in tables)

            def topped_up() -> bool:
                for s in settings:
                    table = room.tables[s.name]
                    for seat in table.seats.values():
                        if seat.stack < 4_000 and not table.in_hand(seat) and not seat.buying and not seat.pending_chips:
                            clients[seat.account].buy_in(s.name, 20_000 - seat.stack)
                return played() >= hands
            cpu0, wall0 = _cpu_wall()
            clock.run_until(topped_up, limit=LIMIT, step=STEP)
            cpu1, wall1 = _cpu_wall()
            n = played()
            return {"tables": tables, "hands": n, "cpu_s": cpu1 - cpu0, "wall_s": wall1 - wall0,
                    "hands_per_s": n / (wall1 - wall0), "cpu_ms_per_hand": 1000 * (cpu1 - cpu0) / n,
                    "money_ok": store.total_money() == store.expected_money()}
        finally:
            store.close()


def _report(t: dict, cash: dict) -> str:
    ratio = t["cpu_ms_per_hand"] / cash["cpu_ms_per_hand"]
    minutes, secs = divmod(t["play_s"], 60)
    lines = [
        f"{'':<24}{'hands':>9}{'hands/s':>10}{'CPU ms/hand':>13}{'wall s':>9}",
        f"{'tournament, ' + format(t['players'], ',') + ' players':<24}{t['hands']:>9,}{t['hands_per_s']:>10,.0f}"
        f"{t['cpu_ms_per_hand']:>13.2f}{t['wall_s']:>9.1f}",
        f"{'cash, ' + str(cash['tables']) + ' tables of 9':<24}{cash['hands']:>9,}{cash['hands_per_s']:>10,.0f}"
        f"{cash['cpu_ms_per_hand']:>13.2f}{cash['wall_s']:>9.1f}",
        "",
        f"a tournament hand costs {ratio:.2f}x a cash hand's CPU",
        f"{t['tables']} tables at the start, {t['moves']:,} moves, {t['broken']} tables broken; "
        f"{minutes // 60} h {minutes % 60:02d} min of play",
        f"registering {t['players']:,} players: {t['register_wall_s']:.1f} s; "
        f"start to winner: {t['wall_s']:.1f} s ({t['cpu_s']:.1f} s CPU)",
        f"money conserved: tournament {t['money_ok']}, cash {cash['money_ok']}",
    ]
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks tournament", description=__doc__.splitlines()[0])
    p.add_argument("--players", type=positive, default=1000)
    p.add_argument("--cash-hands", type=positive, default=None,
                   help="cash hands to measure (default: the tournament's hands, at most 5,000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    p.add_argument("--profile", action="store_true", help="cProfile the tournament's play: the top 25 by own time")
    args = p.parse_args(argv)
    if args.players < 2:
        p.error("--players: a tournament needs at least 2")
    profile = cProfile.Profile() if args.profile else None
    t = run_tournament(args.players, args.seed, profile)
    cash = run_cash(args.cash_hands or min(t["hands"], 5000), args.seed)
    if args.json:
        print(json.dumps({"tournament": t, "cash": cash}, indent=1))
    else:
        print(_report(t, cash))
    if profile is not None:
        pstats.Stats(profile, stream=sys.stdout).sort_stats("tottime").print_stats(25)
    return 0 if t["money_ok"] and cash["money_ok"] else 1
