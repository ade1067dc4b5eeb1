"""PHH export and replay: the spec's example hands, round trips for every game and structure, and
files that are broken in every way we could think of (each gives one clear error line)."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import NO_RAKE, Rules, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.phh import (
    PHHError, PHHRuleError, export_hand, import_hand, player_order, replay_file, variant_code,
)
from cardroom.engine.variants import VARIANTS, find_variant

DATA = Path(__file__).parent / "data" / "phh"
ROOT = Path(__file__).resolve().parents[2]

SAMPLE_STACKS = {
    "NT-Dwan-Ivey-2009-Million-Dollar-Cash-Game.phh": [572100, 1997500, 1109500],
    "F2L3D-Yockey-Arieh-2019-WSOP-Event-58.phh": [0, 4190000, 5910000, 12095000],
}
OWN_STACKS = {
    "holdem-heads-up.phh": [180.5, 0],
    "razz.phh": [97, 104, 99],
    "five-card-draw.phh": [60, 48, 42, 50],
}


# ---------------------------------------------------------------------------- random play
def play(key: str, kind: str, seed: int, rules: Rules | None = None) -> Hand:
    rng = random.Random(seed)
    v = VARIANTS[key]
    n = rng.randint(2, v.max_seats)
    st = Structure.make(kind, 200, 400, stud=v.bring_in,
                        ante=25 if v.bring_in else rng.choice([0, 0, 10]))
    players = [Player(f"P{i}", rng.choice([1000, 5000, 20000, 300, 137]), seat=i + 1) for i in range(n)]
    h = Hand(v, st, players, button=rng.randrange(n), deck=Deck(rng), rules=rules or Rules())
    while h.actor is not None:
        lg = h.legal()
        if lg.phase == "draw":
            h.draw(rng.sample(h.hole[lg.player], rng.randint(0, lg.max_draw)))
        elif lg.phase == "showdown":
            (h.muck if lg.muck and rng.random() < 0.3 else h.show)()
        else:
            opts = []
            if lg.bring_in:
                opts.append(h.bring_in)
            if lg.fold and rng.random() < 0.3:
                opts.append(h.fold)
            if lg.check:
                opts.append(h.check)
            if lg.can_call and lg.call:
                opts.append(h.call)
            if lg.min_to:
                to = rng.randint(lg.min_to, lg.max_to)
                opts.append(lambda to=to: h.bet(to))
            rng.choice(opts or [h.fold])()
    return h


def kinds(hand: Hand) -> list[str]:
    return [type(e).__name__ for e in hand.events]


def in_phh_order(hand: Hand) -> list[int]:
    return [hand.stacks[i] for i in player_order(hand)]


@pytest.mark.parametrize("kind", ["fixed", "spread", "pot", "no"])
@pytest.mark.parametrize("key", sorted(VARIANTS))
def test_round_trip_every_game_and_structure(key, kind):
    for seed in range(3):
        h = play(key, kind, seed)
        text = export_hand(h)
        tomllib.loads(text)
        r = import_hand(text)
        assert in_phh_order(r) == in_phh_order(h) == r.stacks
        assert kinds(r) == kinds(h)
        assert r.rake == h.rake


@pytest.mark.parametrize("kind", ["fixed", "no"])
def test_round_trip_of_hands_with_a_newcomers_live_post_and_a_dead_small_blind(kind):
    """The room deals these (seed 001: a new player posts the big blind; one back from missing
    the blinds posts the small blind dead as well): the file carries them in _cardroom_ fields."""
    v, st = VARIANTS["holdem"], Structure.make(kind, 200, 400)
    for seed in range(6):
        rng = random.Random(seed)
        players = [Player("P0", 5000, seat=1), Player("P1", 5000, seat=2), Player("P2", 5000, seat=3),
                   Player("New", 5000, seat=5, live_post=st.big_blind),
                   Player("Back", 5000, seat=7, live_post=st.big_blind, dead_post=st.blinds[0])]
        h = Hand(v, st, players, button=0, deck=Deck(rng), rules=Rules())
        while h.actor is not None:
            lg = h.legal()
            if lg.phase == "showdown":
                h.show()
            elif lg.min_to and rng.random() < 0.3:
                h.bet(rng.randint(lg.min_to, lg.max_to))
            elif lg.check:
                h.check()
            elif rng.random() < 0.2:
                h.fold()
            else:
                h.call()
        posts = [(e.player, e.kind) for e in h.events if isinstance(e, ev.Posted)]
        assert (3, "live") in posts and (4, "live") in posts and (4, "dead") in posts
        text = export_hand(h)
        assert "_cardroom_live_posts" in text and "_cardroom_dead_posts" in text
        r = import_hand(text)
        assert in_phh_order(r) == in_phh_order(h) == r.stacks
        assert kinds(r) == kinds(h) and r.rake == h.rake


@pytest.mark.parametrize("key", ["27-triple", "a5-triple", "draw", "stud", "omaha8"])
def test_round_trip_of_a_players_view_with_hidden_cards(key):
    for seed in range(4):
        h = play(key, "fixed", seed)
        text = export_hand(h, viewer=0, cents_per_unit=1)
        assert import_hand(text).stacks == in_phh_order(h)


def test_round_trip_busy_draw_tables_with_reshuffles():
    # Eight players in triple draw run out the stub: the discards are reshuffled (seed 002).
    found = 0
    for seed in range(40):
        h = play("27-triple", "no", seed)
        if not any(type(e).__name__ == "Reshuffled" for e in h.events):
            continue
        found += 1
        r = import_hand(export_hand(h))
        assert r.stacks == in_phh_order(h) and kinds(r) == kinds(h)
    assert found


def test_in_progress_hand_exports_and_replays_to_the_same_point():
    h = play("holdem", "no", 5)
    moves = len(h.events)
    partial = Hand(h.variant, h.structure, h.players, button=h.button,
                   deck=Deck.stacked(h.deck.order()), rules=h.rules)
    partial.call() if partial.legal().can_call else partial.check()
    r = import_hand(export_hand(partial))
    assert r.actor is not None and r.stacks == in_phh_order(partial)
    assert moves > 0


# ---------------------------------------------------------------------------- conventions
def test_variant_codes_follow_the_standard_where_it_has_one():
    def code(game, kind):
        v = find_variant(game)
        return variant_code(v, Structure.make(kind, 200, stud=v.bring_in))
    assert code("holdem", "fixed") == "FT"
    assert code("holdem", "no") == "NT"
    assert code("omaha", "pot") == "PO"
    assert code("omaha8", "fixed") == "FO/8"
    assert code("stud", "fixed") == "F7S"
    assert code("stud8", "fixed") == "F7S/8"
    assert code("razz", "fixed") == "FR"
    assert code("27-draw", "no") == "N2L1D"
    assert code("27-triple", "fixed") == "F2L3D"
    assert code("a5-draw", "fixed") == "FA5L1D"
    assert code("a5-triple", "fixed") == "FA5L3D"
    assert code("27-draw", "fixed") == "F2L1D"
    assert code("draw", "fixed") == "F5D"
    assert code("holdem", "spread") == "ST"


def test_player_order_small_blind_first_button_last_and_amounts_in_dollars():
    v = find_variant("holdem")
    st = Structure.make("no", 50, blinds=(25, 50))
    players = [Player(name, 1000 + i, seat=i + 1) for i, name in enumerate("ABCD")]
    h = Hand(v, st, players, button=1, deck=Deck(random.Random(1)), rules=NO_RAKE)
    data = tomllib.loads(export_hand(h, table="Alpha", hand=7))
    assert data["players"] == ["C", "D", "A", "B"]       # C is left of the button B
    assert data["seats"] == [3, 4, 1, 2]
    assert data["blinds_or_straddles"] == [0.25, 0.5, 0, 0]
    assert data["min_bet"] == 0.5
    assert data["starting_stacks"] == [10.02, 10.03, 10, 10.01]
    assert data["table"] == "Alpha" and data["hand"] == 7
    cents = tomllib.loads(export_hand(h, cents_per_unit=1))
    assert cents["starting_stacks"] == [1002, 1003, 1000, 1001]
    assert cents["_cardroom_cents_per_unit"] == 1


def test_heads_up_big_blind_is_p1():
    v = find_variant("holdem")
    st = Structure.make("no", 200)
    h = Hand(v, st, [Player("A", 5000, 1), Player("B", 7000, 2)], button=0,
             deck=Deck(random.Random(2)), rules=NO_RAKE)
    data = tomllib.loads(export_hand(h))
    assert data["players"] == ["B", "A"]                  # A has the button and the small blind
    assert data["blinds_or_straddles"] == [1, 2]          # reversed heads-up: p1 posts 2
    h.call()                                              # the button acts first before the flop
    assert import_hand(export_hand(h)).actor == 0         # p1, the big blind, has the option


def test_names_with_quotes_and_controls_survive():
    v = find_variant("razz")
    st = Structure.make("fixed", 200, stud=True, ante=25)
    players = [Player('Q"uote\\', 1000, 1), Player("tab\tnew\nline", 1000, 2), Player("\u00e9\u4e2d", 1000, 3)]
    h = Hand(v, st, players, deck=Deck(random.Random(3)), rules=NO_RAKE)
    data = tomllib.loads(export_hand(h))
    assert data["players"] == [p.name for p in players]


# ---------------------------------------------------------------------------- the spec's hands
@pytest.mark.parametrize("name", sorted(SAMPLE_STACKS))
def test_spec_examples_finishing_stacks(samples, name):
    result = replay_file(samples / "phh" / name)
    assert result == {"file": str(samples / "phh" / name), "finishing_stacks": SAMPLE_STACKS[name]}


@pytest.mark.parametrize("name", sorted(OWN_STACKS))
def test_own_hands_finishing_stacks(name):
    assert replay_file(DATA / name)["finishing_stacks"] == OWN_STACKS[name]


def test_pokerkit_agrees_on_the_standard_files(samples):
    pokerkit = pytest.importorskip("pokerkit")
    files = [samples / "phh" / n for n in SAMPLE_STACKS] + [DATA / "holdem-heads-up.phh", DATA / "razz.phh"]
    for path in files:
        states = list(pokerkit.HandHistory.loads(path.read_text()))
        assert [float(x) for x in states[-1].stacks] == [float(x) for x in replay_file(path)["finishing_stacks"]]


def test_pokerkit_reads_our_no_limit_exports():
    pokerkit = pytest.importorskip("pokerkit")
    for seed in range(6):
        h = play("holdem", "no", seed, rules=Rules(rake_percent=0, rake_cap=0, show_all=True))
        states = list(pokerkit.HandHistory.loads(export_hand(h, cents_per_unit=1)))
        assert list(states[-1].stacks) == in_phh_order(h)


# ---------------------------------------------------------------------------- broken files
GOOD = (DATA / "holdem-heads-up.phh").read_text()


def _with(**changes) -> str:
    data = tomllib.loads(GOOD)
    data.update(changes)
    lines = []
    for k, v in data.items():
        lines.append(f"{k} = {json.dumps(v)}")
    return "\n".join(lines) + "\n"


def _actions(*actions) -> str:
    return _with(actions=list(actions))


BROKEN = {
    "not-toml.phh": ("variant = NT\nactions = [", "not TOML"),
    "empty.phh": ("", "empty"),
    "binary.phh": (bytes(range(256)) * 4, "not UTF-8"),
    "no-actions.phh": ("variant = 'NT'\n", "required field"),
    "stacks-wrong-type.phh": (_with(starting_stacks="lots"), "starting_stacks"),
    "negative-stack.phh": (_with(starting_stacks=[100, -5]), "positive"),
    "zero-stack.phh": (_with(starting_stacks=[100, 0]), "positive"),
    "unknown-variant.phh": (_with(variant="FB"), "unsupported variant"),
    "wrong-length.phh": (_with(antes=[0, 0, 0]), "3 entries for 2 players"),
    "sub-cent.phh": (_with(starting_stacks=[100, 80.505]), "whole number of cents"),
    "action-not-string.phh": (_with(actions=[1, 2]), "must be a string"),
    "bad-card.phh": (_actions("d dh p1 AhZz"), "not a card"),
    "no-such-player.phh": (_actions("d dh p3 AhAd"), "no player p3"),
    "unknown-verb.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "p2 xx"), "unknown action"),
    "bet-below-minimum.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "p2 cbr 3"), "action 3"),
    "out-of-turn.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "p1 cc"), "out of turn"),
    "too-many-cards.phh": (_actions("d dh p1 AhAdAc", "d dh p2 KcKs"), "too many cards"),
    "duplicate-card.phh": (_actions("d dh p1 AhAd", "d dh p2 AhKs"), "duplicate card Ah"),
    "board-too-early.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "d db 2c7d9h"), "action 3"),
    "missing-flop.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "p2 cc", "p1 cc", "p1 cc"),
                         "board cards"),
    "after-the-end.phh": (_actions("d dh p1 AhAd", "d dh p2 KcKs", "p2 f", "p1 cc"), "over"),
    "discard-not-held.phh": (
        (DATA / "five-card-draw.phh").read_text().replace('"p1 sd 7c4h2s"', '"p1 sd 7c4h9h"'),
        "not in their hand"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_files_give_one_clear_error(tmp_path, name):
    content, expected = BROKEN[name]
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    result = replay_file(path)
    assert set(result) == {"file", "error"}, result
    assert expected in result["error"], result["error"]
    assert "\n" not in result["error"] and "Traceback" not in result["error"]


def test_bet_below_minimum_names_the_action_and_rule():
    result = replay_file(DATA / "bad-bet-below-minimum.phh")
    assert result["error"].startswith("action 7 ('p2 cbr 1'): 1 is below the minimum bet to 2")


def test_unreadable_paths(tmp_path):
    assert "cannot read" in replay_file(tmp_path / "missing.phh")["error"]
    assert "cannot read" in replay_file(tmp_path)["error"]


def test_rule_errors_raise_specific_exceptions():
    with pytest.raises(PHHRuleError, match="out of turn"):
        import_hand(BROKEN["out-of-turn.phh"][0])
    with pytest.raises(PHHError):
        import_hand({"variant": "NT"})


# ---------------------------------------------------------------------------- the command
def test_cardroom_replay_prints_one_json_line_per_file(tmp_path):
    bad = tmp_path / "bad.phh"
    bad.write_text("not toml [")
    proc = subprocess.run([sys.executable, "-m", "cardroom", "replay", str(DATA / "razz.phh"), str(bad)],
                          capture_output=True, text=True, cwd=ROOT, timeout=60)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2, proc.stdout + proc.stderr
    first, second = (json.loads(x) for x in lines)
    assert first == {"file": str(DATA / "razz.phh"), "finishing_stacks": [97, 104, 99]}
    assert second["file"] == str(bad) and "not TOML" in second["error"]
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
