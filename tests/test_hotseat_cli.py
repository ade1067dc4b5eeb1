"""`cardroom hotseat` as a real process: it needs a terminal, and it keeps its room in the user's
data folder (platformdirs), the same database from one game to the next, not a new temporary one."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardroom.cli import hotseat_data_dir
from cardroom.store.sqlite import SqliteStore


def _hotseat(tmp_path, *args, **streams):
    """`cardroom hotseat` in a process of its own; its home, data folder and TMPDIR in tmp_path."""
    root = Path(__file__).resolve().parents[1]
    (tmp_path / "tmp").mkdir(exist_ok=True)
    env = dict(os.environ, TMPDIR=str(tmp_path / "tmp"), HOME=str(tmp_path / "home"),
               XDG_DATA_HOME=str(tmp_path / "data"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")])))
    return subprocess.Popen([sys.executable, "-m", "cardroom", "hotseat", "--players", "alice",
                             "--bots", "1", "--seed", "1", *args], env=env, **streams)


def _play(tmp_path, ending="ctrl+q", *args):
    """Run hot-seat at a terminal until alice's table is up, then end it; returns the exit code."""
    terminal, terminal_end = os.openpty()
    proc = _hotseat(tmp_path, *args, stdin=terminal_end, stdout=terminal_end, stderr=terminal_end)
    shown = b""

    def read_until(done, timeout=30.0):
        nonlocal shown
        deadline = time.monotonic() + timeout
        while not done() and time.monotonic() < deadline:
            if select.select([terminal], [], [], 0.1)[0]:
                try:
                    shown += os.read(terminal, 65536)
                except OSError:        # the other end closed
                    break

    try:
        read_until(lambda: b"alice" in shown)
        assert b"alice" in shown, shown[-2000:]
        if ending == "ctrl+q":
            os.write(terminal, b"\x11")
        else:
            proc.send_signal(getattr(signal, ending))
        read_until(lambda: proc.poll() is not None)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    return proc.returncode


