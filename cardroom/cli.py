"""The composition root: `cardroom <command>`. Builds the real objects and wires them together.

Commands are registered here and import their layer lazily, so `cardroom --help` stays instant
and a missing optional piece never breaks the others.
"""

from __future__ import annotations

import argparse
import json
import sys


def _cmd_replay(args: argparse.Namespace) -> int:
    from cardroom.engine.phh import replay_file

    bad = 0
    for path in args.paths:
        result = replay_file(path)
        bad += "error" in result
        print(json.dumps(result), flush=True)
    return 1 if bad else 0


def _cmd_eval(args: argparse.Namespace) -> int:
    from cardroom.engine import CardError, describe, evaluate, parse_cards

    try:
        hole = parse_cards(args.hole)
        board = parse_cards(args.board) if args.board else []
        value = evaluate(args.order, hole, board)
    except (CardError, ValueError) as e:
        print(f"cardroom eval: {e}", file=sys.stderr)
        return 2
    print(describe(args.order, value) if value is not None else "no qualifying low")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    from cardroom.serve import main as serve_main

    return serve_main(args)


def _cmd_demo(args: argparse.Namespace) -> int:
    from cardroom.demo import run_demo

    return run_demo(args.game, args.structure, args.players, args.hands, seed=args.seed)


def _cmd_hotseat(args: argparse.Namespace) -> int:
    import asyncio
    import random
    import tempfile
    from pathlib import Path

    from cardroom.engine.betting import Structure
    from cardroom.engine.variants import find_variant
    from cardroom.room.clock import LoopClock
    from cardroom.room.room import Room
    from cardroom.room.table import TableSettings
    from cardroom.ssh import keep_typed_keys_in_order
    from cardroom.store.sqlite import SqliteStore
    from cardroom.tui.hotseat import run_hotseat

    try:
        variant = find_variant(args.game)
        small, big = (round(float(x) * 100) for x in args.stakes.replace("$", "").split("/"))
        structure = Structure.make(args.structure, small, big, stud=variant.bring_in,
                                   ante=max(1, small // 8) if variant.bring_in else 0)
    except ValueError as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 2
    players = [n.strip() for n in args.players.split(",") if n.strip()]
    if not players or len(players) + args.bots < 2:
        print("cardroom hotseat: at least two players (local players and bots)", file=sys.stderr)
        return 2
    seats = min(variant.max_seats, max(6, len(players) + args.bots))
    path = Path(args.db) if args.db else Path(tempfile.mkdtemp(prefix="cardroom-")) / "hotseat.sqlite3"
    name = "Hot seat"
    keep_typed_keys_in_order()   # the Textual fix the server makes too: bet amounts typed quickly stay right

    async def main() -> None:
        store = SqliteStore(path)
        rng = random.Random(args.seed) if args.seed is not None else None
        room = Room([TableSettings(name, variant, structure, seats=seats)], store, LoopClock(), rng=rng)
        room.start()
        try:
            await run_hotseat(room, name, players, args.bots, seed=args.seed)
        finally:
            store.close()

    asyncio.run(main())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardroom",
        description="A terminal multiplayer poker card room.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("serve", help="run the card room: players connect with ssh -p 2222 NAME@HOST")
    p.add_argument("--config", default="config.toml", help="the room's config (default: config.toml)")
    p.add_argument("--host", default=None, help="listen address (default: from the config, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="listen port (default: from the config, 2222)")
    p.add_argument("--data-dir", default=None, help="SQLite file and host keys (default: beside the config)")
    p.add_argument("--headless", action="store_true", help="no console panel; log to a file")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("demo", help="deal hands between practice bots and print them (no server needed)")
    p.add_argument("--game", default="holdem", help="holdem, omaha8, stud, razz, a5-draw, 27-triple ...")
    p.add_argument("--structure", default="fixed", choices=["fixed", "spread", "pot", "no"])
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--hands", type=int, default=3)
    p.add_argument("--seed", type=int, default=None, help="seed the deck (default: the OS CSPRNG)")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("hotseat", help="play at one terminal: local players pass the keyboard, plus bots")
    p.add_argument("--game", default="holdem", help="holdem, omaha8, stud, razz, draw, a5-draw ...")
    p.add_argument("--structure", default="fixed", choices=["fixed", "spread", "pot", "no"])
    p.add_argument("--stakes", default="2/4", help="small/big bet in dollars (pot/no limit: blind/big blind)")
    p.add_argument("--players", default="alice,bob", help="local players, comma separated")
    p.add_argument("--bots", type=int, default=1)
    p.add_argument("--db", default=None, help="SQLite file (default: a new temporary file)")
    p.add_argument("--seed", type=int, default=None, help="seed the deck and bots (default: the OS CSPRNG)")
    p.set_defaults(func=_cmd_hotseat)

    p = sub.add_parser("replay", help="replay PHH hand histories; one JSON line per file")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("eval", help="evaluate a hand: cardroom eval high 'As Ks' --board 'Qs Js Ts'")
    p.add_argument("order", help="high, ace-to-five, deuce-to-seven, eight-or-better, omaha-high, "
                                 "omaha-eight-or-better")
    p.add_argument("hole")
    p.add_argument("--board", default="")
    p.set_defaults(func=_cmd_eval)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    return args.func(args)
