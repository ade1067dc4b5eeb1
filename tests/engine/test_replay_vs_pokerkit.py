"""`cardroom replay` against pokerkit: every generated hand of every game both deal, as pokerkit
records it (a PHH file in whole chips: no currency, none of our `_cardroom_` fields), replays to
pokerkit's finishing stacks, big-blind and button antes included.

Each hand is dealt and played in both libraries at once (test_vs_pokerkit.Mirror, fixed limit
capped at four bets, the PHH default), then pokerkit's record of it (its operations, written as
pokerkit's HandHistory writes them) is replayed by `finishing_stacks`, what `cardroom replay`
prints. The replay must give exactly the stacks of the hand our engine played, and those must be
pokerkit's, except where pokerkit breaks a published rule; each such hand is counted as skipped
under the rule's name:

- one-odd-chip-each: a split's odd chips go one each to the winners from the left of the button
  (Robert's Rules; DESIGN "Odd chips"); pokerkit gives a split's whole remainder to one winner.
- stud-odd-chip-by-card: in stud the odd chip goes to the winner with the highest card by suit
  (razz: the lowest); pokerkit gives it to the lowest seat.
- pots-split-separately: main and side pots are split separately, never merged (Robert's Rules);
  pokerkit merges pots with the same contenders, so their odd chips fall differently.
- the rules test_vs_pokerkit names (BREAKS_RULE): a hi-lo pot nobody in it has a low for goes
  whole to the high hand (pokerkit halves it), and stud's river dealt as one community card when
  the stub is short, as the rule pages say (pokerkit recycles the muck).
"""

from __future__ import annotations

import json
import os
import random
import time
import warnings
from collections import defaultdict

import pytest

pokerkit = pytest.importorskip("pokerkit")
from pokerkit import (
    BoardDealing,
    BringInPosting,
    CheckingOrCalling,
    CompletionBettingOrRaisingTo,
    Folding,
    HoleCardsShowingOrMucking,
    HoleDealing,
    StandingPatOrDiscarding,
)

from cardroom.engine.betting import ANTE_ALL, ANTE_BB, ANTE_BUTTON, FIXED
from cardroom.engine.phh import finishing_stacks, variant_code
from cardroom.engine.variants import VARIANTS
from tests.engine.test_vs_pokerkit import BREAKS_RULE, GAMES, Mirror

# Every game both deal, with each way of anteing it has (stud antes all round).
CASES = [(name, style) for name, game in GAMES.items()
         for style in ((ANTE_ALL,) if VARIANTS[game.key].bring_in else (ANTE_ALL, ANTE_BB, ANTE_BUTTON))]
ODD_CHIP_RULES = ("one-odd-chip-each", "stud-odd-chip-by-card", "pots-split-separately")


def _cards(cards) -> str:
    return "".join(map(repr, cards))


def pokerkit_phh(m: Mirror) -> str:
    """Pokerkit's record of the hand as a PHH file: its antes, blinds and stacks, and its operations
    as pokerkit.HandHistory.from_game_state writes them (dealing gathered up to the next action)."""
    s, v, st = m.state, m.variant, m.structure
    fields: dict = {"variant": variant_code(v, st), "antes": list(s.antes)}
    if v.bring_in:
        fields["bring_in"] = st.bring_in
    else:
        fields["blinds_or_straddles"] = list(s.blinds_or_straddles)
    if st.kind == FIXED:
        fields.update(small_bet=st.small_bet, big_bet=st.big_bet)
    else:
        fields["min_bet"] = st.big_blind
    fields["starting_stacks"] = list(s.starting_stacks)
    actions: list[str] = []
    holes: dict[int, list] = defaultdict(list)
    board: list = []

    def dealt() -> None:
        for i in sorted(holes):
            actions.append(f"d dh p{i + 1} {_cards(holes[i])}")
        if board:
            actions.append(f"d db {_cards(board)}")
        holes.clear()
        board.clear()

    for op in s.operations:
        if isinstance(op, HoleDealing):
            holes[op.player_index].extend(op.cards)
            continue
        if isinstance(op, BoardDealing):
            board.extend(op.cards)
            continue
        dealt()
        who = f"p{getattr(op, 'player_index', 0) + 1}"
        if isinstance(op, StandingPatOrDiscarding):
            actions.append(f"{who} sd {_cards(op.cards)}".strip())
        elif isinstance(op, BringInPosting):
            actions.append(f"{who} pb")
        elif isinstance(op, Folding):
            actions.append(f"{who} f")
        elif isinstance(op, CheckingOrCalling):
            actions.append(f"{who} cc")
        elif isinstance(op, CompletionBettingOrRaisingTo):
            actions.append(f"{who} cbr {op.amount}")
        elif isinstance(op, HoleCardsShowingOrMucking):
            actions.append(f"{who} sm {_cards(op.hole_cards)}".strip())
    dealt()
    fields["actions"] = actions
    return "".join(f"{key} = {json.dumps(value)}\n" for key, value in fields.items())


