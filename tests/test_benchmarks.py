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
