"""Issue 34, point 1: no client can make the server hold more for its connection than a bound.

asyncssh queues what a client asks of the connection without bound: one authenticated client sending
tcpip-forward requests without want-reply grew the server by 20 MiB/s and was never dropped. Each
connection now has a budget of messages (Limits.message_burst, messages_per_second), and bounds on
the bytes it has sent and not been parsed yet and on the output its socket has not taken
(ssh/server.py, textual_adapter.meter_connection). The floods run against a real server in a
subprocess, whose RSS is read from /proc; another player's session is typed on throughout.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

import asyncssh
import pytest
from asyncssh.packet import Boolean, String, UInt32
from ssh_helpers import Screen, StandInApp, wait_for

from cardroom import textual_adapter
from cardroom.ssh import Limits, start_server

REPO = Path(__file__).resolve().parents[2]
FLOOD = 50_000          # messages sent; the old server queued every one of them
BATCH = 500

# A real server in its own process, so that its memory is its own: StandInApp sessions, every key
# accepted; the port on stdout; it ends when its stdin closes.
SERVER = """
import asyncio, sys
from cardroom.ssh import start_server
from ssh_helpers import StandInApp

async def main():
    server = await start_server("127.0.0.1", 0, sys.argv[1], StandInApp, authorize=lambda user, key: True)
    print(server.port, flush=True)
    await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    await server.close(timeout=2)

asyncio.run(main())
"""


class _Server:
    async def start(self, key_path: Path) -> _Server:
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO), str(REPO / "tests" / "ssh")]))
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable, "-c", SERVER, str(key_path), stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env, cwd=REPO)
        self.port = int(await asyncio.wait_for(self.proc.stdout.readline(), 30))
        return self

    def rss(self) -> int:
        with open(f"/proc/{self.proc.pid}/status") as status:
            return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))

    async def stop(self) -> None:
        self.proc.stdin.close()
        try:
            await asyncio.wait_for(self.proc.wait(), 10)
        except TimeoutError:
            self.proc.kill()
            await self.proc.wait()


@pytest.fixture
async def subprocess_server(tmp_path):
    server = await _Server().start(tmp_path / "host_key")
    yield server
    await server.stop()


def _connect(port: int, username: str = "alice", **kwargs):
    kwargs.setdefault("client_keys", [asyncssh.generate_private_key("ssh-ed25519")])
    return asyncssh.connect("127.0.0.1", port, username=username, known_hosts=None, agent_path=None, config=None,
                            **kwargs)


def _forward_request(conn, channel, i: int) -> None:
    conn.send_packet(80, String(b"tcpip-forward"), Boolean(False), String(b"127.0.0.1"), UInt32(1024 + i % 60000))


def _x11_request(conn, channel, i: int) -> None:
    # SSH_MSG_CHANNEL_REQUEST "x11-req" on the session's channel (the server's number for it).
    channel.send_packet(98, String(b"x11-req"), Boolean(False), Boolean(False), String(b"MIT-MAGIC-COOKIE-1"),
                        String(b"00ff"), UInt32(0))


def _unknown_message(conn, channel, i: int) -> None:
    conn.send_packet(200, String(b"x" * 64))


async def _flood(conn, channel, send) -> int:
    """Send FLOOD messages as fast as the loop lets the client write them; how many were sent
    before the server closed the connection."""
    for sent in range(0, FLOOD, BATCH):
        if conn.is_closed():
            return sent
        for i in range(sent, sent + BATCH):
            send(conn, channel, i)
        await asyncio.sleep(0)
    return FLOOD


@pytest.mark.parametrize("send", [_forward_request, _x11_request, _unknown_message],
                         ids=["tcpip-forward", "x11-req", "unknown-message"])
async def test_a_message_flood_is_dropped_and_the_server_stays_flat(subprocess_server, send):
    server = subprocess_server
    async with _connect(server.port, "bob") as other:
        screen = Screen(await other.create_process(term_type="xterm-256color", term_size=(80, 24)), timeout=10)
        await screen.wait_for("count=0")
        conn = await _connect(server.port)
        process = await conn.create_process(term_type="xterm-256color", term_size=(80, 24))
        flooder = Screen(process, timeout=10)
        await flooder.wait_for("count=0")
        before = server.rss()
        sent = await _flood(conn, process.channel, send)
        await asyncio.wait_for(conn.wait_closed(), 10)
        grown = server.rss() - before
        assert sent < FLOOD, "the flood was never cut off"
        assert grown < 8 * 1024 * 1024, f"the server grew {grown / 2**20:.1f} MiB"
        screen.send("k")                         # the other player never noticed
        await screen.wait_for("count=1 last=k")


class _AuthFlood(asyncssh.SSHClient):
    """Before logging in, pipelines user-auth requests: the server checks each in a task, and
    asyncssh kept appending everything that arrived meanwhile to its input buffer."""

    def connection_made(self, conn) -> None:
        self.conn = conn

    async def public_key_auth_requested(self):
        for _ in range(FLOOD // BATCH):
            if self.conn.is_closed():
                break
            for _ in range(BATCH):
                self.conn.send_packet(50, String(b"alice"), String(b"ssh-connection"), String(b"none"))
            await asyncio.sleep(0)
        await asyncio.sleep(30)


async def test_a_login_flood_is_dropped_and_the_server_stays_flat(subprocess_server):
    server = subprocess_server
    before = server.rss()
    # Dropped as it floods (the connection reset or closed), not at the login timeout (30 s).
    with pytest.raises((asyncssh.Error, ConnectionError)):
        await asyncio.wait_for(_connect(server.port, client_factory=_AuthFlood, client_keys=None), 20)
    grown = server.rss() - before
    assert grown < 8 * 1024 * 1024, f"the server grew {grown / 2**20:.1f} MiB"
    async with _connect(server.port, "bob") as other:       # the door is still open
        screen = Screen(await other.create_process(term_type="xterm-256color", term_size=(80, 24)), timeout=10)
        await screen.wait_for("count=0")


async def test_a_session_s_life_spends_a_dozen_messages(tmp_path):
    """Logging in, a screen, a window change, keepalives and typing (asyncssh's client sends an
    SSH_MSG_IGNORE before every packet, which is not counted) fit in a budget of 16 messages with
    next to no refill: the default budget (64, then 4 a second) is far from a player's way."""
    server = await start_server("127.0.0.1", 0, tmp_path / "host", StandInApp, authorize=lambda user, k: True,
                                limits=Limits(message_burst=16, messages_per_second=0.01))
    try:
        async with _connect(server.port, keepalive_interval=0.1) as conn:
            screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(80, 24)), timeout=10)
            await screen.wait_for("count=0")
            screen.process.change_terminal_size(90, 30)
            await screen.wait_for("size=90x30")
            for _ in range(200):
                screen.send("k")
                await asyncio.sleep(0)
            await asyncio.sleep(0.35)            # the subject: three keepalives come and go
            await screen.wait_for("count=200")
            assert not conn.is_closed()
    finally:
        await server.close(timeout=2)


