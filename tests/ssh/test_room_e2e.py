"""End to end: the real `cardroom serve` stack (config -> SQLite -> room -> SSH -> TUI) on
127.0.0.1:0, with keys made in a temp dir and asyncssh clients with PTYs typing keys."""

from __future__ import annotations

import asyncio
import shutil
from functools import partial

import asyncssh
import pytest

from ssh_helpers import PtyProgram, Screen, amount_box, wait_focused, wait_for
from cardroom.tui.widgets.picklist import PickList

from tests.rooms import wait_until_still

from cardroom import serve, textual_adapter
from cardroom.config import config_from_dict

TABLE = "Test Hold'em"


def _config(tmp_path, **server):
    data = {
        "server": {"host": "127.0.0.1", "port": 2222, "max_per_ip": 20, **server},
        "room": {"starting_money": "500"},
        "tables": [{"name": TABLE, "game": "holdem", "structure": "fixed", "stakes": ["2", "4"],
                    "seats": 6, "rake_percent": 0}],
    }
    return config_from_dict(data, tmp_path / "config.toml")


@pytest.fixture(params=[True, False], ids=["speedups", "no-speedups"])
async def room_server(tmp_path, request):
    """Starts servers as `cardroom serve` does, once with Textual's speedups (the default) and
    once without (`textual_speedups = false`): the fixes alone must serve the room right."""
    started = []

    async def start(**server):
        server.setdefault("textual_speedups", request.param)
        served = await serve.start(_config(tmp_path, **server), host="127.0.0.1", port=0, data_dir=tmp_path)
        started.append(served)
        assert set(textual_adapter.installed()) == set(textual_adapter.server_guards(server["textual_speedups"]))
        return served

    start.speedups = request.param
    yield start
    for served in started:
        await serve.shutdown(served)


def _key():
    return asyncssh.generate_private_key("ssh-ed25519")


def _connect(served, key, name):
    return asyncssh.connect("127.0.0.1", served.server.port, username=name, client_keys=[key],
                            known_hosts=None, agent_path=None, config=None)


_until = partial(wait_for, timeout=10.0, interval=0.02)   # a room moves slower than one app


async def _at_lobby(served, key, name, size=(100, 30)):
    """A new ssh session for `name` (a PTY of `size`), past the welcome screen to the table list."""
    conn = await _connect(served, key, name)
    screen = Screen(await conn.create_process(term_type="xterm-256color", term_size=size))
    await screen.wait_for(f"Welcome, {name}")
    screen.send("\r")                                   # to the lobby
    await screen.wait_for("Tables")
    return conn, screen


async def _sit_down(served, key, name, size=(100, 30)):
    conn, screen = await _at_lobby(served, key, name, size)
    screen.send("j")                                    # join the first table
    await screen.wait_for("Buy in at")                  # the dialog (the footer says "Buy in" too)
    table = served.room.tables[TABLE]
    # Auto Blind starts off (seed 000): these players turn it on, so hands deal without asking.
    served.room.clients[served.store.find(name).id][0].set_auto_blind(TABLE, True)   # his session
    await wait_focused(served, name, amount_box, "the buy-in box focused")
    screen.send("\r")                                   # take the offered default
    await _until(lambda: (s := table.seat_of(served.store.find(name).id)) is not None and s.stack > 0)
    return conn, screen


def _actor_name(table):
    hand = table.hand
    if hand is None or hand.over or hand.actor is None:
        return None
    return hand.players[hand.actor].name


async def test_two_players_join_a_table_and_finish_a_hand(room_server):
    served = await room_server()
    table = served.room.tables[TABLE]
    a = await _sit_down(served, _key(), "alice")
    b = await _sit_down(served, _key(), "bob")
    screens = {"alice": a[1], "bob": b[1]}
    await _until(lambda: table.hand is not None)
    first = table.hand
    name = await _wait_actor(table, first)
    await screens[name].wait_for("Fold")                # the table screen is up, offering the fold
    screens[name].send("f")                             # a fold ends a heads-up hand
    await _until(lambda: first.over)
    await _until(lambda: len(table.stats) >= 1)        # once the writer has recorded it
    assert served.store.total_money() == served.store.expected_money()
    for conn, _ in (a, b):
        conn.close()


