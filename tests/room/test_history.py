"""Hand histories: stored whole, listed and opened by their players, exported per player."""

import random
import tomllib

import pytest

from cardroom.engine import events as ev
from cardroom.engine.cards import format_cards
from cardroom.engine.phh import import_hand
from cardroom.room.api import RoomError
from cardroom.room.history import export_phh, export_pokerstars
from tests.rooms import build_room, table_settings
from tests.room.conftest import actor_client, seat_players


def _bots_play(room, clock, clients, hands, table="T"):
    t = room.tables[table]
    for i, c in enumerate(clients):
        t.make_bot(c.account_id, random.Random(i))
    assert clock.run_until(lambda: len(t.stats) >= hands, limit=50_000)


@pytest.mark.parametrize("game", ["holdem", "a5-triple", "stud8"])
def test_every_hand_is_stored_whole_and_a_player_sees_others_cards_only_at_the_showdown(make_room, game):
    room, clock = make_room(table_settings(game=game))
    clients = seat_players(room)
    _bots_play(room, clock, clients, 4)
    alice = clients[0]
    listed = alice.hands(10)
    assert len(listed) >= 4 and all(h.status == "settled" for h in listed)
    record = listed[0]
    # The store keeps the whole hand; the player's list has the public text, not the deck's order
    # nor every event (issue 34: the deck was in every row of the History screen).
    whole = room.store.get_hand(record.hand_id)
    assert whole.deck and whole.events_json and record.history == whole.history
    assert not record.deck and record.events_json is None
    mine = alice.hand(record.hand_id)
    # Shown or mucked there (seed 001); before, a mucked hand was hidden too. In a draw game the
    # showdown shows the hand held, never the deal nor the discards.
    shown = {e.player for e in mine.events if isinstance(e, (ev.Shown, ev.Mucked))}
    draw = game == "a5-triple"
    for e in mine.events:
        if isinstance(e, ev.DealtHole) and e.player != mine.me and (draw or e.player not in shown):
            hidden = [c for c, up in zip(e.cards, e.up) if not up]
            assert all(c is None for c in hidden)           # never a hidden card of another seat
        if isinstance(e, ev.Drew) and e.player != mine.me:
            assert all(c is None for c in e.cards + e.discards)
    phh = export_phh(mine)
    replayed = import_hand(phh)
    assert list(replayed.stacks) == [s.start_cents + 0 for s in mine.seats] or replayed.over
    for p in range(len(mine.seats)):
        if p != mine.me and p not in shown:
            assert "????" in phh or "??" in phh
    text = export_pokerstars(mine)
    assert text.startswith("PokerStars Hand #" + record.hand_id)
    assert f"Dealt to {alice.name}" in text or game == "stud8"
    with pytest.raises(RoomError, match="no hand"):
        alice.hand("999")


def test_the_room_writes_play_chips_as_play_money_unless_told_its_currency(make_room):
    """The room credits play chips: its histories say so (no $, no USD, "(Play Money)" on the table
    line) and a tracker files them apart from real money; a room set to USD writes dollars. Each
    hand keeps the currency it was played for."""
    room, clock = make_room(table_settings(name="T"), table_settings(name="U", currency="USD"))
    for table in ("T", "U"):
        clients = seat_players(room, table, names=(f"{table}1", f"{table}2"))
        _bots_play(room, clock, clients, 2, table)
        record = clients[0].hands(1)[0]
        mine = export_pokerstars(clients[0].hand(record.hand_id))
        for text in (mine, record.history):
            header, table_line = text.split("\n")[:2]
            if table == "T":
                assert "$" not in text and "USD" not in text, text
                assert " (Play Money) Seat #" in table_line
                assert header.endswith("Hold'em Limit (2/4) - " + header.split(" - ")[-1])
            else:
                assert "Hold'em Limit ($2/$4 USD)" in header and "Play Money" not in table_line
        phh = tomllib.loads(export_phh(clients[0].hand(record.hand_id)))
        assert (phh.get("currency"), phh.get("currency_symbol")) == (("XXX", None) if table == "T" else ("USD", "$"))


