"""SessionDriver against a fake transport: input, ESC timer, resize, dead peers, mode sequences."""

from __future__ import annotations

import asyncio

import pytest
from tests.rooms import wait_until_still
from ssh_helpers import FakeTransport, InputApp, Running, StandInApp, wait_for
from textual.widgets import Input

from cardroom import textual_adapter
from cardroom.ssh.driver import EXIT_SEQUENCE, _PasteGuard, downgrade_sgr
from cardroom.ssh.terminal import ColorDepth


async def test_keys_reach_the_app_and_the_screen(run_app):
    r = run_app()
    await r.ready()
    r.driver.feed("ab")
    r.driver.feed("\x1b[A")  # up arrow, a complete sequence
    await wait_for(lambda: r.app.count == 3)
    assert r.app.keys == ["a", "b", "up"]
    await wait_for(lambda: "count=3 last=up" in r.transport.output)
    await r.stop()


async def test_lone_escape_released_by_timer(run_app):
    r = run_app()
    await r.ready()
    loop = asyncio.get_running_loop()
    started = loop.time()
    r.driver.feed("\x1b")
    await asyncio.sleep(0.05)  # deliberate, shorter than ESCAPE_DELAY: the ESC must not be a key yet
    assert r.app.keys == []  # could still be the start of a sequence
    await wait_for(lambda: r.app.keys == ["escape"], timeout=1)
    assert loop.time() - started < 0.5
    await r.stop()


async def test_sequence_split_across_feeds_is_one_key(run_app):
    r = run_app()
    await r.ready()
    r.driver.feed("\x1b[")
    r.driver.feed("B")
    await wait_for(lambda: r.app.keys == ["down"])
    await asyncio.sleep(0.2)  # deliberate, past ESCAPE_DELAY: the ESC timer must not add a stray key
    assert r.app.keys == ["down"]
    await r.stop()


async def test_initial_size_and_resize(run_app):
    r = run_app(size=(90, 30))
    await r.ready()
    assert r.app.size == (90, 30)
    r.driver.resize(120, 40)
    await wait_for(lambda: r.app.size == (120, 40))
    await wait_for(lambda: "size=120x40" in r.transport.output)
    await r.stop()


async def test_writes_after_peer_vanished_are_swallowed(run_app):
    r = run_app()
    await r.ready()
    r.transport.broken = True
    r.driver.feed("x")  # causes a repaint whose write raises inside the transport
    await wait_for(lambda: r.driver.is_closed)
    written = len(r.transport.chunks)
    r.driver.resize(100, 30)
    r.driver.feed("y")
    await asyncio.sleep(0.05)  # deliberate: time in which a closed driver must write nothing
    await r.stop()
    assert len(r.transport.chunks) == written
    assert r.app.return_code == 0
    assert r.app._exception is None


async def test_start_and_stop_sequences(run_app):
    r = run_app()
    await r.ready()
    out = r.transport.output
    for seq in ("\x1b[?1049h", "\x1b[?25l", "\x1b[?1000h", "\x1b[?1003h", "\x1b[?1015h", "\x1b[?1006h",
                "\x1b[?1004h", "\x1b[?2004h", "\x1b[?7l"):
        assert seq in out
    assert out.index("\x1b[?1049h") < out.index("\x1b[?2004h")
    await r.stop()
    out = r.transport.output
    assert out.endswith(EXIT_SEQUENCE)
    assert out.endswith("\x1b[?1049l")  # leaving the alt screen is the very last thing
    for seq in ("\x1b[?2004l", "\x1b[?7h", "\x1b[?1004l", "\x1b[?1000l", "\x1b[?1006l", "\x1b[?25h"):
        assert seq in out[-len(EXIT_SEQUENCE):]


async def test_no_blinking_cursor(run_app, textual_speedups):
    r = run_app(InputApp())
    await wait_for(lambda: r.transport.driver is not None and r.app.is_running)
    await wait_for(lambda: r.app.focused is not None)
    assert isinstance(r.app.focused, Input)
    assert r.app.focused.cursor_blink is False
    await wait_until_still(lambda: len(r.transport.chunks), what="the first paint to end")
    before = len(r.transport.chunks)
    await asyncio.sleep(1.2)  # two blink periods: an idle screen must write nothing
    assert len(r.transport.chunks) == before
    out = r.transport.output
    for blink in ("\x1b[?12h", "\x1b[1 q", "\x1b[3 q", "\x1b[5 q", "\x1b[0 q"):
        assert blink not in out
    await r.stop()


async def test_bracketed_paste_reaches_app_and_is_bounded(run_app):
    r = run_app()
    await r.ready()
    r.driver.feed("\x1b[200~hello\x1b[201~")
    await wait_for(lambda: r.app.pastes == ["hello"])
    r.driver.set_max_paste(100)
    r.driver.feed("\x1b[200~" + "x" * 5000)
    r.driver.feed("y" * 5000 + "\x1b[2")
    r.driver.feed("01~z")
    await wait_for(lambda: len(r.app.pastes) == 2 and "z" in r.app.keys)
    assert r.app.pastes[1] == "x" * 100
    assert r.app.keys == ["z"]  # nothing of the discarded paste leaked out as keys
    await r.stop()


