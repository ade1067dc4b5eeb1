"""Draw rules of seeds 000 and 002: betting order, the dealing order of a draw, reshuffles, views."""

import random
from datetime import datetime

import pytest

from cardroom.engine import events as ev
from cardroom.engine.betting import DRAW_DEALINGS, FIXED, NO_RAKE, Rules
from cardroom.engine.cards import CARDS, Deck
from cardroom.engine.hand import BadDiscard
from cardroom.engine.phh import export_hand
from cardroom.engine.pokerstars import to_pokerstars
from cardroom.engine.views import history_events, seat_view
from tests.engine.helpers import make_hand

PLANET = Rules(rake_percent=0, burn_before_draw=False, defer_fifth_card=False, reburn_on_reshuffle=False)


def _to_draw(h):
    """Everyone calls (the big blind checks) to reach the draw."""
    while h.phase == "bet":
        lg = h.legal()
        h.call() if lg.can_call else h.check()


def test_predraw_action_starts_left_of_the_big_blind():
    h = make_hand("a5-draw", FIXED, [10_000] * 5, button=0)
    assert h.actor == 3


def test_postdraw_action_starts_left_of_the_button():
    h = make_hand("a5-draw", FIXED, [10_000] * 5, button=0)
    _to_draw(h)
    assert h.phase == "draw" and h.actor == 1               # the draw starts left of the button
    while h.phase == "draw":
        h.stand_pat()
    assert h.phase == "bet" and h.actor == 1                # and so does the second betting round


def test_second_betting_round_is_at_the_higher_limit():
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0)
    assert h.legal().min_to == 400                          # raise by the small bet before the draw
    _to_draw(h)
    while h.phase == "draw":
        h.stand_pat()
    assert h.legal().min_to == 400                          # bet the big bet after the draw


def test_triple_draw_bets_double_from_the_third_round():
    h = make_hand("27-triple", FIXED, [10_000] * 2, button=0)
    sizes = []
    while not h.over:
        if h.phase == "draw":
            h.stand_pat()
            continue
        if h.phase == "showdown":
            h.show()
            continue
        if h.legal().check:
            sizes.append(h.legal().min_to)
            h.check(); h.check()
        else:
            h.call(); h.check()
    assert sizes == [200, 400, 400]                         # rounds 2, 3, 4 opened by a bet


def test_a_player_may_draw_zero_to_five_cards_and_a_house_rule_caps_draws_at_four():
    h = make_hand("a5-draw", FIXED, [10_000] * 2, button=0)
    _to_draw(h)
    assert h.legal().max_draw == 5
    h2 = make_hand("a5-draw", FIXED, [10_000] * 2, button=0,
                   rules=Rules(rake_percent=0, draw_cap_four=True))
    _to_draw(h2)
    assert h2.legal().max_draw == 4
    with pytest.raises(BadDiscard, match="at most 4"):
        h2.draw(list(h2.hole[h2.actor]))


def test_discards_must_come_from_the_players_own_hand():
    h = make_hand("a5-draw", FIXED, [10_000] * 2, button=0)
    _to_draw(h)
    other = h.hole[1 - h.actor][0]
    with pytest.raises(BadDiscard):
        h.draw([other])


def test_draw_dealing_order_fifth_card_after_all_other_draws_and_burn_if_last():
    # Seed 002: up to four cards at once; a fifth after everyone else; if that player is last,
    # a card is burned between the fourth and the fifth.
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0)
    _to_draw(h)
    order = []
    start = next(i for i, e in enumerate(h.events) if isinstance(e, ev.DrawStarted))
    while h.phase == "draw":
        order.append(h.actor)
        h.draw(list(h.hole[h.actor]) if h.actor in (1, 0) else [])
    draws = [e for e in h.events[start:] if isinstance(e, (ev.Drew, ev.Burned))]
    assert order == [1, 2, 0]
    shape = [(type(e).__name__, getattr(e, "player", None), len(getattr(e, "cards", ()) or ())) for e in draws]
    assert shape == [
        ("Burned", None, 0),          # the burn before the draw
        ("Drew", 1, 4),               # player 1 asks five: four now
        ("Drew", 2, 0),               # player 2 stands pat
        ("Drew", 0, 4),               # player 0 (last) asks five: four now
        ("Drew", 1, 1),               # the fifth cards after every other player has drawn
        ("Burned", None, 0),          # the last player's fifth card comes after a burn
        ("Drew", 0, 1),
    ]
    assert all(len(h.hole[p]) == 5 for p in range(3))


