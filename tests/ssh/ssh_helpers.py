"""Helpers for the SSH bridge tests: a tiny Textual app and a fake transport.

The real card-room TUI does not exist yet; StandInApp is only here to have something to drive.
"""

from __future__ import annotations

import asyncio
import os
import re
import time
from typing import Any

from textual.app import App, ComposeResult
from textual.widgets import Input, Static

from cardroom.ssh.driver import SessionDriver, bind_app
from cardroom.ssh.terminal import ColorDepth
from tests.rooms import wait_for  # noqa: F401 (the shared condition wait; ssh tests import it from here)


class StandInApp(App[None]):
    """Shows a counter, the last key and its size; 'f' fills the screen, 'q' quits."""

    CSS = """
    #status { color: rgb(10,200,30); background: rgb(200,10,30); height: 1; }
    #fill { height: 1fr; }
    """

    def __init__(self, info: Any = None) -> None:
        super().__init__()
        self.info = info
        self.count = 0
        self.keys: list[str] = []
        self.pastes: list[str] = []
        self.fills = 0

    def compose(self) -> ComposeResult:
        yield Static(self._status(), id="status", markup=False)
        yield Static("", id="fill", markup=False)

    def _status(self) -> str:
        last = self.keys[-1] if self.keys else "-"
        return f"count={self.count} last={last} size={self.size.width}x{self.size.height}"

    def _update(self) -> None:
        self.query_one("#status", Static).update(self._status())

    def on_key(self, event: Any) -> None:
        self.keys.append(event.key)
        self.count += 1
        if event.key == "q":
            self.exit()
            return
        if event.key == "f":
            self.fills += 1
            width, height = self.size
            row = "".join(chr(33 + (self.fills * 7 + i) % 90) for i in range(width))
            self.query_one("#fill", Static).update("\n".join(row[i:] + row[:i] for i in range(height - 2)))
        self._update()

    def on_paste(self, event: Any) -> None:
        self.pastes.append(event.text)

    def on_resize(self, event: Any) -> None:
        self.call_after_refresh(self._update)  # app.size settles after the Resize handler


class InputApp(App[None]):
    """A focused Input: the widget whose cursor would blink."""

    def compose(self) -> ComposeResult:
        yield Input(id="inp")

    def on_mount(self) -> None:
        self.query_one(Input).focus()


def app_of(served: Any, name: str) -> Any:
    """The server's app for `name`'s session (None before it has one)."""
    return next((s.app for s in served.server.sessions if s.app is not None and s.app.client.name == name), None)


async def wait_focused(served: Any, name: str, ready: Any, what: str, timeout: float = 10.0) -> None:
    """Wait until `name`'s app on the server has the focus on a widget `ready(widget)` accepts:
    the screen or dialog is up and takes keys (what a fixed sleep before typing used to guess)."""
    def focused() -> bool:
        app = app_of(served, name)
        return app is not None and app.focused is not None and bool(ready(app.focused))
    await wait_for(focused, timeout, what=f"{name}: {what}", interval=0.02)


def amount_box(widget: Any) -> bool:
    """The buy-in (amount) dialog's box, tui/dialogs/amount.py."""
    return widget.id == "amount"


class FakeTransport:
    def __init__(self, size: tuple[int, int] = (80, 24), depth: ColorDepth = ColorDepth.TRUECOLOR) -> None:
        self.size = size
        self.color_depth = depth
        self.chunks: list[str] = []
        self.driver: SessionDriver | None = None
        self.broken = False

    def write(self, data: str) -> None:
        if self.broken:
            raise BrokenPipeError("peer vanished")
        self.chunks.append(data)

    def attach_driver(self, driver: SessionDriver) -> None:
        self.driver = driver

    @property
    def output(self) -> str:
        return "".join(self.chunks)


class Running:
    """An app running over a FakeTransport in its own task."""

    def __init__(self, app: App[Any], transport: FakeTransport) -> None:
        self.app = app
        self.transport = transport
        bind_app(app, transport)
        self.task = asyncio.get_running_loop().create_task(app.run_async())

    async def ready(self) -> None:
        await wait_for(lambda: self.transport.driver is not None and self.app.is_running and "count=0" in self.transport.output)

    @property
    def driver(self) -> SessionDriver:
        assert self.transport.driver is not None
        return self.transport.driver

    async def stop(self) -> None:
        self.app.exit()
        await asyncio.wait_for(self.task, 5)


# CSI, OSC, charset and keypad sequences: what a terminal consumes without printing.
_ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Za-z]|[=>78])")


