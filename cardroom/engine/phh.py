"""PHH (Poker Hand History, the uoftcprg/phh-std TOML format): export any hand, replay any file.

    text = export_hand(hand, table="Alpha", hand=42)   # PHH TOML of a finished or running hand
    hand = replay(text)                                # a Hand rebuilt and replayed by the engine
    replay_file("x.phh")                               # {"file", "finishing_stacks"} or {"file", "error"}

Conventions (see also the reference at the end of this docstring):

- Player order. PHH lists players clockwise from the first one dealt to: in button games p1 is the
  player left of the button (the small blind) and the last player has the button; heads-up p1 is
  the big blind and p2 the button, which posts the small blind (the spec's "forced bets are
  reversed heads-up": `blinds_or_straddles = [1, 2]` means p1 posts 2). In stud games p1 is the
  engine's first player (seat order, the first dealt). `seats` keeps our seat numbers.
- Amounts. A PHH amount is in currency units (dollars, or chips) and the engine's integer cents are
  amount x `_cardroom_cents_per_unit` (default 100). Export writes whole units as integers and other
  amounts as decimals (0.25); `export_hand(..., cents_per_unit=1)` writes integer cents instead (and
  says so in the file). On import every amount must be an exact whole number of cents after
  scaling: 0.255 dollars is rejected, never rounded.
- Variant codes: a structure letter (F fixed, S spread, P pot, N no limit) + the game's code:
  T, O, O/8, 7S, 7S/8, R, 5D, A5L1D, A5L3D, 2L1D, 2L3D. The standard's FT, NT, PO, FO/8, F7S, F7S/8,
  FR, N2L1D, F2L3D come out exactly; the rest (FA5L1D, FA5L3D, F2L1D, F5D, PT, NO, SO/8, ...) follow
  the same pattern. F/S use small_bet + big_bet (spread: the minimum and maximum bet), P/N min_bet
  (= the big blind); stud games add bring_in.
- Table rules that change the outcome travel in user-defined `_cardroom_...` fields (cap, rake,
  show_all, must_raise_to_enter, draw rules). A file without them is played with no rake, a cap of
  four bets and the house defaults otherwise.
- Actions: `d dh pN cards` (hole cards, also up cards and draw replacements), `d db cards`,
  `pN f`, `pN cc`, `pN cbr TO` (bet/raise/complete to a round total), `pN pb` (bring-in),
  `pN sd [discards]`, `pN sm [cards]` (no cards = muck). In a draw every player's `sd` is written
  first and then the replacement cards, as the spec's dealer does. A timed-out player's protected
  all-in has no PHH action; it is written as the standalone commentary
  `# cardroom: pN protected all-in`, which other readers take as a no-op.

Replay builds the hand with a deck that deals exactly the file's cards (unknown `??` cards and
burns get arbitrary unused cards) and applies every action through the engine, so a file that
breaks a rule raises `PHHRuleError` naming the action number and the rule.
"""

from __future__ import annotations

import copy
import datetime as _dt
import math
import re
import tomllib
from collections import deque
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from cardroom.engine import events as ev
from cardroom.engine.betting import FIXED, NO, POT, SPREAD, Rules, Structure, StructureError
from cardroom.engine.cards import CARDS, RANKS, SUITS, Card, Deck, random_source
from cardroom.engine.hand import (
    DRAW, SHOWDOWN, BadAmount, Hand, IllegalAction, NotYourTurn, Player, SetupError,
)
from cardroom.engine.variants import VARIANTS, Variant

__all__ = [
    "PHHError", "PHHFormatError", "PHHRuleError", "UnsupportedPHH",
    "export_hand", "import_hand", "player_order", "finishing_stacks", "replay", "replay_file", "variant_code", "parse_variant_code",
]

STRUCTURE_LETTERS = {FIXED: "F", SPREAD: "S", POT: "P", NO: "N"}
_LETTER_STRUCTURES = {v: k for k, v in STRUCTURE_LETTERS.items()}
_BY_BASE = {v.phh_base: v for v in VARIANTS.values()}
_PROTECT = re.compile(r"^#\s*cardroom:\s*p(\d+)\s+protected all-in\s*$")
PREFIX = "_cardroom_"


class PHHError(ValueError):
    """A PHH text that cannot be replayed; the message is one clear line."""


class PHHFormatError(PHHError):
    """Not TOML, not PHH, a field of the wrong type or value, an action that does not parse."""


class UnsupportedPHH(PHHError):
    """Valid PHH that this card room cannot play (badugi, short deck, non-uniform antes...)."""


class PHHRuleError(PHHError):
    """An action the rules do not allow at that point; names the action number and the rule."""


# ---------------------------------------------------------------------------- variant codes
def variant_code(variant: Variant, structure: Structure) -> str:
    """FT, NT, PO, FO/8, F7S, FR, N2L1D, F2L3D ... (structure letter + the game's PHH code)."""
    return STRUCTURE_LETTERS[structure.kind] + variant.phh_base


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
def _to_units(cents: int, cpu: int) -> int | float:
    if cents % cpu == 0:
        return cents // cpu
    return float(Decimal(cents) / Decimal(cpu))


def _to_cents(value: Any, cpu: int, what: str) -> int:
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


