"""A Textual driver bound to an in-process transport (an SSH channel, or a fake in tests).

What it needs of Textual's internals it gets from cardroom/textual_adapter.py (pinned to
textual==8.2.8 and guarded by tests/ssh). Textual's own drivers are unusable here: LinuxDriver
installs process-wide signal handlers, uses the server's tty and starts threads; the headless
driver writes nothing. Everything below runs on the one asyncio loop shared by all sessions.

Wiring: the App constructs its driver itself (`driver_class(app, debug=, mouse=, size=)`), so
`bind_app(app, transport)` sets `app.driver_class` and leaves the transport on the app where
`SessionDriver.__init__` picks it up. Never run such an app with headless=True or inline=True:
both silently replace driver_class. An app hosted by the server (`app.hosting`, a SessionHosting
of ssh/hosting.py) has the driver attach to its hosting: a shared drawing goes through the driver.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from rich.color import Color, ColorSystem
from textual import constants, events
from textual.geometry import Size

from cardroom import textual_adapter as adapter
from cardroom.ssh.hosting import SessionHosting
from cardroom.ssh.terminal import ColorDepth

if TYPE_CHECKING:
    from textual.app import App
    from textual.message import Message

TRANSPORT_ATTR = "_cardroom_transport"

# A lone ESC is only released by parser.tick() once ESCAPE_DELAY has passed; fire just after.
ESC_TICK = constants.ESCAPE_DELAY + 0.01
DEFAULT_MAX_PASTE = 8 * 1024

PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"

# Entering: alt screen, hide cursor, mouse (press/any-motion/urxvt/SGR), focus events,
# bracketed paste, autowrap off. No kitty keyboard protocol (a push we would have to pop on
# every path out) and no cursor-blink sequences (pitfall 6: the terminal cursor stays hidden).
_MOUSE_ON = "\x1b[?1000h\x1b[?1003h\x1b[?1015h\x1b[?1006h"
_MOUSE_OFF = "\x1b[?1006l\x1b[?1015l\x1b[?1003l\x1b[?1000l"
ENTER_SEQUENCE_HEAD = "\x1b[?1049h\x1b[?25l"
ENTER_SEQUENCE_TAIL = "\x1b[?1004h\x1b[?2004h\x1b[?7l"
# Ask whether the terminal does synchronized output (2026); the answer arrives as input and the
# parser turns it into TerminalSupportsSynchronizedOutput, which makes repaints tear-free.
SYNC_QUERY = "\x1b[?2026$p"
# Leaving is the reverse; 1049l (leave the alt screen) must be the very last thing written.
EXIT_SEQUENCE = "\x1b[?2004l\x1b[?7h\x1b[?1004l" + _MOUSE_OFF + "\x1b[?25h\x1b[?1049l"


class Transport(Protocol):
    """What the driver needs from the thing carrying bytes to one terminal."""

    @property
    def size(self) -> tuple[int, int]: ...

    @property
    def color_depth(self) -> ColorDepth: ...

    def write(self, data: str) -> None:
        """Send text to the terminal; may raise if the peer vanished (the driver swallows it)."""

    def attach_driver(self, driver: SessionDriver) -> None:
        """Called once the App built its driver; the transport then feeds it input and resizes."""


def bind_app(app: App[Any], transport: Transport) -> App[Any]:
    """Make `app` run over `transport`; call before `app.run_async()` (plain, not headless/inline)."""
    app.driver_class = SessionDriver
    setattr(app, TRANSPORT_ATTR, transport)
    adapter.share_truecolor_filter(app)
    return app


class SessionDriver(adapter.HostedDriver):
    """Textual driver for one remote terminal, living on the event loop (no threads)."""

    def __init__(
        self,
        app: App[Any],
        *,
        debug: bool = False,
        mouse: bool = True,
        size: tuple[int, int] | None = None,
    ) -> None:
        transport: Transport | None = getattr(app, TRANSPORT_ATTR, None)
        if transport is None:
            raise RuntimeError("SessionDriver needs bind_app(app, transport) before run_async()")
        # The transport knows the (clamped) client size; an explicit size wins (tests).
        super().__init__(app, debug=False, mouse=mouse, size=size or transport.size)
        self._transport = transport
        self.color_depth = transport.color_depth
        self._closed = False
        self._out: list[str] = []           # written, not yet flushed (see write)
        self._loop = asyncio.get_running_loop()
        self._input_enabled = True
        self._parser: Any = adapter.new_parser()
        self._esc_timer: asyncio.TimerHandle | None = None
        self._paste = _PasteGuard(DEFAULT_MAX_PASTE)
        # A railbird's membership of a shared drawing (ssh/mirror.py), if the server shares them:
        # an app the server hosts (a plain Textual app has no hosting) joins through its hosting.
        hosting = getattr(app, "hosting", None)
        self._hosting = hosting if isinstance(hosting, SessionHosting) else None
        self._member = self._hosting.attach(self) if self._hosting is not None else None
        adapter.render_in_truecolor(app)     # and downgraded per session in to_terminal()
        if self.color_depth is ColorDepth.NONE:
            app.no_color = True  # lets the TUI style `:nocolor` (reverse video instead of colour)
        transport.attach_driver(self)

    # -- state ------------------------------------------------------------------------------
    @property
    def is_closed(self) -> bool:
        return self._closed

    def mark_closed(self) -> None:
        """The peer vanished: from now on writes are swallowed and input ignored."""
        self._closed = True
        self._out.clear()
        self._cancel_esc_timer()
        self._leave_mirror()

    def _leave_mirror(self) -> None:
        member, self._member = self._member, None
        if member is not None and self._hosting is not None:
            self._hosting.detach()

    def input_backlog(self) -> int:
        """Messages waiting in the app's queue; the session stops reading while it is high."""
        return adapter.message_backlog(self.app)

    def set_max_paste(self, limit: int) -> None:
        self._paste = _PasteGuard(limit)

    # -- output -----------------------------------------------------------------------------
    def write(self, data: str) -> None:
        # Held until flush(): Textual writes a frame as three pieces (begin synchronised output,
        # the frame, end) and flushes after it; sent apart they were three SSH packets, three
        # encryptions and three socket writes. A write outside a frame (a bell, a cursor shape)
        # goes out at the end of this loop turn.
        if self._closed or not data:
            return
        out = self._out
        if not out:
            self._loop.call_soon(self.flush)
        out.append(data)

    def flush(self) -> None:
        """Send what was written since the last flush, as one piece."""
        out = self._out
        if not out:
            return
        data = out[0] if len(out) == 1 else "".join(out)
        out.clear()
        if self._closed:
            return
        member = self._member
        if member is not None and not member.own_write(data):
            return          # another app's drawing of this screen is on this terminal
        self.to_terminal(data)

    def to_terminal(self, data: str, converted: dict | None = None) -> None:
        """To this terminal: this app's output, or the leader's of a shared drawing (`converted`:
        the same text already downgraded per colour depth, shared by the group's terminals)."""
        if self._closed:
            return
        depth = self.color_depth
        if depth is not ColorDepth.TRUECOLOR:
            if converted is None:
                data = downgrade_sgr(data, depth)
            else:
                out = converted.get(depth)
                if out is None:
                    out = converted[depth] = downgrade_sgr(data, depth)
                data = out
        try:
            self._transport.write(data)
        except Exception:
            # BrokenPipeError & co. inside the app's render would kill it with a traceback.
            self.mark_closed()

    def start_application_mode(self) -> None:
        write = self.write
        write(ENTER_SEQUENCE_HEAD)
        if self.mouse:
            write(_MOUSE_ON)
        write(ENTER_SEQUENCE_TAIL)
        write(SYNC_QUERY)
        self.flush()
        width, height = self.size or (80, 24)
        self._post_resize(width, height)

    def disable_input(self) -> None:
        # The app is stopping: what it writes from now on (the exit sequence) is its own.
        self._leave_mirror()
        self._input_enabled = False
        self._cancel_esc_timer()

    def stop_application_mode(self) -> None:
        self.disable_input()
        self.write(EXIT_SEQUENCE)
        self.flush()

    def close(self) -> None:
        """Called as the app shuts down. Free the parser (pitfall 2) but leave the channel alone:
        the session closes it after run_async() returns."""
        self._leave_mirror()
        self._input_enabled = False
        self._cancel_esc_timer()
        parser, self._parser = self._parser, None
        if parser is not None:
            try:
                adapter.end_parser(parser)
            except Exception:
                pass

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Would open a browser on the *server*: ignored."""

    def deliver_binary(self, *args: Any, **kwargs: Any) -> None:
        """Would write a file on the *server*: ignored."""

    # -- input ------------------------------------------------------------------------------
    def feed(self, text: str) -> int:
        """Parse decoded client input, post the resulting events; returns how many."""
        if self._closed or not self._input_enabled or self._parser is None or not text:
            return 0
        text = self._paste.filter(text)
        return _run_detached(self._feed_now, text) if text else 0

    def _feed_now(self, text: str) -> int:
        parser = self._parser
        assert parser is not None
        posted = 0
        for message in parser.feed(text):
            if self._member is not None and isinstance(message, _OWN_INPUT):
                self._member.input()    # before the app acts on it: its screen is its own again
            self.process_message(message)
            posted += 1
        self._arm_esc_timer()
        return posted

    def _arm_esc_timer(self) -> None:
        self._cancel_esc_timer()
        if self._parser is not None and adapter.escape_pending(self._parser):
            self._esc_timer = self._loop.call_later(ESC_TICK, self._on_esc_timer)

    def _cancel_esc_timer(self) -> None:
        if self._esc_timer is not None:
            self._esc_timer.cancel()
            self._esc_timer = None

    def _on_esc_timer(self) -> None:
        self._esc_timer = None
        if self._closed or not self._input_enabled or self._parser is None:
            return
        _run_detached(self._tick_now)

    def _tick_now(self) -> None:
        assert self._parser is not None
        for message in self._parser.tick():
            self.process_message(message)
        self._arm_esc_timer()  # re-arm if the loop clock fired a hair early

    def resize(self, width: int, height: int) -> None:
        """The client's window changed (size already clamped by the transport)."""
        if self._closed:
            return
        self.size = (width, height)
        if self._member is not None:
            self._member.input()
        self._post_resize(width, height)

    def _post_resize(self, width: int, height: int) -> None:
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        # The base class goes through run_coroutine_threadsafe (it assumes an input thread);
        # we are on the app's loop already, so queue directly.
        self.app.post_message(message)


