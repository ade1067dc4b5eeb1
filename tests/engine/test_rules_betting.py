"""Betting rules of the three rule pages, one test per rule, named after it."""

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, POT, Rules, Structure, planet_small_blind
from cardroom.engine.cards import Deck
from cardroom.engine.hand import ActionNotAllowed, BadAmount, Hand, NotYourTurn, Player
from cardroom.engine.variants import VARIANTS
from tests.engine.helpers import make_hand


@pytest.mark.parametrize("small_bet, small_blind", [(25, 10), (200, 100), (300, 100), (400, 200)])
def test_small_blind_is_half_the_small_bet_rounded_down_to_a_dollar_or_even_denomination(small_bet, small_blind):
    # seed 000: $.25/$.50 -> $.10, $2/$4 -> $1, $4/$8 -> $2; seed 001: $3/$6 -> $1
    assert planet_small_blind(small_bet) == small_blind
    s = Structure.make(FIXED, small_bet, small_bet * 2)
    assert s.blinds == (small_blind, small_bet)   # the big blind equals the small bet


@pytest.mark.parametrize("kind, small_bet, bring_in", [
    (FIXED, 100, 25), (FIXED, 200, 50), (FIXED, 300, 100), (FIXED, 400, 100), (FIXED, 1000, 300), (FIXED, 4, 1),
    (POT, 200, 50), (NO, 1000, 200)])
def test_the_default_stud_bring_in_is_a_fraction_of_the_small_bet_rounded_down_as_the_small_blind_is(
        kind, small_bet, bring_in):
    # A third of the small bet in fixed limit (a quarter otherwise), down to a whole dollar or a
    # chip below a dollar: $2/$4 brings in for 50c, never an odd 66c. A table may set its own.
    assert Structure.make(kind, small_bet, stud=True).bring_in == bring_in
    assert Structure.make(kind, small_bet, stud=True, bring_in=7).bring_in == 7


def test_blinds_are_posted_left_of_the_button():
    h = make_hand("holdem", FIXED, [1000] * 4, button=1)
    posts = [e for e in h.events if isinstance(e, ev.Posted)]
    assert [(e.player, e.kind, e.amount) for e in posts] == [(2, "small blind", 100), (3, "big blind", 200)]


def test_first_round_action_starts_left_of_the_big_blind():
    h = make_hand("holdem", FIXED, [1000] * 5, button=0)
    assert h.actor == 3


def test_fixed_limit_allows_a_bet_and_three_raises_the_big_blind_counting_as_the_bet():
    h = make_hand("holdem", FIXED, [10_000] * 6, button=0)   # blinds 100/200, bets of 200
    assert h.actor == 3
    for to in (400, 600, 800):                              # three raises on top of the blind
        lg = h.legal()
        assert (lg.min_to, lg.max_to) == (to, to)
        h.bet(to)
    lg = h.legal()
    assert lg.min_to == 0 and lg.can_call                   # capped: call or fold
    with pytest.raises(ActionNotAllowed, match="capped at 4 bets"):
        h.bet(1000)
    h.call()


def test_a_table_may_cap_at_three_bets():
    s = Structure.make(FIXED, 200, 400, cap=3)
    h = make_hand("holdem", FIXED, [10_000] * 4, structure=s)
    h.bet(400)
    h.bet(600)
    assert h.legal().min_to == 0


def test_cap_applies_after_the_flop_with_an_opening_bet_and_three_raises():
    h = make_hand("holdem", FIXED, [10_000] * 3, button=0)
    h.call(); h.call(); h.check()                           # preflop limped
    for to in (200, 400, 600, 800):
        h.bet(to)
    assert h.legal().min_to == 0


def test_fixed_limit_big_bet_on_turn_and_river():
    h = make_hand("holdem", FIXED, [10_000] * 2, button=0)
    h.call(); h.check()                                     # heads-up: button = small blind acts first
    assert h.legal().min_to == 200                          # flop: small bet
    h.check(); h.check()
    assert h.legal().min_to == 400                          # turn: big bet
    h.bet(400); h.call()
    assert h.legal().min_to == 400                          # river


def test_heads_up_the_button_posts_the_small_blind_and_acts_first_before_the_flop():
    h = make_hand("holdem", NO, [10_000] * 2, button=1, small_bet=200)
    posts = [e for e in h.events if isinstance(e, ev.Posted)]
    assert (posts[0].player, posts[0].kind) == (1, "small blind")
    assert h.actor == 1
    h.call(); h.check()
    assert h.actor == 0                                     # after the flop the big blind acts first


