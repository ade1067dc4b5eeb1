"""A tournament's summary for one player (pokerstars_summary.py) as PokerStars writes it and as a
tracker reads it (fpdb's grammar of its summaries, tests/engine/fpdb_grammar.py): the winner, a
player in the money, one out of it, shared places, a tournament still running, a freeroll with
added money, re-entries, real money; and the result record built from a director."""

from __future__ import annotations

import random
from datetime import datetime, timezone

import pytest

from cardroom.engine.pokerstars_summary import tournament_summary
from cardroom.engine.tournament import Director, Placed
from cardroom.engine.tournament.history import Entrant, TournamentResult, tournament_result
from cardroom.engine.variants import VARIANTS
from tests.engine import fpdb_grammar as fpdb
from tests.engine.tournament.driver import sit_and_go

STARTED = datetime(2026, 11, 29, 22, 0, 0)
FINISHED = datetime(2026, 11, 29, 23, 12, 40)


def nine(**kw) -> TournamentResult:
    """A finished 9-player sit & go, 10+1 play money: 50/30/20 of a pool of 90."""
    entrants = (Entrant("alice", 1, 4500), Entrant("bob", 2, 2700), Entrant("carol", 3, 1800),
                *(Entrant(name, place) for place, name in enumerate(
                    ("dave", "erin", "frank", "grace", "heidi", "ivan"), 4)))
    fields = dict(tournament=42, game="holdem", structure_kind="no", entrants=entrants, started=STARTED,
                  finished=FINISHED, buy_in=1000, fee=100, name="Sit & Go Hold'em 9")
    fields.update(kw)
    return TournamentResult(**fields)


def test_the_winners_summary_line_for_line():
    assert tournament_summary(nine(), "alice").split("\n") == [
        "PokerStars Tournament #42, No Limit Hold'em",
        "Sit & Go Hold'em 9",
        "Buy-In: 10/1",
        "9 players",
        "Total Prize Pool: 90",
        "Tournament started 2026/11/29 22:00:00 ET",
        "Tournament finished 2026/11/29 23:12:40 ET",
        "  1: alice (cardroom), 45 (50%)",
        "  2: bob (cardroom), 27 (30%)",
        "  3: carol (cardroom), 18 (20%)",
        "  4: dave (cardroom),",
        "  5: erin (cardroom),",
        "  6: frank (cardroom),",
        "  7: grace (cardroom),",
        "  8: heidi (cardroom),",
        "  9: ivan (cardroom),",
        "",
        "You finished in 1st place.",
        "",
    ]


@pytest.mark.parametrize("viewer, place", [("alice", 1), ("bob", 2), ("carol", 3), ("dave", 4), ("ivan", 9)])
def test_in_the_money_and_out_of_it_as_a_tracker_reads_it(viewer, place):
    text = tournament_summary(nine(), viewer)
    got = fpdb.read_summary(text)
    assert (got.tournament, got.limit, got.game) == (42, "No Limit", "Hold'em")
    assert (got.currency, got.buy_in, got.fee, got.entries, got.pool, got.finished) == ("play", 1000, 100, 9, 9000, True)
    assert got.hero_rank == place and f"You finished in {['1st', '2nd', '3rd', '4th', '9th'][[1, 2, 3, 4, 9].index(place)]} place." in text
    assert [(p["rank"], p["name"], p["winnings"]) for p in got.players] == [
        (1, "alice", 4500), (2, "bob", 2700), (3, "carol", 1800), *((r, n, None) for r, n in enumerate(
            ("dave", "erin", "frank", "grace", "heidi", "ivan"), 4))]
    assert sum(p["winnings"] or 0 for p in got.players) == got.pool


def test_shared_places_each_with_their_share():
    """Two players out on one hand with the same chips share 2nd and 3rd: each his own place in
    the list (places are a permutation), each half of the two prizes, the odd cent to the earlier."""
    entrants = (Entrant("alice", 1, 4500), Entrant("bob", 2, 2251), Entrant("carol", 3, 2250),
                *(Entrant(name, place) for place, name in enumerate(("dave", "erin"), 4)))
    result = nine(entrants=entrants, buy_in=1800, fee=200, added=1)
    text = tournament_summary(result, "carol")
    assert "  2: bob (cardroom), 22.51 (25.008%)\n  3: carol (cardroom), 22.50 (24.997%)\n" in text
    got = fpdb.read_summary(text)
    assert got.hero_rank == 3 and got.entries == 5 and got.pool == 9001
    assert sum(p["winnings"] or 0 for p in got.players) == 9001


def test_a_tournament_still_running_lists_the_players_in_first():
    entrants = (Entrant("alice", playing=True), Entrant("bob", playing=True), Entrant("carol", 3),
                Entrant("dave", 4))
    text = tournament_summary(nine(entrants=entrants, finished=None), "dave")
    assert text.split("\n")[5:] == [
        "Tournament started 2026/11/29 22:00:00 ET",
        "",
        "  1: alice (cardroom), still playing",
        "  2: bob (cardroom), still playing",
        "  3: carol (cardroom),",
        "  4: dave (cardroom),",
        "",
        "You finished in 4th place.",
        "",
    ]
    got = fpdb.read_summary(text)
    assert not got.finished and [p["playing"] for p in got.players] == [True, True, False, False]
    # A player still in has no place to be told yet.
    assert "You finished" not in tournament_summary(nine(entrants=entrants, finished=None), "alice")


