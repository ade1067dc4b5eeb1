"""Tournament hands in PokerStars text (pokerstars.py, `tournament=`): as PokerStars writes them
(the Razz sample, a tournament hand, dealt again and written line for line) and as a tracker reads
them (fpdb's grammar, tests/engine/fpdb_grammar.py), for every game and structure; the places a
hand decides; pokerkit's reader on no-limit hold'em. Whole tournaments with their chips adding up
across hands and tables: tests/engine/tournament/test_histories.py."""

from __future__ import annotations

import random
import warnings
from datetime import datetime

import pytest

from cardroom.engine.betting import NO_RAKE, STRUCTURES, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.pokerstars import header_stakes, ordinal, roman, to_pokerstars
from cardroom.engine.tournament.history import Finish, TournamentHand
from cardroom.engine.variants import VARIANTS, find_variant
from tests.conftest import SAMPLES
from tests.engine import fpdb_grammar as fpdb
from tests.engine.helpers import board_game_deck
from tests.engine.strategies import play, random_stack
from tests.engine.test_pokerstars import (
    RAZZ_SAMPLE, razz_sample_hand, read_sample, sample_shape_set, seated, shapes,
)

WHEN = datetime(2026, 11, 29, 22, 0, 0)


def tournament(**kw) -> TournamentHand:
    fields = dict(tournament=2026112901, table=3, level=3, stakes=(25, 50), buy_in=1000, fee=100, currency="play",
                  name="Sit & Go Hold'em 9")
    fields.update(kw)
    return TournamentHand(**fields)


def test_razz_tournament_sample_is_reproduced_exactly(samples):
    """The sample is a tournament hand: its header and table line too, now."""
    sample = read_sample(samples, RAZZ_SAMPLE)
    th = TournamentHand(2010090015, 98, 4, (50, 100), buy_in=20000, fee=1500, currency="USD")
    ours = to_pokerstars(razz_sample_hand(), hand_id="49382949075", when=datetime(2010, 9, 9, 18, 27, 23),
                         max_seats=8, hero=2, reveal_mucked=True, tournament=th)
    assert ours == sample


