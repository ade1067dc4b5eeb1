"""How the SSH server hosts its apps (cardroom/ssh/hosting.py): who is woken first, what a
follower of a shared drawing is spared, what happens when an app ends, and how the app factory
hands each app its session's hosting. The pacer runs on a FakeLoop."""

from __future__ import annotations

from ssh_helpers import FakeLoop

from cardroom.ssh.hosting import ServerHosting
from cardroom.ssh.mirror import Group, Mirrors
from cardroom.ssh.pacing import Pacer


class App:
    """What a host may ask of an app (tui/hosting.py HostedApp), set by the test."""

    def __init__(self, name, seated=(), waiting=(), key=None) -> None:
        self.name = name
        self.seated, self.waiting, self.key = list(seated), list(waiting), key

    def my_tables(self):
        return self.seated

    def waiting_for_me(self):
        return self.waiting

    def share_key(self):
        return self.key

    def redraw_all(self):
        pass


def _server(**kw):
    loop = FakeLoop()
    return ServerHosting(pacer=Pacer(clock=loop, count=1, max_count=1, lag_limit=10.0), **kw), loop


def test_seated_players_repaint_before_railbirds_and_the_one_deciding_at_once():
    server, loop = _server(shared_screens=False)
    woken: list[str] = []
    apps = [App("rail"), App("player", seated=["T"]), App("decider", seated=["T"], waiting=["T"])]
    for app in apps:
        server.session().room_changed(app, lambda n=app.name: woken.append(n))
    assert server.pacer.waiting == 2                    # the decider did not queue at all
    loop.turn()
    assert woken == ["decider", "player"]               # the decider first, then a seated player
    loop.run_until(0.0)
    assert woken == ["decider", "player"]               # one a period: the railbird waits
    loop.run_until(1.0)
    assert woken == ["decider", "player", "rail"]


def test_a_follower_is_not_woken_and_leaves_once_its_screen_would_differ():
    mirrors = Mirrors(quiet=0.0)
    server, loop = _server(mirrors=mirrors)
    leader_app, follower_app = App("a", key="T"), App("b", key="T")
    leader, follower = server.session(), server.session()
    leader.member, follower.member = mirrors.member(leader_app), mirrors.member(follower_app)
    group = mirrors.groups["T"] = Group("T", leader.member)
    group.followers[follower.member] = None
    follower.member.group = leader.member.group = group
    woken: list[str] = []
    assert follower.drawn_elsewhere(follower_app) and not leader.drawn_elsewhere(leader_app)
    follower.room_changed(follower_app, lambda: woken.append("b"))
    loop.run_until(1.0)
    assert woken == [] and follower.member.group is group   # the leader's drawing serves it
    follower_app.key = None                                 # say, a page for it alone
    follower.room_changed(follower_app, lambda: woken.append("b"))
    assert follower.member.group is None and not follower.drawn_elsewhere(follower_app)
    leader.room_changed(leader_app, lambda: woken.append("a"))
    loop.run_until(1.0)
    assert woken == ["a"]


def test_an_ended_app_is_let_go_and_what_was_asked_for_the_end_runs_once():
    server, loop = _server(mirrors=Mirrors())
    app = App("a")
    hosting = server.session()
    hosting.member = server.mirrors.member(app)
    closed: list[str] = []
    hosting.on_ended(lambda: closed.append("client"))
    hosting.room_changed(App("other"), lambda: None)        # the pacer is busy with another ...
    hosting.room_changed(app, lambda: closed.append("woken"))   # ... so this one waits
    hosting.ended()
    hosting.ended()
    assert closed == ["client"] and hosting.member is None
    loop.run_until(1.0)
    assert closed == ["client"]                             # not woken after its end


async def test_the_app_factory_hands_the_sessions_hosting_to_the_app_and_its_client_closes_with_it(tmp_path):
    from cardroom import serve
    from cardroom.config import config_from_dict
    from cardroom.room.clock import FakeClock
    from cardroom.ssh.terminal import ColorDepth, SessionInfo

    config = config_from_dict({"tables": [{"name": "T", "game": "holdem", "structure": "fixed",
                                           "stakes": ["2", "4"], "seats": 6}]}, tmp_path / "config.toml")
    room, store = serve.build_room(config, tmp_path, FakeClock())
    try:
        hosting = ServerHosting().session()
        info = SessionInfo("ann", "xterm", ColorDepth.TRUECOLOR, (100, 30), "127.0.0.1", hosting=hosting)
        app = await serve.make_app_factory(room, config)(info)
        assert app.hosting is hosting
        assert not app.client.closed
        hosting.ended()                                     # as the ssh session does after the app
        assert app.client.closed
    finally:
        room.writer.close()
        store.close()
