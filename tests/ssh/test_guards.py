"""Guards that fail loudly if a Textual upgrade (or a change here) brings the pitfalls back."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import sys

import pytest
import textual.app
from ssh_helpers import FakeTransport, Running, StandInApp, wait_for

from cardroom import textual_adapter

# Keys that go through every parser path: plain, arrows, modified arrows (the lru_cached
# kitty/extended path), a lone ESC (timer), a paste, mouse, focus.
KEYS = ["a", "\x1b[A", "\x1b[1;5C", "\x1b[3~", "\x1b", "\x1b[200~hi\x1b[201~", "\x1b[<0;3;4M", "\x1b[I", "z"]


def _live_apps() -> list[object]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, StandInApp)]


async def _session_that_typed() -> None:
    r = Running(StandInApp(), FakeTransport())
    await r.ready()
    for key in KEYS:
        r.driver.feed(key)
    await wait_for(lambda: "z" in r.app.keys)
    await r.stop()


async def _sessions(count: int, concurrent: int) -> None:
    for start in range(0, count, concurrent):
        await asyncio.gather(*(_session_that_typed() for _ in range(min(concurrent, count - start))))


def test_a_test_that_asks_for_no_guards_runs_textual_as_shipped():
    """Importing the test helpers installs nothing, and no earlier test's guards are left."""
    assert textual_adapter.installed() == ()
    assert textual.app.redirect_stdout is contextlib.redirect_stdout
    assert not hasattr(textual.app.App.on_event, "textual")


def test_guards_are_installed_and_taken_back(textual_speedups):
    from textual.strip import Strip

    assert textual.app.redirect_stdout is textual_adapter._NoRedirect
    assert textual.app.redirect_stderr is textual_adapter._NoRedirect
    assert set(textual_adapter.installed()) == set(textual_adapter.FIXES + textual_adapter.SPEEDUPS)
    textual_adapter.uninstall()
    assert textual.app.redirect_stdout is contextlib.redirect_stdout
    assert "_dispatch_message" not in vars(textual.app.App)       # inherited again, as in Textual
    assert Strip.divide.__qualname__ == "Strip.divide" and not hasattr(textual.app.App.on_event, "textual")
    assert textual_adapter.installed() == ()


def test_the_server_without_speedups_installs_only_the_fixes():
    textual_adapter.install(textual_adapter.server_guards(speedups=False))
    assert set(textual_adapter.installed()) == set(textual_adapter.FIXES)
    assert not textual_adapter.active("paint-at-once")
    from textual.widgets import Input
    assert Input.cursor_blink._default is True


def test_importing_the_adapter_with_another_textual_fails_naming_both_versions():
    """The adapter checks the Textual version at import: another version fails there, loudly."""
    import subprocess

    code = "import textual; textual.__version__ = '9.0.0'; import cardroom.textual_adapter"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode != 0
    assert "TextualChanged" in run.stderr and "textual==8.2.8" in run.stderr and "textual 9.0.0" in run.stderr


def test_a_guard_whose_textual_internal_is_gone_fails_naming_the_guard(monkeypatch):
    """A Textual that no longer has what a guard patches: installing fails, naming the guard and
    the internal, and leaves Textual unpatched."""
    from textual.css.stylesheet import Stylesheet

    monkeypatch.delattr(Stylesheet, "_parse_rules")
    with pytest.raises(textual_adapter.GuardBroken, match=r"'css-parsed-once-per-process'.*Stylesheet\._parse_rules"):
        textual_adapter.install(textual_adapter.server_guards(speedups=True))
    assert not textual_adapter.active("css-parsed-once-per-process")
    textual_adapter.uninstall()                 # the guards before it in the list went in
    monkeypatch.delattr(textual.app, "redirect_stdout")
    with pytest.raises(textual_adapter.GuardBroken, match=r"'print-redirect'.*textual\.app:redirect_stdout"):
        textual_adapter.install(["print-redirect"])


