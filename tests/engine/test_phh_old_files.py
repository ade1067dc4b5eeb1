"""PHH files written by the release before three blinds were settled (commit 7083f98; the files and
how they were made: tests/engine/data/phh/README.md). That release took the middle of three blinds
for the big blind: its big-blind ante went to the middle blind's poster, and heads-up it posted the
two smaller blinds under the largest. Its other hands are dealt the same today and load; those are
not, and are refused saying why, never replayed to other stacks."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from cardroom.engine import events as ev
from cardroom.engine.phh import PHHRuleError, UnsupportedPHH, import_hand, replay_file

DATA = Path(__file__).parent / "data" / "phh"
BEFORE = "as cardroom wrote one before its three blinds were settled"


def _file(name: str) -> str:
    return (DATA / name).read_text()


def test_rule_a_three_blind_hand_from_the_release_before_loads_to_its_own_stacks():
    text = _file("legacy-three-blinds.phh")
    h = import_hand(text)
    assert h.stacks == tomllib.loads(text)["finishing_stacks"]
    assert [(e.player, e.amount) for e in h.events if isinstance(e, ev.Posted)] == [(0, 50), (1, 100), (2, 200)]


def test_a_big_blind_ante_at_three_blinds_from_the_release_before_is_refused_saying_why():
    # Refused before as a pattern no table plays, with [0, 3, 0] given as a playable example.
    with pytest.raises(UnsupportedPHH, match=f"antes \\[0, 25, 0, 0\\]: p2's ante at three blinds is a "
                                             f"big-blind ante {BEFORE}.*p3 antes"):
        import_hand(_file("legacy-three-blinds-big-blind-ante.phh"))


def test_a_heads_up_no_limit_hand_from_the_release_before_is_refused_saying_why():
    with pytest.raises(UnsupportedPHH, match=f"min_bet 200 differs from the big blind .*: a three-blind "
                                             f"table's heads-up hand {BEFORE}"):
        import_hand(_file("legacy-three-blinds-heads-up-no-limit.phh"))


def test_a_heads_up_limit_hand_from_the_release_before_is_not_replayed_to_other_stacks():
    # It replayed without a word to [10100, 9900]: its posts of 50 and 100 under a big blind of 200
    # are not what a file of two blinds says, so the calls came out 100 short.
    result = replay_file(DATA / "legacy-three-blinds-heads-up-fixed.phh")
    assert result["error"] == (
        "finishing_stacks [10200, 9800] are not where the actions end ([10100, 9900]): the hand was "
        f"dealt under other rules (perhaps a three-blind table's heads-up hand {BEFORE}, the two "
        "smaller blinds posted under the largest)")


def test_our_own_file_must_end_at_its_finishing_stacks():
    text = _file("legacy-three-blinds.phh")
    wrong = text.replace("finishing_stacks = [9800, 10800,", "finishing_stacks = [9900, 10700,")
    assert wrong != text
    with pytest.raises(PHHRuleError, match=r"finishing_stacks \[9900, 10700, 9800, 9800, 9800\] are not where "
                                           r"the actions end \(\[9800, 10800, 9800, 9800, 9800\]\): the hand "
                                           r"was dealt under other rules$"):
        import_hand(wrong)
    # A file without our fields is another program's: its stacks may follow other rules (pokerkit's
    # odd chips), and the replay gives ours.
    foreign = "\n".join(line for line in wrong.split("\n") if not line.startswith("_cardroom_"))
    assert import_hand(foreign).stacks == [9800, 10800, 9800, 9800, 9800]
