"""config.toml -> frozen dataclasses. No global config object: `load_config(path)` returns a
`RoomConfig` and the composition root passes its parts to whoever needs them.

Money in the file
-----------------
Money is written in DOLLARS, as a string or an integer: ``"2.50"``, ``"0.25"``, ``"1000.00"``,
``"2"`` or ``2`` are $2.50, 25c, $1000, $2 and $2. Inside, it is always integer cents.
A key whose name ends in ``_cents`` (``starting_money_cents = 100000``) takes a whole number of
cents instead, as an integer only. Anything a person probably did not mean is refused with a
`ConfigError` rather than guessed at:

- TOML floats (``2.5``): binary floats are not money; write the string ``"2.50"``;
- more than two decimals (``"2.505"``), signs (``"+2"``, ``"-2"``), underscores (``"1_000"``, and
  the TOML integer ``1_000`` too, which tomllib cannot tell from ``1000``: it is accepted there as
  TOML says it is the same number), spaces, exponents, non-ASCII digits (``"２"``, ``"٢"``) - a
  string is read as the admin console and the TUI read typed dollars
  (`cardroom.engine.money.parse_dollars`: ``\\$?[0-9]+(\\.[0-9]{1,2})?``, so ``"$2"`` is $2 too);
- booleans (TOML ``true`` is not 1 dollar), negative or absurdly large amounts.

Every error is a `ConfigError` (a ValueError) naming the file, the table (for ``[[tables]]``)
and the key, e.g. ``config.toml: [[tables]] #2 "No Limit $.25/$.50": stakes: ...``.

Tables
------
``stakes`` is ``[small bet, big bet]`` for fixed and spread limit (spread: the min and max bet)
and the two BLINDS ``[small blind, big blind]`` for pot and no limit. Fixed and spread blinds come
from the Planet Poker formula (`cardroom.engine.betting.planet_small_blind`). Stud games post an
ante (``ante``, default none) and a ``bring_in`` (default: a third of the small bet in fixed limit,
a quarter otherwise, rounded down as the small blind is: $2/$4 -> 50c).

Buy-ins (seed 001): the minimum is 10 times the small bet - for pot and no limit, where the
smallest bet is the big blind, 10 big blinds; the maximum for pot and no limit is 100 big blinds
($.25/$.50 -> $50, as the page lists), and for fixed and spread limit there is none unless the
table sets ``max_buy_in``. Both may be set per table (``min_buy_in``, ``max_buy_in``).

Draw games deal the draw one of two ways, ``draw_dealing = "planet"`` (seed 000: no burn, all
of a player's cards at his turn) or ``"lowball"`` (seed 002: a burn, four cards now and a fifth
after everyone); ``show_all`` shows every remaining hand at the showdown. Both default to the
game's own page: Planet Draw Lo (``a5-draw``) is "planet" and shows all, the others "lowball" and
losers may muck. What a reshuffle deals back (engine/drawing.py): under "planet" nobody gets a card
he threw in the same draw while another is left (in a single draw, never); under "lowball" the same,
but for a deferred fifth card off a stub of nothing but his own throws; earlier draws' cards may
come back in triple draw.

Tournaments
-----------
``[[tournaments]]`` blocks are read by `cardroom.config_tournaments` into the engine's
`TournamentSpec` records (chips are whole numbers there; buy-in, fee and added money are money as
above), every key checked the same way.

A table of ``seats = 5`` is a "5 player max" table: its sit-out period is ``sit_out_minutes_5max``
(seed 001), see `RoomConfig.sit_out_minutes_for`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cardroom.engine.betting import (
    ANTE_ALL, ANTE_STYLES, DRAW_DEALINGS, FIXED, SPREAD, STRUCTURES, Rules, Structure, StructureError,
)
from cardroom.engine.variants import UnknownVariant, Variant, find_variant
from cardroom.room.text import clean_text
from cardroom.engine.money import format_cents
from cardroom.engine.pokerstars import CURRENCIES, PLAY
from cardroom.room.ports import is_store_url
from cardroom.engine.tournament import TournamentSpec
from cardroom.config_keys import (
    MAX_SEATS, MAX_TABLE_NAME, MIN_SEATS, ConfigError, Section, money_keys, parse_money,
)
from cardroom.config_tournaments import tournaments as _tournament_blocks

__all__ = [
    "ConfigError", "ServerConfig", "RoomSettings", "TableConfig", "RoomConfig",
    "load_config", "config_from_dict", "parse_money",
]

FIVE_MAX = 5
# Fixed and spread limit: raises a round after the opening bet (the big blind opens before the draw
# or flop). Seed 000: a bet and three raises; seed 002: three or four, as the house chooses.
MAX_RAISES = (2, 3, 4)

_SHA256_RE = re.compile(r"SHA256:[A-Za-z0-9+/]{43}", re.ASCII)
_MD5_RE = re.compile(r"MD5:[0-9a-f]{2}(?::[0-9a-f]{2}){15}", re.ASCII)


# --------------------------------------------------------------------------------------- records

# A table host's lease of its tables (cardroom/store/leases.py, roles/tablehost.py) is sized from
# [server] database_outage_seconds: a host stops dealing a table once its last successful renewal
# is (ttl - LEASE_MARGIN) seconds old, and that renewal was sent up to LEASE_RENEW_EVERY before
# the database went away; once it is back, the store connects again for the next renewal
# (LEASE_RECONNECT). A dead host's lease runs out ttl seconds after its last renewal, and a live
# host claims the table at its next try (LEASE_RENEW_EVERY) and seats its players (LEASE_CLAIM):
# that must be within [server] takeover_seconds.
LEASE_RENEW_EVERY = 1.0
LEASE_MARGIN = 3.0
LEASE_RECONNECT = 2.0
LEASE_CLAIM = 1.0


@dataclass(frozen=True, slots=True)
class ServerConfig:
    host: str = "127.0.0.1"
    port: int = 2222
    data_dir: Path = Path(".")               # default: the folder the config file is in
    login_timeout: float = 30.0              # seconds to authenticate
    max_connections: int = 200
    max_per_ip: int = 8
    guest_passwords: bool = False            # demo rooms: password auth with any password
    admins: tuple[str, ...] = ()             # SSH key fingerprints ("SHA256:..." as ssh-keygen -l prints)
    shared_screens: bool = True              # railbirds of a table share one drawing (ssh/mirror.py)
    textual_speedups: bool = True            # the speedup guards of cardroom/textual_adapter.py
    store: str | None = None                 # a postgresql:// URL; None: the SQLite file in data_dir
    nats: str | None = None                  # the NATS server of table hosts and gateways (--nats wins)
    connect_burst: int = 10                  # new connections one address may open at once ...
    connects_per_second: float = 2.0         # ... and then a second (more are closed unanswered)
    new_accounts_per_ip: int = 10            # accounts one address may make (new key, new name) ...
    new_accounts_hours: float = 24.0         # ... in this many hours
    database_outage_seconds: float = 10.0    # a PostgreSQL outage a table host rides out, no hand void
    takeover_seconds: float = 20.0           # a dead table host's tables are dealt again within this

    @property
    def lease_seconds(self) -> float:
        """A table host's lease of a table: long enough to ride out database_outage_seconds."""
        return self.database_outage_seconds + LEASE_RENEW_EVERY + LEASE_RECONNECT + LEASE_MARGIN

    @property
    def settle_patience(self) -> float:
        """How long a hand's settlement is retried while the store fails, before the hand is void:
        past the outage ridden out, and the store's reconnect."""
        return self.database_outage_seconds + LEASE_RECONNECT + LEASE_RENEW_EVERY


