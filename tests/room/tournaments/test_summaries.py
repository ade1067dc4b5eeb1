"""Each player's tournament summary (PokerStars' "PokerStars Tournament #N" file), from the store:
reachable from the client API, and in his SFTP folder beside the day's hands."""

from __future__ import annotations

import pytest

from cardroom.room.api import RoomError
from cardroom.room.client import LocalClient
from cardroom.room.tournaments.summaries import summaries
from tests.room.tournaments.helpers import Bots, registered, room_with, sit_and_go


async def test_a_players_summary_names_his_place_and_the_prize_pool(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(6, 6))
    clients, t = await registered(room, [f"p{i}" for i in range(6)])
    assert clock.run_until(Bots(t).done, limit=30_000)
    for c in clients:
        text = await c.tournament_summary(t.number)
        place = next(p.place for p in t.placed if p.player == c.account_id)
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(place, "th")
        assert text.startswith(f"PokerStars Tournament #{t.number}, No Limit Hold'em\n")
        assert "Buy-In: 10/1\n6 players\nTotal Prize Pool: 60\n" in text       # play money
        assert f"You finished in {place}{suffix} place." in text
    winner = next(p for p in t.placed if p.place == 1)
    assert f"  1: {next(c.name for c in clients if c.account_id == winner.player)} (cardroom), 39 (65%)" \
        in await clients[0].tournament_summary(t.number)
    files = summaries(store, room.tournaments.specs, clients[0].account_id, "play")
    ((day, named),) = files.items()
    assert list(named) == [f"tournament-{t.number}.txt"] and named[f"tournament-{t.number}.txt"] == \
        await clients[0].tournament_summary(t.number)


async def test_no_summary_for_a_tournament_not_mine_or_not_started(tmp_path):
    room, store, clock = room_with(tmp_path, sit_and_go(3))
    ann, bob = [LocalClient(await room.login(n)) for n in ("ann", "bob")]
    await ann.register(1)
    with pytest.raises(RoomError, match="has not started"):
        await ann.tournament_summary(1)
    with pytest.raises(RoomError, match="you did not play tournament #1"):
        await bob.tournament_summary(1)
    assert summaries(store, room.tournaments.specs, ann.account_id, "play") == {}