async def test_a_buy_in_typed_in_one_burst_with_a_backspace_is_the_amount_the_keys_say(room_server):
    """Keys that arrive in one packet apply in the order typed (the adapter's editing-keys-in-place fix):
    over the offered amount (selected), "105", backspace, "0", Enter buys in for $100. Textual
    alone applied the backspace after the last "0" had gone in, and bought in for $105."""
    served = await room_server()
    table = served.room.tables[TABLE]
    conn, screen = await _at_lobby(served, _key(), "dora")
    screen.send("j")
    await screen.wait_for("Buy in at")
    await wait_focused(served, "dora", amount_box, "the buy-in box focused")
    screen.send("105\x7f0\r")                           # 1 0 5, backspace, 0, Enter: one packet
    dora = served.store.find("dora").id
    await _until(lambda: (s := table.seat_of(dora)) is not None and s.stack > 0)
    assert table.seat_of(dora).stack == 100_00
    conn.close()


async def test_a_join_and_buy_in_typed_ahead_in_one_packet_buys_in_for_the_amount_typed(room_server):
    """At the lobby, "j100" Enter in one packet (a fast typist or a paste) joins the first table and
    buys in for $100: the keys after "j" wait for the buy-in dialog that the table screen opens as
    it mounts (the adapter's keys-wait-for-their-screen fix). They used to reach the table screen before the
    dialog existed: the player sat down with nothing and no dialog."""
    served = await room_server()
    table = served.room.tables[TABLE]
    conn, screen = await _at_lobby(served, _key(), "erin")
    await wait_focused(served, "erin", lambda w: isinstance(w, PickList), "the lobby's table list focused")
    screen.send("j100\r")                               # join, 1 0 0, Enter: one packet
    erin = served.store.find("erin").id
    await _until(lambda: (s := table.seat_of(erin)) is not None and s.stack > 0)
    assert table.seat_of(erin).stack == 100_00
    conn.close()


async def _wait_actor(table, hand):
    await _until(lambda: hand.over or _actor_name(table) is not None)
    return None if hand.over else _actor_name(table)


async def test_a_resize_re_lays_the_screen(room_server):
    served = await room_server()
    conn, screen = await _sit_down(served, _key(), "carol", size=(80, 24))
    before = len(screen.text)
    screen.process.change_terminal_size(120, 40)
    await _until(lambda: len(screen.text) > before + 500)
    assert served.server.sessions and all(s.app for s in served.server.sessions)
    conn.close()


async def test_a_client_killed_mid_hand_reconnects_and_resumes(room_server):
    served = await room_server()
    table = served.room.tables[TABLE]
    key_a, key_b = _key(), _key()
    a = await _sit_down(served, key_a, "alice")
    b = await _sit_down(served, key_b, "bob")
    await _until(lambda: table.hand is not None and _actor_name(table) is not None)
    victim = _actor_name(table)
    conn = a[0] if victim == "alice" else b[0]
    conn.abort()                                        # the connection drops without a goodbye
    account = served.store.find(victim).id
    await _until(lambda: not table.seat_of(account).connected)
    assert table.seat_of(account) is not None           # the seat is kept
    again = await _connect(served, key_a if victim == "alice" else key_b, victim)
    screen = Screen(await again.create_process(term_type="xterm-256color", term_size=(100, 30)))
    await screen.wait_for(f"Welcome, {victim}")
    await _until(lambda: table.seat_of(account).connected)
    hand = table.hand
    assert _actor_name(table) == victim                  # still his decision, in the same hand
    served.room.clients[account][0].act(TABLE, "fold")  # the hand resumes with him
    assert hand.over or _actor_name(table) != victim
    again.close()


async def test_refusals_leave_the_server_healthy(room_server):
    served = await room_server(max_per_ip=3)
    key = _key()
    async with _connect(served, key, "dave") as conn:
        ran = await conn.run("ls")                       # exec: told what runs here (ssh/extras.py)
        assert ran.exit_status == 1 and "not a command here" in ran.stderr
    async with _connect(served, key, "dave") as conn, conn.start_sftp_client() as sftp:
        assert await sftp.listdir("/") == [".", ".."]    # his own folder: no hands yet
    async with _connect(served, key, "dave") as conn:
        with pytest.raises(asyncssh.ChannelOpenError):
            await conn.create_connection(asyncssh.SSHTCPSession, "127.0.0.1", 80)
        proc = await conn.create_process(term_type=None)   # no PTY: one line of help, exit 1
        out = await asyncio.wait_for(proc.stdout.read(), 5)
        assert "ssh" in out.lower() or "terminal" in out.lower()
    conns = [await _connect(served, key, "dave") for _ in range(3)]
    with pytest.raises(asyncssh.DisconnectError, match="too many"):
        await _connect(served, key, "dave")
    for c in conns:
        c.close()
    conn, screen = await _sit_down(served, _key(), "erin")  # still serving
    conn.close()


