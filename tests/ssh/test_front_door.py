"""The room's front door over real SSH clients (issue 34): what a refused player is told, and the
limits on who may come in. The room is the real one (serve.start on a SQLite file in tmp_path)."""

from __future__ import annotations

import asyncio
import logging
import os
import shutil

import asyncssh
import pytest

from cardroom import serve
from cardroom.roles import frontdoor
from cardroom.config import config_from_dict

TABLE = "Test Hold'em"


def _config(tmp_path, **server):
    return config_from_dict({
        "server": {"host": "127.0.0.1", "port": 2222, **server},
        "tables": [{"name": TABLE, "game": "holdem", "structure": "fixed", "stakes": ["2", "4"], "seats": 6}],
    }, tmp_path / "config.toml")


@pytest.fixture
async def room(tmp_path):
    served = await serve.start(_config(tmp_path), host="127.0.0.1", port=0, data_dir=tmp_path)
    yield served
    await serve.shutdown(served)


def _connect(served, username, key, **kwargs):
    return asyncssh.connect("127.0.0.1", served.server.port, username=username, client_keys=[key],
                            known_hosts=None, agent_path=None, config=None, **kwargs)


def _key_file(tmp_path, key, name="id_ed25519"):
    path = tmp_path / name
    path.write_bytes(key.export_private_key())
    os.chmod(path, 0o600)
    return path


async def _ssh(port: int, user: str, key_path, *command: str) -> tuple[int, str]:
    """The stock OpenSSH client, non-interactive: its exit status and what it printed on stderr."""
    proc = await asyncio.create_subprocess_exec(
        "ssh", "-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
        "-o", "UserKnownHostsFile=/dev/null", "-o", "IdentitiesOnly=yes", "-o", "IdentityAgent=none",
        "-i", str(key_path), "-p", str(port), f"{user}@127.0.0.1", *command,
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE)
    _, err = await asyncio.wait_for(proc.communicate(), 30)
    return proc.returncode, err.decode(errors="replace")


