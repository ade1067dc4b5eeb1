"""The SSH listener: host key, auth, connection limits, one AppSession per connection, shutdown.

Auth lives in a thin `asyncssh.SSHServer` subclass; who may log in is decided by an injected
`authorize(username, key) -> bool` (accounts come later). The server offers one session per
connection: the PTY session, or with `extras` (ssh/extras.py) a player's own hand histories
read-only over SFTP/scp and `hands` over exec, and admin commands over exec for an admin's key.
Nothing else: no shell, no other exec, no writes, no port/agent/X11 forwarding.
"""

from __future__ import annotations

import asyncio
import inspect
import ipaddress
import logging
import os
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncssh

from cardroom import textual_adapter
from cardroom.room.ratelimit import BucketsByKey, TokenBucket
from cardroom.ssh.extras import Extras
from cardroom.ssh.gcpolicy import GcPolicy
from cardroom.ssh.hosting import ServerHosting
from cardroom.ssh.limits import Limits
from cardroom.ssh.logbudget import install_log_budget
from cardroom.ssh.session import AppFactory, AppSession

log = logging.getLogger("cardroom.ssh")

MAX_AUTH_ATTEMPTS = 6
# At shutdown: each player's last words, and how long their clients get to close by themselves.
FAREWELL = "This server is closing: log in again to come back."
CLIENTS_CLOSE_SECONDS = 1.0

Authorize = Callable[[str, asyncssh.SSHKey], "bool | Awaitable[bool]"]


class KeyRefused(Exception):
    """Raised by `authorize`: this key may not log in, and the message says why. The client is
    told before it gives up (SSH's user-auth banner: OpenSSH prints it on stderr above its
    "Permission denied (publickey)"), once per connection; the attempt is logged."""

MAX_USERNAME = 64
TRACKED_SOURCES = 4096     # sources whose connection rate is remembered; the least recent is forgotten

# Ciphers the server accepts. SSH uses the first of the *client's* list that the server accepts,
# and stock clients (OpenSSH, asyncssh) list chacha20-poly1305 first; asyncssh computes it with a
# new cipher object and a Poly1305 per packet: 37 us for a 2 KB packet against 6 us for AES-GCM
# (this machine), and a card room sends a packet for every repaint of every session (py-spy,
# 300 sessions: 6.8% of the server in chacha20 and poly1305). So AES (GCM, else CTR with an
# encrypt-then-MAC SHA-2 MAC), which every maintained client offers and AES-NI makes cheap.
ENCRYPTION_ALGS = ("aes128-gcm@openssh.com", "aes256-gcm@openssh.com", "aes128-ctr", "aes192-ctr", "aes256-ctr")
# Encrypt-then-MAC first (AES-GCM needs no MAC at all). The plain SHA-2 MACs stay last: SSH takes
# the client's first choice, and every client with an ETM MAC lists it before them (OpenSSH does),
# so only a client with none picks them, and without them it could not connect at all: dropbear
# (Debian 12's 2022.83) has hmac-sha1 and hmac-sha2-256 and, for ciphers, AES-CTR or chacha20
# (which we leave out, see above). No SHA-1, no 64-bit tags (umac-64).
MAC_ALGS = ("hmac-sha2-256-etm@openssh.com", "hmac-sha2-512-etm@openssh.com", "hmac-sha2-256", "hmac-sha2-512")
# Key exchange: no SHA-1 and no group exchange (which lets the client ask for a 1024-bit group),
# and no NIST curves (ssh-audit fails them: their constants are unexplained). Every client that
# has them has curve25519 too: OpenSSH since 6.5, PuTTY 0.68, dropbear 2013.62.
# curve25519 first: the client's order decides, but a client that sends its first key-exchange
# packet on a guess (dropbear) guesses that both lists start alike; asyncssh's own default order
# starts elsewhere, and dropbear was cut off ("Disconnect received") after the wrong guess.
KEX_ALGS = ("curve25519-sha256", "curve25519-sha256@libssh.org", "mlkem768x25519-sha256",
            "diffie-hellman-group16-sha512", "diffie-hellman-group18-sha512", "diffie-hellman-group14-sha256")