def test_pot_limit_ten_in_the_pot_a_five_bet_may_be_called_and_raised_twenty_more():
    # seed 001: "if there is $10 in the pot and Player 1 wagers $5 then Player 2 could Call $5 and
    # Raise up to an additional $20."
    s = Structure(POT, 500, 1000, blinds=(250, 500))
    h = make_hand("holdem", POT, [100_000] * 2, structure=s, button=0)
    h.call(); h.check()                                     # $10 in the pot
    assert sum(h.totals) == 1000
    h.bet(500)                                              # Player 1 bets $5
    lg = h.legal()
    assert lg.call == 500
    assert lg.max_to == 500 + 2000                          # call $5, raise up to $20 more


def test_pot_limit_minimum_bet_is_the_big_blind_and_a_bet_size_cannot_decline():
    s = Structure(POT, 500, 1000, blinds=(250, 500))
    h = make_hand("holdem", POT, [100_000] * 3, structure=s, button=0)
    h.call(); h.call(); h.check()
    assert h.legal().min_to == 500                          # minimum opening bet = big blind
    h.bet(700)                                              # bets $7
    assert h.legal().min_to == 1400                         # the next raise is at least $7 more
    with pytest.raises(BadAmount):
        h.bet(1300)


def test_no_limit_maximum_bet_is_the_table_stake():
    h = make_hand("holdem", NO, [5_000, 7_000, 9_000], button=0)
    lg = h.legal()
    assert h.actor == 0 and lg.max_to == 5_000


def test_no_limit_minimum_raise_is_the_last_full_bet_or_raise():
    h = make_hand("holdem", NO, [50_000] * 3, button=0)    # blinds 100/200
    h.bet(700)                                              # a raise of 500
    assert h.legal().min_to == 1200


def test_no_limit_short_all_in_raise_does_not_reopen_betting_to_players_who_already_acted():
    h = make_hand("holdem", NO, [50_000, 1_500, 50_000], button=2)   # P1 small blind, P2 big blind
    h.call()                                                # button calls 200
    h.call()                                                # small blind completes
    h.check()                                               # big blind checks: flop
    h.bet(1_000)                                            # P1 bets 1000
    h.bet(1_300)                                            # P2 all-in for 1300: a short raise
    lg = h.legal()
    assert h.actor == 2 and lg.min_to == 2_300              # P3 has not acted: may raise
    h.call()
    lg = h.legal()
    assert h.actor == 0 and lg.min_to == 0 and lg.call == 300   # P1 acted before: call or fold only
    with pytest.raises(ActionNotAllowed, match="does not reopen"):
        h.bet(5_000)


def test_a_full_all_in_raise_reopens_the_betting():
    h = make_hand("holdem", NO, [50_000, 2_200, 50_000], button=2)
    h.call(); h.call(); h.check()
    h.bet(1_000)
    h.bet(2_000)                                            # all-in, a full raise of 1000
    h.call()
    assert h.actor == 0 and h.legal().min_to == 3_000


def test_illegal_action_raises_and_changes_nothing():
    h = make_hand("holdem", NO, [10_000] * 3, button=0)
    before = (list(h.stacks), list(h.totals), h.actor, len(h.events))
    with pytest.raises(BadAmount, match="between"):
        h.bet(250)                                          # below the minimum raise
    with pytest.raises(ActionNotAllowed, match="cannot check"):
        h.check()
    with pytest.raises(NotYourTurn):
        h.fold(player=1)
    assert (list(h.stacks), list(h.totals), h.actor, len(h.events)) == before


def test_lowball_house_rule_must_raise_to_enter():
    rules = Rules(rake_percent=0, must_raise_to_enter=True)
    h = make_hand("27-draw", FIXED, [10_000] * 4, button=0, rules=rules)
    assert not h.legal().can_call
    with pytest.raises(ActionNotAllowed, match="must raise"):
        h.call()
    h.bet(400)                                              # raising enters
    assert h.legal().can_call                               # someone else's raise may be called
    h.call()


def test_spread_limit_bets_any_amount_between_min_and_max():
    s = Structure("spread", 200, 1000, blinds=(100, 200))
    h = make_hand("holdem", "spread", [10_000] * 3, structure=s, button=0)
    lg = h.legal()
    assert (lg.min_to, lg.max_to) == (400, 1200)
    h.bet(900)                                              # a raise of 700
    lg = h.legal()
    assert lg.min_to == 1600 and lg.max_to == 1900


