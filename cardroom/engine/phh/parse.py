"""Reading a PHH file: the TOML, the game set-up (variant, structure, rules, players) and each action,
checked field by field; every problem is a PHHFormatError or UnsupportedPHH naming the field or action."""

from __future__ import annotations

import math
import re
import tomllib
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from cardroom.engine.betting import (
    ANTE_ALL,
    ANTE_BB,
    ANTE_BUTTON,
    FIXED,
    SPREAD,
    Rules,
    Structure,
    StructureError,
)
from cardroom.engine.cards import RANKS, SUITS, Card
from cardroom.engine.hand import Player, ante_posters
from cardroom.engine.phh.errors import PHHFormatError, UnsupportedPHH
from cardroom.engine.phh.fields import (
    NO_CURRENCY,
    PREFIX,
    to_cents,
    parse_variant_code,
)
from cardroom.engine.variants import Variant

_PROTECT = re.compile(r"^#\s*cardroom:\s*p(\d+)\s+protected all-in\s*$")


# ---------------------------------------------------------------------------- the TOML
def load_hand(phh: str | bytes | dict[str, Any]) -> dict[str, Any]:
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


# ---------------------------------------------------------------------------- actions and card text
@dataclass(eq=False)
class Slot:
    """One card the file deals: known or unknown (??); `served` is the card the deck gave."""
    card: Card | None
    action: int
    served: Card | None = None
    rank: float = 0.0          # when the deck deals it (for choosing fillers)


@dataclass
class Action:
    number: int                    # 1-based position in the actions array
    text: str
    actor: int | None              # None = a board deal; else 0-based PHH player index (dh: dealt to)
    verb: str
    amount: Decimal | None = None  # cbr
    slots: list[Slot] = field(default_factory=list)   # dh/db: the cards dealt
    cards: list[Card | None] = field(default_factory=list)   # sd/sm: as written (None = ??)
    dash: bool = False             # sm -
    chosen: list[Slot] = field(default_factory=list)  # sd: the held slots discarded
    reveals: list[Card] = field(default_factory=list)  # sm: shown cards the file dealt as ??

    @property
    def player(self) -> int:
        """The player who acts, or is dealt to: every action has one but a board deal (db)."""
        if self.actor is None:
            raise AssertionError(f"action {self.number} is a board deal: it names no player")
        return self.actor


def _parse_card_text(text: str, number: int) -> list[Card | None]:
    if len(text) % 2:
        raise PHHFormatError(f"action {number}: {text!r} is not a list of two-character cards")
    out: list[Card | None] = []
    for i in range(0, len(text), 2):
        chunk = text[i:i + 2]
        if chunk == "??":
            out.append(None)
            continue
        if chunk[0] not in RANKS or chunk[1] not in SUITS:
            raise PHHFormatError(f"action {number}: {chunk!r} is not a card (rank {RANKS} + suit {SUITS}"
                                 ", or ??)")
        out.append(Card.parse(chunk))
    return out


def _parse_action(raw: Any, number: int, n: int) -> Action | None:
    """One entry of the actions array; None for a comment alone."""
    if not isinstance(raw, str):
        raise PHHFormatError(f"action {number} must be a string, not {raw!r}")
    text = raw.strip()
    m = _PROTECT.match(text)
    if m:
        p = int(m.group(1))
        if not 1 <= p <= n:
            raise PHHFormatError(f"action {number}: there is no player p{p}")
        return Action(number, text, p - 1, "protect")
    body = text.split("#", 1)[0].strip()
    if not body:
        return None
    words = body.split()
    if words[0] == "d":
        return _dealer_action(words, body, number, n)
    return _player_action(words, body, number, n)


def _player_of(word: str, number: int, n: int) -> int:
    """'pN' as a 0-based player index; `word` is known to be p and digits."""
    p = int(word[1:])
    if not 1 <= p <= n:
        raise PHHFormatError(f"action {number}: there is no player p{p} (the file has {n} players)")
    return p - 1