# ---------------------------------------------------------------------------- TOML writing
def _toml_str(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04X}")
        elif 0xD800 <= o <= 0xDFFF:
            out.append("\uFFFD")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _toml_str(v)
    if isinstance(v, _dt.datetime):
        return v.isoformat()
    if isinstance(v, (_dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} to PHH")


_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _comment(text: str) -> str:
    return "".join(ch for ch in text if ch.isprintable()).strip()


# ---------------------------------------------------------------------------- export
def _cards(cards) -> str:
    return "".join(repr(c) for c in cards)


def player_order(hand: Hand) -> list[int]:
    """The hand's player indices in PHH order: from the left of the button round to the button
    (stud: seat order). `player_order(hand)[i]` is the engine index of PHH player p(i+1)."""
    n = hand.n
    if hand.variant.bring_in:
        return list(range(n))
    return [(hand.button + 1 + i) % n for i in range(n)]


def export_hand(hand: Hand, /, *, viewer: int | None = None, cents_per_unit: int = 100,
                comments: bool = True, **meta: Any) -> str:
    """The hand (finished or still running) as PHH TOML text.

    viewer: None writes every card (the dealer's history); a player index writes what that player
    saw (other players' down cards as ??, except those shown). cents_per_unit: 100 writes dollars,
    1 integer cents. meta: optional PHH fields (table, hand, time, event, currency, seat_count, ...)
    or user fields (names starting with '_'); `players` and `seats` default to the hand's own.
    """
    if not isinstance(cents_per_unit, int) or isinstance(cents_per_unit, bool) or cents_per_unit <= 0:
        raise ValueError("cents_per_unit must be a positive integer")
    v, s, r, n = hand.variant, hand.structure, hand.rules, hand.n
    order = player_order(hand)
    pos = {p: i for i, p in enumerate(order)}          # engine index -> PHH index (0-based)

    def amt(c: int) -> int | float:
        return _to_units(c, cents_per_unit)

    def who(p: int) -> str:
        return f"p{pos[p] + 1}"

    fields: list[tuple[str, Any]] = [("variant", variant_code(v, s)),
                                     ("antes", [amt(s.ante)] * n)]
    if v.bring_in:
        fields.append(("bring_in", amt(s.bring_in)))
    else:
        blinds = list(s.blinds[:2] if n == 2 else s.blinds)
        fields.append(("blinds_or_straddles", [amt(b) for b in blinds] + [0] * (n - len(blinds))))
    if s.kind in (FIXED, SPREAD):
        fields += [("small_bet", amt(s.small_bet)), ("big_bet", amt(s.big_bet))]
    else:
        fields.append(("min_bet", amt(s.big_blind)))
    fields.append(("starting_stacks", [amt(hand.start_stacks[p]) for p in order]))

    lines = _export_actions(hand, order, who, amt, viewer, comments)

    fields.append(("players", [hand.players[p].name for p in order]))
    fields.append(("seats", [hand.players[p].seat for p in order]))
    fields.append(("finishing_stacks", [amt(hand.stacks[p]) for p in order]))
    if hand.over:
        won = [0] * n
        for e in hand.events:
            if isinstance(e, ev.Awarded):
                won[e.player] += e.amount
        fields.append(("winnings", [amt(won[p]) for p in order]))
    live = [hand.players[p].live_post for p in order]
    dead = [hand.players[p].dead_post for p in order]
    user: list[tuple[str, Any]] = []
    if cents_per_unit != 100:
        user.append(("cents_per_unit", cents_per_unit))
    if any(live):
        user.append(("live_posts", [amt(x) for x in live]))
    if any(dead):
        user.append(("dead_posts", [amt(x) for x in dead]))
    if s.kind in (POT, NO):
        user.append(("stakes", [amt(s.small_bet), amt(s.big_bet)]))
    user += [
        ("cap", s.cap if s.cap is not None else 0),
        ("uncapped_heads_up", s.uncapped_heads_up),
        ("rake_percent", r.rake_percent), ("rake_cap", amt(r.rake_cap)),
        ("no_flop_no_drop", r.no_flop_no_drop), ("show_all", r.show_all),
        ("must_raise_to_enter", r.must_raise_to_enter), ("draw_cap_four", r.draw_cap_four),
        ("burn_before_draw", r.burn_before_draw), ("defer_fifth_card", r.defer_fifth_card),
        ("reburn_on_reshuffle", r.reburn_on_reshuffle),
        ("rake", amt(hand.rake)),
    ]
    cut = [k for k, _ in fields].index("starting_stacks") + 1
    required, optional = fields[:cut], fields[cut:]
    optional_keys = {k for k, _ in optional}
    for key, value in meta.items():
        if not _KEY.match(key) or key in {k for k, _ in required} or key == "actions":
            raise ValueError(f"{key!r} cannot be given as an extra PHH field")
        if key in optional_keys:
            optional = [(k, value if k == key else val) for k, val in optional]
        else:
            optional.append((key, value))

    title = meta.get("table")
    out = [f"# cardroom hand history{(' - ' + _comment(str(title))) if title is not None else ''}"]
    out += [f"{key} = {_toml_value(value)}" for key, value in required]
    out.append("actions = [")
    out.extend(lines)
    out.append("]")
    out += [f"{key} = {_toml_value(value)}" for key, value in optional]
    out += [f"{PREFIX}{key} = {_toml_value(value)}" for key, value in user]
    return "\n".join(out) + "\n"


def _export_actions(hand: Hand, order, who, amt, viewer, comments: bool) -> list[str]:
    lines: list[str] = []
    names = [hand.players[p].name for p in range(hand.n)]
    shown = {e.player for e in hand.events if isinstance(e, ev.Shown)}

    def add(action: str, note: str = "") -> None:
        note = _comment(note) if comments else ""
        lines.append(f"  {_toml_str(action)},{('  # ' + note) if note else ''}")

    def note_line(text: str) -> None:
        if comments:
            lines.append(f"  # {_comment(text)}")

    def hidden(p: int) -> bool:
        return viewer is not None and p != viewer and p not in shown

    draw_dealt: dict[int, list] = {}
    draw_order: list[int] = []

    def flush_draw() -> None:
        for p in draw_order:
            cards = draw_dealt[p]
            if cards:
                text = "??" * len(cards) if hidden(p) else _cards(cards)
                add(f"d dh {who(p)} {text}", names[p])
        draw_dealt.clear()
        draw_order.clear()

    for e in hand.events:
        t = type(e)
        if t is not ev.Drew and draw_order and t not in (ev.Burned, ev.Reshuffled):
            flush_draw()
        if t is ev.DealtHole:
            if hidden(e.player):
                text = "".join(repr(c) if up else "??" for c, up in zip(e.cards, e.up))
            else:
                text = _cards(e.cards)
            add(f"d dh {who(e.player)} {text}", names[e.player])
        elif t is ev.DealtBoard:
            add(f"d db {_cards(e.cards)}", e.street)
        elif t is ev.RoundStarted:
            note_line(e.street.capitalize())
        elif t is ev.DrawStarted:
            note_line(("First", "Second", "Third", "Fourth")[min(e.index, 3)] + " draw"
                      if hand.variant.draws > 1 else "Draw")
        elif t is ev.Folded:
            add(f"{who(e.player)} f", names[e.player])
        elif t in (ev.Checked, ev.Called):
            add(f"{who(e.player)} cc", names[e.player])
        elif t is ev.BetTo:
            if e.kind == "bring-in":
                add(f"{who(e.player)} pb", names[e.player])
            else:
                add(f"{who(e.player)} cbr {_toml_value(amt(e.to))}", names[e.player])
        elif t is ev.Drew:
            if e.player not in draw_dealt:
                draw_dealt[e.player] = []
                draw_order.append(e.player)
            if e.discards or not e.cards:
                text = ("??" * len(e.discards) if hidden(e.player) else _cards(e.discards))
                add(f"{who(e.player)} sd{(' ' + text) if text else ''}", names[e.player])
            draw_dealt[e.player].extend(e.cards)
        elif t is ev.Reshuffled:
            note_line("the discards are reshuffled")
        elif t is ev.Shown:
            add(f"{who(e.player)} sm {_cards(e.cards)}", names[e.player])
        elif t is ev.Mucked:
            add(f"{who(e.player)} sm", names[e.player])
        elif t is ev.ProtectedAllIn:
            add(f"# cardroom: {who(e.player)} protected all-in", names[e.player])
    flush_draw()
    return lines


# ---------------------------------------------------------------------------- parsing
@dataclass(eq=False)
class _Slot:
    """One card the file deals: known or unknown (??); `served` is the card the deck gave."""
    card: Card | None
    action: int
    served: Card | None = None
    rank: float = 0.0          # when the deck deals it (for choosing fillers)


@dataclass
class _Action:
    number: int                    # 1-based position in the actions array
    text: str
    actor: int | None              # None = dealer; else 0-based PHH player index
    verb: str
    amount: Any = None
    slots: list[_Slot] = field(default_factory=list)   # dh/db: the cards dealt
    cards: list[Card | None] | None = None             # sd/sm: as written (None = ??)
    dash: bool = False             # sm -
    chosen: list[_Slot] = field(default_factory=list)  # sd: the held slots discarded


def _parse_card_text(text: str, number: int, allow_unknown: bool = True) -> list[Card | None]:
    if len(text) % 2:
        raise PHHFormatError(f"action {number}: {text!r} is not a list of two-character cards")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i:i + 2]
        if chunk == "??" and allow_unknown:
            out.append(None)
            continue
        if chunk[0] not in RANKS or chunk[1] not in SUITS:
            raise PHHFormatError(f"action {number}: {chunk!r} is not a card (rank {RANKS} + suit {SUITS}"
                                 f"{', or ??' if allow_unknown else ''})")
        out.append(Card.parse(chunk))
    return out