def test_paste_guard_markers_split_across_reads():
    guard = _PasteGuard(10)
    text = "a\x1b[200~0123456789ABCDEF\x1b[201~b"
    out = "".join(guard.filter(ch) for ch in text)
    assert out == "a\x1b[200~0123456789\x1b[201~b"


def test_sgr_downgrade():
    data = "\x1b[1;38;2;10;200;30;48;2;200;10;30mX\x1b[0m"
    assert downgrade_sgr(data, ColorDepth.TRUECOLOR) == data
    eight = downgrade_sgr(data, ColorDepth.EIGHT_BIT)
    assert "38;5;" in eight and "48;5;" in eight and "38;2" not in eight and eight.startswith("\x1b[1;")
    sixteen = downgrade_sgr(data, ColorDepth.STANDARD)
    assert "38;" not in sixteen and "48;" not in sixteen
    assert sixteen.startswith("\x1b[1;") and sixteen.endswith("mX\x1b[0m")
    none = downgrade_sgr(data, ColorDepth.NONE)
    assert none == "\x1b[1mX\x1b[0m"  # bold kept, colours gone, reset kept
    assert downgrade_sgr("\x1b[38;2;1;2;3mY", ColorDepth.NONE) == "Y"  # no empty SGR (= reset) left
    assert downgrade_sgr("\x1b[5;10H\x1b[m", ColorDepth.NONE) == "\x1b[5;10H\x1b[m"


async def test_colour_depth_per_session_same_process(run_app):
    deep = run_app(depth=ColorDepth.TRUECOLOR)
    mid = run_app(depth=ColorDepth.EIGHT_BIT)
    low = run_app(depth=ColorDepth.STANDARD)
    mono = run_app(depth=ColorDepth.NONE)
    for r in (deep, mid, low, mono):
        await r.ready()
    assert "38;2;10;200;30" in deep.transport.output
    assert "38;5;" in mid.transport.output and "38;2;" not in mid.transport.output
    assert "38;" not in low.transport.output and "\x1b[3" in low.transport.output
    out = mono.transport.output
    assert "38;" not in out and "48;" not in out
    assert mono.app.no_color and not deep.app.no_color
    for r in (deep, mid, low, mono):
        await r.stop()


async def test_exit_while_starting(run_app):
    r = run_app(StandInApp())
    r.app.exit()  # e.g. the connection was lost before the app got going
    await asyncio.wait_for(r.task, 5)
    assert "\x1b[?1049h" not in r.transport.output


def test_one_css_cache_serves_reparsed_and_bound_stylesheets(textual_speedups):
    """The CSS guard is the process's one cache of parsed rules: a stylesheet that reparses (a
    theme change) and a bound app's own stylesheet use it; rules with errors are not kept."""
    from textual.app import App
    from textual.css.stylesheet import Stylesheet, StylesheetParseError

    from cardroom.ssh.driver import bind_app

    css = "Static { color: $text; height: 3; }"
    a = Stylesheet(variables={"text": "red"})
    c = Stylesheet(variables={"text": "blue"})
    for sheet in (a, c):
        sheet.add_source(css, read_from=("test.tcss", ""))
        sheet.parse()
    assert c.rules[0] is not a.rules[0]
    c.set_variables({"text": "red"})      # a theme change re-keys, never poisons the others
    c.reparse()
    assert c.rules[0] is a.rules[0]
    bad = Stylesheet(variables={"text": "red"})
    bad.add_source("Static { colour: red; }", read_from=("bad.tcss", ""))
    with pytest.raises(StylesheetParseError):
        bad.parse()
    assert not any(key[1] == "Static { colour: red; }" for key in textual_speedups._CSS_RULES)

    class _T:
        size = (80, 24)
        color_depth = ColorDepth.TRUECOLOR

    app = bind_app(App(), _T())
    assert type(app.stylesheet) is Stylesheet       # no second cache of its own


async def _painted_app():
    """A running stand-in app, settled (its own after-refresh status update has run), and its
    status line."""
    from textual.widgets import Static

    r = Running(StandInApp(), FakeTransport())
    await r.ready()
    for _ in range(2):           # its after-refresh update (a layout), then that one's repaint
        refreshed = asyncio.Event()
        r.app.call_after_refresh(refreshed.set)
        await asyncio.wait_for(refreshed.wait(), 5)
    return r, r.app.query_one("#status", Static)


async def test_without_the_speedups_a_hosted_app_paints_the_textual_way(textual_fixes):
    """`textual_speedups = false`: asked to paint at once, the server's hosting leaves painting
    to Textual's own schedule."""
    from cardroom.ssh.hosting import ServerHosting

    r, status = await _painted_app()
    status.update("painted-later", layout=False)
    before = len(r.transport.chunks)
    ServerHosting().session().paint_now(r.app)
    assert "painted-later" not in "".join(r.transport.chunks[before:])
    await wait_for(lambda: "painted-later" in r.transport.output)
    await r.stop()


