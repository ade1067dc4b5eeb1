"""`cardroom serve --role gateway`: the SSH server and the Textual sessions of a room spread over
processes, holding no table state: each session's client is a RemoteClient (cardroom.bus.client).

Several gateways on one machine listen on one port (SO_REUSEPORT) with one host key. One live
session per account across all of them: a login publishes a claim (CLAIM) and every gateway
ends its own older session of that account, as one process does for a second login. The
gateway's heartbeat is its Gateway's (bus/liveness.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets
import socket
from typing import TYPE_CHECKING

from cardroom.bus.admin import RemoteRoomAdmin
from cardroom.bus.client import Gateway, RemoteClient
from cardroom.bus.connection import connect
from cardroom.engine.pokerstars import PLAY
from cardroom.roles.buswait import bus_unreachable
from cardroom.room.api import RoomError
from cardroom.roles.logins import make_authorize, make_guest, make_name_refused
from cardroom.roles.settings import room_settings, tournament_table_settings
from cardroom.room.text import clean_name
from cardroom.store import open_store

if TYPE_CHECKING:
    from cardroom.bus.connection import Nats
    from cardroom.ssh.server import CardroomSSHServer

log = logging.getLogger("cardroom.roles.gateway")

CLAIM = "cr.session.claim"
TAKEN_OVER = "You logged in from somewhere else: this session is closed"
# What each player of a gateway that stops reads as his ssh closes: the tables are the table
# hosts', so his seat and chips wait for him behind any gateway (a rolling restart keeps them).
FAREWELL = "This server is restarting: log in again to return to your seat."


class GatewayRole:
    def __init__(self, config, url: str, nats: str) -> None:
        self.id = f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"
        self.config = config
        self.nats = nats
        self.store = open_store(url)
        self._settings = room_settings(config)
        cups = tournament_table_settings(config)
        self._currency = cups.currency if cups is not None else PLAY    # the tournaments' histories'
        self.gateway: Gateway | None = None
        self.admin: RemoteRoomAdmin | None = None
        self.nc: Nats | None = None
        self.server: CardroomSSHServer | None = None
        self.stop = asyncio.Event()
        self._claims: dict[RemoteClient, str] = {}     # client -> its claim's id

    async def start(self, host: str, port: int, key_path) -> None:
        from cardroom.roles.frontdoor import extras, ssh_limits
        from cardroom.ssh import start_server

        async def reconnected():
            if self.gateway is not None:
                await self.gateway.reconnected()

        self.nc = nc = await connect(self.nats, name=f"cardroom-gateway-{self.id}", reconnected=reconnected,
                                     unreachable=bus_unreachable(self.nats))
        self.gateway = Gateway(nc, self.store, tables=[t.name for t in self.config.tables],
                               settings=self._settings, gateway_id=self.id, tournaments=self.config.tournaments,
                               currency=self._currency)
        await self.gateway.start()
        self.admin = RemoteRoomAdmin(self.gateway)     # every gateway publishes its sessions
        await self.admin.start()
        await nc.subscribe(CLAIM, cb=self._on_claim)
        s = self.config.server
        self.server = await start_server(
            host, port, key_path, self._app_factory(self.gateway, nc), limits=ssh_limits(self.config),
            authorize=make_authorize(self.store), name_refused=make_name_refused(self.store),
            guest=make_guest(self.store) if s.guest_passwords else None,
            extras=extras(self.store, self.config, self._admin_context, self._summaries),
            textual_speedups=s.textual_speedups, shared_screens=s.shared_screens, reuse_port=True)

    def _app_factory(self, gateway: Gateway, nc: Nats):
        from cardroom.roles.frontdoor import new_account_gate
        from cardroom.tui.app import build_app
        from cardroom.tui.options import UIOptions

        new_account = new_account_gate(self.config, self.store)

        async def factory(info):
            from cardroom.ssh import SessionRefused

            new_account(info)
            try:
                client = await gateway.login(clean_name(info.username), info.key_fingerprint)
            except RoomError as e:
                raise SessionRefused(str(e)) from None
            claim = secrets.token_hex(6)
            self._claims[client] = claim
            await nc.publish(CLAIM, json.dumps({"a": client.account_id, "c": claim}).encode())
            if info.end is not None:
                client.on_end(info.end)
            if info.hosting is not None:
                info.hosting.on_ended(lambda: self._session_ended(client))
            return build_app(client, admin=self._admin_panel(client, info.key_fingerprint),
                             options=UIOptions(ascii=not info.utf8), hosting=info.hosting)

        return factory

    def _summaries(self, store, account: int) -> dict:
        """A player's tournament summaries for his SFTP folder: made from the store alone,
        whichever table host deals or dealt each (room/tournaments/summaries.py)."""
        from cardroom.room.tournaments.summaries import summaries

        return summaries(store, {s.name: s for s in self.config.tournaments}, account, self._currency)

    def _admin_panel(self, client, fingerprint):
        """The admin panel for a key of config.server.admins (as serve.py decides), over the whole
        room; its `shutdown now` stops this gateway only (cardroom/bus/admin.py)."""
        admins = set(self.config.server.admins)
        client.is_admin = bool(fingerprint and fingerprint in admins)
        if not client.is_admin:
            return None
        from cardroom.admin.panel import AdminPanel

        ctx = self._admin_context(fingerprint, authorized=lambda: client.is_admin)
        return lambda: AdminPanel(ctx)

    def _admin_context(self, fingerprint: str, authorized=None):
        """What an admin's commands act on here, in the panel and over exec alike: the whole room
        (cardroom/bus/admin.py), the key's fingerprint in the ledger; `shutdown now` stops this
        gateway only."""
        from cardroom.admin.commands import AdminContext

        admins = set(self.config.server.admins)
        room = self.gateway.room if self.gateway is not None else None
        return AdminContext(room, self.store, fingerprint, self.stop.set,
                            authorized=authorized or (lambda: fingerprint in admins), room_admin=self.admin)

    def _session_ended(self, client) -> None:
        self._claims.pop(client, None)
        client.close()

    async def _on_claim(self, msg) -> None:
        """Another login of an account (here or on another gateway): its older sessions end."""
        try:
            d = json.loads(msg.data)
            account, claim = int(d["a"]), str(d["c"])
        except (ValueError, KeyError, TypeError):
            return
        for client, mine in list(self._claims.items()):
            if client.account_id == account and mine != claim and not client.closed:
                self._claims.pop(client, None)
                client.session.taken_over = True
                client.session.end(TAKEN_OVER)

    async def shutdown(self) -> None:
        self.stop.set()
        if self.server is not None:
            await self.server.close(farewell=FAREWELL)
        if self.admin is not None:
            await self.admin.close()
        if self.gateway is not None:
            await self.gateway.close()
        if self.nc is not None:
            await self.nc.close()
        self.store.close()