def _parse_action(raw: Any, number: int, n: int) -> _Action | None:
    if not isinstance(raw, str):
        raise PHHFormatError(f"action {number} must be a string, not {raw!r}")
    text = raw.strip()
    m = _PROTECT.match(text)
    if m:
        p = int(m.group(1))
        if not 1 <= p <= n:
            raise PHHFormatError(f"action {number}: there is no player p{p}")
        return _Action(number, text, p - 1, "protect")
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    words = body.split()
    actor = words[0]
    if actor == "d":
        if len(words) < 2 or words[1] not in ("dh", "db"):
            raise PHHFormatError(f"action {number} ({body!r}): the dealer's actions are 'd dh pN cards' "
                                 "and 'd db cards'")
        if words[1] == "db":
            if len(words) != 3:
                raise PHHFormatError(f"action {number} ({body!r}): write 'd db cards'")
            cards = _parse_card_text(words[2], number)
            if not cards:
                raise PHHFormatError(f"action {number}: no cards dealt")
            return _Action(number, body, None, "db", slots=[_Slot(c, number) for c in cards])
        if len(words) != 4 or not re.fullmatch(r"p\d+", words[2]):
            raise PHHFormatError(f"action {number} ({body!r}): write 'd dh pN cards'")
        p = int(words[2][1:])
        if not 1 <= p <= n:
            raise PHHFormatError(f"action {number}: there is no player p{p} (the file has {n} players)")
        cards = _parse_card_text(words[3], number)
        a = _Action(number, body, p - 1, "dh", slots=[_Slot(c, number) for c in cards])
        return a
    if not re.fullmatch(r"p\d+", actor):
        raise PHHFormatError(f"action {number} ({body!r}): the actor must be 'd' or 'pN'")
    p = int(actor[1:])
    if not 1 <= p <= n:
        raise PHHFormatError(f"action {number}: there is no player p{p} (the file has {n} players)")
    if len(words) < 2:
        raise PHHFormatError(f"action {number} ({body!r}): the action is missing")
    verb, args = words[1], words[2:]
    if verb in ("f", "cc", "pb"):
        if args:
            raise PHHFormatError(f"action {number} ({body!r}): '{verb}' takes no argument")
        return _Action(number, body, p - 1, verb)
    if verb == "cbr":
        if len(args) != 1:
            raise PHHFormatError(f"action {number} ({body!r}): write 'pN cbr AMOUNT'")
        try:
            amount: Any = Decimal(args[0])
        except InvalidOperation:
            raise PHHFormatError(f"action {number}: {args[0]!r} is not an amount") from None
        if not amount.is_finite() or amount <= 0:
            raise PHHFormatError(f"action {number}: the amount must be positive, not {args[0]}")
        return _Action(number, body, p - 1, verb, amount=amount)
    if verb in ("sd", "sm"):
        if len(args) > 1:
            raise PHHFormatError(f"action {number} ({body!r}): write the cards without spaces")
        if verb == "sm" and args == ["-"]:
            return _Action(number, body, p - 1, verb, cards=[], dash=True)
        cards = _parse_card_text(args[0], number) if args else []
        return _Action(number, body, p - 1, verb, cards=cards)
    raise PHHFormatError(f"action {number} ({body!r}): unknown action {verb!r} "
                         "(f, cc, cbr, pb, sd, sm)")