def _dealer_action(words: list[str], body: str, number: int, n: int) -> Action:
    """'d db cards' (the board) or 'd dh pN cards' (a player's hole cards)."""
    if len(words) < 2 or words[1] not in ("dh", "db"):
        raise PHHFormatError(f"action {number} ({body!r}): the dealer's actions are 'd dh pN cards' "
                             "and 'd db cards'")
    if words[1] == "db":
        if len(words) != 3:
            raise PHHFormatError(f"action {number} ({body!r}): write 'd db cards'")
        cards = _parse_card_text(words[2], number)
        if not cards:
            raise PHHFormatError(f"action {number}: no cards dealt")
        return Action(number, body, None, "db", slots=[Slot(c, number) for c in cards])
    if len(words) != 4 or not re.fullmatch(r"p\d+", words[2]):
        raise PHHFormatError(f"action {number} ({body!r}): write 'd dh pN cards'")
    p = _player_of(words[2], number, n)
    cards = _parse_card_text(words[3], number)
    return Action(number, body, p, "dh", slots=[Slot(c, number) for c in cards])


def _player_action(words: list[str], body: str, number: int, n: int) -> Action:
    """'pN f', 'pN cc', 'pN pb', 'pN cbr AMOUNT', 'pN sd cards', 'pN sm cards' (or 'sm -')."""
    if not re.fullmatch(r"p\d+", words[0]):
        raise PHHFormatError(f"action {number} ({body!r}): the actor must be 'd' or 'pN'")
    p = _player_of(words[0], number, n)
    if len(words) < 2:
        raise PHHFormatError(f"action {number} ({body!r}): the action is missing")
    verb, args = words[1], words[2:]
    if verb in ("f", "cc", "pb"):
        if args:
            raise PHHFormatError(f"action {number} ({body!r}): '{verb}' takes no argument")
        return Action(number, body, p, verb)
    if verb == "cbr":
        if len(args) != 1:
            raise PHHFormatError(f"action {number} ({body!r}): write 'pN cbr AMOUNT'")
        return Action(number, body, p, verb, amount=_amount(args[0], number))
    if verb in ("sd", "sm"):
        if len(args) > 1:
            raise PHHFormatError(f"action {number} ({body!r}): write the cards without spaces")
        if verb == "sm" and args == ["-"]:
            return Action(number, body, p, verb, cards=[], dash=True)
        cards = _parse_card_text(args[0], number) if args else []
        return Action(number, body, p, verb, cards=cards)
    raise PHHFormatError(f"action {number} ({body!r}): unknown action {verb!r} "
                         "(f, cc, cbr, pb, sd, sm)")


def _amount(word: str, number: int) -> Decimal:
    """A cbr's amount as written (a positive number: the set-up says what unit it is in)."""
    try:
        amount = Decimal(word)
    except InvalidOperation:
        raise PHHFormatError(f"action {number}: {word!r} is not an amount") from None
    if not amount.is_finite() or amount <= 0:
        raise PHHFormatError(f"action {number}: the amount must be positive, not {word}")
    return amount


# ---------------------------------------------------------------------------- the game set-up
@dataclass
class Setup:
    variant: Variant
    structure: Structure
    rules: Rules
    players: list[Player]
    button: int
    cpu: int
    actions: list[Action]
    # Our own file's finishing stacks (cents): the replay must end there (replay._replay).
    finishing: list[int] | None = None
    # Our own heads-up file in the shape the release before three blinds were settled wrote one.
    maybe_before_three_blinds: bool = False


# cardroom wrote three-blind hands otherwise before its largest blind was settled as the big blind
# (DESIGN.md, "Missed blinds"; the release of commit 7083f98): a big-blind ante went to the middle
# blind, and heads-up it posted the two smaller blinds under the largest. The engine deals neither
# now, so those hands cannot be dealt again; their files are refused saying so.
_BEFORE = "as cardroom wrote one before its three blinds were settled"
HEADS_UP_BEFORE = (f"a three-blind table's heads-up hand {_BEFORE}, the two smaller blinds posted "
                   "under the largest")


def _need(data: dict[str, Any], key: str) -> Any:
    if key not in data:
        raise PHHFormatError(f"required field {key!r} is missing")
    return data[key]


