"""PHH files with antes per player (issue 18, item 6) and the smallest chip of a file (item 7).

The unit: if the file names one (our `_cardroom_cents_per_unit`, or its `currency`), that; if it
carries our own `_cardroom_` fields, cents; if every amount is a whole number, one unit is one
indivisible chip, as pokerkit reads it. Export always writes the unit.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import ANTE_ALL, ANTE_BB, ANTE_BUTTON, Rules, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.phh import (
    UnsupportedPHH,
    export_hand,
    finishing_stacks,
    import_hand,
    player_order,
)
from cardroom.engine.variants import VARIANTS
from tests.engine.strategies import play

ROOT = Path(__file__).resolve().parents[2]

# Three-handed hold'em in whole chips: the small blind folds, the other two chop a pot of 5 (the
# board plays), so one chip is odd. It goes to the first winner left of the button: p2.
CHOP = """\
variant = "NT"
antes = [0, 0, 0]
blinds_or_straddles = [1, 2, 0]
min_bet = 2
starting_stacks = [100, 100, 100]
actions = [
  "d dh p1 7c8d",
  "d dh p2 9h4s",
  "d dh p3 Tc5d",
  "p3 cc",
  "p1 f",
  "p2 cc",
  "d db 2c2d2h",
  "p2 cc",
  "p3 cc",
  "d db 2s",
  "p2 cc",
  "p3 cc",
  "d db Ac",
  "p2 cc",
  "p3 cc",
  "p2 sm 9h4s",
  "p3 sm Tc5d",
]
"""


def test_rule_a_file_of_whole_amounts_is_in_indivisible_chips(tmp_path):
    # `cardroom replay` split this pot into hundredths: [99, 100.5, 100.5].
    assert finishing_stacks(CHOP) == [99, 101, 100]
    path = tmp_path / "chop.phh"
    path.write_text(CHOP)
    proc = subprocess.run([sys.executable, "-m", "cardroom", "replay", str(path)],
                          check=True, capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert json.loads(proc.stdout) == {"file": str(path), "finishing_stacks": [99, 101, 100]}


def test_pokerkit_reads_the_whole_chip_file_the_same():
    pokerkit = pytest.importorskip("pokerkit")
    states = list(pokerkit.HandHistory.loads(CHOP))
    assert list(states[-1].stacks) == finishing_stacks(CHOP)


@pytest.mark.parametrize("currency, stacks", [("USD", [99, 100.5, 100.5]), ("JPY", [99, 101, 100]),
                                              ("KWD", [99, 100.5, 100.5])])
def test_rule_a_file_that_names_its_currency_uses_its_smallest_unit(currency, stacks):
    assert finishing_stacks(CHOP + f'currency = "{currency}"\n') == stacks


def test_rule_a_file_that_names_its_unit_uses_it():
    assert finishing_stacks(CHOP + "_cardroom_cents_per_unit = 100\n") == [99, 100.5, 100.5]
    assert finishing_stacks(CHOP + "_cardroom_cents_per_unit = 1\n") == [99, 101, 100]


def test_rule_a_file_with_our_own_fields_is_in_dollars_and_cents():
    # An export from before the unit was always written: our `_cardroom_` fields say cents.
    assert finishing_stacks(CHOP + "_cardroom_cap = 4\n") == [99, 100.5, 100.5]


def test_a_file_with_a_fractional_amount_is_in_cents():
    text = CHOP.replace("starting_stacks = [100, 100, 100]", "starting_stacks = [100, 100, 100.25]")
    assert finishing_stacks(text) == [99, 100.5, 100.75]


def test_a_currency_that_is_not_an_iso_code_is_refused():
    with pytest.raises(Exception, match="three-letter ISO 4217 code"):
        finishing_stacks(CHOP + 'currency = "dollars"\n')


def test_rule_export_always_writes_the_unit():
    v = VARIANTS["holdem"]
    h = Hand(v, Structure.make("no", 200), [Player("A", 5000, 1), Player("B", 5000, 2)],
             deck=Deck(random.Random(1)))
    for cpu in (100, 1):
        data = tomllib.loads(export_hand(h, cents_per_unit=cpu))
        assert data["_cardroom_cents_per_unit"] == cpu


# ---------------------------------------------------------------------------- antes per player
def ante_file(antes: list[int], n: int) -> str:
    stacks = [200] * n
    blinds = [1, 2] + [0] * (n - 2)
    deal = [f'"d dh p{i + 1} ????"' for i in range(n)]
    folds = [f'"p{i + 1} f"' for i in ([*range(2, n), 0] if n > 2 else [1])]
    return (f'variant = "NT"\nantes = {antes}\nblinds_or_straddles = {blinds}\nmin_bet = 2\n'
            f'starting_stacks = {stacks}\nactions = [{", ".join(deal + folds)}]\n')


@pytest.mark.parametrize("antes, payer", [
    ([0, 3, 0], 1),              # the big blind's ante
    ([0, 0, 0, 10], 3),          # the button's ante
    ([0, 3], 0),                 # heads-up, reverse-assigned: p1 is the big blind
    ([10, 0], 1),                # heads-up: p2 is the button
])
def test_rule_phh_big_blind_and_button_antes_are_played(antes, payer):
    # Refused before: "non-uniform antes (big blind or button antes) are not supported".
    n = len(antes)
    h = import_hand(ante_file(antes, n))
    posted = [(e.player, e.amount) for e in h.events if isinstance(e, ev.Posted) and e.kind == "ante"]
    assert posted == [(payer, max(antes))]
    assert isinstance(h.events[0], ev.Posted) and h.events[0].kind == "ante"    # before the blinds
    # Everyone folds to the big blind (heads-up: the button folds), who wins the blinds and the ante.
    big_blind = 0 if n == 2 else 1
    expected = [200] * n
    expected[payer] -= max(antes)
    for p, blind in ((big_blind, 2), ((1 - big_blind) if n == 2 else 0, 1)):
        expected[p] -= blind
    expected[big_blind] += 3 + max(antes)
    assert h.stacks == expected


def test_phh_antes_agree_with_pokerkit():
    pokerkit = pytest.importorskip("pokerkit")
    for antes in ([0, 3, 0], [0, 0, 0, 10], [0, 3], [10, 0], [1, 1, 1]):
        text = ante_file(antes, len(antes))
        states = list(pokerkit.HandHistory.loads(text))
        assert list(states[-1].stacks) == finishing_stacks(text), antes


@pytest.mark.parametrize("antes", [[1, 2, 0], [0, 0, 3, 0], [2, 2, 0]])
def test_other_ante_patterns_are_refused_with_the_reason(antes):
    with pytest.raises(UnsupportedPHH, match="a big blind ante or a button ante"):
        import_hand(ante_file(antes, len(antes)))


@pytest.mark.parametrize("style", [ANTE_BB, ANTE_BUTTON, ANTE_ALL])
@pytest.mark.parametrize("key, kind", [("holdem", "no"), ("omaha8", "fixed"), ("27-triple", "fixed"),
                                       ("a5-draw", "fixed"), ("omaha", "pot")])
def test_round_trip_of_hands_with_antes_per_player(key, kind, style):
    v = VARIANTS[key]
    for seed in range(6):
        rng = random.Random(seed)
        n = rng.choice((2, 3, min(6, v.max_seats)))
        st = Structure.make(kind, 200, ante=rng.choice((25, 200)), ante_style=style)
        # Short stacks too: some ante all-in for less and post no blind.
        players = [Player(f"P{i}", rng.choice((150, 230, 5000)), seat=i + 1) for i in range(n)]
        h = Hand(v, st, players, button=rng.randrange(n), deck=Deck(rng), rules=Rules())
        for _ in play(h, rng):
            pass
        text = export_hand(h)
        r = import_hand(text)
        assert r.stacks == [h.stacks[p] for p in player_order(h)]
        assert [type(e).__name__ for e in r.events] == [type(e).__name__ for e in h.events]
        assert r.structure.ante_style == style
        antes = tomllib.loads(text)["antes"]
        assert sum(1 for a in antes if a) == (n if style == ANTE_ALL else 1)


def test_rule_the_spec_examples_are_read_in_their_own_units(samples):
    # Dwan-Ivey names its currency (USD): cents. Yockey-Arieh names none and every amount is whole:
    # one unit is one indivisible chip. The finishing stacks, in the files' units, are the same.
    ivey = (samples / "phh" / "NT-Dwan-Ivey-2009-Million-Dollar-Cash-Game.phh").read_text()
    yockey = (samples / "phh" / "F2L3D-Yockey-Arieh-2019-WSOP-Event-58.phh").read_text()
    assert import_hand(ivey).stacks == [57210000, 199750000, 110950000]
    assert import_hand(yockey).stacks == [0, 4190000, 5910000, 12095000]
    assert finishing_stacks(ivey) == [572100, 1997500, 1109500]
