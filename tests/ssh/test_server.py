"""End to end: a real asyncssh server on 127.0.0.1:0 and asyncssh clients, keys made in tmp_path."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import stat
import time

import asyncssh
import pytest
from ssh_helpers import PtyProgram, Screen, StandInApp, wait_for

from cardroom.ssh import ColorDepth, Limits, SessionInfo, ensure_host_key, start_server


@pytest.fixture
def client_key():
    return asyncssh.generate_private_key("ssh-ed25519")


@pytest.fixture
async def server_factory(tmp_path, client_key):
    started = []
    infos: list[SessionInfo] = []
    allowed = client_key.get_fingerprint()

    def factory(info: SessionInfo) -> StandInApp:
        infos.append(info)
        return StandInApp(info)

    async def start(limits: Limits | None = None):
        server = await start_server(
            "127.0.0.1", 0, tmp_path / "keys" / "host_ed25519", factory,
            limits=limits, authorize=lambda user, key: key.get_fingerprint() == allowed,
        )
        server.infos = infos
        started.append(server)
        return server

    yield start
    for server in started:
        await server.close(timeout=2)


def connect(server, client_key, username="alice", **kwargs):
    return asyncssh.connect(
        "127.0.0.1", server.port, username=username, client_keys=[client_key], known_hosts=None,
        agent_path=None, config=None, **kwargs,
    )


async def open_screen(conn, term_type="xterm-256color", term_size=(80, 24), **kwargs) -> Screen:
    process = await conn.create_process(term_type=term_type, term_size=term_size, **kwargs)
    return Screen(process, timeout=5.0)


def test_ensure_host_key_creates_0600_once(tmp_path):
    path = tmp_path / "host_keys" / "ssh_host_ed25519"
    fingerprint = ensure_host_key(path)
    assert fingerprint.startswith("SHA256:")
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    before = path.read_bytes()
    assert ensure_host_key(path) == fingerprint
    assert path.read_bytes() == before


async def test_pty_session_keys_and_resize(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn, term_size=(90, 30))
        await screen.wait_for("count=0")
        await screen.wait_for("size=90x30")
        assert "\x1b[?1049h" in screen.text
        screen.process.stdin.write("ab")
        await screen.wait_for("count=2 last=b")
        screen.process.change_terminal_size(120, 40)
        await screen.wait_for("size=120x40")
        screen.process.change_terminal_size(5000, 1)  # absurd: clamped
        await screen.wait_for("size=500x10")
        screen.process.stdin.write("q")
        await asyncio.wait_for(screen.process.wait_closed(), 5)
        assert screen.process.exit_status == 0
        assert screen.text.endswith("\x1b[?1049l")  # the client's terminal is restored
    info = server.infos[0]
    assert info.username == "alice" and info.term == "xterm-256color"
    assert info.color_depth is ColorDepth.EIGHT_BIT and info.size == (90, 30)
    assert info.peer_address == "127.0.0.1"
    assert info.key_fingerprint == client_key.get_fingerprint()


async def test_keys_sent_immediately_on_open(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24))
        process.stdin.write("xyz")  # before the app has even started
        screen = Screen(process, timeout=5.0)
        await screen.wait_for("count=3 last=z")


async def test_colour_depth_per_session(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        true = await open_screen(conn, term_type="xterm", env={"COLORTERM": "truecolor"})
        await true.wait_for("count=0")
    async with connect(server, client_key) as conn:
        sixteen = await open_screen(conn, term_type="xterm")
        mono = None
        await sixteen.wait_for("count=0")
    async with connect(server, client_key) as conn:
        mono = await open_screen(conn, term_type="xterm-256color", env={"NO_COLOR": "1"})
        await mono.wait_for("count=0")
    assert "38;2;10;200;30" in true.text
    assert "38;2;" not in sixteen.text and "38;5;" not in sixteen.text
    assert "38;" not in mono.text and "48;" not in mono.text
    depths = [info.color_depth for info in server.infos]
    assert depths == [ColorDepth.TRUECOLOR, ColorDepth.STANDARD, ColorDepth.NONE]


async def test_invalid_utf8_does_not_drop_the_session(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        process = await conn.create_process(term_type="xterm", term_size=(80, 24), encoding=None)
        process.stdin.write(b"\xff\xfe")
        process.stdin.write(b"k")
        text = b""
        deadline = time.monotonic() + 5
        while b"last=k" not in text and time.monotonic() < deadline:
            text += await asyncio.wait_for(process.stdout.read(65536), 5)
        assert b"last=k" in text


async def test_no_pty_gets_help_and_exit_1(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        result = await asyncio.wait_for(conn.run(), 5)
    assert result.exit_status == 1
    assert result.stdout.count("\n") == 1 and "ssh -t" in result.stdout
    assert server.infos == []


async def test_exec_sftp_and_forwarding_refused(server_factory, client_key):
    server = await server_factory()
    # One session channel per connection, so each refusal gets a connection of its own.
    async with connect(server, client_key) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("ls /", term_type=None)
    async with connect(server, client_key) as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.run("scp -t /tmp", term_type=None)
    async with connect(server, client_key) as conn:
        with pytest.raises((asyncssh.SFTPError, asyncssh.ChannelOpenError)):
            await conn.start_sftp_client()
    async with connect(server, client_key) as conn:
        first = await open_screen(conn)
        await first.wait_for("count=0")
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", server.port)
        with pytest.raises(asyncssh.ChannelListenError):
            await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 22)
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_process(term_type="xterm")  # a second session
        # The live session is unharmed by all of the above.
        first.process.stdin.write("k")
        await first.wait_for("last=k")
    assert len(server.infos) == 1


async def test_wrong_key_and_password_refused(server_factory, client_key):
    server = await server_factory()
    with pytest.raises(asyncssh.PermissionDenied):
        async with connect(server, asyncssh.generate_private_key("ssh-ed25519")):
            pass
    with pytest.raises(asyncssh.PermissionDenied):
        async with asyncssh.connect(
            "127.0.0.1", server.port, username="alice", password="hunter2", client_keys=None,
            known_hosts=None, agent_path=None, config=None,
        ):
            pass


async def test_connection_limits_refused_with_reason(server_factory, client_key):
    server = await server_factory(Limits(max_per_ip=2))
    async with connect(server, client_key) as one, connect(server, client_key):
        with pytest.raises(asyncssh.DisconnectError, match="too many connections from your address"):
            async with connect(server, client_key):
                pass
        screen = await open_screen(one)  # the server still serves the others
        screen.process.stdin.write("k")
        await screen.wait_for("last=k")
    async with connect(server, client_key) as again:  # slots are freed on disconnect
        screen = await open_screen(again)
        await screen.wait_for("count=0")


async def test_total_connection_limit(server_factory, client_key):
    server = await server_factory(Limits(max_connections=1, max_per_ip=10))
    async with connect(server, client_key) as conn:
        with pytest.raises(asyncssh.DisconnectError, match="card room is full"):
            async with connect(server, client_key):
                pass
        screen = await open_screen(conn)
        await screen.wait_for("count=0")


class _NeverReads(asyncssh.SSHClientSession):
    def connection_made(self, chan) -> None:
        chan.pause_reading()  # stop consuming: the client stops opening its window


async def test_client_that_never_reads_is_dropped(server_factory, client_key):
    server = await server_factory(Limits(max_write_buffer=64 * 1024))
    async with connect(server, client_key) as conn:
        chan, _ = await conn.create_session(
            _NeverReads, term_type="xterm-256color", term_size=(200, 60), window=16 * 1024,
        )
        peak = 0
        deadline = time.monotonic() + 10
        while server.sessions and time.monotonic() < deadline:
            chan.write("f")  # each 'f' repaints the whole 200x60 screen
            for session in server.sessions:
                if session._chan is not None:
                    peak = max(peak, session._chan.get_write_buffer_size())
            await asyncio.sleep(0.02)    # the subject: keep typing at the pace of a flood, sampling the buffer
        assert not server.sessions, "a client that never reads must be disconnected"
        # Bounded by the cap plus one frame, not by how long the client kept typing.
        assert peak <= 64 * 1024 + 64 * 1024
        await asyncio.wait_for(conn.wait_closed(), 5)


async def test_graceful_close_restores_terminals(server_factory, client_key):
    server = await server_factory()
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn)
        await screen.wait_for("count=0")
        await server.close(timeout=3)
        await asyncio.wait_for(screen.process.wait_closed(), 5)
        # The terminal given back, then the server's last words (issue 35).
        assert screen.text.endswith("\x1b[?1049l\r\nThis server is closing: log in again to come back.\r\n")
        assert screen.process.exit_status == 0
    assert server.connection_count == 0


async def test_disconnect_while_app_starting_exits_it(server_factory, client_key):
    server = await server_factory()
    for _ in range(5):
        conn = await connect(server, client_key)
        await conn.create_process(term_type="xterm", term_size=(80, 24))
        conn.abort()  # vanish mid-startup
    await wait_for(lambda: not server.sessions, what="the vanished client's session to be dropped")


async def _max_loop_gap(seconds: float) -> float:
    loop = asyncio.get_running_loop()
    worst, last, end = 0.0, loop.time(), loop.time() + seconds
    while loop.time() < end:
        await asyncio.sleep(0.005)    # the subject: a probe of the loop's lag, so a fixed short sleep
        now = loop.time()
        worst, last = max(worst, now - last), now
    return worst


async def test_key_flood_and_giant_paste_do_not_stall_the_loop(server_factory, client_key):
    limits = Limits()
    server = await server_factory(limits)
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn)
        await screen.wait_for("count=0")
        (session,) = server.sessions
        screen.process.stdin.write("a" * 300_000)  # ~6 s of parsing if done in one go
        gap = await _max_loop_gap(1.0)
        assert gap < 0.25, f"event loop stalled for {gap:.3f}s"
        assert session._pending_len <= 2 * limits.max_pending_input
        assert 0 < session.app.count < 300_000  # still working through it, in slices
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn)
        await screen.wait_for("count=0")
        (session,) = [s for s in server.sessions if s.app is not None]
        screen.process.stdin.write("\x1b[200~" + "p" * 1_000_000 + "\x1b[201~k")
        gap = await _max_loop_gap(0.5)
        await screen.wait_for("last=k", timeout=10)
        assert gap < 0.25, f"event loop stalled for {gap:.3f}s"
        assert session.app.pastes == ["p" * limits.max_paste]


async def test_env_and_window_change_floods(server_factory, client_key):
    server = await server_factory()
    flood = {f"VAR{i}": "x" * 1000 for i in range(500)}
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn, term_type="x" * 5000 + "\x1b]0;pwned\x07", env=flood)
        await screen.wait_for("count=0")
        (session,) = server.sessions
        assert session._env == {}  # nothing but colour hints is ever stored
        assert server.infos[0].term == "x" * 64  # TERM bounded and sanitised
        for i in range(500):
            screen.process.change_terminal_size(60 + i % 50, 20 + i % 10)
        screen.process.change_terminal_size(77, 22)
        await screen.wait_for("size=77x22")
        screen.process.stdin.write("k")
        await screen.wait_for("last=k")


async def test_a_client_preferring_chacha20_gets_aes(server_factory, client_key):
    """Stock clients list chacha20-poly1305 first; the server accepts AES only (see
    server.ENCRYPTION_ALGS: chacha20 cost six times as much per packet here), and a client
    that offers only chacha20 is refused rather than served with it."""
    server = await server_factory()
    async with connect(server, client_key) as conn:             # asyncssh's default order
        for direction in ("send_cipher", "recv_cipher"):
            assert conn.get_extra_info(direction) in ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com")
        screen = await open_screen(conn)
        await screen.wait_for("count=0")            # a session runs over it as over any other
        screen.process.close()
    async with connect(server, client_key, encryption_algs=["aes256-ctr"],
                       mac_algs=["hmac-sha2-256-etm@openssh.com"]) as conn:
        assert conn.get_extra_info("send_cipher") == "aes256-ctr"
        assert conn.get_extra_info("send_mac") == "hmac-sha2-256-etm@openssh.com"
    with pytest.raises(asyncssh.Error):
        async with connect(server, client_key, encryption_algs=["chacha20-poly1305@openssh.com"]):
            pass


async def _silent_sockets(port: int, sources: list[str]) -> list[asyncio.StreamWriter]:
    """One raw TCP connection from each of `sources` (loopback addresses), all at once, that
    never says a word. Returns once the server has seen every one (it sends its version line
    after it has counted the connection)."""

    async def one(source: str) -> asyncio.StreamWriter:
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
        return writer

    return list(await asyncio.gather(*(one(source) for source in sources)))


@pytest.mark.parametrize("flood", [
    pytest.param(["127.0.0.1"] * 130, id="one-address"),
    pytest.param([f"127.0.1.{i}" for i in range(1, 21)] * 8, id="twenty-addresses"),
])
async def test_silent_connections_cannot_keep_a_player_out(server_factory, client_key, flood):
    """Found by an attack: silent sockets never reach begin_auth, so they were only counted
    together, and past the cap every new connection was dropped: 450 from one address (or 8
    each from 58) kept every other player out for 30 s, again and again. Now a source may have
    a few logins in progress, and past the total the oldest of the busiest source makes way.
    (The limits are scaled down here; the shape is the same.)"""
    limits = Limits(max_unauthenticated=100, max_unauthenticated_per_ip=8, connect_burst=1000)  # not throttled
    server = await server_factory(limits)
    held = await _silent_sockets(server.port, flood)
    try:
        per_source = sum(min(flood.count(source), 8) for source in set(flood))
        await wait_for(lambda: server.connection_count == min(per_source, 100))   # the rest dropped
        async with connect(server, client_key, local_addr=("127.0.0.200", 0)) as conn:
            screen = await open_screen(conn)
            await screen.wait_for("count=0")
        assert server._registry.unauthenticated_count <= limits.max_unauthenticated
    finally:
        for writer in held:
            writer.close()


async def _server_kexinit(port: int) -> list[list[str]]:
    """The algorithm name-lists the server offers (its KEXINIT), read off a raw socket."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        await asyncio.wait_for(reader.readline(), 10)                 # the server's version line
        writer.write(b"SSH-2.0-probe\r\n")
        length = int.from_bytes(await asyncio.wait_for(reader.readexactly(4), 10), "big")
        packet = await reader.readexactly(length)
    finally:
        writer.close()
    payload = packet[1:length - packet[0]]                             # padding-length byte first
    assert payload[0] == 20                                            # SSH_MSG_KEXINIT
    lists, at = [], 17                                                 # after the 16-byte cookie
    for _ in range(10):
        n = int.from_bytes(payload[at:at + 4], "big")
        lists.append(payload[at + 4:at + 4 + n].decode("ascii").split(","))
        at += 4 + n
    return lists