# The signatures a player's key may log in with, as server-sig-algs advertises them: no ssh-rsa
# (RSA with SHA-1) or ssh-dss. An RSA key signs with rsa-sha2-* (OpenSSH 7.2, PuTTY 0.75,
# dropbear 2020.79); an ECDSA key (a NIST curve, but the player's choice) stays welcome.
SIGNATURE_ALGS = ("ssh-ed25519", "sk-ssh-ed25519@openssh.com", "rsa-sha2-512", "rsa-sha2-256",
                  "ecdsa-sha2-nistp256", "ecdsa-sha2-nistp384", "ecdsa-sha2-nistp521",
                  "sk-ecdsa-sha2-nistp256@openssh.com")


def _kex_algs() -> list[str]:
    """KEX_ALGS that this asyncssh offers (ML-KEM needs a recent `cryptography`)."""
    from asyncssh.kex import get_kex_algs

    supported = {alg.decode() for alg in get_kex_algs()}
    return [alg for alg in KEX_ALGS if alg in supported]


def _signature_algs() -> list[str]:
    """SIGNATURE_ALGS that this asyncssh knows (the sk- ones need its FIDO support)."""
    from asyncssh.public_key import get_public_key_algs

    supported = {alg.decode() for alg in get_public_key_algs()}
    return [alg for alg in SIGNATURE_ALGS if alg in supported]