def odd_chip_rule(m: Mirror) -> str:
    """Which published rule pokerkit breaks in a hand whose stacks differ from ours only by odd chips."""
    if m.expected_stacks() == [m.state.stacks[m.pk_of[p]] for p in range(m.n)]:
        return "stud-odd-chip-by-card" if m.variant.bring_in else "one-odd-chip-each"
    return "pots-split-separately"


def replay_one(name: str, style: str, seed: int) -> str:
    """'ok', 'skipped:RULE' or a description of the disagreement."""
    m = Mirror(GAMES[name], random.Random(f"replay/{name}/{style}/{seed}"), ante_style=style, cap=4)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            m.run()
        except Exception as exc:   # noqa: BLE001 - a pokerkit refusal or one of the Mirror's asserts
            return f"skipped:{m.skipped}" if m.skipped else f"played: {type(exc).__name__}: {exc}"
        if m.skipped:
            return f"skipped:{m.skipped}"
        verdict = m.compare()
    if verdict and not verdict.startswith("skipped"):
        return f"played: {verdict}"
    text = pokerkit_phh(m)
    try:
        replayed = finishing_stacks(text)
    except Exception as exc:   # noqa: BLE001 - every refusal is a disagreement to report
        return f"replay: {type(exc).__name__}: {exc}\n{text}"
    played = [m.hand.stacks[p] for p in m.order]
    if replayed != played:
        return f"replay {replayed} != the hand played {played}\n{text}"
    if replayed == list(m.state.stacks):
        return "ok"
    return verdict or f"skipped:{odd_chip_rule(m)}"


def replay_many(name: str, style: str, count: int, start: int = 0) -> dict:
    t0 = time.perf_counter()
    ok, skipped, disagree = 0, defaultdict(int), []
    for seed in range(start, start + count):
        out = replay_one(name, style, seed)
        if out == "ok":
            ok += 1
        elif out.startswith("skipped:"):
            skipped[out.split(":", 1)[1]] += 1
        else:
            disagree.append((seed, out))
    return {"hands": count, "ok": ok, "skipped": dict(skipped), "disagreements": disagree,
            "seconds": time.perf_counter() - t0}


CI_HANDS = int(os.environ.get("CARDROOM_REPLAY_HANDS", "40"))
DEEP_HANDS = int(os.environ.get("CARDROOM_REPLAY_DEEP_HANDS", "2000"))
# What a skip may name: a published rule pokerkit breaks (above), or a skip test_vs_pokerkit names.
KNOWN_SKIPS = set(ODD_CHIP_RULES) | set(BREAKS_RULE)


def check(out: dict) -> None:
    assert not out["disagreements"], out["disagreements"][:3]
    assert set(out["skipped"]) <= KNOWN_SKIPS, out["skipped"]


@pytest.mark.parametrize("name, style", CASES)
def test_replay_of_pokerkits_record_gives_pokerkits_finishing_stacks(name, style):
    out = replay_many(name, style, CI_HANDS)
    check(out)
    assert out["ok"] >= CI_HANDS * 0.8, out


@pytest.mark.deep
@pytest.mark.parametrize("name, style", CASES)
def test_replay_of_pokerkits_record_gives_pokerkits_finishing_stacks_deep(name, style):
    out = replay_many(name, style, DEEP_HANDS, start=1_000_000)
    print(f"\n{name} {style}: {out['hands']} hands, {out['ok']} agree, skipped {out['skipped']}, "
          f"{len(out['disagreements'])} disagree, {out['seconds']:.1f} s")
    check(out)


if __name__ == "__main__":  # python -m tests.engine.test_replay_vs_pokerkit [hands] [game...]
    import sys
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    for name, style in CASES:
        if sys.argv[2:] and name not in sys.argv[2:]:
            continue
        out = replay_many(name, style, count)
        print(f"{name:16} {style:6} {out['hands']:6} hands {out['ok']:6} ok skipped {out['skipped']} "
              f"{len(out['disagreements']):4} disagree {out['seconds']:7.1f} s", flush=True)
        for seed, why in out["disagreements"][:3]:
            print("   ", seed, why[:400])