def test_real_money_freeroll_added_money_and_reentries():
    entrants = (Entrant("alice", 1, 15000), Entrant("bob", 2, 10000, entry=2), Entrant("bob", 3))
    usd = TournamentResult(7, "a5-draw", "fixed", entrants, STARTED, FINISHED, buy_in=10000, fee=1000, added=5000,
                           currency="USD")
    text = tournament_summary(usd, "bob")
    assert text.split("\n")[:6] == [
        "PokerStars Tournament #7, Limit Single Draw 2-7 Lowball",
        "Buy-In: $100.00/$10.00 USD",
        "2 players",
        "$50.00 USD added to the prize pool by PokerStars",
        "Total Prize Pool: $350.00 USD",
        "Tournament started 2026/11/29 22:00:00 ET",
    ]
    assert "  2: bob [2] (cardroom), $100.00 (28.571%)\n  3: bob (cardroom),\n" in text
    assert text.endswith("You finished in 2nd place.\nYou made 1 re-entries for a total of $110.00 USD.\n")
    got = fpdb.read_summary(text)
    assert (got.currency, got.buy_in, got.fee, got.added, got.pool) == ("USD", 10000, 1000, 5000, 35000)
    assert [(p["name"], p["entry"]) for p in got.players] == [("alice", 1), ("bob", 2), ("bob", 1)]
    free = TournamentResult(8, "stud", "fixed", (Entrant("alice", 1, 500), Entrant("bob", 2)), STARTED, FINISHED,
                            added=500)
    text = tournament_summary(free, "alice")
    assert text.split("\n")[:5] == ["PokerStars Tournament #8, Limit 7 Card Stud", "Freeroll", "2 players",
                                    "5 added to the prize pool by PokerStars", "Total Prize Pool: 5"]
    got = fpdb.read_summary(text)
    assert (got.currency, got.buy_in, got.added, got.pool, got.hero_rank) == ("FREE", 0, 500, 500, 1)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_and_structure_names_a_game_a_tracker_knows(game):
    for kind in ("fixed", "spread", "pot", "no"):
        text = tournament_summary(nine(game=game, structure_kind=kind), "bob")
        got = fpdb.read_summary(text)
        v = VARIANTS[game]
        assert got.game in fpdb.GAMES
        assert got.limit == ("Limit" if kind == "fixed" or v.kind == "stud" else
                             "Pot Limit" if kind == "pot" else "No Limit")


def test_times_are_eastern_and_bad_results_are_refused():
    aware = nine(started=datetime(2026, 1, 2, 3, 4, 5, tzinfo=timezone.utc), finished=None)
    assert "Tournament started 2026/01/01 22:04:05 ET\n" in tournament_summary(aware, "bob")
    with pytest.raises(ValueError, match="did not play"):
        tournament_summary(nine(), "mallory")
    with pytest.raises(ValueError, match="places"):
        nine(entrants=(Entrant("a", 1), Entrant("b", 1)))
    with pytest.raises(ValueError, match="places"):
        nine(entrants=(Entrant("a", 1), Entrant("b", 3)))
    with pytest.raises(ValueError, match="unknown currency"):
        tournament_summary(nine(currency="XYZ"), "bob")


def test_the_result_of_a_directors_tournament():
    """From the director (a sit & go played with random results): every entry once, places a
    permutation, prizes from its Placed records adding up to the pool; a place without its record
    is refused (the director keeps places, not the prizes of shared places)."""
    from tests.engine.tournament.driver import Run
    run = Run(sit_and_go(12, table_size=6), seed=3)
    run.register_all()
    run.play()
    placed = [r for r in run.records if isinstance(r, Placed)]
    names = {e.player: f"Player {e.player}" for e in run.director.entries.values()}
    result = tournament_result(run.director, 99, placed, started=STARTED, finished=FINISHED, names=names)
    assert sorted(e.place for e in result.entrants) == list(range(1, 13))
    assert sum(e.prize for e in result.entrants) == result.pool == 12 * 1000
    assert not any(e.playing for e in result.entrants)
    winner = next(e for e in result.entrants if e.place == 1)
    assert tournament_summary(result, winner.name).endswith("You finished in 1st place.\n")
    with pytest.raises(ValueError, match="no Placed record"):
        tournament_result(run.director, 99, placed[1:], started=STARTED)


def test_the_result_while_running_lists_players_in_by_chips():
    d = Director(sit_and_go(4, table_size=4), random.Random(1))
    for p in ("a", "b", "c", "d"):
        d.register(p, 0.0)
    result = tournament_result(d, 5, [], started=STARTED)
    assert [e.playing for e in result.entrants] == [True] * 4 and all(e.place is None for e in result.entrants)
    assert "  1: a (cardroom), still playing\n" in tournament_summary(result, "a")
