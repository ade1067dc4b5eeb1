"""Pots, odd chips, hi-lo splits, rake and the showdown order, one test per rule."""

import random

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, NO_RAKE, Rules, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import IllegalAction
from cardroom.engine.pots import build_pots, split_hi_lo
from tests.engine.helpers import board_game_deck, make_hand


def _check_down(h):
    while h.phase == "bet":
        lg = h.legal()
        h.check() if lg.check else h.call()


def _play_out(h):
    """Check or call every betting round and show every hand to the end."""
    while not h.over:
        _check_down(h)
        if h.phase == "showdown":
            h.show()


def _awards(h):
    return [(e.player, e.amount, e.pot, e.half) for e in h.events if isinstance(e, ev.Awarded)]


def test_odd_chip_goes_to_the_first_winner_left_of_the_button():
    s = Structure(NO, 10, 20, blinds=(5, 10))
    deck = board_game_deck(3, 0, {0: "2c 3d", 1: "4c 5d", 2: "7h 8d"}, "As Ks Qs Js Ts")
    h = make_hand("holdem", NO, [1_000] * 3, structure=s, button=0, deck=deck)
    h.call(); h.fold(); h.check()                           # 10 + 5 + 10 = 25 in the pot
    _play_out(h)
    # The board plays (a royal flush): player 2 is the first winner left of the button.
    assert sorted(_awards(h)) == [(0, 12, 0, ""), (2, 13, 0, "")]


# Scripted no-limit hold'em hands (blinds 5/10, button 0) whose splits leave odd chips:
# (stacks, hole cards by player, board, actions in turn, each player's final stack by the rule).
# tests/engine/test_vs_pokerkit.py plays the same hands in pokerkit, which settles them otherwise.
ODD_CHIP_HANDS = {
    # The board plays for three players; the pot of 35 (the small blind folded) leaves two odd chips.
    "one odd chip each": (
        [1_000] * 4, {0: "2c 3d", 1: "4c 5d", 2: "7h 8d", 3: "2d 3c"}, "As Ks Qs Js Ts",
        ["call", "call", "fold", "check"] + ["check"] * 9,
        [1_001, 995, 1_002, 1_002]),
    # Player 3 is all-in for 100 and loses; players 2 and 4 tie with kings and sevens, ace kicker,
    # for the main pot of 405 (the small blind folded) and the side pot of 173 (player 0 folded).
    "main and side pots apart": (
        [1_000, 1_000, 1_000, 100, 1_000],
        {0: "5c 6d", 1: "8c 9d", 2: "Ac 3d", 3: "Qc 4d", 4: "Ad 3c"}, "Kh Kd 7c 7s 2h",
        [("bet", 100), "call", "call", "fold", "call",          # preflop: 5 + 4 x 100
         ("bet", 51), "call", "call",                            # flop: 3 x 51
         ("bet", 10), "call", "fold",                            # turn: 2 x 10
         "check", "check"],
        [849, 995, 1_000 - 161 + 203 + 87, 0, 1_000 - 161 + 202 + 86]),
}


def play_odd_chip_hand(name: str):
    stacks, holes, board, actions, _ = ODD_CHIP_HANDS[name]
    deck = board_game_deck(len(stacks), 0, holes, board)
    h = make_hand("holdem", NO, stacks, structure=Structure(NO, 10, 20, blinds=(5, 10)), button=0, deck=deck)
    for action in actions:
        kind, amount = action if isinstance(action, tuple) else (action, 0)
        h.act(kind, amount)
    while h.phase == "showdown" and not h.over:
        h.show()
    assert h.over
    return h


def test_rule_no_player_gets_more_than_one_odd_chip_from_one_split():
    """Robert's Rules: "No player may receive more than one odd chip." A three-way split of 35:
    one odd chip each to the first two winners left of the button (pokerkit gives both to one)."""
    h = play_odd_chip_hand("one odd chip each")
    assert sorted(_awards(h)) == [(0, 11, 0, ""), (2, 12, 0, ""), (3, 12, 0, "")]
    assert h.stacks == ODD_CHIP_HANDS["one odd chip each"][-1]


def test_rule_main_and_side_pots_are_split_separately():
    """Robert's Rules: "All side pots and the main pot will be split as separate pots, not mixed
    together." The same two players split a main pot of 405 and a side pot of 173: each split's odd
    chip goes to the first of them left of the button, so he gets two (merged, 578 would split
    evenly, as pokerkit does)."""
    h = play_odd_chip_hand("main and side pots apart")
    assert sorted(_awards(h)) == [(2, 87, 1, ""), (2, 203, 0, ""), (4, 86, 1, ""), (4, 202, 0, "")]
    assert h.stacks == ODD_CHIP_HANDS["main and side pots apart"][-1]


