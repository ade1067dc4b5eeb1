"""The bus's tests: a real nats-server (tests.natsserver) and the worlds the contract runs in.

`world` is the same room two ways: `local` (LocalClient over the room in this process) and
`remote` (a TableHost serving that room on NATS, a Gateway in this process making RemoteClients).
Both run the room on a fake clock with its store in tmp_path; `world.settle()` waits (with a
deadline) until every view the clients hold is the host's latest, so a test reads what the room
did, never a view still on its way.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from cardroom.room.clock import FakeClock
from cardroom.room.client import LocalClient
from cardroom.room.room import Room
from cardroom.store.sqlite import SqliteStore
from tests.bus.play import TABLE
from tests.rooms import build_room, table_settings

DEADLINE = 10.0


async def until(predicate, deadline: float = DEADLINE, what: str = "") -> None:
    """Wait until `predicate()` holds; fail after `deadline` seconds."""
    end = time.monotonic() + deadline
    while not predicate():
        if time.monotonic() > end:
            pytest.fail(f"not within {deadline} s: {what or predicate}")
        await asyncio.sleep(0.002)


@pytest.fixture(scope="session")
def nats_server():
    from tests.natsserver import start_server
    server = start_server()
    yield server
    server.close()


@pytest.fixture
async def bus(nats_server):
    """Connections to the test server, closed at the end: `await bus()` gives one."""
    from cardroom.bus.connection import connect
    made = []

    async def new(name: str = "test"):
        nc = await connect(nats_server.url, name=name)
        made.append(nc)
        return nc

    yield new
    for nc in made:
        await nc.close()


class World:
    """A room, its fake clock, and how clients of it are made."""

    def __init__(self, kind: str, room: Room, clock: FakeClock) -> None:
        self.kind, self.room, self.clock = kind, room, clock
        self.host = None
        self.gateway = None
        self.clients = []

    async def login(self, name: str, fingerprint: str | None = None):
        if self.gateway is None:
            client = LocalClient(await self.room.login(name, fingerprint))
        else:
            client = await self.gateway.login(name, fingerprint)
        self.clients.append(client)
        return client

    async def settle(self) -> None:
        if self.host is None:
            return
        host = self.host

        def synced() -> bool:
            if host._dirty or host._flusher is not None:
                return False
            for c in self.clients:
                if c.closed:
                    continue
                for t in c._watching | set(c.my_tables()):
                    held = c._held(t)
                    if held is None or held.n != host._version[t]:
                        return False
            return True
        await until(synced, what="the clients' views are the host's latest")

    async def advance(self, seconds: float) -> None:
        self.clock.advance(seconds)
        await self.settle()


@pytest.fixture
def room_tables():
    """The tables of the world's room (a test may override this fixture)."""
    return [table_settings(TABLE, seats=6)]


@pytest.fixture
def room_tournaments():
    """The tournaments of the world's room (config.toml-like TournamentSpecs; none unless a test
    module overrides this fixture)."""
    return []


@pytest.fixture(params=["local", "remote"])
async def world(request, tmp_path, room_tables, room_tournaments):
    room, store, clock = build_room(tmp_path / "room.sqlite3", *room_tables, seed=5, tournaments=room_tournaments)
    w = World(request.param, room, clock)
    connections = []
    if request.param == "remote":
        from cardroom.bus.client import Gateway
        from cardroom.bus.connection import connect
        from cardroom.bus.host import TableHost
        url = request.getfixturevalue("nats_server").url   # only the remote world needs the server
        connections = [await connect(url, name="tables"), await connect(url, name="gateway")]
        w.host = TableHost(room, connections[0], lobby_every=0.2)
        await w.host.start()
        gateway_store = SqliteStore(tmp_path / "room.sqlite3")     # the gateway's own, as in another process
        w.gateway = Gateway(connections[1], gateway_store, tables=[t.name for t in room_tables], timeout=2.0)
        await w.gateway.start()
    yield w
    for c in w.clients:
        c.close()
    if w.gateway is not None:
        await w.gateway.close()
        await w.host.stop()
        w.gateway.store.close()
    for nc in connections:
        await nc.close()
    store.close()
