"""Reading a PHH file's set-up and actions: every malformed field or action is refused with its own
error and message (phh/parse.py). One valid file, changed one field or one action at a time."""

from __future__ import annotations

import pytest

from cardroom.engine.phh import PHHFormatError, PHHRuleError, UnsupportedPHH
from cardroom.engine.phh.holdings import resolve_cards
from cardroom.engine.phh.parse import parse_setup

NT = {
    "variant": "NT", "antes": [0, 0, 0], "blinds_or_straddles": [1, 2, 0], "min_bet": 2,
    "starting_stacks": [200, 200, 200],
    "actions": ["d dh p1 AsKs", "d dh p2 ????", "d dh p3 7c2d", "p3 f", "p1 cbr 6", "p2 f"],
}
FT = {**NT, "variant": "FT", "small_bet": 2, "big_bet": 4}
STUD = {"variant": "F7S", "antes": [1, 1], "bring_in": 1, "small_bet": 4, "big_bet": 8,
        "starting_stacks": [100, 100], "actions": ["d dh p1 ????2c", "d dh p2 ????3c", "p1 pb"]}


def _with(base: dict, **changes) -> dict:
    data = {**base, **changes}
    return {k: v for k, v in data.items() if v is not None}


def _action(text) -> dict:
    return _with(NT, actions=["d dh p1 AsKs", "d dh p2 QsJs", "d dh p3 7c2d", text])


SETUP_ERRORS = [
    (_with(NT, variant="XT"), UnsupportedPHH, "unknown or unsupported variant 'XT'"),
    (_with(NT, variant="X"), PHHFormatError, "variant must be a code like 'NT'"),
    (_with(NT, starting_stacks=None), PHHFormatError, "required field 'starting_stacks' is missing"),
    (_with(NT, starting_stacks=[]), PHHFormatError, "starting_stacks must be a non-empty array"),
    (_with(NT, starting_stacks=[200]), PHHFormatError, "a hand needs at least two players"),
    (_with(NT, starting_stacks=[200] * 24), UnsupportedPHH, "24 players: Texas Hold'em is dealt to at most"),
    (_with(NT, starting_stacks=[200, None, 200]), UnsupportedPHH, "unknown starting stacks"),
    (_with(NT, actions="p1 f"), PHHFormatError, "actions must be an array of strings"),
    (_with(NT, starting_stacks=[200, 0, 200]), PHHFormatError, r"starting_stacks\[1\] = 0: every stack must be"),
    (_with(NT, antes=[0, 0]), PHHFormatError, "antes has 2 entries for 3 players"),
    (_with(NT, antes=[0, -1, 0]), PHHFormatError, "antes must not be negative"),
    (_with(NT, antes=[1, 2, 3]), UnsupportedPHH, r"antes \[1, 2, 3\]: only the same ante"),
    (_with(NT, blinds_or_straddles=[1, -2, 0]), PHHFormatError, "blinds_or_straddles must not be negative"),
    (_with(NT, blinds_or_straddles=[1, 0, 2]), UnsupportedPHH, "only blinds posted by the first players"),
    (_with(NT, starting_stacks=[200] * 5, antes=[0] * 5, blinds_or_straddles=[1, 2, 4, 8, 0]), UnsupportedPHH,
     "at most three blinds"),
    (_with(NT, min_bet=None), PHHFormatError, "required field 'min_bet' is missing"),
    (_with(NT, min_bet=0), PHHFormatError, "min_bet must be positive"),
    (_with(NT, min_bet=4), UnsupportedPHH, "min_bet 4 differs from the big blind"),
    (_with(NT, _cardroom_stakes=[2]), PHHFormatError, r"_cardroom_stakes must be \[small_bet, big_bet\]"),
    (_with(FT, big_bet=None), PHHFormatError, "required field 'big_bet' is missing"),
    (_with(FT, small_bet=-2), PHHFormatError, "small_bet must be positive"),
    (_with(FT, _cardroom_cap=-1), PHHFormatError, "_cardroom_cap must be a non-negative integer"),
    (_with(FT, _cardroom_cap=1), PHHFormatError, "betting structure: the cap must allow"),
    (_with(NT, _cardroom_show_all=1), PHHFormatError, "_cardroom_show_all must be true or false"),
    (_with(NT, _cardroom_rake_cap="x"), PHHFormatError, "_cardroom_rake_cap must be a number"),
    (_with(NT, players=["a", "b"]), PHHFormatError, "players must be an array of 3 strings"),
    (_with(NT, seats=[1, 2, True]), PHHFormatError, "seats must be an array of 3 integers"),
    (_with(NT, _cardroom_live_posts=[0, 0]), PHHFormatError, "_cardroom_live_posts must be an array of 3"),
    (_with(NT, _cardroom_dead_posts=[0, -1, 0]), PHHFormatError, "_cardroom_dead_posts must not be negative"),
    (_with(NT, _cardroom_x=1, finishing_stacks=[1, 2]), PHHFormatError, "finishing_stacks has 2 entries"),
    (_with(STUD, bring_in=None), PHHFormatError, "required field 'bring_in' is missing"),
    (_with(STUD, blinds_or_straddles=[1, 2]), UnsupportedPHH, "blinds in a stud game"),
]


@pytest.mark.parametrize("data, error, message", SETUP_ERRORS)
def test_a_malformed_set_up_field_is_refused_naming_it(data, error, message):
    with pytest.raises(error, match=message):
        parse_setup(data)