def _number_list(data: dict[str, Any], key: str, n: int | None) -> list[int | float]:
    value = _need(data, key)
    if not isinstance(value, list) or any(isinstance(x, bool) or not isinstance(x, (int, float))
                                          for x in value):
        raise PHHFormatError(f"{key} must be an array of numbers")
    if n is not None and len(value) != n:
        raise PHHFormatError(f"{key} has {len(value)} entries for {n} players")
    return value


def _user_flag(data: dict[str, Any], key: str, default: bool) -> bool:
    """One of our own `_cardroom_` fields that is true or false."""
    value = data.get(PREFIX + key, default)
    if not isinstance(value, bool):
        raise PHHFormatError(f"{PREFIX}{key} must be true or false")
    return value


def _user_count(data: dict[str, Any], key: str, default: int) -> int:
    """One of our own `_cardroom_` fields that is a non-negative integer."""
    value = data.get(PREFIX + key, default)
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise PHHFormatError(f"{PREFIX}{key} must be a non-negative integer")
    return value


def _ante_style(antes: list[int], blinds: tuple[int, ...], ours: bool = False) -> tuple[int, str]:
    """The file's antes as the engine's (ante, ante_style): the same for everyone, or one player's,
    the big blind's or the button's. Heads-up they are reverse-assigned, as the blinds are (the
    spec): [0, 3] is the big blind's ante, [10, 0] the button's."""
    if len(set(antes)) == 1:
        return antes[0], ANTE_ALL
    n = len(antes)
    payers = [i for i, a in enumerate(antes) if a]
    if len(payers) == 1 and blinds:
        payer = 1 - payers[0] if n == 2 else payers[0]
        for style in (ANTE_BB, ANTE_BUTTON):
            if tuple(ante_posters(n, n - 1, blinds, style)) == (payer,):    # PHH: the button is last
                return antes[payers[0]], style
    if ours and n > 2 and len(blinds) == 3 and payers == [1]:
        raise UnsupportedPHH(f"antes {antes}: p2's ante at three blinds is a big-blind ante {_BEFORE}, "
                             "when the middle blind was taken for the big blind; the largest is the big "
                             "blind now and p3 antes, so this hand cannot be dealt again as it was")
    if n > 2 and blinds:
        here = (f"here p{ante_posters(n, n - 1, blinds, ANTE_BB)[0] + 1}'s or p{n}'s alone; "
                "heads-up [0, 3] is the big blind's")
    else:
        here = "e.g. [0, 3, 0] or [0, 0, 10]; heads-up [0, 3] is the big blind's"
    raise UnsupportedPHH(f"antes {antes}: only the same ante for everyone, a big blind ante or a button "
                         f"ante can be played ({here})")


# ISO 4217 currencies whose minor unit is not the cent (two decimals): the rest have two.
_MINOR_DIGITS = {
    **dict.fromkeys(("BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX",
                     "UYI", "VND", "VUV", "XAF", "XOF", "XPF"), 0),
    **dict.fromkeys(("BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"), 3),
    **dict.fromkeys(("CLF", "UYW"), 4),
}
# The fields whose values are amounts of chips (arrays or single numbers), besides `cbr` actions.
_AMOUNT_FIELDS = ("antes", "blinds_or_straddles", "bring_in", "small_bet", "big_bet", "min_bet",
                  "starting_stacks", "finishing_stacks", "winnings")