def test_rule_showdown_hole_cards_in_every_history(make_room):
    """Seed 001: "The hole cards of all players who stay in to the showdown are included in the
    hand history", shown or mucked: in every player's history, his PokerStars and PHH exports and
    the stored public text. A folded hand stays hidden (but from its own player)."""
    room, clock = make_room(seed=1)                      # this deal ends in a show and a muck
    clients = seat_players(room)
    clock.advance(0.01)
    t = room.tables["T"]
    hand, hand_id = t.hand, t.hand_id
    actor_client(clients).act("T", "fold")
    while not hand.over:
        c = actor_client(clients)
        c.act("T", "check" if c.view("T").legal.check else "call")
    assert clock.run_until(lambda: room.store.get_hand(hand_id).status == "settled", limit=60)
    mucker = next(e.player for e in hand.events if isinstance(e, ev.Mucked))
    folder = hand.folded.index(True)
    dealt = {e.player: e.cards for e in hand.events if isinstance(e, ev.DealtHole)}
    mucked, folded = dealt[mucker], dealt[folder]
    for c in clients:
        mine = c.hand(hand_id)
        dealt = {e.player: e.cards for e in mine.events if isinstance(e, ev.DealtHole)}
        assert dealt[mucker] == mucked
        assert dealt[folder] == (folded if mine.me == folder else (None, None))
        stars = export_pokerstars(mine)
        assert f"mucked [{format_cards(mucked)}]" in stars
        assert format_cards(folded) not in stars or mine.me == folder
        phh = export_phh(mine)
        assert "".join(map(repr, mucked)) in phh
        assert ("".join(map(repr, folded)) in phh) == (mine.me == folder)
    public = room.store.get_hand(hand_id).history
    assert f"mucked [{format_cards(mucked)}]" in public and format_cards(folded) not in public


def test_a_stored_hand_the_server_cannot_replay_opens_without_exports(make_room, caplog):
    """The exports are made on the server when a hand is opened: a stored history that does not
    replay still opens (its events), says why there is no export, and is left out of the day
    files, logged; the other hands are there."""
    import json
    import sqlite3
    from contextlib import closing

    from cardroom.room.history import day_files, hands_by_day, player_history
    room, clock = make_room()
    clients = seat_players(room)
    _bots_play(room, clock, clients, 2)
    alice = clients[0]
    broken, kept = [r.hand_id for r in alice.hands(10) if r.status == "settled"][:2]
    doc = json.loads(room.store.get_hand(broken).events_json)
    doc["phh"] = doc["phh"].replace("actions = [", "actions = [\n  \"p1 cbr 0\",", 1)
    with closing(sqlite3.connect(room.store.path)) as raw, raw:
        raw.execute("UPDATE hands SET events = ? WHERE id = ?", (json.dumps(doc), broken))
    mine = player_history(room.store, broken, alice.account_id)
    assert mine.events and not mine.phh and not mine.pokerstars and "PHH" in mine.unexportable
    with pytest.raises(RoomError, match="PHH"):
        export_phh(mine)
    with pytest.raises(RoomError, match="PHH"):
        export_pokerstars(mine)
    ids = [h for day in hands_by_day(room.store, alice.account_id).values() for h in day]
    stars, phhs = day_files(room.store, alice.account_id, ids)
    assert f"Hand #{kept}:" in stars and f"Hand #{broken}:" not in stars
    assert phhs.count("\n[") + 1 == len(ids) - 1 and f"left out of account {alice.account_id}" in caplog.text


def test_a_player_cannot_open_a_hand_he_did_not_play(make_room):
    room, clock = make_room(table_settings(name="T"), table_settings(name="U"))
    clients = seat_players(room, "T", names=("alice", "bob"))
    _bots_play(room, clock, clients, 1)
    hand_id = clients[0].hands(1)[0].hand_id
    stranger = room.connect("stranger")
    with pytest.raises(RoomError, match="did not play"):
        stranger.hand(hand_id)


def test_the_public_history_shows_no_hole_cards_but_those_at_the_showdown(make_room):
    room, clock = make_room()
    clients = seat_players(room)
    _bots_play(room, clock, clients, 3)
    for record in clients[0].hands(3):
        assert "Dealt to" not in record.history


