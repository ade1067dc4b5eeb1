"""A player's hands in bulk (what the SFTP folder and `hands` over ssh serve): by UTC day, oldest
first, each settled hand once, as the player's own history shows it."""

import random
from datetime import UTC, date, datetime, timedelta

from cardroom.room import history
from cardroom.room.history import (
    day_files,
    export_phh,
    export_pokerstars,
    hands_by_day,
    utc_day,
)
from tests.rooms import build_room
from tests.room.conftest import seat_players


def _room_across_midnight(tmp_path, hands=6):
    """Bots play `hands` hands; the store's clock moves three minutes a call, from 23:00 UTC, so
    they fall on two days."""
    now = [datetime(2026, 11, 30, 23, 0, tzinfo=UTC)]

    def tick():
        now[0] += timedelta(minutes=3)
        return now[0]

    room, store, clock = build_room(tmp_path / "room.sqlite3", seed=3, store_options={"clock": tick})
    clients = seat_players(room)
    table = room.tables["T"]
    for i, c in enumerate(clients):
        table.make_bot(c.account_id, random.Random(i))
    assert clock.run_until(lambda: len(table.stats) >= hands, limit=50_000)
    return store, clock, table, clients


def _settled(store, account):
    return [r for r in store.hands_for_account(account, limit=500) if r.status == "settled"]


def test_hands_by_day_lists_each_settled_hand_once_oldest_first_while_new_ones_begin(tmp_path, monkeypatch):
    store, clock, table, clients = _room_across_midnight(tmp_path)
    alice = clients[0].account_id
    before = _settled(store, alice)[::-1]
    assert len({utc_day(r.started_at) for r in before}) == 2
    # Pages of two, and a hand dealt after each page: every later page starts a place lower.
    monkeypatch.setattr(history, "PAGE", 2)
    read = store.hands_for_account

    def paging(*args, **kwargs):
        page = read(*args, **kwargs)
        started = table.hand
        clock.run_until(lambda: table.hand is not started, limit=600)
        return page

    monkeypatch.setattr(store, "hands_for_account", paging)
    days = hands_by_day(store, alice)
    assert [h for ids in days.values() for h in ids] == [r.hand_id for r in before]
    assert list(days) == sorted(days) == sorted({utc_day(r.started_at) for r in before})
    assert all(utc_day(r.started_at) in days and r.hand_id in days[utc_day(r.started_at)] for r in before)


def test_hands_by_day_since_a_day_stops_there(tmp_path):
    store, _, _, clients = _room_across_midnight(tmp_path)
    alice = clients[0].account_id
    everything = hands_by_day(store, alice)
    first, second = list(everything)
    assert hands_by_day(store, alice, since=second) == {second: everything[second]}
    assert hands_by_day(store, alice, since=first) == everything
    assert hands_by_day(store, alice, since=date(2027, 1, 1)) == {}


def test_day_files_are_the_players_own_exports_one_after_another(tmp_path):
    store, _, _, clients = _room_across_midnight(tmp_path, hands=3)
    alice = clients[0]
    ids = [h for ids in hands_by_day(store, alice.account_id).values() for h in ids]
    stars, phhs = day_files(store, alice.account_id, ids)
    mine = [alice.hand(h) for h in ids]
    assert stars == "\n\n\n".join(export_pokerstars(h).strip("\n") for h in mine) + "\n"
    assert phhs == "\n".join(f"[{i}]\n{export_phh(h).rstrip()}\n" for i, h in enumerate(mine, 1))
    assert day_files(store, alice.account_id, []) == ("", "")


def test_phh_day_file_says_when_for_what_and_at_how_many_seats(tmp_path):
    """Issue 22: each hand of the .phhs file (what SFTP serves) carries the spec's time, date and
    zone (the hand's start, UTC), currency (play chips: XXX, ISO 4217's "no currency") and seat
    count, and pokerkit's reader loads the file and replays every hand to its finishing stacks."""
    import tomllib

    import pytest
    pokerkit = pytest.importorskip("pokerkit")
    store, _, _, clients = _room_across_midnight(tmp_path, hands=3)
    alice = clients[0]
    ids = [h for ids in hands_by_day(store, alice.account_id).values() for h in ids]
    _, phhs = day_files(store, alice.account_id, ids)
    hands = tomllib.loads(phhs)
    assert len(hands) == len(ids) == 3
    for (_, data), hand_id in zip(sorted(hands.items(), key=lambda kv: int(kv[0])), ids):
        start = store.get_hand(hand_id).started_at.astimezone(UTC)
        assert (data["time"], data["time_zone"]) == (start.time().replace(microsecond=0), "UTC")
        assert (data["year"], data["month"], data["day"]) == (start.year, start.month, start.day)
        assert (data["currency"], data["seat_count"], data["hand"]) == ("XXX", 6, int(hand_id))
        assert data["_cardroom_rake"] == 0 and "_cardroom_rake_percent" in data
    for hh in pokerkit.HandHistory.loads_all(phhs):
        stacks = list(list(hh)[-1].stacks)
        assert [float(x) for x in stacks] == [float(x) for x in hh.finishing_stacks]


def test_cardroom_replay_reads_the_rooms_own_hands_file(tmp_path, capsys):
    """Issue 35: `cardroom replay hands.phhs` said "required field 'variant' is missing": it read a
    hands file as one hand. It reads it as pokerkit's `load_all` does, a JSON line per hand with
    the finishing stacks the room's own export of that hand replays to."""
    import json

    from cardroom.cli import main
    from cardroom.engine.phh import finishing_stacks
    store, _, _, clients = _room_across_midnight(tmp_path, hands=3)
    alice = clients[0]
    ids = [h for ids in hands_by_day(store, alice.account_id).values() for h in ids]
    _, phhs = day_files(store, alice.account_id, ids)
    path = tmp_path / "hands.phhs"
    path.write_text(phhs)
    assert main(["replay", str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert [x["hand"] for x in lines] == ["1", "2", "3"]
    assert [x["finishing_stacks"] for x in lines] == [
        finishing_stacks(export_phh(alice.hand(h))) for h in ids]
    assert all(x["file"] == str(path) and "error" not in x for x in lines)
    path.write_text(phhs.replace('variant = "FT"', 'variant = "??"', 1))     # one bad hand of three
    assert main(["replay", str(path)]) == 1
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert ["error" in x for x in lines] == [True, False, False]
