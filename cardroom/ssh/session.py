"""One SSH session channel = one Textual app. asyncssh callbacks map 1:1 onto the driver.

The session is the driver's Transport (size, color_depth, write, attach_driver). It owns every
bound on what a client can push at us: PTY values, env hints, input rate and output backlog.
With the server's hosting (ssh/hosting.py) it gives its app a SessionHosting (SessionInfo.hosting)
and tells it when the app has ended.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
from collections import deque
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import asyncssh

from cardroom.ssh.driver import SessionDriver, bind_app
from cardroom.ssh.hosting import ServerHosting, SessionHosting
from cardroom.ssh.limits import Limits
from cardroom.ssh.terminal import (
    ColorDepth, SessionInfo, clamp_size, detect_color_depth, locale_is_utf8, sanitize_term,
)
from cardroom.textual_adapter import bound_env_requests, run_first

if TYPE_CHECKING:
    from textual.app import App

log = logging.getLogger("cardroom.ssh")

# The factory may be a coroutine function: the server's logs the player in through the store's
# writer first (a busy database then holds up this login only). A SessionRefused it raises is
# the player's message.
AppFactory = Callable[[SessionInfo], "App[Any] | Awaitable[App[Any]]"]

HELP_LINE = "cardroom is a full-screen terminal program: connect with `ssh -t` from a terminal.\r\n"
MAX_GOODBYE = 300   # characters of the reason a session is ended with

# The only env requests we keep: colour hints (pitfall 3) and the locale (a terminal that is not
# UTF-8 gets ASCII). Everything else is refused unstored, so an env flood costs nothing.
_ENV_KEPT = frozenset({"COLORTERM", "NO_COLOR", "LANG", "LC_ALL", "LC_CTYPE"})


class SessionRefused(Exception):
    """Raised by an app factory: no app for this session, and the message says why (the session
    ends with it, as SessionInfo.end does)."""


class AppSession(asyncssh.SSHServerSession):
    """Runs the app built by `app_factory` for one PTY shell request."""

    def __init__(
        self,
        app_factory: AppFactory,
        *,
        username: str,
        peer_address: str,
        key_fingerprint: str | None,
        limits: Limits,
        on_closed: Callable[[AppSession], None] | None = None,
        hosting: ServerHosting | None = None,
    ) -> None:
        self._app_factory = app_factory
        self._server_hosting = hosting
        self._username = username
        self._peer_address = peer_address
        self._fingerprint = key_fingerprint
        self._limits = limits
        self._on_closed = on_closed
        self._chan: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._pty = False
        self._term = "unknown"
        self._size = clamp_size(0, 0, minimum=limits.min_size, maximum=limits.max_size)
        self._depth = ColorDepth.STANDARD
        self._env: dict[str, str] = {}
        self.app: App[Any] | None = None
        self.task: asyncio.Task[None] | None = None
        self._driver: SessionDriver | None = None
        self._closed = False
        self._pending: deque[str] = deque()
        self._pending_len = 0
        self._reading_paused = False
        self._pump_handle: asyncio.Handle | None = None
        self._resize_handle: asyncio.Handle | None = None
        self._hosting: SessionHosting | None = None     # this session's app's, once it starts
        self._goodbye: str | None = None    # why the session is being ended (see end())
        self._farewell: str | None = None   # the server's last words when it closes (see farewell())
        self._connection: Any = None        # the one to hang up, once ending

    # -- Transport protocol (used by SessionDriver) -------------------------------------------
    @property
    def size(self) -> tuple[int, int]:
        return self._size

    @property
    def color_depth(self) -> ColorDepth:
        return self._depth

    def write(self, data: str) -> None:
        chan = self._chan
        if self._closed or chan is None:
            return
        chan.write(data)  # raises BrokenPipeError once closing; the driver swallows it
        # Pitfall 7: asyncssh buffers without limit. A client that stops reading (or a link too
        # slow for the screen) is cut off rather than allowed to grow server memory.
        if chan.get_write_buffer_size() > self._limits.max_write_buffer:
            log.info("dropping %s@%s: output not being read", self._username, self._peer_address)
            self._drop()

    def attach_driver(self, driver: SessionDriver) -> None:
        # The driver read self.size while being built, so its size is already in sync with
        # any window-change that arrived before it existed; buffered keys follow on next turn.
        self._driver = driver
        driver.set_max_paste(self._limits.max_paste)
        self._schedule_pump()

    # -- asyncssh callbacks ---------------------------------------------------------------------
    def connection_made(self, chan: Any) -> None:
        self._chan = chan
        self._loop = asyncio.get_running_loop()
        bound_env_requests(chan, self._env_request)   # asyncssh would keep every one

    def _env_request(self, packet: Any) -> bool:
        key = packet.get_string()
        value = packet.get_string()
        packet.check_end()
        try:
            name = key.decode("ascii")
            text = value.decode("ascii")
        except UnicodeDecodeError:
            return False
        if name not in _ENV_KEPT or len(text) > self._limits.max_env_value:
            return False
        self._env[name] = text
        return True

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        if self._pty:
            return False
        self._pty = True
        self._term = sanitize_term(term_type)
        width, height = term_size[0], term_size[1]
        self._size = clamp_size(width, height, minimum=self._limits.min_size, maximum=self._limits.max_size)
        return True

    def shell_requested(self) -> bool:
        return True

    def exec_requested(self, command: str) -> bool:
        return False  # no exec, hence no scp either

    def subsystem_requested(self, subsystem: str) -> bool:
        return False  # no sftp

    def session_started(self) -> None:
        chan = self._chan
        if not self._pty:
            chan.write(HELP_LINE)
            chan.exit(1)
            return
        self._depth = detect_color_depth(self._term, self._env)
        if self._server_hosting is not None:
            self._hosting = self._server_hosting.session()
        info = SessionInfo(
            username=self._username,
            term=self._term,
            color_depth=self._depth,
            size=self._size,
            peer_address=self._peer_address,
            key_fingerprint=self._fingerprint,
            end=self.end,
            utf8=locale_is_utf8(self._env),
            hosting=self._hosting,
        )
        self.task = asyncio.get_running_loop().create_task(self._run_app(info), name=f"app:{self._username}")

    def _refuse(self, text: str) -> None:
        """No app for this session: the player reads why, and the channel closes."""
        if not self._closed and self._chan is not None:
            self._chan.write(f"cardroom: {text}\r\n")
            self._chan.exit(1)

    async def _run_app(self, info: SessionInfo) -> None:
        try:
            await self._build_and_run(info)
        finally:
            # However it ended (refused, crashed, exited): what the factory asked of the end runs
            # now (the session's room client closes: its seats are marked disconnected).
            if self._hosting is not None:
                self._hosting.ended()

    async def _build_and_run(self, info: SessionInfo) -> None:
        try:
            app = self._app_factory(info)
            if inspect.isawaitable(app):
                app = await app
        except SessionRefused as e:
            self.end(str(e))
            self._say_goodbye()
            return
        except Exception:
            log.exception("app factory failed for %s@%s", self._username, self._peer_address)
            self._refuse("internal error, sorry.")
            return
        self.app = bind_app(app, self)
        if self._closed or self._goodbye is not None or self._farewell is not None:
            # Gone, ended or the server closing while logging in: the app starts and ends (its
            # cleanup runs).
            self.request_exit()
        status = 0
        try:
            await app.run_async()
            status = app.return_code or 0
        except Exception:
            log.exception("app crashed for %s@%s", self._username, self._peer_address)
            status = 1
        finally:
            self.app = None
            self._driver = None
            self._pending.clear()
            self._pending_len = 0
            chan = self._chan
            if self._goodbye is not None:
                self._say_goodbye()
            elif not self._closed and chan is not None:
                try:
                    if self._farewell is not None:
                        chan.write(f"\r\n{self._farewell}\r\n")
                    chan.exit(status)  # sends exit-status and closes the channel
                except Exception:
                    pass

    def data_received(self, data: str, datatype: Any) -> None:
        if self._closed or not self._pty or datatype is not None or not data:
            return
        # Hard cap (flow control below normally keeps us far under it): drop the excess.
        room = 2 * self._limits.max_pending_input - self._pending_len
        if room <= 0:
            return
        if len(data) > room:
            data = data[:room]
        self._pending.append(data)
        self._pending_len += len(data)
        if self._pending_len >= self._limits.max_pending_input and not self._reading_paused:
            # Stop reading: asyncssh stops opening the SSH window, so the client waits.
            self._reading_paused = True
            self._chan.pause_reading()
        if self._pump_handle is None and self._pending_len == len(data):
            # Nothing was waiting: feed it now, in the loop turn it arrived. Through the pump a key
            # reached the app a turn later, and on a busy server every turn waits behind all the
            # other sessions' ready work. The pump's bounds hold all the same (one helping now,
            # the rest a turn at a time). What feeding it scheduled (the app's task waking for
            # the key) runs next, not behind the loop's queue.
            run_first(self._loop, self._pump)
        else:
            self._schedule_pump()

    def _schedule_pump(self, delay: float = 0.0) -> None:
        if self._pump_handle is not None or self._loop is None or self._closed:
            return
        if delay:
            self._pump_handle = self._loop.call_later(delay, self._pump)
        else:
            self._pump_handle = self._loop.call_soon(self._pump)

    def _pump(self) -> None:
        """Feed one bounded helping of pending input, so a flood or paste never stalls the loop."""
        self._pump_handle = None
        driver = self._driver
        if self._closed or driver is None or driver.is_closed or not self._pending:
            return
        if driver.input_backlog() > self._limits.max_app_backlog:
            self._schedule_pump(0.02)  # the app is behind: let it catch up first
            return
        limits = self._limits
        chars, events = 0, 0
        while self._pending and chars < limits.input_chars_per_turn and events < limits.input_events_per_turn:
            piece = self._take(limits.input_slice)
            chars += len(piece)
            events += driver.feed(piece)
            if driver.is_closed:
                return
        if self._pending:
            self._schedule_pump()
        if self._reading_paused and self._pending_len <= self._limits.max_pending_input // 2:
            self._reading_paused = False
            if self._chan is not None:
                self._chan.resume_reading()

    def _take(self, budget: int) -> str:
        parts: list[str] = []
        while self._pending and budget > 0:
            head = self._pending[0]
            if len(head) <= budget:
                parts.append(self._pending.popleft())
                budget -= len(head)
            else:
                parts.append(head[:budget])
                self._pending[0] = head[budget:]
                budget = 0
        text = "".join(parts)
        self._pending_len -= len(text)
        return text

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self._size = clamp_size(width, height, minimum=self._limits.min_size, maximum=self._limits.max_size)
        # Coalesce window-change floods into one Resize per loop turn.
        if self._driver is not None and self._resize_handle is None and self._loop is not None:
            self._resize_handle = self._loop.call_soon(self._apply_resize)

    def _apply_resize(self) -> None:
        self._resize_handle = None
        if self._driver is not None and not self._closed:
            self._driver.resize(*self._size)

    def eof_received(self) -> bool:
        self.request_exit()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        if self._closed:
            return
        self._closed = True
        for handle in (self._pump_handle, self._resize_handle):
            if handle is not None:
                handle.cancel()
        self._pump_handle = self._resize_handle = None
        self._pending.clear()
        self._pending_len = 0
        if self._driver is not None:
            self._driver.mark_closed()
        self.request_exit()
        self._chan = None
        if self._goodbye is not None:
            self._hang_up()          # the client has seen the goodbye and closed the channel
        self._connection = None
        if self._on_closed is not None:
            self._on_closed(self)

    # -- control --------------------------------------------------------------------------------
    def end(self, reason: str) -> None:
        """End the session saying why (taken over, kicked, banned): the app exits and gives the
        terminal back, the reason is written on the terminal (where it stays above the client's
        "Connection to ... closed."), the channel closes, then the connection, with the reason
        as the disconnect reason. A client that does not close its side in time is cut off."""
        if self._closed or self._goodbye is not None:
            return
        self._goodbye = "".join(ch for ch in reason if ch.isprintable())[:MAX_GOODBYE] or "session ended"
        self._connection = self._chan.get_connection() if self._chan is not None else None
        if self._loop is not None:
            self._loop.call_later(self._limits.shutdown_timeout, self._hang_up)
        if self.app is not None:
            self.request_exit()      # _run_app says goodbye once the app has exited
        elif self.task is None or self.task.done():
            self._say_goodbye()
        # else the player is still logging in: _run_app says goodbye when the factory returns

    def _say_goodbye(self) -> None:
        chan = self._chan
        if self._closed or chan is None:
            return
        # Closing the channel, not the connection, so that the client shows all it was sent
        # (asyncssh drops what it has not read yet when the connection goes); connection_lost
        # hangs up once the client has closed its side.
        with contextlib.suppress(BrokenPipeError):
            chan.write(f"\r\n{self._goodbye}\r\n")
            chan.exit(1)

    def _hang_up(self) -> None:
        conn = self._connection
        if conn is not None and not conn.is_closed():
            conn.disconnect(asyncssh.DISC_BY_APPLICATION, self._goodbye or "session ended")

    def farewell(self, text: str) -> None:
        """The server is closing: the app exits (the terminal is given back), `text` is written,
        and the channel closes with the app's status, as when the player quits. The client then
        closes the connection itself (OpenSSH says "Connection to HOST closed." and exits 0);
        the server waits for that before it disconnects anyone (CardroomSSHServer.close)."""
        if self._goodbye is None:
            self._farewell = "".join(ch for ch in text if ch.isprintable())[:MAX_GOODBYE]
        self.request_exit()

    def request_exit(self) -> None:
        """Ask the app to exit (works while it is still starting); it restores the terminal."""
        app = self.app
        if app is not None:
            app.exit()

    def _drop(self) -> None:
        chan = self._chan
        if self._driver is not None:
            self._driver.mark_closed()
        self.request_exit()
        if chan is not None:
            # abort() frees the buffered output at once; close() would try to flush it first.
            chan.get_connection().abort()
