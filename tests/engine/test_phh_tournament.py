"""Tournament hands in PHH (phh/tournament.py): the standard's `event`, `level` and `table`, whole
chips and no currency; the rest in `_cardroom_` fields. Read back by our importer (the same
TournamentHand, the hand replayed to the same stacks) and by pokerkit (its fields, and the same
replay as the file without them), for every game and structure."""

from __future__ import annotations

import random
import tomllib
import warnings
from datetime import datetime

import pytest

from cardroom.engine.betting import NO_RAKE, STRUCTURES, Structure
from cardroom.engine.cards import Deck
from cardroom.engine.hand import Hand, Player
from cardroom.engine.phh import (
    PHHFormatError, STANDARD_CODES, export_hand, import_hand, player_order, tournament_of, variant_code,
)
from cardroom.engine.pokerstars import header_stakes
from cardroom.engine.tournament.history import Finish, TournamentHand
from cardroom.engine.variants import VARIANTS
from tests.engine.strategies import play, random_stack

pokerkit = pytest.importorskip("pokerkit")

WHEN = datetime(2026, 11, 29, 22, 0, 0)


def _hand(game: str, kind: str, rng: random.Random) -> Hand:
    v = VARIANTS[game]
    n = rng.randint(2, v.max_seats)
    s = Structure.make(kind, 100, stud=v.bring_in, ante=rng.choice((0, 10)), bring_in=25 if v.bring_in else 0)
    players = [Player(f"Player {j}", random_stack(rng, 100), seat=j + 1) for j in range(n)]
    h = Hand(v, s, players, button=rng.randrange(n), deck=Deck(rng), rules=NO_RAKE)
    for _ in play(h, rng, free_fold=False):
        pass
    return h


def _tournament(h: Hand, rng: random.Random, **kw) -> TournamentHand:
    out = [p for p in range(h.n) if h.stacks[p] == 0]
    finishes = tuple(Finish(h.players[p].seat, 9 - i, rng.choice((0, 1234))) for i, p in enumerate(out))
    fields = dict(tournament=2026112901, table=rng.randint(1, 12), level=rng.randint(1, 30),
                  stakes=header_stakes(h.variant, h.structure), buy_in=rng.choice((0, 1000, 1050)),
                  fee=rng.choice((0, 100)), currency=rng.choice(("play", "USD", "EUR")),
                  name=rng.choice(("", "Draw Lo Sit & Go", 'Hourly "PLO"')), finishes=finishes)
    fields.update(kw)
    return TournamentHand(**fields)


@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_every_game_reads_back_the_same_tournament_and_replays_to_the_same_stacks(game):
    rng = random.Random(f"phh tournament {game}")
    for kind in STRUCTURES:
        h = _hand(game, kind, rng)
        th = _tournament(h, rng)
        viewer = rng.choice([None, *range(h.n)])
        text = export_hand(h, viewer=viewer, when=WHEN, hand=42, tournament=th)
        data = tomllib.loads(text)
        assert tournament_of(text) == th
        assert (data.get("event", ""), data["level"], data["table"], data["hand"]) == (th.name, th.level, th.table, 42)
        assert data["currency"] == "XXX" and data["_cardroom_cents_per_unit"] == 1
        assert data["starting_stacks"] == [h.start_stacks[p] for p in player_order(h)]   # whole chips
        assert import_hand(text).stacks == [h.stacks[p] for p in player_order(h)]
        places = {f.seat: f.place for f in th.finishes}
        assert data.get("_cardroom_places", [0] * h.n) == [places.get(s, 0) for s in data["seats"]]