def test_strips_that_a_crop_or_divide_leaves_unchanged_are_not_cached_in_themselves():
    """A strip in its own cache is a reference cycle per line drawn: frozen by the GC policy, it
    was kept until a full collection (see the adapter's uncycled-strips guard). Now such a strip is
    freed by reference counting alone: the cyclic collector finds nothing of it."""
    from rich.segment import Segment
    from textual.strip import Strip

    textual_adapter.install(["uncycled-strips"])

    def draw_a_line() -> list[str]:
        strip = Strip([Segment("hello "), Segment("world")], 11)
        assert strip.crop_extend(0, 11, None) is strip
        assert strip.divide([11])[0] is strip and strip.divide([11, 20]) == [strip]
        return [s.text for s in strip.divide([5, 11])] + [strip.crop_extend(2, 14, None).text]

    gc.collect()
    gc.disable()
    try:
        assert draw_a_line() == ["hello", " world", "llo world   "]   # real cuts still cut
        assert gc.collect() == 0
    finally:
        gc.enable()


async def test_no_app_survives_closed_sessions(textual_fixes):
    assert _live_apps() == []
    await _sessions(100, concurrent=10)
    await asyncio.sleep(0)      # one loop turn for the last closes, no more: a leak is not waited out
    assert _live_apps() == []


@pytest.mark.deep
async def test_no_app_survives_many_closed_sessions(textual_fixes):
    await _sessions(300, concurrent=25)
    await asyncio.sleep(0)      # one loop turn for the last closes, no more: a leak is not waited out
    assert _live_apps() == []


async def test_stdout_stderr_untouched_by_overlapping_apps(textual_fixes):
    out, err = sys.stdout, sys.stderr
    first = Running(StandInApp(), FakeTransport())
    await first.ready()
    second = Running(StandInApp(), FakeTransport())
    await second.ready()
    assert sys.stdout is out and sys.stderr is err
    await first.stop()  # exits first, while the second is still running
    assert sys.stdout is out and sys.stderr is err
    third = Running(StandInApp(), FakeTransport())
    await third.ready()
    await second.stop()
    await third.stop()
    assert sys.stdout is out and sys.stderr is err


async def test_no_card_room_app_survives_closed_ssh_sessions(tmp_path):
    """The real card-room app, over the real server: sessions that pressed keys and closed leave
    no CardroomApp behind (the parser leak and the stdout hijack both keep apps alive)."""
    import asyncssh

    from cardroom import serve
    from cardroom.tui.app import CardroomApp
    from ssh_helpers import Screen
    from tests.ssh.test_room_e2e import _config, _connect

    served = await serve.start(_config(tmp_path, max_per_ip=50, new_accounts_per_ip=50, connect_burst=50),
                               host="127.0.0.1", port=0, data_dir=tmp_path)
    try:
        for i in range(0, 20, 5):
            async def one(n):
                async with _connect(served, asyncssh.generate_private_key("ssh-ed25519"), f"p{n}") as conn:
                    screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(80, 24)))
                    await screen.wait_for(f"Welcome, p{n}")
                    screen.send("\r")                      # to the lobby
                    await screen.wait_for("Tables")
                    screen.send("\x1b[B\x1b[A")
                    screen.send("\x11")                    # ctrl+q
                    await asyncio.wait_for(screen.process.wait_closed(), 20)
            await asyncio.gather(*(one(i + k) for k in range(5)))
        await wait_for(lambda: not served.server.sessions)

        def no_app_left() -> bool:
            served.server.collect_garbage()     # frozen objects too (cardroom/ssh/gcpolicy.py)
            return not any(isinstance(o, CardroomApp) for o in gc.get_objects())
        # The apps' tasks end a few turns after their sessions do; a leaked app never goes.
        await wait_for(no_app_left, timeout=5, what="every CardroomApp freed", interval=0.05)
        assert [o for o in gc.get_objects() if isinstance(o, CardroomApp)] == []
    finally:
        await serve.shutdown(served)


