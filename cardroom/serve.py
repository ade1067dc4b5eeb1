"""`cardroom serve`: the room over SSH. Composition only: config -> store -> room -> ssh + tui.

The store is the SQLite file in the data folder, or the PostgreSQL database that `[server] store`
or `--store` names (a room of several processes). First start creates the SQLite file and an
ed25519 host key in `<data_dir>/host_keys/` (0600, never regenerated) and prints its fingerprint
so players can check it. The data folder is claimed for the server's life (`cardroom.datadir`:
one server per folder, 0700, its files 0600), and a database whose ledger does not add up is
refused before anything is dealt or paid from it (`cardroom.store.audit`). SIGTERM/SIGINT shut down
gracefully: every session's app exits (restoring the client's terminal), the listener closes,
hands in progress are voided (each seat gets its start-of-hand stack back) and chips go back to
the accounts.
"""

from __future__ import annotations

import asyncio
import logging
import logging.handlers
import os
import signal
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path

from cardroom.config import RoomConfig, load_config
from cardroom.datadir import DB_NAME, HOST_KEY, LOG_NAME, DataDir, DataDirInUse, claim
from cardroom.roles.logins import make_authorize, make_guest, make_name_refused
from cardroom.roles.run import refusal
from cardroom.roles.run import run as run_role
from cardroom.roles.settings import room_settings, table_settings, tournament_table_settings, warm_evaluators
from cardroom.room.api import RoomError
from cardroom.room.clock import LoopClock
from cardroom.room.ports import ConservationError, Refused
from cardroom.room.room import Room
from cardroom.room.text import clean_name
from cardroom.room.writer import StoreWriter
from cardroom.store import SqlStore, is_url, open_store
from cardroom.store.audit import require_balanced

log = logging.getLogger("cardroom.serve")
# What every player reads as the server closes (the chips on its tables go back to the balances).
FAREWELL = "The card room has closed: your chips on its tables are back in your balance."


@dataclass
class Served:
    room: Room
    store: SqlStore
    server: object
    fingerprint: str
    config: RoomConfig
    data: DataDir                 # the claimed data folder: its lock is held until shutdown
    stop: asyncio.Event = field(default_factory=asyncio.Event)   # set: `serve()` shuts down


def build_room(config: RoomConfig, data_dir: Path, clock) -> tuple[Room, SqlStore]:
    """Open the store (config.server.store, a PostgreSQL URL, else the SQLite file in data_dir)
    and start the room: its tables and its tournaments (those the store holds as registering or
    running resume where they were; those due open for registration). A database whose ledger does not add up is refused (ConservationError,
    naming the accounts and amounts) before the room voids or pays anything: several processes
    may share a PostgreSQL database, and one that finds it wrong must not deal on it."""
    data_dir.mkdir(parents=True, exist_ok=True)
    warm_evaluators(config)
    # Refuses a corrupt file or an unreachable server: no ledger, no deal.
    store = open_store(config.server.store or data_dir / DB_NAME)
    try:
        require_balanced(store)
    except BaseException:
        store.close()
        raise
    room = Room([table_settings(config, t) for t in config.tables], store, clock,
                settings=room_settings(config), writer=StoreWriter(), tournaments=config.tournaments,
                tournament_table=tournament_table_settings(config))
    voided = room.start()
    if voided:
        log.warning("voided %d hand(s) cut off by the last stop: %s", len(voided), ", ".join(voided))
    return room, store


