"""A Textual driver bound to an in-process transport (an SSH channel, or a fake in tests).

This module (with guards.py) is the only place that touches Textual internals; both are pinned to
textual==8.2.8 and guarded by tests/ssh. Textual's own drivers are unusable here: LinuxDriver
installs process-wide signal handlers, uses the server's tty and starts threads; the headless
driver writes nothing. Everything below runs on the one asyncio loop shared by all sessions.

Wiring: the App constructs its driver itself (`driver_class(app, debug=, mouse=, size=)`), so
`bind_app(app, transport)` sets `app.driver_class` and leaves the transport on the app where
`SessionDriver.__init__` picks it up. Never run such an app with headless=True or inline=True:
both silently replace driver_class.
"""

from __future__ import annotations

import asyncio
import contextvars
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol

from rich.color import Color, ColorSystem
from rich.control import Control
from textual import constants, events
from textual._xterm_parser import XTermParser
from textual.css.stylesheet import Stylesheet
from textual.driver import Driver
from textual.geometry import Size

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
    """Make `app` run over `transport`; call before `app.run_async()` (plain, not headless/inline).
    An app with a `paint_now` attribute gets the function that paints its screen at once."""
    app.driver_class = SessionDriver
    setattr(app, TRANSPORT_ATTR, transport)
    share_stylesheet(app)
    # The app made its own truecolor filter; the server's guards share one per theme
    # (guards._one_truecolor_filter_per_theme), which this puts in its place.
    app._refresh_truecolor_filter(app.ansi_theme)
    if hasattr(app, "paint_now"):
        app.paint_now = lambda: paint_now(app)
    return app


def paint_now(app: App[Any]) -> None:
    """Paint what changed on the app's screen now, as Textual would a few loop turns later.

    Why: a widget's refresh reaches the terminal through four turns of the loop (the widget's
    Idle, an Update message to the screen, the screen's Idle, its update timer), and on a busy
    server each turn waits behind every other session's ready work: at 1,000 sessions a player's
    own action took ~140 ms from the room to their screen. The table screen calls this right
    after the player's own action. Widgets waiting for a plain repaint (visible; no layout or
    style change pending, those keep Textual's path) are handed to the screen as its Update
    handler would, and the screen's update runs as its timer would."""
    screen = app.screen
    if not screen.is_current or app._batch_count:
        return
    visible = screen._compositor.visible_widgets
    dirty = screen._dirty_widgets
    for widget in screen.walk_children(with_self=False):
        if widget._repaint_required and widget in visible and not widget._layout_required \
                and not widget._refresh_styles_required:
            widget._repaint_required = False
            dirty.add(widget)
    if dirty:
        screen._on_timer_update()


def full_frame(app: App[Any]) -> str | None:
    """Everything the app's screen shows, as the bytes that draw it on a terminal (as `App._display`
    writes a frame), or None when the app cannot draw now. Used to bring a terminal that joins a
    shared drawing (ssh/mirror.py) to what the app's own terminal shows; the screen's pending
    updates are left pending."""
    if not app._running or app._closed or app._batch_count:
        return None
    return in_app_context(app, _full_frame, app)     # called from another session's task


def _full_frame(app: App[Any]) -> str | None:
    screen = app.screen
    if not screen.is_current or screen.outer_size != app.size:
        return None
    compositor = screen._compositor
    pending = set(compositor._dirty_regions)
    update = compositor.render_full_update()
    compositor._dirty_regions.update(pending)
    cursor = screen.outer_size.clamp_offset(app.cursor_position)
    return update.render_segments(app.console) + Control.move_to(*cursor).segment.text


def in_app_context(app: App[Any], func: Any, *args: Any) -> Any:
    """Run `func(*args)` with `app` as Textual's active app. Widgets find "their" app through a
    context variable, so code of one session that calls into another session's app (a shared
    drawing handed over, ssh/mirror.py) must set it, or `widget.app` is the caller's app."""
    with app._context():
        return func(*args)


# -- one CSS parse per process ----------------------------------------------------------------

# (css variables, Stylesheet._parse_rules arguments) -> parsed rules, for every app in the process.
_PARSED: dict[tuple, list[Any]] = {}
_PARSED_MAX = 512