async def test_gc_policy_freezes_live_sessions_and_collects_after_closes():
    """Sessions' objects are frozen shortly after they open (no full-collection pauses over
    hundreds of apps); enough closed sessions bring one full collection that frees them."""
    from cardroom.ssh.gcpolicy import GcPolicy

    class Cycle:
        def __init__(self):
            self.me = self

    before = gc.get_threshold()
    policy = GcPolicy(freeze_delay=0.01, collect_after=2)
    try:
        policy.session_opened()
        assert gc.get_threshold() == policy.thresholds     # no automatic full collections now
        assert policy.thresholds[2] >= 1000 * before[2]
        junk = Cycle()
        await wait_for(lambda: gc.get_freeze_count() > 0, what="the policy's young collection to freeze")
        del junk
        gc.collect()
        assert any(isinstance(o, Cycle) for o in gc.get_objects(generation=None) if type(o) is Cycle) \
            or gc.get_freeze_count() > 0          # frozen: out of the collector's sight
        policy.session_closed()
        assert gc.get_freeze_count() > 0          # one close: not yet worth a full collection
        policy.session_closed()
        await wait_for(lambda: policy.closed_since_collect == 0, what="the full collection after two closes")   # two: collected (and frozen again)
        gc.unfreeze()
        assert not [o for o in gc.get_objects() if isinstance(o, Cycle)]
    finally:
        policy.close()
        assert gc.get_freeze_count() == 0
        assert gc.get_threshold() == before              # the interpreter's own, given back


async def test_gc_policy_collects_young_garbage_on_a_clock():
    """Young collections run every `young_every` seconds (the middle generation every few), not
    on CPython's allocation count, which stays a backstop far above a few cycles' worth."""
    import weakref

    from cardroom.ssh.gcpolicy import GcPolicy

    class Cycle:
        def __init__(self):
            self.me = self

    generations: list[int] = []

    def seen(phase, info):
        if phase == "start":
            generations.append(info["generation"])

    policy = GcPolicy(young_every=0.01, middle_every=3, freeze_delay=60.0)
    gc.callbacks.append(seen)
    try:
        policy.session_opened()
        assert gc.get_threshold()[0] >= 10_000
        gc.collect()
        generations.clear()
        junk = weakref.ref(Cycle())
        assert junk() is not None                   # a cycle: reference counting cannot free it
        await wait_for(lambda: junk() is None, timeout=2.0)
        await wait_for(lambda: 1 in generations, timeout=2.0)
        assert generations.count(0) >= 2 and 2 not in generations
        policy.session_closed()                     # no session: the clock stops
        await asyncio.sleep(0.03)    # deliberate: three young_every periods, for a collection already due
        generations.clear()
        await asyncio.sleep(0.05)    # deliberate: a stopped clock collects nothing in this time
        assert generations == []
    finally:
        gc.callbacks.remove(seen)
        policy.close()


async def test_gc_policy_puts_off_full_collections_while_many_sessions_are_live():
    """A full collection walks the whole heap (21 s at 1,000 sessions): with many sessions up it
    waits until as many have closed as are live, and never comes on a timer."""
    from cardroom.ssh.gcpolicy import GcPolicy

    policy = GcPolicy(collect_after=50, collect_fraction=0.2, full_live_limit=50)
    policy.live = 40
    assert policy.collect_threshold() == 50          # few live: the usual rule
    policy.live = 1000
    assert policy.collect_threshold() == 1000        # many: only once the garbage is as large
    try:
        policy._freeze()                             # the timed check: long overdue, but 1000 live
        assert policy._last_full is None and gc.get_freeze_count() > 0    # frozen, not collected
        policy.live = 10
        policy._freeze()
        assert policy._last_full is not None             # few live: the timed full collection runs
    finally:
        policy.close()


def _drawn_over(size: tuple[int, int], output: str | None) -> list:
    """The cells of a terminal of `size` filled with "X", after `output` was written to it: every
    cell a repaint meant to draw shows what it drew."""
    import pyte

    screen = pyte.Screen(*size)
    stream = pyte.Stream(screen)
    stream.feed("".join(f"\x1b[{y + 1};1H" + "X" * size[0] for y in range(size[1])))
    stream.feed(output or "")
    return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.reverse) for c in (screen.buffer[y][x] for x in range(size[0]))]
            for y in range(size[1])]


