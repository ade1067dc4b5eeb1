"""Nothing hidden leaks into a player's history, through the room's own path (issue 34): bots play
every game at a real room over a real SQLite store; the store keeps each hand whole; each player's
history of each hand (the events his replay steps through, his PokerStars text and PHH, the SFTP
day files made of them) holds only cards his table view showed him during that hand, plus the hands
seed 001 puts in every history (held at the showdown, shown or mucked). His list of hands carries
the public text, held to what a railbird's view showed; never the deck nor the whole hand's events.
"""

from __future__ import annotations

import json
import random

import pytest

from cardroom.engine import events as ev
from cardroom.engine.variants import VARIANTS
from cardroom.room.history import day_files, export_phh, export_pokerstars, hands_by_day, player_history
from tests.engine.test_history_leaks import event_cards, phh_cards, pokerstars_cards, showdown_hands
from tests.room.conftest import seat_players
from tests.rooms import table_settings


def _watched(room, sessions) -> dict:
    """For each session, the cards its view of table T showed, by hand id (on every change)."""
    seen: dict = {s.name: {} for s in sessions}

    def look(s) -> None:
        view = s.view("T")
        if view.hand_id is None:
            return
        cards = seen[s.name].setdefault(view.hand_id, set())
        cards.update(c for seat in view.seats for c in seat.cards if c is not None)
        cards.update(view.my_cards, view.board)

    for s in sessions:
        s.on_change(lambda s=s: look(s))
    return seen


def play_and_check(make_room, game: str, hands: int, seed: int = 1) -> int:
    room, clock = make_room(table_settings(game=game, seats=6), seed=seed)
    players = seat_players(room, names=("alice", "bob", "carol", "dave"))
    rail = room.connect("rail")
    rail.watch("T")
    seen = _watched(room, [*players, rail])
    table = room.tables["T"]
    for i, c in enumerate(players):
        table.make_bot(c.account_id, random.Random(f"{game}/{seed}/{i}"))
    assert clock.run_until(lambda: len(table.stats) >= hands, limit=50_000)
    store = room.store
    checked = 0
    for c in players:
        for record in c.hands(limit=50):
            if record.status != "settled":
                continue
            whole = store.get_hand(record.hand_id)
            public = showdown_hands(ev.from_json_list(json.loads(whole.events_json)["events"]))
            allowed = seen[c.name][record.hand_id] | public
            mine = player_history(store, record.hand_id, c.account_id)
            assert not event_cards(mine.events) - allowed, (game, c.name, record.hand_id)
            stars, phh = export_pokerstars(mine), export_phh(mine)
            assert not pokerstars_cards(stars) - allowed, stars
            assert not phh_cards(phh) - allowed, phh
            railbird = seen["rail"].get(record.hand_id, set()) | public
            assert not pokerstars_cards(record.history) - railbird, record.history
            assert not record.deck and record.events_json is None and whole.deck
            checked += 1
        # The day files (SFTP, `hands` over exec) are the same exports, hand after hand.
        ids = [h for day in hands_by_day(store, c.account_id).values() for h in day]
        stars, phhs = day_files(store, c.account_id, ids)
        everything = set().union(*(seen[c.name].get(h, set()) for h in ids)) | set().union(
            *(showdown_hands(ev.from_json_list(json.loads(store.get_hand(h).events_json)["events"]))
              for h in ids))
        assert not (pokerstars_cards(stars) | phh_cards(phhs)) - everything
    return checked


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_rule_a_players_history_holds_only_what_his_screen_showed(make_room, game):
    assert play_and_check(make_room, game, hands=4) >= 4 * 2


@pytest.mark.deep
@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_rule_a_players_history_holds_only_what_his_screen_showed_deep(make_room, game):
    for seed in range(12):          # short runs: bots bust each other at $2/$4 with $100 each
        assert play_and_check(make_room, game, hands=15, seed=seed) >= 15 * 2