class _Banner(asyncssh.SSHClient):
    banners: list[str]

    def __init__(self) -> None:
        self.banners = []

    def auth_banner_received(self, msg: str, lang: str) -> None:
        self.banners.append(msg)


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client `ssh`")
async def test_a_banned_player_is_told_why_and_the_attempt_is_logged(room, tmp_path, caplog):
    """Issue 34: a banned player who connected later read only "Permission denied (publickey)". He
    is now told, in SSH's user-auth banner (OpenSSH prints it on stderr), and the attempt is logged
    at INFO."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    room.store.claim("mallory", key.get_fingerprint(), 100_000)     # he played here before
    room.store.ban(key.get_fingerprint(), "chip dumping\x1b[31m", "SHA256:admin")
    caplog.set_level(logging.INFO, logger="cardroom.ssh")

    status, err = await _ssh(room.server.port, "mallory", _key_file(tmp_path, key))
    assert status == 255
    assert "You are banned from the card room: chip dumping[31m" in err     # the reason, cleaned
    assert "Permission denied (publickey)" in err
    assert err.index("You are banned") < err.index("Permission denied")

    client = _Banner()
    with pytest.raises(asyncssh.PermissionDenied):
        await _connect(room, "mallory", key, client_factory=lambda: client)
    assert client.banners == ["You are banned from the card room: chip dumping[31m\r\n"]
    refused = [r.getMessage() for r in caplog.records if r.name == "cardroom.ssh" and r.levelno == logging.INFO
               and "refused key" in r.getMessage()]
    assert len(refused) == 2 and all(key.get_fingerprint() in line and "banned" in line for line in refused)


async def test_a_key_that_is_simply_wrong_gets_no_banner(room):
    """Only a refusal with a reason is told: a key that does not own the name is not (it says
    nothing about the account)."""
    room.store.claim("alice", asyncssh.generate_private_key("ssh-ed25519").get_fingerprint(), 100_000)
    client = _Banner()
    with pytest.raises(asyncssh.PermissionDenied):
        await _connect(room, "alice", asyncssh.generate_private_key("ssh-ed25519"), client_factory=lambda: client)
    assert client.banners == []


# ------------------------------------------------------------------------- connections per source

async def _version_lines(port: int, source: str, n: int) -> list[bytes]:
    """Open `n` TCP connections from `source` one after another; what each first read (the
    server's version line, or b"" when it closed the connection unanswered)."""
    firsts = []
    for _ in range(n):
        reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        try:
            firsts.append(await asyncio.wait_for(reader.readline(), 10))
        finally:
            writer.close()
    return firsts


async def test_a_burst_of_connections_from_one_source_is_throttled(tmp_path, caplog):
    """Issue 34 (ssh-audit: DHEat): every connection costs the server a key exchange, and one
    address could open them as fast as it liked. Past [server] connect_burst at once (then
    connects_per_second) a connection is closed before the server says a word; another address
    is not held up, and the log says it once."""
    caplog.set_level(logging.INFO, logger="cardroom.ssh")
    config = _config(tmp_path, connect_burst=4, connects_per_second=0.01)
    served = await serve.start(config, host="127.0.0.1", port=0, data_dir=tmp_path)
    try:
        firsts = await _version_lines(served.server.port, "127.0.0.1", 9)
        assert [line.startswith(b"SSH-2.0-") for line in firsts] == [True] * 4 + [False] * 5
        assert set(firsts[4:]) == {b""}
        async with _connect(served, "alice", asyncssh.generate_private_key("ssh-ed25519"),
                            local_addr=("127.0.0.2", 0)):
            pass                                            # a player from elsewhere gets in
        throttled = [r for r in caplog.records if "closing new connections from 127.0.0.1" in r.getMessage()]
        assert len(throttled) == 1
    finally:
        await serve.shutdown(served)


def test_the_server_limits_come_from_config_toml(tmp_path):
    limits = frontdoor.ssh_limits(_config(tmp_path, connect_burst=3, connects_per_second=0.5, max_per_ip=4))
    assert (limits.connect_burst, limits.connects_per_second, limits.max_per_ip) == (3, 0.5, 4)


# ------------------------------------------------------------------------------ new accounts

async def test_new_accounts_from_one_address_are_limited_and_the_player_is_told(tmp_path, caplog):
    """Issue 34: every new key claimed a name and the starting money, with no limit. One address
    may now make [server] new_accounts_per_ip accounts in new_accounts_hours; past it the player
    reads why, nothing is made, and the accounts he has (or another address) still log in."""
    from ssh_helpers import Screen, wait_for

    caplog.set_level(logging.INFO, logger="cardroom.roles.frontdoor")
    served = await serve.start(_config(tmp_path, new_accounts_per_ip=2), host="127.0.0.1", port=0, data_dir=tmp_path)
    keys = {name: asyncssh.generate_private_key("ssh-ed25519") for name in ("ann", "ben", "cat", "dan")}

    async def screen_of(name: str, source: str = "127.0.0.1") -> str:
        async with _connect(served, name, keys[name], local_addr=(source, 0)) as conn:
            screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(100, 30)))
            # In, or refused: the session ends, saying why.
            await wait_for(lambda: f"Welcome, {name}" in screen.plain or screen.task.done(), what=name)
            return screen.plain

    try:
        assert "Welcome, ann" in await screen_of("ann")
        assert "Welcome, ben" in await screen_of("ben")
        refused = await screen_of("cat")
        assert "New accounts from your address are limited to 2 every 24 hours" in refused
        assert served.store.find("cat") is None
        assert "Welcome, ann" in await screen_of("ann")             # his own account, same address
        assert "Welcome, dan" in await screen_of("dan", "127.0.0.2")
        assert any("refused a new account 'cat' from 127.0.0.1" in r.getMessage() for r in caplog.records)
    finally:
        await serve.shutdown(served)


# ------------------------------------------------------------------------- names of the house

async def test_names_that_read_as_the_houses_lines_are_refused_at_the_door(room):
    """Issue 34: "Room" and "Table" (the names the room's and the table's chat lines go by) were
    accepted as player names; they are refused as "Dealer" is, look-alikes and any case too."""
    for name in ("Room", "TABLE", "R00m", "Тable"):                 # the last with a Cyrillic Т
        with pytest.raises(asyncssh.DisconnectError, match="kept for the house"):
            await _connect(room, name, asyncssh.generate_private_key("ssh-ed25519"))
