"""The pot goes to the best hand(s): a settlement property across games.

A small model of settlement, written from the rules (DESIGN.md, the rule pages) and not from the
engine's pots/showdown code, recomputes from a finished hand's public record (its events) who should
have won what, and the engine's Awarded events, rake and final stacks must agree with it:

- What each player put in: posts, calls, bets and raises, less uncalled bets returned.
- Claims: a player wins from each other player at most what they put in themselves (an all-in or a
  protected all-in, frozen when the player timed out, caps its owner's claim). A dead small blind
  is dead money: it goes to the main pot and counts for no claim; so is a big blind's or button's
  ante, and a player all-in on such an ante alone contests that dead money as a pot of its own with
  everyone still in. Antes posted by everyone count like any chip, so a player all-in for less than
  the ante wins only the part that was matched.
- Pots: one layer between each two successive claims of the live players (not folded or mucked),
  contested by the live players who reach its top; chips folded above every live claim go to the
  last pot. No live claim at all: one pot for all the live players.
- Each pot, less its rake (Rules.rake, a house rule), goes to the best high hand shown among its
  contenders, or in hi-lo games half to the best high and half to the best qualifying low (the odd
  chip to the high half; no qualifying low: the high scoops). Ties split; odd chips go to the first
  winner left of the button, in stud to the highest card by suit (spades, hearts, diamonds, clubs),
  in razz and between stud/8's tied lows to the lowest, the suits ranked the same way (the deuce of
  clubs before the deuce of spades). A pot with one contender is theirs without a showdown.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

import pytest
from hypothesis import given

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, STRUCTURES, Rules, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.variants import VARIANTS
from tests.engine.helpers import board_game_deck, make_hand
from tests.engine.strategies import play, random_hand, random_rules, random_stack, random_structure
from tests.engine.test_properties import CI, DEEP, play_checked, tables

SUIT_ORDER = "shdc"                 # the suits from the highest: spades, hearts, diamonds, clubs
HIGH_RANKS = "23456789TJQKA"
RAZZ_RANKS = "A23456789TJQK"        # razz: the ace is the lowest card


def put_in(events, n: int, dead_antes: bool = False) -> tuple[list[int], list[int]]:
    """What each player put in this hand, and how much of that was dead money: a dead small blind,
    and (`dead_antes`: a big blind's or button's ante) the ante."""
    put, dead = [0] * n, [0] * n
    for e in events:
        if isinstance(e, ev.Posted):
            put[e.player] += e.amount
            if e.kind == "dead" or (dead_antes and e.kind == "ante"):
                dead[e.player] += e.amount
        elif isinstance(e, ev.Called):
            put[e.player] += e.amount
        elif isinstance(e, ev.BetTo):
            put[e.player] += e.added
        elif isinstance(e, ev.UncalledReturned):
            put[e.player] -= e.amount
    return put, dead


def side_pots(put: list[int], dead: list[int], live: list[int], broke: set[int] = frozenset()
              ) -> list[tuple[int, list[int]]]:
    """[(amount, contenders)], main pot first, before the rake. `broke`: players all-in on their
    ante."""
    claim = [t - d for t, d in zip(put, dead)]
    pots, below = [], 0
    for level in sorted({claim[p] for p in live if claim[p] > 0}):
        amount = sum(min(c, level) - min(c, below) for c in claim)
        pots.append([amount, [p for p in live if claim[p] >= level]])
        below = level
    if not pots:
        pots.append([0, list(live)])
    pots[-1][0] += sum(c - min(c, below) for c in claim)     # folded chips above every live claim
    if len(live) > 1 and any(claim[p] == 0 for p in broke if p in live):
        pots.insert(0, [sum(dead), list(live)])               # the dead money, for everyone still in
    else:
        pots[0][0] += sum(dead)
    return [(a, c) for a, c in pots if a]      # nothing in the middle: no pot


def odd_chip_order(hand, winners: list[int], cards: dict[int, tuple], low: bool) -> list[int]:
    """`low`: the winners tied for a low (razz, or a hi-lo pot's low half)."""
    if not hand.variant.bring_in:     # button games: clockwise from the seat left of the button
        return sorted(winners, key=lambda p: (p - hand.button - 1) % hand.n)

    def strength(card) -> tuple[int, int]:
        """Greater for the card that takes the odd chip first: the highest, for a low the lowest."""
        rank, suit = repr(card)
        if low:
            return (-RAZZ_RANKS.index(rank), SUIT_ORDER.index(suit))
        return (HIGH_RANKS.index(rank), -SUIT_ORDER.index(suit))
    return sorted(winners, key=lambda p: max(map(strength, cards[p])), reverse=True)


def expected_settlement(hand) -> tuple[list[int], list[int], int]:
    """(won by each player, each pot's payout after rake, rake) from the hand's events alone."""
    n, events = hand.n, hand.events
    put, dead = put_in(events, n, hand.structure.ante_style != "all")
    gone = {e.player for e in events if isinstance(e, (ev.Folded, ev.Mucked))}
    live = [p for p in range(n) if p not in gone]
    shown = {e.player: e for e in events if isinstance(e, ev.Shown)}
    cards = {p: e.cards for p, e in shown.items()}
    saw_flop = any(isinstance(e, (ev.DealtBoard, ev.DrawStarted)) for e in events) or \
        sum(isinstance(e, ev.DealtHole) for e in events) > n    # stud: a second street was dealt
    broke = {e.player for e in events if isinstance(e, ev.Posted) and e.kind == "ante" and e.all_in}
    pots = side_pots(put, dead, live, broke)
    rakes = hand.rules.rake([a for a, _ in pots], saw_flop)
    won, paid = [0] * n, []

    def share(amount: int, winners: list[int], low: bool = hand.variant.lowball) -> None:
        q, odd = divmod(amount, len(winners))
        for i, p in enumerate(odd_chip_order(hand, winners, cards, low)):
            won[p] += q + (i < odd)

    for (amount, contenders), rake in zip(pots, rakes):
        amount -= rake
        paid.append(amount)
        if len(contenders) == 1:
            won[contenders[0]] += amount
            continue
        assert all(p in shown for p in contenders), "a contested pot without every contender shown"
        best = max(shown[p].high for p in contenders)
        highs = [p for p in contenders if shown[p].high == best]
        lows = [shown[p].low for p in contenders if shown[p].low is not None]
        if hand.variant.low is not None and lows:
            low = amount // 2
            share(amount - low, highs)                        # the odd chip to the high half
            share(low, [p for p in contenders if shown[p].low == max(lows)], low=True)
        else:
            share(amount, highs)
    return won, paid, sum(rakes)


def check_settlement(hand) -> tuple[list[int], list[int]]:
    """The engine's payouts, rake and final stacks against the model's; returns the model's."""
    assert hand.over
    start = [p.stack for p in hand.players]
    won, paid, rake = expected_settlement(hand)
    awarded, by_pot = [0] * hand.n, Counter()
    for e in hand.events:
        if isinstance(e, ev.Awarded):
            awarded[e.player] += e.amount
            by_pot[e.pot] += e.amount
    put, _ = put_in(hand.events, hand.n)
    assert awarded == won, (awarded, won)
    assert [a for _, a in sorted(by_pot.items()) if a] == paid, (by_pot, paid)
    assert hand.rake == rake == sum(e.amount for e in hand.events if isinstance(e, ev.Raked))
    assert sum(awarded) + rake == sum(put)
    final = [s - t + w for s, t, w in zip(start, put, won)]
    assert hand.stacks == final and list(hand.events[-1].stacks) == final
    return won, paid


# ---------------------------------------------------------------------------- the property

@CI
@given(tables())
def test_each_pot_goes_to_the_best_hand_shown_among_those_who_contest_it(table):
    check_settlement(play_checked(*table))


@pytest.mark.deep
@DEEP
@given(tables())
def test_each_pot_goes_to_the_best_hand_shown_among_those_who_contest_it_deep(table):
    check_settlement(play_checked(*table))


def _splits(hand) -> list[list[int]]:
    """The amounts paid out of each pot (or half) that was shared."""
    shares = defaultdict(list)
    for e in hand.events:
        if isinstance(e, ev.Awarded):
            shares[e.pot, e.half].append(e.amount)
    return [a for a in shares.values() if len(a) > 1]


def test_random_play_meets_side_pots_and_hi_lo_splits_in_every_game():
    """A fixed sweep of every variant and structure, so the property is seen to meet side pots,
    hi-lo halves and ties, not only uncontested pots."""
    seen = Counter()
    for key in sorted(VARIANTS):
        for kind in STRUCTURES:
            rng = random.Random(f"settle/{key}/{kind}")
            for _ in range(40):
                hand = random_hand(rng, VARIANTS[key], kind=kind)
                for _ in play(hand, rng, protect=0.05):
                    pass
                _, paid = check_settlement(hand)
                seen["side pots"] += len(paid) > 1
                seen["hi-lo"] += any(isinstance(e, ev.Awarded) and e.half == "low" for e in hand.events)
                seen["split"] += bool(_splits(hand))
    assert seen["side pots"] >= 200 and seen["hi-lo"] >= 30 and seen["split"] >= 5, seen


def test_when_the_board_plays_every_pot_is_split_and_odd_chips_go_left_of_the_button():
    """Hold'em with a royal flush on the board: every showdown is a tie, in every pot and side pot
    (random stacks, play, rake and buttons), so the odd chips are exercised hand after hand."""
    rng, seen = random.Random("settle/board plays"), Counter()
    for i in range(400):
        variant = VARIANTS["holdem"]
        structure = random_structure(rng, variant, STRUCTURES[i % len(STRUCTURES)])
        n, bb = rng.randint(2, variant.max_seats), structure.big_blind
        players = [Player(f"p{j}", random_stack(rng, bb), seat=j + 1) for j in range(n)]
        button = rng.randrange(n)
        hand = Hand(variant, structure, players, button=button, rules=random_rules(rng),
                    deck=board_game_deck(n, button, {}, "As Ks Qs Js Ts"))
        for _ in play(hand, rng, protect=0.05):
            pass
        _, paid = check_settlement(hand)
        splits = _splits(hand)
        seen["split"] += bool(splits)
        seen["odd chip"] += any(len(set(a)) > 1 for a in splits)
        seen["split side pots"] += len(splits) > 1
    assert seen["split"] >= 100 and seen["odd chip"] >= 50 and seen["split side pots"] >= 50, seen


# ---------------------------------------------------------------------------- known hands

def _check_down(h) -> None:
    while not h.over:
        lg = h.legal()
        if lg.phase == "showdown":
            h.show()
        else:
            h.check() if lg.check else h.call()


def test_a_short_all_in_with_the_best_hand_wins_the_main_pot_only():
    """Three all-ins: the shortest stack's aces win the main pot and the kings the side pot."""
    deck = board_game_deck(3, 0, {0: "As Ad", 1: "Kc Kd", 2: "Qc Qd"}, "2h 7s 9c 4d 3h")
    h = make_hand("holdem", NO, [1_000, 3_000, 10_000], button=0, deck=deck)
    h.bet(1_000); h.bet(3_000); h.call()
    won, paid = check_settlement(h)
    assert paid == [3_000, 4_000] and won == [3_000, 4_000, 0]
    assert h.stacks == [3_000, 4_000, 7_000]


def test_a_hi_lo_side_pot_goes_to_its_own_contenders():
    """Omaha hi-lo, three all-ins: the short stack's low takes half the main pot (the smaller half:
    the odd chip goes to the high), the best high the other half and the whole side pot, which
    nobody contesting it can win low."""
    holes = {0: "Ac 2d 9s 9h", 1: "Kc Kd Ks Qh", 2: "Jc Jd Js Th"}
    deck = board_game_deck(3, 0, holes, "3h 6s 8c Kh 7d", k=4)
    h = make_hand("omaha8", NO, [1_001, 3_000, 10_000], button=0, deck=deck)
    h.bet(1_001); h.bet(3_000); h.call()
    won, paid = check_settlement(h)
    assert paid == [3_003, 3_998] and won == [1_501, 1_502 + 3_998, 0]


def test_a_protected_player_contests_the_main_pot_and_its_dead_small_blind():
    """The big blind owes a dead small blind; after the flop the one with the aces times out
    (protected): he wins the main pot and its dead money, the side pot goes to the next best hand,
    and each pot is raked on its own."""
    players = [Player("A", 10_000, 1), Player("B", 10_000, 2), Player("C", 10_000, 3, dead_post=100)]
    deck = board_game_deck(3, 0, {0: "Kc Kd", 1: "Qc Qd", 2: "As Ad"}, "2h 7s 9c 4d 3h")
    h = make_hand("holdem", NO, None, players=players, button=0, deck=deck,
                  rules=Rules(rake_percent=5, rake_cap=300))
    h.call(); h.call(); h.check()                           # 600 and the dead 100
    h.bet(1_000)                                            # player 1 bets the flop
    h.protect_all_in(2)                                     # the aces time out
    h.call()
    _check_down(h)
    won, paid = check_settlement(h)
    assert paid == [700 - 35, 2_000 - 100] and won == [1_900, 0, 665]


# Third street one card at a time to players 0, 1, 2 (the third card up); then a burn and one card
# to each of players 0 and 1. They tie with K 9 7 5 4 3 2 (no straight, no flush); player 2 folds.
def _king_deuce(deuces: str) -> str:
    return f"9d 9c Qc {deuces[:2]} Kh Qd Ks {deuces[3:]} 8c  Jc 7c 7d  Jd 5h 5s  Jh 4d 4c  Js 3c 3d"


@pytest.mark.parametrize("game, deuces, odd", [
    ("stud", "2c 2s", 0), ("stud", "2s 2c", 0),     # player 0's Ks above player 1's Kh
    ("razz", "2c 2s", 0), ("razz", "2s 2c", 1),     # the 2c below the 2s: spades rank highest
    ("razz", "2h 2s", 0), ("razz", "2s 2d", 1),
], ids=["stud-Ks-2c", "stud-Ks-2s", "razz-2c", "razz-2c-player-1", "razz-2h", "razz-2d-player-1"])
def test_rule_stud_odd_chip_to_the_highest_card_by_suit_razz_to_the_lowest_the_2c_before_the_2s(game, deuces, odd):
    """Robert's Rules: in stud the odd chip goes to the highest card by suit, in low games to the
    lowest card by suit, all cards counting; suits rank spades, hearts, diamonds, clubs, so in razz
    the deuce of clubs is the lowest card and the deuce of spades the highest deuce (it once took
    the odd chip). Two hands of the same ranks tie, player 0 holding the first deuce named and the
    king of spades, player 1 the other deuce and the king of hearts; the third player's folded ante
    makes the pot odd."""
    cards = _king_deuce(deuces)
    structure = Structure.make(FIXED, 200, ante=25, bring_in=25, stud=True)
    h = make_hand(game, FIXED, [10_000] * 3, structure=structure, deck=Deck.stacked(cards))
    while not h.over:
        lg = h.legal()
        if h.actor == 2 and lg.fold:
            h.fold()
        elif lg.phase == "showdown":
            h.show()
        else:
            h.act("bring-in") if lg.bring_in else h.check() if lg.check else h.call()
    won, paid = check_settlement(h)
    assert paid == [125] and won[odd] == 63 and won[1 - odd] == 62


def test_rule_stud_hi_lo_tied_lows_odd_chip_to_the_lowest_card_by_suit():
    """Robert's Rules: "The odd chip between tied low hands is awarded as in a low game of that
    poker form": in stud/8 to the lowest card by suit, not the highest. The two hands above tie
    both ways (K 9 7 5 4 high, 7 5 4 3 2 low); a bring-in of 30 makes the pot 135, the high half 68
    and the low half 67. Player 0 holds the highest card (the Ks) and the 2s, player 1 the 2c: the
    low half's odd chip is player 1's (it was player 0's, by the highest card)."""
    structure = Structure.make(FIXED, 200, ante=25, bring_in=30, stud=True)
    h = make_hand("stud8", FIXED, [10_000] * 3, structure=structure, deck=Deck.stacked(_king_deuce("2s 2c")))
    while not h.over:
        lg = h.legal()
        if h.actor == 2 and lg.fold:
            h.fold()
        elif lg.phase == "showdown":
            h.show()
        else:
            h.act("bring-in") if lg.bring_in else h.check() if lg.check else h.call()
    _, paid = check_settlement(h)
    awards = sorted((e.half, e.player, e.amount) for e in h.events if isinstance(e, ev.Awarded))
    assert paid == [135] and awards == [("high", 0, 34), ("high", 1, 34), ("low", 0, 33), ("low", 1, 34)]
