"""Our PHH exports as a stock reader (pokerkit 0.7.7's `HandHistory`) takes them: the standard's
games load and replay to our finishing stacks, the games the standard lacks say so at once, and
the time, currency, seat count and rake are in every file.

The hands of the standard's games are dealt and played in both libraries at once
(test_vs_pokerkit.Mirror), so where the two differ it is by a rule test_vs_pokerkit names: a skip
in BREAKS_RULE, or the odd chips (ours one each from the left of the button, pokerkit the whole
remainder to one winner; with decimal amounts, dollars, pokerkit divides a pot exactly, so a
split pot's share is within one cent of ours). Our file, read by pokerkit, must replay to exactly
pokerkit's own result for the hand. The Mirror plays no fixed-limit completion after an all-in
for less than a raise (ours completes to the full level, pokerkit asks a full bet on top).
"""

from __future__ import annotations

import datetime as dt
import random
import tomllib
import warnings
from collections import Counter
from decimal import Decimal

import pytest

pokerkit = pytest.importorskip("pokerkit")

from cardroom.engine import events as ev
from cardroom.engine.betting import NO_RAKE, STRUCTURES, Rules, Structure
from cardroom.engine.phh import (
    NO_CURRENCY,
    STANDARD_CODES,
    export_hand,
    import_hand,
    player_order,
    variant_code,
)
from cardroom.engine.variants import VARIANTS
from tests.engine.test_phh import play
from tests.engine.test_replay_vs_pokerkit import CASES
from tests.engine.test_vs_pokerkit import GAMES, Mirror

HANDS = 20
STANDARD_CASES = [(name, style) for name, style in CASES
                  if variant_code(VARIANTS[GAMES[name].key], Structure.make(GAMES[name].kind, 200,
                                  stud=VARIANTS[GAMES[name].key].bring_in)) in STANDARD_CODES]
ALL_GAMES = [(key, kind) for key in sorted(VARIANTS) for kind in STRUCTURES]


def _code(key: str, kind: str) -> str:
    v = VARIANTS[key]
    return variant_code(v, Structure.make(kind, 200, stud=v.bring_in))