def test_the_default_folder_is_the_users_data_folder(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert hotseat_data_dir(None) == tmp_path / "cardroom"
    assert hotseat_data_dir(str(tmp_path / "mine")) == tmp_path / "mine"


def test_hotseat_without_a_terminal_exits_at_once_with_a_message(tmp_path):
    """It used to read end-of-file for ever at 100% CPU."""
    proc = _hotseat(tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 2
    assert err.decode().startswith("cardroom hotseat: it is played at a terminal, and stdin and "
                                   "stderr are not one") and "Traceback" not in err.decode()
    assert out == b"" and not (tmp_path / "data").exists()


@pytest.mark.parametrize("ending", ["ctrl+q", "SIGTERM", "SIGHUP"])
def test_hotseat_keeps_its_room_in_the_users_data_folder(tmp_path, ending):
    """Quit from the keyboard, stopped with kill, or its terminal closed: the database stays in
    the data folder (nothing is left in TMPDIR), with every chip back in its owner's balance."""
    assert _play(tmp_path, ending) == 0
    db = tmp_path / "data" / "cardroom" / "cardroom.sqlite3"
    assert db.exists()
    assert list((tmp_path / "tmp").iterdir()) == []
    with SqliteStore(db) as store:
        assert {a.name for a in store.accounts()} == {"alice", "bot1"}
        assert store.holdings(store.find("alice").id) == {}      # cashed out when play ended
        assert store.total_money() == store.expected_money()


def test_a_second_game_plays_on_with_the_balances_of_the_first(tmp_path):
    assert _play(tmp_path) == 0
    db = tmp_path / "data" / "cardroom" / "cardroom.sqlite3"
    with SqliteStore(db) as store:
        alice = store.find("alice")
        store.debit(alice.id, alice.balance_cents - 5_000, "lost it all but $50", "test")
    assert _play(tmp_path) == 0
    with SqliteStore(db) as store:
        assert len(store.accounts()) == 2                       # the same accounts, not new ones
        assert [e.kind for e in store.ledger(store.find("alice").id)].count("open") == 1
        assert store.balance(store.find("alice").id) == 5_000   # no new starting money


def test_an_explicit_data_dir_is_used_instead(tmp_path):
    assert _play(tmp_path, "ctrl+q", "--data-dir", str(tmp_path / "mine")) == 0
    assert (tmp_path / "mine" / "cardroom.sqlite3").exists()
    assert not (tmp_path / "data").exists()


def test_a_local_player_without_the_minimum_buy_in_is_told_so(tmp_path):
    folder = tmp_path / "data" / "cardroom"
    folder.mkdir(mode=0o700, parents=True)
    with SqliteStore(folder / "cardroom.sqlite3") as store:
        alice = store.get_or_create("alice", 100_000)
        store.debit(alice.id, 100_000, "broke", "test")
        bot = store.get_or_create("bot1", 100_000)
        store.debit(bot.id, 100_000, "broke", "test")
    terminal, terminal_end = os.openpty()
    proc = _hotseat(tmp_path, stdin=terminal_end, stdout=terminal_end, stderr=terminal_end)
    try:
        proc.wait(timeout=30)
        shown = b""
        while select.select([terminal], [], [], 0.1)[0]:
            shown += os.read(terminal, 65536)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    assert proc.returncode == 1
    assert b"alice has $0 here, less than the minimum buy-in" in shown and b"Traceback" not in shown
    with SqliteStore(folder / "cardroom.sqlite3") as store:
        assert store.balance(store.find("bot1").id) == 100_000   # the practice bot was refilled
        assert store.total_money() == store.expected_money()


CONFIG = Path(__file__).resolve().parents[1] / "config.toml"


def test_a_hotseat_sit_and_go_is_played_and_closing_it_cancels_it(tmp_path):
    """`cardroom hotseat --tournament NAME`: config.toml's sit & go with alice and eight practice
    bots, at a real terminal; Ctrl-Q before its end cancels it: the pool shared by chips, the
    fee the house's, every chip of money accounted for, the audit clean."""
    from cardroom.store.audit import check_store

    assert _play(tmp_path, "ctrl+q", "--tournament", "Sit & Go Hold'em 9", "--bots", "8",
                 "--config", str(CONFIG)) == 0
    with SqliteStore(tmp_path / "data" / "cardroom" / "cardroom.sqlite3") as store:
        assert {a.name for a in store.accounts()} == {"alice", *(f"bot{i}" for i in range(1, 9))}
        [played] = store.tournaments_of(store.find("alice").id)
        assert played.state == "cancelled" and played.pool_cents == 0
        shares = sum(store.balance(a.id) for a in store.accounts()) - 9 * 100_000
        assert shares == -9 * 100                  # the buy-ins came back as shares; the fees stayed
        assert check_store(store) == [] and store.total_money() == store.expected_money()


@pytest.mark.parametrize("args, says", [
    (["--tournament", "No Such Cup"], 'has no tournament called "No Such Cup": it has "Sit & Go Hold'),
    (["--tournament", "Hourly PLO"], "is a scheduled tournament: hot-seat plays a sit & go"),
    (["--tournament", "45-Player Sit & Go", "--players", "a,b", "--bots", "44"], "take the other 43 seats"),
    (["--tournament", "Draw Lo Sit & Go", "--players", "a,b,c,d,e,f,g"], "seats 6 players: 7 local players"),
    (["--tournament", "Draw Lo Sit & Go", "--players", "a,b", "--bots", "2"], "take the other 4 seats"),
    (["--tournament", "Draw Lo Sit & Go", "--players", "a,A"], "too alike"),
])
def test_bad_hotseat_tournaments_are_refused_with_a_message(args, says, capsys):
    from cardroom.cli import main

    assert main(["hotseat", "--config", str(CONFIG), *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardroom hotseat: ") and says in err and "Traceback" not in err


def test_a_hotseat_sit_and_go_dearer_than_the_starting_money_refills_its_bots_enough(tmp_path):
    """A room whose starting money ($5) is below the sit & go's buy-in and fee ($11): the bots,
    refilled to the starting money, could not pay (the refill of a new bot, $5 - $5, was a
    credit of nothing: InvalidAmount, a traceback); they are refilled to the buy-in and fee, and
    alice, rich from before, plays; a local player short of it is told whose buy-in it is."""
    import re

    config = tmp_path / "config.toml"
    config.write_text(re.sub(r'starting_money = "[0-9.]+"', 'starting_money = "5"', CONFIG.read_text()))
    folder = tmp_path / "data" / "cardroom"
    folder.mkdir(mode=0o700, parents=True)
    db = folder / "cardroom.sqlite3"
    with SqliteStore(db) as store:
        store.get_or_create("alice", 100_000)
    db.chmod(0o600)
    args = ("--tournament", "Sit & Go Hold'em 9", "--bots", "8", "--config", str(config))
    assert _play(tmp_path, "ctrl+q", *args) == 0
    with SqliteStore(db) as store:
        assert store.tournaments_of(store.find("alice").id)[0].state == "cancelled"
        assert all(store.balance(store.find(f"bot{i}").id) >= 1_100 - 100 for i in range(1, 9))
        assert store.total_money() == store.expected_money()
    terminal, terminal_end = os.openpty()
    proc = _hotseat(tmp_path, *args, "--players", "bob", stdin=terminal_end, stdout=terminal_end,
                    stderr=terminal_end)
    shown = b""
    try:
        proc.wait(timeout=60)
        while select.select([terminal], [], [], 0.1)[0]:
            shown += os.read(terminal, 65536)
    finally:
        if proc.poll() is None:
            proc.kill()
        os.close(terminal)
        os.close(terminal_end)
    assert proc.returncode == 1 and b"Traceback" not in shown
    assert b"bob has $5 here, less than Sit & Go Hold'em 9's buy-in and fee ($11)" in shown, shown[-1000:]