async def test_a_partial_repaint_draws_what_textual_would(tmp_path):
    """The repaint-only-what-changed guard renders only the widgets that show in a changed region:
    on real table screens (a player's and a railbird's, narrow and wide), for many sets of
    changed widgets, the partial repaint draws on a terminal exactly the cells Textual's own draws,
    and draws them the same (a no-op cursor move at the end of a line may be left out); and so
    does a full repaint, and the drawing of the screen as it shows under a dialog."""
    import random

    from test_mirror import TableWorld

    from cardroom.tui.app import build_app

    textual_adapter.install(["repaint-only-what-changed"])
    textuals = textual_adapter.compositor_class().render_partial_update.textual
    rng = random.Random(5)
    w = TableWorld(tmp_path)
    try:
        w.act()
        w.act()
        compared = skipped = 0
        for client, size in ((w.players[0], (80, 24)), (w.players[1], (120, 40)), (w.room.connect("rail"), (100, 30))):
            app = build_app(client)
            # As a server renders (textual_adapter.render_in_truecolor): a Rich Style keeps the
            # codes of the first colour system it was drawn in, and line-drawn strips are shared
            # by every app of the process, so a headless app's 256 colours would reach the next
            # test's sessions.
            textual_adapter.render_in_truecolor(app)
            async with app.run_test(size=size) as pilot:
                await pilot.press("enter", "enter")
                await pilot.pause()
                screen = app.screen
                compositor = textual_adapter.compositor_of(screen)
                widgets = list(compositor.visible_widgets)
                for _ in range(40):
                    chosen = rng.sample(widgets, rng.randint(1, min(6, len(widgets))))
                    regions = {compositor.visible_widgets[x][0].intersection(compositor.visible_widgets[x][1])
                               for x in chosen}
                    drawn = []
                    for render in (textual_adapter.compositor_class().render_partial_update, textuals):
                        textual_adapter.mark_dirty(compositor, regions)
                        update = render(compositor)
                        drawn.append(_drawn_over(size, update.render_segments(app.console) if update else None))
                    assert drawn[0] == drawn[1], [type(x).__name__ for x in chosen]
                    compared += 1
                    skipped += len(widgets) - len([x for x in widgets if any(
                        compositor.visible_widgets[x][0].intersection(compositor.visible_widgets[x][1]).overlaps(r)
                        for r in regions)])
                full = [_drawn_over(size, render(compositor).render_segments(app.console))
                        for render in (textual_adapter.compositor_class().render_full_update,
                                       textual_adapter.textuals_own(textual_adapter.compositor_class(),
                                                                    "render_full_update"))]
                assert full[0] == full[1]
                strips = [[list(strip) for strip in render(compositor)]       # as drawn under a dialog
                          for render in (textual_adapter.compositor_class().render_strips,
                                         textual_adapter.textuals_own(textual_adapter.compositor_class(),
                                                                      "render_strips"))]
                assert strips[0] == strips[1]
                w.act()
                await pilot.pause()
        assert compared == 120 and skipped > 0          # widgets really were left out
    finally:
        w.store.close()


def test_a_region_is_covered_only_by_regions_reaching_every_cell():
    from textual.geometry import Region

    part = Region(2, 1, 6, 2)                 # x 2..7, y 1..2
    assert textual_adapter._covered(part, [Region(0, 0, 10, 5)])
    assert textual_adapter._covered(part, [Region(0, 0, 5, 5), Region(5, 0, 5, 5)])          # side by side
    assert textual_adapter._covered(part, [Region(2, 1, 6, 1), Region(0, 2, 9, 1)])          # one a line
    assert not textual_adapter._covered(part, [Region(0, 0, 4, 5), Region(5, 0, 5, 5)])      # a gap at x 4
    assert not textual_adapter._covered(part, [Region(0, 1, 10, 1)])                         # line 2 bare
    assert not textual_adapter._covered(part, [])


async def test_a_container_under_its_widgets_is_not_rendered_for_their_change(tmp_path):
    """A change to the felt or the chat rendered the five containers under them too (a quarter of
    a repaint), which the terminal never shows there."""
    from test_mirror import TableWorld
    from textual.widget import Widget

    from cardroom.tui.app import build_app
    from cardroom.tui.widgets.lines import TextLines

    textual_adapter.install(["repaint-only-what-changed"])
    w = TableWorld(tmp_path)
    try:
        app = build_app(w.players[0])
        textual_adapter.render_in_truecolor(app)        # as a server renders (see above)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.press("enter", "enter")
            await pilot.pause()
            w.act()
            await pilot.pause()
            rendered: list[str] = []
            originals = {cls: vars(cls)["render_lines"] for cls in (Widget, TextLines)}

            def counting(render_lines):
                def counted(self, crop):
                    rendered.append(type(self).__name__)
                    return render_lines(self, crop)
                return counted

            for cls, render_lines in originals.items():
                cls.render_lines = counting(render_lines)
            try:
                w.act()                                 # a check or a call: the felt and the chat
                await pilot.pause()
                await pilot.pause()
            finally:
                for cls, render_lines in originals.items():
                    cls.render_lines = render_lines
            assert "Felt" in rendered or "ChatLog" in rendered
            assert not {"TableScreen", "Horizontal", "Vertical", "ChatPane"} & set(rendered), rendered
    finally:
        w.store.close()