def pokerkit_stacks(text: str, **kwargs) -> list:
    """The finishing stacks pokerkit's HandHistory replays the file to."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # pokerkit warns of free folds; they are legal
        states = list(pokerkit.HandHistory.loads(text, **kwargs))
    return list(states[-1].stacks)


def test_the_standard_codes_are_the_ones_pokerkit_replays():
    assert STANDARD_CODES == set(pokerkit.HandHistory.game_types)
    ours = {_code(key, kind) for key, kind in ALL_GAMES}
    assert ours & STANDARD_CODES == {"FT", "NT", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D"}
    assert len(STANDARD_CASES) == 6 * 3 + 3    # six blind games with three ways of anteing, three studs


@pytest.mark.parametrize("name, style", STANDARD_CASES)
def test_pokerkit_replays_our_file_of_every_standard_game_to_our_stacks(name, style):
    played = exact = 0
    for seed in range(HANDS):
        m = Mirror(GAMES[name], random.Random(f"phh-standard/{name}/{style}/{seed}"), ante_style=style, cap=4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            m.run()
            verdict = m.compare()
        if m.skipped or verdict:                 # a rule pokerkit breaks (test_vs_pokerkit counts it)
            assert m.skipped or verdict.startswith("skipped:"), verdict
            continue
        played += 1
        ours = [m.hand.stacks[p] for p in m.order]
        theirs = list(m.state.stacks)            # pokerkit's own result for the hand
        in_chips = export_hand(m.hand, cents_per_unit=1)
        assert tomllib.loads(in_chips)["variant"] in STANDARD_CODES
        assert pokerkit_stacks(in_chips) == theirs, in_chips
        if m.hand.variant.kind == "draw" or seed % 4 == 0:
            # A player's own file (others' hidden cards ??; in a draw game the hands shown only
            # at the showdown) replays to the same result: one player's, in turn.
            mine = export_hand(m.hand, viewer=seed % len(m.order), cents_per_unit=1)
            assert pokerkit_stacks(mine) == theirs, mine
        exact += theirs == ours
        # Dollars: pokerkit reads decimals and divides a split pot to 28 digits (a third is
        # 0.333...); ours gives whole cents. Each player is within a cent a split share of ours.
        in_dollars = pokerkit_stacks(export_hand(m.hand))
        awards = [e for e in m.hand.events if isinstance(e, ev.Awarded)]
        shares = Counter(m.pk_of[e.player] for e in awards)
        split = len(awards) > len({e.pot for e in awards})
        for i, (x, c) in enumerate(zip(in_dollars, ours)):
            off = abs(Decimal(x) * 100 - c)
            assert off == 0 or (split and off < shares[i]), (i, in_dollars, ours)
    assert played >= HANDS * 0.7 and exact >= played * 0.7, (played, exact)


def _rake(fields: dict):
    """The rake as a pokerkit reader builds it from our file: the percentage of each pot rounded
    down to the chip, at most the cap, none without a flop if the table says so."""
    percent, cap = fields["_cardroom_rake_percent"], fields["_cardroom_rake_cap"]

    def rake(amount, state):
        if fields["_cardroom_no_flop_no_drop"] and not any(state.board_cards):
            return 0, amount
        taken = min(amount * percent // 100, cap)
        return taken, amount - taken
    return rake


@pytest.mark.parametrize("key, kind", [("holdem", "no"), ("holdem", "fixed"), ("omaha", "pot")])
def test_pokerkit_sees_the_rake_and_replays_raked_hands_to_our_stacks(key, kind):
    """The rake taken and the rule are in the file; a pokerkit reader given that rule replays a
    one-pot hand to our stacks after the rake (our cap is a hand's, pokerkit's rake is a pot's)."""
    raked = 0
    for seed in range(30):
        h = play(key, kind, seed, rules=Rules(rake_percent=5, rake_cap=300, no_flop_no_drop=seed % 2 == 0))
        text = export_hand(h, cents_per_unit=1)
        data = tomllib.loads(text)
        assert data["_cardroom_rake"] == h.rake
        assert sum(data["starting_stacks"]) - sum(data["finishing_stacks"]) == h.rake
        assert pokerkit.HandHistory.loads(text).user_defined_fields["_cardroom_rake"] == h.rake
        awards = [e for e in h.events if isinstance(e, ev.Awarded)]
        if len(awards) != 1:
            continue
        raked += h.rake > 0
        assert pokerkit_stacks(text, rake=_rake(data)) == [h.stacks[p] for p in player_order(h)], text
    assert raked >= 5


@pytest.mark.parametrize("key, kind", [g for g in ALL_GAMES if _code(*g) not in STANDARD_CODES])
def test_rule_a_game_the_standard_lacks_says_so_and_pokerkit_stops_at_once(key, kind):
    """The file names its code as not the standard's (second line), names the game in words,
    loads in pokerkit (every field readable) and stops with a KeyError naming the code before any
    action; our own importer replays it (the old codes still import)."""
    h = play(key, kind, 3)
    text = export_hand(h)
    code = _code(key, kind)
    assert text.splitlines()[1].startswith(f"# {code} (") and "not one of the PHH standard's variants" in text
    hh = pokerkit.HandHistory.loads(text)
    assert hh.variant == code and hh.variant not in pokerkit.HandHistory.game_types
    assert hh.players == [p.name for p in (h.players[i] for i in player_order(h))]
    assert hh.user_defined_fields["_cardroom_game"].endswith(VARIANTS[key].name)
    with pytest.raises(KeyError, match=repr(code)):
        next(iter(hh))
    assert import_hand(text).stacks == [h.stacks[p] for p in player_order(h)]


def test_standard_game_files_have_no_such_note():
    text = export_hand(play("holdem", "no", 1))
    assert "not one of the PHH standard's variants" not in text
    assert tomllib.loads(text)["_cardroom_game"] == "No-Limit Texas Hold'em"


def test_time_currency_and_seat_count_are_the_specs_fields():
    h = play("holdem", "no", 2)
    start = dt.datetime(2026, 12, 1, 23, 5, 7, 900, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    text = export_hand(h, when=start, currency="EUR", seat_count=9, table="Alpha", hand=12)
    hh = pokerkit.HandHistory.loads(text)
    assert (hh.time, hh.time_zone, hh.day, hh.month, hh.year) == (dt.time(4, 5, 7), "UTC", 2, 12, 2026)
    assert (hh.currency, hh.currency_symbol, hh.seat_count, hh.table, hh.hand) == ("EUR", "€", 9, "Alpha", 12)
    naive = tomllib.loads(export_hand(h, when=dt.datetime(2026, 1, 2, 3, 4, 5)))     # taken as UTC
    assert (naive["time"], naive["day"], naive["month"], naive["year"]) == (dt.time(3, 4, 5), 2, 1, 2026)
    play_chips = tomllib.loads(export_hand(h, currency=NO_CURRENCY))
    assert play_chips["currency"] == "XXX" and "currency_symbol" not in play_chips
    assert import_hand(text).stacks == import_hand(export_hand(h)).stacks
    for bad in ("usd", "US", "dollars", 840):
        with pytest.raises(ValueError, match="ISO 4217"):
            export_hand(h, currency=bad)


def test_play_chips_name_no_unit_on_import():
    """A file of play chips (XXX) in whole numbers without our fields: one unit is one chip."""
    text = export_hand(play("holdem", "no", 4, rules=NO_RAKE), cents_per_unit=1, currency=NO_CURRENCY)
    foreign = "\n".join(line for line in text.splitlines() if not line.startswith("_cardroom_"))
    assert import_hand(foreign).stacks == import_hand(text).stacks
