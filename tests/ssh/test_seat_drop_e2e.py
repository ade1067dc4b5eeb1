"""End to end over a real ssh session: a player whose connection drops while the buy-in dialog is
open does not keep the seat past the time anyone has to take one (seat_hold_seconds: issue 34, it
was the sit-out limit, 15 minutes). The room runs on a fake clock; the
server, the session and the dialog are the real ones."""

from __future__ import annotations

from functools import partial

import asyncssh
from ssh_helpers import Screen, wait_for

from cardroom import serve
from cardroom.config import config_from_dict
from cardroom.room.clock import FakeClock

TABLE = "Test Hold'em"
_until = partial(wait_for, timeout=10.0, interval=0.02)


async def test_a_player_who_drops_with_the_buy_in_dialog_open_does_not_keep_the_seat(tmp_path):
    config = config_from_dict({
        "server": {"host": "127.0.0.1", "port": 2222},
        "tables": [{"name": TABLE, "game": "holdem", "structure": "fixed", "stakes": ["2", "4"],
                    "seats": 6}],
    }, tmp_path / "config.toml")
    clock = FakeClock()
    served = await serve.start(config, host="127.0.0.1", port=0, data_dir=tmp_path, clock=clock)
    try:
        conn = await asyncssh.connect("127.0.0.1", served.server.port, username="carol",
                                      client_keys=[asyncssh.generate_private_key("ssh-ed25519")],
                                      known_hosts=None, agent_path=None, config=None)
        screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=(100, 30)))
        await screen.wait_for("Welcome, carol")
        screen.send("\r")
        await screen.wait_for("Tables")
        screen.send("j")                                   # join: the seat is taken ...
        await screen.wait_for("Buy in at")                 # ... and the buy-in dialog is open
        table = served.room.tables[TABLE]
        account = served.store.find("carol").id
        assert table.seat_of(account) is not None and table.seat_of(account).stack == 0
        conn.abort()                                       # the connection drops, no goodbye
        await _until(lambda: not table.seat_of(account).connected)
        clock.advance(table.settings.seat_hold_seconds - 1)     # the time anyone has to take a seat
        assert table.seat_of(account) is not None
        clock.advance(2)
        assert table.seat_of(account) is None
        assert table.summary().players == 0
    finally:
        await serve.shutdown(served)