def test_apps_share_one_truecolor_filter_per_theme_and_switching_it_off_is_their_own():
    """The one-truecolor-filter-per-theme guard: apps on the same terminal theme share one filter
    (so a strip drawn for one session is filtered once for all); an app that turns ANSI colours
    on gets the shared "off" filter, and the others keep theirs switched on."""
    from textual.filter import ANSIToTruecolor

    from cardroom.ssh.driver import bind_app

    textual_adapter.install(["one-truecolor-filter-per-theme"])

    def filter_of(app):
        return next(f for f in textual_adapter.filters_of(app) if isinstance(f, ANSIToTruecolor))

    apps = [bind_app(StandInApp(), FakeTransport()) for _ in range(3)]
    assert filter_of(apps[0]) is filter_of(apps[1]) is filter_of(apps[2])
    assert filter_of(apps[0]).enabled
    apps[2].ansi_color = True                   # this app asks for the terminal's own colours
    assert not filter_of(apps[2]).enabled
    assert filter_of(apps[0]).enabled and filter_of(apps[0]) is filter_of(apps[1])
    apps[2].ansi_color = False
    assert filter_of(apps[2]) is filter_of(apps[0])
    apps[1].theme = "textual-light"             # another terminal theme: another filter
    assert filter_of(apps[1]) is not filter_of(apps[0])
    assert filter_of(apps[1])._terminal_theme is apps[1].ansi_theme


def test_apps_share_the_rules_parsed_from_the_same_css_and_theme(monkeypatch):
    """The css-parsed-once-per-process guard: every app's stylesheet parsed every widget's
    CSS for itself (a tenth of a login's CPU). Stylesheets with equal variables share one parse;
    other variables (another theme) get their own, with their own values."""
    import textual.css.stylesheet as stylesheet_module
    from textual.css.stylesheet import Stylesheet

    textual_adapter.install(["css-parsed-once-per-process"])
    parsed = []
    real_parse = stylesheet_module.parse

    def counting_parse(*args, **kwargs):
        parsed.append(args[1])
        return real_parse(*args, **kwargs)

    monkeypatch.setattr(stylesheet_module, "parse", counting_parse)
    css = "Static.guard-test { color: $primary; }"

    def rules(primary: str):
        sheet = Stylesheet(variables={"primary": primary})   # a dict of its own, as each app's is
        sheet.add_source(css, read_from=("guard-test", ""), is_default_css=True)
        sheet.parse()
        return sheet.rules

    red, red_again, blue = rules("red"), rules("red"), rules("blue")
    assert parsed == [css, css]                          # once for red, once for blue
    assert red[0] is red_again[0]
    assert red[0].styles.color != blue[0].styles.color
    assert red[0].styles.color.rgb == (255, 0, 0) and blue[0].styles.color.rgb == (0, 0, 255)


class _Keyed(textual.app.App[None]):
    """A focused widget three containers deep, a screen binding, an app binding and a priority
    one, an Input, and a container with a key method of its own."""

    BINDINGS = [("y", "note('app y')"), textual.binding.Binding("p", "note('priority p')", priority=True)]

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[str] = []

    def compose(self):
        from textual.containers import Horizontal, Vertical
        from textual.widgets import Input, Static

        class Deep(Static, can_focus=True):
            pass

        class KeyMethod(Vertical):
            def key_k(self) -> None:
                self.app.notes.append("key_k")

        with Vertical():
            with Horizontal():
                yield Deep("deep", id="deep")
        with KeyMethod():
            yield Deep("in a container with key_k", id="inner")
        yield Input(id="inp")

    def on_mount(self) -> None:
        textual_adapter.bind_key(self.screen, "x", "app.note('screen x')")
        self.query_one("#deep").focus()

    def action_note(self, what: str) -> None:
        self.notes.append(what)


