"""Money is integer cents everywhere; this is the one place it becomes text, and the one place
text becomes money (config.toml, the admin console and the TUI's amount box all read it here)."""

from __future__ import annotations

import re

MAX_CENTS = 10**11      # $1,000,000,000: any amount above it is a typo

# Dollars as people write them: "12", "12.5", "12.50", "$12.50". Only ASCII digits (str.isdigit
# and int() take "２" and "٢" too), no sign, separator, exponent or space: whatever a person did
# not plainly mean is refused, not guessed at.
_DOLLARS = re.compile(r"\$?([0-9]+)(?:\.([0-9]{1,2}))?", re.ASCII)
_SHOWN = 20             # characters of a refused text quoted back (not a pasted page)


class BadMoney(ValueError):
    """Text that is not plainly an amount of dollars."""


def format_cents(cents: int, *, currency: str = "$", thousands: bool = True, always_cents: bool = False) -> str:
    """1250 -> "$12.50", 200 -> "$2", 120000 -> "$1,200", -325 -> "-$3.25"."""
    sign = "-" if cents < 0 else ""
    c = abs(int(cents))
    whole = f"{c // 100:,}" if thousands else str(c // 100)
    if c % 100 == 0 and not always_cents:
        return f"{sign}{currency}{whole}"
    return f"{sign}{currency}{whole}.{c % 100:02d}"


def parse_dollars(text: str) -> int:
    """Dollars written by a person -> cents: "12.50", "$12.50", "12.5", "12", "0.05", "007".

    Raises BadMoney for anything else, and for more than MAX_CENTS; a caller with a narrower range
    (the admin console's one adjustment, a bet's limits) checks it on the cents."""
    m = _DOLLARS.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise BadMoney(f"{_quoted(text)} is not an amount: write dollars with ASCII digits and at most "
                       "two decimals, like 12.50 or $12.50 (no signs, commas, underscores or spaces)")
    whole, frac = m.group(1).lstrip("0"), m.group(2) or ""
    if len(whole) > len(str(MAX_CENTS // 100)):    # before int(): a pasted page of digits is slow
        raise BadMoney(f"{_quoted(text)} is too large (at most {format_cents(MAX_CENTS)})")
    cents = int(whole or "0") * 100 + int(frac.ljust(2, "0"))
    if cents > MAX_CENTS:
        raise BadMoney(f"{_quoted(text)} is too large (at most {format_cents(MAX_CENTS)})")
    return cents


def _quoted(value: object) -> str:
    """`value` as Python writes it (controls and escapes shown escaped), cut to _SHOWN characters."""
    shown = value if isinstance(value, str) else str(value)
    return repr(shown if len(shown) <= _SHOWN else shown[:_SHOWN] + "...")