@pytest.mark.parametrize("game,last_round", [("holdem", 3), ("draw", 1), ("stud", 4)])
def test_spread_limit_bets_any_amount_between_min_and_max_on_every_round(game, last_round):
    """Found by a play-tester at a $1/$5 spread-limit draw table: after the draw the only bet
    offered was $5, the fixed-limit big bet. Every round spreads from the minimum to the maximum
    (checked on the last, a big-bet round in fixed limit)."""
    s = Structure.make("spread", 200, 1000, stud=VARIANTS[game].bring_in)
    h = make_hand(game, "spread", [10_000] * 3, structure=s, button=0)
    for _ in range(200):
        if h.actor is None or h.round == last_round and h.phase == "bet":
            break
        lg = h.legal()
        if lg.phase == "draw":
            h.stand_pat()
        elif lg.bring_in:
            h.bring_in()
        elif lg.check:
            h.check()
        else:
            h.call()
    assert h.round == last_round and h.phase == "bet"
    lg = h.legal()
    assert (lg.min_to, lg.max_to) == (200, 1000)             # any bet from $2 to $10
    h.bet(300)
    lg = h.legal()
    assert (lg.min_to, lg.max_to) == (600, 1300)             # a raise of at least $3, at most $10


def test_uncalled_bet_is_returned():
    h = make_hand("holdem", NO, [10_000] * 2, button=0)
    h.bet(3_000)
    h.fold()
    returned = [e for e in h.events if isinstance(e, ev.UncalledReturned)]
    assert returned == [ev.UncalledReturned(0, 2_800)]
    assert h.stacks == [10_200, 9_800]


def test_new_player_post_is_live_and_missed_small_blind_is_dead():
    from cardroom.engine.hand import Player
    players = [Player("A", 10_000, 1), Player("B", 10_000, 2), Player("C", 10_000, 3),
               Player("New", 10_000, 4, live_post=200, dead_post=100)]
    h = make_hand("holdem", FIXED, None, players=players, button=0)
    assert h.totals[3] == 300 and h.bets[3] == 200          # the dead 100 does not count as a bet
    assert h.actor == 3 and h.legal().check                 # left of the big blind, already in for it
    h.check()
    assert h.actor == 0 and h.legal().call == 200


def test_stud_lowest_up_card_brings_in_and_may_complete():
    from cardroom.engine.cards import Deck, parse_cards
    # dealt one at a time from player 0: down, down, up
    ups = parse_cards("Kd 2c 9h")
    order = parse_cards("As Ah Ad") + parse_cards("Ks Kh Qc") + ups
    deck = Deck.stacked(order)
    h = make_hand("stud", FIXED, [10_000] * 3, deck=deck)
    assert h.actor == 1                                     # the 2c brings in
    lg = h.legal()
    assert lg.bring_in == h.structure.bring_in and lg.min_to == 200 and not lg.fold
    with pytest.raises(ActionNotAllowed, match="the lowest up card must bring in or complete"):
        h.fold()
    h.bring_in()
    assert h.legal().min_to == 200                          # the next player may complete


def test_razz_highest_up_card_brings_in():
    from cardroom.engine.cards import Deck, parse_cards
    order = parse_cards("2s 3s 4s") + parse_cards("2h 3h 4h") + parse_cards("Kd Ac 7h")
    h = make_hand("razz", FIXED, [10_000] * 3, deck=Deck.stacked(order))
    assert h.actor == 0                                     # king is the highest card in razz
    # Seen in the hot-seat razz game: the refusal said "the lowest up card".
    with pytest.raises(ActionNotAllowed, match="the highest up card must bring in or complete"):
        h.fold()


def test_stud_best_showing_hand_acts_first_on_fourth_street():
    from cardroom.engine.cards import Deck, parse_cards
    order = parse_cards("As Ah Ad") + parse_cards("Ks Kh Qc") + parse_cards("Kd 2c 9h")
    order += parse_cards("3c") + parse_cards("4d 5d 9c")    # burn, then fourth street
    h = make_hand("stud", FIXED, [10_000] * 3, deck=Deck.stacked(order))
    h.bring_in(); h.call(); h.call()
    assert h.actor == 2                                     # 9h 9c: a pair of nines showing
    assert h.legal().min_to == 200 and h.round == 1         # fourth street: small bet