ACTION_ERRORS = [
    (7, "action 4 must be a string, not 7"),
    ("# cardroom: p9 protected all-in", "action 4: there is no player p9$"),
    ("d", r"action 4 \('d'\): the dealer's actions are 'd dh pN cards' and 'd db cards'"),
    ("d xx AsKs", "the dealer's actions are"),
    ("d db", r"action 4 \('d db'\): write 'd db cards'"),
    ("d db Ah Kh", "write 'd db cards'"),
    ("d db A", "action 4: 'A' is not a list of two-character cards"),
    ("d db Xx", r"action 4: 'Xx' is not a card \(rank"),
    ("d dh p1", "write 'd dh pN cards'"),
    ("d dh x1 AsKs", "write 'd dh pN cards'"),
    ("d dh p4 AsKs", r"action 4: there is no player p4 \(the file has 3 players\)"),
    ("x1 f", "the actor must be 'd' or 'pN'"),
    ("p0 f", r"there is no player p0 \(the file has 3 players\)"),
    ("p1", r"action 4 \('p1'\): the action is missing"),
    ("p1 f 2", "'f' takes no argument"),
    ("p1 cbr", "write 'pN cbr AMOUNT'"),
    ("p1 cbr 2 3", "write 'pN cbr AMOUNT'"),
    ("p1 cbr two", "action 4: 'two' is not an amount"),
    ("p1 cbr -2", "action 4: the amount must be positive, not -2"),
    ("p1 cbr inf", "the amount must be positive, not inf"),
    ("p1 sd As Ks", "write the cards without spaces"),
    ("p1 xx", r"unknown action 'xx' \(f, cc, cbr, pb, sd, sm\)"),
]


@pytest.mark.parametrize("action, message", ACTION_ERRORS)
def test_a_malformed_action_is_refused_naming_it(action, message):
    with pytest.raises(PHHFormatError, match=message):
        parse_setup(_action(action))


def test_actions_parse_into_their_verbs_and_a_comment_alone_is_skipped():
    setup = parse_setup(_with(NT, actions=["d dh p1 AsKs  # Alice", "# a comment", "d db AhKhQh", "p1 cbr 6.5",
                                           "p2 sd", "p3 sm -", "p1 sm As??", "# cardroom: p2 protected all-in"]))
    got = [(a.number, a.actor, a.verb, a.amount, a.cards, a.dash, [s.card for s in a.slots]) for a in setup.actions]
    assert [(n, actor, verb) for n, actor, verb, *_ in got] == [
        (1, 0, "dh"), (3, None, "db"), (4, 0, "cbr"), (5, 1, "sd"), (6, 2, "sm"), (7, 0, "sm"), (8, 1, "protect")]
    assert repr(got[0][6]) == "[As, Ks]" and len(got[1][6]) == 3
    assert str(got[2][3]) == "6.5" and got[3][4] == [] and got[4][5] and repr(got[5][4]) == "[As, None]"


# ---------------------------------------------------------------------------- the holdings pre-pass
DRAW = {"variant": "F2L3D", "antes": [0, 0], "blinds_or_straddles": [1, 2], "small_bet": 2, "big_bet": 4,
        "starting_stacks": [100, 100]}
DEALT = ["d dh p1 2s3s4s5s7h", "d dh p2 ??????????", "d db AhKh"]


def _resolved(*actions: str):
    setup = parse_setup({**DRAW, "actions": DEALT + list(actions)})
    resolve_cards(setup)
    return setup.actions


@pytest.mark.parametrize("actions, message", [
    (["d dh p1 Ah"], r"action 4 \('d dh p1 Ah'\): duplicate card Ah \(already dealt at action 3\)"),
    (["p1 sd 9c"], r"action 4 \('p1 sd 9c'\): p1 discards 9c, which is not in their hand"),
    (["p1 sd ????????????"], "p1 discards an unknown card, which is not in their hand"),
    (["p1 sd 2s2s"], "p1 discards 2s, which is not in their hand"),
    (["p1 sd 2s", "d dh p1 9c", "p1 sd 2s"], "action 6 .*p1 discards 2s"),
    (["p2 sm 2c3c4c5c7c8c"], r"action 4 .*: p2 shows 6 cards but holds 5"),
    (["p2 sm 2c2c"], "the same card is shown twice"),
    (["p1 sm 2s9c"], "p1 shows 9c, which is not in their hand"),
    (["p2 sm Ah"], r"duplicate card Ah \(already dealt at action 3\)"),
])
def test_a_card_the_file_cannot_have_dealt_or_held_is_refused_naming_the_action(actions, message):
    with pytest.raises(PHHRuleError, match=message):
        _resolved(*actions)


def test_discards_are_tied_to_held_cards_and_a_showdown_reveals_unknown_ones():
    draw = ("p1 sd 7h2s", "p2 sd ????", "d dh p1 8c9c", "d dh p2 ????", "p1 f", "d dh p2 7h")
    a = _resolved(*draw, "p2 sm 2c3c4c5c8h")   # 7h may be dealt again: p1 discarded it
    assert [repr(s.card) for s in a[3].chosen] == ["7h", "2s"] and [s.card for s in a[4].chosen] == [None, None]
    assert repr(a[-1].reveals) == "[2c, 3c, 4c, 5c, 8h]"
    assert repr(_resolved(*draw, "p2 sm 7h2s3c4c5c")[-1].reveals) == "[2s, 3c, 4c, 5c]"   # 7h is held
    with pytest.raises(PHHRuleError, match=r"action 10 .*: p2 shows 8c, which is not in their hand"):
        _resolved(*draw, "p2 sm 2c3c4c5c6c8c")   # five ?? and 7h held: a sixth unknown card