# ---------------------------------------------------------------------------- the game set-up
@dataclass
class _Setup:
    variant: Variant
    structure: Structure
    rules: Rules
    players: list[Player]
    button: int
    cpu: int
    actions: list[_Action]
    data: dict


def _need(data: dict, key: str) -> Any:
    if key not in data:
        raise PHHFormatError(f"required field {key!r} is missing")
    return data[key]


def _number_list(data: dict, key: str, n: int | None) -> list:
    value = _need(data, key)
    if not isinstance(value, list) or any(isinstance(x, bool) or not isinstance(x, (int, float))
                                          for x in value):
        raise PHHFormatError(f"{key} must be an array of numbers")
    if n is not None and len(value) != n:
        raise PHHFormatError(f"{key} has {len(value)} entries for {n} players")
    return value


def _user(data: dict, key: str, kind, default):
    value = data.get(PREFIX + key, default)
    if kind is bool and not isinstance(value, bool):
        raise PHHFormatError(f"{PREFIX}{key} must be true or false")
    if kind is int and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
        raise PHHFormatError(f"{PREFIX}{key} must be a non-negative integer")
    return value


def _setup(data: dict) -> _Setup:
    variant, kind = parse_variant_code(_need(data, "variant"))
    stacks_raw = _need(data, "starting_stacks")
    if not isinstance(stacks_raw, list) or not stacks_raw:
        raise PHHFormatError("starting_stacks must be a non-empty array of numbers")
    n = len(stacks_raw)
    if n < 2:
        raise PHHFormatError("a hand needs at least two players")
    if n > variant.max_seats:
        raise UnsupportedPHH(f"{n} players: {variant.name} is dealt to at most {variant.max_seats}")
    if any(x is None for x in stacks_raw):
        raise UnsupportedPHH("unknown starting stacks cannot be replayed")
    cpu = _user(data, "cents_per_unit", int, 100)
    if cpu <= 0:
        raise PHHFormatError(f"{PREFIX}cents_per_unit must be positive")
    stacks = [_to_cents(x, cpu, f"starting_stacks[{i}]") for i, x in enumerate(stacks_raw)]
    for i, s in enumerate(stacks):
        if s <= 0:
            raise PHHFormatError(f"starting_stacks[{i}] = {stacks_raw[i]}: every stack must be positive")
    antes = [_to_cents(x, cpu, f"antes[{i}]") for i, x in enumerate(_number_list(data, "antes", n))]
    if any(a < 0 for a in antes):
        raise PHHFormatError("antes must not be negative")
    if len(set(antes)) != 1:
        raise UnsupportedPHH("non-uniform antes (big blind or button antes) are not supported")
    ante = antes[0]

    def money(key: str) -> int:
        c = _to_cents(_need(data, key), cpu, key)
        if c <= 0:
            raise PHHFormatError(f"{key} must be positive")
        return c

    bring_in = 0
    blinds: tuple[int, ...] = ()
    if variant.bring_in:
        bring_in = money("bring_in")
        if "blinds_or_straddles" in data:
            b = _number_list(data, "blinds_or_straddles", n)
            if any(b):
                raise UnsupportedPHH("blinds in a stud game: stud uses a bring-in")
    else:
        raw = [_to_cents(x, cpu, f"blinds_or_straddles[{i}]")
               for i, x in enumerate(_number_list(data, "blinds_or_straddles", n))]
        if any(b < 0 for b in raw):
            raise PHHFormatError("blinds_or_straddles must not be negative")
        k = 0
        while k < n and raw[k] > 0:
            k += 1
        if any(raw[k:]):
            raise UnsupportedPHH("only blinds posted by the first players (small blind, big blind, "
                                 "one straddle) are supported")
        if k > 3 or (n == 2 and k > 2):
            raise UnsupportedPHH("at most three blinds (two heads-up) are supported")
        blinds = tuple(raw[:k])
    cap = _user(data, "cap", int, 4)
    if kind in (FIXED, SPREAD):
        small, big = money("small_bet"), money("big_bet")
    else:
        small = money("min_bet")
        if blinds and max(blinds) != small:
            raise UnsupportedPHH(f"min_bet {data['min_bet']} differs from the big blind: the engine's "
                                 "minimum bet is the largest blind")
        big = small * 2
        stakes = data.get(PREFIX + "stakes")
        if stakes is not None:
            if not isinstance(stakes, list) or len(stakes) != 2:
                raise PHHFormatError(f"{PREFIX}stakes must be [small_bet, big_bet]")
            small, big = (_to_cents(x, cpu, f"{PREFIX}stakes") for x in stakes)
    try:
        structure = Structure(kind, small, big, blinds, ante, bring_in, cap or None,
                              _user(data, "uncapped_heads_up", bool, False))
    except StructureError as e:
        raise PHHFormatError(f"betting structure: {e}") from None
    rules = Rules(
        rake_percent=_user(data, "rake_percent", int, 0),
        rake_cap=_to_cents(data.get(PREFIX + "rake_cap", 0), cpu, PREFIX + "rake_cap"),
        no_flop_no_drop=_user(data, "no_flop_no_drop", bool, False),
        show_all=_user(data, "show_all", bool, False),
        must_raise_to_enter=_user(data, "must_raise_to_enter", bool, False),
        draw_cap_four=_user(data, "draw_cap_four", bool, False),
        burn_before_draw=_user(data, "burn_before_draw", bool, True),
        defer_fifth_card=_user(data, "defer_fifth_card", bool, True),
        reburn_on_reshuffle=_user(data, "reburn_on_reshuffle", bool, True),
    )
    names = data.get("players")
    if names is None:
        names = [f"p{i + 1}" for i in range(n)]
    if not isinstance(names, list) or len(names) != n or not all(isinstance(x, str) for x in names):
        raise PHHFormatError(f"players must be an array of {n} strings")
    seats = data.get("seats")
    if seats is None:
        seats = list(range(1, n + 1))
    if not isinstance(seats, list) or len(seats) != n or any(
            isinstance(x, bool) or not isinstance(x, int) for x in seats):
        raise PHHFormatError(f"seats must be an array of {n} integers")
    posts = {}
    for key in ("live_posts", "dead_posts"):
        raw = data.get(PREFIX + key)
        if raw is None:
            posts[key] = [0] * n
            continue
        if not isinstance(raw, list) or len(raw) != n:
            raise PHHFormatError(f"{PREFIX}{key} must be an array of {n} numbers")
        posts[key] = [_to_cents(x, cpu, PREFIX + key) for x in raw]
        if any(x < 0 for x in posts[key]):
            raise PHHFormatError(f"{PREFIX}{key} must not be negative")
    players = [Player(names[i], stacks[i], seat=seats[i], live_post=posts["live_posts"][i],
                      dead_post=posts["dead_posts"][i]) for i in range(n)]
    raw_actions = _need(data, "actions")
    if not isinstance(raw_actions, list):
        raise PHHFormatError("actions must be an array of strings")
    actions = [a for a in (_parse_action(x, i + 1, n) for i, x in enumerate(raw_actions)) if a]
    button = 0 if variant.bring_in else n - 1
    return _Setup(variant, structure, rules, players, button, cpu, actions, data)