async def test_paint_now_writes_the_screen_before_the_loop_turns(textual_speedups):
    """With the speedups the server's hosting paints at once: what changed reaches the transport
    within the call (a player's own action skips the Idle/timer turns)."""
    from cardroom.ssh.hosting import ServerHosting

    hosting = ServerHosting().session()
    r, status = await _painted_app()
    status.update("painted-at-once", layout=False)
    before = len(r.transport.chunks)
    hosting.paint_now(r.app)                             # no await between the change and here
    assert "painted-at-once" in "".join(r.transport.chunks[before:])
    status.update("needs-a-layout")                      # layout=True: left to Textual's own path
    before = len(r.transport.chunks)
    hosting.paint_now(r.app)
    assert "needs-a-layout" not in "".join(r.transport.chunks[before:])
    await wait_for(lambda: "needs-a-layout" in r.transport.output)
    status.update("and-again", layout=False)             # Textual's path still works after ours
    await wait_for(lambda: "and-again" in r.transport.output)
    await r.stop()


async def test_a_synchronised_frame_is_one_write_and_a_bell_still_goes_out():
    """Textual writes a frame in three pieces (begin sync, frame, end sync): the terminal gets one
    write (one SSH packet); a write outside a frame (the bell) is sent by the end of the turn."""
    from textual.widgets import Static

    app = StandInApp()
    r = Running(app, FakeTransport())
    await r.ready()
    r.driver.feed("\x1b[?2026;2$y")                    # the terminal: synchronised output, reset
    await wait_for(lambda: app._sync_available)
    await wait_until_still(lambda: len(r.transport.chunks), what="the first paint to end")
    before = len(r.transport.chunks)
    app.query_one("#status", Static).update("one-piece")
    await wait_for(lambda: "one-piece" in r.transport.output)
    frame = [c for c in r.transport.chunks[before:] if "one-piece" in c]
    assert len(frame) == 1
    assert frame[0].startswith("\x1b[?2026h") and frame[0].endswith("\x1b[?2026l")
    before = len(r.transport.chunks)
    app.bell()
    assert r.transport.chunks[before:] == []           # held until the turn ends ...
    await asyncio.sleep(0)  # the subject: one turn of the loop, no more
    assert "\x07" in "".join(r.transport.chunks[before:])    # ... then sent
    await r.stop()


async def _session_running_an_app(limits):
    """A real AppSession (as asyncssh would drive it, PTY granted) running a StandInApp, settled."""
    from cardroom.ssh.session import AppSession

    class Channel:                     # the asyncssh channel, as far as the session uses it
        def write(self, data: str) -> None:
            pass

        def get_write_buffer_size(self) -> int:
            return 0

    session = AppSession(lambda info: None, username="u", peer_address="127.0.0.1", key_fingerprint=None,
                         limits=limits)
    session.connection_made(Channel())
    session._pty = True
    app = StandInApp()
    r = Running(app, session)
    await wait_for(lambda: session._driver is not None and app.is_running and bool(app.screen.query("#status")),
                   what="the app mounted")
    # Its start-up messages handled: the tests count the app's queue from here.
    await wait_until_still(lambda: textual_adapter.message_backlog(app), still=0.1, what="the app's queue idle")
    await wait_for(lambda: textual_adapter.message_backlog(app) == 0, what="the app's queue empty")
    return session, app, r


async def test_a_key_reaches_the_app_in_the_loop_turn_it_arrives():
    """AppSession feeds input that finds nothing waiting at once (the pump's turn would delay
    every key by a loop turn, which on a busy server waits behind all the other sessions), and a
    flood still goes a bounded helping at a time."""
    from cardroom.ssh.limits import Limits

    limits = Limits()
    session, app, r = await _session_running_an_app(limits)
    before = textual_adapter.message_backlog(app)
    session.data_received("a", None)
    assert textual_adapter.message_backlog(app) == before + 1          # posted to the app within the call
    await wait_for(lambda: app.keys == ["a"])
    flood = "x" * (limits.input_slice * 4)
    session.data_received(flood, None)
    # one helping now (slices until the turn's events are used up), the rest later
    assert textual_adapter.message_backlog(app) <= before + max(limits.input_slice, limits.input_events_per_turn) < len(flood)
    await wait_for(lambda: len(app.keys) == 1 + len(flood))
    await r.stop()


async def test_a_key_is_taken_by_the_app_before_the_work_queued_ahead_of_it(textual_speedups):
    """What a keypress schedules (the app's task waking for it) runs next, not behind the loop's
    queue of other sessions' work; the work queued ahead still runs, after it."""
    from cardroom.ssh.limits import Limits

    session, app, r = await _session_running_an_app(Limits())
    before = textual_adapter.message_backlog(app)
    loop = asyncio.get_running_loop()
    seen: list[int] = []
    for _ in range(20):                         # other sessions' work, queued first
        loop.call_soon(lambda: seen.append(textual_adapter.message_backlog(app)))
    session.data_received("b", None)
    assert textual_adapter.message_backlog(app) == before + 1
    await wait_for(lambda: len(seen) == 20)
    assert seen[0] == before                    # the app had taken the key before any of it ran
    await wait_for(lambda: app.keys == ["b"])
    await r.stop()