# Seven-card stud dealt from player 0: a down card to each, another, then the up cards; a burn and
# fourth street. Player 2, with a stack of the ante and a call of the bring-in, is all-in on third
# street and shows the best board on fourth; player 1 the best of the others'; player 0 is next
# clockwise from player 2. Stud: Kd 4d / 2c 2d / 9h 9c; razz (low boards): Kd Qd / 5c 2d / 3h Ac.
ALL_IN_BEST_BOARD = {"stud": "As Ah Ad  Ks Kh Qc  Kd 2c 9h  3c  4d 2d 9c",
                     "razz": "Ts Th Td  Js Jh Jc  Kd 5c 3h  8c  Qd 2d Ac"}


@pytest.mark.parametrize("game", ["stud", "razz"])
def test_rule_250_stud_best_board_all_in_action_goes_clockwise_from_him_as_if_he_had_checked(game):
    """WSOP Live Action rule 250: the high board (razz: the low) is judged among every player still
    in, all-in ones included; when that player is all-in, the action starts with the next player
    clockwise from him, as if he had checked. It once went to the best board of those who could
    still bet (player 1 here)."""
    from cardroom.engine.cards import parse_cards
    deck = Deck.stacked(parse_cards(ALL_IN_BEST_BOARD[game]))
    h = make_hand(game, FIXED, [10_000, 10_000, 75], deck=deck)   # ante 25, bring-in 50
    while h.round == 0:
        h.bring_in() if h.legal().bring_in else h.call()
    assert h.all_in[2] and h.round == 1
    assert h.actor == 0
    h.check()
    assert h.actor == 1 and h.legal().check
    h.check()
    assert h.round == 2                                     # nobody else acts on fourth street


def test_rule_227_a_bring_in_all_in_for_less_does_not_lower_what_the_others_must_put_in():
    """WSOP Live Action rule 227: the 2c brings in all-in for 20 of the 50 bring-in; the next
    players still owe the whole 50 (a call of 20 was accepted)."""
    from cardroom.engine.cards import parse_cards
    deck = Deck.stacked(parse_cards("As Ah Ad  Ks Kh Qc  Kd 2c 9h"))
    h = make_hand("stud", FIXED, [10_000, 45, 10_000], deck=deck)   # ante 25, then 20 of the 50
    assert h.actor == 1 and h.legal().bring_in == 20
    h.bring_in()
    assert h.all_in[1] and h.bets[1] == 20
    assert h.actor == 2 and h.legal().call == 50
    assert h.call()[0] == ev.Called(2, 50, False)
    assert h.actor == 0 and h.legal().call == 50
    h.call()
    assert h.round == 1 and h.bets == [0, 0, 0]
    assert h.pots()[0].amount == 3 * 25 + 20 * 3 and h.pots()[1].amount == 2 * 30


def test_razz_lowest_showing_hand_acts_first_a_low_pair_beats_a_high_pair():
    from cardroom.engine.cards import parse_cards
    from cardroom.engine.showing import showing_value
    low_pair = showing_value(parse_cards("Kd 9c 2s 2h"), razz=True)
    high_pair = showing_value(parse_cards("8d 8c 7s 4h"), razz=True)
    no_pair = showing_value(parse_cards("Kd Qc Js Th"), razz=True)
    assert no_pair > low_pair > high_pair       # greater acts first


# ---------------------------------------------------------------------------------------------
# Fixed limit with stacks no round can exhaust: legal()'s shortcut (Hand._no_stack_runs_out)

_BLIND_GAMES = sorted(k for k in VARIANTS if not VARIANTS[k].bring_in)


