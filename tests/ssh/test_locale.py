"""A client whose locale is not UTF-8 gets ASCII mode (issue 22); a player's kept choice wins.
Over the real server, with asyncssh clients sending LANG/LC_ALL as OpenSSH's SendEnv does."""

from __future__ import annotations

from functools import partial

import asyncssh
import pytest
from ssh_helpers import Screen, wait_for

from cardroom import serve
from cardroom.config import config_from_dict
from cardroom.ssh.terminal import locale_is_utf8

_until = partial(wait_for, timeout=10.0, interval=0.02)


@pytest.mark.parametrize("env, utf8", [
    ({}, True), ({"LANG": "en_US.UTF-8"}, True), ({"LANG": "C.UTF-8"}, True),
    ({"LANG": "de_DE.utf8@euro"}, True), ({"LANG": "C"}, False), ({"LANG": "POSIX"}, False),
    ({"LANG": "en_US.ISO-8859-1"}, False), ({"LANG": "en_US"}, False),
    ({"LANG": "en_US.UTF-8", "LC_ALL": "C"}, False), ({"LANG": "C", "LC_CTYPE": "en_GB.UTF-8"}, True),
    ({"LANG": "C", "LC_ALL": "", "LC_CTYPE": "fr_FR.UTF-8"}, True),
])
def test_the_first_locale_variable_set_decides(env, utf8):
    assert locale_is_utf8(env) is utf8


@pytest.fixture
async def served(tmp_path):
    config = config_from_dict({
        "server": {"host": "127.0.0.1", "port": 2222},
        "tables": [{"name": "T", "game": "holdem", "structure": "fixed", "stakes": ["2", "4"]}],
    }, tmp_path / "config.toml")
    s = await serve.start(config, host="127.0.0.1", port=0, data_dir=tmp_path)
    yield s
    await serve.shutdown(s)


async def _login(served, key, name, env):
    conn = await asyncssh.connect("127.0.0.1", served.server.port, username=name, client_keys=[key],
                                  known_hosts=None, agent_path=None, config=None)
    screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(100, 30), env=env))
    await screen.wait_for(f"Welcome, {name}")
    app = next(s.app for s in served.server.sessions if s.app is not None and s.app.client.name == name)
    return conn, screen, app


@pytest.mark.parametrize("lang, ascii_mode", [("C", True), ("en_US.UTF-8", False)])
async def test_a_client_locale_that_is_not_utf8_gets_ascii(served, lang, ascii_mode):
    conn, _, app = await _login(served, asyncssh.generate_private_key("ssh-ed25519"), "alice",
                                     {"LANG": lang})
    assert app.options.ascii is ascii_mode
    conn.close()


async def test_a_players_kept_choice_wins_over_the_locale(served):
    key = asyncssh.generate_private_key("ssh-ed25519")
    conn, _, app = await _login(served, key, "bob", {"LC_ALL": "C"})
    assert app.options.ascii is True
    app.keep(app.options.change({"ascii": False}))       # he unticks ASCII in Options
    conn.close()
    await _until(lambda: not served.room.clients.get(app.client.account_id))
    conn, _, app = await _login(served, key, "bob", {"LC_ALL": "C"})
    assert app.options.ascii is False
    conn.close()