async def test_a_name_no_key_may_use_is_refused_with_the_reason(room_server):
    """Found by a play-tester: an admin key logging in as 'root' got only 'Permission denied
    (publickey)', which reads as a problem with the key; 'root' is kept for the house. Such names
    are refused before any key is tried, with the reason. A new look-alike of a player's name too."""
    served = await room_server()
    conn, screen = await _at_lobby(served, _key(), "bob")
    conn.close()
    for name, reason in (("root", "kept for the house"), ("Dealer", "kept for the house"),
                         ("B0B", "looks like another player's")):
        with pytest.raises(asyncssh.DisconnectError, match=reason):
            await _connect(served, _key(), name)
    conn, screen = await _at_lobby(served, _key(), "carol")   # other names still log in
    conn.close()


async def test_a_login_while_another_process_holds_the_database_is_told_why(room_server):
    """Issue 19: a login while another process held the database ended in 'internal error'
    (and froze every session while it waited). Now it waits off the loop and, the database
    still held past the busy timeout, the player reads why."""
    import sqlite3

    served = await room_server()
    held = sqlite3.connect(served.store.path, isolation_level=None)
    held.execute("BEGIN EXCLUSIVE")
    try:
        async with _connect(served, _key(), "newcomer") as conn:
            proc = await conn.create_process(term_type="xterm-256color", term_size=(100, 30))
            out = await asyncio.wait_for(proc.stdout.read(), 30)
            assert "records are busy" in out and "internal error" not in out
    finally:
        held.execute("ROLLBACK")
        held.close()
    conn, _ = await _at_lobby(served, _key(), "newcomer")   # and logs in once it is free
    conn.close()


async def test_admin_credit_kick_and_ban(room_server):
    from cardroom.admin.commands import AdminContext, execute

    served = await room_server()
    key = _key()
    conn, screen = await _sit_down(served, key, "frank")
    ctx = AdminContext(served.room, served.store, "console", lambda: None)
    assert (await execute(ctx, "credit frank 25 welcome bonus")).ok
    frank = served.store.find("frank")
    client = served.room.clients[frank.id][0]
    assert client.my_money().balance == frank.balance_cents
    assert (await execute(ctx, "kick frank stalling")).ok
    table = served.room.tables[TABLE]
    await _until(lambda: table.seat_of(frank.id) is None)
    assert (await execute(ctx, "ban frank cheating")).ok
    await asyncio.wait_for(screen.process.wait_closed(), 30)   # his session is ended
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
        async with _connect(served, key, "frank"):
            pass
    assert served.store.total_money() == served.store.expected_money()


async def test_a_players_own_action_is_painted_within_the_action(room_server, monkeypatch):
    """The table screen paints right after its player's own action (textual_adapter.paint_now), not
    after the four loop turns of Textual's repaint path, which wait behind every other session."""
    from cardroom.ssh.session import AppSession

    if not room_server.speedups:
        pytest.skip("painting at once is one of Textual's speedups")

    written: list[int] = []
    painted: list[tuple[str, int]] = []          # (whose app, bytes written inside the call)
    write = AppSession.write
    monkeypatch.setattr(AppSession, "write", lambda self, data: (written.append(len(data)), write(self, data))[1])
    paint = textual_adapter.paint_now

    def counted(app):
        before = len(written)
        paint(app)
        painted.append((app.client.name, len(written) - before))

    monkeypatch.setattr(textual_adapter, "paint_now", counted)
    served = await room_server()
    table = served.room.tables[TABLE]
    a = await _sit_down(served, _key(), "alice")
    b = await _sit_down(served, _key(), "bob")
    await _until(lambda: table.hand is not None and _actor_name(table) is not None)
    actor = _actor_name(table)
    screen = a[1] if actor == "alice" else b[1]
    await screen.wait_for("Fold")                       # the actor's table screen offers his keys
    await wait_until_still(lambda: (len(a[1].text), len(b[1].text)), still=0.2, timeout=10,
                           what="both screens settled")
    painted.clear()
    screen.send("c")
    await _until(lambda: any(who == actor for who, _ in painted))
    assert next(n for who, n in painted if who == actor) > 0    # bytes went out inside the call
    for conn, _ in (a, b):
        conn.close()


async def _login_from(served, key, name, source):
    """A session for `name` (a PTY) from the loopback address `source`."""
    conn = await asyncssh.connect("127.0.0.1", served.server.port, username=name, client_keys=[key],
                                  known_hosts=None, agent_path=None, config=None, local_addr=(source, 0))
    return conn, Screen(await conn.create_process(term_type="xterm-256color", term_size=(100, 30)))


def _ended(screen) -> bool:
    return screen.task.done()        # the server closed the session's output