async def test_only_strong_algorithms_are_offered_curve25519_first(server_factory):
    server = await server_factory()
    kex, host_keys, ciphers, _, macs, _, *_ = await _server_kexinit(server.port)
    kex = [alg for alg in kex if alg not in ("ext-info-s", "kex-strict-s-v00@openssh.com")]
    assert kex[0] == "curve25519-sha256"
    assert not [alg for alg in kex if "nistp" in alg], kex      # issue 34: ssh-audit fails the NIST curves
    assert not [alg for alg in kex if "sha1" in alg or "group1-" in alg or "group-exchange" in alg
                or "rsa1024" in alg], kex
    assert host_keys == ["ssh-ed25519"]
    assert not [c for c in ciphers if "cbc" in c or "3des" in c or "arcfour" in c or c == "none"]
    assert not [m for m in macs if "sha1" in m or "md5" in m or "umac-64" in m or m == "none"], macs
    etm = [m.endswith("-etm@openssh.com") for m in macs]
    assert etm[0] and etm == sorted(etm, reverse=True), "encrypt-then-MAC first"


async def test_server_sig_algs_offers_no_sha1_rsa_or_dsa(server_factory, client_key, caplog):
    """Issue 34: the server-sig-algs extension (what a client's key may sign with) listed ssh-rsa
    (RSA with SHA-1) and ssh-dss. Read as asyncssh's client logs the server's extension info."""
    server = await server_factory()
    asyncssh.set_debug_level(2)
    caplog.set_level(logging.DEBUG, logger="asyncssh")
    try:
        async with connect(server, client_key):
            pass
    finally:
        asyncssh.set_debug_level(1)
    line = next(r.getMessage() for r in caplog.records if "server-sig-algs" in r.getMessage())
    offered = line.split("server-sig-algs:", 1)[1].strip().removeprefix("b'").removesuffix("'").split(",")
    assert "ssh-ed25519" in offered and "rsa-sha2-512" in offered and "rsa-sha2-256" in offered
    assert not [alg for alg in offered if alg in ("ssh-rsa", "ssh-dss") or "sha224" in alg or "@ssh.com" in alg]