def make_app_factory(room: Room, config: RoomConfig, shutdown=None):
    """`shutdown`: what the admin panel's `shutdown now` calls (serve's stop event). Each app is
    hosted by its ssh session's hosting (SessionInfo.hosting; ssh/hosting.py)."""
    from cardroom.tui.app import build_app
    from cardroom.tui.options import UIOptions

    from cardroom.roles import frontdoor

    admins = set(config.server.admins)
    new_account = frontdoor.new_account_gate(config, room.store)

    async def factory(info):
        from cardroom.ssh import SessionRefused

        new_account(info)
        try:
            client = await room.login(clean_name(info.username), info.key_fingerprint)
        except RoomError as e:   # e.g. banned between his login and his session, or records busy
            raise SessionRefused(str(e)) from None
        if info.end is not None:
            client.on_end(info.end)   # taken over, kicked or banned: the ssh session ends saying why
        if info.hosting is not None:
            # The session owns its client: when the app ends, the seats are marked disconnected.
            info.hosting.on_ended(client.close)
        client.is_admin = bool(info.key_fingerprint and info.key_fingerprint in admins)
        admin = None
        if client.is_admin:
            from cardroom.admin.commands import AdminContext
            from cardroom.admin.panel import AdminPanel
            ctx = AdminContext(room, room.store, info.key_fingerprint, shutdown or (lambda: None),
                               authorized=lambda: client.is_admin)
            admin = lambda: AdminPanel(ctx)  # noqa: E731
        # A terminal that is not UTF-8 gets ASCII, unless the player kept another choice.
        return build_app(client, admin=admin, options=UIOptions(ascii=not info.utf8), hosting=info.hosting)

    return factory


def make_extras(room: Room, store: SqlStore, config: RoomConfig, shutdown):
    """Players' own hand histories, and admin commands over exec for the admin keys of config.toml
    over this room (roles/frontdoor.py: the same as on every gateway)."""
    from cardroom.admin.commands import AdminContext
    from cardroom.roles import frontdoor

    admins = set(config.server.admins)
    def summaries(store, account: int) -> dict:
        from cardroom.room.tournaments.summaries import summaries as made
        return made(store, room.tournaments.specs, account, room.tournaments.currency)

    return frontdoor.extras(store, config, lambda fingerprint: AdminContext(
        room, store, fingerprint, shutdown, authorized=lambda: fingerprint in admins), summaries)


async def start(config: RoomConfig, *, host: str | None = None, port: int | None = None,
                data_dir: Path, clock=None) -> Served:
    """Open the store, start the room and listen. `shutdown(served)` undoes it."""
    from cardroom.roles import frontdoor
    from cardroom.ssh import ensure_host_key, start_server

    data = claim(data_dir)            # DataDirInUse while another server has the folder
    try:
        room, store = build_room(config, data_dir, clock or LoopClock())
        key_path = data_dir / HOST_KEY
        key_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fingerprint = ensure_host_key(key_path)
        data.tighten()                # the files SQLite has just made
        stop = asyncio.Event()
        s = config.server
        server = await start_server(host or s.host, port if port is not None else s.port, key_path,
                                    make_app_factory(room, config, stop.set), limits=frontdoor.ssh_limits(config),
                                    authorize=make_authorize(store),
                                    name_refused=make_name_refused(store),
                                    guest=make_guest(store) if s.guest_passwords else None,
                                    extras=make_extras(room, store, config, stop.set),
                                    textual_speedups=s.textual_speedups,
                                    shared_screens=s.shared_screens)
    except BaseException:
        data.release()
        raise
    return Served(room, store, server, fingerprint, config, data, stop)


async def serve(config: RoomConfig, *, host: str | None, port: int | None, data_dir: Path,
                headless: bool) -> int:
    served = await start(config, host=host, port=port, data_dir=data_dir)
    stop = served.stop
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass   # no signal handlers off the main thread (or on Windows): Ctrl-C still stops it
    shown_host = host or config.server.host
    message = (f"cardroom is serving {len(served.room.tables)} table(s) on {shown_host}:{served.server.port}\n"
               f"host key fingerprint: {served.fingerprint}\n"
               f"players connect with: ssh -p {served.server.port} NAME@{shown_host}")
    log.info(message.replace("\n", "; "))
    print(message, file=sys.__stdout__, flush=True)
    console = None
    if not headless:
        if _on_a_terminal():
            console = asyncio.create_task(_run_console(served, served.stop, tuple(message.split("\n"))))
        else:
            print("no terminal here: the console panel is off (admins can use F12 over ssh)",
                  file=sys.__stdout__, flush=True)
    await stop.wait()
    await shutdown(served)
    if console is not None:
        console.cancel()
    return 0