class SharedStylesheet(Stylesheet):
    """A Stylesheet whose parsed rules are shared by every app in the process.

    Each Textual App parses its CSS (its files and every widget class's DEFAULT_CSS, as each
    class is first mounted) into its own Stylesheet, with a cache of its own: with hundreds of
    sessions that is the same text tokenised hundreds of times. Parsed RuleSets depend only on
    the text, where it came from, and the CSS variables (the theme), so they are cached here by
    all of those; an app that switches theme gets its own entries, never another's. The rule
    sets are only read after parsing (each app already shares them between its own nodes).
    Guarded by tests/ssh/test_driver.py (textual==8.2.8: `_parse_rules`, `_variables`).
    """

    def _parse_rules(self, css: str, read_from: Any, is_default_rules: bool = False,
                     tie_breaker: int = 0, scope: str = "") -> list[Any]:
        key = (self._variables_key(), css, read_from, is_default_rules, tie_breaker, scope)
        rules = _PARSED.get(key)
        if rules is None:
            rules = super()._parse_rules(css, read_from, is_default_rules, tie_breaker, scope)
            if any(rule.errors for rule in rules):
                return rules                    # errors are reported per app, never cached
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[key] = rules
        return rules

    def _variables_key(self) -> tuple:
        key = getattr(self, "_shared_vars_key", None)
        if key is None or key[0] is not self._variables:
            key = (self._variables, tuple(sorted(self._variables.items())))
            self._shared_vars_key = key
        return key[1]

    def reparse(self) -> None:
        # As Stylesheet.reparse (a fresh sheet, so an error leaves this one intact), but shared.
        sheet = SharedStylesheet(variables=self._variables)
        for read_from, (css, is_defaults, tie_breaker, scope) in self.source.items():
            sheet.add_source(css, read_from=read_from, is_default_css=is_defaults,
                             tie_breaker=tie_breaker, scope=scope)
        try:
            sheet.parse()
        except Exception:
            self._invalid_css.update(sheet._invalid_css)
            raise
        self._rules = sheet.rules
        self._rules_map = None
        self.source = sheet.source
        self._require_parse = False

    def copy(self) -> Stylesheet:
        sheet = SharedStylesheet(variables=self._variables.copy())
        sheet.source = self.source.copy()
        return sheet


def share_stylesheet(app: App[Any]) -> None:
    """Give a not yet running app a SharedStylesheet (same variables, no sources read yet)."""
    current = app.stylesheet
    if isinstance(current, SharedStylesheet) or current.source:
        return
    app.stylesheet = SharedStylesheet(variables=current._variables)


class SessionDriver(Driver):
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
        # debug=True would make the parser append every key to ./keys.log: never for a server.
        self._parser: XTermParser | None = XTermParser(False)
        self._esc_timer: asyncio.TimerHandle | None = None
        self._paste = _PasteGuard(DEFAULT_MAX_PASTE)
        # A railbird's membership of a shared drawing (ssh/mirror.py), if the server shares them.
        self._member = getattr(app, "mirror", None)
        if self._member is not None:
            self._member.attach(self)
        # Textual renders with app.console's colour system, but a Rich Style caches its SGR
        # string process-wide (`style._ansi`) for whichever system rendered it first, so two
        # sessions with different depths would poison each other. Render every app in
        # truecolor and downgrade per session in write() instead.
        app.console._color_system = ColorSystem.TRUECOLOR
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
        if member is not None:
            member.detach()

    def input_backlog(self) -> int:
        """Messages waiting in the app's queue; the session stops reading while it is high."""
        queue = getattr(self._app, "_message_queue", None)
        return queue.qsize() if queue is not None else 0

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
        if self._mouse:
            write(_MOUSE_ON)
        write(ENTER_SEQUENCE_TAIL)
        write(SYNC_QUERY)
        self.flush()
        width, height = self._size or (80, 24)
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
        """Called by App._shutdown. Free the parser (pitfall 2) but leave the channel alone:
        the session closes it after run_async() returns."""
        self._leave_mirror()
        self._input_enabled = False
        self._cancel_esc_timer()
        parser, self._parser = self._parser, None
        if parser is not None and not parser.is_eof:
            # XTermParser._parse_extended_key is lru_cached on `self`, so the process-wide
            # cache keeps every parser alive; its suspended generator holds the last Key
            # events, whose sender is the App. EOF ends the generator and frees them.
            try:
                _run_detached(lambda: list(parser.feed("")))
            except Exception:
                pass

    def open_url(self, url: str, new_tab: bool = True) -> None:
        """Would open a browser on the *server*: ignored."""

    def deliver_binary(self, *args: Any, **kwargs: Any) -> None:  # type: ignore[override]
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
        if self._parser is not None and self._parser._timeout_time is not None:
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
        self._size = (width, height)
        if self._member is not None:
            self._member.input()
        self._post_resize(width, height)

    def _post_resize(self, width: int, height: int) -> None:
        size = Size(width, height)
        self.send_message(events.Resize(size, size))

    def send_message(self, message: Message) -> None:
        # The base class goes through run_coroutine_threadsafe (it assumes an input thread);
        # we are on the app's loop already, so queue directly.
        self._app.post_message(message)


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