def test_hi_lo_split_the_odd_chip_goes_to_the_high_half():
    assert split_hi_lo(25) == (13, 12)


def test_hi_lo_pot_is_split_between_the_best_high_and_the_best_qualifying_low():
    deck = board_game_deck(2, 0, {0: "Ah 2h Kc Kd", 1: "Qs Qh Jc Jd"}, "3c 5d 8s Qd 9h", k=4)
    h = make_hand("omaha8", FIXED, [10_000] * 2, button=0, deck=deck)
    h.call(); h.check()
    _play_out(h)
    # pot 400: player 1's trip queens win the high half, player 0's 8-5-3-2-A the low half
    assert sorted(_awards(h)) == [(0, 200, 0, "low"), (1, 200, 0, "high")]


def test_hi_lo_no_qualifying_low_high_scoops():
    deck = board_game_deck(2, 0, {0: "Ah 2h Kc Kd", 1: "Qs Qh Jc Jd"}, "9c Td 8s Qd 9h", k=4)
    h = make_hand("omaha8", FIXED, [10_000] * 2, button=0, deck=deck)
    h.call(); h.check()
    _play_out(h)
    assert _awards(h) == [(1, 400, 0, "")]


def test_rake_is_five_percent_rounded_down_to_the_cent():
    assert Rules().rake([1_019], True) == [50]


def test_rake_is_capped_at_three_dollars_a_hand():
    assert Rules().rake([5_000, 4_000], True) == [250, 50]


def test_no_flop_no_drop_option():
    assert Rules(no_flop_no_drop=True).rake([1_000], False) == [0]
    assert Rules(no_flop_no_drop=True).rake([1_000], True) == [50]


def test_rake_is_taken_from_the_pot_and_chips_are_conserved():
    h = make_hand("holdem", FIXED, [10_000] * 2, button=0, rules=Rules())
    h.call(); h.check()
    _play_out(h)
    assert h.rake == 20                                     # 5% of $4
    assert sum(h.stacks) + h.rake == 20_000


def test_side_pots_for_all_ins():
    pots = build_pots([100, 300, 300, 50], live=[True, True, True, False], capped=[True, False, False, False])
    assert [(p.amount, p.eligible) for p in pots] == [(350, (0, 1, 2)), (400, (1, 2))]


def test_an_all_in_player_wins_only_the_main_pot():
    deck = board_game_deck(3, 0, {0: "As Ad", 1: "Kc Kd", 2: "Qc Qd"}, "2h 7s 9c 4d 3h")
    h = make_hand("holdem", NO, [1_000, 5_000, 5_000], button=0, deck=deck)
    h.bet(1_000)                                            # player 0 all-in
    h.call(); h.call()
    h.bet(2_000); h.call()                                  # a side pot between players 1 and 2
    _play_out(h)
    assert h.stacks == [3_000, 2_000 + 4_000, 2_000]


def test_protected_all_in_contests_only_the_pots_built_so_far():
    deck = board_game_deck(3, 0, {0: "As Ad", 1: "Kc Kd", 2: "Qc Qd"}, "2h 7s 9c 4d 3h")
    h = make_hand("holdem", NO, [5_000] * 3, button=0, deck=deck)
    h.call(); h.call(); h.check()                           # 600 in the pot
    h.bet(1_000)                                            # player 1 bets on the flop
    h.protect_all_in(2)                                     # player 2 times out: protected
    h.call()                                                # player 0 calls
    assert h.stacks[2] == 4_800                             # nothing more taken from the protected player
    _play_out(h)
    # player 0's aces win the 600 main pot and the 2000 side pot player 2 cannot contest
    assert h.stacks == [5_000 - 1_200 + 2_600, 5_000 - 1_200, 4_800]


def test_showdown_the_last_aggressor_shows_first_and_others_may_muck():
    deck = board_game_deck(2, 0, {0: "As Ad", 1: "Kc Kd"}, "2h 7s 9c 4d 3h")
    h = make_hand("holdem", FIXED, [10_000] * 2, button=0, deck=deck)
    h.call(); h.check()
    h.check(); h.check()
    h.check(); h.check()
    h.check(); h.bet(400); h.call()                         # player 0 bets the river: aggressor
    shown = [e for e in h.events if isinstance(e, ev.Shown)]
    assert [e.player for e in shown] == [0]
    assert h.legal().muck
    h.muck()                                                # the loser need not show
    assert h.over and _awards(h) == [(0, 1_200, 0, "")]


def test_showdown_with_no_bet_first_player_left_of_the_button_shows_first():
    h = make_hand("holdem", FIXED, [10_000] * 3, button=0)
    h.call(); h.call(); h.check()
    while h.phase == "bet":
        h.check()
    shown = [e for e in h.events if isinstance(e, ev.Shown)]
    assert [e.player for e in shown] == [1]


