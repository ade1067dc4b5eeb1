"""`cardroom demo --tournament NAME`: practice bots play each of config.toml's tournaments to its end
on a fake clock (the real room, real tables, real SQLite), print what happens, and write its hands
and the summary; the files read back as our PHH importer, pokerkit (where the standard has the
game) and a tracker (fpdb's grammar) read them, each player's chips adding up from hand to hand."""

from __future__ import annotations

import re
import tomllib
import warnings
from pathlib import Path

import pytest

from cardroom.cli import main
from cardroom.config import load_config
from cardroom.demo_tournament import run_tournament_demo
from cardroom.engine.phh import import_hand, tournament_of
from cardroom.roles.settings import tournament_table_settings
from tests.engine import fpdb_grammar as fpdb

CONFIG = Path(__file__).resolve().parents[1] / "config.toml"
SHIPPED = load_config(CONFIG)
NAMES = [spec.name for spec in SHIPPED.tournaments]
# The games whose PHH variant code is the standard's: pokerkit replays those.
STANDARD = {"holdem": "no", "omaha": "pot", "stud": "fixed"}


def demo(name: str, out: Path | None = None, seed: int = 7, players: int | None = None) -> tuple[int, list[str]]:
    lines: list[str] = []
    code = run_tournament_demo(SHIPPED.tournament(name), table=tournament_table_settings(SHIPPED), out=out,
                               seed=seed, players=players, write=lines.append)
    return code, lines


def test_the_config_ships_the_tournaments_the_demo_plays():
    assert len(NAMES) >= 4 and "45-Player Sit & Go" in NAMES and "Hourly PLO" in NAMES


@pytest.mark.parametrize("name", NAMES)
def test_each_shipped_tournament_is_played_to_its_end_and_its_files_read_back(name, tmp_path):
    spec = SHIPPED.tournament(name)
    code, lines = demo(name, tmp_path)
    text = "\n".join(lines)
    assert code == 0, text
    entrants = spec.seats or 27
    # Every place from the last to the first, each once, and the winner told.
    places = [int(n) for n in re.findall(rf"finishes (\d+)\w\w of {entrants}\b", text)]
    assert sorted(places) == list(range(1, entrants + 1)), text
    assert re.search(r"bot\d+ wins the tournament", text)
    assert "Level 1:" in text and "money conserved and the ledger audited: yes" in text
    if entrants > spec.table_size:
        assert "moves from table" in text and "breaks" in text
    if spec.late_levels:         # the places of players out in late registration come as it closes
        assert f"Registration is closed: {entrants} entries" in text
    hands = read_back(tmp_path, spec, entrants)
    assert f"{hands:,} hands" in text


def read_back(out: Path, spec, entrants: int) -> int:
    """The three files as their readers take them; the number of hands."""
    stars = [h for h in (out / "pokerstars.txt").read_text().split("\n\n\n") if h.strip()]
    phhs = tomllib.loads((out / "hands.phhs").read_text())
    assert len(stars) == len(phhs) > 0
    # A tracker's reading: tournament hands of this tournament, chips adding up from hand to hand
    # and table to table; every place in a hand, once.
    chips: dict[str, int] = {}
    ranks: dict[str, int] = {}
    for text in stars:
        hand = fpdb.read_hand(text)
        assert (hand.buy_in, hand.fee, hand.currency) == (spec.buy_in, spec.fee, "play")
        for name, start in hand.start.items():
            assert start == chips.get(name, spec.starting_chips), (name, text)
        chips.update(hand.end)
        for p in hand.places:
            assert p.name not in ranks
            ranks[p.name] = p.rank
        assert sum(chips.values()) + (entrants - len(chips)) * spec.starting_chips == entrants * spec.starting_chips
    # Each player's place is in the hand he went out in (players out together with equal chips
    # share places: the hand gives the best of them, the summary each his own).
    summary = fpdb.read_summary((out / "summary.txt").read_text())
    final = {p["name"]: p["rank"] for p in summary.players}
    assert ranks.keys() == final.keys() and all(ranks[n] <= final[n] for n in final)
    assert sum(ranks[n] == final[n] for n in final) >= entrants // 2
    # Our PHH importer: every hand replays to its finishing stacks, as the tournament's hand.
    for i, data in phhs.items():
        assert tournament_of(data).tournament == 1
        replayed = import_hand(data)
        assert list(replayed.stacks) == data["finishing_stacks"], i
    if STANDARD.get(spec.game) == spec.structure_kind:
        pokerkit = pytest.importorskip("pokerkit")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            read = list(pokerkit.HandHistory.load_all((out / "hands.phhs").open("rb")))
            assert len(read) == len(phhs) and all(h.event == spec.name for h in read)
            replayed = 0
            for h, data in zip(read[:20], phhs.values()):
                try:
                    stacks = list(list(h)[-1].stacks)
                except ValueError:     # a stud hand pokerkit plays otherwise (test_vs_pokerkit)
                    continue
                assert stacks == data["finishing_stacks"]
                replayed += 1
            assert replayed >= min(10, len(phhs) // 2)
    # The winner's summary: every place, the pool in prizes, his own place the first.
    assert summary.finished and summary.hero_rank == 1 and summary.entries == entrants
    assert sorted(p["rank"] for p in summary.players) == list(range(1, entrants + 1))
    assert sum(p["winnings"] or 0 for p in summary.players) == summary.pool == entrants * spec.buy_in
    return len(stars)


def test_a_seed_plays_the_same_tournament_again():
    def played(seed):
        return [line.split("] ", 1)[-1] for line in demo("Sit & Go Hold'em 9", seed=seed)[1] if "] " in line]
    assert played(11) == played(11) != played(12)


def test_a_scheduled_tournament_takes_the_players_asked_for():
    code, lines = demo("Hourly PLO", players=5)
    assert code == 0 and "Started: 5 players at 1 table" in "\n".join(lines)


@pytest.mark.parametrize("argv, says", [
    (["--tournament", "No Such Cup"], "has no tournament called \"No Such Cup\": it has \"Sit & Go Hold'em 9\""),
    (["--tournament", "Sit & Go Hold'em 9", "--players", "4"], "a sit & go of 9 players"),
    (["--tournament", "Hourly PLO", "--players", "3"], "needs at least 4 players"),
    (["--tournament", "Hourly PLO", "--players", "181"], "takes at most 180 players"),
    (["--out", "x"], "--out writes a tournament's hands"),
])
def test_bad_tournament_demo_arguments_are_refused_with_a_message(argv, says, capsys):
    assert main(["demo", "--config", str(CONFIG), *argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cardroom demo: ") and says in err and "Traceback" not in err
    if "No Such Cup" in argv:
        assert all(f'"{name}"' in err for name in NAMES)


def test_the_demo_command_plays_a_tournament_by_its_name_in_any_case(tmp_path, capsys):
    assert main(["demo", "--config", str(CONFIG), "--tournament", "draw lo sit & go", "--seed", "3",
                 "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "Draw Lo Sit & Go (#1)" in out and "finishes 1st of 6" in out
    assert {p.name for p in tmp_path.iterdir()} == {"pokerstars.txt", "hands.phhs", "summary.txt"}
