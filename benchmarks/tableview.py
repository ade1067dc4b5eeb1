"""What one repaint costs the room: building a seat's view of a table (`Table.view_for`), and what
one change costs a table host: every view of it built and encoded.

    python -m benchmarks tableview [--hands N] [--reps R] [--seed S] [--json]

A real Room over a real SQLite store (in a temporary folder) with a fake clock: a full 9-seat
fixed-limit hold'em table, every player bought in, and three railbirds. Random legal play; at
every decision the table's view is built for everyone watching it (the nine seats and the three
railbirds), as a change at the table makes every screen there repaint. The clock is this
process's CPU time, and only the view building is timed (not the play between). Repetitions
replay the same hands; the median microseconds per view are reported.

A table host (bus/host.py) sends each change to the rail (one public view, whoever watches) and
to each seat: `Table.views_for` of the nine seats and the rail, each encoded as it travels
(codec.view_json with the table's EncodedViews, stamped). Timed apart, per change.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks import positive

SEATS, RAILBIRDS = 9, 3


def _room(folder: Path, seed: int):
    from cardroom.engine.betting import Rules, Structure
    from cardroom.engine.variants import find_variant
    from cardroom.room.clock import FakeClock
    from cardroom.room.room import Room, RoomSettings
    from cardroom.room.table import TableSettings
    from cardroom.store.sqlite import SqliteStore

    holdem = find_variant("holdem")
    settings = TableSettings("T", holdem, Structure.make("fixed", 200, 400), Rules.of_game(holdem, rake_percent=0),
                             seats=SEATS)
    store, clock = SqliteStore(folder / "bench.sqlite3"), FakeClock()
    room = Room([settings], store, clock, settings=RoomSettings(), rng=random.Random(seed))
    room.start()
    return room, store, clock


def _run(hands: int, seed: int, host: bool = False) -> tuple[float, int]:
    """Play `hands` hands; (CPU seconds spent building views, views built), or with `host`
    (CPU seconds spent on the table host's views of each change, changes)."""
    from cardroom.bus import codec

    with tempfile.TemporaryDirectory() as tmp:
        room, store, clock = _room(Path(tmp), seed)
        try:
            players = []
            for i in range(SEATS):
                c = room.connect(f"p{i}")
                c.join("T")
                c.set_auto_blind("T", True)
                c.buy_in("T", 100_000)     # all of a new account's money: 250 big bets
                players.append(c)
            rail = [room.connect(f"rail{i}") for i in range(RAILBIRDS)]
            for c in rail:
                c.watch("T")
            table = room.tables["T"]
            accounts = [c.account_id for c in players + rail]
            seated, encoded = [None] + [c.account_id for c in players], codec.EncodedViews()
            rng, spent, views, dealt = random.Random(seed), 0.0, 0, 0
            while dealt < hands:
                clock.advance(1.0)
                hand = table.hand
                if hand is None or hand.over:
                    continue
                dealt += 1
                while not hand.over:
                    t0 = time.process_time()
                    if host:
                        for view in table.views_for(seated).values():
                            codec.stamped("epoch", dealt, codec.view_json(view, encoded)).encode()
                        views += 1
                    else:
                        for account in accounts:
                            table.view_for(account)
                        views += len(accounts)
                    spent += time.process_time() - t0
                    actor = players[accounts.index(table.hand_accounts[hand.actor])]
                    _random_act(actor, hand.legal(), rng)
        finally:
            store.close()
    return spent, views


def _random_act(client, lg, rng: random.Random) -> None:
    options = (["fold"] if lg.fold and not lg.check else []) + (["check"] if lg.check else []) + (
        ["call"] if lg.can_call else []) + (["bet"] if lg.min_to else [])
    kind = rng.choice(options)
    client.act("T", kind, lg.min_to if kind == "bet" else 0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks tableview", description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=positive, default=100, help="hands per repetition")
    parser.add_argument("--reps", type=positive, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    _run(5, args.seed)   # warm up
    runs = [_run(args.hands, args.seed) for _ in range(args.reps)]
    per_view = statistics.median(1e6 * spent / views for spent, views in runs)
    hosts = [_run(args.hands, args.seed, host=True) for _ in range(args.reps)]
    per_change = statistics.median(1e6 * spent / changes for spent, changes in hosts)
    row = {"views": runs[0][1], "view_us": round(per_view, 2), "host_change_us": round(per_change, 1)}
    if args.json:
        print(json.dumps(row))
        return 0
    print(f"python {sys.version.split()[0]}: {row['views']} views a repetition ({SEATS} seats + {RAILBIRDS} "
          f"railbirds at each decision of {args.hands} hands)")
    print(f"view_for: {per_view:.1f} us a view (median of {args.reps} repetitions, CPU time)")
    print(f"a table host's change: {per_change:.1f} us (the rail's view and {SEATS} seats', built and encoded)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