@dataclass(frozen=True, slots=True)
class RoomSettings:
    starting_money: int = 100_000            # cents credited to a new account
    timeout_allin_quota: int = 2             # protected all-ins per player per day on a timeout
    action_seconds: int = 23                 # decision time (seed 000)
    countdown_seconds: int = 10              # the countdown shows the last 10 s
    reconnect_seconds: int = 5               # a lost connection's grace to come back when it must act
    sit_out_minutes: int = 15                # per sit-out
    sit_out_minutes_5max: int = 10           # on 5-max tables (seed 001)
    sit_outs_allowed: int = 3                # then removed from the table
    seat_hold_seconds: int = 60              # a paged wait-lister has this long to take the seat
    chat_max_chars: int = 200                # one chat line, after cleaning
    chat_lines: int = 5                      # at most this many lines ...
    chat_per_seconds: float = 10.0           # ... per this many seconds (a token bucket)
    currency: str = PLAY                     # what the chips are in hand histories: play, USD, EUR, GBP


@dataclass(frozen=True, slots=True)
class TableConfig:
    name: str
    game: str                                # a key of cardroom.engine.variants.VARIANTS
    structure_kind: str                      # fixed, spread, pot, no
    small_bet: int                           # cents; pot/no: the big blind
    big_bet: int                             # cents; pot/no: twice the big blind
    blinds: tuple[int, ...] = ()             # () = the Planet Poker formula (fixed/spread), stud: none
    ante: int = 0
    bring_in: int | None = None              # stud only; None = the engine's default
    seats: int = 10
    action_seconds: int | None = None        # None = the room's
    rake_percent: int = 5
    rake_cap: int = 300
    no_flop_no_drop: bool = False
    max_raises: int = 3                      # fixed/spread: raises a round after the opening bet
    uncapped_heads_up: bool = False
    must_raise_to_enter: bool = False
    show_all: bool | None = None             # None: the game's own (Variant.show_all), as the parser sets it
    draw_cap_four: bool = False
    draw_dealing: str | None = None          # a key of DRAW_DEALINGS; None: the game's own, as the parser sets it
    min_buy_in: int = 0
    max_buy_in: int | None = None            # None = no maximum
    ante_style: str = ANTE_ALL               # who antes: all, bb (the big blind), button

    @property
    def variant(self) -> Variant:
        return find_variant(self.game)

    @property
    def five_max(self) -> bool:
        return self.seats == FIVE_MAX

    @property
    def big_blind(self) -> int:
        return self.structure().big_blind

    def structure(self) -> Structure:
        v = self.variant
        return Structure.make(
            self.structure_kind, self.small_bet, self.big_bet,
            blinds=self.blinds or None, ante=self.ante, bring_in=self.bring_in,
            cap=self.max_raises + 1, stud=v.bring_in, uncapped_heads_up=self.uncapped_heads_up,
            ante_style=self.ante_style)

    def rules(self) -> Rules:
        shown = {} if self.show_all is None else {"show_all": self.show_all}
        return Rules.of_game(self.variant, self.draw_dealing, rake_percent=self.rake_percent,
                             rake_cap=self.rake_cap, no_flop_no_drop=self.no_flop_no_drop,
                             must_raise_to_enter=self.must_raise_to_enter,
                             draw_cap_four=self.draw_cap_four, **shown)

    def describe(self) -> str:
        return f"{self.structure().describe()} {self.variant.name}"