def _openssh(port: int, key_path, user: str = "alice") -> PtyProgram:
    return PtyProgram("ssh", "-tt", "-F", "/dev/null", "-o", "StrictHostKeyChecking=no", "-o",
                      "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
                      "-i", str(key_path), "-p", str(port), f"{user}@127.0.0.1")


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client `ssh`")
@pytest.mark.parametrize("algorithm, size", [("ssh-ed25519", None), ("ssh-rsa", 2048), ("ecdsa-sha2-nistp256", None)])
async def test_openssh_logs_in_with_each_kind_of_players_key(tmp_path, algorithm, size):
    """Without ssh-rsa (SHA-1) an RSA key signs with rsa-sha2-*; a player's NIST ECDSA key stays
    welcome (only the key exchange's NIST curves went)."""
    key = asyncssh.generate_private_key(algorithm, **({"key_size": size} if size else {}))
    key_path = tmp_path / "id"
    key_path.write_bytes(key.export_private_key())
    os.chmod(key_path, 0o600)
    allowed = key.get_fingerprint()
    server = await start_server("127.0.0.1", 0, tmp_path / "keys" / "host", StandInApp,
                                authorize=lambda user, k: k.get_fingerprint() == allowed)
    client = await _openssh(server.port, key_path).start()
    try:
        assert await client.wait_for("count=0"), client.plain[-300:]
    finally:
        await client.stop()
        await server.close(timeout=2)