@pytest.mark.parametrize("game", ["stud", "razz", "stud8"])
def test_stud_showdown_with_no_bet_the_first_to_act_on_the_river_shows_first(game):
    """Stud has no button: with no bet on the last round, the first to show is the player who acted
    first on it (the best showing hand), as "left of the button" is in the button games."""
    firsts = set()
    for seed in range(12):
        h = make_hand(game, FIXED, [10_000] * 4, deck=Deck(random.Random(seed)))
        while h.phase == "bet":
            lg = h.legal()
            h.bring_in() if lg.bring_in else h.check() if lg.check else h.call()
        river = max(i for i, e in enumerate(h.events) if isinstance(e, ev.RoundStarted))
        first = next(e.player for e in h.events[river:] if isinstance(e, ev.Checked))
        assert h.showdown_order[0] == first
        firsts.add(first)
    assert len(firsts) > 1          # not always the first seat


def test_the_first_to_show_may_not_muck():
    h = make_hand("holdem", FIXED, [10_000] * 2, button=0)
    h.call(); h.check()
    while h.phase == "bet":
        h.check()
    assert h.phase == "showdown"
    assert not h.legal().muck or h.actor != h.showdown_order[0]


def test_show_all_table_shows_every_remaining_hand():
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0, rules=Rules(rake_percent=0, show_all=True))
    h.call(); h.call(); h.check()
    while h.phase == "draw":
        h.stand_pat()
    while h.phase == "bet":
        h.check()
    assert h.over
    assert sorted(e.player for e in h.events if isinstance(e, ev.Shown)) == [0, 1, 2]
    with pytest.raises(IllegalAction):
        h.muck()


def test_cards_speak_a_mucked_winner_forfeits_but_a_shown_hand_is_read_by_the_dealer():
    deck = board_game_deck(2, 0, {0: "2c 3d", 1: "As Ad"}, "Ah 7s 9c 4d Kh")
    h = make_hand("holdem", FIXED, [10_000] * 2, button=0, deck=deck, rules=NO_RAKE)
    h.call(); h.check()
    while h.phase == "bet":
        h.check()
    # no bet: player 1 (left of the button) shows first; the dealer reads his trip aces
    assert h.over or h.actor == 0
    if not h.over:
        h.show()
    assert _awards(h) == [(1, 400, 0, "")]
    with pytest.raises(IllegalAction, match="over"):
        h.fold()


def test_dead_money_goes_to_the_live_players_when_they_put_in_nothing():
    pots = build_pots([0, 0, 100, 200], live=[True, True, False, False], capped=[True, True, False, False])
    assert [(p.amount, p.eligible) for p in pots] == [(300, (0, 1))]


def test_a_dead_small_blind_is_never_returned_as_an_uncalled_bet():
    from cardroom.engine.hand import Player
    players = [Player("A", 10_000, 1), Player("B", 10_000, 2),
               Player("C", 10_000, 3, dead_post=100)]   # C is the big blind and owes a small blind
    h = make_hand("holdem", FIXED, None, players=players, button=0)
    assert h.totals == [0, 100, 300]
    h.fold(); h.fold()                                      # everyone folds to the big blind
    returned = [e for e in h.events if isinstance(e, ev.UncalledReturned)]
    assert returned == [ev.UncalledReturned(2, 100)]        # only the unmatched part of his live blind
    assert h.stacks == [10_000, 9_900, 10_100]


@pytest.mark.parametrize("aces", [0, 2])
def test_a_dead_small_blind_is_dead_money_and_gives_its_poster_no_claim_to_the_pot(aces):
    """A missed small blind made up as a dead post goes to the pot and counts for nothing: the
    poster matched the same bets as everyone else, so the best hand wins the whole pot (the pot
    was once given to the poster alone, whose total was the highest)."""
    from cardroom.engine.hand import Player
    players = [Player("A", 10_000, 1), Player("B", 10_000, 2),
               Player("C", 10_000, 3, dead_post=100)]   # C is the big blind and owes a small blind
    holes = {aces: "As Ah", 1: "7c 2d", 2 - aces: "8h 3c"}
    deck = board_game_deck(3, 0, holes, "Kd Qs 9c 5h 4s")
    h = make_hand("holdem", FIXED, None, players=players, button=0, deck=deck)
    _play_out(h)                                            # totals 200, 200 and 200 + 100 dead
    assert _awards(h) == [(aces, 700, 0, "")]               # and the poster wins it all with the aces
    assert h.stacks == ([10_500, 9_800, 9_700] if aces == 0 else [9_800, 9_800, 10_400])
