"""The admin key: the composition root (serve.make_app_factory) gives admin sessions the admin
panel; the TUI only pushes the Screen it was given. A non-admin has no key and nothing opens."""

from __future__ import annotations

from dataclasses import dataclass

from textual.screen import Screen
from textual.widgets import RichLog

from cardroom import serve
from cardroom.config import config_from_dict
from cardroom.tui import build_app
from cardroom.tui.screens.lobby import LobbyScreen

from tests.rooms import table_settings
from .conftest import SIZE, screen_text

ADMIN_KEY = "SHA256:" + "A" * 43
PLAYER_KEY = "SHA256:" + "B" * 43


@dataclass
class Info:
    username: str
    key_fingerprint: str | None
    end: None = None           # no ssh session to end here
    utf8: bool = True
    hosting: None = None       # nor a server hosting the app: it runs on its own
    peer_address: str = "127.0.0.1"


def _factory(w, tmp_path):
    config = config_from_dict({
        "server": {"host": "127.0.0.1", "port": 2222, "admins": [ADMIN_KEY]},
        "tables": [{"name": "T", "game": "holdem", "structure": "fixed", "stakes": ["2", "4"]}],
    }, tmp_path / "config.toml")
    stopped = []
    return serve.make_app_factory(w.room, config, lambda: stopped.append(1)), stopped


def _log_text(app) -> str:
    return "\n".join(strip.text for strip in app.screen.query_one(RichLog).lines)


async def test_admin_presses_f12_types_who_and_sees_output(world, tmp_path):
    w = world(table_settings("T"))
    w.seat("T", ["bob", "carol"])
    factory, stopped = _factory(w, tmp_path)
    app = await factory(Info("root", ADMIN_KEY))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "f12 Admin" in screen_text(app).replace("F12", "f12")
        await pilot.press("f12")
        await pilot.pause()
        assert type(app.screen).__name__ == "AdminPanel"
        await pilot.press("f12")                      # once is enough: not a second panel
        await pilot.pause()
        assert sum(type(s).__name__ == "AdminPanel" for s in app.screen_stack) == 1
        await pilot.press(*"who", "enter")
        await pilot.pause()
        log = _log_text(app)
        assert "> who" in log and "bob" in log and "carol" in log and "root" in log
        await pilot.press(*"shutdown now", "enter")     # reaches serve's stop hook
        await pilot.pause()
        assert stopped == [1]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        await pilot.press("ctrl+a")                   # the other key for it
        await pilot.pause()
        assert type(app.screen).__name__ == "AdminPanel"


async def test_revoked_admin_runs_nothing(world, tmp_path):
    w = world(table_settings("T"))
    factory, _ = _factory(w, tmp_path)
    app = await factory(Info("root", ADMIN_KEY))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "f12")
        await pilot.pause()
        app.client.is_admin = False
        await pilot.press(*"who", "enter")
        await pilot.pause()
        out = _log_text(app).split("> who", 1)[1]
        assert "not an admin" in out and "root" not in out


async def test_a_player_gets_no_admin_key(world, tmp_path):
    w = world(table_settings("T"))
    factory, _ = _factory(w, tmp_path)
    for info in (Info("bob", PLAYER_KEY), Info("carol", None)):
        app = await factory(info)
        assert app.admin is None and not app.client.is_admin
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("enter")
            await pilot.pause()
            assert "Admin" not in screen_text(app)
            await pilot.press("f12", "ctrl+a")
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)


async def test_the_tui_pushes_whatever_screen_it_is_given(world):
    w = world(table_settings("T"))
    made = []

    class Panel(Screen):
        def compose(self):
            return []

    def admin():
        made.append(Panel())
        return made[-1]

    app = build_app(w.room.connect("root"), admin=admin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "f12")
        await pilot.pause()
        assert app.screen is made[0]
