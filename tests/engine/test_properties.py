"""Properties of every hand under random legal play (hypothesis).

Random tables (2..max seats, stacks down to a single chip, any button), every variant, every
structure, random house rules (show_all, must_raise_to_enter, draw_cap_four, defer_fifth_card, the
burns, rake on/off) and random legal play including protected all-ins and mucks. After every
action: chips are conserved, 52 distinct cards are accounted for, every live hand holds the right
number of cards, no stack is negative, and no seat's view or railbird's view (nor the redacted
event stream) shows a card it must not, and each seat's view built from the railbird's is the seat's
own. Every hand ends within a bound.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from cardroom.engine import events as ev
from cardroom.engine.betting import STRUCTURES, Rules, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.variants import VARIANTS
from cardroom.engine.views import redact, seat_view, seat_view_from, visible_cards
from tests.engine.strategies import apply, choose, random_stack

MAX_ACTIONS = 400   # no hand may take more decisions than this


@st.composite
def tables(draw):
    variant = VARIANTS[draw(st.sampled_from(sorted(VARIANTS)))]
    kind = draw(st.sampled_from(STRUCTURES))
    n = draw(st.integers(2, variant.max_seats))
    small = draw(st.sampled_from((2, 5, 10, 25, 50, 100, 200, 400)))
    cap = draw(st.sampled_from((3, 4, None)))
    if variant.bring_in:
        ante = draw(st.sampled_from((0, 1, small // 4)))
        bring = draw(st.integers(1, max(1, small - 1)))
        structure = Structure.make(kind, small, small * 2, ante=ante, bring_in=bring, cap=cap, stud=True,
                                   uncapped_heads_up=draw(st.booleans()))
    else:
        # Everyone antes, or the big blind or the button antes for the table (up to the big blind).
        style = draw(st.sampled_from(("all", "all", "bb", "button")))
        ante = draw(st.sampled_from((0, 0, max(1, small // 10)) if style == "all" else (small, max(1, small // 2))))
        structure = Structure.make(kind, small, small * 2, ante=ante, cap=cap,
                                   uncapped_heads_up=draw(st.booleans()), ante_style=style)
    rake = draw(st.booleans())
    rules = Rules(
        rake_percent=5 if rake else 0, rake_cap=300 if rake else 0,
        no_flop_no_drop=draw(st.booleans()), show_all=draw(st.booleans()),
        must_raise_to_enter=draw(st.booleans()), draw_cap_four=draw(st.booleans()),
        burn_before_draw=draw(st.booleans()), defer_fifth_card=draw(st.booleans()),
        reburn_on_reshuffle=draw(st.booleans()),
    )
    seed = draw(st.integers(0, 2**32 - 1))
    button = draw(st.integers(0, n - 1))
    protect = draw(st.sampled_from((0.0, 0.0, 0.05, 0.2)))
    # Returning players' posts (blind games): a live big blind, or that and a dead small blind.
    posts = tuple(draw(st.lists(st.sampled_from(("", "", "", "live", "both")), min_size=n, max_size=n))
                  if not variant.bring_in else [""] * n)
    return variant, structure, rules, n, button, seed, protect, posts


def street_cards(hand: Hand) -> set[int]:
    """How many cards a live hand may hold now."""
    v = hand.variant
    if v.kind == "draw":
        # A player owed a deferred fifth card holds four until everyone else has drawn.
        return {4, 5} if hand.phase == "draw" else {5}
    if v.kind == "stud":
        dealt = sum(len(s.hole) for s in v.streets[:hand.street + 1])
        community = len(hand.board)
        return {dealt - community}
    return {4 if v.omaha else 2}


def allowed_cards(hand: Hand, viewer: int | None) -> set:
    """What `viewer` may see now: their own cards, up cards, the board, hands shown."""
    out = set(hand.board)
    for p in range(hand.n):
        if p == viewer or p in hand.shown:
            out.update(hand.hole[p])
        else:
            out.update(c for c, up in zip(hand.hole[p], hand.up[p]) if up)
    return out


def ever_allowed(hand: Hand, viewer: int | None) -> set:
    """What `viewer` may ever have seen in the event stream."""
    out = set(hand.board)
    for e in hand.events:
        if isinstance(e, ev.DealtHole):
            out.update(c for c, up in zip(e.cards, e.up) if up or e.player == viewer)
        elif isinstance(e, ev.Drew) and e.player == viewer:
            out.update(e.cards)
            out.update(e.discards)
        elif isinstance(e, ev.Shown):
            out.update(e.cards)
        elif isinstance(e, ev.DealtBoard):
            out.update(e.cards)
    return out


def event_cards(e) -> set:
    out = set()
    for f in e:
        if isinstance(f, tuple):
            out.update(c for c in f if c is not None and hasattr(c, "rank"))
        elif f is not None and hasattr(f, "rank") and type(f).__name__ == "Card":
            out.add(f)
    return out


def check_invariants(hand: Hand, total: int, checked_events: list[int]) -> None:
    assert hand.chips_in_play() == total
    assert all(s >= 0 for s in hand.stacks)
    cards = hand.all_cards()
    assert len(cards) == 52 and len(set(cards)) == 52
    if not hand.over:
        want = street_cards(hand)
        for p in range(hand.n):
            if not hand.folded[p]:
                assert len(hand.hole[p]) in want, (p, hand.hole[p], want, hand.phase)
    public = seat_view(hand, None)
    for viewer in list(range(hand.n)) + [None]:
        view = seat_view(hand, viewer)
        seen = visible_cards(view)
        leak = seen - allowed_cards(hand, viewer)
        assert not leak, f"view of {viewer} shows {leak}"
        assert seat_view_from(public, hand, viewer) == view    # a table host builds them so
    # Redacted events: only the new ones since the last check (the stream is append-only).
    start = checked_events[0]
    new = hand.events[start:]
    checked_events[0] = len(hand.events)
    if new:
        for viewer in list(range(hand.n)) + [None]:
            ok = ever_allowed(hand, viewer)
            for e in new:
                leak = event_cards(redact(e, viewer)) - ok
                assert not leak, f"{type(e).__name__} shows {leak} to {viewer}"


class SettleChecked(Hand):
    """A Hand that checks, as it settles a showdown, that with nobody all-in or protected every
    live player contests the one pot: dead money (antes, a dead small blind) gives nobody a claim
    of its own (a dead small blind once made its poster the pot's only contender)."""

    def _settle(self) -> None:
        live = [p for p in range(self.n) if not self.folded[p]]
        if not any(self.all_in[p] or self.protected[p] for p in live):
            assert [set(pot.eligible) for pot in self.pots()] == [set(live)], (self.totals, live)
        super()._settle()


def play_checked(variant, structure, rules, n, button, seed, protect, posts=("",) * 10) -> Hand:
    rng = random.Random(seed)
    bb = structure.big_blind if not variant.bring_in else structure.small_bet
    sb = structure.blinds[0] if structure.blinds else 0
    players = [Player(f"p{i}", random_stack(rng, bb), seat=i + 1, live_post=bb if posts[i] else 0,
                      dead_post=sb if posts[i] == "both" else 0) for i in range(n)]
    hand = SettleChecked(variant, structure, players, button=button, deck=Deck(rng), rules=rules)
    total = hand.chips_in_play()
    assert total == sum(p.stack for p in players)
    checked = [0]
    check_invariants(hand, total, checked)
    actions = 0
    while hand.actor is not None:
        actions += 1
        assert actions <= MAX_ACTIONS, "the hand does not end"
        apply(hand, choose(hand, rng, protect=protect))
        check_invariants(hand, total, checked)
    assert hand.over
    assert sum(hand.stacks) + hand.rake == total
    assert isinstance(hand.events[-1], ev.HandEnded)
    return hand


CI = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEEP = settings(max_examples=20_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@CI
@given(tables())
def test_random_play_keeps_every_invariant(table):
    play_checked(*table)


@pytest.mark.deep
@DEEP
@given(tables())
def test_random_play_keeps_every_invariant_deep(table):
    play_checked(*table)


@pytest.mark.parametrize("key", sorted(VARIANTS))
@pytest.mark.parametrize("kind", STRUCTURES)
def test_every_variant_and_structure_plays_out(key, kind):
    """A fixed sweep so every variant x structure is played whatever hypothesis draws."""
    variant = VARIANTS[key]
    for seed in range(8):
        rng = random.Random(f"{key}/{kind}/{seed}")
        small = 100
        if variant.bring_in:
            structure = Structure.make(kind, small, 200, ante=10, bring_in=25, stud=True)
        else:
            structure = Structure.make(kind, small, 200)
        rules = Rules(show_all=seed % 2 == 0, must_raise_to_enter=seed % 3 == 0, draw_cap_four=seed % 4 == 0,
                      defer_fifth_card=seed % 5 != 0, rake_percent=5 if seed % 2 else 0)
        n = rng.randint(2, variant.max_seats)
        play_checked(variant, structure, rules, n, rng.randrange(n), seed, 0.05 if seed % 3 else 0.0)


@pytest.mark.parametrize("key", sorted(k for k in VARIANTS if not VARIANTS[k].bring_in))
def test_returning_players_posts_give_no_claim_to_the_pot(key):
    """Deep stacks, returning players' live and dead posts, everyone checking and calling to the
    showdown (so nobody is ever all-in): at every settlement all the live players contest the one
    pot (SettleChecked), and the chips add up."""
    variant, rng = VARIANTS[key], random.Random(key)
    for kind in STRUCTURES:
        structure = Structure.make(kind, 200, 400)
        sb = structure.blinds[0] if structure.blinds else 0
        for _ in range(15):
            n = rng.randint(3, min(6, variant.max_seats))
            posts = [rng.choice(("", "live", "both")) for _ in range(n)]
            players = [Player(f"p{i}", 100_000, seat=i + 1, live_post=structure.big_blind if posts[i] else 0,
                              dead_post=sb if posts[i] == "both" else 0) for i in range(n)]
            hand = SettleChecked(variant, structure, players, button=rng.randrange(n), deck=Deck(rng),
                                 rules=Rules(rake_percent=0, rake_cap=0, show_all=True))
            while hand.actor is not None:
                lg = hand.legal()
                if lg.phase == "draw":
                    hand.draw([])
                elif lg.phase == "showdown":
                    hand.show()
                elif lg.check:
                    hand.check()
                elif lg.can_call:
                    hand.call()
                else:
                    hand.bet(lg.min_to)         # lowball's must-raise-to-enter: the least raise
            assert sum(hand.stacks) == 100_000 * n