@pytest.mark.skipif(shutil.which("plink") is None or shutil.which("puttygen") is None,
                    reason="needs PuTTY's `plink` and `puttygen` (Debian: putty-tools)")
async def test_putty_plink_connects(tmp_path):
    """PuTTY (Debian 12's 0.78): curve25519, AES and an ed25519 key, with the NIST curves gone."""
    key = tmp_path / "key.ppk"
    made = await asyncio.create_subprocess_exec("puttygen", "-t", "ed25519", "-o", str(key), "--new-passphrase",
                                                "/dev/null", stdout=asyncio.subprocess.DEVNULL)
    assert await made.wait() == 0
    shown = await asyncio.create_subprocess_exec("puttygen", str(key), "-O", "public-openssh",
                                                 stdout=asyncio.subprocess.PIPE)
    allowed = asyncssh.import_public_key((await shown.communicate())[0].decode()).get_fingerprint()
    server = await start_server("127.0.0.1", 0, tmp_path / "keys" / "host", StandInApp,
                                authorize=lambda user, k: k.get_fingerprint() == allowed)
    client = await PtyProgram("plink", "-t", "-batch", "-hostkey", server.fingerprint, "-i", str(key),
                              "-P", str(server.port), "alice@127.0.0.1").start()
    try:
        assert await client.wait_for("count=0"), client.plain[-300:]
    finally:
        await client.stop()
        await server.close(timeout=2)