# Input that can change what a session's own screen shows (mouse motion only moves a hover, and
# the terminal's focus reports change nothing drawn): it leaves a shared drawing.
_OWN_INPUT = (events.Key, events.Paste, events.MouseDown, events.MouseUp, events.MouseScrollDown,
              events.MouseScrollUp, events.MouseScrollLeft, events.MouseScrollRight)


def _run_detached(func: Any, *args: Any) -> Any:
    """Run `func` in an empty context.

    Textual stamps each new Message with the current `active_message_pump` as its sender. The
    parser's cached Key lists would then pin whichever App happened to be current (e.g. when
    buffered input is flushed from inside the app's task), so parse outside any app context.
    """
    return contextvars.Context().run(func, *args)


class _PasteGuard:
    """Bounds a bracketed paste: the parser buffers a paste char by char until its end marker.

    Past `limit` characters we end the paste ourselves (the app gets a truncated Paste) and drop
    input up to the client's own end marker. Markers split across reads are found through a
    5-character tail of what came before.
    """

    __slots__ = ("limit", "_tail", "_in_paste", "_count", "_discarding")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._tail = ""
        self._in_paste = False
        self._count = 0
        self._discarding = False

    @staticmethod
    def _find(buf: str, marker: str, pos: int) -> int:
        return buf.find(marker, max(pos - len(marker) + 1, 0))

    def filter(self, text: str) -> str:
        buf = self._tail + text
        pos = len(self._tail)
        out: list[str] = []
        while pos < len(buf):
            if self._discarding:
                end = self._find(buf, PASTE_END, pos)
                if end < 0:
                    pos = len(buf)
                    break
                pos = end + len(PASTE_END)
                self._discarding = False
            elif self._in_paste:
                end = self._find(buf, PASTE_END, pos)
                allowed = self.limit - self._count
                if end >= 0 and end - pos <= allowed:
                    stop = end + len(PASTE_END)
                    out.append(buf[pos:stop])
                    self._count += end - pos
                    self._in_paste = False
                    pos = stop
                elif end < 0 and len(buf) - pos <= allowed:
                    out.append(buf[pos:])
                    self._count += len(buf) - pos
                    pos = len(buf)
                else:
                    out.append(buf[pos : pos + allowed] + PASTE_END)
                    self._in_paste = False
                    self._discarding = True
                    pos += allowed
            else:
                start = self._find(buf, PASTE_START, pos)
                if start < 0:
                    out.append(buf[pos:])
                    pos = len(buf)
                else:
                    stop = start + len(PASTE_START)
                    out.append(buf[pos:stop])
                    self._in_paste = True
                    self._count = 0
                    pos = stop
        self._tail = buf[-(len(PASTE_START) - 1) :]
        return "".join(out)