async def test_a_burst_of_logins_for_one_account_leaves_one_session_and_a_ban_ends_it(room_server, monkeypatch):
    """Found by an attack: 20 OpenSSH logins for one account at once left 7 live sessions (100
    asyncssh logins left 77); they survived a ban, and one took a seat while banned. A login took
    over only the sessions whose app had mounted and was listening. Now the room ends every older
    session of the account (over ssh: hangs it up, saying why) and a closed session can do
    nothing. 30 logins from 30 addresses at once."""
    from cardroom.admin.commands import AdminContext, execute
    from cardroom.room.api import RoomError

    served = await room_server(max_per_ip=40)
    made = []                                           # every session's handle on the room
    login = served.room.login

    async def logging_in(*args, **kwargs):
        made.append(await login(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(served.room, "login", logging_in)
    key = _key()
    screens = [screen for _, screen in await asyncio.gather(
        *(_login_from(served, key, "mallory", f"127.0.2.{i}") for i in range(1, 31)))]
    await _until(lambda: len(made) == 30 and sum(map(_ended, screens)) == 29)
    (alive,) = [screen for screen in screens if not _ended(screen)]
    for screen in screens:
        if screen is not alive:
            assert "You logged in from somewhere else: this session is closed" in screen.plain
    await alive.wait_for("Welcome, mallory")
    mallory = served.store.find("mallory").id
    assert [c for c in made if not c.closed] == served.room.clients[mallory]
    assert len(served.server.sessions) == 1

    ctx = AdminContext(served.room, served.store, "console", lambda: None)
    assert (await execute(ctx, "ban mallory chip dumping")).ok
    await _until(lambda: all(map(_ended, screens)))
    assert alive.plain.endswith("You are banned from the card room: chip dumping\r\n")
    assert mallory not in served.room.clients and not served.server.sessions
    for client in made:                                 # none of them can sit down any more
        with pytest.raises(RoomError):
            client.join(TABLE)
    assert served.room.tables[TABLE].seat_of(mallory) is None
    with pytest.raises((asyncssh.PermissionDenied, asyncssh.DisconnectError)):
        await _connect(served, key, "mallory")


async def test_a_kicked_player_is_told_why_and_his_session_ends(room_server):
    from cardroom.admin.commands import AdminContext, execute

    served = await room_server()
    _, screen = await _sit_down(served, _key(), "oscar")
    ctx = AdminContext(served.room, served.store, "console", lambda: None)
    assert (await execute(ctx, "kick oscar stalling")).ok
    await _until(lambda: _ended(screen))
    assert screen.plain.endswith(f"An admin removed you from {TABLE}: stalling\r\n")
    assert screen.text.rindex("\x1b[?1049l") < screen.text.rindex("An admin removed you")   # after the TUI
    assert not served.server.sessions
    assert served.room.tables[TABLE].seat_of(served.store.find("oscar").id) is None


def _last_lines(program, n):
    """The last `n` lines a terminal program left, after the alternate screen was left."""
    shown = program.output.decode(errors="replace").rpartition("\x1b[?1049l")[2]
    return [line.strip() for line in shown.splitlines() if line.strip()][-n:]


@pytest.mark.skipif(shutil.which("ssh") is None, reason="needs the OpenSSH client `ssh` on PATH")
async def test_openssh_prints_why_a_session_was_taken_over_or_banned(room_server, tmp_path):
    """Seen with the stock client: a player taken over or banned read only "Connection to ...
    closed". Now the reason is written on his terminal after the TUI has given it back, so it
    stays there above OpenSSH's own last line."""
    from cardroom.admin.commands import AdminContext, execute

    served = await room_server()
    key = _key()
    key_file = tmp_path / "id_quinn"
    key_file.write_bytes(key.export_private_key())
    key_file.chmod(0o600)
    ssh = ("ssh", "-tt", "-F", "/dev/null", "-p", str(served.server.port), "-i", str(key_file),
           "-o", "IdentitiesOnly=yes", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
           "-o", "UserKnownHostsFile=/dev/null", "quinn@127.0.0.1")
    first = await PtyProgram(*ssh).start()
    second = PtyProgram(*ssh)
    try:
        assert await first.wait_for("Welcome, quinn"), first.plain[-300:]
        await second.start()
        assert await second.wait_for("Welcome, quinn"), second.plain[-300:]
        await first.ended()
        assert _last_lines(first, 2) == ["You logged in from somewhere else: this session is closed",
                                         "Connection to 127.0.0.1 closed."], first.plain[-400:]
        ctx = AdminContext(served.room, served.store, "console", lambda: None)
        assert (await execute(ctx, "ban quinn cheating")).ok
        await second.ended()
        assert _last_lines(second, 2) == ["You are banned from the card room: cheating",
                                          "Connection to 127.0.0.1 closed."], second.plain[-400:]
    finally:
        await first.stop()
        if hasattr(second, "proc"):
            await second.stop()