async def _keyed_run(monkeypatch) -> tuple[list[str], list[str], str]:
    """Press keys on _Keyed; what the actions noted, which nodes a Key was posted to, the Input."""
    from textual.message_pump import MessagePump

    posted: list[str] = []
    post = getattr(MessagePump.post_message, "unrecorded", MessagePump.post_message)

    def recording(self, message):
        if isinstance(message, textual.events.Key):
            posted.append(f"{type(self).__name__}:{message.key}")
        return post(self, message)

    recording.unrecorded = post
    monkeypatch.setattr(MessagePump, "post_message", recording)
    app = _Keyed()
    async with app.run_test() as pilot:
        await pilot.press("x", "y", "p", "z")          # a screen binding, an app one, priority, none
        app.query_one("#inner").focus()
        await pilot.press("k", "x")                     # a key method on the way: Textual's path
        app.query_one("#inp").focus()
        await pilot.press("x", "p", "q")                # the Input types them: it consumes printable keys
        await pilot.pause()
        return app.notes, posted, app.query_one("#inp").value


async def test_a_key_nothing_on_the_way_handles_meets_the_bindings_in_the_apps_turn(monkeypatch):
    """The keys-meet-bindings-at-once guard: the key is handled by the app where it lands (posted to
    the app only, not bubbled through four containers), with the same outcome as Textual's way,
    which the same run through Textual's own App.on_event shows."""
    textual_adapter.install(["keys-meet-bindings-at-once"])
    notes, posted, typed = await _keyed_run(monkeypatch)
    monkeypatch.setattr(textual.app.App, "on_event", textual.app.App.on_event.textual)
    textual_notes, textual_posted, textual_typed = await _keyed_run(monkeypatch)

    assert notes == textual_notes == ["screen x", "app y", "priority p", "key_k", "screen x"]
    assert typed == textual_typed == "xpq"
    assert textual_posted[:6] == ["_Keyed:x", "Deep:x", "Horizontal:x", "Vertical:x", "Screen:x", "_Keyed:x"]
    # At once: x, y, z (p is a priority binding either way) reach the app only, and so does x
    # under KeyMethod (its method is for k); k there, and the keys for the Input, go Textual's way.
    assert [p for p in posted if not p.startswith("_Keyed:")] == [
        "Deep:k", "KeyMethod:k", "Screen:k", "Input:x", "Input:p", "Input:q"]
    assert [p for p in textual_posted if not p.startswith("_Keyed:")].count("Screen:x") == 2


class _Typing(textual.app.App):
    """An Input and a TextArea two containers down, and a screen binding for escape."""

    BINDINGS = [("escape", "note('escape')", "")]

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[str] = []

    def compose(self):
        from textual.containers import Vertical
        from textual.widgets import Input, TextArea

        with Vertical(), Vertical():
            yield Input(id="inp")
            yield TextArea(id="area")

    def action_note(self, what: str) -> None:
        self.notes.append(what)


def _queued(app) -> int:
    """Messages waiting in the app's queue and in each of its screen's widgets'."""
    return textual_adapter.message_backlog(app) + sum(
        textual_adapter.message_backlog(node) for node in app.screen.walk_children(with_self=True))


async def _typed_in_one_burst(bursts: dict[str, list[str]]) -> tuple[dict[str, str], list[str]]:
    """Post each widget's keys to the app without waiting between them, as a packet carrying
    several keys does; what each widget then holds."""
    app = _Typing()
    out = {}
    async with app.run_test() as pilot:
        for widget_id, keys in bursts.items():
            widget = app.query_one(f"#{widget_id}")
            widget.focus()
            await pilot.pause()
            for key in keys:
                app.post_message(textual.events.Key(key, key if len(key) == 1 else None))
            await wait_for(lambda: _queued(app) == 0, what="every posted key handled")
            await pilot.pause()
            out[widget_id] = getattr(widget, "value", None) or widget.text
        return out, app.notes


async def test_keys_typed_in_one_burst_apply_in_the_order_typed(monkeypatch):
    """The editing-keys-in-place fix: an editing key (a binding of the Input or TextArea) takes
    its place among the characters. Through Textual's own key handlers, the same bursts apply
    the editing keys after the characters that followed them (Textual issue #6605)."""
    from textual.widgets import Input, TextArea

    bursts = {"inp": ["1", "0", "5", "backspace", "0"], "area": ["a", "b", "left", "c", "escape"]}
    textual_adapter.install(textual_adapter.TYPING_FIXES)
    typed, notes = await _typed_in_one_burst(bursts)
    assert typed == {"inp": "100", "area": "acb"}
    assert notes == ["escape"]                  # a key the widget does not bind still bubbles up
    for widget_class in (Input, TextArea):
        monkeypatch.setattr(widget_class, "_on_key", textual_adapter.textuals_own(widget_class, "_on_key"))
    textual_typed, _ = await _typed_in_one_burst(bursts)
    assert textual_typed == {"inp": "105", "area": "abc"}