@dataclass(frozen=True, slots=True)
class RoomConfig:
    path: Path
    server: ServerConfig = field(default_factory=ServerConfig)
    room: RoomSettings = field(default_factory=RoomSettings)
    tables: tuple[TableConfig, ...] = ()
    tournaments: tuple[TournamentSpec, ...] = ()     # [[tournaments]]: config_tournaments.py

    def table(self, name: str) -> TableConfig:
        for t in self.tables:
            if t.name == name:
                return t
        raise KeyError(name)

    def tournament(self, name: str) -> TournamentSpec:
        for t in self.tournaments:
            if t.name == name:
                return t
        raise KeyError(name)

    def action_seconds_for(self, table: TableConfig) -> int:
        return table.action_seconds if table.action_seconds is not None else self.room.action_seconds

    def sit_out_minutes_for(self, table: TableConfig) -> int:
        return self.room.sit_out_minutes_5max if table.five_max else self.room.sit_out_minutes


# --------------------------------------------------------------------------------------- parsing

def stakes_amounts(kind: str, lo: int, hi: int) -> tuple[int, int, tuple[int, ...]]:
    """(small bet, big bet, blinds) from a table's two stakes: the small and big bet in fixed and
    spread limit (blinds from the Planet Poker formula: none given here), the two blinds in pot and
    no limit (the big blind is then the smallest bet, and the "big bet" twice it)."""
    if kind in (FIXED, SPREAD):
        return lo, hi, ()
    return hi, 2 * hi, (lo, hi)


# ----------------------------------------------------------------- the blinds and who antes (issue 18)
# Kept apart from the other table keys: `blinds` lists one to three blinds, posted left of the button
# in order (seed 002: "Sometimes even three blinds are used"), instead of the stakes' two (pot and
# no limit) or the Planet Poker formula's (fixed and spread); `ante_style` says who antes: everyone
# (all), the big blind for the whole table (bb) or the button (button).

_ANTE_AND_BLIND_KEYS = {"ante_style"} | money_keys("blinds")


