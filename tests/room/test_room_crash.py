"""Crash tests for the whole room: a real process (tests/room/crash_worker.py) runs two tables of
practice bots on a SQLite file with the asyncio loop's clock and is killed with SIGKILL at random
moments (during start-up and recovery too), then restarted on the same file, again and again.

After every kill: money is conserved to the cent even before recovery (a cut-off hand's chips are
in its escrow) and the ledger audit passes. After every restart (`room.start()` in the worker):
every hand the kill cut off is void, none is left in progress, each void hand gave every seat its
start-of-hand stack back, every table chip is back in a balance, and no balance is below zero.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from cardroom.store.sqlite import SqliteStore

HERE = Path(__file__).resolve().parent
WORKER = HERE / "crash_worker.py"
REPO = HERE.parents[1]


class Worker:
    def __init__(self, db: Path, seed: int, *extra: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(WORKER), str(db), str(seed), *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
        self.lines: list[dict] = []
        self._buf = b""

    def read(self, timeout: float) -> None:
        """Collect stdout lines for up to `timeout` seconds (or until the process ends)."""
        end = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while True:
            left = end - time.monotonic()
            if left <= 0:
                return
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                return
            chunk = os.read(fd, 65536)
            if not chunk:
                return
            self._buf += chunk
            *whole, self._buf = self._buf.split(b"\n")
            self.lines += [json.loads(line) for line in whole if line.strip()]

    def wait_for(self, event: str, timeout: float = 30.0) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            for line in self.lines:
                if line["event"] == event:
                    return line
            if self.proc.poll() is not None:
                self.read(0.1)
                if any(line["event"] == event for line in self.lines):
                    continue
                raise AssertionError(f"the worker died ({self.proc.returncode}): "
                                     f"{self.proc.stderr.read().decode()[-3000:]}")
            self.read(0.05)
        raise AssertionError(f"no {event!r} from the worker in {timeout} s")

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.read(0.05)
        assert self.proc.returncode in (-signal.SIGKILL, 0), self.proc.stderr.read().decode()[-3000:]
        self.proc.stdout.close()
        self.proc.stderr.close()


def db_state(db: Path) -> dict:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        hands = dict(conn.execute("SELECT status, COUNT(*) FROM hands GROUP BY status"))
        live = [r[0] for r in conn.execute("SELECT id FROM hands WHERE status = 'in_progress'")]
        negative = conn.execute(
            "SELECT (SELECT COUNT(*) FROM accounts WHERE balance_cents < 0)"
            " + (SELECT COUNT(*) FROM table_chips WHERE chips_cents < 0)").fetchone()[0]
        return {"hands": hands, "live": live, "negative": negative}
    finally:
        conn.close()


def check_money(db: Path) -> None:
    store = SqliteStore(db)
    try:
        assert store.total_money() == store.expected_money()
        store.audit()
    finally:
        store.close()


def check_void(db: Path, hand_ids) -> None:
    """A void hand returned every seat's start-of-hand stack, nothing more, nothing less."""
    store = SqliteStore(db)
    try:
        for hand_id in hand_ids:
            record = store.get_hand(hand_id)
            assert record.status == "void", record
            moved = {}
            for e in store.ledger(hand_id=hand_id, limit=500):
                assert e.kind in ("hand_start", "hand_void"), e
                sign = 1 if e.kind == "hand_start" else -1
                moved[e.account_id] = moved.get(e.account_id, 0) + sign * e.amount_cents
            assert set(moved.values()) == {0}, moved
            assert {s.account_id: s.start_cents for s in record.seats} == {
                e.account_id: e.amount_cents for e in store.ledger(hand_id=hand_id, limit=500)
                if e.kind == "hand_void"}
    finally:
        store.close()


def crash_run(tmp_path: Path, seed: int, kills: int, budget: float) -> dict:
    rng = random.Random(seed)
    db = tmp_path / f"room-{seed}.sqlite3"
    figures = {"kills": 0, "voided": 0, "kills_in_startup": 0, "settled": 0}
    started = time.monotonic()
    expected_void: list[str] = []
    for _ in range(kills):
        if time.monotonic() - started > budget and figures["kills"] >= 20:
            break
        w = Worker(db, rng.getrandbits(32))
        if rng.random() < 0.15:
            # Kill it during start-up: imports, migration, or the recovery itself.
            time.sleep(rng.uniform(0.0, 2.5))      # a random moment: the waiting is the point
            w.kill()
            figures["kills"] += 1
            if not any(line["event"] == "started" for line in w.lines):
                figures["kills_in_startup"] += 1
            else:
                start = next(line for line in w.lines if line["event"] == "started")
                assert start["in_progress"] == 0 and start["table_chips"] == 0, start
                assert set(start["voided"]) == set(expected_void)
                check_void(db, start["voided"])
                figures["voided"] += len(start["voided"])
                expected_void = []
        else:
            start = w.wait_for("started")
            # room.start(): exactly the hands the last kill cut off are void, nothing is left in
            # progress, every chip left on a table is back in a balance.
            assert start["in_progress"] == 0 and start["table_chips"] == 0, start
            assert set(start["voided"]) == set(expected_void), (start, expected_void)
            figures["voided"] += len(start["voided"])
            w.wait_for("ready")
            check_void(db, start["voided"])
            w.read(rng.uniform(0.01, 0.6))
            w.kill()
            figures["kills"] += 1
        # After the kill, before any recovery: conserved to the cent, escrow included.
        check_money(db)
        state = db_state(db)
        assert state["negative"] == 0, state
        assert len(state["live"]) <= 2, state          # at most one live hand per table
        expected_void = state["live"]
    # A last, clean start-up.
    w = Worker(db, 0, "recover")
    start = w.wait_for("started")
    w.proc.wait(30)
    w.kill()
    assert set(start["voided"]) == set(expected_void)
    assert start["in_progress"] == 0 and start["table_chips"] == 0
    check_void(db, start["voided"])
    figures["voided"] += len(start["voided"])
    check_money(db)
    state = db_state(db)
    assert state["live"] == [] and state["negative"] == 0
    assert set(state["hands"]) <= {"settled", "void"}
    figures["settled"] = state["hands"].get("settled", 0)
    figures["voided"] = state["hands"].get("void", 0)    # incl. recoveries killed before printing
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def test_room_survives_sigkill(tmp_path):
    figures = crash_run(tmp_path, seed=20261129, kills=22, budget=35.0)
    print(f"\nroom crash test: {figures}")
    assert figures["kills"] >= 20
    assert figures["settled"] > 0 and figures["voided"] > 0


@pytest.mark.deep
def test_room_survives_sigkill_deep(tmp_path):
    total = {}
    for seed in range(4):
        figures = crash_run(tmp_path, seed=seed, kills=60, budget=600.0)
        for k, v in figures.items():
            total[k] = total.get(k, 0) + v
    print(f"\nroom crash test (deep): {total}")
    assert total["kills"] >= 200
