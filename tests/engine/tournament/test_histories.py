"""Whole tournaments written as their players' histories: the director deals, the engine plays
every hand (random legal play), each hand is written in PokerStars text with its TournamentHand
(tournament.history.hand_in_tournament) and read back as a tracker reads it (fpdb's grammar,
tests/engine/fpdb_grammar.py). Each player's chips add up: a hand's seat line says what he had at
the end of his last hand, at whatever table that was; every place the director gave at a hand's
end is in that hand; the summaries give every entry its place and the pool in prizes."""

from __future__ import annotations

import random
from datetime import datetime, timedelta

import pytest

from cardroom.engine.betting import NO_RAKE
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.pokerstars import header_stakes, to_pokerstars
from cardroom.engine.pokerstars_summary import tournament_summary
from cardroom.engine.tournament import (
    FINISHED, RUNNING, Deal, Director, Eliminated, HandForHand, Hold, Level, PayoutBand, Payouts, Placed, Schedule,
)
from cardroom.engine.tournament.history import Finish, finishes_of, hand_in_tournament, tournament_result
from tests.engine import fpdb_grammar as fpdb
from tests.engine.strategies import play
from tests.engine.tournament.driver import sit_and_go

START = datetime(2026, 11, 29, 22, 0, 0)
NUMBER = 2026112901


