"""Pure helpers shared by widgets: money, cards as Rich Text, parsing typed amounts.

Nothing here renders markup: every piece of text is a `rich.text.Text` built from plain strings.
"""

from __future__ import annotations

from rich.text import Text

from cardroom.engine.money import BadMoney, format_cents, parse_dollars
from cardroom.tui.options import UIOptions

RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "\u2663\u2666\u2665\u2660"   # clubs diamonds hearts spades (engine suit order)
SUIT_LETTERS = "cdhs"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")

# Two-colour deck: black clubs/spades, red diamonds/hearts. Caro's four-colour deck: green clubs,
# blue diamonds, red hearts, black spades. Cards are drawn on a light face so both read everywhere.
TWO_COLOUR = ("#000000", "#c00000", "#c00000", "#000000")
FOUR_COLOUR = ("#007a00", "#0040d0", "#c00000", "#000000")
FACE = "#f2f2f2"
BACK = "#2050a0"


def money(cents: int) -> str:
    """$12.50, $1,200, -$3.25 (integer cents in, text out)."""
    return format_cents(cents)


def chip_count(chips: int) -> str:
    """Tournament chips are not money: 1500 -> "1,500"."""
    return f"{chips:,}"


def amount_of(view):
    """How a table's amounts read: money at a cash table, chips at a tournament's (its view has
    a tournament line)."""
    return chip_count if getattr(view, "tournament", None) is not None else money


def parse_chips(text: str) -> int:
    """Whole chips typed by a person ("1500", "1,500") -> chips; BadAmount for anything else."""
    digits = text.replace(",", "")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 12:
        shown = text if len(text) <= 20 else text[:20] + "..."
        raise BadAmount(f"{shown!r} is not a number of chips: write whole chips, like 1500")
    return int(digits)


def money2(cents: int) -> str:
    """Always with cents, for amounts in an input box: 12.50."""
    return format_cents(cents, currency="", thousands=False, always_cents=True)


class BadAmount(ValueError):
    pass


def parse_amount(text: str) -> int:
    """What a person typed ("12", "12.5", "$12.50") -> cents, as everywhere (`parse_dollars`):
    whatever a person did not plainly mean (a sign, an underscore, an exponent, a non-ASCII digit,
    more than two decimals) is refused with a message that says what to type."""
    try:
        return parse_dollars(text)
    except BadMoney as e:
        raise BadAmount(str(e)) from None


def suit_char(suit: int, opts: UIOptions) -> str:
    return (SUIT_LETTERS if opts.suit_letters else SUIT_SYMBOLS)[suit]


def card_colour(suit: int, opts: UIOptions) -> str:
    return (FOUR_COLOUR if opts.four_colour else TWO_COLOUR)[suit]


def card_text(card, opts: UIOptions) -> Text:
    """One card as two cells: "A♠" (or "As"); None is a face-down card."""
    if card is None:
        return Text("##" if opts.ascii else "\u2592\u2592", style=f"{BACK} on {FACE}")
    return Text(RANKS[card.rank] + suit_char(card.suit, opts),
                style=f"bold {card_colour(card.suit, opts)} on {FACE}")


def cards_text(cards, opts: UIOptions, sep: str = " ") -> Text:
    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append_text(card_text(c, opts))
    return out


_STUD_STREETS = {"third", "fourth", "fifth", "sixth"}


def street_label(street: str, phase: str) -> str:
    """What a player calls this moment of the hand: "flop", "fifth street", "before the draw",
    "the draw", "after the second draw", "showdown" (the engine's street names are short keys:
    a draw street's betting round comes after its draw)."""
    if phase == "showdown":
        return "showdown"
    if street == "predraw":
        return "before the draw"
    if street.endswith("draw"):
        the = "the " + street
        return the if phase == "draw" else "after " + the
    if street in _STUD_STREETS:
        return street + " street"
    return street


def money_text(m) -> Text:
    t = Text()
    t.append("Balance   ", "bold")
    t.append(money(m.balance) + "\n")
    for table, chips in sorted(m.on_tables.items()):
        t.append("On table  ", "bold")
        t.append(f"{table}: {money(chips)}\n")     # table names are plain text
    t.append("Total     ", "bold")
    t.append(money(m.total))
    return t