# ---------------------------------------------------------------------------- holdings pre-pass
def _resolve_cards(setup: _Setup) -> None:
    """Follow who holds which dealt card through the file: tie each discard to a held card, and let
    a showdown reveal cards that were dealt as ?? (so the replay deals the right ones)."""
    n = len(setup.players)
    held: list[list[_Slot]] = [[] for _ in range(n)]
    live: dict[Card, int] = {}     # card -> action that put it in play (held or on the board)
    folded = [False] * n
    for a in setup.actions:
        if a.verb in ("dh", "db"):
            for s in a.slots:
                if s.card is not None:
                    if s.card in live:
                        raise PHHRuleError(f"action {a.number} ({a.text!r}): duplicate card {s.card!r} "
                                           f"(already dealt at action {live[s.card]})")
                    live[s.card] = a.number
            if a.verb == "dh":
                held[a.actor].extend(a.slots)
        elif a.verb == "f":
            folded[a.actor] = True
            for s in held[a.actor]:
                if s.card is not None:
                    live.pop(s.card, None)
        elif a.verb == "sd":
            hand = held[a.actor]
            chosen: list[_Slot] = []
            for c in a.cards:
                pick = next((s for s in hand if s not in chosen and
                             (s.card == c if c is not None else s.card is None)), None)
                if pick is None and c is None:
                    pick = next((s for s in hand if s not in chosen), None)
                if pick is None:
                    what = repr(c) if c is not None else "an unknown card"
                    raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.actor + 1} discards {what}, "
                                       "which is not in their hand")
                chosen.append(pick)
            for s in chosen:
                hand.remove(s)
                if s.card is not None:
                    live.pop(s.card, None)
            a.chosen = chosen
        elif a.verb == "sm" and a.cards:
            hand = held[a.actor]
            if len(a.cards) > len(hand):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.actor + 1} shows {len(a.cards)} "
                                   f"cards but holds {len(hand)}")
            known = [c for c in a.cards if c is not None]
            if len(set(known)) != len(known):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the same card is shown twice")
            held_known = {s.card for s in hand if s.card is not None}
            for c in known:
                if c in held_known:
                    continue
                slot = next((s for s in hand if s.card is None), None)
                if slot is None:
                    raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.actor + 1} shows {c!r}, "
                                       "which is not in their hand")
                if c in live:
                    raise PHHRuleError(f"action {a.number} ({a.text!r}): duplicate card {c!r} "
                                       f"(already dealt at action {live[c]})")
                slot.card = c
                live[c] = a.number