def _on_a_terminal() -> bool:
    """The console panel needs a terminal both ways: with stdout sent to a file or a pipe (`>
    serve.log`, `| tee`) it would write its screen's escape codes there."""
    return all(f is not None and f.isatty() for f in (sys.__stdin__, sys.__stdout__))


async def _run_console(served: Served, stop: asyncio.Event, banner: tuple[str, ...] = ()) -> None:
    """The admin panel on the server's own terminal (serve starts it only when there is one);
    quitting it stops the server, as Ctrl-C would."""
    from cardroom.admin.commands import AdminContext
    from cardroom.admin.panel import build_console_app

    ctx = AdminContext(served.room, served.store, "console", stop.set)
    app = build_console_app(ctx, banner)
    await app.run_async()
    stop.set()


async def shutdown(served: Served) -> None:
    """Exit every app (clients get their terminals back), close the listener, then void the hands
    still in progress and return every chip on a table to its owner."""
    await served.server.close(farewell=FAREWELL)
    served.room.stop_tables()
    served.room.tournaments.stop()        # they wait in the store for the next start
    try:
        # After the writes already given (a settlement in flight is recorded, not voided).
        await served.room.writer.run(served.room.recover)   # voids unfinished hands, cashes out table chips
    except Refused:
        log.exception("returning chips at shutdown")
    try:
        served.room.writer.close()
        served.store.close()
    finally:
        served.data.release()


# The log rotates: cardroom.log and five older files of at most 10 MiB each. asyncssh writes a dozen
# lines for every connection, so a busy room would otherwise fill the disk that its ledger lives on.
LOG_BYTES, LOG_BACKUPS = 10 * 1024 * 1024, 5


def log_file(path: Path) -> logging.Handler:
    return logging.handlers.RotatingFileHandler(path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS,
                                                encoding="utf-8")


def main(args) -> int:
    config_path = Path(args.config)
    try:
        config = load_config(config_path)
    except (OSError, ValueError) as e:
        print(f"cardroom serve: {e}", file=sys.stderr)
        return 2
    if args.store:
        if not is_url(args.store):
            print(f"cardroom serve: --store {args.store!r} is not a postgresql:// URL",
                  file=sys.stderr)
            return 2
        config = replace(config, server=replace(config.server, store=args.store))
    role = getattr(args, "role", "single")
    if role != "single":
        why = refusal(config, args)
        if why:
            print(f"cardroom serve: {why}", file=sys.stderr)
            return 2
    data_dir = Path(args.data_dir) if args.data_dir else Path(config.server.data_dir)
    os.umask(0o077)   # every file the server makes (the log and its rotations too) is its owner's
    data_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
    log_path = data_dir / LOG_NAME
    headless = args.headless
    if args.log_stderr:
        handler = logging.StreamHandler(sys.stderr)
        # The console panel draws on the terminal: log lines written there would tear it.
        if not headless and sys.stderr.isatty() and _on_a_terminal():
            headless = True
            print("cardroom serve: logging to this terminal (--log-stderr): the console panel is off",
                  file=sys.__stdout__, flush=True)
    else:
        handler = log_file(log_path)
    logging.basicConfig(level=args.log_level.upper(), handlers=[handler],
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    if headless and not args.log_stderr:
        print(f"cardroom serve: logging to {log_path}", file=sys.__stdout__, flush=True)
    try:
        if role != "single":
            return asyncio.run(run_role(config, args, data_dir))
        return asyncio.run(serve(config, host=args.host, port=args.port, data_dir=data_dir,
                                 headless=headless))
    except KeyboardInterrupt:
        return 0
    except (DataDirInUse, ConservationError) as e:
        log.error("refused to serve: %s", e)
        print(f"cardroom serve: {e}\nNothing was served.", file=sys.stderr)
        return 1
    except Exception as e:
        log.exception("the server stopped")
        print(f"cardroom serve: {e}", file=sys.stderr)
        return 1