@st.composite
def deep_fixed_limit_hands(draw):
    """A fixed-limit blind game whose every stack is above the most a hand can take (caps of 3
    and 4, antes, the must-raise-to-enter rule), and the seed of the random play to follow."""
    variant = VARIANTS[draw(st.sampled_from(_BLIND_GAMES))]
    small = draw(st.sampled_from((2, 25, 200, 400)))
    structure = Structure.make("fixed", small, small * 2, cap=draw(st.sampled_from((3, 4))),
                               ante=draw(st.sampled_from((0, max(1, small // 10)))))
    most = structure.most_put_in(len(variant.streets), variant.big_bet_from)
    n = draw(st.integers(2, variant.max_seats))
    stacks = draw(st.lists(st.integers(most + 1, 3 * most), min_size=n, max_size=n))
    players = [Player(f"p{i}", stack, seat=i + 1) for i, stack in enumerate(stacks)]
    rules = Rules(must_raise_to_enter=draw(st.booleans()))
    hand = Hand(variant, structure, players, button=draw(st.integers(0, n - 1)),
                deck=Deck(random.Random(draw(st.integers(0, 2**32 - 1)))), rules=rules)
    return hand, draw(st.integers(0, 2**32 - 1))


def _general_legal(hand: Hand):
    """legal() by the general rules (_raise_range, all-in clauses and all) in the same state."""
    hand._no_stack_runs_out, hand._legal = False, None
    try:
        return hand.legal()
    finally:
        hand._no_stack_runs_out, hand._legal = True, None


def _plays_as_the_general_rules(hand: Hand, seed: int) -> int:
    from tests.engine.strategies import apply, choose
    assert hand._no_stack_runs_out
    rng, decisions = random.Random(seed), 0
    while hand.actor is not None:
        general = _general_legal(hand)
        assert hand.legal() == general
        decisions += general.phase == "bet"
        apply(hand, choose(hand, rng, protect=0.05))
    assert not any(hand.all_in)
    return decisions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deep_fixed_limit_hands())
def test_fixed_limit_with_stacks_no_betting_can_exhaust_plays_as_the_general_rules(table):
    """A stack above the ante, the largest blind and a capped round on every street can never be
    all-in, so legal() may skip the all-in clauses of _raise_range (Hand._no_stack_runs_out). At
    every decision of random play (protected all-ins too) its answer is the general rules' answer
    in the same state, and nobody ever goes all-in."""
    _plays_as_the_general_rules(*table)


@pytest.mark.deep
@settings(max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deep_fixed_limit_hands())
def test_fixed_limit_with_stacks_no_betting_can_exhaust_plays_as_the_general_rules_deep(table):
    _plays_as_the_general_rules(*table)


def test_a_stack_that_a_capped_hand_could_exhaust_takes_the_general_rules():
    """The shortcut needs every stack above the most a hand can take: at that amount exactly (or
    with no cap, in spread, pot or no limit, or with the cap lifted heads-up) it is off."""
    holdem = VARIANTS["holdem"]
    fixed = Structure.make("fixed", 200, 400)
    most = fixed.most_put_in(len(holdem.streets), holdem.big_bet_from)
    assert most == 200 + 4 * (2 * 200 + 2 * 400)   # the big blind, then a capped round on each street
    assert Hand(holdem, fixed, [Player("a", most + 1), Player("b", most + 1)])._no_stack_runs_out
    assert not Hand(holdem, fixed, [Player("a", most + 1), Player("b", most)])._no_stack_runs_out
    for structure in (Structure.make("fixed", 200, 400, cap=None), Structure.make("no", 200, 400),
                      Structure.make("fixed", 200, 400, uncapped_heads_up=True)):
        assert not Hand(holdem, structure, [Player("a", 10**9), Player("b", 10**9)])._no_stack_runs_out


# ---------------------------------------------------------------------------------------------
# Each betting rule has one function that owns its condition and its message (legality.py)

def test_rule_a_short_all_in_raise_does_not_reopen_the_betting_the_raise_range_says_why():
    """Legality._raise_range is the one place that decides whether p may raise; when p may not,
    its answer carries the message verify() gives. Legality._full_raise_to is what a full raise
    is: after a short all-in it stays the amount to call plus the last full raise."""
    h = make_hand("holdem", NO, [50_000, 1_500, 50_000], button=2)   # P1 small blind, P2 big blind
    h.call(); h.call(); h.check()                          # to the flop
    h.bet(1_000)                                            # P1 bets 1000
    h.bet(1_300)                                            # P2 all-in for 1300: short
    assert h._full_raise_to() == 2_300                      # 1300 to call + the last full raise of 1000
    h.call()                                                # P3
    p = h.actor
    lo, hi, why = h._raise_range(p, h.bets[p], h.bets[p] + h.stacks[p], h._to_call)
    assert (p, lo, hi) == (0, 0, 0) and h.legal().raise_kind == ""
    assert why == ("you may not raise now: only call or fold "
                   "(an all-in for less than a full raise does not reopen the betting)")
    with pytest.raises(ActionNotAllowed) as e:
        h.bet(5_000)
    assert str(e.value) == why


def test_rule_fixed_limit_short_all_ins_that_together_make_a_full_raise_reopen_the_betting():
    """Fixed limit: a raise is full when it reaches the last full bet plus the round's bet, even
    when two short all-ins make it between them; the bettor may then raise again."""
    h = make_hand("holdem", FIXED, [50_000, 50_000, 500, 600], button=0)   # bets of 200 on the flop
    h.call(); h.call(); h.call(); h.check()                # P4, P1, P2 call; P3 checks: the flop
    assert h.actor == 1
    h.bet(200)                                              # P2 bets
    h.bet(300)                                              # P3 all-in for 300: short of 400
    assert h._full_raise_to() == 400
    h.bet(400)                                              # P4 all-in for 400: the raise is made
    h.call()                                                # P1
    assert h.actor == 1 and h.legal().min_to == 600         # reopened to the bettor


def test_rule_a_short_stack_goes_all_in_for_what_it_has():
    """Hand._put is every ante, blind, call and bet: a stack that cannot cover the amount goes
    all-in for what it has and may bet no more this hand."""
    h = make_hand("holdem", NO, [50_000, 50_000, 150, 50_000], button=0)   # the big blind has 150
    posted = [e for e in h.events if isinstance(e, ev.Posted)][-1]
    assert (posted.player, posted.amount, posted.all_in) == (2, 150, True) and h.all_in[2]
    assert 2 not in h._active and h.stacks[2] == 0
    h = make_hand("holdem", NO, [50_000, 50_000, 50_000, 700], button=0)
    assert h.actor == 3 and h.legal().max_to == 700
    events = h.bet(700)
    assert events[0].all_in and h.stacks[3] == 0 and h.all_in[3]
    h2 = make_hand("holdem", NO, [50_000, 3_000, 50_000, 50_000], button=0)
    h2.bet(5_000)
    h2.fold()
    events = h2.call()                                      # P2: 2900 left behind his 100 blind
    assert (events[0].amount, events[0].all_in, h2.stacks[1]) == (2_900, True, 0)


@pytest.mark.parametrize("stack", [10_000, 2_000])   # the fixed-limit shortcut, then the general rules
def test_rule_must_raise_to_enter_the_call_refused_says_why(stack):
    """Legality._call_refused owns lowball's house rule: nobody may just call the big blind, on
    either path of legal(); the message is its own. After a raise the raise may be called, and
    after the draw a bet may be called."""
    rules = Rules(rake_percent=0, must_raise_to_enter=True)
    h = make_hand("27-draw", FIXED, [stack] * 3, button=0, rules=rules)
    assert h._no_stack_runs_out == (stack == 10_000)
    why = h._call_refused()
    assert why == "house rule: you must raise the big blind to enter the pot"
    lg = h.legal()
    assert not lg.can_call and lg.call == 0 and lg.min_to == 400
    with pytest.raises(ActionNotAllowed) as e:
        h.call()
    assert str(e.value) == why
    h.bet(400)
    assert h._call_refused() is None and h.legal().can_call
    h.call(); h.call()                                      # to the draw
    while h.phase == "draw":
        h.stand_pat()
    h.bet(400)                                              # the big bet after the draw
    assert h._call_refused() is None and h.legal().can_call
    assert make_hand("27-draw", FIXED, [stack] * 3, button=0)._call_refused() is None   # a table without it


@pytest.mark.parametrize("stack", [150, 200])   # less than the big blind, exactly it
def test_rule_must_raise_to_enter_a_stack_no_bigger_than_the_big_blind_may_go_all_in(stack):
    """Issue 35 (4): must raise to enter left a player who cannot raise (his stack no bigger than
    the big blind) only a fold. He may call all-in; a stack that can raise still may not just call."""
    rules = Rules(rake_percent=0, must_raise_to_enter=True)
    h = make_hand("27-draw", FIXED, [10_000, 10_000, 10_000, stack], button=0, rules=rules)
    assert h.actor == 3
    lg = h.legal()
    assert lg.can_call and lg.call == stack and not lg.min_to
    (called,) = h.call()
    assert (called.amount, called.all_in) == (stack, True)
    assert not h.legal().can_call                           # the next player could raise: he must


def test_rule_must_raise_to_enter_the_small_blind_short_of_the_big_blind_may_call_all_in():
    rules = Rules(rake_percent=0, must_raise_to_enter=True)
    h = make_hand("27-draw", FIXED, [10_000, 150, 10_000], button=0, rules=rules)   # SB 100 of 150
    h.fold()                                                # the button
    assert h.actor == 1 and h.legal().can_call and h.legal().call == 50
    h.call()
    assert h.all_in[1]
