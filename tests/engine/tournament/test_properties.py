"""Random tournaments, 2 to 200 players, every game family, driven with random hand results
(driver.py): chips in play constant every hand; after each balancing no table has two more
players than another; nobody skips or pays twice the big blind across a move; places are a
permutation of 1..entrants; prizes sum to the pool. The default run is bounded; --deep runs the
whole range."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.engine.betting import STRUCTURES
from cardroom.engine.tournament import PayoutBand, Payouts, Schedule
from cardroom.engine.tournament.spec import SCHEDULED
from cardroom.engine.variants import VARIANTS
from tests.engine.tournament.driver import PAYOUTS, levels, run, sit_and_go

GAMES = sorted(VARIANTS)                  # hold'em, Omaha, stud, razz, the draws: every family


def tournaments(most: int):
    @st.composite
    def draw(draw):
        game = draw(st.sampled_from(GAMES))
        size = draw(st.integers(2, min(10, VARIANTS[game].max_seats)))
        return (sit_and_go(draw(st.integers(2, most)), size, game, draw(st.sampled_from(STRUCTURES))),
                draw(st.integers(0, 2**32)), draw(st.booleans()))
    return draw()


def late_tournaments(most: int):
    @st.composite
    def draw(draw):
        game = draw(st.sampled_from(GAMES))
        size = draw(st.integers(2, min(10, VARIANTS[game].max_seats)))
        stud = VARIANTS[game].bring_in
        late = draw(st.integers(1, 6))
        spec = sit_and_go(0, size, game, kind=SCHEDULED, seats=0, start=10.0, late_levels=late,
                          reentries=draw(st.integers(0, 2)), max_players=draw(st.sampled_from([None, most])),
                          schedule=Schedule(levels(stud), break_every=3, break_minutes=1),
                          payouts=Payouts(((PayoutBand(2, (10_000,)),) + PAYOUTS.bands[1:])))
        players = [f"p{i}" for i in range(draw(st.integers(2, most)))]
        return spec, players, draw(st.integers(0, 2**32)), draw(st.floats(0.0, 0.3))
    return draw()


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])


@settings(max_examples=25, **SETTINGS)
@given(tournaments(60))
def test_random_sit_and_gos_keep_every_rule(case):
    spec, seed, sync = case
    run(spec, seed, sync=sync)


@settings(max_examples=15, **SETTINGS)
@given(late_tournaments(40))
def test_random_scheduled_tournaments_with_late_entries_and_reentries_keep_every_rule(case):
    spec, players, seed, late = case
    run(spec, seed, players=players, late=late)


@pytest.mark.deep
@settings(max_examples=300, **SETTINGS)
@given(tournaments(200))
def test_random_sit_and_gos_keep_every_rule_deep(case):
    spec, seed, sync = case
    run(spec, seed, sync=sync)


@pytest.mark.deep
@settings(max_examples=150, **SETTINGS)
@given(late_tournaments(200))
def test_random_scheduled_tournaments_keep_every_rule_deep(case):
    spec, players, seed, late = case
    run(spec, seed, players=players, late=late)
