"""Random tournaments played to the end in the room: real Tables, real SQLite, a fake clock,
practice bots, every game family and structure, 2 to 60 players (--deep: to 200). After every hand:
the chips in play are the entries' starting chips; every room table seats exactly the director's
players with the director's chips; no table has two players more than another but one still in a
hand (or a table about to break, or a hand-for-hand round under way). At the end: places are a
permutation of 1..entrants, prizes add up to the pool, the ledger adds up, and every player's
money is what he had, less his buy-ins and fees, plus his prizes."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardroom.engine.betting import STRUCTURES
from cardroom.engine.variants import VARIANTS
from cardroom.room.client import LocalClient
from tests.room.tournaments.helpers import START, Bots, audit_clean, room_with, sit_and_go

GAMES = sorted(VARIANTS)


def tournaments(most: int):
    @st.composite
    def draw(draw):
        game = draw(st.sampled_from(GAMES))
        size = draw(st.integers(2, min(10, VARIANTS[game].max_seats)))
        return (draw(st.integers(2, most)), size, game, draw(st.sampled_from(STRUCTURES)),
                draw(st.integers(0, 2**32)))
    return draw()


def check_hand(t) -> None:
    d = t.director
    alive = d.alive()
    assert sum(e.chips for e in alive) == d.entrants * t.spec.starting_chips, "chips in play changed"
    if d.state != "running":
        return
    director = {n: {s: (d.entries[e].player, d.entries[e].chips) for s, e in table.seats.items()}
                for n, table in d.tables().items()}
    room = {n: {s: (seat.account, seat.stack) for s, seat in t.tables[n].seats.items()} for n in d.tables()}
    assert room == director, "a room table is not the director's"
    breaking = d.floor.breaking()
    counts = {n: len(table.seats) for n, table in d.tables().items() if table is not breaking}
    if len(counts) > 1 and max(counts.values()) - min(counts.values()) >= 2 and not d.round_open:
        big = max(counts.values())
        assert all(d.tables()[n].hand is not None for n, c in counts.items() if c == big), counts


async def play(players: int, size: int, game: str, structure: str, seed: int) -> None:
    with tempfile.TemporaryDirectory() as where:
        spec = sit_and_go(players, size, game, structure)
        room, store, clock = room_with(Path(where), spec, seed=seed % 1000)
        try:
            clients = [LocalClient(await room.login(f"p{i}")) for i in range(players)]
            number = clients[0].tournaments()[0].number
            for c in clients:
                await c.register(number)
            t = room.tournaments.get(number)
            over = t.hand_over

            def hand_over(table, n):
                over(table, n)
                check_hand(t)
            t.hand_over = hand_over
            assert clock.run_until(Bots(t, seed).done, limit=2_000_000, step=5.0), "the tournament did not end"
            d = t.director
            assert sorted(p.place for p in t.placed) == list(range(1, players + 1))
            assert sum(p.prize for p in t.placed) == d.pool == players * spec.buy_in == d.paid
            prizes = {p.player: p.prize for p in t.placed}
            for c in clients:
                assert store.balance(c.account_id) == START - spec.buy_in - spec.fee + prizes[c.account_id]
            audit_clean(store)
        finally:
            store.close()


SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@settings(max_examples=12, **SETTINGS)
@given(tournaments(60))
async def test_random_tournaments_in_the_room_keep_every_rule(case):
    await play(*case)


@pytest.mark.deep
@settings(max_examples=80, **SETTINGS)
@given(tournaments(200))
async def test_random_tournaments_in_the_room_keep_every_rule_deep(case):
    await play(*case)