def test_the_fields_as_written():
    rng = random.Random(1)
    h = _hand("holdem", "no", rng)
    th = TournamentHand(42, 3, 7, (150, 300), buy_in=1050, fee=100, currency="USD", name="Hourly PLO",
                        finishes=(Finish(h.players[0].seat, 5, 250),))
    data = tomllib.loads(export_hand(h, tournament=th))
    assert (data["event"], data["level"], data["table"], data["currency"]) == ("Hourly PLO", 7, 3, "XXX")
    assert {k: v for k, v in data.items() if k.startswith("_cardroom_") and k[10:] in (
        "tournament", "level_stakes", "buy_in", "fee", "buy_in_currency")} == {
        "_cardroom_tournament": 42, "_cardroom_level_stakes": [150, 300], "_cardroom_buy_in": 10.5,
        "_cardroom_fee": 1, "_cardroom_buy_in_currency": "USD"}
    first = data["seats"].index(h.players[0].seat)
    assert data["_cardroom_places"][first] == 5 and data["_cardroom_prizes"][first] == 2.5
    play_money = tomllib.loads(export_hand(h, tournament=TournamentHand(42, 3, 7, (150, 300))))
    assert play_money["_cardroom_buy_in_currency"] == "XXX" and "event" not in play_money
    assert "_cardroom_places" not in play_money
    # A cash-game hand has none of it, and no tournament to read back.
    cash = export_hand(h)
    assert tournament_of(cash) is None and "level" not in tomllib.loads(cash)
    # The room's own meta still wins where it names a field.
    assert tomllib.loads(export_hand(h, tournament=th, table="Final table"))["table"] == "Final table"


def test_a_tournament_hands_chips_are_no_currency():
    h = _hand("holdem", "no", random.Random(2))
    th = TournamentHand(42, 3, 7, (150, 300))
    with pytest.raises(ValueError, match="no currency"):
        export_hand(h, tournament=th, currency="USD")
    assert tomllib.loads(export_hand(h, tournament=th, currency="XXX"))["currency"] == "XXX"
    # Chips in another unit if asked (the stakes with them).
    data = tomllib.loads(export_hand(h, tournament=th, cents_per_unit=100))
    assert data["_cardroom_level_stakes"] == [1.5, 3] and tournament_of(export_hand(h, tournament=th,
                                                                                    cents_per_unit=100)) == th


@pytest.mark.parametrize("field, value, message", [
    ("_cardroom_tournament", '"x"', "tournament's number"),
    ("level", "0", "tournament fields"),
    ("table", '"Final"', "table's number"),
    ("_cardroom_level_stakes", "[1]", "level_stakes"),
    ("_cardroom_buy_in_currency", '"CHF"', "buy_in_currency"),
    ("_cardroom_buy_in", "0.001", "whole number of cents"),
    ("_cardroom_places", '[1, 2]', "one per player"),
])
def test_bad_tournament_fields_are_refused_with_the_field_named(field, value, message):
    h = _hand("holdem", "no", random.Random(3))
    th = TournamentHand(42, 3, 7, (150, 300), finishes=(Finish(h.players[0].seat, 9),))
    lines = [line for line in export_hand(h, tournament=th).split("\n") if not line.startswith(f"{field} =")]
    text = "\n".join(lines) + f"\n{field} = {value}\n"
    with pytest.raises(PHHFormatError, match=message):
        tournament_of(text)


STANDARD_GAMES = [(key, kind) for key in sorted(VARIANTS) for kind in STRUCTURES
                  if variant_code(VARIANTS[key], Structure.make(kind, 200, stud=VARIANTS[key].bring_in))
                  in STANDARD_CODES]


def _pokerkit_stacks(text: str):
    """pokerkit's finishing stacks for the file, or the error it stops with."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return list(list(pokerkit.HandHistory.loads(text))[-1].stacks)
        except ValueError as e:          # a hand whose rules pokerkit plays otherwise (test_vs_pokerkit)
            return str(e)


@pytest.mark.parametrize("game, kind", STANDARD_GAMES)
def test_pokerkit_reads_the_standards_fields_and_replays_as_without_them(game, kind):
    rng = random.Random(f"pokerkit tournament {game} {kind}")
    replayed = 0
    for _ in range(10):
        h = _hand(game, kind, rng)
        th = _tournament(h, rng, name="Sit & Go")
        text = export_hand(h, tournament=th, when=WHEN)
        hh = pokerkit.HandHistory.loads(text)
        assert (hh.event, hh.level, hh.table, hh.currency) == ("Sit & Go", th.level, th.table, "XXX")
        assert hh.user_defined_fields["_cardroom_tournament"] == th.tournament
        theirs = _pokerkit_stacks(text)
        assert theirs == _pokerkit_stacks(export_hand(h, cents_per_unit=1))
        replayed += isinstance(theirs, list)
    assert replayed >= 5
