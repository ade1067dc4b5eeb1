"""Crash tests for tournaments, one process: a real room (crash_worker.py next to this file) deals
an 18-player sit & go on three tables with practice bots, on a SQLite file with the loop's clock
and the store's writer thread, and is killed with SIGKILL -- mid-hand (at random moments: a hand is
nearly always in progress somewhere) and mid-move (as soon as it says it moved a player in memory,
with that move's store write on its way or just done) -- then restarted on the same file.

After every kill, before any recovery: the ledger adds up to the cent (the audit, which covers the
tournaments' pools, fees and prizes). After every restart: each tournament the store held resumes
exactly as its last snapshot has it -- the same players, the same chips, the same level and time
left, everyone seated with his chips -- and every hand the kill cut off is void."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.room.test_room_crash import REPO, Worker, check_money, db_state

WORKER = Path(__file__).resolve().parent / "crash_worker.py"


class TournamentWorker(Worker):
    def __init__(self, db: Path, seed: int, *extra: str) -> None:      # noqa: D107 - Worker's, on our script
        self.proc = subprocess.Popen([sys.executable, str(WORKER), str(db), str(seed), *extra],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=REPO)
        self.lines = []
        self._buf = b""


def stored(db: Path) -> dict[str, dict]:
    """The snapshot of each tournament the store holds as registering or running."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return {str(n): json.loads(s) for n, s in conn.execute(
            "SELECT id, snapshot FROM tournaments WHERE state IN ('registering', 'running')")}
    finally:
        conn.close()


def check_resumed(start: dict, expected: dict[str, dict]) -> int:
    """Each tournament resumed as its last snapshot has it (and any other is one opened now, with
    nobody in it); how many were running."""
    from tests.room.tournaments.crash_worker import SPEC
    assert set(expected) <= set(start["tournaments"]), (start["tournaments"].keys(), expected.keys())
    for number in set(start["tournaments"]) - set(expected):
        assert start["tournaments"][number]["state"] == "registering"
        assert start["tournaments"][number]["entries"] == {}
    running = 0
    for number, snap in expected.items():
        got = start["tournaments"][number]
        assert got["state"] == snap["state"]
        assert got["entries"] == {str(n): [p, c, o] for n, p, c, o, _ in snap["entries"]}
        # The time left where it was: the clock goes on from the snapshot's (what ran since the
        # restore, before the worker said so, is a moment).
        assert snap["clock"] <= got["clock"] < snap["clock"] + (1.0 if got["state"] == "running" else 1e-6)
        assert got["level"] == SPEC.schedule.stage(snap["clock"]).level
        if snap["state"] == "running":
            running += 1
            assert got["seated"] == {str(n): c for n, _, c, o, _ in snap["entries"] if not o}
    return running


def crash_run(tmp_path: Path, seed: int, kills: int, budget: float) -> dict:
    rng = random.Random(seed)
    db = tmp_path / f"tournament-{seed}.sqlite3"
    figures = {"kills": 0, "mid_move": 0, "resumed_running": 0, "voided": 0}
    started = time.monotonic()
    expected: dict[str, dict] = {}
    live: list[str] = []
    for _ in range(kills):
        if time.monotonic() - started > budget and figures["kills"] >= 12:
            break
        w = TournamentWorker(db, rng.getrandbits(32))
        start = w.wait_for("started")
        assert start["in_progress"] == 0 and set(start["voided"]) == set(live), (start, live)
        figures["voided"] += len(start["voided"])
        figures["resumed_running"] += check_resumed(start, expected)
        w.wait_for("ready")
        if rng.random() < 0.5:
            try:
                w.wait_for("moved", timeout=60)    # it moved a player in memory: kill it now
            except AssertionError as e:
                raise AssertionError(f"{e}; last lines {w.lines[-3:]}; tournaments {stored(db)}") from None
            figures["mid_move"] += 1
        else:
            w.read(rng.uniform(0.05, 1.5))
        w.kill()
        figures["kills"] += 1
        check_money(db)                            # conserved to the cent, before any recovery
        state = db_state(db)
        assert state["negative"] == 0, state
        live = state["live"]
        expected = stored(db)
    w = TournamentWorker(db, 0, "recover")
    start = w.wait_for("started")
    w.proc.wait(30)
    w.kill()
    assert set(start["voided"]) == set(live)
    check_resumed(start, expected)
    check_money(db)
    assert db_state(db)["live"] == []
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        figures["finished"] = conn.execute("SELECT COUNT(*) FROM tournaments WHERE state = 'finished'").fetchone()[0]
        figures["hands"] = conn.execute("SELECT COUNT(*) FROM hands WHERE status = 'settled'").fetchone()[0]
    finally:
        conn.close()
    figures["seconds"] = round(time.monotonic() - started, 1)
    return figures


def test_a_tournament_survives_sigkill_mid_hand_and_mid_move(tmp_path):
    figures = crash_run(tmp_path, seed=20260601, kills=14, budget=40.0)
    print(f"\ntournament crash test: {figures}")
    assert figures["kills"] >= 12 and figures["mid_move"] >= 3
    assert figures["resumed_running"] >= 5 and figures["voided"] > 0 and figures["hands"] > 0


@pytest.mark.deep
def test_a_tournament_survives_sigkill_deep(tmp_path):
    total: dict = {}
    for seed in range(3):
        for k, v in crash_run(tmp_path, seed=seed, kills=50, budget=600.0).items():
            total[k] = total.get(k, 0) + v
    print(f"\ntournament crash test (deep): {total}")