def _blinds_and_antes(s: Section, variant: Variant, kind: str, small_bet: int, blinds: tuple[int, ...],
                      ante: int) -> tuple[tuple[int, ...], str]:
    """The table's blinds (`blinds` if given, else the stakes' ones: () = the Planet Poker formula)
    and ante style, each checked against the game, the stakes and the ante."""
    key = _money_key(s, "blinds")
    if s.has(key):
        blinds = _blinds(s, key, variant, kind, small_bet)
    style = _ante_style(s, variant, ante)
    if ante:
        if style == ANTE_ALL and ante >= small_bet:
            s.fail("the ante must be less than the small bet", _which(s, "ante"))
        big = max(blinds) if blinds else small_bet     # the Planet formula's big blind is the small bet
        if style != ANTE_ALL and ante > big:
            s.fail(f"the big blind's or button's ante must be at most the big blind ({_dollars(big)})",
                   _which(s, "ante"))
    return blinds, style


def _blinds(s: Section, key: str, variant: Variant, kind: str, small_bet: int) -> tuple[int, ...]:
    """One to three blinds, smallest first, the largest the stakes' big blind (at most the small
    bet in fixed and spread limit, where the big blind is the first bet)."""
    if variant.bring_in:
        s.fail(f"{variant.name} has no blinds (stud games bring in)", key)
    raw = s.get(key)
    if not isinstance(raw, list) or not 1 <= len(raw) <= 3:
        s.fail("must be one to three amounts, posted left of the button in order, like "
               "[\"1\", \"2\"] or [\"1\", \"1\", \"2\"]", key)
    blinds = _amounts(s, key)
    if min(blinds) <= 0:
        s.fail("every blind must be more than zero", key)
    if list(blinds) != sorted(blinds):
        s.fail("each blind must be at least the one before it", key)
    if kind in (FIXED, SPREAD) and blinds[-1] > small_bet:
        s.fail(f"the largest blind ({_dollars(blinds[-1])}) must be at most the small bet "
               f"({_dollars(small_bet)}): the big blind counts as the first bet", key)
    if kind not in (FIXED, SPREAD) and blinds[-1] != small_bet:
        s.fail(f"the largest blind must be the big blind of the stakes ({_dollars(small_bet)})", key)
    return blinds


def _ante_style(s: Section, variant: Variant, ante: int) -> str:
    style = s.str("ante_style", ANTE_ALL, 20)
    if style not in ANTE_STYLES:
        s.fail(f"{style!r} is not one of {', '.join(ANTE_STYLES)} (everyone antes, the big blind "
               "antes for the table, or the button does)", "ante_style")
    if style != ANTE_ALL:
        if variant.bring_in:
            s.fail(f"{variant.name} has no big blind or button: everyone antes", "ante_style")
        if not ante:
            s.fail(f"ante_style = {style!r} needs an ante", "ante_style")
    return style
# ----------------------------------------------------------------- end of the blinds and who antes


_SERVER_KEYS = {"host", "port", "data_dir", "login_timeout", "max_connections", "max_per_ip",
                "guest_passwords", "admins", "shared_screens", "textual_speedups", "store", "nats",
                "connect_burst", "connects_per_second", "new_accounts_per_ip", "new_accounts_hours",
                "database_outage_seconds", "takeover_seconds"}
_ROOM_KEYS = {"timeout_allin_quota", "action_seconds", "countdown_seconds", "reconnect_seconds", "sit_out_minutes",
              "sit_out_minutes_5max", "sit_outs_allowed", "seat_hold_seconds", "chat_max_chars",
              "chat_lines", "chat_per_seconds", "currency"} | money_keys("starting_money")
_TABLE_KEYS = {"name", "game", "structure", "stakes", "stakes_cents", "seats", "action_seconds",
               "rake_percent", "no_flop_no_drop", "max_raises", "uncapped_heads_up", "must_raise_to_enter",
               "show_all", "draw_cap_four", "draw_dealing"} | money_keys(
                   "rake_cap", "ante", "bring_in", "min_buy_in", "max_buy_in") | _ANTE_AND_BLIND_KEYS
_TOP_KEYS = {"server", "room", "tables", "tournaments"}


def _fingerprint(fp: Any) -> str | None:
    if not isinstance(fp, str):
        return None
    fp = fp.strip()
    if fp.upper().startswith("SHA256:"):
        fp = "SHA256:" + fp[7:].rstrip("=")
        return fp if _SHA256_RE.fullmatch(fp) else None
    if fp.upper().startswith("MD5:"):
        fp = "MD5:" + fp[4:].lower()
        return fp if _MD5_RE.fullmatch(fp) else None
    return None