# ---------------------------------------------------------------------------- the scripted deck
class _ScriptedDeck(Deck):
    """Deals what the replay tells it: `plan` holds, per deal, a file slot (its card, or ?? =
    any unused card) or None for a burn. Cards the file still needs are never used as fillers.

    In recording mode (the dry run of one step) it deals unreserved cards and logs them."""

    def __init__(self, reserved: dict, recording: bool = False) -> None:
        self.rng = random_source(None)
        self.stub: list[Card] = list(CARDS)
        self.dealt: list[Card] = []
        self.plan: deque = deque()
        self.reserved = reserved
        self.recording = recording
        self.log: list[Card] = []
        self.fillers: set[Card] = set()
        self.error: PHHError | None = None
        self.hand: Hand | None = None      # set once the hand is dealt (for _swap_in)
        self.unknowns = False              # the file has ?? cards
        self.served_by: dict[Card, _Slot] = {}

    # the Deck interface the engine uses
    @property
    def remaining(self) -> int:   # type: ignore[override]
        return len(self.stub)

    def order(self) -> list[Card]:
        return self.dealt + self.stub

    def replace_stub(self, cards) -> None:
        self.stub = list(cards)

    def deal(self, n: int = 1) -> list[Card]:
        if n > len(self.stub):
            raise IndexError(f"cannot deal {n} cards: {len(self.stub)} left in the stub")
        return [self._one() for _ in range(n)]

    def _filler(self) -> Card:
        """An unused card no later deal in the file needs; failing that (a reshuffle is coming),
        the one needed last: it comes back with the burns and the muck."""
        best, best_next = None, -1
        for c in self.stub:
            uses = self.reserved.get(c)
            if not uses:
                return c
            if uses[0] > best_next:
                best, best_next = c, uses[0]
        return best

    def _one(self) -> Card:
        if self.recording:
            card = self._filler()
            self.log.append(card)
        else:
            slot = self.plan.popleft() if self.plan else None
            if slot is not None and slot.card is not None:
                card = slot.card
                if card not in self.stub and not self._swap_in(card):
                    err = PHHRuleError(f"action {slot.action}: card {card!r} cannot be dealt: it is not in "
                                       "the deck (dealt before)")
                    self.error = err
                    raise err
                self.fillers.discard(card)
                uses = self.reserved[card]
                if slot.rank in uses:
                    uses.remove(slot.rank)
            else:
                card = self._filler()
                self.fillers.add(card)
            if slot is not None:
                slot.served = card
                self.served_by[card] = slot
        self.stub.remove(card)
        self.dealt.append(card)
        return card

    def _swap_in(self, card: Card) -> bool:
        """A file with unknown cards cannot say which cards were burned or mucked, so a known card
        that the reshuffled stub lacks may be taken from the muck or the burns (a stub card takes
        its place there) as long as nobody holds it and it is not on the board."""
        hand = self.hand
        if hand is None or not self.unknowns or not self.stub:
            return False
        if card in hand.board:
            return False
        piles = [hand.muck_pile, hand.burns]
        if card in self.fillers:
            piles += hand.hole      # an unknown (??) card someone holds: give them another unknown
        elif any(card in h for h in hand.hole):
            return False
        for pile in piles:
            if card in pile:
                sub = self._filler()
                self.stub.remove(sub)
                pile[pile.index(card)] = sub
                if card in self.fillers:
                    self.fillers.discard(card)
                    self.fillers.add(sub)
                    slot = self.served_by.pop(card, None)
                    if slot is not None:
                        slot.served = sub
                        self.served_by[sub] = slot
                self.stub.append(card)
                return True
        return False

    def recorder(self) -> _ScriptedDeck:
        d = _ScriptedDeck(self.reserved, recording=True)
        d.stub = list(self.stub)
        d.dealt = list(self.dealt)
        return d


# ---------------------------------------------------------------------------- replay
_SHARE = {id(c): c for c in CARDS}