def test_seed000_reshuffle_example_two_from_the_stub_two_from_a_twenty_card_reshuffle_leaves_eighteen():
    # "in a full game with eight players there will be 40 cards dealt, leaving 12 ... Two of the
    # eight players fold. The first player to act draws five cards leaving 7 ... The second player
    # draws five cards, leaving only two ... The third player wants to draw four cards. He will
    # receive the remaining two cards ... [the] 10 folded and 10 discarded cards are shuffled ...
    # There will now be 18 cards remaining in this deck."  (Planet Poker's dealing: no burns.)
    h = make_hand("a5-draw", FIXED, [10_000] * 8, button=0, rules=PLANET)
    assert h.deck.remaining == 12
    h.fold(); h.fold()                                      # players 3 and 4 fold
    _to_draw(h)
    assert [h.actor] == [1]
    h.draw(list(h.hole[1]))
    assert h.deck.remaining == 7
    h.draw(list(h.hole[2]))
    assert h.deck.remaining == 2
    third = h.actor
    discards = list(h.hole[third][:4])
    events = h.draw(discards)
    reshuffle = [e for e in events if isinstance(e, ev.Reshuffled)]
    assert reshuffle == [ev.Reshuffled(20, False)]          # 10 folded + 10 discards
    assert h.deck.remaining == 18
    assert not set(discards) & set(h.hole[third])           # never his own discards back


def test_reshuffle_under_seed002_dealing_reburns_and_never_returns_own_discards():
    h = make_hand("a5-draw", FIXED, [10_000] * 8, button=0)   # burns and deferred fifth cards
    h.fold(); h.fold()
    _to_draw(h)
    assert h.deck.remaining == 11                           # burned before the draw
    h.draw(list(h.hole[1]))                                 # four now, the fifth later
    h.draw(list(h.hole[2]))
    assert h.deck.remaining == 3
    third = h.actor
    discards = list(h.hole[third][:4])
    events = h.draw(discards)
    (r,) = [e for e in events if isinstance(e, ev.Reshuffled)]
    # The folded cards and the burn; not the discards of players 1 and 2, still owed a fifth card.
    assert r.burned and r.count == 11 - 1
    assert not set(discards) & set(h.hole[third])
    while h.phase == "draw":
        h.stand_pat()
    assert all(len(h.hole[p]) == 5 for p in range(8) if not h.folded[p])
    assert len(h.all_cards()) == 52


def _seed000_scenario_under_seed002_dealing(deck):
    """Seed 000's reshuffle example dealt the seed 002 way: 8 players, 2 fold, the first two to
    draw ask five (four now, the fifth after everyone), the third asks four and the stub runs out."""
    h = make_hand("a5-draw", FIXED, [10_000] * 8, button=0, deck=deck)
    h.fold(); h.fold()
    folded = list(h.muck_pile)
    _to_draw(h)
    wants = {1: 5, 2: 5, 5: 4}
    while h.phase == "draw":
        h.draw(list(h.hole[h.actor][:wants.get(h.actor, 0)]))
    return h, folded