def _random_hand(game: str, kind: str, n: int, rng: random.Random) -> Hand:
    v = find_variant(game)
    small = 100 if kind in ("fixed", "spread") else 50
    s = Structure.make(kind, small, stud=v.bring_in, ante=10, bring_in=25 if v.bring_in else 0)
    players = [Player(f"Player {j}" if j % 2 else f"[P{j}]", random_stack(rng, small), seat=j + 1) for j in range(n)]
    h = Hand(v, s, players, button=rng.randrange(n), deck=Deck(rng), rules=NO_RAKE)
    for _ in play(h, rng, free_fold=False):
        pass
    return h


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_and_structure_is_a_tournament_hand_a_tracker_reads(game):
    """fpdb takes each as a tournament hand of the right tournament, buy-in, currency, game, level
    and table, with whole chips that add up; apart from its header, table line and places, the text
    is the cash-game writer's line for line, in shapes the samples have."""
    rng = random.Random(f"tournament {game}")
    v = VARIANTS[game]
    # The line shapes the samples have (without the samples, the rest is checked all the same).
    sample_shapes = sample_shape_set(SAMPLES) if SAMPLES.is_dir() else None
    words = {"holdem": "Hold'em", "omaha": "Omaha", "omaha8": "Omaha Hi/Lo", "stud": "7 Card Stud",
             "stud8": "7 Card Stud Hi/Lo", "razz": "Razz", "draw": "5 Card Draw",
             "27-draw": "Single Draw 2-7 Lowball", "a5-draw": "Single Draw 2-7 Lowball",
             "27-triple": "Triple Draw 2-7 Lowball", "a5-triple": "Triple Draw 2-7 Lowball"}[game]
    for kind in STRUCTURES:
        for currency, buy_in, fee, expect in (("play", 1000, 100, "play"), ("USD", 1050, 0, "USD"),
                                              ("EUR", 500, 50, "EUR"), ("play", 0, 0, "FREE")):
            h = _random_hand(game, kind, rng.randint(2, v.max_seats), rng)
            level = rng.randint(1, 40)
            stakes = header_stakes(v, h.structure)
            out = [p for p in range(h.n) if h.stacks[p] == 0]
            finishes = tuple(Finish(h.players[p].seat, h.n - i, rng.choice((0, 250))) for i, p in enumerate(out))
            th = tournament(level=level, stakes=stakes, buy_in=buy_in, fee=fee, currency=currency, finishes=finishes)
            hero = rng.choice([None, *range(h.n)])
            text = to_pokerstars(h, hand_id="42", when=WHEN, max_seats=v.max_seats, hero=hero, tournament=th)
            got = fpdb.read_hand(text)
            assert (got.tournament, got.table, got.level, got.stakes) == (th.tournament, 3, level, stakes)
            assert (got.currency, got.buy_in, got.fee) == (expect, buy_in, fee)
            assert got.game == words
            assert got.limit == ("Limit" if v.kind == "stud" else
                                 {"fixed": "Limit", "pot": "Pot Limit"}.get(kind, "No Limit"))
            assert (got.button is None) == (v.kind == "stud")
            assert got.end == {p.name: s for p, s in zip(h.players, h.stacks)}
            assert [(p.name, p.rank, p.prize) for p in got.places] == [
                (h.players[p].name, h.n - i, 250 if f.prize else None)
                for i, (p, f) in enumerate(zip(out, finishes))]
            assert "(Play Money)" not in text and "Rake 0" in text
            assert ("$" in text) == (currency == "USD") and ("€" in text) == (currency == "EUR")
            place_lines = {f"{h.players[p].name} finished the tournament in {ordinal(h.n - i)} place" for i, p in
                           enumerate(out)}
            rest = [line for line in text.split("\n") if not any(line.startswith(x) for x in place_lines)]
            cash = to_pokerstars(h, hand_id="42", table="T", when=WHEN, max_seats=v.max_seats, hero=hero, currency="")
            assert rest[2:] == cash.split("\n")[2:]
            if sample_shapes is not None:
                unknown = [s for s in shapes("\n".join(rest)) if s not in sample_shapes]
                assert not unknown, unknown


def test_the_header_and_table_in_each_currency_and_a_freeroll():
    h = _random_hand("holdem", "no", 3, random.Random(1))
    lines = to_pokerstars(h, hand_id="7", when=WHEN, max_seats=9, tournament=tournament()).split("\n")
    assert lines[0] == ("PokerStars Hand #7: Tournament #2026112901, 10+1 Hold'em No Limit - Level III (25/50) "
                        "- 2026/11/29 22:00:00 ET")
    assert lines[1] == f"Table '2026112901 3' 9-max Seat #{h.players[h.button].seat} is the button"
    usd = to_pokerstars(h, hand_id="7", when=WHEN, max_seats=9,
                        tournament=tournament(currency="USD", buy_in=20000, fee=1500, level=4, stakes=(50, 100)))
    assert usd.startswith("PokerStars Hand #7: Tournament #2026112901, $200+$15 USD Hold'em No Limit - Level IV "
                          "(50/100) - ")
    gbp = to_pokerstars(h, hand_id="7", when=WHEN, max_seats=9, tournament=tournament(currency="GBP", buy_in=550))
    assert ", £5.50+£1 GBP Hold'em" in gbp.split("\n")[0]
    free = to_pokerstars(h, hand_id="7", when=WHEN, max_seats=9, tournament=tournament(buy_in=0, fee=0, level=12))
    assert free.startswith("PokerStars Hand #7: Tournament #2026112901, Freeroll  Hold'em No Limit - Level XII (25/50)")
    stud = _random_hand("stud8", "fixed", 4, random.Random(2))
    text = to_pokerstars(stud, hand_id="8", when=WHEN, max_seats=8, tournament=tournament(stakes=(100, 200)))
    assert text.split("\n")[:2] == [
        "PokerStars Hand #8: Tournament #2026112901, 10+1 7 Card Stud Hi/Lo Limit - Level III (100/200) "
        "- 2026/11/29 22:00:00 ET",
        "Table '2026112901 3' 8-max"]
    assert [roman(n) for n in (1, 4, 9, 14, 40, 49, 90, 400, 1994)] == \
        ["I", "IV", "IX", "XIV", "XL", "XLIX", "XC", "CD", "MCMXCIV"]


