"""`shutdown in ...` over the real server: players over ssh are warned, the hand in progress is
played out and settled (nothing voided), then the server stops and every player's terminal is
given back; and `cardroom serve` as a process exits by itself after its console's countdown."""

from __future__ import annotations

import asyncio
import os
import select
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import asyncssh
from ssh_helpers import Screen, amount_box, wait_focused, wait_for

from cardroom import serve
from cardroom.admin.commands import AdminContext, execute
from cardroom.config import config_from_dict

TABLE = "Test Hold'em"
ROOT = Path(__file__).resolve().parents[2]
_until = partial(wait_for, timeout=20.0, interval=0.02)


def _config_dict():
    return {
        "server": {"host": "127.0.0.1", "port": 2222, "max_per_ip": 20},
        "room": {"starting_money": "500"},
        "tables": [{"name": TABLE, "game": "holdem", "structure": "fixed", "stakes": ["2", "4"],
                    "seats": 6, "rake_percent": 0}],
    }


async def _sit_down(served, name):
    conn = await asyncssh.connect("127.0.0.1", served.server.port, username=name, known_hosts=None,
                                  client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                  agent_path=None, config=None)
    screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(100, 30)))
    await screen.wait_for(f"Welcome, {name}")
    screen.send("\r")
    await screen.wait_for("Tables")
    screen.send("j")
    await screen.wait_for("Buy in at")
    # Auto Blind starts off (seed 000): turned on before buying in, so the hand deals unasked.
    served.room.clients[served.store.find(name).id][0].set_auto_blind(TABLE, True)   # his session
    await wait_focused(served, name, amount_box, "the buy-in box focused")
    screen.send("\r")
    table = served.room.tables[TABLE]
    await _until(lambda: (s := table.seat_of(served.store.find(name).id)) is not None and s.stack > 0)
    return conn, screen


async def test_shutdown_in_plays_the_hand_out_then_stops_the_server(tmp_path):
    served = await serve.start(config_from_dict(_config_dict(), tmp_path / "config.toml"),
                               host="127.0.0.1", port=0, data_dir=tmp_path)
    stopped = False
    try:
        table = served.room.tables[TABLE]
        players = {name: await _sit_down(served, name) for name in ("alice", "bob")}
        await _until(lambda: table.hand is not None and table.hand.actor is not None)
        hand, hand_id = table.hand, table.hand_id
        ctx = AdminContext(served.room, served.store, "console", served.stop.set)
        assert (await execute(ctx, "shutdown in 1s")).ok
        for _, screen in players.values():
            await screen.wait_for("room closes in 1 second")
        await _until(lambda: served.room.draining)
        await asyncio.sleep(0.3)      # deliberate: time in which the server must NOT stop mid-hand
        assert not served.stop.is_set() and not hand.over     # the hand in progress is played out
        actor = hand.players[hand.actor].name
        players[actor][1].send("f")                            # heads-up: a fold ends it
        await asyncio.wait_for(served.stop.wait(), 20)
        assert hand.over and table.hand is hand                # no new hand was dealt
        await serve.shutdown(served)                           # what `serve` does once stopped
        stopped = True
        for conn, screen in players.values():
            await asyncio.wait_for(screen.process.wait_closed(), 20)
            assert "\x1b[?1049l" in screen.text                # off the alternate screen: given back
            conn.close()
    finally:
        if not stopped:
            await serve.shutdown(served)
    from cardroom.store.sqlite import SqliteStore
    with SqliteStore(tmp_path / "cardroom.sqlite3") as store:
        assert store.get_hand(hand_id).status == "settled"
        assert store.total_money() == store.expected_money()


def test_cardroom_serve_exits_by_itself_after_its_consoles_countdown(tmp_path):
    """`cardroom serve` on a terminal: `shutdown in 1s` typed into its console; the process ends
    with status 0 by itself (no signal), and logged the countdown."""
    (tmp_path / "config.toml").write_text(
        '[server]\nhost = "127.0.0.1"\nport = 0\n[room]\nstarting_money = "500"\n'
        f'[[tables]]\nname = "{TABLE}"\ngame = "holdem"\nstructure = "fixed"\nstakes = ["2", "4"]\n')
    terminal, terminal_end = os.openpty()
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-m", "cardroom", "serve", "--config", str(tmp_path / "config.toml"),
                             "--data-dir", str(tmp_path), "--port", "0"],
                            stdin=terminal_end, stdout=terminal_end, stderr=terminal_end, env=env)
    shown = b""

    def read_until(done, timeout=30.0):
        nonlocal shown
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    shown += os.read(terminal, 65536)
                except OSError:
                    break

    try:
        read_until(lambda: b"Type help" in shown)
        assert b"Type help" in shown, shown[-2000:]
        os.write(terminal, b"shutdown in 1s\r")
        read_until(lambda: proc.poll() is not None)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    assert proc.returncode == 0, shown[-2000:]
    log = (tmp_path / "cardroom.log").read_text()
    assert "shutdown in 1 second" in log and "every hand is settled; the room stops" in log


class _LikeOpenSSH(asyncssh.SSHClient):
    """A client that closes its connection once its session's channel is closed, as OpenSSH does
    (it then prints "Connection to HOST closed." and exits with the session's status); it notes
    whether the server ended the connection first (OpenSSH: "Disconnected by application", 255)."""

    closing = False
    cut_off = None

    def close(self, conn) -> None:
        self.closing = True
        conn.close()

    def connection_lost(self, exc) -> None:
        self.cut_off = not self.closing


async def test_at_shutdown_every_player_reads_the_farewell_and_his_client_closes_cleanly(tmp_path):
    """Issue 35: at shutdown some sessions got a bare "Disconnected by application" (OpenSSH
    exits 255): the server disconnected them in the moment between closing their channel and
    the client's own close. Each player now reads the farewell after his terminal is given
    back, and his client closes the connection itself (OpenSSH: exit status 0)."""
    served = await serve.start(config_from_dict(_config_dict(), tmp_path / "config.toml"),
                               host="127.0.0.1", port=0, data_dir=tmp_path)
    players = []
    try:
        for name in ("alice", "bob", "carol", "dave"):
            conn, client = await asyncssh.create_connection(
                _LikeOpenSSH, "127.0.0.1", served.server.port, username=name, known_hosts=None,
                client_keys=[asyncssh.generate_private_key("ssh-ed25519")], agent_path=None, config=None)
            screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(80, 24)))
            await screen.wait_for(f"Welcome, {name}")
            players.append((conn, client, screen))

        async def close_when_the_channel_does(conn, client, screen):
            await screen.process.wait_closed()
            # Deliberate: the test's subject. A client a network away (or a busy one) closes a
            # moment after its channel did; the server must not disconnect it meanwhile.
            await asyncio.sleep(0.3)
            client.close(conn)

        closing = [asyncio.create_task(close_when_the_channel_does(*p)) for p in players]
        await serve.shutdown(served)                     # what `shutdown now` and SIGTERM run
        await asyncio.wait_for(asyncio.gather(*closing), 20)
        for conn, client, screen in players:
            await asyncio.wait_for(conn.wait_closed(), 20)
            assert screen.process.exit_status == 0
            assert screen.text.endswith("\x1b[?1049l\r\nThe card room has closed: your chips on its "
                                        "tables are back in your balance.\r\n")
            assert client.cut_off is False               # closed by the client, not cut off
    finally:
        for conn, _, _ in players:
            conn.close()