class _Replayer:
    def __init__(self, setup: _Setup) -> None:
        self.s = setup
        n = len(setup.players)
        self.n = n
        # engine index == PHH index: players are built in PHH order (button last).
        self.hole_q: list[deque[_Slot]] = [deque() for _ in range(n)]
        self.board_q: deque[_Slot] = deque()
        reserved: dict[Card, list[float]] = {}   # card -> when the file deals it, in dealing order
        ranks = self._deal_ranks(setup)
        for a in setup.actions:
            if a.verb == "dh":
                self.hole_q[a.actor].extend(a.slots)
            elif a.verb == "db":
                self.board_q.extend(a.slots)
            for sl in a.slots:
                if sl.card is not None:
                    sl.rank = ranks[id(sl)]
                    reserved.setdefault(sl.card, []).append(sl.rank)
        for uses in reserved.values():
            uses.sort()
        self.deck = _ScriptedDeck(reserved)
        self.deck.unknowns = any(sl.card is None for a in setup.actions for sl in a.slots)
        self.eng_hole: list[list[Card]] = [[] for _ in range(n)]
        self.eng_board: list[Card] = []
        self.file_hole = [0] * n
        self.file_board = 0
        self.seen = 0
        self.shows: dict[int, _Action] = {}
        self.claims: dict[int, _Action] = {}
        self.hand: Hand | None = None

    @staticmethod
    def _deal_ranks(setup: _Setup) -> dict[int, float]:
        """When each dealt card leaves the deck, as a sortable number: the file's order, except that
        a fifth replacement card comes after every other player's draw (seed 002 dealing)."""
        ranks: dict[int, float] = {}
        segment: list[_Action] = []

        def close() -> None:
            if not segment:
                return
            end = segment[-1].number
            deferred = [a.actor for a in segment if a.verb == "sd" and len(a.cards) == 5]
            if not setup.rules.defer_fifth_card:
                deferred = []
            got: dict[int, int] = {}
            for a in segment:
                for j, sl in enumerate(a.slots):
                    rank = a.number + j / 1000
                    if a.verb == "dh" and a.actor in deferred:
                        got[a.actor] = got.get(a.actor, 0) + 1
                        if got[a.actor] == 5:
                            rank = end + 0.5 + deferred.index(a.actor) / 1000
                    ranks[id(sl)] = rank
            segment.clear()

        for a in setup.actions:
            if a.verb in ("f", "cc", "cbr", "pb") or (
                    a.verb == "sd" and any(b.verb == "sd" and b.actor == a.actor for b in segment)):
                close()     # a betting action, or the next draw (all-in players draw on and on)
            segment.append(a)
        close()
        return ranks

    # -- one step: dry run on a copy to learn what each dealt card is for, then the real thing
    def _plan_from(self, deck: _ScriptedDeck, new_events) -> None:
        purpose: dict[Card, tuple[str, int]] = {}
        for e in new_events:
            if isinstance(e, (ev.DealtHole, ev.Drew)):
                for c in e.cards:
                    purpose[c] = ("p", e.player)
            elif isinstance(e, ev.DealtBoard):
                for c in e.cards:
                    purpose[c] = ("b", 0)
        plan = deque()
        for c in deck.log:
            kind, p = purpose.get(c, ("burn", 0))
            if kind == "p":
                plan.append(self.hole_q[p].popleft() if self.hole_q[p] else None)
            elif kind == "b":
                plan.append(self.board_q.popleft() if self.board_q else None)
            else:
                plan.append(None)
        self.deck.plan = plan

    def _step(self, fn) -> None:
        hand = self.hand
        rec = self.deck.recorder()
        memo = dict(_SHARE)
        for obj in (hand.variant, hand.structure, hand.rules, hand.players, hand._high, hand._low):
            memo[id(obj)] = obj
        memo[id(hand.deck)] = rec
        memo[id(hand.events)] = []
        trial = copy.deepcopy(hand, memo)
        try:
            fn(trial)
        except IllegalAction:
            pass                      # the real call below raises the same error
        self._plan_from(rec, trial.events)
        fn(hand)

    def _sync(self) -> None:
        for e in self.hand.events[self.seen:]:
            if isinstance(e, (ev.DealtHole, ev.Drew)):
                self.eng_hole[e.player].extend(e.cards)
            elif isinstance(e, ev.DealtBoard):
                self.eng_board.extend(e.cards)
        self.seen = len(self.hand.events)

    def run(self) -> Hand:
        s = self.s
        rec = self.deck.recorder()
        try:
            trial = Hand(s.variant, s.structure, s.players, button=s.button, deck=rec, rules=s.rules)
        except SetupError as e:
            raise PHHFormatError(f"cannot start the hand: {e}") from None
        self._plan_from(rec, trial.events)
        self.hand = Hand(s.variant, s.structure, s.players, button=s.button, deck=self.deck, rules=s.rules)
        self.deck.hand = self.hand
        self._sync()
        for a in s.actions:
            try:
                self._apply(a)
            except PHHError:
                raise
            except IllegalAction as e:
                raise PHHRuleError(self._explain(a, e)) from None
            if self.deck.error is not None:
                raise self.deck.error
            self._sync()
            self._showdown()
        self._finish()
        return self.hand

    # -- checks that the file's dealing matches the game's
    def _dealer(self, a: _Action) -> None:
        k = len(a.slots)
        if a.verb == "db":
            have = len(self.eng_board) - self.file_board
            if k > have:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the game deals "
                                   f"{have if have else 'no'} board card{'s' if have != 1 else ''} now, "
                                   f"not {k} (too many cards, or the betting round is not over)")
            got = self.eng_board[self.file_board:self.file_board + k]
            self.file_board += k
        else:
            p = a.actor
            have = len(self.eng_hole[p]) - self.file_hole[p]
            if k > have and self.hand.phase == DRAW and self.hand.actor is not None:
                # Replacement cards written right after a discard: a fifth card may still be owed.
                self.claims[p] = a
                got = self.eng_hole[p][self.file_hole[p]:]
                self.file_hole[p] += k
                for slot, card in zip(a.slots, got):
                    if slot.card is not None and slot.card != card:
                        raise PHHRuleError(f"action {a.number} ({a.text!r}): {slot.card!r} cannot be dealt "
                                           f"here (the deck gave {card!r})")
                return
            if k > have:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the game deals p{p + 1} "
                                   f"{have if have else 'no'} card{'s' if have != 1 else ''} now, not {k} "
                                   "(too many cards, or it is not time to deal)")
            got = self.eng_hole[p][self.file_hole[p]:self.file_hole[p] + k]
            self.file_hole[p] += k
        for slot, card in zip(a.slots, got):
            if slot.card is not None and slot.card != card:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): {slot.card!r} cannot be dealt here "
                                   f"(the deck gave {card!r}: the card is already in play)")

    def _check_dealt(self, a: _Action) -> None:
        if self.file_board < len(self.eng_board):
            raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.actor + 1} acts before the dealer "
                               "deals the board cards ('d db ...' is missing)")
        self._check_claims()
        for p in range(self.n):
            if self.file_hole[p] < len(self.eng_hole[p]):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.actor + 1} acts before the dealer "
                                   f"deals p{p + 1}'s cards ('d dh p{p + 1} ...' is missing)")

    def _check_claims(self) -> None:
        for p, a in list(self.claims.items()):
            if self.file_hole[p] > len(self.eng_hole[p]):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): too many cards: the game deals p{p + 1} "
                                   f"{len(self.eng_hole[p]) - (self.file_hole[p] - len(a.slots))} here, "
                                   f"not {len(a.slots)}")
            del self.claims[p]

    def _apply(self, a: _Action) -> None:
        hand = self.hand
        if a.verb in ("dh", "db"):
            self._dealer(a)
            return
        p = a.actor
        if a.verb == "sm":
            self.shows[p] = a
            self._showdown()
            return
        if a.verb == "protect":
            self._step(lambda h: h.protect_all_in(p))
            return
        if hand.actor is None:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): the hand is already over")
        if hand.actor != p:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): out of turn: it is p{hand.actor + 1}'s turn")
        if a.verb in ("f", "cc", "cbr", "pb"):
            if hand.phase == DRAW:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): p{p + 1} must stand pat or discard now")
            if hand.phase == SHOWDOWN:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the betting is over: it is the showdown")
            self._check_dealt(a)
        if a.verb == "f":
            self._step(lambda h: h.fold(p))
        elif a.verb == "cc":
            if hand.legal().check:
                self._step(lambda h: h.check(p))
            else:
                self._step(lambda h: h.call(p))
        elif a.verb == "pb":
            self._step(lambda h: h.bring_in(p))
        elif a.verb == "cbr":
            cents = a.amount * self.s.cpu
            if cents != cents.to_integral_value():
                raise PHHFormatError(f"action {a.number} ({a.text!r}): {a.amount} is not a whole number "
                                     "of cents")
            to = int(cents)
            self._step(lambda h: h.bet(to, p))
        elif a.verb == "sd":
            if hand.phase != DRAW:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): there is no draw now")
            discards = []
            for sl in a.chosen:
                if sl.served is None or sl.served not in hand.hole[p]:
                    raise PHHRuleError(f"action {a.number} ({a.text!r}): p{p + 1} discards a card "
                                       "they do not hold")
                discards.append(sl.served)
            self._step(lambda h: h.draw(discards, p))

    def _showdown(self) -> None:
        hand = self.hand
        while hand.phase == SHOWDOWN and hand.actor is not None and hand.actor in self.shows:
            p = hand.actor
            a = self.shows.pop(p)
            try:
                if a.cards or a.dash:
                    self._step(lambda h: h.show(p))
                else:
                    self._step(lambda h: h.muck(p))
            except IllegalAction as e:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): {e}") from None
            self._sync()

    def _finish(self) -> None:
        hand = self.hand
        if hand.phase != DRAW or hand.actor is None:
            self._check_claims()
        # A shown hand in the file must be the hand the game holds.
        for e in hand.events:
            if isinstance(e, ev.Shown):
                a = self._shown_action(e.player)
                if a is not None and a.cards:
                    known = {c for c in a.cards if c is not None}
                    if not known <= set(e.cards):
                        raise PHHRuleError(f"action {a.number} ({a.text!r}): p{e.player + 1} shows "
                                           "cards that are not their hand")
        if hand.over and any(isinstance(e, ev.Shown) for e in hand.events):
            fill = self.deck.fillers
            if any(c in fill for c in self.eng_board):
                raise PHHRuleError("the actions end before the dealer deals the board the showdown "
                                   "needs: the result would depend on cards the file does not give")
            contenders = [e.player for e in hand.events if isinstance(e, ev.Shown)]
            if len(contenders) > 1:
                for e in hand.events:
                    if isinstance(e, ev.Shown) and any(c in fill for c in e.cards):
                        raise PHHRuleError(f"p{e.player + 1}'s cards are unknown at the showdown: the result "
                                           "cannot be decided")

    def _shown_action(self, p: int) -> _Action | None:
        for a in reversed(self.s.actions):
            if a.verb == "sm" and a.actor == p:
                return a
        return None

    def _explain(self, a: _Action, e: IllegalAction) -> str:
        hand, cpu = self.hand, self.s.cpu
        head = f"action {a.number} ({a.text!r})"
        if isinstance(e, NotYourTurn):
            return f"{head}: out of turn: {e}"
        if isinstance(e, BadAmount):
            lg = hand.legal()
            lo, hi = _to_units(lg.min_to, cpu), _to_units(lg.max_to, cpu)
            kind = lg.raise_kind or "bet"
            if lo == hi:
                return f"{head}: the {kind} here is exactly {lo} ({hand.structure.kind} limit)"
            if a.amount is not None and a.amount * cpu < lg.min_to:
                return f"{head}: {a.amount} is below the minimum {kind} to {lo} (at most {hi})"
            return f"{head}: {a.amount} is not allowed: {kind} to between {lo} and {hi}"
        msg = str(e)
        msg = re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(_to_units(int(m.group(1)) * 100 + int(m.group(2)), cpu)),
                     msg)
        return f"{head}: {msg}"