def test_rule_a_player_owed_his_fifth_card_is_not_dealt_his_own_discards_from_a_reshuffle():
    # Seed 000: "a player will not get his own discards back"; DESIGN.md: that holds for a player
    # still owed a deferred fifth card when the stub runs out (before the fix: 4 hands in 10).
    for seed in range(40):
        h, _ = _seed000_scenario_under_seed002_dealing(Deck(random.Random(seed)))
        assert any(isinstance(e, ev.Reshuffled) for e in h.events)
        for p in range(8):
            assert not set(h.hole[p]) & set(h.discarded_by[p]), (seed, p)


def test_rule_the_discards_of_players_owed_a_fifth_card_stay_out_of_the_reshuffle():
    h, folded = _seed000_scenario_under_seed002_dealing(Deck.stacked(CARDS, random.Random(1)))
    owed = h.discarded_by[1] + h.discarded_by[2]
    assert len(owed) == 10 and set(owed) <= set(h.muck_pile)   # never reshuffled, never dealt
    assert len(folded) == 10 and not set(folded) & set(h.muck_pile)   # the folded cards were
    assert all(len(h.hole[p]) == 5 for p in range(8) if not h.folded[p])
    assert len(h.all_cards()) == 52


def test_tapping_the_table_at_the_draw_stands_pat():
    h = make_hand("a5-draw", FIXED, [10_000] * 2, button=0)
    _to_draw(h)
    p = h.actor
    before = list(h.hole[p])
    (drew,) = [e for e in h.stand_pat() if isinstance(e, ev.Drew)]
    assert drew.discards == () and h.hole[p] == before


def _drew(events) -> list:
    return [e for e in events if isinstance(e, ev.Drew)]


def test_rule_drawn_cards_take_the_places_of_the_discards():
    # Each new card goes where a thrown card was, the leftmost place first (PokerStars: Qd 7h 6c 6h
    # Th throwing 7h Th and drawing 4h Td shows Qd 4h 6c 6h Td); the kept cards stay in place. New
    # cards after the kept ones would tell anyone shown the hand which were drawn (the count is public).
    h = make_hand("27-triple", FIXED, [10_000] * 3, button=0)
    rng = random.Random(7)
    draws = 0
    while not h.over:
        if h.phase == "draw":
            p = h.actor
            before = list(h.hole[p])
            places = sorted(rng.sample(range(5), rng.randint(1, 4)))
            thrown = [before[i] for i in places]
            rng.shuffle(thrown)                             # the order he names them in is no matter
            (drew,) = _drew(h.draw(thrown))
            assert [h.hole[p][i] for i in places] == list(drew.cards)
            assert [c for i, c in enumerate(h.hole[p]) if i not in places] == \
                [c for i, c in enumerate(before) if i not in places]
            draws += 1
        elif h.phase == "showdown":
            h.show()
        else:
            lg = h.legal()
            h.call() if lg.can_call else h.check()
    assert draws == 9
    # The hands shown are the hands held, in those places.
    assert {e.player: list(e.cards) for e in h.events if isinstance(e, ev.Shown)} == \
        {p: h.hole[p] for p in range(3)}


def test_rule_a_deferred_fifth_card_takes_the_last_place():
    # Seed 002: five cards asked for, four now and the fifth after everyone else; all five places
    # are his discards', so the four go to the first four and the fifth to the last.
    h = make_hand("27-draw", FIXED, [10_000] * 3, button=0)
    _to_draw(h)
    p = h.actor
    (now,) = _drew(h.draw(list(h.hole[p])))
    assert h.hole[p] == list(now.cards) and now.deferred == 1
    events = h.stand_pat() + h.stand_pat()
    (fifth,) = [e for e in _drew(events) if e.player == p]
    assert h.hole[p] == list(now.cards + fifth.cards)


