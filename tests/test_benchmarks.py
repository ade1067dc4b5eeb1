"""The engine benchmark runs end to end on a few hands (no timing is asserted: speed is measured
by `python -m benchmarks engine`, never by a test)."""

from __future__ import annotations

import json
import random

import pytest

from benchmarks import engine


@pytest.mark.parametrize("key,kind", [case[1] for case in engine.CASES])
def test_the_driver_floor_plays_back_every_recorded_decision(key, kind):
    recorded = engine._record(key, kind, 30)
    # Real hands: every one ended (its last answer is a decision, then the hand was over), and the
    # draw game recorded draws.
    assert all(recorded)
    phases = {lg.phase for answers in recorded for lg in answers}
    assert phases >= {"bet"} and (("draw" in phases) == (key == "a5-draw"))
    replays = [engine._Replay(answers) for answers in recorded]
    engine._play(replays, random.Random(1))
    assert all(r.actor is None and r._i == len(a) for r, a in zip(replays, recorded))


def test_the_engine_benchmark_prints_one_row_per_case(capsys):
    assert engine.main(["--hands", "30", "--pk-hands", "2", "--reps", "1", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["case"] for r in rows] == [case[0] for case in engine.CASES]
    for r in rows:
        assert r["cardroom_hands_per_s"] > 0 and r["driver_us"] > 0 and r["hand_us"] > 0


def test_the_drivers_discards_are_a_uniform_count_then_a_uniform_subset():
    # Both libraries' drivers draw with _discards: it must pick what rng.sample with a uniform count
    # would (every count 0..most equally often, every subset of a count equally often, no repeats).
    from collections import Counter
    hole, rand, trials = ["a", "b", "c", "d", "e"], random.Random(3).random, 60_000
    picks = [engine._discards(hole, 5, rand) for _ in range(trials)]
    assert all(len(set(d)) == len(d) and set(d) <= set(hole) for d in picks)
    counts = Counter(len(d) for d in picks)
    assert sorted(counts) == [0, 1, 2, 3, 4, 5]
    assert all(abs(c - trials / 6) < 0.05 * trials / 6 for c in counts.values())
    pairs = Counter(frozenset(d) for d in picks if len(d) == 2)
    assert len(pairs) == 10 and max(pairs.values()) < 1.15 * min(pairs.values())
    assert all(len(engine._discards(hole, 3, rand)) <= 3 for _ in range(200))


@pytest.mark.parametrize("argv", [["--hands", "0"], ["--reps", "-1"], ["--pk-hands", "x"]])
def test_a_benchmark_of_nothing_is_refused_up_front(argv, capsys):
    """`--hands 0` ran the whole benchmark and ended in a ZeroDivisionError."""
    with pytest.raises(SystemExit) as stop:
        engine.main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "Traceback" not in err


def test_the_ssh_benchmark_pools_every_processs_report_into_one():
    """The scaled topology's table host and gateways each report their own counters; the room's
    report adds counts up, pools samples and keeps the longest pause of any process."""
    from benchmarks._topology import merge_status
    host = {"e": "status", "hands": 3, "settle_s": [0.1], "gc": {"0": [2, 0.01, 0.005], "1": [0, 0, 0],
                                                             "2": [1, 0.2, 0.2]},
            "slow": {"Table.act": [1, 0.06]}, "turns": [5, 1, 0, 0, 0], "last_in": None}
    gw1 = {"e": "status", "paints": 10, "pacer": {"woken": 4, "lag_ms": 2.5}, "dirty": {"Felt": 3},
           "gc": {"0": [1, 0.02, 0.02], "1": [1, 0.1, 0.1], "2": [0, 0, 0]}, "turns": [1, 0, 0, 0, 2],
           "slow": {"Table.act": [2, 0.09]}, "in_to_write": [0.01]}
    gw2 = {"e": "status", "paints": 5, "pacer": {"woken": 1, "lag_ms": 9.0}, "dirty": {"Felt": 1, "Chat": 2},
           "in_to_write": [0.02, 0.03], "last_in": 123.0}
    out = merge_status([host, gw1, gw2])
    assert out["hands"] == 3 and out["paints"] == 15 and out["settle_s"] == [0.1]
    assert out["in_to_write"] == [0.01, 0.02, 0.03]
    assert out["pacer"] == {"woken": 5, "lag_ms": 9.0}
    assert out["dirty"] == {"Felt": 4, "Chat": 2}
    assert out["gc"]["0"] == [3, 0.03, 0.02] and out["gc"]["2"] == [1, 0.2, 0.2]
    assert out["slow"] == {"Table.act": [3, 0.09]} and out["turns"] == [6, 1, 0, 0, 2]
    assert "e" not in out and "last_in" not in out


def test_the_ssh_benchmarks_targets_need_every_session_in_and_both_p99s():
    from benchmarks.ssh import targets_met

    def run(own, others, connected=10):
        return {"sessions_requested": 10, "sessions_connected": connected,
                "own_key_first_bytes_ms": {"p99": own}, "action_to_others_chat_line_ms": {"p99": others}}
    assert targets_met(run(99.0, 999.0))
    assert not targets_met(run(101.0, 10.0)) and not targets_met(run(10.0, 1001.0))
    assert not targets_met(run(10.0, 10.0, connected=9)) and not targets_met(run(None, 10.0))


def test_the_tableview_benchmark_builds_every_watchers_view_at_every_decision(capsys):
    from benchmarks import tableview
    spent, views = tableview._run(3, 1)
    per_decision = tableview.SEATS + tableview.RAILBIRDS
    assert spent > 0 and views >= 3 * 2 * per_decision and views % per_decision == 0
    assert tableview.main(["--hands", "2", "--reps", "1", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)
    assert row["views"] % per_decision == 0 and row["view_us"] > 0