@pytest.mark.skipif(shutil.which("dbclient") is None,
                    reason="needs dropbear's client `dbclient` on PATH (Debian: dropbear-bin)")
async def test_dropbear_client_connects(server_factory, tmp_path):
    """dbclient (Debian 12's 2022.83) sends its first key-exchange packet on a guess that both
    sides list curve25519 first; with asyncssh's own order it got "Disconnect received"."""
    key = tmp_path / "dropbear_key"
    made = await asyncio.create_subprocess_exec("dropbearkey", "-t", "ed25519", "-f", str(key),
                                                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL)
    public = next(line for line in (await made.communicate())[0].decode().splitlines() if line.startswith("ssh-"))
    allowed = asyncssh.import_public_key(public).get_fingerprint()
    server = await start_server("127.0.0.1", 0, tmp_path / "keys" / "host", StandInApp,
                                authorize=lambda user, k: k.get_fingerprint() == allowed)
    client = await PtyProgram("dbclient", "-y", "-y", "-t", "-i", str(key), "-p", str(server.port),
                              "alice@127.0.0.1").start()
    try:
        assert await client.wait_for("count=0"), client.plain[-300:]
    finally:
        await client.stop()
        await server.close(timeout=2)


async def test_a_session_refused_by_the_app_factory_is_told_why(tmp_path, client_key):
    """The room refusing a session (say, his key was banned after he logged in) used to show
    "cardroom: internal error, sorry."; the reason is what the player reads."""
    from cardroom.ssh import SessionRefused

    def refuse(info: SessionInfo) -> StandInApp:
        raise SessionRefused("this key is banned from the card room")

    allowed = client_key.get_fingerprint()
    server = await start_server("127.0.0.1", 0, tmp_path / "keys" / "host", refuse,
                                authorize=lambda user, key: key.get_fingerprint() == allowed)
    try:
        async with connect(server, client_key) as conn:
            screen = await open_screen(conn)
            await asyncio.wait_for(screen.task, 5)
            assert screen.text == "\r\nthis key is banned from the card room\r\n"
    finally:
        await server.close(timeout=2)


