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