# -- colour downgrade ---------------------------------------------------------------------------

_SGR = re.compile(r"\x1b\[([0-9;]*)m")
_SYSTEMS = {ColorDepth.STANDARD: ColorSystem.STANDARD, ColorDepth.EIGHT_BIT: ColorSystem.EIGHT_BIT}


def _is_color_param(value: int) -> bool:
    return 30 <= value <= 39 or 40 <= value <= 49 or 90 <= value <= 97 or 100 <= value <= 107


@lru_cache(maxsize=4096)
def _downgrade_params(params: str, depth: ColorDepth) -> str:
    """Rewrite one SGR parameter list for `depth`; '' means drop the whole sequence."""
    if not params:
        return "\x1b[m"
    parts = params.split(";")
    out: list[str] = []
    system = _SYSTEMS.get(depth)
    i = 0
    while i < len(parts):
        part = parts[i]
        if part in ("38", "48") and i + 1 < len(parts):
            color: Color | None = None
            try:
                if parts[i + 1] == "2" and i + 4 < len(parts):
                    color = Color.from_rgb(*(min(int(p or 0), 255) for p in parts[i + 2 : i + 5]))
                    i += 5
                elif parts[i + 1] == "5" and i + 2 < len(parts):
                    color = Color.from_ansi(min(int(parts[i + 2] or 0), 255))
                    i += 3
            except ValueError:
                color = None
            if color is None:
                out.append(part)
                i += 1
                continue
            if system is not None:
                out.extend(color.downgrade(system).get_ansi_codes(part == "38"))
            continue
        if system is None and part.isdigit() and _is_color_param(int(part)):
            i += 1
            continue
        out.append(part)
        i += 1
    return f"\x1b[{';'.join(out)}m" if out else ""


def downgrade_sgr(data: str, depth: ColorDepth) -> str:
    """Rewrite the SGR colour codes in `data` for a terminal of `depth` (attributes kept)."""
    if depth is ColorDepth.TRUECOLOR or "\x1b[" not in data:
        return data
    return _SGR.sub(lambda m: _downgrade_params(m.group(1), depth), data)
