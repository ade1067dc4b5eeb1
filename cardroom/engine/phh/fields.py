"""PHH field values both directions share: variant codes, amounts (currency units in the file, the
engine's integer cents), and the prefix of the card room's own `_cardroom_...` fields."""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from cardroom.engine.betting import FIXED, NO, POT, SPREAD, Structure
from cardroom.engine.phh.errors import PHHFormatError, UnsupportedPHH
from cardroom.engine.variants import VARIANTS, Variant

STRUCTURE_LETTERS = {FIXED: "F", SPREAD: "S", POT: "P", NO: "N"}
STRUCTURE_NAMES = {FIXED: "Fixed-Limit", SPREAD: "Spread-Limit", POT: "Pot-Limit", NO: "No-Limit"}
# The variant codes the PHH standard defines (phh-std required.rst, as pokerkit 0.7.7 reads them).
# Our other games keep the same pattern (structure letter + game) as the standard asks of a new code.
STANDARD_CODES = frozenset({"FT", "NT", "NS", "PO", "FO/8", "F7S", "F7S/8", "FR", "N2L1D", "F2L3D", "FB"})
# ISO 4217's code for "no currency": the room's play chips.
NO_CURRENCY = "XXX"
_LETTER_STRUCTURES = {v: k for k, v in STRUCTURE_LETTERS.items()}
_BY_BASE = {v.phh_base: v for v in VARIANTS.values()}
PREFIX = "_cardroom_"


# ---------------------------------------------------------------------------- variant codes
def variant_code(variant: Variant, structure: Structure) -> str:
    """FT, NT, PO, FO/8, F7S, FR, N2L1D, F2L3D ... (structure letter + the game's PHH code)."""
    return STRUCTURE_LETTERS[structure.kind] + variant.phh_base


def game_name(variant: Variant, structure: Structure) -> str:
    """'No-Limit Texas Hold'em': the game in words, for readers that do not know a code."""
    return f"{STRUCTURE_NAMES[structure.kind]} {variant.name}"


def parse_variant_code(code: str) -> tuple[Variant, str]:
    """'NT' -> (Texas Hold'em, 'no'); UnsupportedPHH for codes this room does not deal."""
    if not isinstance(code, str) or len(code) < 2:
        raise PHHFormatError(f"variant must be a code like 'NT' or 'F2L3D', not {code!r}")
    kind = _LETTER_STRUCTURES.get(code[0])
    variant = _BY_BASE.get(code[1:])
    if kind is None or variant is None:
        raise UnsupportedPHH(f"unknown or unsupported variant {code!r} (supported: F, S, P or N + one of "
                             f"{', '.join(_BY_BASE)}; e.g. NT, FO/8, F2L3D)")
    return variant, kind


# ---------------------------------------------------------------------------- amounts
def to_units(cents: int, cpu: int) -> int | float:
    if cents % cpu == 0:
        return cents // cpu
    return float(Decimal(cents) / Decimal(cpu))


def to_cents(value: Any, cpu: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise PHHFormatError(f"{what} must be a number, not {value!r}")
    if isinstance(value, float) and not math.isfinite(value):
        raise UnsupportedPHH(f"{what} is {value}: unknown or infinite amounts cannot be replayed")
    exact = Decimal(value) if isinstance(value, int) else Decimal(repr(value))
    cents = exact * cpu
    if cents != cents.to_integral_value():
        raise PHHFormatError(f"{what} = {value} is not a whole number of cents "
                             f"({cpu} cents to the unit)")
    return int(cents)
