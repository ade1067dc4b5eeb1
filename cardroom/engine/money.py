"""Money is integer cents everywhere; this is the one place it becomes text."""

from __future__ import annotations


def format_cents(cents: int, *, currency: str = "$", thousands: bool = True, always_cents: bool = False) -> str:
    """1250 -> "$12.50", 200 -> "$2", 120000 -> "$1,200", -325 -> "-$3.25"."""
    sign = "-" if cents < 0 else ""
    c = abs(int(cents))
    whole = f"{c // 100:,}" if thousands else str(c // 100)
    if c % 100 == 0 and not always_cents:
        return f"{sign}{currency}{whole}"
    return f"{sign}{currency}{whole}.{c % 100:02d}"