class _Dialogs(textual.app.App[None]):
    """"r" opens an amount prompt (Enter answers its Input's value); "j" opens a table screen that
    opens the prompt as it mounts (as joining from the lobby opens the buy-in); "s" opens a screen
    that takes a second to mount. "1", "4" (the table's: hold card 4) and "x" are bindings that
    keys meant for a prompt must not reach."""

    BINDINGS = [("r", "prompt"), ("j", "table"), ("s", "slow"), ("1", "note('1')"), ("x", "note('x')")]

    def __init__(self) -> None:
        super().__init__()
        self.notes: list[str] = []
        self.answers: list[str] = []

    def action_prompt(self) -> None:
        from textual.screen import ModalScreen
        from textual.widgets import Input

        class Prompt(ModalScreen[str]):
            def compose(self):
                yield Input(id="amount")

            def on_input_submitted(self, event) -> None:
                self.dismiss(event.value)

        self.push_screen(Prompt(), self.answers.append)

    def action_table(self) -> None:
        from textual.screen import Screen
        from textual.widgets import Static

        class Table(Screen):
            BINDINGS = [("4", "app.note('hold 4')")]

            def compose(self):
                yield Static("the table")

            def on_mount(self) -> None:
                self.app.action_prompt()

        self.push_screen(Table())

    def action_slow(self) -> None:
        from textual.screen import Screen

        class Slow(Screen):
            async def on_mount(self) -> None:
                await asyncio.sleep(1.0)    # the subject: a screen slow to mount

        self.push_screen(Slow())

    def action_note(self, what: str) -> None:
        self.notes.append(what)


async def _burst_on_dialogs(keys: list[str], wait: float = 0.3) -> tuple[list[str], list[str]]:
    """Post the keys to a _Dialogs app in one go (one packet); what it answered and noted."""
    app = _Dialogs()
    async with app.run_test() as pilot:
        await pilot.pause()
        for key in keys:
            app.post_message(textual.events.Key(key, key if len(key) == 1 else None))
        await pilot.pause(wait)
        return app.answers, app.notes


async def test_keys_typed_ahead_of_a_dialog_go_into_it(monkeypatch):
    """The keys-wait-for-their-screen fix: "r10" Enter in one packet answers the prompt that "r"
    opens with 10, and "j42" Enter answers the prompt the table screen opens as it mounts with 42.
    Through Textual's own dispatch the keys after "j" go to the table screen, which has not opened
    the prompt yet: the "4" is lost there and the prompt answers 2."""
    textual_adapter.install(textual_adapter.TYPING_FIXES)
    assert await _burst_on_dialogs(["r", "1", "0", "enter"]) == (["10"], [])
    assert await _burst_on_dialogs(["j", "4", "2", "enter"]) == (["42"], [])
    monkeypatch.setattr(textual.app.App, "_dispatch_message",
                        textual_adapter.textuals_own(textual.app.App, "_dispatch_message"))
    answers, _ = await _burst_on_dialogs(["j", "4", "2", "enter"])
    assert answers != ["42"]


async def test_keys_typed_ahead_wait_for_a_screen_no_longer_than_the_limit(monkeypatch):
    """A screen that has not mounted after TYPEAHEAD_WAIT no longer holds the keys typed after it."""
    textual_adapter.install(textual_adapter.TYPING_FIXES)
    monkeypatch.setattr(textual_adapter, "TYPEAHEAD_WAIT", 0.1)
    assert await _burst_on_dialogs(["s", "x"], wait=0.5) == ([], ["x"])