def chips_per_unit(data: dict[str, Any], actions: list[Action]) -> int:
    """How many of the file's smallest chips (the engine's indivisible unit) make one unit of its
    amounts: the unit the file names (our own `_cardroom_cents_per_unit`, or its `currency`'s minor
    unit: USD 100, JPY 1; XXX, ISO's "no currency", names none); else cents if it carries our own
    `_cardroom_` fields (an export from before the unit was always written); else, if every amount
    is a whole number, one unit is one indivisible chip (as pokerkit reads it: a pot of 1083 splits
    542 + 541, never 541.5 each); else cents."""
    if PREFIX + "cents_per_unit" in data:
        cpu = _user_count(data, "cents_per_unit", 100)
        if cpu <= 0:
            raise PHHFormatError(f"{PREFIX}cents_per_unit must be positive")
        return cpu
    currency = data.get("currency")
    if currency is not None:
        if not (isinstance(currency, str) and len(currency) == 3 and currency.isascii() and currency.isupper()):
            raise PHHFormatError(f"currency must be a three-letter ISO 4217 code like \"USD\", not {currency!r}")
        if currency != NO_CURRENCY:          # play chips name no unit: read on
            return int(10 ** _MINOR_DIGITS.get(currency, 2))   # int(): ** is typed Any for any int
    if any(key.startswith(PREFIX) for key in data):
        return 100
    amounts: list[Any] = [a.amount for a in actions if a.verb == "cbr"]
    for key in _AMOUNT_FIELDS:
        value = data.get(key)
        amounts += value if isinstance(value, list) else [value]
    whole = all(x is None or isinstance(x, bool) or not isinstance(x, (int, float, Decimal))
                or (math.isfinite(x) and x == int(x)) for x in amounts)
    return 1 if whole else 100


def parse_setup(data: dict[str, Any]) -> Setup:
    variant, kind = parse_variant_code(_need(data, "variant"))
    ours = any(key.startswith(PREFIX) for key in data)
    stacks_raw = _starting_stacks(data, variant)
    n = len(stacks_raw)
    actions = _actions(data, n)
    cpu = chips_per_unit(data, actions)
    stacks = [to_cents(x, cpu, f"starting_stacks[{i}]") for i, x in enumerate(stacks_raw)]
    for i, s in enumerate(stacks):
        if s <= 0:
            raise PHHFormatError(f"starting_stacks[{i}] = {stacks_raw[i]}: every stack must be positive")
    antes = [to_cents(x, cpu, f"antes[{i}]") for i, x in enumerate(_number_list(data, "antes", n))]
    if any(a < 0 for a in antes):
        raise PHHFormatError("antes must not be negative")
    blinds: tuple[int, ...]
    if variant.bring_in:
        bring_in, blinds = _bring_in(data, n, cpu), ()
    else:
        bring_in, blinds = 0, _blinds(data, n, cpu)
    ante, ante_style = _ante_style(antes, blinds, ours)
    heads_up_two = ours and n == 2 and len(blinds) == 2
    cap = _user_count(data, "cap", 4)
    small, big = _stakes(data, kind, blinds, cpu, heads_up_two)
    try:
        structure = Structure(kind, small, big, blinds, ante, bring_in, cap or None,
                              _user_flag(data, "uncapped_heads_up", False), ante_style,
                              _user_count(data, "first_blind", 0))
    except StructureError as e:
        raise PHHFormatError(f"betting structure: {e}") from None
    rules = _rules(data, cpu)
    players = _players(data, stacks, cpu)
    button = 0 if variant.bring_in else n - 1
    finishing = None
    if ours and "finishing_stacks" in data:
        finishing = [to_cents(x, cpu, f"finishing_stacks[{i}]")
                     for i, x in enumerate(_number_list(data, "finishing_stacks", n))]
    # That release's heads-up limit hands look like a table's whose second blind is below the
    # small bet: they can only be told apart by replaying them.
    before = heads_up_two and kind in (FIXED, SPREAD) and blinds[1] < small
    return Setup(variant, structure, rules, players, button, cpu, actions, finishing, before)


def _starting_stacks(data: dict[str, Any], variant: Variant) -> list[Any]:
    """The file's starting stacks as written: one a player, as many as the game deals to."""
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
    return stacks_raw


def _actions(data: dict[str, Any], n: int) -> list[Action]:
    raw_actions = _need(data, "actions")
    if not isinstance(raw_actions, list):
        raise PHHFormatError("actions must be an array of strings")
    return [a for a in (_parse_action(x, i + 1, n) for i, x in enumerate(raw_actions)) if a]


