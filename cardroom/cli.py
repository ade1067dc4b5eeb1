"""The composition root: `cardroom <command>`. Builds the real objects and wires them together.

Commands are registered here and import their layer lazily, so `cardroom --help` stays instant
and a missing optional piece never breaks the others.
"""

from __future__ import annotations

import argparse
import json
import sys


def _cmd_replay(args: argparse.Namespace) -> int:
    from cardroom.engine.phh import replay_each

    bad = 0
    for path in args.paths:
        for result in replay_each(path):      # a hands file (.phhs): a line per hand
            bad += "error" in result
            print(json.dumps(result), flush=True)
    return 1 if bad else 0


def eval_orders(name: str) -> tuple[str, ...]:
    """The hand orders `cardroom eval NAME` means: a hand order, or a game's (what demo, hot-seat
    and config.toml call it: a5-draw is ace-to-five; a hi-lo game's high and low)."""
    from cardroom.engine.evaluation import ORDERS
    from cardroom.engine.variants import UnknownVariant, find_variant

    if name in ORDERS:
        return (name,)
    try:
        v = find_variant(name)
    except UnknownVariant:
        raise ValueError(f"no hand order or game called {name!r}: use one of {', '.join(ORDERS)}, "
                         "or a game (holdem, omaha8, stud8, razz, a5-draw, 27-triple ...)") from None
    return (v.high,) + ((v.low,) if v.low else ())


def _cmd_eval(args: argparse.Namespace) -> int:
    from cardroom.engine import CardError, describe, describe_hi_lo, evaluate, parse_cards

    try:
        orders = eval_orders(args.order)
        hole = parse_cards(args.hole)
        board = parse_cards(args.board) if args.board else []
        values = [evaluate(order, hole, board) for order in orders]
    except (CardError, ValueError) as e:
        print(f"cardroom eval: {e}", file=sys.stderr)
        return 2
    if len(orders) == 2:                                      # a hi-lo game: the showdown's words
        print(describe_hi_lo(*values))
    else:
        print(describe(orders[0], values[0]) if values[0] is not None else "no qualifying low")
    return 0


LOG_LEVELS = ("debug", "info", "warning", "error")


def _cmd_serve(args: argparse.Namespace) -> int:
    from cardroom.serve import main as serve_main

    return serve_main(args)


