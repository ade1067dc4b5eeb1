"""Antes per player (issue 18, item 6): besides everyone anteing, a big-blind ante (the player in
the big blind antes for the whole table) and a button ante. Either is dead money for the main pot,
posted first, before the blinds; a short stack antes all-in for less."""

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import (
    ANTE_BB,
    ANTE_BUTTON,
    FIXED,
    NO,
    Structure,
    StructureError,
)
from cardroom.engine.hand import ante_posters
from cardroom.engine.pots import Pot
from tests.engine.helpers import make_hand


def posts(hand) -> list[tuple[int, str, int]]:
    return [(e.player, e.kind, e.amount) for e in hand.events if isinstance(e, ev.Posted)]


def test_rule_big_blind_ante_is_posted_by_the_big_blind_before_the_blinds():
    st = Structure.make(NO, 100, blinds=(50, 100), ante=100, ante_style=ANTE_BB)
    h = make_hand("holdem", NO, [5000] * 4, button=1, structure=st)
    assert posts(h) == [(3, "ante", 100), (2, "small blind", 50), (3, "big blind", 100)]
    assert h.stacks == [5000, 5000, 4950, 4800]
    lg = h.legal()
    assert (h.actor, lg.call) == (0, 100)          # the ante is dead: the others call the blind only


def test_rule_heads_up_the_big_blind_ante_is_the_non_button_players():
    # Heads-up the button posts the small blind, so the other player antes with his big blind.
    st = Structure.make(NO, 100, blinds=(50, 100), ante=100, ante_style=ANTE_BB)
    h = make_hand("holdem", NO, [5000, 5000], button=0, structure=st)
    assert posts(h) == [(1, "ante", 100), (0, "small blind", 50), (1, "big blind", 100)]


@pytest.mark.parametrize("n, button", [(2, 0), (2, 1), (5, 3)])
def test_rule_button_ante_is_posted_by_the_button(n, button):
    st = Structure.make(FIXED, 200, ante=200, ante_style=ANTE_BUTTON)
    h = make_hand("holdem", FIXED, [5000] * n, button=button, structure=st)
    assert [p for p, kind, _ in posts(h) if kind == "ante"] == [button]
    assert posts(h)[0] == (button, "ante", 200)
    assert list(ante_posters(n, button, st.blinds, st.ante_style)) == [button]


def test_rule_big_blind_ante_is_dead_money_in_the_main_pot():
    # Under the gun is all-in for the big blind; the big blind's ante goes to the main pot, which he
    # contests, not to a side pot of the big blind's own (as it would if it counted as his bet).
    st = Structure.make(NO, 100, blinds=(50, 100), ante=100, ante_style=ANTE_BB)
    h = make_hand("holdem", NO, [5000, 5000, 5000, 100], button=0, structure=st)
    assert h.actor == 3
    h.call()                                        # all-in for the big blind
    h.fold()                                        # the button
    h.fold()                                        # the small blind
    assert h.pots() == [Pot(100 + 50 + 100 + 100, (2, 3))]


def test_rule_a_short_big_blind_antes_all_in_for_less_and_contests_the_ante():
    st = Structure.make(NO, 100, blinds=(50, 100), ante=100, ante_style=ANTE_BB)
    h = make_hand("holdem", NO, [5000, 5000, 60], button=0, structure=st)
    assert posts(h) == [(2, "ante", 60), (1, "small blind", 50)]
    assert h.all_in[2]
    assert (h.actor, h.legal().call) == (0, 100)   # the big blind is still owed in full
    h.call()
    h.call()
    assert h.pots() == [Pot(60, (0, 1, 2)), Pot(200, (0, 1))]
    assert h.chips_in_play() == 10060


def test_rule_stud_antes_all_round():
    with pytest.raises(StructureError, match="stud games ante all round"):
        Structure.make(FIXED, 200, ante=25, stud=True, ante_style=ANTE_BB)
    with pytest.raises(StructureError, match="ante_style must be one of all, bb, button"):
        Structure.make(FIXED, 200, ante=25, ante_style="straddle")
