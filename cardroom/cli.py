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
    if len(orders) == 2 and values[0] is not None:        # a hi-lo game (a high always has a value)
        print(describe_hi_lo(values[0], values[1]))             # the showdown's words
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

    if args.tournament is not None:
        return _demo_tournament(args)
    if args.out is not None:
        print("cardroom demo: --out writes a tournament's hands: give --tournament NAME", file=sys.stderr)
        return 2

    try:
        find_variant(args.game)
    except ValueError as e:
        print(f"cardroom demo: {e}", file=sys.stderr)
        return 2
    if args.hands < 1:
        print("cardroom demo: --hands is at least 1", file=sys.stderr)
        return 2
    players = 6 if args.players is None else args.players
    return run_demo(args.game, args.structure, players, args.hands, seed=args.seed)


def config_tournament(config_path: str, name: str):
    """(the config, config.toml's tournament called `name`, ignoring case); ValueError naming the
    tournaments it has when there is none of that name."""
    from cardroom.config import load_config

    config = load_config(config_path)
    for spec in config.tournaments:
        if spec.name.casefold() == name.strip().casefold():
            return config, spec
    known = ", ".join(f'"{s.name}"' for s in config.tournaments)
    raise ValueError(f'{config_path} has no tournament called "{name}": '
                     + (f"it has {known}" if known else "it has no [[tournaments]] block"))


def _demo_tournament(args: argparse.Namespace) -> int:
    from pathlib import Path

    from cardroom.demo_tournament import check_players, run_tournament_demo
    from cardroom.roles.settings import tournament_table_settings

    try:
        config, spec = config_tournament(args.config, args.tournament)
        players = check_players(spec, args.players)
    except (OSError, ValueError) as e:
        print(f"cardroom demo: {e}", file=sys.stderr)
        return 2
    out = Path(args.out) if args.out else None
    return run_tournament_demo(spec, table=tournament_table_settings(config), players=players, out=out,
                               seed=args.seed)


def hotseat_players(names: str, bots: int, variant, one_table: bool = True) -> list[str]:
    """The local players from --players ("alice,bob"), checked as the room checks a name at login:
    each a valid name, none reserved, no two alike (nor alike a practice bot's "botN"), and (at
    `one_table`, not a tournament's several) room for them and the bots at one table of the game.
    Raises ValueError with a message."""
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
    if one_table and len(players) + bots > variant.max_seats:
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


def _hotseat_money(store, players: list[str], bots: int, minimum: int, starting: int,
                   what: str = "the minimum buy-in") -> str | None:
    """Before seating: a practice bot short of the minimum (buy-in, or a tournament's buy-in and
    fee: `what`) is refilled to the starting money, or to the minimum where that is more (an
    admin-style credit in the ledger; bots play for practice); a local player short of it can't
    play here. Returns why not, or None."""
    from cardroom.room.narration import money

    for i in range(bots):
        bot = store.get_or_create(f"bot{i + 1}", starting)
        if bot.balance_cents < minimum:
            store.credit(bot.id, max(starting, minimum) - bot.balance_cents, "practice bot refilled", "hotseat")
    for name in players:
        balance = store.get_or_create(name, starting).balance_cents
        if balance < minimum:
            return (f"{name} has {money(balance)} here, less than {what} "
                    f"({money(minimum)}): play under another name, or in another --data-dir")
    return None


def _not_at_a_terminal() -> str | None:
    """Why hot-seat cannot be played here, or None. Textual reads its keys from stdin and draws on
    stderr; without a terminal it would read end-of-file for ever at 100% CPU."""
    bad = [name for name, f in (("stdin", sys.stdin), ("stderr", sys.stderr)) if not (f and f.isatty())]
    if not bad:
        return None
    return (f"it is played at a terminal, and {' and '.join(bad)} {'is' if len(bad) == 1 else 'are'} "
            "not one (a pipe, a file, or no terminal at all): run it in a terminal window")


