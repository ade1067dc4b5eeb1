"""Levels, breaks and the tournament clock (DESIGN.md "Tournaments": a new level applies from the
first hand that starts after the time is up; breaks between hands, every table at once; pause
stops the level clock)."""

from __future__ import annotations

import random

import pytest

from cardroom.engine.betting import ANTE_BB, FIXED, NO, POT
from cardroom.engine.tournament import (
    BreakStarted, Deal, Director, Hold, Level, LevelStarted, Paused, Resumed, Schedule, ScheduleError,
)
from tests.engine.tournament.driver import sit_and_go

L1 = Level(10, blinds=(10, 20))
L2 = Level(10, blinds=(15, 30), ante=3)
L3 = Level(15, blinds=(25, 50), ante=5)


def started(players: int = 9, **kw) -> Director:
    spec = sit_and_go(players, schedule=kw.pop("schedule", Schedule((L1, L2, L3), break_every=2, break_minutes=5)),
                      **kw)
    d = Director(spec, random.Random(1))
    for i in range(players):
        d.register(f"p{i}", 0.0)
    return d


def hand(d: Director, table: int, now: float) -> Deal:
    deal = d.deal(table, now)
    assert isinstance(deal, Deal), deal
    return deal


def end(d: Director, deal: Deal, now: float) -> list:
    return d.hand_ended(deal.table, dict(zip(deal.seats, deal.stacks)), now)


def test_schedule_stages_levels_then_a_break_and_the_last_level_lasts():
    s = Schedule((L1, L2, L3), break_every=2, break_minutes=5)
    assert [(st.level, st.on_break, st.starts, st.ends) for st in s.stages()] == [
        (0, False, 0, 600), (1, False, 600, 1200), (2, True, 1200, 1500), (2, False, 1500, None)]
    assert s.stage(599.9).level == 0 and s.stage(600).level == 1
    assert s.stage(1200).on_break and s.stage(1499).on_break and not s.stage(1500).on_break
    assert s.stage(10**9) == s.stages()[-1] and s.stage(10**9).left(10**9) is None
    assert s.level_ends(1) == 600 and s.level_ends(2) == 1200 and s.level_ends(3) is None
    assert s.next_break(0).starts == 1200 and s.next_break(1200) is None


def test_no_break_after_the_last_level():
    s = Schedule((L1, L2), break_every=2, break_minutes=5)
    assert not any(st.on_break for st in s.stages())


@pytest.mark.parametrize("make", [
    lambda: Level(0, blinds=(1, 2)), lambda: Level(5), lambda: Level(5, blinds=(1, 2), bets=(2, 4)),
    lambda: Schedule(()), lambda: Schedule((L1,), break_every=1, break_minutes=0),
    lambda: Schedule((L1, Level(5, bets=(2, 4), bring_in=1))),
])
def test_levels_and_schedules_that_cannot_be_played_are_refused(make):
    with pytest.raises(ScheduleError):
        make()


def test_level_structures_for_every_family():
    nl = Level(10, blinds=(25, 50), ante=5).structure(NO)
    assert (nl.blinds, nl.ante, nl.big_blind, nl.kind) == ((25, 50), 5, 50, NO)
    limit = Level(10, blinds=(10, 20)).structure(FIXED)      # limit bets the big blind, then twice it
    assert (limit.small_bet, limit.big_bet, limit.blinds) == (20, 40, (10, 20))
    assert Level(10, blinds=(10, 20), ante=20).structure(POT, ANTE_BB).ante_style == ANTE_BB
    stud = Level(10, bets=(20, 40), ante=2, bring_in=5).structure(FIXED)
    assert (stud.small_bet, stud.big_bet, stud.ante, stud.bring_in, stud.blinds) == (20, 40, 2, 5, ())
    assert Level(10, bets=(20, 40), ante=2, bring_in=5).describe() == "ante 2, bring-in 5, 20/40"
    assert L2.describe() == "15/30 ante 3"


def test_rule_a_new_level_applies_from_the_first_hand_that_starts_after_its_time():
    d = started()
    first = hand(d, 1, 599.0)                          # starts a second before level 2
    assert first.level == 1 and first.structure.blinds == (10, 20)
    assert d.tick(600.0) == [LevelStarted(2, L2)]      # announced once ...
    assert d.tick(601.0) == []
    end(d, first, 640.0)                               # ... the hand in progress is not re-priced
    second = hand(d, 1, 641.0)
    assert second.level == 2 and second.structure.blinds == (15, 30) and second.structure.ante == 3


def test_rule_breaks_stop_every_table_between_hands():
    d = started(18, table_size=9)
    playing = hand(d, 1, 1199.0)
    assert d.tick(1200.0) == [BreakStarted(3, 5)]
    assert d.deal(2, 1200.0) == Hold(2, "break")       # every table at once
    assert d.hand_ended(1, dict(zip(playing.seats, playing.stacks)), 1230.0) == []   # a hand in progress ends
    assert d.deal(1, 1499.0) == Hold(1, "break")
    assert d.tick(1500.0) == [LevelStarted(3, L3)]
    assert hand(d, 1, 1500.0).level == 3 and hand(d, 2, 1500.0).level == 3


def test_rule_pause_stops_the_level_clock():
    d = started()
    assert d.pause(300.0) == [Paused()]
    assert d.deal(1, 301.0) == Hold(1, "the tournament is paused")
    assert d.tick(5000.0) == [] and d.elapsed(5000.0) == 300.0
    assert d.resume(5000.0) == [Resumed()]
    assert d.stage(5299.0).level == 0 and d.stage(5300.0).level == 1   # 300 s left of level 1, as paused
    deal = hand(d, 1, 5299.0)
    assert deal.level == 1


def test_pause_and_resume_refused_when_they_mean_nothing():
    from cardroom.engine.tournament import TournamentError
    d = Director(sit_and_go(9), random.Random(1))
    with pytest.raises(TournamentError, match="not running"):
        d.pause(0.0)
    d = started()
    with pytest.raises(TournamentError, match="not paused"):
        d.resume(1.0)
    d.pause(1.0)
    with pytest.raises(TournamentError, match="already paused"):
        d.pause(2.0)


def test_the_clock_starts_at_the_start():
    d = Director(sit_and_go(3), random.Random(1))
    d.register("a", 100.0)
    d.register("b", 200.0)
    assert d.elapsed(300.0) == 0.0
    d.register("c", 1000.0)                    # the sit & go fills and starts at 1000
    assert d.elapsed(1000.0) == 0.0 and d.elapsed(1600.0) == 600.0