def test_a_hand_with_a_dead_small_blind_still_names_its_level():
    """The director deals a dead small blind as a structure without it; the header keeps the
    level's blinds (the record's stakes), here 10/25, which the hand alone could not tell."""
    players = seated(["A", "B", "C"], [1500, 1500, 1500])
    h = Hand(find_variant("holdem"), Structure.make("no", 25, blinds=(25,)), players, button=0,
             deck=board_game_deck(3, 0, {}, "2c 7d 9h Js 3s"), rules=NO_RAKE)
    h.fold(); h.fold()
    text = to_pokerstars(h, hand_id="9", when=WHEN, max_seats=9, tournament=tournament(stakes=(10, 25)))
    assert " - Level III (10/25) - " in text.split("\n")[0]
    assert "B: posts big blind 25" in text and "small blind" not in text.split("*** SUMMARY")[0]


@pytest.mark.parametrize("game", [g for g in sorted(VARIANTS) if not VARIANTS[g].bring_in])
def test_three_blinds_are_written_small_big_and_straddle_as_a_tracker_reads_them(game):
    """Seed 002's three blinds: the small, the big (the largest), and the middle one as a straddle
    after the big blind, where PokerStars writes a third blind; fpdb reads each as a live blind of
    its amount, and every player's chips add up. Heads-up the two largest are the small and big."""
    rng = random.Random(f"three blinds {game}")
    v = VARIANTS[game]
    for kind in STRUCTURES:
        for _ in range(6):
            s = Structure.make(kind, 200, blinds=(50, 100, 200))
            n = rng.randint(2, v.max_seats)
            players = [Player(f"Player {j}", random_stack(rng, 200), seat=j + 1) for j in range(n)]
            h = Hand(v, s, players, button=rng.randrange(n), deck=Deck(rng), rules=NO_RAKE)
            for _ in play(h, rng, free_fold=False):
                pass
            text = to_pokerstars(h, hand_id="5", when=WHEN, max_seats=v.max_seats,
                                 tournament=tournament(stakes=header_stakes(v, s)))
            assert fpdb.read_hand(text).end == {p.name: st for p, st in zip(h.players, h.stacks)}
            posts = {e.kind: h.players[e.player].name for e in h.events if type(e).__name__ == "Posted"}
            words = {"small blind": "small blind", "big blind": "big blind", "blind": "straddle"}
            expect = [f"{posts[k]}: posts {words[k]} " for k in ("small blind", "big blind", "blind") if k in posts]
            lines = [line for line in text.split("\n") if ": posts " in line]
            assert len(lines) == len(expect) and all(a.startswith(b) for a, b in zip(lines, expect)), text
            assert ("blind" in posts) == (n > 2)