def _in_hotseat_room(args: argparse.Namespace, game) -> int:
    """Run `game(store)` (a coroutine function: why it could not be played, or None) with the
    hot-seat room's database, its folder claimed for the while, and the Textual fixes the server
    makes too (bet amounts typed quickly stay right)."""
    import asyncio

    from cardroom import textual_adapter
    from cardroom.datadir import DataDirInUse, claim
    from cardroom.store.sqlite import SqliteStore

    try:
        data = claim(hotseat_data_dir(args.data_dir))   # one room at a time on a folder
    except (DataDirInUse, OSError) as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 1
    textual_adapter.install(textual_adapter.TYPING_FIXES)

    async def main() -> str | None:
        store = SqliteStore(data.database)
        try:
            return await game(store)
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


def _cmd_hotseat(args: argparse.Namespace) -> int:
    import random

    from cardroom.engine.variants import find_variant
    from cardroom.room.clock import LoopClock
    from cardroom.room.room import Room, RoomSettings
    from cardroom.tui.hotseat import run_hotseat

    if args.tournament is not None:
        return _hotseat_tournament(args)
    bots = 1 if args.bots is None else args.bots
    try:
        variant = find_variant(args.game)
        structure = hotseat_structure(variant, args.structure, args.stakes)
        players = hotseat_players(args.players, bots, variant)
    except ValueError as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 2
    if (why := _not_at_a_terminal()) is not None:
        print(f"cardroom hotseat: {why}", file=sys.stderr)
        return 2
    seats = min(variant.max_seats, max(6, len(players) + bots))
    name = "Hot seat"
    table = hotseat_table(name, variant, structure, seats)
    settings = RoomSettings()

    async def game(store) -> str | None:
        rng = random.Random(args.seed) if args.seed is not None else None
        room = Room([table], store, LoopClock(), settings=settings, rng=rng)
        room.start()     # chips a game cut off left on the table go back to their owners
        refused = _hotseat_money(store, players, bots, table.buy_in_min, settings.starting_money)
        if refused is None:
            try:
                await run_hotseat(room, name, players, bots, seed=args.seed)
            finally:
                room.close()     # a hand cut off is void; every chip back in its owner's balance
        return refused
    return _in_hotseat_room(args, game)


def hotseat_sit_and_go(spec, names: str, bots: int | None) -> tuple[list[str], int]:
    """(the local players, the number of practice bots) for config.toml's tournament `spec` at
    hot-seat: a sit & go, the bots in the seats the local players leave (--bots, if given, must
    say as much). ValueError with a message."""
    from cardroom.engine.tournament import SIT_AND_GO

    if spec.kind != SIT_AND_GO:
        raise ValueError(f'"{spec.name}" is a scheduled tournament: hot-seat plays a sit & go')
    named = len([n for n in names.split(",") if n.strip()])
    fill = spec.seats - named
    if fill < 0:
        raise ValueError(f'"{spec.name}" seats {spec.seats} players: {named} local players were named')
    if bots is not None and bots != fill:
        raise ValueError(f'"{spec.name}" seats {spec.seats}: with {named} local players, practice bots '
                         f"take the other {fill} seats (leave out --bots)")
    return hotseat_players(names, fill, spec.variant, one_table=spec.seats <= spec.table_size), fill


def _open_sit_and_go(room, spec):
    """The instance of `spec` open for registration with nobody in it yet. A hot-seat game cut
    off (the process killed) left its instance in the store, running or half registered: it is
    cancelled (the buy-ins back, or the pool shared by chips) and a new one is opened."""
    lobby = room.tournaments
    for t in [t for t in lobby.live.values() if t.spec.name == spec.name and t.director.entries]:
        t.operate(lambda now, t=t: t.director.cancel(now, "a hot-seat game cut off"))
    return next(t for t in lobby.live.values() if t.spec.name == spec.name)