def _cmd_demo(args: argparse.Namespace) -> int:
    from cardroom.demo import run_demo
    from cardroom.engine.variants import find_variant

    try:
        find_variant(args.game)
    except ValueError as e:
        print(f"cardroom demo: {e}", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("cardroom demo: --hands is at least 1", file=sys.stderr)
        return 2
    return run_demo(args.game, args.structure, args.players, args.hands, seed=args.seed)


def hotseat_players(names: str, bots: int, variant) -> list[str]:
    """The local players from --players ("alice,bob"), checked as the room checks a name at login:
    each a valid name, none reserved, no two alike (nor alike a practice bot's "botN"), and room
    for them and the bots at one table of the game. Raises ValueError with a message."""
    from cardroom.room.text import BadName, clean_name, is_reserved, looks_alike

    if bots < 0:
        raise ValueError("--bots is a number of practice bots, 0 or more")
    bot_names = [f"bot{i + 1}" for i in range(bots)]
    players: list[str] = []
    for raw in (n for n in names.split(",") if n.strip()):
        try:
            name = clean_name(raw)
        except BadName as e:
            raise ValueError(f"{raw.strip()!r}: {e}") from None
        if is_reserved(name):
            raise ValueError(f"{name!r} is kept for the house: choose another name")
        taken = next((other for other in players + bot_names if looks_alike(name, other)), None)
        if taken is not None:
            raise ValueError(f"{name!r} and {taken!r} are too alike: every player needs a name of their own")
        players.append(name)
    if not players:
        raise ValueError("name at least one local player: --players alice,bob (bots fill the other seats)")
    if len(players) + bots < 2:
        raise ValueError("at least two players (local players and bots)")
    if len(players) + bots > variant.max_seats:
        raise ValueError(f"{variant.name} seats at most {variant.max_seats} players; "
                         f"{len(players)} local players and {bots} bots were asked for")
    return players


def hotseat_structure(variant, kind: str, stakes: str):
    """The hot-seat table's structure from --stakes, read as config.toml reads `stakes`: "2/4" is
    the small and big bet in fixed and spread limit, the two blinds in pot and no limit; amounts in
    dollars ("0.25/0.50", "$1/$2"), never a float. Raises ValueError with a message."""
    from cardroom.config import parse_money, stakes_amounts
    from cardroom.engine.betting import Structure

    parts = stakes.split("/")
    if len(parts) != 2:
        raise ValueError(f"--stakes is two amounts like 2/4, not {stakes!r}")
    try:
        lo, hi = (parse_money(x.strip()) for x in parts)
    except ValueError as e:
        raise ValueError(f"--stakes {stakes!r}: {e}") from None
    if not 0 < lo <= hi:
        raise ValueError(f"--stakes {stakes!r}: two amounts above zero, the second at least the first")
    small_bet, big_bet, blinds = stakes_amounts(kind, lo, hi)
    return Structure.make(kind, small_bet, big_bet, blinds=blinds or None, stud=variant.bring_in,
                          ante=max(1, small_bet // 8) if variant.bring_in else 0)


def hotseat_table(name: str, variant, structure, seats: int):
    """The hot-seat table: the game's own rules (Rules.of_game: Draw Lo deals and shows as seed
    000 says), and each player's clock starts when he takes the device, not while it is passed."""
    from cardroom.engine.betting import Rules
    from cardroom.room.table import TableSettings

    return TableSettings(name, variant, structure, rules=Rules.of_game(variant), seats=seats,
                         clock_waits_for_ready=True)


def hotseat_data_dir(given: str | None):
    """Where hot-seat keeps its room: the folder given, else the user's data folder for cardroom
    (platformdirs: ~/.local/share/cardroom on Linux), so balances carry over from one game to the
    next as in a real room."""
    from pathlib import Path

    import platformdirs

    return Path(given) if given else Path(platformdirs.user_data_dir("cardroom"))


def _hotseat_money(store, players: list[str], bots: int, minimum: int, starting: int) -> str | None:
    """Before seating: a practice bot short of the minimum buy-in is refilled to the starting
    money (an admin-style credit in the ledger; bots play for practice); a local player short of
    it can't play here. Returns why not, or None."""
    from cardroom.room.narration import money

    for i in range(bots):
        bot = store.get_or_create(f"bot{i + 1}", starting)
        if bot.balance_cents < minimum:
            store.credit(bot.id, starting - bot.balance_cents, "practice bot refilled", "hotseat")
    for name in players:
        balance = store.get_or_create(name, starting).balance_cents
        if balance < minimum:
            return (f"{name} has {money(balance)} here, less than the minimum buy-in "
                    f"({money(minimum)}): play under another name, or in another --data-dir")
    return None


def _cmd_hotseat(args: argparse.Namespace) -> int:
    import asyncio
    import random

    from cardroom import textual_adapter
    from cardroom.datadir import DataDirInUse, claim
    from cardroom.engine.variants import find_variant
    from cardroom.room.clock import LoopClock
    from cardroom.room.room import Room, RoomSettings
    from cardroom.store.sqlite import SqliteStore
    from cardroom.tui.hotseat import run_hotseat

    try:
        variant = find_variant(args.game)
        structure = hotseat_structure(variant, args.structure, args.stakes)
        players = hotseat_players(args.players, args.bots, variant)
    except ValueError as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 2
    # Textual reads its keys from stdin and draws on stderr; without a terminal it would read
    # end-of-file for ever at 100% CPU.
    bad = [name for name, f in (("stdin", sys.stdin), ("stderr", sys.stderr)) if not (f and f.isatty())]
    if bad:
        print(f"cardroom hotseat: it is played at a terminal, and {' and '.join(bad)} "
              f"{'is' if len(bad) == 1 else 'are'} not one (a pipe, a file, or no terminal at all): "
              "run it in a terminal window", file=sys.stderr)
        return 2
    seats = min(variant.max_seats, max(6, len(players) + args.bots))
    name = "Hot seat"
    table = hotseat_table(name, variant, structure, seats)
    settings = RoomSettings()
    try:
        data = claim(hotseat_data_dir(args.data_dir))   # one room at a time on a folder
    except (DataDirInUse, OSError) as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 1
    # The Textual fixes the server makes too: bet amounts typed quickly stay right.
    textual_adapter.install(textual_adapter.TYPING_FIXES)

    async def main() -> str | None:
        store = SqliteStore(data.database)
        try:
            rng = random.Random(args.seed) if args.seed is not None else None
            room = Room([table], store, LoopClock(), settings=settings, rng=rng)
            room.start()     # chips a game cut off left on the table go back to their owners
            refused = _hotseat_money(store, players, args.bots, table.buy_in_min, settings.starting_money)
            if refused is None:
                try:
                    await run_hotseat(room, name, players, args.bots, seed=args.seed)
                finally:
                    room.close()     # a hand cut off is void; every chip back in its owner's balance
            return refused
        finally:
            store.close()

    try:
        refused = asyncio.run(main())
    finally:
        data.release()
    if refused:
        print(f"cardroom hotseat: {refused}", file=sys.stderr)
        return 1
    return 0


def _cmd_backup(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardroom.serve import DB_NAME
    from cardroom.store.backup import BackupError, backup

    # The database serve uses: in --data-dir when given, else in the config's data folder. A room
    # started with --data-dir keeps it elsewhere, which only its operator knows: the errors say how.
    how = f"a room started with --data-dir DIR keeps it there: cardroom backup {args.path} --data-dir DIR"
    if args.data_dir:
        data_dir = Path(args.data_dir)
    else:
        from cardroom.config import load_config
        try:
            server = load_config(args.config).server
        except (OSError, ValueError) as e:
            print(f"cardroom backup: {e}\nGive the room's data folder ({how}) or its --config.",
                  file=sys.stderr)
            return 2
        if server.store:
            print("cardroom backup: the room keeps its data in PostgreSQL ([server] store), not in a "
                  "SQLite file: back it up with pg_dump", file=sys.stderr)
            return 2
        data_dir = server.data_dir
        if not (data_dir / DB_NAME).is_file():
            print(f"cardroom backup: there is no database at {data_dir / DB_NAME}, the data folder "
                  f"of {args.config}; {how}", file=sys.stderr)
            return 1
    try:
        written = backup(data_dir / DB_NAME, args.path)
    except BackupError as e:
        print(f"cardroom backup: {e}", file=sys.stderr)
        return 1
    print(f"cardroom backup: {data_dir / DB_NAME} copied to {written} (integrity and ledger checked)")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from cardroom import __version__

    parser = argparse.ArgumentParser(
        prog="cardroom",
        description="A terminal multiplayer poker card room.",
    )
    parser.add_argument("--version", action="version", version=f"cardroom {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("serve", help="run the card room: players connect with ssh -p 2222 NAME@HOST")
    p.add_argument("--config", default="config.toml", help="the room's config (default: config.toml)")
    p.add_argument("--host", default=None, help="listen address (default: from the config, 127.0.0.1)")
    p.add_argument("--port", type=int, default=None, help="listen port (default: from the config, 2222)")
    p.add_argument("--data-dir", default=None, help="SQLite file and host keys (default: beside the config)")
    p.add_argument("--headless", action="store_true", help="no console panel")
    p.add_argument("--log-level", default="info", choices=LOG_LEVELS,
                   help="what the log keeps (default: info: logins, seating, admin actions, connections)")
    p.add_argument("--log-stderr", action="store_true",
                   help="log to stderr (for systemd or a container) instead of DATA_DIR/cardroom.log")
    p.add_argument("--store", default=None, metavar="URL",
                   help="a postgresql:// database instead of the SQLite file in the data folder "
                        "(default: from the config, [server] store)")
    p.add_argument("--role", default="single", choices=["single", "tables", "gateway"],
                   help="single: the whole room in one process (default); tables: a table host; "
                        "gateway: SSH sessions only (both need --store postgresql://... and NATS)")
    p.add_argument("--nats", default=None, metavar="URL", help="NATS server (default nats://127.0.0.1:4222)")
    p.add_argument("--tables", default=None, help="table host: the tables to deal, comma separated (default all)")
    p.add_argument("--tournaments", default=None,
                   help="table host: the tournaments it may deal, comma separated (default all)")
    p.add_argument("--host-id", default=None, help="table host: its lease owner id (default hostname-pid-random)")
    p.add_argument("--host-key", default=None, metavar="PATH",
                   help="gateway: the SSH host key shared by the gateways (default: the data dir's)")
    p.set_defaults(func=_cmd_serve)

    p = sub.add_parser("backup", help="copy the room's database, consistent even while the room runs")
    p.add_argument("path", metavar="PATH", help="a new file, or a folder (the copy is named by the time)")
    p.add_argument("--config", default="config.toml", help="the room's config, to find its data folder")
    p.add_argument("--data-dir", default=None, help="the room's data folder (default: from the config)")
    p.set_defaults(func=_cmd_backup)

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
    p.add_argument("--data-dir", default=None,
                   help="the hot-seat room's folder, kept between games (default: the user's data "
                        "folder for cardroom, e.g. ~/.local/share/cardroom)")
    p.add_argument("--seed", type=int, default=None, help="seed the deck and bots (default: the OS CSPRNG)")
    p.set_defaults(func=_cmd_hotseat)

    p = sub.add_parser("replay", help="replay PHH hand histories (.phh, or hands files .phhs as the room "
                                      "writes them); one JSON line per hand")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.set_defaults(func=_cmd_replay)

    p = sub.add_parser("eval", help="evaluate a hand: cardroom eval high 'As Ks' --board 'Qs Js Ts'")
    p.add_argument("order", help="high, ace-to-five, deuce-to-seven, eight-or-better, omaha-high, "
                                 "omaha-eight-or-better, or a game: holdem, a5-draw, 27-triple, omaha8, "
                                 "stud8, razz ... (a hi-lo game gives both halves)")
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