def _server(data: Any, path: Path, admins: Any = None) -> ServerConfig:
    s = Section(data, path, "server", _SERVER_KEYS)
    d = ServerConfig()
    host = s.str("host", d.host, 255)
    port = s.int("port", d.port, 0, 65535)
    if s.has("data_dir"):
        raw = s.str("data_dir", ".", 4096)
        data_dir = Path(raw).expanduser()
        if not data_dir.is_absolute():
            data_dir = path.parent / data_dir
    else:
        data_dir = path.parent
    login_timeout = s.seconds("login_timeout", d.login_timeout, 0, 600)
    max_connections = s.int("max_connections", d.max_connections, 1, 100_000)
    max_per_ip = s.int("max_per_ip", d.max_per_ip, 1, 100_000)
    if max_per_ip > max_connections:
        s.fail(f"{max_per_ip} is more than max_connections ({max_connections})", "max_per_ip")
    guest = s.bool("guest_passwords", d.guest_passwords)
    admins_raw = s.get("admins", []) if admins is None else admins
    if not isinstance(admins_raw, list):
        s.fail("must be a list of SSH key fingerprints like \"SHA256:...\"", "admins")
    found: list[str] = []
    for i, fp in enumerate(admins_raw):
        norm = _fingerprint(fp)
        if norm is None:
            s.fail(f"entry {i + 1}, {fp!r}, is not a key fingerprint: use what `ssh-keygen -lf key.pub` "
                   f"prints, like \"SHA256:\" and 43 base64 characters", "admins")
        if norm not in found:
            found.append(norm)
    shared = s.bool("shared_screens", d.shared_screens)
    speedups = s.bool("textual_speedups", d.textual_speedups)
    store = s.str("store", d.store, 4096)
    if store is not None and not is_store_url(store):
        s.fail(f"{store!r} is not a postgresql:// URL (leave it out for the SQLite file in "
               "data_dir)", "store")
    nats = s.str("nats", d.nats, 4096)
    if nats is not None and not nats.startswith(("nats://", "tls://")):
        s.fail(f"{nats!r} is not a nats:// URL (like nats://127.0.0.1:4222)", "nats")
    connect_burst = s.int("connect_burst", d.connect_burst, 1, 100_000)
    connects_per_second = s.number("connects_per_second", d.connects_per_second, 0.001, 100_000, "a second")
    new_accounts = s.int("new_accounts_per_ip", d.new_accounts_per_ip, 1, 1_000_000)
    new_accounts_hours = s.number("new_accounts_hours", d.new_accounts_hours, 0.001, 24 * 366, "hours")
    outage = s.seconds("database_outage_seconds", d.database_outage_seconds, 0, 3600)
    takeover = s.seconds("takeover_seconds", d.takeover_seconds, 0, 7200)
    server = ServerConfig(host, port, data_dir.resolve(), login_timeout, max_connections, max_per_ip,
                          guest, tuple(found), shared, speedups, store, nats, connect_burst, connects_per_second,
                          new_accounts, new_accounts_hours, outage, takeover)
    least = server.lease_seconds + LEASE_RENEW_EVERY + LEASE_CLAIM
    if takeover < least:
        s.fail(f"{takeover:g} s is too short to ride out a database outage of {outage:g} s: a dead host's "
               f"lease runs {server.lease_seconds:g} s, then its tables are claimed and dealt again, so at "
               f"least {least:g} s (or a shorter database_outage_seconds)", "takeover_seconds")
    return server


def _room(data: Any, path: Path) -> RoomSettings:
    s = Section(data, path, "room", _ROOM_KEYS)
    d = RoomSettings()
    action = s.int("action_seconds", d.action_seconds, 5, 600)
    countdown = s.int("countdown_seconds", d.countdown_seconds, 0, 600)
    if countdown > action:
        s.fail(f"{countdown} is longer than action_seconds ({action})", "countdown_seconds")
    return RoomSettings(
        starting_money=s.money("starting_money", d.starting_money),
        timeout_allin_quota=s.int("timeout_allin_quota", d.timeout_allin_quota, 0, 1000),
        action_seconds=action,
        countdown_seconds=countdown,
        reconnect_seconds=s.int("reconnect_seconds", d.reconnect_seconds, 0, 600),
        sit_out_minutes=s.int("sit_out_minutes", d.sit_out_minutes, 1, 24 * 60),
        sit_out_minutes_5max=s.int("sit_out_minutes_5max", d.sit_out_minutes_5max, 1, 24 * 60),
        sit_outs_allowed=s.int("sit_outs_allowed", d.sit_outs_allowed, 0, 1000),
        seat_hold_seconds=s.int("seat_hold_seconds", d.seat_hold_seconds, 1, 3600),
        chat_max_chars=s.int("chat_max_chars", d.chat_max_chars, 1, 2000),
        chat_lines=s.int("chat_lines", d.chat_lines, 1, 1000),
        chat_per_seconds=s.seconds("chat_per_seconds", d.chat_per_seconds, 0, 3600),
        currency=_currency(s, d.currency),
    )