def test_rule_a_hand_mucked_after_a_draw_is_written_in_its_places():
    # Seed 001 puts a mucked hand in every history: as held, new cards in the discards' places,
    # in the events, the PokerStars summary and the PHH file's comment alike.
    h = make_hand("27-draw", FIXED, [10_000] * 2, button=0)
    _to_draw(h)
    assert h.actor == 1
    h.stand_pat()
    before = list(h.hole[0])
    (drew,) = _drew(h.draw([before[2], before[0]]))
    held = [drew.cards[0], before[1], drew.cards[1], before[3], before[4]]
    assert h.hole[0] == held
    h.check(); h.check()
    h.muck()                                                # player 1 showed first; player 0 mucks
    assert h.over
    (mucked,) = [e for e in history_events(h.events, None) if isinstance(e, ev.Mucked)]
    assert list(mucked.cards) == held
    text = " ".join(map(repr, held))
    stars = to_pokerstars(h, hand_id="1", table="T", when=datetime(2026, 1, 1), max_seats=6, reveal_mucked=True)
    assert f"mucked [{text}]" in stars
    assert f"mucks {text.replace(' ', '')}" in export_hand(h, viewer=1, cents_per_unit=1)


def test_draw_counts_are_public_until_the_first_action_after_the_draw():
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0)
    _to_draw(h)
    h.draw(list(h.hole[1][:2]))
    h.stand_pat()
    h.draw(list(h.hole[0][:1]))
    view = seat_view(h, 2)
    assert view.draw_counts == {1: 2, 2: 0, 0: 1}
    assert seat_view(h, None).draw_counts == {1: 2, 2: 0, 0: 1}   # railbirds may ask too
    h.check()                                               # the first action after the draw
    assert seat_view(h, 2).draw_counts == {}


def test_the_bets_go_into_the_pot_when_the_round_ends_before_the_draw():
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0, rules=NO_RAKE)
    assert [s.bet for s in seat_view(h, 0).seats] == [0, 100, 200]      # the blinds, in front
    _to_draw(h)
    view = seat_view(h, 0)
    assert [s.bet for s in view.seats] == [0, 0, 0] and view.pots == (600,)
    while h.phase == "draw":
        h.stand_pat()
    h.bet(h.legal().min_to)
    assert [s.bet for s in seat_view(h, 0).seats] == [0, 400, 0]        # the next round's bet


def test_a_seat_view_never_holds_another_players_hidden_cards():
    h = make_hand("a5-draw", FIXED, [10_000] * 3, button=0)
    for viewer in (0, 1, 2, None):
        view = seat_view(h, viewer)
        for s in view.seats:
            if s.player == viewer:
                assert all(c is not None for c in s.cards)
            else:
                assert all(c is None for c in s.cards)


def test_every_draw_hand_holds_five_cards_through_the_hand():
    h = make_hand("27-triple", FIXED, [10_000] * 4, button=0, rules=NO_RAKE)
    while not h.over:
        assert all(len(h.hole[p]) == 5 for p in range(4) if not h.folded[p])
        if h.phase == "draw":
            h.draw(list(h.hole[h.actor][:3]))
        elif h.phase == "showdown":
            h.show()
        else:
            lg = h.legal()
            h.call() if lg.can_call else h.check()


# ------------------------------------------------------------------ what a reshuffle deals back
def _eight_drawing(game, dealing, seed):
    """Eight players who all call and stand or draw at random (fives often, to run the stub out)."""
    rng = random.Random(seed)
    rules = Rules(rake_percent=0, **DRAW_DEALINGS[dealing])
    h = make_hand(game, FIXED, [100_000] * 8, button=0, deck=Deck(random.Random(seed)), rules=rules)
    while not h.over:
        lg = h.legal()
        if lg.phase == "draw":
            k = rng.choice((0, 1, 2, 3, 3, 4, 5, 5))
            h.draw(rng.sample(list(h.hole[h.actor]), min(k, lg.max_draw)))
        elif lg.phase == "showdown":
            h.show()
        else:
            h.call() if lg.can_call else h.check()
    return h