def _positive(data: dict[str, Any], key: str, cpu: int) -> int:
    """A required amount that must be above nothing (a bet size, the bring-in), in cents."""
    c = to_cents(_need(data, key), cpu, key)
    if c <= 0:
        raise PHHFormatError(f"{key} must be positive")
    return c


def _bring_in(data: dict[str, Any], n: int, cpu: int) -> int:
    """A stud game's bring-in; it has no blinds (an array of zeros may say so)."""
    bring_in = _positive(data, "bring_in", cpu)
    if "blinds_or_straddles" in data and any(_number_list(data, "blinds_or_straddles", n)):
        raise UnsupportedPHH("blinds in a stud game: stud uses a bring-in")
    return bring_in


def _blinds(data: dict[str, Any], n: int, cpu: int) -> tuple[int, ...]:
    """The blinds, posted by the first players in order: at most three (two heads-up)."""
    raw = [to_cents(x, cpu, f"blinds_or_straddles[{i}]")
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
    return tuple(raw[:k])


def _stakes(data: dict[str, Any], kind: str, blinds: tuple[int, ...], cpu: int, heads_up_two: bool) -> tuple[int, int]:
    """(small_bet, big_bet) for the engine's Structure: the limits of a limit game; in pot and no
    limit the minimum bet, which must be the largest blind, and twice it (or our own stakes)."""
    if kind in (FIXED, SPREAD):
        return _positive(data, "small_bet", cpu), _positive(data, "big_bet", cpu)
    small = _positive(data, "min_bet", cpu)
    if blinds and max(blinds) != small:
        why = f": {HEADS_UP_BEFORE}, which cannot be dealt again as it was" if heads_up_two else ""
        raise UnsupportedPHH(f"min_bet {data['min_bet']} differs from the big blind (the engine's "
                             f"minimum bet is the largest blind){why}")
    stakes = data.get(PREFIX + "stakes")
    if stakes is None:
        return small, small * 2
    if not isinstance(stakes, list) or len(stakes) != 2:
        raise PHHFormatError(f"{PREFIX}stakes must be [small_bet, big_bet]")
    small, big = (to_cents(x, cpu, f"{PREFIX}stakes") for x in stakes)
    return small, big


def _rules(data: dict[str, Any], cpu: int) -> Rules:
    """The house rules our own files carry (`_cardroom_...`); another file's are the defaults."""
    return Rules(
        rake_percent=_user_count(data, "rake_percent", 0),
        rake_cap=to_cents(data.get(PREFIX + "rake_cap", 0), cpu, PREFIX + "rake_cap"),
        no_flop_no_drop=_user_flag(data, "no_flop_no_drop", False),
        show_all=_user_flag(data, "show_all", False),
        must_raise_to_enter=_user_flag(data, "must_raise_to_enter", False),
        draw_cap_four=_user_flag(data, "draw_cap_four", False),
        burn_before_draw=_user_flag(data, "burn_before_draw", True),
        defer_fifth_card=_user_flag(data, "defer_fifth_card", True),
        reburn_on_reshuffle=_user_flag(data, "reburn_on_reshuffle", True),
    )


def _players(data: dict[str, Any], stacks: list[int], cpu: int) -> list[Player]:
    """The players: names and seats (p1, p2 ... and 1, 2 ... when the file gives none) and our own
    files' live and dead posts."""
    n = len(stacks)
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
    live, dead = (_posts(data, key, n, cpu) for key in ("live_posts", "dead_posts"))
    return [Player(names[i], stacks[i], seat=seats[i], live_post=live[i], dead_post=dead[i]) for i in range(n)]


def _posts(data: dict[str, Any], key: str, n: int, cpu: int) -> list[int]:
    raw = data.get(PREFIX + key)
    if raw is None:
        return [0] * n
    if not isinstance(raw, list) or len(raw) != n:
        raise PHHFormatError(f"{PREFIX}{key} must be an array of {n} numbers")
    posts = [to_cents(x, cpu, PREFIX + key) for x in raw]
    if any(x < 0 for x in posts):
        raise PHHFormatError(f"{PREFIX}{key} must not be negative")
    return posts
