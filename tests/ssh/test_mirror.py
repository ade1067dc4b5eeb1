"""Railbirds who would see the same screen share one drawing (cardroom/ssh/mirror.py).

Real apps (the room's TUI), hosted as the server hosts them (ssh/hosting.py), run over the real
SessionDriver; each FakeTransport feeds a pyte
terminal emulator, so the tests compare what the terminals show, cell for cell (characters,
colours, attributes), not what the apps believe they drew."""

from __future__ import annotations

import asyncio

import pyte
import pytest
from ssh_helpers import FakeTransport, wait_for
from tests.rooms import build_room, table_settings, wait_until_still

from cardroom.ssh.driver import bind_app
from cardroom.ssh.hosting import ServerHosting
from cardroom.ssh.mirror import Mirrors
from cardroom.ssh.terminal import ColorDepth
from cardroom.tui.app import build_app
from cardroom.tui.screens.table import TableScreen

# The mirror serves railbirds of a server run as by default: Textual's fixes and speedups.
pytestmark = pytest.mark.usefixtures("textual_speedups")

SIZE = (100, 30)


class Terminal(FakeTransport):
    """A transport whose bytes land on an emulated terminal."""

    def __init__(self, size=SIZE, depth=ColorDepth.TRUECOLOR) -> None:
        super().__init__(size=size, depth=depth)
        self.screen = pyte.Screen(*size)
        self.stream = pyte.Stream(self.screen)

    def write(self, data: str) -> None:
        super().write(data)
        self.stream.feed(data)

    def cells(self) -> list[list[tuple]]:
        buf = self.screen.buffer
        return [[(c.data, c.fg, c.bg, c.bold, c.italics, c.reverse)
                 for c in (buf[y][x] for x in range(self.screen.columns))] for y in range(self.screen.lines)]

    def text(self) -> str:
        return "\n".join(self.screen.display)


class Session:
    """One ssh session's app, hosted and ended as AppSession does it."""

    def __init__(self, room, hosting, name, size=SIZE, depth=ColorDepth.TRUECOLOR, client=None) -> None:
        self.client = client if client is not None else room.connect(name)
        self.hosting = hosting.session()
        self.hosting.on_ended(self.client.close)        # as the server's app factory asks
        self.app = build_app(self.client, hosting=self.hosting)
        self.term = Terminal(size, depth)
        bind_app(self.app, self.term)
        self.task = asyncio.get_running_loop().create_task(self.app.run_async())

    @property
    def driver(self):
        return self.term.driver

    @property
    def member(self):
        """Its membership of the shared drawings: made as its driver attaches, gone as it detaches."""
        return self.hosting.member

    def own_cells(self) -> list[list[tuple]]:
        """What this session's own app would draw now, on a fresh terminal."""
        from cardroom.textual_adapter import full_frame
        t = Terminal(self.term.size)
        t.write(full_frame(self.app))
        return t.cells()

    async def stop(self) -> None:
        if not self.task.done():
            self.app.exit()
            await asyncio.wait_for(self.task, 5)
        self.hosting.ended()                # as the server's session does when its app ends


class TableWorld:
    def __init__(self, tmp_path) -> None:
        self.room, self.store, self.clock = build_room(tmp_path / "room.sqlite3", table_settings(), seed=3)
        self.players = []
        for name in ("ann", "bob", "cy"):
            c = self.room.connect(name)
            c.join("T")
            c.set_auto_blind("T", True)       # it starts off (seed 000): deal without asking
            c.buy_in("T", 10_000)
            self.players.append(c)
        self.mirrors = Mirrors(quiet=0.0)
        self.hosting = ServerHosting(mirrors=self.mirrors)
        self.sessions: list[Session] = []

    def act(self) -> None:
        """The player whose decision it is checks or calls (the clock moves to the next hand)."""
        self.clock.advance(0.01)
        for _ in range(20):
            for c in self.players:
                lg = c.view("T").legal
                if lg is not None:
                    c.act("T", "check" if lg.check else "call")
                    return
            self.clock.advance(0.5)
        raise AssertionError("nobody to act")

    async def railbird(self, name, **kw) -> Session:
        s = Session(self.room, self.hosting, name, **kw)
        self.sessions.append(s)
        await wait_for(lambda: s.driver is not None and s.app.is_running)
        await wait_for(lambda: f"Welcome, {name}" in s.term.text(), what="the welcome screen")
        s.driver.feed("\r")                         # welcome -> lobby
        await wait_for(lambda: "Tables" in s.term.text())
        s.driver.feed("\r")                         # watch the first table
        await wait_for(lambda: isinstance(s.app.screen, TableScreen))
        return s

    async def settle(self) -> None:
        """Let every app draw what the last change asked for: no wake waits its turn with the
        pacer, and no terminal has been written to for 0.2 s."""
        pacer = self.hosting.pacer
        await wait_for(lambda: pacer.waiting == 0, 10, what="the pacer's wakes run")
        await wait_until_still(lambda: (pacer.waiting, tuple(len(s.term.chunks) for s in self.sessions)),
                               still=0.2, timeout=10, what="every app drawn")

    async def close(self) -> None:
        for s in self.sessions:
            await s.stop()
        self.store.close()