async def test_a_window_change_flood_does_not_fill_the_log(server_factory, client_key, caplog):
    """Found by an attack: asyncssh logs each window-change request at INFO, and one client wrote
    18,000 lines in 3 s. Each connection now has a budget of lines (ssh/logbudget.py)."""
    from cardroom.ssh.logbudget import BURST

    caplog.set_level(logging.INFO, logger="asyncssh")
    server = await server_factory()
    async with connect(server, client_key) as conn:
        screen = await open_screen(conn)
        await screen.wait_for("count=0")
        for i in range(3000):
            screen.process.change_terminal_size(60 + i % 50, 20 + i % 10)
        screen.process.stdin.write("k")          # after every window change on the channel
        await screen.wait_for("last=k")
    received = [r for r in caplog.records if "Received window change" in r.getMessage()]
    assert 0 < len(received) < BURST
    assert len(caplog.records) < 4 * BURST       # both ends' lines, the server's and this client's
    assert any("logging too fast" in r.getMessage() for r in caplog.records)
    caplog.clear()
    async with connect(server, client_key):      # another connection logs as before
        pass
    assert any("Accepted SSH client connection" in r.getMessage() for r in caplog.records)


def test_per_source_limits_count_an_ipv6_slash_64_as_one_source():
    """A client can take any address of its IPv6 /64, so the per-address limits count the /64."""
    from cardroom.ssh.server import source_of

    assert source_of("2001:db8:1:2::1") == source_of("2001:db8:1:2:ffff::9") == "2001:db8:1:2::/64"
    assert source_of("2001:db8:1:3::1") != source_of("2001:db8:1:2::1")
    assert source_of("::ffff:192.0.2.7") == source_of("192.0.2.7") == "192.0.2.7"
