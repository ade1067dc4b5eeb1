"""Every bound the SSH layer enforces, in one frozen dataclass (config.toml can build one)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limits:
    # Connections (pitfall 5: refused in begin_auth, so the client sees the reason): players
    # logged in, and connections from one source (an IPv4 address or an IPv6 /64).
    max_connections: int = 200
    max_per_ip: int = 10
    # Logins in progress (silent TCP connections never reach begin_auth): a source's further ones
    # are dropped as they connect; past the total, the oldest of the source with most is dropped.
    max_unauthenticated_per_ip: int = 8
    max_unauthenticated: int = 400
    # New connections from one source: `connect_burst` at once, then `connects_per_second` (DHEat:
    # each connection costs the server a key exchange, and ssh-audit wants fewer than 20 a second).
    # One past it is closed before the server says a word (no version line, no key exchange).
    connect_burst: int = 10
    connects_per_second: float = 2.0
    # What a connection asks of the server itself, besides its session's data and requests: user-
    # auth requests, global requests (keepalives, port forwarding), channel opens, X11 and agent
    # requests, ignore, debug and unknown messages, re-keying. asyncssh queues them without bound
    # (issue 34: one client's tcpip-forward requests grew the server 20 MiB/s). Logging in takes
    # about a dozen and a session one every few seconds (keepalives); past `message_burst` at once
    # and `messages_per_second` after, the connection is dropped.
    message_burst: int = 64
    messages_per_second: float = 4.0
    # Bytes received and not parsed yet (asyncssh keeps appending while it checks a login), and
    # output the client's socket has not taken (a client may grant a huge window and not read):
    # past either the connection is dropped. A slow reader's output is bounded first per session
    # (max_write_buffer) once his window is full; OpenSSH's window is 2 MiB.
    max_unparsed_input: int = 1024 * 1024
    max_unsent_output: int = 4 * 1024 * 1024
    # Timers (pitfall 4).
    login_timeout: float = 30.0
    keepalive_interval: float = 15.0
    keepalive_count_max: int = 3
    # Terminal sizes a client may claim.
    min_size: tuple[int, int] = (20, 10)
    max_size: tuple[int, int] = (500, 200)
    # Output (pitfall 7): a session whose unsent output passes this is disconnected.
    max_write_buffer: int = 1024 * 1024
    # Input. Parsing costs ~20 us a key and the app then handles its whole queue without
    # yielding (~0.3 ms a key), so a key flood must reach the app a few dozen keys at a time:
    # per loop turn we feed `input_slice`-char pieces until `input_events_per_turn` events or
    # `input_chars_per_turn` chars (paste text makes no events), and not at all while the
    # app has more than `max_app_backlog` messages queued. Past `max_pending_input` chars
    # waiting we stop reading the channel (SSH flow control pushes back on the client).
    input_slice: int = 64
    input_chars_per_turn: int = 4096
    input_events_per_turn: int = 32
    max_app_backlog: int = 32
    max_pending_input: int = 32 * 1024
    max_paste: int = 8 * 1024
    # SSH receive window per channel: what a paused channel may still buffer.
    channel_window: int = 256 * 1024
    # Env requests kept per channel (only a few colour hints are kept at all).
    max_env_value: int = 64
    # Graceful shutdown: how long apps get to restore their clients' terminals.
    shutdown_timeout: float = 5.0
