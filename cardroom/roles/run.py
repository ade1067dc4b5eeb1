"""Running a role until SIGTERM/SIGINT: what `cardroom serve --role tables|gateway` calls."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from cardroom.bus.connection import shown
from cardroom.datadir import HOST_KEY

if TYPE_CHECKING:
    from cardroom.roles.gateway import GatewayRole
    from cardroom.roles.tablehost import TableHostRole

DEFAULT_NATS = "nats://127.0.0.1:4222"


def _until_signal(stop: asyncio.Event) -> None:
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):
            pass


def table_names(args) -> list[str] | None:
    """The tables `--tables A,B` names (None: every table of the config)."""
    return [t.strip() for t in (args.tables or "").split(",") if t.strip()] or None


def tournament_names(args) -> list[str] | None:
    """The tournaments `--tournaments A,B` names (None: every tournament of the config)."""
    return [t.strip() for t in (getattr(args, "tournaments", None) or "").split(",") if t.strip()] or None


def refusal(config, args) -> str | None:
    """Why this role cannot run with this config (said before anything starts), or None."""
    if not config.server.store:
        return (f"--role {args.role} needs a PostgreSQL store (--store postgresql://... or [server]"
                " store in config.toml): a SQLite file belongs to one process")
    if args.role == "tables":
        known = [t.name for t in config.tables]
        unknown = [n for n in table_names(args) or () if n not in known]
        if unknown:
            return (f"--tables: no table called {', '.join(map(repr, unknown))} in the config (its tables: "
                    f"{', '.join(map(repr, known)) or 'none'})")
        known = [t.name for t in config.tournaments]
        unknown = [n for n in tournament_names(args) or () if n not in known]
        if unknown:
            return (f"--tournaments: no tournament called {', '.join(map(repr, unknown))} in the config (its "
                    f"tournaments: {', '.join(map(repr, known)) or 'none'})")
    return None


async def run(config, args, data_dir: Path) -> int:
    nats = args.nats or config.server.nats or DEFAULT_NATS
    role: TableHostRole | GatewayRole
    if args.role == "tables":
        from cardroom.roles.tablehost import TableHostRole

        role = TableHostRole(config, config.server.store, nats, tables=table_names(args), owner=args.host_id,
                             tournaments=tournament_names(args))
        await role.start()
        cups = f", tournaments {', '.join(sorted(role.cups))}" if role.cups else ""
        print(f"cardroom table host {role.owner}: tables {', '.join(sorted(role.held)) or '(none yet)'}{cups}"
              f" over {shown(nats)}", file=sys.__stdout__, flush=True)
    else:
        from cardroom.roles.gateway import GatewayRole
        from cardroom.ssh import ensure_host_key

        key_path = Path(args.host_key) if args.host_key else data_dir / HOST_KEY
        key_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        fingerprint = ensure_host_key(key_path)
        role = GatewayRole(config, config.server.store, nats)
        host = args.host or config.server.host
        port = args.port if args.port is not None else config.server.port
        await role.start(host, port, key_path)
        print(f"cardroom gateway {role.id} on {host}:{port} over {shown(nats)}\n"
              f"host key fingerprint: {fingerprint}\n"
              f"players connect with: ssh -p {port} NAME@{host}", file=sys.__stdout__, flush=True)
    _until_signal(role.stop)
    await role.stop.wait()
    await role.shutdown()
    return 0