class _Proxy:
    """Between a client and the server: passes everything, until `block()`: then it stops reading
    what the server sends (a client that granted itself a huge window and does not read)."""

    def __init__(self, port: int) -> None:
        self.upstream_port = port
        self.blocked = asyncio.Event()
        self.tasks: list[asyncio.Task] = []

    async def start(self) -> int:
        self.listener = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self.listener.sockets[0].getsockname()[1]

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)    # the kernel holds little for us
        sock.setblocking(False)
        await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", self.upstream_port))
        up_reader, up_writer = await asyncio.open_connection(sock=sock)
        self.tasks += [asyncio.ensure_future(self._pump(reader, up_writer, False)),
                       asyncio.ensure_future(self._pump(up_reader, writer, True))]

    async def _pump(self, reader, writer, blockable: bool) -> None:
        while data := await reader.read(65536):
            if blockable and self.blocked.is_set():
                await asyncio.Event().wait()        # never reads again
            writer.write(data)
            await writer.drain()
        writer.close()

    def block(self) -> None:
        self.blocked.set()

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        self.listener.close()


async def test_a_client_that_grants_a_huge_window_and_never_reads_is_dropped(tmp_path):
    """The session's own bound (Limits.max_write_buffer) counts output the SSH window holds back;
    a client that opens a 64 MiB window and stops reading its socket left every repaint in the
    connection's transport, unbounded. Now past max_unsent_output the connection is dropped."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    server = await start_server("127.0.0.1", 0, tmp_path / "host", StandInApp, authorize=lambda user, k: True,
                                limits=Limits(max_unsent_output=256 * 1024))
    proxy = _Proxy(server.port)
    port = await proxy.start()
    try:
        async with asyncssh.connect("127.0.0.1", port, username="alice", client_keys=[key], known_hosts=None,
                                    agent_path=None, config=None) as conn:
            process = await conn.create_process(term_type="xterm-256color", term_size=(200, 60),
                                                window=64 * 1024 * 1024)
            screen = Screen(process, timeout=10)
            await screen.wait_for("count=0")
            (session,) = server.sessions
            proxy.block()
            # Each 'f' repaints the whole 200x60 screen (about 12 KB); the kernel's socket buffers
            # take the first few MB (loopback's send buffer grows to 4 MiB).
            for _ in range(1500):
                if not server.sessions:
                    break
                process.stdin.write("f")
                await asyncio.sleep(0.01)           # the subject: keys at a typist's flood pace
            await wait_for(lambda: not server.sessions and server.connection_count == 0,
                           what="the connection dropped")
            await wait_for(lambda: session.task.done(), what="its app ended")
    finally:
        await proxy.close()
        await server.close(timeout=2)


def test_a_changed_asyncssh_fails_naming_what_moved():
    class Connection:
        process_packet = add_channel = data_received = pause_writing = lambda self: None

    class Channel:
        _process_env_request = _process_x11_req_request = lambda self: None

    textual_adapter.check_asyncssh(asyncssh.SSHServerConnection, asyncssh.SSHServerChannel)
    with pytest.raises(textual_adapter.GuardBroken, match="Channel._process_auth_agent_req_at_openssh_dot_com_request"):
        textual_adapter.check_asyncssh(Connection, Channel)