class Screen:
    """Reads an asyncssh PTY process's output in the background; `text` is the raw output, `plain`
    the same with escape sequences removed (styled runs split words otherwise)."""

    def __init__(self, process: Any, timeout: float = 10.0) -> None:
        self.process = process
        self.text = ""
        self.timeout = timeout            # wait_for's default
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        while True:
            data = await self.process.stdout.read(65536)
            if not data:
                return
            self.text += data

    @property
    def plain(self) -> str:
        return _ESCAPES.sub("", self.text)

    async def wait_for(self, needle: str, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (self.timeout if timeout is None else timeout)
        while needle not in self.plain:
            if time.monotonic() > deadline:
                raise AssertionError(f"{needle!r} not on screen; tail {self.text[-400:]!r}")
            await asyncio.sleep(0.02)

    def send(self, keys: str) -> None:
        self.process.stdin.write(keys)


class PtyProgram:
    """A terminal program (ssh, dbclient) run on a fresh PTY; `output` is all it has shown, `plain`
    the same as text without escape sequences."""

    def __init__(self, *args: str) -> None:
        self.args = args
        self.output = b""

    @property
    def plain(self) -> str:
        return _ESCAPES.sub("", self.output.decode(errors="replace"))

    async def start(self) -> PtyProgram:
        import pty

        self._master, slave = pty.openpty()
        self.proc = await asyncio.create_subprocess_exec(*self.args, stdin=slave, stdout=slave, stderr=slave)
        os.close(slave)
        os.set_blocking(self._master, False)
        return self

    async def wait_for(self, needle: str | None, timeout: float = 15.0) -> bool:
        """Read until `needle` is shown (True), or until the program ends or the timeout (False)."""
        deadline = time.monotonic() + timeout
        while needle is None or needle not in self.plain:
            if time.monotonic() > deadline:
                return False
            try:
                chunk = os.read(self._master, 65536)
            except BlockingIOError:
                await asyncio.sleep(0.02)
                continue
            except OSError:          # the program ended and closed its side
                return False
            if not chunk:
                return False
            self.output += chunk
        return True

    async def ended(self, timeout: float = 15.0) -> None:
        """Read what is left until the program ends (an AssertionError if it does not in time)."""
        await self.wait_for(None, timeout)
        await asyncio.wait_for(self.proc.wait(), 1)

    async def stop(self) -> None:
        if self.proc.returncode is None:
            self.proc.kill()
        await self.proc.wait()
        os.close(self._master)


class FakeLoop:
    """The part of an asyncio loop the pacer schedules on (`time`, `call_at`, `call_soon`), with
    time standing still until a test moves it. `turn()` runs one loop turn as asyncio's does:
    the timers due join the ready queue, then what was ready when the turn began runs (what
    those callbacks schedule runs on a later turn)."""

    class Handle:
        __slots__ = ("when", "fn", "args", "cancelled")

        def __init__(self, when: float, fn: Any, args: tuple) -> None:
            self.when, self.fn, self.args, self.cancelled = when, fn, args, False

        def cancel(self) -> None:
            self.cancelled = True

    def __init__(self, start: float = 0.0) -> None:
        self.now = start
        self.ready: list[FakeLoop.Handle] = []
        self.timers: list[FakeLoop.Handle] = []
        self.turns = 0

    def time(self) -> float:
        return self.now

    def call_soon(self, fn: Any, *args: Any) -> FakeLoop.Handle:
        handle = FakeLoop.Handle(self.now, fn, args)
        self.ready.append(handle)
        return handle

    def call_at(self, when: float, fn: Any, *args: Any) -> FakeLoop.Handle:
        handle = FakeLoop.Handle(when, fn, args)
        self.timers.append(handle)
        self.timers.sort(key=lambda h: h.when)      # stable: equal times keep their order
        return handle

    def turn(self) -> None:
        due = [h for h in self.timers if h.when <= self.now]
        self.timers = [h for h in self.timers if h.when > self.now]
        batch, self.ready = self.ready + due, []
        self.turns += 1
        for handle in batch:
            if not handle.cancelled:
                handle.fn(*handle.args)

    def run_until(self, until: float) -> None:
        """Run turns, moving time to each timer as it falls due, up to `until` (then stop there)."""
        while True:
            if self.ready or any(h.when <= self.now and not h.cancelled for h in self.timers):
                self.turn()
                continue
            later = [h.when for h in self.timers if not h.cancelled and h.when <= until]
            if not later:
                break
            self.now = min(later)
        self.now = max(self.now, until)