def fast_levels(stud: bool) -> Schedule:
    """Levels of a minute, doubling: random play ends a tournament in a few hundred hands."""
    levels = []
    for i in range(12):
        big = 20 * 2 ** i
        levels.append(Level(1, bets=(big, 2 * big), ante=big // 10, bring_in=big // 4) if stud
                      else Level(1, blinds=(big // 2, big), ante=big // 10 if i >= 2 else 0))
    return Schedule(tuple(levels), break_every=4, break_minutes=1)


def hand_of(spec, deal: Deal, names: dict, rng: random.Random) -> Hand:
    """The deal as the room deals it (room/dealing.py): its seats in order, its button, its
    structure (a dead small blind already left out)."""
    players = [Player(names[e], chips, seat=s) for s, e, chips in zip(deal.seats, deal.entries, deal.stacks)]
    button = deal.seats.index(deal.button) if deal.button is not None else 0
    return Hand(spec.variant, deal.structure, players, button=button, deck=Deck(rng), rules=NO_RAKE)


def run_tournament(spec, seed: str, currency: str = "play"):
    """Play `spec` (a sit & go) to the end: [(deal, hand, records, text)], the director, the Placed
    records, the finish time."""
    rng = random.Random(seed)
    d = Director(spec, random.Random(seed + " seats"))
    names = {}
    for i in range(spec.seats):
        name = f"Player {i}" if i % 3 else f"[P{i}]"
        names[i + 1] = name
        d.register(name, 0.0)
    now, hands, placed = 0.0, [], []
    for _ in range(20_000):
        if d.state != RUNNING:
            break
        dealt = False
        for table in sorted(d.tables()):
            if table not in d.tables():
                continue
            deal = d.deal(table, now)
            if isinstance(deal, Hold):
                continue
            dealt = True
            hand = hand_of(spec, deal, names, rng)
            for _ in play(hand, rng, free_fold=False, muck=0.5):
                pass
            records = d.hand_ended(table, {pl.seat: s for pl, s in zip(hand.players, hand.stacks)}, now)
            placed += [r for r in records if isinstance(r, Placed)]
            th = hand_in_tournament(spec, NUMBER, deal, records, currency=currency)
            hero = rng.randrange(hand.n)
            text = to_pokerstars(hand, hand_id=str(1000 + deal.hand), when=START + timedelta(seconds=now),
                                 max_seats=spec.table_size, hero=hero, reveal_mucked=True, tournament=th)
            hands.append((deal, hand, records, text))
            now += 15
        if not dealt:
            now += 15
            d.tick(now)
    assert d.state == FINISHED, "the tournament did not end"
    return hands, d, placed, START + timedelta(seconds=now)


GAMES = [("holdem", "no", "play"), ("omaha8", "pot", "USD"), ("stud", "fixed", "play"), ("razz", "fixed", "EUR"),
         ("a5-draw", "fixed", "play"), ("27-triple", "fixed", "play"), ("draw", "spread", "USD"),
         ("27-draw", "no", "play")]
# Three tables of four and eight places paid: the bubble comes with three tables, hand for hand.
BUBBLE = dict(table_size=4, payouts=Payouts((PayoutBand(2, (10_000,)),
                                             PayoutBand(10, (3000, 2000, 1500, 1000, 900, 700, 500, 400)))))


@pytest.mark.parametrize("game, kind, currency, shape, seed", [(*g, {}, f"{g[0]} {g[1]}") for g in GAMES] + [
    ("holdem", "no", "USD", BUBBLE, "bubble 4")])
def test_a_trackers_reading_of_a_whole_tournament_adds_up(game, kind, currency, shape, seed):
    stud = game in ("stud", "stud8", "razz")
    spec = sit_and_go(12, game=game, structure=kind, schedule=fast_levels(stud), **{"table_size": 6, **shape})
    hands, d, placed, finished = run_tournament(spec, seed, currency=currency)
    if shape:          # the seed's run reaches the bubble with three tables, and shares places
        assert any(isinstance(r, HandForHand) for _, _, rs, _ in hands for r in rs)
        assert any(r.shared for r in placed)
    chips: dict[str, int] = {}
    place_of: dict[str, tuple[int, int | None]] = {}
    tables = set()
    for deal, hand, records, text in hands:
        got = fpdb.read_hand(text)
        level = spec.schedule.levels[deal.level - 1]
        assert (got.tournament, got.table, got.level) == (NUMBER, deal.table, deal.level)
        assert got.stakes == header_stakes(spec.variant, level.structure(kind))
        assert (got.buy_in, got.fee) == (1000, 100) and got.currency == currency
        tables.add(deal.table)
        for name, start in got.start.items():
            # His chips at the end of his last hand, at this table or another.
            assert start == chips.get(name, spec.starting_chips), (name, text)
        chips.update(got.end)
        assert got.end == {p.name: s for p, s in zip(hand.players, hand.stacks)}
        # The places the director gave at this hand's end for its players, and no others.
        mine = {r.entry for r in records if isinstance(r, Placed)} & set(deal.entries)
        assert len(got.places) == len(mine)
        for p in got.places:
            assert p.name not in place_of and (p.rank == 1 or chips[p.name] == 0)
            place_of[p.name] = (p.rank, p.prize)
        # Chips in play: those read so far, and the starting chips of players not dealt a hand yet.
        assert sum(chips.values()) + (12 - len(chips)) * spec.starting_chips == 12 * spec.starting_chips
    assert len(tables) >= 2 and any(isinstance(r, Eliminated) for _, _, rs, _ in hands for r in rs)
    # Places in hands are those the director gave (the best of shared ones), with their prizes.
    by_entry = {r.entry: r for r in placed}
    names = {e.number: e.player for e in d.entries.values()}
    for entry, r in by_entry.items():
        if names[entry] in place_of:
            assert place_of[names[entry]] == (min(r.shared) if r.shared else r.place, r.prize or None)
    # Every player's summary: every entry its place, the pool paid out, his own place told.
    result = tournament_result(d, NUMBER, placed, started=START, finished=finished, currency=currency)
    for entrant in result.entrants:
        summary = fpdb.read_summary(tournament_summary(result, entrant.name))
        assert summary.hero_rank == entrant.place and summary.finished
        assert sorted(p["rank"] for p in summary.players) == list(range(1, 13))
        assert sum(p["winnings"] or 0 for p in summary.players) == summary.pool == 12 * 1000


def test_hand_in_tournament_from_a_deal_and_its_records():
    spec = sit_and_go(3, table_size=3, schedule=fast_levels(False))
    d = Director(spec, random.Random(5))
    for p in ("a", "b", "c"):
        d.register(p, 0.0)
    deal = d.deal(1, 200.0)               # level 4 by then: 80/160, ante 16
    assert deal.level == 4
    seat_of = dict(zip(deal.entries, deal.seats))
    # Two players out on the hand with the same chips share 2nd and 3rd; the winner is placed too.
    out = [e for e in deal.entries][:2]
    winner = deal.entries[2]
    records = [Eliminated(str(e), e, 1, seat_of[e], 1500) for e in out] + [
        Placed("x", out[0], 3, 3, 900, (2, 3)), Placed("y", out[1], 2, 3, 901, (2, 3)),
        Placed("z", winner, 1, 3, 1200), Placed("elsewhere", 99, 4, 4, 0)]
    th = hand_in_tournament(spec, 7, deal, records, currency="USD")
    assert (th.tournament, th.table, th.level, th.stakes, th.buy_in, th.fee, th.currency, th.name) == \
        (7, 1, 4, (80, 160), 1000, 100, "USD", "Test")
    assert th.finishes == tuple(sorted((Finish(seat_of[out[0]], 2, 900), Finish(seat_of[out[1]], 2, 901),
                                        Finish(seat_of[winner], 1, 1200)), key=lambda f: f.seat))
    assert finishes_of(deal, []) == ()
    # A limit level's header gives its bets, twice the blinds; stud its bets.
    limit = sit_and_go(3, table_size=3, structure="fixed", schedule=fast_levels(False))
    assert hand_in_tournament(limit, 7, deal).stakes == (160, 320)
