"""config.toml: who antes (`ante_style`) and the blinds themselves (`blinds`: seed 002's three
blinds), each checked with a ConfigError that names the key (issue 18, item 6)."""

from __future__ import annotations

import random

import pytest

from cardroom.engine import events as ev
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from tests.test_config import bad_table, one_table


def dealt(t, n: int = 4, button: int = 0) -> Hand:
    players = [Player(f"P{i}", 100_000, seat=i + 1) for i in range(n)]
    return Hand(t.variant, t.structure(), players, button=button, deck=Deck(random.Random(1)), rules=t.rules())


def posts(h: Hand) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.amount) for e in h.events if isinstance(e, ev.Posted)]


def test_rule_seed_002_three_blinds_are_configurable():
    # Seed 002: "Sometimes even three blinds are used." Refused before as an unknown key.
    t = one_table(game="27-triple", stakes=["2", "4"], blinds=["1", "1", "2"])
    assert t.structure().blinds == (100, 100, 200)
    assert posts(dealt(t)) == [(1, "small blind", 100), (2, "blind", 100), (3, "big blind", 200)]
    assert one_table(game="27-draw", structure="no", stakes=["1", "2"], blinds_cents=[50, 100, 200]
                     ).structure().blinds == (50, 100, 200)


@pytest.mark.parametrize("style, payer", [("bb", 2), ("button", 0), ("all", None)])
def test_rule_big_blind_and_button_antes_are_configurable(style, payer):
    t = one_table(structure="no", stakes=["1", "2"], ante="1", ante_style=style)
    assert t.ante_style == style and t.structure().ante_style == style
    antes = [p for p, kind, _ in posts(dealt(t)) if kind == "ante"]
    assert antes == ([payer] if payer is not None else [0, 1, 2, 3])


@pytest.mark.parametrize("kw, key, words", [
    ({"ante_style": "straddle", "ante": "1"}, "ante_style", "not one of all, bb, button"),
    ({"ante_style": 1, "ante": "1"}, "ante_style", "not a string"),
    ({"ante_style": "bb"}, "ante_style", "needs an ante"),
    ({"ante_style": "bb", "ante": "1", "game": "stud"}, "ante_style", "everyone antes"),
    ({"ante_style": "bb", "ante": "3"}, "ante", "at most the big blind ($2.00)"),
    ({"ante": "2"}, "ante", "less than the small bet"),
    ({"blinds": ["1", "2"], "game": "razz"}, "blinds", "no blinds"),
    ({"blinds": ["1", "2", "2", "2"]}, "blinds", "one to three amounts"),
    ({"blinds": "1/2"}, "blinds", "one to three amounts"),
    ({"blinds": ["2", "1"]}, "blinds", "at least the one before"),
    ({"blinds": ["0", "2"]}, "blinds", "more than zero"),
    ({"blinds": ["1", "4"]}, "blinds", "at most the small bet ($2.00)"),
    ({"blinds": ["1", 2.5]}, "blinds", "TOML float"),
    ({"blinds": ["1", "2"], "blinds_cents": [100, 200]}, "blinds_cents", "not both"),
    ({"blinds": ["1", "1"], "structure": "no"}, "blinds", "big blind of the stakes ($4.00)"),
])
def test_bad_blinds_and_ante_styles_name_the_key(kw, key, words):
    e = bad_table(key, **kw)
    assert words in str(e)


def test_a_big_blind_ante_equal_to_the_big_blind_is_allowed():
    t = one_table(ante="2", ante_style="bb")          # fixed $2/$4: the big blind is $2
    assert (t.structure().ante, t.structure().blinds) == (200, (100, 200))
