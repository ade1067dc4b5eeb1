"""config.toml's [[tournaments]] blocks (issue 38 "Kinds"): the shipped ones load and play to
the end; every key is checked and a bad block is refused naming the file, the tournament and
the key, as a bad [[tables]] block is."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from cardroom.config import ConfigError, config_from_dict, load_config
from cardroom.config_tournaments import LEVEL_KEYS, TOURNAMENT_KEYS
from cardroom.engine.betting import ANTE_BB, FIXED, NO, POT
from cardroom.engine.tournament import Level, PayoutBand, TournamentSpec
from cardroom.engine.tournament.spec import SCHEDULED, SIT_AND_GO
from tests.engine.tournament.driver import run

REPO = Path(__file__).resolve().parents[1]


def block(**kw) -> dict:
    t = {"name": "T", "game": "holdem", "structure": "no", "kind": "sit-and-go", "seats": 9,
         "starting_chips": 1500, "levels": [{"blinds": [10, 20], "minutes": 10}, {"blinds": [15, 30], "minutes": 10}],
         "payouts": [{"entrants": 2, "percent": [100]}, {"entrants": 6, "percent": [65, 35]}]}
    t.update(kw)
    return {k: v for k, v in t.items() if v is not None}


def one(**kw) -> TournamentSpec:
    return config_from_dict({"tournaments": [block(**kw)]}, "x.toml").tournaments[0]


def bad(key: str, **kw) -> ConfigError:
    with pytest.raises(ConfigError) as e:
        one(**kw)
    assert e.value.key == key, str(e.value)
    assert "x.toml" in str(e.value) and "[[tournaments]] #1" in str(e.value)
    return e.value


# ------------------------------------------------------------------------------ the shipped file

def test_the_shipped_config_offers_the_tournaments_issue_38_asks_for():
    cfg = load_config(REPO / "config.toml")
    by = {t.name: t for t in cfg.tournaments}
    nine = by["Sit & Go Hold'em 9"]
    assert (nine.game, nine.structure_kind, nine.kind, nine.seats, nine.table_size) == ("holdem", NO, SIT_AND_GO, 9, 9)
    assert (nine.buy_in, nine.fee, nine.starting_chips) == (1000, 100, 1500)
    draw_lo = by["Draw Lo Sit & Go"]
    assert (draw_lo.game, draw_lo.kind, draw_lo.seats, draw_lo.structure_kind) == ("a5-draw", SIT_AND_GO, 6, FIXED)
    multi = by["45-Player Sit & Go"]
    assert (multi.seats, multi.table_size, multi.schedule.break_every) == (45, 9, 6)
    assert multi.payouts.places_paid(45) == 9 and sum(multi.payouts.prizes(22_500, 45)) == 22_500
    plo = by["Hourly PLO"]
    assert (plo.game, plo.structure_kind, plo.kind, plo.every, plo.late_levels, plo.reentries) == (
        "omaha", POT, SCHEDULED, 3600, 4, 1)
    assert plo.next_start(3601.0) == 7200.0 and plo.late_registration_ends == 40 * 60
    stud = by["Stud Sit & Go"]
    assert stud.schedule.levels[0] == Level(6, bets=(20, 40), ante=2, bring_in=5)
    assert cfg.tournament("Hourly PLO") is plo


def test_the_shipped_tournaments_play_to_the_end():
    for spec in load_config(REPO / "config.toml").tournaments:
        players = [f"p{i}" for i in range(spec.seats or 30)]
        run(spec, 1, players=players, starts_at=spec.next_start(0.0), late=0.1)


def test_the_shipped_config_lists_every_tournament_key_and_no_other():
    text = (REPO / "config.toml").read_text()
    start = text.index("# One [[tournaments]] block")
    comment = text[start:text.index("\n[[tournaments]]", start)]
    keys = {k for k in TOURNAMENT_KEYS if not k.endswith("_cents")}
    assert not [k for k in keys if not re.search(rf"\b{k}\b", comment)]
    words = set(re.findall(r"\b([a-z]+_[a-z_]+)\b", comment))
    assert words <= keys | LEVEL_KEYS, words - keys - LEVEL_KEYS


# ------------------------------------------------------------------------------ what each key takes

def test_a_stud_tournament_has_bets_antes_and_bring_ins():
    t = one(game="razz", structure="fixed", table_size=8, levels=[
        {"bets": [20, 40], "ante": 2, "bring_in": 5, "minutes": 8}, {"bets": [30, 60], "bring_in": 10, "minutes": 8}])
    assert t.structure(0).bring_in == 5 and t.structure(0).ante == 2 and t.structure(1).small_bet == 30


def test_a_scheduled_tournament_at_a_time_every_hour_with_late_registration_and_reentries():
    start = dt.datetime(2026, 7, 1, 20, 0, tzinfo=dt.timezone.utc)
    t = one(kind="scheduled", seats=None, start=start, every_minutes=60, late_levels=1, reentries=2,
            min_players=6, max_players=90)
    assert (t.start, t.every, t.late_levels, t.reentries, t.min_players, t.max_players) == (
        start.timestamp(), 3600, 1, 2, 6, 90)
    assert t.capacity == 90 and t.late_registration_ends == 600


def test_a_start_is_read_from_toml_with_its_offset(tmp_path):
    path = tmp_path / "c.toml"
    text = ('[[tournaments]]\nname = "T"\ngame = "holdem"\nstructure = "no"\nkind = "scheduled"\n'
            'start = {}\nstarting_chips = 100\nlevels = [{{ blinds = [1, 2], minutes = 5 }}]\n'
            'payouts = [{{ entrants = 2, percent = [100] }}]\n')
    path.write_text(text.format("2026-07-01T20:00:00+02:00"))
    assert load_config(path).tournaments[0].start == dt.datetime(2026, 7, 1, 18, tzinfo=dt.timezone.utc).timestamp()
    path.write_text(text.format("2026-07-01T20:00:00"))          # a local time: which zone?
    with pytest.raises(ConfigError, match="offset"):
        load_config(path)


def test_money_keys_and_a_freeroll():
    t = one(buy_in="5", fee_cents=50, added="100")
    assert (t.buy_in, t.fee, t.added) == (500, 50, 10_000)
    free = one(added="50")
    assert free.buy_in == 0 and free.added == 5000


def test_percentages_are_whole_or_decimal_strings():
    t = one(payouts=[{"entrants": 2, "percent": ["62.5", "37.5"]}])
    assert t.payouts.bands == (PayoutBand(2, (6250, 3750)),)


def test_a_big_blind_ante():
    t = one(ante_style="bb", levels=[{"blinds": [10, 20], "ante": 20, "minutes": 10}])
    assert t.structure(0).ante_style == ANTE_BB and t.structure(0).ante == 20


def test_defaults():
    t = one()
    assert t.table_size == 10 and (t.buy_in, t.fee, t.added) == (0, 0, 0) and t.schedule.break_every == 0
    assert one(game="stud", structure="fixed", levels=[{"bets": [2, 4], "bring_in": 1, "minutes": 5}]).table_size == 8


# ------------------------------------------------------------------------------ every bad value

@pytest.mark.parametrize("key, kw", [
    ("name", {"name": None}), ("name", {"name": "a\x1bb"}), ("name", {"name": " T"}), ("name", {"name": 5}),
    ("game", {"game": "chess"}), ("game", {"game": 3}), ("game", {"game": None}),
    ("structure", {"structure": "no-limit"}), ("structure", {"structure": None}),
    ("kind", {"kind": "freezeout"}), ("kind", {"kind": None}),
    ("seats", {"seats": None}), ("seats", {"seats": 1}), ("seats", {"seats": "9"}), ("seats", {"seats": True}),
    ("table_size", {"table_size": 11}), ("table_size", {"table_size": 1}),
    ("table_size", {"game": "stud", "structure": "fixed", "table_size": 9,
                    "levels": [{"bets": [2, 4], "bring_in": 1, "minutes": 5}]}),
    ("starting_chips", {"starting_chips": None}), ("starting_chips", {"starting_chips": 0}),
    ("starting_chips", {"starting_chips": 10}), ("starting_chips", {"starting_chips": 1500.0}),
    ("levels", {"levels": None}), ("levels", {"levels": []}), ("levels", {"levels": "10/20"}),
    ("levels #1", {"levels": [5]}),
    ("levels #1.minutes", {"levels": [{"blinds": [10, 20]}]}),
    ("levels #1.minutes", {"levels": [{"blinds": [10, 20], "minutes": 0}]}),
    ("levels #1.minutes", {"levels": [{"blinds": [10, 20], "minutes": 2.5}]}),
    ("levels #1.colour", {"levels": [{"blinds": [10, 20], "minutes": 5, "colour": "red"}]}),
    ("levels #1.blinds", {"levels": [{"minutes": 5}]}),
    ("levels #1.blinds", {"levels": [{"blinds": [20, 10], "minutes": 5}]}),
    ("levels #1.blinds", {"levels": [{"blinds": [0, 10], "minutes": 5}]}),
    ("levels #1.blinds", {"levels": [{"blinds": [10], "minutes": 5}]}),
    ("levels #1.blinds", {"levels": [{"blinds": [10, 20.0], "minutes": 5}]}),
    ("levels #1.blinds", {"levels": [{"blinds": ["10", "20"], "minutes": 5}]}),
    ("levels #1.bets", {"levels": [{"blinds": [10, 20], "bets": [20, 40], "minutes": 5}]}),
    ("levels #1.bring_in", {"levels": [{"blinds": [10, 20], "bring_in": 5, "minutes": 5}]}),
    ("levels #1.ante", {"levels": [{"blinds": [10, 20], "ante": 20, "minutes": 5}]}),
    ("levels #1.ante", {"levels": [{"blinds": [10, 20], "ante": -1, "minutes": 5}]}),
    ("levels #1.ante", {"ante_style": "bb", "levels": [{"blinds": [10, 20], "ante": 21, "minutes": 5}]}),
    ("levels #2.blinds", {"levels": [{"blinds": [10, 20], "minutes": 5}, {"blinds": [5, 10], "minutes": 5}]}),
    ("levels #1.blinds", {"game": "stud", "structure": "fixed", "levels": [{"blinds": [10, 20], "minutes": 5}]}),
    ("levels #1.bring_in", {"game": "stud", "structure": "fixed", "levels": [{"bets": [10, 20], "minutes": 5}]}),
    ("levels #1.bring_in", {"game": "stud", "structure": "fixed",
                            "levels": [{"bets": [10, 20], "bring_in": 11, "minutes": 5}]}),
    ("ante_style", {"ante_style": "everyone"}),
    ("ante_style", {"game": "stud", "structure": "fixed", "ante_style": "bb",
                    "levels": [{"bets": [10, 20], "bring_in": 5, "minutes": 5}]}),
    ("break_minutes", {"break_minutes": 5}), ("break_minutes", {"break_every": 2}),
    ("break_every", {"break_every": -1}),
    ("payouts", {"payouts": None}), ("payouts", {"payouts": []}), ("payouts", {"payouts": {"2": [100]}}),
    ("payouts", {"payouts": [{"entrants": 10, "percent": [100]}]}),           # 9 seats: no band covers it
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": [60, 30]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": [30, 70]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": [50, 30, 20]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": [62.5, 37.5]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": ["62.555", "37.445"]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": [100, 0]}]}),
    ("payouts #1.percent", {"payouts": [{"entrants": 2, "percent": []}]}),
    ("payouts #1.entrants", {"payouts": [{"percent": [100]}]}),
    ("payouts #1.entrants", {"payouts": [{"entrants": 1, "percent": [100]}]}),
    ("payouts #2.entrants", {"payouts": [{"entrants": 3, "percent": [100]}, {"entrants": 3, "percent": [100]}]}),
    ("buy_in", {"buy_in": 2.5}), ("fee", {"fee": "-1"}), ("added_cents", {"added_cents": "100"}),
    ("start", {"start": 1000}), ("every_minutes", {"every_minutes": 60}), ("late_levels", {"late_levels": 1}),
    ("reentries", {"reentries": 1}), ("min_players", {"min_players": 3}), ("max_players", {"max_players": 3}),
    ("start", {"kind": "scheduled", "seats": None}),
    ("seats", {"kind": "scheduled", "every_minutes": 60}),
    ("start", {"kind": "scheduled", "seats": None, "start": "20:00"}),
    ("every_minutes", {"kind": "scheduled", "seats": None, "every_minutes": 0}),
    ("late_levels", {"kind": "scheduled", "seats": None, "every_minutes": 60, "late_levels": 2}),   # 2 levels
    ("reentries", {"kind": "scheduled", "seats": None, "every_minutes": 60, "reentries": 1}),
    ("max_players", {"kind": "scheduled", "seats": None, "every_minutes": 60, "min_players": 9, "max_players": 8}),
    ("payouts", {"kind": "scheduled", "seats": None, "every_minutes": 60,
                 "payouts": [{"entrants": 6, "percent": [100]}]}),                 # 2 players may start it
    ("colour", {"colour": "red"}),
])
def test_a_bad_tournament_block_is_refused_naming_the_key(key, kw):
    bad(key, **kw)


def test_tournament_names_are_unique():
    with pytest.raises(ConfigError, match="earlier tournament") as e:
        config_from_dict({"tournaments": [block(), block(name="t")]}, "x.toml")
    assert e.value.key == "name" and "#2" in str(e.value)


def test_tournaments_must_be_blocks():
    with pytest.raises(ConfigError, match=r"\[\[tournaments\]\]"):
        config_from_dict({"tournaments": {"name": "T"}}, "x.toml")
    with pytest.raises(ConfigError, match="must be a table"):
        config_from_dict({"tournaments": ["T"]}, "x.toml")
