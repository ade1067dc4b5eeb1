"""Money typed as text is read one way (cardroom.engine.money.parse_dollars) by all three places
that take it: config.toml, the admin console and the TUI's amount box. Each keeps only its own
range (the admin console: more than $0, at most one adjustment)."""

from __future__ import annotations

import pytest

from cardroom.admin.commands import ADMIN_MAX_CENTS
from cardroom.admin.commands import BadAmount as AdminBadAmount
from cardroom.admin.commands import parse_amount as admin_amount
from cardroom.config import parse_money
from cardroom.engine.money import MAX_CENTS, BadMoney, parse_dollars
from cardroom.tui.render import BadAmount as TuiBadAmount
from cardroom.tui.render import parse_amount as tui_amount

# Every text the three entry points' own tests try, and more: (text, cents or None for refused).
TEXTS = [
    ("12", 1200), ("12.5", 1250), ("12.50", 1250), ("$12.50", 1250), ("$1", 100), ("0.05", 5),
    ("0.01", 1), ("007", 700), ("1000.00", 100_000), (str(ADMIN_MAX_CENTS // 100), ADMIN_MAX_CENTS),
    ("1_000", None), ("-5", None), ("+5", None), ("1e3", None), ("1e9", None), ("12.", None), (".5", None),
    ("12.505", None), ("0.001", None), ("1,000", None), ("2,50", None), (" 5", None), ("5 ", None),
    ("5\n", None), ("\t5", None), (" 0.25 ", None), ("$ 5", None), ("$$5", None), ("12.5$", None),
    ("$", None), ("", None), ("nan", None), ("NaN", None), ("inf", None), ("0x10", None), ("2..5", None),
    ("\uff11\uff12", None), ("\u0662", None), ("\u0661\u0662", None), ("\u0665.00", None), ("\u0968", None),
    ("2\u0665", None), ("5\u202e", None), ("9" * 40, None), ("9" * 5000, None),
]


def _outcome(parse, refused, text):
    try:
        return parse(text)
    except refused:
        return None


@pytest.mark.parametrize("text, cents", TEXTS)
def test_config_the_admin_console_and_the_tui_accept_and_refuse_the_same_texts(text, cents):
    assert _outcome(parse_dollars, BadMoney, text) == cents
    assert _outcome(parse_money, ValueError, text) == cents
    assert _outcome(admin_amount, AdminBadAmount, text) == cents
    assert _outcome(tui_amount, TuiBadAmount, text) == cents


@pytest.mark.parametrize("parse, refused", [(parse_money, ValueError), (admin_amount, AdminBadAmount),
                                            (tui_amount, TuiBadAmount)])
def test_each_place_quotes_back_a_refused_text_in_the_same_words(parse, refused):
    with pytest.raises(refused) as e:
        parse("1,000")
    assert str(e.value) == ("'1,000' is not an amount: write dollars with ASCII digits and at most two "
                            "decimals, like 12.50 or $12.50 (no signs, commas, underscores or spaces)")
    with pytest.raises(refused) as e:
        parse("9" * 5000)                   # a pasted page is not quoted back whole
    assert len(str(e.value)) < 100 and "too large" in str(e.value)


def test_only_the_range_differs_the_admin_console_moves_more_than_nothing_and_at_most_one_adjustment():
    assert parse_money("0") == tui_amount("0") == 0
    assert parse_money("1000000000") == tui_amount("$1000000000") == MAX_CENTS
    for text in ("0", "0.00", "$0", str(ADMIN_MAX_CENTS // 100 + 1)):
        with pytest.raises(AdminBadAmount) as e:
            admin_amount(text)
        assert "is not an amount" not in str(e.value)     # a range, not the syntax
    for text in ("1000000000.01", "10000000000"):
        for parse, refused in ((parse_money, ValueError), (admin_amount, AdminBadAmount),
                               (tui_amount, TuiBadAmount)):
            with pytest.raises(refused, match="too large"):
                parse(text)