def _draw_deals(h):
    """Every deal of draw cards, read from the events: (player, at his turn (not a deferred fifth
    card), cards dealt, of them those he threw in this draw, those he threw in an earlier draw,
    cards left that he did not throw in this draw (the stub, the muck and the burns), cards in the
    stub before the deal, whether a reshuffle came with it)."""
    hands = [[] for _ in range(h.n)]
    thrown, earlier = {}, [set() for _ in range(h.n)]
    remaining, got_before, out = 52, None, []

    def dealt(n):
        nonlocal remaining, got_before
        before = remaining if got_before is None else got_before
        remaining -= n if got_before is None else n - got_before
        got_before = None
        return before

    for e in h.events:
        t = type(e)
        if t is ev.DealtHole:
            hands[e.player].extend(e.cards)
            dealt(len(e.cards))
        elif t is ev.Burned:
            dealt(1)
        elif t is ev.Reshuffled:
            got_before, remaining = remaining, e.count
        elif t is ev.Folded:
            hands[e.player] = []
        elif t is ev.DrawStarted:
            for p, cards in thrown.items():
                earlier[p] |= cards
            thrown = {}
        elif t is ev.Drew:
            p = e.player
            for c in e.discards:
                hands[p].remove(c)
            if e.discards:
                thrown[p] = set(e.discards)
            if e.cards:
                reshuffled = got_before is not None
                stub = dealt(len(e.cards))
                mine = thrown.get(p, set())
                held = {c for cards in hands for c in cards}
                others = sum(1 for c in CARDS if c not in held and c not in mine)
                new = set(e.cards)
                out.append((p, bool(e.discards), len(e.cards), len(new & mine), len(new & earlier[p]),
                            others, stub, reshuffled))
            hands[p].extend(e.cards)
    return out


def test_rule_a_player_is_not_dealt_a_card_he_is_throwing_while_other_cards_are_left():
    """Issue 35 (2), DESIGN.md: in a draw a player is never dealt a card he is throwing in that same
    draw while any other card is left. Here (27 triple draw, eight-handed) a player throwing three
    met a reshuffle whose pool, without any of his discards, held fewer than three: the cards from
    his earlier draws were enough, yet he was dealt one of the three he was throwing."""
    h = _eight_drawing("27-triple", "lowball", 565)
    turn = [d for d in _draw_deals(h) if d[1] and d[7]]     # at his turn, with a reshuffle
    assert any(d[4] for d in turn)                          # his earlier draws' cards came back (seed 002)
    assert all(d[3] == 0 for d in turn if d[5] >= d[2])     # never one he was throwing


@pytest.mark.parametrize("game, dealing", [("27-triple", "lowball"), ("a5-draw", "lowball"),
                                           ("27-triple", "planet"), ("a5-draw", "planet")])
@pytest.mark.parametrize("hands", [pytest.param(150, id="150"),
                                   pytest.param(3_000, id="3000", marks=pytest.mark.deep)])
def test_rule_own_throws_come_back_only_when_nothing_else_is_left(game, dealing, hands):
    """Issue 35 (2, 3): over many seeded eight-handed decks, no player is dealt a card he threw in
    the same draw while another was left: not at his turn (a reshuffle deals his throws after
    every other card), not in a reshuffle for his deferred fifth card, and a fifth card from the
    stub is one of his throws only when the stub held no more than his five (a reshuffle for
    another player needed them). Before: 892 fifth cards and 1 card at his turn in 1,000 triple-draw
    hands. A single draw under Planet dealing never gives anyone his own discards (seed 000);
    cards from earlier draws do come back in triple draw, as seed 002 allows."""
    earlier = 0
    for seed in range(hands):
        for p, turn, k, own, old, others, stub, reshuffled in _draw_deals(_eight_drawing(game, dealing, seed)):
            assert not own or others < k or (not turn and not reshuffled and stub <= 5), (seed, p)
            assert not own or dealing == "lowball" or game == "27-triple", (seed, p)   # seed 000: never
            earlier += bool(old)
    assert (earlier > 0) == (game == "27-triple")