def ensure_host_key(path: str | os.PathLike[str]) -> str:
    """Create an ed25519 host key at `path` (mode 0600) if missing; never regenerate one.

    Returns its fingerprint ("SHA256:..."), which clients will see on first connect.
    """
    key_path = Path(path)
    if key_path.exists():
        return asyncssh.read_private_key(key_path).get_fingerprint()
    key_path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = asyncssh.generate_private_key("ssh-ed25519")
    # O_EXCL: if two processes race, one fails instead of one silently replacing the other's key.
    fd = os.open(key_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    return key.get_fingerprint()


def _clean_username(username: str) -> bool:
    return 0 < len(username) <= MAX_USERNAME and username.isprintable() and username.strip() == username


def source_of(ip: str) -> str:
    """Where a connection comes from, for the per-source limits: the IPv4 address, or the /64 an
    IPv6 address is in (one customer's share: a client can take any address in it)."""
    try:
        address = ipaddress.ip_address(ip)
    except ValueError:
        return ip
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class _Registry:
    """Shared bookkeeping of one listener: live connections by source, logins in progress, live
    sessions."""

    def __init__(self, limits: Limits, hosting: ServerHosting) -> None:
        self.limits = limits
        self.hosting = hosting
        self.connections: set[_CardroomServer] = set()
        self.per_ip: Counter[str] = Counter()
        # Connections not yet logged in, by source, oldest first (dicts keep insertion order).
        self.unauthenticated: dict[str, dict[_CardroomServer, None]] = {}
        self.unauthenticated_count = 0
        self.authenticated = 0
        self.sessions: set[AppSession] = set()
        self.closing = False
        self.gc = GcPolicy()
        # Each source's rate of new connections, and the sources being throttled now (said in
        # the log once per spell).
        self.arrivals = BucketsByKey(limits.connects_per_second, limits.connect_burst,
                                     asyncio.get_running_loop().time, TRACKED_SOURCES)
        self.throttled: set[str] = set()

    def arrival_allowed(self, source: str) -> bool:
        """A new connection from `source`; False: its source connects faster than
        Limits.connect_burst and connects_per_second allow, close it unanswered."""
        if self.arrivals.allow(source):
            self.throttled.discard(source)
            return True
        if source not in self.throttled and len(self.throttled) < TRACKED_SOURCES:
            self.throttled.add(source)
            log.info("closing new connections from %s: more than %d at once or %g a second",
                     source, self.limits.connect_burst, self.limits.connects_per_second)
        return False

    def admit(self, server: _CardroomServer) -> bool:
        """A new connection, not logged in yet; False: refuse it (its source has its share).

        Silent sockets never reach begin_auth, so they are bounded here, as they connect: a
        source may have `max_unauthenticated_per_ip` logins in progress, and past
        `max_unauthenticated` in all, the oldest login in progress of the source that has the
        most is dropped. A flood, from one address or many, only ever pushes out its own: a
        person logging in from anywhere else gets in."""
        limits = self.limits
        waiting = self.unauthenticated.setdefault(server.source, {})
        if len(waiting) >= limits.max_unauthenticated_per_ip:
            return False
        waiting[server] = None
        self.unauthenticated_count += 1
        if self.unauthenticated_count > limits.max_unauthenticated:
            busiest = max(self.unauthenticated.values(), key=len)
            oldest = next(iter(busiest))
            self.logged_in_or_gone(oldest)
            asyncio.get_running_loop().call_soon(oldest.abort)
        return True

    def logged_in_or_gone(self, server: _CardroomServer) -> None:
        waiting = self.unauthenticated.get(server.source)
        if waiting is not None and server in waiting:
            del waiting[server]
            self.unauthenticated_count -= 1
            if not waiting:
                del self.unauthenticated[server.source]

    def session_closed(self, session: AppSession) -> None:
        if session in self.sessions:
            self.sessions.discard(session)
            self.gc.session_closed()


class _CardroomServer(asyncssh.SSHServer):
    """One instance per TCP connection (asyncssh calls the factory for each)."""

    def __init__(self, registry: _Registry, app_factory: AppFactory, authorize: Authorize,
                 guest: Callable[[str], bool] | None = None,
                 name_refused: Callable[[str], str | None] | None = None,
                 extras: Extras | None = None) -> None:
        self._registry = registry
        self._app_factory = app_factory
        self._authorize = authorize
        self._guest = guest
        self._name_refused = name_refused
        self._extras = extras
        self._tried: set[str] = set()
        self._told: set[str] = set()        # refused keys whose reason was given (KeyRefused)
        self._conn: asyncssh.SSHServerConnection | None = None
        self._ip = "?"
        self.source = "?"
        self._username = ""
        self._candidate_fingerprint: str | None = None
        self._fingerprint: str | None = None
        self._has_session = False
        self._authenticated = False
        self._budget: TokenBucket | None = None
        self._over_budget = False
        self.ran_app = False       # this connection ran the TUI (its client closes itself at shutdown)

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername") or ("?", 0)
        self._ip = str(peer[0])
        self.source = source_of(self._ip)
        registry = self._registry
        if not registry.arrival_allowed(self.source):
            conn.abort()        # at once: asyncssh then sends no version line, and no key exchange starts
            return
        limits = registry.limits
        self._budget = TokenBucket(limits.messages_per_second, limits.message_burst,
                                   asyncio.get_running_loop().time)
        textual_adapter.meter_connection(conn, spend=self._spend, max_unparsed=limits.max_unparsed_input,
                                         max_unsent=limits.max_unsent_output, overflow=self._overflow)
        registry.connections.add(self)
        registry.per_ip[self.source] += 1
        if not registry.admit(self):
            # A flood of silent TCP connections never reaches begin_auth: just drop them.
            asyncio.get_running_loop().call_soon(conn.abort)

    def connection_lost(self, exc: Exception | None) -> None:
        registry = self._registry
        if self in registry.connections:
            registry.connections.discard(self)
            registry.logged_in_or_gone(self)
            registry.authenticated -= self._authenticated
            registry.per_ip[self.source] -= 1
            if registry.per_ip[self.source] <= 0:
                del registry.per_ip[self.source]
        self._conn = None

    def _spend(self, message: int) -> None:
        """One message of the connection's budget (Limits.message_burst): past it, it is dropped.
        Not an SSH_MSG_IGNORE: asyncssh's own client sends one before every packet, and they cost
        nothing but their parsing (as channel data does)."""
        if message == asyncssh.constants.MSG_IGNORE or self._budget is None or self._budget.allow():
            return
        if not self._over_budget:       # one line in the log, whatever the client has still sent
            self._over_budget = True
            log.info("dropping %s@%s: too many requests", self._username or "?", self._ip)
        raise asyncssh.DisconnectError(asyncssh.DISC_BY_APPLICATION, "too many requests: this connection is closed")

    def _overflow(self, what: str) -> None:
        """Unparsed input or unsent output past its bound (Limits): drop the connection. Called
        from inside asyncssh's receiving or asyncio's writing, so the abort comes on the next turn."""
        if self._conn is None or self._over_budget:
            return
        self._over_budget = True
        log.info("dropping %s@%s: %s past its bound", self._username or "?", self._ip,
                 "unparsed input" if what == "input" else "unsent output")
        asyncio.get_running_loop().call_soon(self._conn.abort)

    def disconnect(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def abort(self) -> None:
        if self._conn is not None:
            self._conn.abort()

    def begin_auth(self, username: str) -> bool:
        # Pitfall 5: refusing here sends a disconnect reason the client shows; refusing in
        # connection_made would only show "Connection reset by peer".
        registry, limits = self._registry, self._registry.limits
        if registry.closing:
            raise asyncssh.DisconnectError(asyncssh.DISC_BY_APPLICATION, "server is shutting down")
        # Full means full of players: connections still logging in are bounded in admit().
        if registry.authenticated >= limits.max_connections:
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, "card room is full, try again later")
        if registry.per_ip[self.source] > limits.max_per_ip:
            raise asyncssh.DisconnectError(asyncssh.DISC_TOO_MANY_CONNECTIONS, "too many connections from your address")
        if not _clean_username(username):
            raise asyncssh.DisconnectError(asyncssh.DISC_ILLEGAL_USER_NAME, "invalid user name")
        # A name no key could ever log in with (reserved for the house, or too like another
        # player's) is refused here, with the reason: a key refused later only gets the client's
        # "Permission denied (publickey)", which reads as a problem with the key.
        reason = self._name_refused(username) if self._name_refused is not None else None
        if reason:
            raise asyncssh.DisconnectError(asyncssh.DISC_ILLEGAL_USER_NAME, reason)
        self._username = username
        return True  # False would mean "no auth required" (pitfall 4)

    def public_key_auth_supported(self) -> bool:
        return True

    def _count_attempt(self, what: str) -> None:
        # asyncssh has no max-auth-tries: at most MAX_AUTH_ATTEMPTS distinct keys/passwords.
        self._tried.add(what)
        if len(self._tried) > MAX_AUTH_ATTEMPTS:
            raise asyncssh.DisconnectError(asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                                           "too many authentication attempts")

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        self._count_attempt("key:" + key.get_fingerprint())
        try:
            result = self._authorize(username, key)
            if inspect.isawaitable(result):
                result = await result
        except KeyRefused as refused:
            self._refused(username, key, str(refused))
            return False
        except Exception:
            log.exception("authorize() failed for %r", username)
            return False
        if result:
            # Called for the query and again for the signed request; the last accepted key
            # before auth_completed() is the one that signed.
            self._candidate_fingerprint = key.get_fingerprint()
        return bool(result)

    def _refused(self, username: str, key: asyncssh.SSHKey, why: str) -> None:
        if self._conn is None or key.get_fingerprint() in self._told:
            return
        self._told.add(key.get_fingerprint())
        log.info("refused key %s for %r from %s: %s", key.get_fingerprint(), username, self._ip, why)
        if len(self._told) == 1:
            self._conn.send_auth_banner(why.rstrip() + "\r\n")

    def auth_completed(self) -> None:
        self._authenticated = True
        self._fingerprint = self._candidate_fingerprint
        self._registry.logged_in_or_gone(self)
        self._registry.authenticated += 1

    def password_auth_supported(self) -> bool:
        return self._guest is not None   # guest/demo mode only (a config switch)

    def validate_password(self, username: str, password: str) -> bool:
        self._count_attempt("password:" + str(len(self._tried)))
        try:
            return bool(self._guest and self._guest(username))
        except Exception:
            log.exception("guest() failed for %r", username)
            return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def session_requested(self) -> asyncssh.SSHServerSession | bool:
        if self._has_session or self._registry.closing:
            return False  # one session per connection
        self._has_session = True
        if self._extras is not None:
            return self._extras.session(self._username, self._fingerprint, self._app_session)
        return self._app_session()

    def _app_session(self) -> AppSession:
        self.ran_app = True
        session = AppSession(
            self._app_factory,
            username=self._username,
            peer_address=self._ip,
            key_fingerprint=self._fingerprint,
            limits=self._registry.limits,
            on_closed=self._registry.session_closed,
            hosting=self._registry.hosting,
        )
        self._registry.sessions.add(session)
        self._registry.gc.session_opened()
        return session

    # No port forwarding of any kind.
    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> bool:
        return False

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        return False

    def unix_server_requested(self, listen_path: str) -> bool:
        return False

    def tun_requested(self, unit: int | None) -> bool:
        return False

    def tap_requested(self, unit: int | None) -> bool:
        return False


class CardroomSSHServer:
    """A running listener. `await close()` shuts down gracefully (pitfall 8)."""

    def __init__(self, acceptor: asyncssh.SSHAcceptor, registry: _Registry, fingerprint: str) -> None:
        self._acceptor = acceptor
        self._registry = registry
        self.fingerprint = fingerprint

    @property
    def port(self) -> int:
        return self._acceptor.get_port()

    @property
    def sessions(self) -> frozenset[AppSession]:
        return frozenset(self._registry.sessions)

    @property
    def hosting(self) -> ServerHosting:
        """What the sessions' apps share: the repaint pacer and the shared railbird drawings."""
        return self._registry.hosting

    @property
    def connection_count(self) -> int:
        return len(self._registry.connections)

    def collect_garbage(self) -> int:
        """A full collection now, frozen objects included (see gcpolicy); returns objects freed."""
        return self._registry.gc.collect_now()

    async def close(self, timeout: float | None = None, farewell: str = FAREWELL) -> None:
        """Exit every app first (each restores its client's terminal and writes `farewell`),
        let the clients close their connections, then close the rest."""
        registry = self._registry
        timeout = registry.limits.shutdown_timeout if timeout is None else timeout
        registry.closing = True
        self._acceptor.close()  # stops listening only; live connections stay open
        tasks = [s.task for s in list(registry.sessions) if s.task is not None and not s.task.done()]
        players = [c for c in registry.connections if c.ran_app]
        for session in list(registry.sessions):
            session.farewell(farewell)
        if tasks:
            await asyncio.wait(tasks, timeout=timeout)
        loop = asyncio.get_running_loop()
        # Each finished app sent exit-status and closed its channel, and its client closes the
        # connection in turn (OpenSSH then exits 0). Disconnecting at once raced that: a client
        # that had not read its channel's close yet printed a bare "Disconnected by application"
        # and exited 255 (issue 35). So the players' clients get a moment to close first.
        # Polled: a connection leaves the registry from asyncssh's own callbacks, which set no event.
        deadline = loop.time() + CLIENTS_CLOSE_SECONDS
        while any(c in registry.connections for c in players) and loop.time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        # Then end the rest (including ones that never opened a session) and give the goodbyes
        # time to leave.
        for server in list(registry.connections):
            server.disconnect()
        deadline = loop.time() + 1.0
        while registry.connections and loop.time() < deadline:  # noqa: ASYNC110
            await asyncio.sleep(0.02)
        for server in list(registry.connections):
            server.abort()
        await self._acceptor.wait_closed()
        registry.gc.close()     # the sessions are gone: give their objects back to the collector


async def start_server(
    host: str,
    port: int,
    host_key_path: str | os.PathLike[str],
    app_factory: AppFactory,
    *,
    limits: Limits | None = None,
    authorize: Authorize,
    guest: Callable[[str], bool] | None = None,
    name_refused: Callable[[str], str | None] | None = None,
    extras: Extras | None = None,
    textual_speedups: bool = True,
    shared_screens: bool = True,
    reuse_port: bool = False,
) -> CardroomSSHServer:
    """Listen on host:port; each PTY session runs `app_factory(SessionInfo)` over SSH; `extras`
    opens the read-only hand histories and admins' exec commands (ssh/extras.py). Textual's fixes
    for serving many apps in one process are installed, and its speedups unless switched off.
    The sessions' apps are hosted by one ServerHosting (ssh/hosting.py): paced repaints, and with
    `shared_screens` railbirds who would see the same screen share one drawing."""
    textual_adapter.install(textual_adapter.server_guards(textual_speedups))
    textual_adapter.check_asyncssh(asyncssh.SSHServerConnection, asyncssh.SSHServerChannel)
    install_log_budget()
    limits = limits or Limits()
    fingerprint = ensure_host_key(host_key_path)
    registry = _Registry(limits, ServerHosting(shared_screens=shared_screens))
    acceptor = await asyncssh.create_server(
        lambda: _CardroomServer(registry, app_factory, authorize, guest, name_refused, extras),
        host,
        port,
        server_host_keys=[os.fspath(host_key_path)],
        # Gateways of one room on one machine share the port (SO_REUSEPORT): the kernel spreads
        # the connections over them.
        reuse_port=reuse_port or None,
        # Pitfall 4: asyncssh's defaults suit a shell, not a TUI.
        line_editor=False,
        encoding="utf-8",
        errors="replace",  # 'strict' would drop the connection on one bad UTF-8 byte
        agent_forwarding=False,
        x11_forwarding=False,
        allow_scp=False,
        password_auth=guest is not None,
        kbdint_auth=False,
        keepalive_interval=limits.keepalive_interval,
        keepalive_count_max=limits.keepalive_count_max,
        login_timeout=limits.login_timeout,
        window=limits.channel_window,
        kex_algs=_kex_algs(),
        signature_algs=_signature_algs(),
        encryption_algs=list(ENCRYPTION_ALGS),
        mac_algs=list(MAC_ALGS),
        # Ignore ~/.ssh and /etc/ssh config: this server's behaviour is all in code.
        config=None,
    )
    return CardroomSSHServer(acceptor, registry, fingerprint)