# ---------------------------------------------------------------------------- the public API
def _load(phh: str | bytes | dict) -> dict:
    if isinstance(phh, dict):
        return phh
    if isinstance(phh, bytes):
        try:
            phh = phh.decode("utf-8")
        except UnicodeDecodeError:
            raise PHHFormatError("not a PHH file: not UTF-8 text") from None
    if not isinstance(phh, str):
        raise PHHFormatError(f"expected PHH text or a parsed dict, not {type(phh).__name__}")
    if phh.startswith("\ufeff"):
        phh = phh[1:]
    if not phh.strip():
        raise PHHFormatError("empty file: no PHH fields")
    try:
        return tomllib.loads(phh)
    except tomllib.TOMLDecodeError as e:
        raise PHHFormatError(f"not TOML: {e}") from None


def import_hand(phh: str | bytes | dict) -> Hand:
    """Rebuild and replay a hand from PHH text (or an already parsed dict). Raises PHHError."""
    data = _load(phh)
    setup = _setup(data)
    _resolve_cards(setup)
    return _Replayer(setup).run()


replay = import_hand


def finishing_stacks(phh: str | bytes | dict) -> list[int | float]:
    """The replayed hand's stacks in the file's player order and units."""
    data = _load(phh)
    hand = import_hand(data)
    cpu = _user(data, "cents_per_unit", int, 100)
    return [_to_units(c, cpu) for c in hand.stacks]


def replay_file(path: str | Path) -> dict:
    """{"file": PATH, "finishing_stacks": [...]} or {"file": PATH, "error": "one line"}; never raises."""
    name = str(path)
    try:
        try:
            raw = Path(path).read_bytes()
        except OSError as e:
            return {"file": name, "error": f"cannot read the file: {e.strerror or e}"}
        return {"file": name, "finishing_stacks": finishing_stacks(raw)}
    except PHHError as e:
        return {"file": name, "error": _one_line(str(e))}
    except RecursionError:
        return {"file": name, "error": "the file is nested too deeply to read"}
    except Exception as e:   # noqa: BLE001 - a replay never shows a traceback
        return {"file": name, "error": _one_line(f"cannot replay the file: {type(e).__name__}: {e}")}


def _one_line(msg: str) -> str:
    return " ".join(msg.split())[:500]