def test_hand_ids_come_from_the_database_increasing_across_tables_and_restarts(tmp_path):
    """Issue 19: ids were random 12-digit numbers the room drew, and a collision paused the
    table. Now the store numbers each hand from one sequence."""
    ids = []
    for _ in range(2):   # a restart carries on the sequence
        room, store, clock = build_room(tmp_path / "r.sqlite3", table_settings("T"), table_settings("U"))
        for table in ("T", "U"):
            seat_players(room, table, names=(f"a{len(ids)}{table}", f"b{len(ids)}{table}"))
        for _ in range(3):
            for table in ("T", "U"):
                t = room.tables[table]
                assert clock.run_until(lambda t=t: t.hand is not None and not t.hand.over
                                       and t.hand_id not in ids)
                ids.append(t.hand_id)
                actor = next(c for cs in room.clients.values() for c in cs if c.view(table).legal)
                actor.act(table, "fold")
        store.close()
    assert [int(i) for i in ids] == list(range(1, 13))


@pytest.mark.parametrize("game", ["holdem", "a5-triple", "stud8"])
def test_a_stored_hand_opens_street_by_street_with_every_player_named(make_room, game):
    """Each street holds its own deal and betting (or its draw), in the hand's order; the players
    are named as at the table."""
    room, clock = make_room(table_settings(game=game))
    clients = seat_players(room)
    _bots_play(room, clock, clients, 6)
    alice = clients[0]
    for record in alice.hands(6):
        mine = alice.hand(record.hand_id)
        assert mine.names == tuple(room.store.get(s.account_id).name for s in mine.seats)
        assert mine.names[mine.me] == alice.name
        streets = mine.streets()
        assert [e for street in streets for e in street] == list(mine.events)    # nothing lost or moved
        openers = [[e for e in street if isinstance(e, (ev.RoundStarted, ev.DrawStarted))] for street in streets]
        assert all(len(o) == 1 for o in openers)                                # one round or draw each
        for street, (opener,) in zip(streets[1:], openers[1:]):
            # A later street starts with its own deal (burn, cards) or its draw, never with the
            # previous round's chips.
            assert isinstance(street[0], (ev.Burned, ev.DealtHole, ev.DealtBoard, ev.RoundStarted, ev.DrawStarted))
            if isinstance(opener, ev.RoundStarted):
                assert not any(isinstance(e, (ev.Burned, ev.DealtBoard)) for e in street[street.index(opener):]
                               if not isinstance(e, ev.Shown))


def test_a_hand_stored_with_its_tournament_is_every_players_tournament_hand(make_room):
    """record_of(..., tournament=...) keeps the hand's tournament in its stored PHH; each player's
    exports (his PokerStars text, his PHH, the day files) are then tournament hands: the header,
    the table "T n", whole chips, the places the hand decided; PHH's event, level and table."""
    import json
    import sqlite3
    from contextlib import closing

    from cardroom.engine.phh import tournament_of
    from cardroom.engine.tournament.history import Finish, TournamentHand
    from cardroom.room.history import day_files, player_history, record_of
    room, clock = make_room()
    clients = seat_players(room)
    _bots_play(room, clock, clients, 1)
    alice = clients[0]
    hand_id = alice.hands(1)[0].hand_id
    record = room.store.get_hand(hand_id)
    doc = json.loads(record.events_json)
    whole = import_hand(doc["phh"])
    th = TournamentHand(2026112901, 2, 3, (25, 50), buy_in=1000, fee=100, name="Sit & Go Hold'em 9",
                        finishes=(Finish(whole.players[0].seat, 9),))
    stored = record_of(whole, table="T", hand_id=hand_id, when=record.started_at, seats=doc["seats"], tournament=th)
    with closing(sqlite3.connect(room.store.path)) as raw, raw:
        raw.execute("UPDATE hands SET events = ? WHERE id = ?", (stored, hand_id))
    for c in clients:
        mine = player_history(room.store, hand_id, c.account_id)
        stars, phh = export_pokerstars(mine), export_phh(mine)
        assert stars.startswith(f"PokerStars Hand #{hand_id}: Tournament #2026112901, 10+1 Hold'em Limit - "
                                "Level III (25/50) - ")
        assert stars.split("\n")[1].startswith("Table '2026112901 2' ") and "Play Money" not in stars
        assert f"{whole.players[0].name} finished the tournament in 9th place\n" in stars
        assert tournament_of(phh) == th and tomllib.loads(phh)["event"] == "Sit & Go Hold'em 9"
    day, _ = day_files(room.store, alice.account_id, [hand_id])
    assert "Tournament #2026112901" in day