async def _railbird_login(path, guards: tuple[str, ...], monkeypatch) -> tuple[dict, list]:
    """A railbird's login over the real driver to an emulated terminal (welcome, lobby, a table),
    a hand's action, the buy-in dialog opened and closed, the terminal resized and back, under
    `guards`: ({"reflows", "restyled"} counted over the login, the terminal's cells at each step,
    once it shows what the app draws afresh: nothing left half drawn, nothing stale)."""
    from test_mirror import TableWorld
    from textual.css.stylesheet import Stylesheet
    from textual.screen import ModalScreen

    textual_adapter.uninstall()
    textual_adapter.install(guards)
    counts = {"reflows": 0, "restyled": 0}
    compositor = textual_adapter.compositor_class()
    reflow, update_nodes = compositor.reflow, Stylesheet.update_nodes

    def counted_reflow(self, *args, **kwargs):
        counts["reflows"] += 1
        return reflow(self, *args, **kwargs)

    def counted_update_nodes(self, nodes, animate=False):
        nodes = list(nodes)
        counts["restyled"] += len(nodes)
        return update_nodes(self, nodes, animate=animate)

    monkeypatch.setattr(compositor, "reflow", counted_reflow)
    monkeypatch.setattr(Stylesheet, "update_nodes", counted_update_nodes)
    path.mkdir()
    w = TableWorld(path)
    try:
        s = await w.railbird("rail")

        async def drawn() -> list:
            await w.settle()
            await wait_for(lambda: s.term.cells() == s.own_cells(), timeout=10, what="its own drawing shown")
            return s.term.cells()

        w.act()
        login, shown = dict(counts), [await drawn()]
        s.driver.feed("j")                              # join: the buy-in dialog
        await wait_for(lambda: isinstance(s.app.screen, ModalScreen))
        shown.append(await drawn())
        s.driver.feed("\x1b")
        await wait_for(lambda: not isinstance(s.app.screen, ModalScreen))
        shown.append(await drawn())
        for size in ((120, 40), (100, 30)):
            s.term.size = size
            s.term.screen.resize(size[1], size[0])
            s.driver.resize(*size)
            await wait_for(lambda size=size: tuple(s.app.screen.size) == size)
            shown.append(await drawn())
        return login, shown
    finally:
        await w.close()


def _same_screens(ours: list, textuals: list) -> None:
    """Each step's terminal the same, cell for cell (the first line that differs is named)."""
    steps = ("at the table", "in the dialog", "out of it", "resized", "resized back")
    for step, mine, theirs in zip(steps, ours, textuals):
        for y, (a, b) in enumerate(zip(mine, theirs)):
            assert a == b, f"{step}, line {y}: {''.join(c[0] for c in a)!r} / {''.join(c[0] for c in b)!r}"


async def _with_and_without(guard: str, tmp_path, monkeypatch) -> tuple[tuple[dict, list], tuple[dict, list]]:
    """The railbird's login (above) with every speedup but `guard`, and with every one."""
    without = tuple(g for g in textual_adapter.server_guards(True) if g != guard)
    textuals = await _railbird_login(tmp_path / "without", without, monkeypatch)
    ours = await _railbird_login(tmp_path / "with", textual_adapter.server_guards(True), monkeypatch)
    return textuals, ours


async def test_a_screen_is_laid_out_again_only_when_its_size_changed(tmp_path, monkeypatch):
    """no-layout-at-the-same-size: a new screen heard of its own first layout as a resize and was
    laid out again, with the screen under it (whose repaint repainted the screen on top): 21
    full layouts a login. With the guard each screen is laid out once at a size; what the
    terminal shows is the same, cell for cell: at the table, in a dialog and out of it, after a
    real resize and back."""
    textuals, ours = await _with_and_without("no-layout-at-the-same-size", tmp_path, monkeypatch)
    _same_screens(ours[1], textuals[1])
    assert textuals[0]["reflows"] >= 15 and ours[0]["reflows"] <= textuals[0]["reflows"] // 2, \
        (textuals[0], ours[0])     # 21 and 9


async def test_a_new_screen_is_not_styled_again_as_it_is_first_shown(tmp_path, monkeypatch):
    """style-a-new-screen-once: a screen pushed for the first time was styled as it was mounted
    and again, node by node, as it was shown. Without that second pass the terminal shows the
    same, cell for cell, through a login, a dialog and a resize."""
    textuals, ours = await _with_and_without("style-a-new-screen-once", tmp_path, monkeypatch)
    _same_screens(ours[1], textuals[1])
    assert ours[0]["restyled"] < textuals[0]["restyled"] // 2, (textuals[0], ours[0])     # 58 and 3
