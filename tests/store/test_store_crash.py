"""Crash tests: a real child process moving money is killed with SIGKILL at random moments.

Run on every store (`db`: a SQLite file, a PostgreSQL database). After every kill the database is
reopened: money must be conserved to the cent even before recovery
(chips of a cut-off hand are in its escrow), and after ``void_unfinished_hands`` no hand is left
in progress and every account/table row agrees with the ledger. Kills land anywhere: during
start-up, migration, recovery itself, buy-ins, hands, settlements, cash-outs, admin adjustments.
"""

import json
import os
import random
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardroom.store import open_store

REPO = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent('''
    import json, random, sys, time
    from cardroom.room.ports import HandStart, InsufficientFunds, SeatStack
    from cardroom.store import open_store

    where, seed, mode = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    rng = random.Random(seed)
    store = open_store(where)
    store.void_unfinished_hands()                      # start-up recovery (may itself be killed)
    players = [store.get_or_create(f"p{i}", 10_000) for i in range(4)]
    admin = store.get_or_create("admin", 0)
    TABLE = "t1"

    if mode == "hang":                                 # a deterministic mid-hand death
        for p in players:
            if store.table_chips(p.id, TABLE) == 0:
                store.buy_in(p.id, TABLE, 1_000)
        before = {p.id: store.table_chips(p.id, TABLE) for p in players}
        store.begin_hand(HandStart(TABLE, tuple(
            SeatStack(i, p.id, before[p.id]) for i, p in enumerate(players))))
        print(json.dumps({str(k): v for k, v in before.items()}), flush=True)
        time.sleep(60)                                 # hang mid-hand until the test kills it

    print("ready", flush=True)
    while True:
        for p in players:
            if store.table_chips(p.id, TABLE) < 500:
                try:
                    store.buy_in(p.id, TABLE, rng.randint(500, 3_000))
                except InsufficientFunds:
                    store.credit(p.id, 5_000, "top up the test", "admin")
        seated = [p for p in players if store.table_chips(p.id, TABLE) > 0]
        stacks = {p.id: rng.randint(1, store.table_chips(p.id, TABLE)) for p in seated}
        hand_id = store.begin_hand(HandStart(TABLE, tuple(
            SeatStack(i, a, s) for i, (a, s) in enumerate(stacks.items())), deck="As Kd")).hand_id
        time.sleep(rng.random() * 0.003)               # the hand being played
        pot = sum(stacks.values())
        rake = min(pot // 20, 300)
        left, ends = pot - rake, {}
        for i, a in enumerate(stacks):
            ends[a] = left if i == len(stacks) - 1 else rng.randint(0, left)
            left -= ends[a]
        store.settle_hand(hand_id, {a: ends[a] - stacks[a] for a in stacks}, rake,
                          json.dumps([{"pot": pot}]), "history")
        p = rng.choice(players)
        if rng.random() < 0.3 and store.table_chips(p.id, TABLE):
            store.cash_out(p.id, TABLE, rng.randint(1, store.table_chips(p.id, TABLE)))
        if rng.random() < 0.1 and store.balance(p.id):
            store.debit(p.id, rng.randint(1, store.balance(p.id)), "test debit", "admin")
''')


def spawn(tmp_path, db, seed, mode="loop"):
    script = tmp_path / "child.py"
    if not script.exists():
        script.write_text(CHILD)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [str(REPO)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    return subprocess.Popen([sys.executable, str(script), str(db), str(seed), mode],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)


def readline(proc, timeout=20.0):
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    if not ready:
        proc.kill()
        raise AssertionError("the child never reported in: " + proc.stderr.read())
    line = proc.stdout.readline()
    if not line:
        proc.wait()
        raise AssertionError("the child died: " + proc.stderr.read())
    return line.strip()


def kill(proc):
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, proc.stderr.read()
    proc.stdout.close()
    proc.stderr.close()


def check_after_crash(db):
    """Reopen the crashed database the way the room starts up, and check every cent."""
    with open_store(db.where) as store:
        # Conserved already before recovery: a cut-off hand's chips sit in its escrow.
        assert store.total_money() == store.expected_money()
        store.audit()
        voided = store.void_unfinished_hands()
        assert store.total_money() == store.expected_money()
        store.audit()
    conn = db.raw()
    try:
        assert conn.execute("SELECT COUNT(*) FROM hands WHERE status = 'in_progress'"
                            ).fetchone()[0] == 0
        low = conn.execute("SELECT MIN(x) FROM (SELECT MIN(balance_cents) AS x FROM accounts"
                           " UNION ALL SELECT MIN(chips_cents) FROM table_chips) AS m").fetchone()[0]
        assert low is None or low >= 0
        settled = conn.execute("SELECT COUNT(*) FROM hands WHERE status = 'settled'").fetchone()[0]
    finally:
        conn.close()
    return len(voided), settled


def crash_loop(tmp_path, db, kills, seed):
    rng = random.Random(seed)
    total_voided = settled = 0
    for i in range(kills):
        proc = spawn(tmp_path, db.where, rng.randrange(2**32))
        if i % 3 == 2:
            time.sleep(rng.uniform(0.0, 0.3))          # anywhere, start-up and recovery included
        else:
            assert readline(proc) == "ready"
            time.sleep(rng.uniform(0.0, 0.25))         # a random moment of play to kill it in
        kill(proc)
        voided, settled = check_after_crash(db)
        total_voided += voided
    assert settled > 0, "the child never got as far as settling a hand"
    return total_voided, settled


def test_sigkill_at_random_moments_conserves_money(tmp_path, db):
    voided, settled = crash_loop(tmp_path, db, kills=8, seed=20240601)
    print(f"8 kills: {voided} hands voided, {settled} settled")


@pytest.mark.deep
def test_sigkill_at_random_moments_conserves_money_deep(tmp_path, db):
    voided, settled = crash_loop(tmp_path, db, kills=120, seed=random.SystemRandom().randrange(2**32))
    assert voided > 0
    print(f"120 kills: {voided} hands voided, {settled} settled")


def test_sigkill_mid_hand_returns_exact_start_stacks(tmp_path, db):
    proc = spawn(tmp_path, db.where, 1, mode="hang")
    before = {int(k): v for k, v in json.loads(readline(proc)).items()}
    kill(proc)
    with open_store(db.where) as store:
        assert all(store.table_chips(a, "t1") == 0 for a in before)   # all in the hand's escrow
        assert store.total_money() == store.expected_money()
        [hand_id] = store.void_unfinished_hands()
        assert store.get_hand(hand_id).status == "void"
        assert {a: store.table_chips(a, "t1") for a in before} == before
        assert store.total_money() == store.expected_money() == 4 * 10_000
        store.audit()
