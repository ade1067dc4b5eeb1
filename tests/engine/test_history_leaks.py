"""Nothing hidden leaks into a history (issue 34): in random hands of every game, under random
house rules and random legal play, every card in each history a player gets (his PHH, his
PokerStars text, the events his replay steps through) is a card his own seat's view showed at some
point of the hand, or one that seed 001 puts in every history: the hand held at the showdown by
each player who stayed in to it, shown or mucked. The public text (in every player's list of
hands) is held to what a railbird's view showed, plus the same.

The allowed cards are built from the views the table produced (seat_view after every action), not
from the code under test. In a draw game that is what catches a dealt hand or discards: a player who
showed down showed his final hand, not the five he was dealt nor the cards he threw.
"""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings

from cardroom.engine import events as ev
from cardroom.engine.cards import Card, Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.phh import export_hand, import_hand, player_order
from cardroom.engine.pokerstars import to_pokerstars
from cardroom.engine.views import history_events, seat_view, visible_cards
from tests.engine.strategies import apply, choose, random_stack
from tests.engine.test_properties import tables

WHEN = __import__("datetime").datetime(2026, 12, 1, 20, 0)
_RUN = re.compile(r"(?<![A-Za-z0-9?])(?:[2-9TJQKA][cdhs]|\?\?)+(?![A-Za-z0-9?])")


def phh_cards(text: str) -> set:
    """Every card written anywhere in a PHH file (actions and comments alike); ?? is no card."""
    return {Card.parse(run[i:i + 2]) for run in _RUN.findall(text) for i in range(0, len(run), 2)
            if run[i:i + 2] != "??"}


def pokerstars_cards(text: str) -> set:
    """Every card in a PokerStars text: they are all written in brackets."""
    return {Card.parse(word) for inside in re.findall(r"\[([^\]]*)\]", text) for word in inside.split()}


def event_cards(events) -> set:
    out = set()
    for e in events:
        for f in e:
            if isinstance(f, tuple):
                out.update(c for c in f if isinstance(c, Card))
            elif isinstance(f, Card):
                out.add(f)
    return out


def showdown_hands(events) -> set:
    """Seed 001: the hand each player who stayed in to the showdown held there, shown or mucked
    (followed through the whole hand's events, deal by deal)."""
    held: dict[int, list] = {}
    out: set = set()
    for e in events:
        if isinstance(e, ev.DealtHole):
            held.setdefault(e.player, []).extend(e.cards)
        elif isinstance(e, ev.Drew):
            held[e.player] = [c for c in held[e.player] if c not in e.discards] + list(e.cards)
        elif isinstance(e, (ev.Shown, ev.Mucked)):
            out.update(held[e.player])
    return out


def calling(hand: Hand, rng: random.Random, protect: float = 0.0) -> tuple:
    """Everyone stays to the showdown: check or call, draw at random, muck there now and then."""
    lg = hand.legal()
    if lg.phase in ("draw", "showdown") or lg.bring_in:
        return choose(hand, rng)
    return ("check",) if lg.check else ("call",)


def play_watched(variant, structure, rules, n, button, seed, protect, posts=("",) * 10, policy=choose):
    """The hand played out at random (by `policy`), and for each viewer (None: a railbird) every
    card his view showed at some point."""
    rng = random.Random(seed)
    bb = structure.big_blind if not variant.bring_in else structure.small_bet
    sb = structure.blinds[0] if structure.blinds else 0
    players = [Player(f"p{i}", random_stack(rng, bb), seat=i + 1, live_post=bb if posts[i] else 0,
                      dead_post=sb if posts[i] == "both" else 0) for i in range(n)]
    hand = Hand(variant, structure, players, button=button, deck=Deck(rng), rules=rules)
    viewers = [*range(n), None]
    seen: dict = {v: set() for v in viewers}

    def look() -> None:
        for v in viewers:
            seen[v] |= visible_cards(seat_view(hand, v))

    look()
    while hand.actor is not None:
        apply(hand, policy(hand, rng, protect=protect))
        look()
    return hand, seen


def check_histories(hand: Hand, seen: dict) -> None:
    public = showdown_hands(hand.events)
    draw = hand.variant.kind == "draw"
    order = player_order(hand)
    for v, showed in seen.items():
        allowed = showed | public
        stars = to_pokerstars(hand, hand_id="1", table="T", when=WHEN, max_seats=10, hero=v,
                              currency="USD", reveal_mucked=True)
        leak = pokerstars_cards(stars) - allowed
        assert not leak, f"PokerStars text of {v} shows {leak}\n{stars}"
        events = history_events(hand.events, v)
        leak = event_cards(events) - allowed
        assert not leak, f"history events of {v} show {leak}"
        if v is None:
            continue                     # a PHH file without a viewer is the dealer's: every card
        text = export_hand(hand, viewer=v, cents_per_unit=1)
        leak = phh_cards(text) - allowed
        assert not leak, f"PHH of {v} shows {leak}\n{text}"
        if draw:
            # Which cards another player kept or drew is never said, not even of a hand shown.
            me = f"p{order.index(v) + 1}"
            for line in re.findall(r'"(d dh p\d+ \S+|p\d+ sd \S+)"', text):
                assert me in line.split()[:3] or set(line.split()[-1]) == {"?"}, line
        if v == order[0]:
            # A player's own file replays (`cardroom replay`) to the hand's stacks; one player's a
            # hand, as replaying is nearly all of the test's time.
            assert import_hand(text).stacks == [hand.stacks[p] for p in order]


BOUNDED = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
DEEP = settings(max_examples=10_000, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@BOUNDED
@given(tables())
def test_no_history_holds_a_card_its_player_never_saw(table):
    check_histories(*play_watched(*table))


@pytest.mark.deep
@DEEP
@given(tables())
def test_no_history_holds_a_card_its_player_never_saw_deep(table):
    check_histories(*play_watched(*table))


@pytest.mark.parametrize("key", ["draw", "27-draw", "a5-draw", "27-triple", "a5-triple"])
def test_draw_games_full_tables_with_reshuffles(key):
    """Eight-handed draw tables, where the stub runs out and the muck is reshuffled: the draws
    hypothesis finds least often. Everyone plays to the showdown; some muck there."""
    from cardroom.engine.betting import Rules, Structure
    from cardroom.engine.variants import VARIANTS
    reshuffled = mucked = 0
    for seed in range(8):
        rules = Rules(show_all=seed % 4 == 0)
        table = (VARIANTS[key], Structure.make("fixed", 200, 400), rules, 8, seed % 8, seed, 0.0)
        hand, seen = play_watched(*table, policy=calling)
        reshuffled += any(isinstance(e, ev.Reshuffled) for e in hand.events)
        mucked += any(isinstance(e, ev.Mucked) for e in hand.events)
        check_histories(hand, seen)
    assert mucked and (reshuffled or VARIANTS[key].draws == 1)