def test_places_decided_by_a_hand_worst_first_shared_places_in_the_best_of_them():
    """A hand that ends a tournament: two players out on it with the same chips share 3rd and 4th
    (both written "3rd", as PokerStars wrote its shared 8th place), the runner-up is paid, and the
    winner's line comes last; fpdb reads each rank and prize."""
    players = seated(["Hero", "Villain [1]", "Three", "Four"], [500, 1000, 200, 200])
    deck = board_game_deck(4, 0, {0: "As Ah", 1: "Kd Kc", 2: "7c 2d", 3: "8h 3s"}, "Jc Td 9h 5s 4c")
    h = Hand(find_variant("holdem"), Structure.make("no", 50, blinds=(25, 50)), players, button=0, deck=deck,
             rules=NO_RAKE)
    h.bet(200); h.bet(500); h.call(); h.call()          # all in but Villain; Hero's aces hold
    assert h.over and h.stacks == [1400, 500, 0, 0]
    th = tournament(currency="USD", finishes=(Finish(1, 1, 5400), Finish(2, 2, 2700), Finish(3, 3, 450),
                                              Finish(4, 3, 450)))
    text = to_pokerstars(h, hand_id="10", when=WHEN, max_seats=9, hero=0, tournament=th)
    tail = text.split("*** SUMMARY ***")[0].rstrip("\n").split("\n")[-4:]
    assert tail == [
        "Three finished the tournament in 3rd place and received $4.50.",
        "Four finished the tournament in 3rd place and received $4.50.",
        "Villain [1] finished the tournament in 2nd place and received $27.00.",
        "Hero wins the tournament and receives $54.00 - congratulations!",
    ]
    got = fpdb.read_hand(text)
    assert [(p.name, p.rank, p.prize, p.currency) for p in got.places] == [
        ("Three", 3, 450, "$"), ("Four", 3, 450, "$"), ("Villain [1]", 2, 2700, "$"), ("Hero", 1, 5400, "$")]
    play_money = to_pokerstars(h, hand_id="10", when=WHEN, max_seats=9, hero=0,
                               tournament=tournament(finishes=(Finish(1, 1, 20000), Finish(3, 4), Finish(4, 3))))
    assert "Hero wins the tournament and receives 200.00 - congratulations!\n" in play_money
    assert "Four finished the tournament in 3rd place\n" in play_money
    assert "Three finished the tournament in 4th place\nFour" in play_money


def test_places_for_seats_nobody_played_or_unknown_currencies_are_refused():
    h = _random_hand("holdem", "no", 3, random.Random(4))
    with pytest.raises(ValueError, match="seats \\[7\\]"):
        to_pokerstars(h, hand_id="1", when=WHEN, max_seats=9, tournament=tournament(finishes=(Finish(7, 3),)))
    with pytest.raises(ValueError, match="unknown currency"):
        to_pokerstars(h, hand_id="1", when=WHEN, max_seats=9, tournament=tournament(currency="CHF"))
    for bad in (dict(level=0), dict(table=0), dict(stakes=(25,)), dict(buy_in=-1), dict(tournament="7"),
                dict(finishes=(Finish(1, 2), Finish(1, 3)))):
        with pytest.raises(ValueError):
            tournament(**bad)
    with pytest.raises(ValueError):
        Finish(1, 0)


def test_pokerkit_reads_tournament_no_limit_holdem_and_ends_with_our_stacks():
    """pokerkit's PokerStars reader (no-limit hold'em, no antes) takes our tournament hands."""
    from pokerkit import HandHistory
    rng = random.Random(38)
    for i in range(30):
        n = rng.randint(2, 9)
        players = [Player(f"Player{j}", rng.randint(200, 5000), seat=j + 1) for j in range(n)]
        h = Hand(find_variant("holdem"), Structure.make("no", 50, blinds=(25, 50)), players,
                 button=rng.randrange(n), deck=Deck(rng), rules=NO_RAKE)
        for _ in play(h, rng, free_fold=False):
            pass
        splits = len({(e.pot, e.half) for e in h.events if type(e).__name__ == "Awarded"}) < \
            sum(type(e).__name__ == "Awarded" for e in h.events)
        text = to_pokerstars(h, hand_id=str(i + 1), when=WHEN, max_seats=9, tournament=tournament())
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            hh = next(HandHistory.from_pokerstars(text, parse_value=int, error_status=True))
        assert hh.table == "2026112901 3" and hh.hand == i + 1
        if not splits and not any(type(e).__name__ == "Mucked" for e in h.events):
            assert dict(zip(hh.players, tuple(hh)[-1].stacks)) == {p.name: s for p, s in zip(h.players, h.stacks)}