def _currency(s: Section, default: str) -> str:
    """[room] currency: play chips (the room credits them) unless the operator says otherwise; a
    hand history names what its amounts are, so a tracker files play hands apart from real money."""
    known = (PLAY, *CURRENCIES)
    value = s.get("currency", default)
    if value not in known:
        s.fail(f"{value!r} is not one of {', '.join(repr(k) for k in known)}", "currency")
    return value


def _table(data: Any, path: Path, index: int) -> TableConfig:
    label = f"[[tables]] #{index + 1}"
    if isinstance(data, dict) and isinstance(data.get("name"), str):
        label += f" {data['name']!r}"
    s = Section(data, path, None, _TABLE_KEYS | {"cap"}, table=label)
    if s.has("cap"):
        # The old key counted bets; the rule pages count raises (seed 002: "three or four raises").
        old = s.get("cap")
        now = f"max_raises = {old - 1}" if isinstance(old, int) and not isinstance(old, bool) else "max_raises"
        s.fail(f"cap is now max_raises, the raises a round after the opening bet as the rule pages "
               f"count them: cap = {old!r} (bets) is {now}", "cap")
    name = _table_name(s)
    variant = _game(s)
    kind = s.get("structure")
    if kind is None:
        s.fail(f"every table needs a structure: {', '.join(STRUCTURES)}", "structure")
    if kind not in STRUCTURES:
        s.fail(f"{kind!r} is not one of {', '.join(STRUCTURES)}", "structure")
    skey, (small_bet, big_bet, blinds) = _stakes(s, kind)
    seats = s.int("seats", min(MAX_SEATS, variant.max_seats), MIN_SEATS, MAX_SEATS)
    if seats > variant.max_seats:
        s.fail(f"{variant.name} seats at most {variant.max_seats} players, not {seats}", "seats")
    action_seconds = s.int("action_seconds", None, 5, 600)
    rake_percent = s.int("rake_percent", 5, 0, 100)
    rake_cap = s.money("rake_cap", 300)
    no_flop_no_drop = s.bool("no_flop_no_drop", False)
    max_raises, uncapped_heads_up = _raises(s, kind)
    must_raise, show_all, draw_cap_four, draw_dealing = _house_rules(s, variant)
    ante = s.money("ante", 0)
    bring_in = _bring_in(s, variant, small_bet)
    blinds, ante_style = _blinds_and_antes(s, variant, kind, small_bet, blinds, ante)
    try:
        probe = Structure.make(kind, small_bet, big_bet, blinds=blinds or None, ante=ante,
                               bring_in=bring_in, cap=max_raises + 1, stud=variant.bring_in,
                               uncapped_heads_up=uncapped_heads_up, ante_style=ante_style)
    except StructureError as e:
        s.fail(str(e), skey)
    min_buy_in, max_buy_in = _buy_ins(s, probe, small_bet)
    return TableConfig(
        name=name, game=variant.key, structure_kind=kind, small_bet=small_bet, big_bet=big_bet,
        blinds=blinds, ante=ante, bring_in=bring_in, seats=seats, action_seconds=action_seconds,
        rake_percent=rake_percent, rake_cap=rake_cap, no_flop_no_drop=no_flop_no_drop,
        max_raises=max_raises, uncapped_heads_up=uncapped_heads_up, must_raise_to_enter=must_raise,
        show_all=show_all, draw_cap_four=draw_cap_four, draw_dealing=draw_dealing, min_buy_in=min_buy_in,
        max_buy_in=max_buy_in, ante_style=ante_style)


def _table_name(s: Section) -> str:
    # The name reaches every lobby screen: it must already be clean (an admin typo, not an attack,
    # but we refuse rather than silently change it).
    if not s.has("name"):
        s.fail("every table needs a name", "name")
    name = s.str("name", "", 200)      # there (checked above): the default is never used
    if clean_text(name, MAX_TABLE_NAME) != name:
        s.fail(f"{name!r} must be at most {MAX_TABLE_NAME} cells of printable text, single-spaced, "
               "without leading or trailing spaces", "name")
    return name