@pytest.fixture
async def table_world(tmp_path):
    w = TableWorld(tmp_path)
    yield w
    await w.close()


async def _three_railbirds(w):
    birds = [await w.railbird(n) for n in ("rail1", "rail2", "rail3")]
    w.act()
    await w.settle()
    w.act()
    await w.settle()
    return birds


def _roles(birds):
    leaders = [b for b in birds if b.member.group is not None and b.member.group.leader is b.member]
    followers = [b for b in birds if b.member.following]
    return leaders, followers


async def test_railbirds_of_one_table_share_one_drawing_cell_for_cell(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    assert len(leaders) == 1 and len(followers) == 2
    leader = leaders[0]
    for _ in range(4):
        w.act()
        await w.settle()
    last = w.room.tables["T"].chat[-1].text
    assert last in leader.term.text()
    for f in followers:
        assert f.term.cells() == leader.term.cells()
    assert leader.term.cells() == leader.own_cells()    # the emulator agrees with the app
    assert w.mirrors.shared > 0


async def test_followers_apps_do_not_redraw_while_the_leader_draws(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    calls = {id(b): 0 for b in birds}
    for b in birds:
        screen = b.app.screen
        orig = screen.refresh_from_room

        def counted(orig=orig, b=b):
            calls[id(b)] += 1
            orig()
        screen.refresh_from_room = counted
    for _ in range(4):
        w.act()
        await w.settle()
    assert calls[id(leaders[0])] >= 4
    assert all(calls[id(f)] == 0 for f in followers)


async def test_a_follower_who_presses_a_key_draws_its_own_screen_again(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    f, other = followers
    f.driver.feed("?")                              # the help screen: this session's own
    await wait_for(lambda: "Help" in f.term.text() or "help" in f.term.text().lower())
    assert not f.member.following and f.member.group is None
    assert other.member.following                  # the others go on sharing
    w.act()
    await w.settle()
    assert other.term.cells() == leaders[0].term.cells()
    assert f.term.cells() != leaders[0].term.cells()
    f.driver.feed("\x1b")                           # back to the table: the same picture again
    await wait_for(lambda: isinstance(f.app.screen, TableScreen), what="the table screen again")
    await w.settle()
    w.act()
    await w.settle()
    assert f.term.cells() == leaders[0].term.cells()


async def test_a_follower_leaves_on_a_key_that_changes_nothing_and_is_still_right(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    f = followers[0]
    f.driver.feed("z")                              # no such key: but the screen is its own again
    await w.settle()
    assert f.term.cells() == leaders[0].term.cells() == f.own_cells()


async def test_the_leader_leaving_hands_the_drawing_to_a_follower(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    await leaders[0].stop()
    new_leaders, new_followers = _roles(followers)
    assert len(new_leaders) == 1 and len(new_followers) == 1
    for _ in range(3):
        w.act()
        await w.settle()
    last = w.room.tables["T"].chat[-1].text
    assert last in new_followers[0].term.text()
    assert new_followers[0].term.cells() == new_leaders[0].term.cells() == new_leaders[0].own_cells()


async def test_a_page_to_one_railbird_is_shown_to_that_railbird_only(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    f = followers[0]
    w.room.page(f.client.account_id, "Your table is about to start")
    await wait_for(lambda: "about to start" in f.term.text())
    assert not f.member.following
    assert "about to start" not in leaders[0].term.text()
    assert "about to start" not in followers[1].term.text()


async def test_different_sizes_draw_apart_and_a_resize_leaves(table_world):
    w = table_world
    a = await w.railbird("wide")
    b = await w.railbird("narrow", size=(80, 24))
    c = await w.railbird("wide2")
    for _ in range(2):
        w.act()
        await w.settle()
    assert b.member.group is not None and b.member.group.leader is b.member and not b.member.leading
    assert c.member.following or a.member.following
    follower = c if c.member.following else a
    follower.term.size = (80, 24)
    follower.driver.resize(80, 24)
    assert not follower.member.following
    follower.term.screen.resize(24, 80)
    for _ in range(2):
        w.act()
        await w.settle()
    assert follower.member.following and follower.member.group is b.member.group
    assert follower.term.cells() == b.term.cells()


async def test_a_railbird_seated_elsewhere_or_seated_here_never_shares(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    f = followers[0]
    f.client.join("T")                              # sits down (the room tells its app)
    await w.settle()
    assert f.member.group is None
    w.act()
    await w.settle()
    assert f.member.group is None
    assert "seat" in f.term.text()                  # its own title: its name and seat


async def test_a_256_colour_follower_of_a_truecolor_leader_gets_its_own_colours(table_world):
    w = table_world
    a = await w.railbird("rgb")
    b = await w.railbird("xterm", depth=ColorDepth.EIGHT_BIT)
    for _ in range(2):
        w.act()
        await w.settle()
    assert {a.member.following, b.member.following} == {True, False}
    follower = a if a.member.following else b
    mark = len(follower.term.chunks)
    for _ in range(2):
        w.act()
        await w.settle()
    sent = "".join(follower.term.chunks[mark:])
    assert sent
    if follower is b:
        assert "38;2;" not in sent and "48;2;" not in sent
    else:
        assert "38;2;" in sent or "48;2;" in sent


@pytest.mark.parametrize("shared", [True, False])
async def test_the_config_switch_turns_shared_drawings_on_and_off(tmp_path, shared):
    """`shared_screens` in config.toml reaches the server's hosting: with it off there are no
    groups to join, and a session's driver attaches to no membership."""
    from cardroom import serve
    from cardroom.config import config_from_dict

    config = config_from_dict({"server": {"shared_screens": shared},
                               "tables": [{"name": "T", "game": "holdem", "structure": "fixed",
                                           "stakes": ["2", "4"], "seats": 6}]}, tmp_path / "config.toml")
    served = await serve.start(config, host="127.0.0.1", port=0, data_dir=tmp_path)
    try:
        hosting = served.server.hosting
        assert (hosting.mirrors is not None) is shared
        one = hosting.session()
        app = build_app(served.room.connect("a"), hosting=one)
        bind_app(app, Terminal())
        task = asyncio.get_running_loop().create_task(app.run_async())
        await wait_for(lambda: app.is_running)
        assert (one.member is not None) is shared
        if shared:
            assert one.member.mirrors is hosting.mirrors
        app.exit()
        await asyncio.wait_for(task, 5)
        assert one.member is None
    finally:
        await serve.shutdown(served)


async def test_a_follower_whose_peer_vanished_drops_out_and_the_others_go_on(table_world):
    w = table_world
    birds = await _three_railbirds(w)
    leaders, followers = _roles(birds)
    gone, other = followers
    gone.term.broken = True                         # its next write raises BrokenPipeError
    w.act()
    await w.settle()
    assert gone.driver.is_closed and gone.member is None      # out of the group, for good
    assert other.member.following
    for _ in range(2):
        w.act()
        await w.settle()
    assert leaders[0].app.is_running
    assert other.term.cells() == leaders[0].term.cells()


async def test_closed_railbirds_leave_no_app_and_no_group_behind(table_world):
    import gc
    import weakref

    w = table_world
    birds = await _three_railbirds(w)
    assert w.mirrors.groups
    refs = [weakref.ref(b.app) for b in birds]
    for b in birds:
        await b.stop()
    assert w.mirrors.groups == {} and w.mirrors.following == 0
    w.sessions.clear()
    del birds, b
    await wait_for(lambda: (gc.collect(), all(r() is None for r in refs))[1],
                   what="the stopped railbirds' apps to be collected")
    assert [r for r in refs if r() is not None] == []


async def test_a_players_terminal_after_many_actions_shows_what_a_fresh_drawing_would(table_world):
    """Line-drawn widgets repaint only their lines that read differently (widgets/lines.py), and
    a repaint renders only the widgets that show where something changed (textual_adapter): what
    a player's terminal shows after a run of actions, hands and a narrow and a wide size, is what
    his app draws afresh, cell for cell: no line left stale."""
    w = table_world
    ann = Session(w.room, w.hosting, "ann", client=w.players[0])   # seated at the table: her own screen
    w.sessions.append(ann)
    await wait_for(lambda: ann.driver is not None and ann.app.is_running)
    await wait_for(lambda: "Welcome, ann" in ann.term.text(), what="the welcome screen")
    ann.driver.feed("\r")
    await wait_for(lambda: "Tables" in ann.term.text())
    ann.driver.feed("\r")
    await wait_for(lambda: isinstance(ann.app.screen, TableScreen))
    for size in (SIZE, (120, 40)):
        if size != SIZE:
            ann.term.size = size
            ann.term.screen.resize(size[1], size[0])
            ann.driver.resize(*size)
        for _ in range(12):
            w.act()
            await w.settle()
            assert ann.term.cells() == ann.own_cells()