def _hotseat_tournament(args: argparse.Namespace) -> int:
    """`cardroom hotseat --tournament NAME`: the local players and practice bots play config.toml's
    sit & go NAME (the screen follows the local players from table to table); quitting before its end cancels it (places decided keep their
    prizes, the rest of the pool is shared by chips)."""
    import random
    from dataclasses import replace

    from cardroom.roles.settings import room_settings, tournament_table_settings
    from cardroom.room.api import RoomError
    from cardroom.room.clock import LoopClock
    from cardroom.room.room import Room
    from cardroom.tui.hotseat import play_hotseat, seat_hotseat_tournament

    try:
        config, spec = config_tournament(args.config, args.tournament)
        players, bots = hotseat_sit_and_go(spec, args.players, args.bots)
    except (OSError, ValueError) as e:
        print(f"cardroom hotseat: {e}", file=sys.stderr)
        return 2
    if (why := _not_at_a_terminal()) is not None:
        print(f"cardroom hotseat: {why}", file=sys.stderr)
        return 2
    # Each player's clock starts when he takes the device, as at the hot-seat cash table.
    tables = tournament_table_settings(config)
    assert tables is not None      # config_tournament found the tournament in it
    template = replace(tables, clock_waits_for_ready=True)
    settings = room_settings(config)

    async def game(store) -> str | None:
        rng = random.Random(args.seed) if args.seed is not None else None
        room = Room([], store, LoopClock(), settings=settings, rng=rng, tournaments=[spec], tournament_table=template)
        room.start()
        try:
            t = _open_sit_and_go(room, spec)
            refused = _hotseat_money(store, players, bots, spec.buy_in + spec.fee, settings.starting_money,
                                     f"{spec.name}'s buy-in and fee")
            if refused is not None:
                return refused
            try:
                await play_hotseat(await seat_hotseat_tournament(room, t, players, seed=args.seed))
            except RoomError as e:       # a registration refused: those made are refunded below
                return f"{spec.name}: {e}"
            finally:
                if not t.over and t.director.entries:
                    t.operate(lambda now: t.director.cancel(now, "the hot-seat game was closed"))
        finally:
            room.close()
        return None
    return _in_hotseat_room(args, game)


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
    p.add_argument("--players", type=int, default=None,
                   help="bots at the table (default 6); a scheduled tournament's entries (default: three tables)")
    p.add_argument("--hands", type=int, default=3)
    p.add_argument("--seed", type=int, default=None, help="seed the deck (default: the OS CSPRNG)")
    p.add_argument("--tournament", default=None, metavar="NAME",
                   help="bots play this config.toml tournament to its end on a fake clock")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="with --tournament: write its hands (pokerstars.txt, hands.phhs) and summary.txt here")
    p.add_argument("--config", default="config.toml", help="where --tournament is found (default: config.toml)")
    p.set_defaults(func=_cmd_demo)

    p = sub.add_parser("hotseat", help="play at one terminal: local players pass the keyboard, plus bots")
    p.add_argument("--game", default="holdem", help="holdem, omaha8, stud, razz, draw, a5-draw ...")
    p.add_argument("--structure", default="fixed", choices=["fixed", "spread", "pot", "no"])
    p.add_argument("--stakes", default="2/4", help="small/big bet in dollars (pot/no limit: blind/big blind)")
    p.add_argument("--players", default="alice,bob", help="local players, comma separated")
    p.add_argument("--bots", type=int, default=None,
                   help="practice bots (default 1; with --tournament they fill the seats left)")
    p.add_argument("--data-dir", default=None,
                   help="the hot-seat room's folder, kept between games (default: the user's data "
                        "folder for cardroom, e.g. ~/.local/share/cardroom)")
    p.add_argument("--seed", type=int, default=None, help="seed the deck and bots (default: the OS CSPRNG)")
    p.add_argument("--tournament", default=None, metavar="NAME",
                   help="play config.toml's sit & go NAME: local players, and bots in its other seats")
    p.add_argument("--config", default="config.toml", help="where --tournament is found (default: config.toml)")
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