def _game(s: Section) -> Variant:
    if not s.has("game"):
        s.fail("every table needs a game", "game")
    game = s.get("game")
    if not isinstance(game, str):
        s.fail(f"{game!r} is not a game name", "game")
    try:
        return find_variant(game)
    except UnknownVariant as e:
        s.fail(str(e), "game")


def _stakes(s: Section, kind: str) -> tuple[str, tuple[int, int, tuple[int, ...]]]:
    """The key the stakes were given under, and (small bet, big bet, blinds): stakes_amounts."""
    key = _money_key(s, "stakes")
    raw = s.get(key)
    what = "[small bet, big bet]" if kind in (FIXED, SPREAD) else "[small blind, big blind]"
    if raw is None:
        s.fail(f"every table needs stakes: {what}, like [\"2\", \"4\"]", "stakes")
    if not isinstance(raw, list) or len(raw) != 2:
        s.fail(f"must be two amounts, {what}", key)
    lo, hi = _amounts(s, key)
    if lo <= 0:
        s.fail("stakes must be more than zero", key)
    if hi < lo:
        s.fail(f"the second amount must be at least the first, {what}", key)
    return key, stakes_amounts(kind, lo, hi)


def _raises(s: Section, kind: str) -> tuple[int, bool]:
    """(max_raises, uncapped_heads_up): the cap on raises, for fixed and spread limit only."""
    limited = kind in (FIXED, SPREAD)
    if s.has("max_raises") and not limited:
        s.fail(f"a cap on raises applies to fixed and spread limit only, not {kind!r}", "max_raises")
    max_raises = s.int("max_raises", 3)
    if max_raises not in MAX_RAISES:
        s.fail(f"{max_raises} is not 2, 3 or 4: the raises a round after the opening bet (seed 000: "
               "a bet and three raises; seed 002: three or four raises, as the house chooses)", "max_raises")
    uncapped_heads_up = s.bool("uncapped_heads_up", False)
    if uncapped_heads_up and not limited:
        s.fail(f"applies to fixed and spread limit only, not {kind!r}", "uncapped_heads_up")
    return max_raises, uncapped_heads_up


def _house_rules(s: Section, variant: Variant) -> tuple[bool, bool, bool, str]:
    """(must_raise_to_enter, show_all, draw_cap_four, draw_dealing), each for the games it fits."""
    must_raise = s.bool("must_raise_to_enter", False)
    if must_raise and variant.bring_in:
        s.fail(f"{variant.name} has no blinds to raise", "must_raise_to_enter")
    show_all = s.bool("show_all", variant.show_all)
    draw_cap_four = s.bool("draw_cap_four", False)
    if draw_cap_four and variant.kind != "draw":
        s.fail(f"{variant.name} has no draw", "draw_cap_four")
    if s.has("draw_dealing") and variant.kind != "draw":
        s.fail(f"{variant.name} has no draw", "draw_dealing")
    draw_dealing = s.choice("draw_dealing", variant.draw_dealing, tuple(DRAW_DEALINGS),
                            " (seed 000's dealing: no burn, all of a player's cards at his turn; "
                            "seed 002's: a burn, four cards now and a fifth after everyone else)")
    return must_raise, show_all, draw_cap_four, draw_dealing


def _bring_in(s: Section, variant: Variant, small_bet: int) -> int | None:
    """A stud game's bring-in if the table sets one (None: the engine's default)."""
    bring_in = s.money("bring_in", None)
    if bring_in is not None:
        if not variant.bring_in:
            s.fail(f"{variant.name} has no bring-in (only stud games do)", "bring_in")
        if not 0 < bring_in <= small_bet:
            s.fail("the bring-in must be more than zero and at most the small bet", "bring_in")
    return bring_in


def _buy_ins(s: Section, probe: Structure, small_bet: int) -> tuple[int, int | None]:
    # Buy-ins (seed 001): at least 10 small bets (pot/no: 10 big blinds, the smallest bet there);
    # pot/no at most 100 big blinds; fixed/spread no maximum unless configured.
    min_default = 10 * small_bet
    max_default = None if probe.limited else 100 * probe.big_blind
    min_buy_in = s.money("min_buy_in", min_default)
    max_buy_in = s.money("max_buy_in", max_default)
    floor = max(probe.big_blind, probe.ante + probe.bring_in, 1)
    if min_buy_in < floor:
        s.fail(f"must be at least one big blind ({_dollars(floor)})", _which(s, "min_buy_in"))
    if max_buy_in is not None and max_buy_in < min_buy_in:
        s.fail(f"{_dollars(max_buy_in)} is less than the minimum buy-in ({_dollars(min_buy_in)})",
               _which(s, "max_buy_in"))
    return min_buy_in, max_buy_in


def _money_key(s: Section, name: str) -> str:
    """`name` or `name`_cents, whichever the table gives (not both)."""
    if s.has(name) and s.has(f"{name}_cents"):
        s.fail(f"give {name} or {name}_cents, not both", f"{name}_cents")
    return f"{name}_cents" if s.has(f"{name}_cents") else name


def _amounts(s: Section, key: str) -> tuple[int, ...]:
    """A list of money under `key` (dollars, or cents for a `_cents` key)."""
    try:
        return tuple(parse_money(x, cents=key.endswith("_cents")) for x in s.get(key))
    except ValueError as e:
        s.fail(str(e), key)


def _which(s: Section, key: str) -> str:
    return f"{key}_cents" if s.has(f"{key}_cents") else key


def _dollars(cents: int) -> str:
    return format_cents(cents, thousands=False, always_cents=True)


def config_from_dict(data: Mapping[str, Any], path: str | Path = "config.toml") -> RoomConfig:
    """Build a RoomConfig from parsed TOML (`path` names the file in errors and anchors data_dir)."""
    path = Path(path).expanduser().absolute()
    if not isinstance(data, dict):
        raise ConfigError("the file must be a TOML document", path=path)
    unknown = sorted(set(data) - _TOP_KEYS)
    if unknown:
        raise ConfigError("unknown top-level key (known: [server], [room], [[tables]], [[tournaments]])",
                          path=path, key=unknown[0])
    # `admins` belongs to [server]; the shipped config.toml writes it after [room] (so TOML puts it
    # in the room table). Either place is accepted, not both.
    server_raw, room_raw = data.get("server", {}), data.get("room", {})
    room_admins = None
    if isinstance(room_raw, dict) and "admins" in room_raw:
        if isinstance(server_raw, dict) and "admins" in server_raw:
            raise ConfigError("admins is given in both [server] and [room]; keep one (in [server])",
                              path=path, key="room.admins")
        room_raw = dict(room_raw)
        room_admins = room_raw.pop("admins")
        if not isinstance(room_admins, list):
            raise ConfigError("must be a list of SSH key fingerprints like \"SHA256:...\"", path=path,
                              key="room.admins")
    server = _server(server_raw, path, room_admins)
    room = _room(room_raw, path)
    raw_tables = data.get("tables", [])
    if not isinstance(raw_tables, list):
        raise ConfigError("write each table as a [[tables]] block", path=path, key="tables")
    tables = []
    seen: set[str] = set()
    for i, t in enumerate(raw_tables):
        table = _table(t, path, i)
        if table.name.casefold() in seen:
            raise ConfigError(f"{table.name!r} is the name of an earlier table", path=path,
                              table=f"[[tables]] #{i + 1} {table.name!r}", key="name")
        seen.add(table.name.casefold())
        if table.action_seconds is not None and room.countdown_seconds > table.action_seconds:
            raise ConfigError(f"{table.action_seconds} is shorter than the countdown "
                              f"(room.countdown_seconds = {room.countdown_seconds})", path=path,
                              table=f"[[tables]] #{i + 1} {table.name!r}", key="action_seconds")
        tables.append(table)
    return RoomConfig(path=path, server=server, room=room, tables=tuple(tables),
                      tournaments=_tournaments(data.get("tournaments", []), path))


def _tournaments(raw: Any, path: Path) -> tuple[TournamentSpec, ...]:
    """[[tournaments]] blocks, parsed in their own module."""
    return _tournament_blocks(raw, path)


def load_config(path: str | Path) -> RoomConfig:
    """Read and check `path` (TOML). Raises ConfigError naming the file, table and key."""
    p = Path(path).expanduser()
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise ConfigError(f"cannot read the config file: {e.strerror or e}", path=p) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ConfigError(f"not UTF-8 text ({e.reason} at byte {e.start})", path=p) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"not valid TOML: {e}", path=p) from None
    return config_from_dict(data, p)
