"""config.toml's `[[tournaments]]` blocks -> the engine's frozen `TournamentSpec` records.

Every key is checked as a `[[tables]]` block's are (config.py): a bad block is refused at start
with a `ConfigError` naming the file, the tournament and the key, e.g.
``config.toml: [[tournaments]] #2 "Hourly PLO": levels #3.blinds: ...``. Chips (starting chips,
blinds, antes, bring-ins, bets) are whole numbers of chips; buy-in, fee and added money are money,
written as the tables' money is (dollars, or `NAME_cents`). Percentages are whole numbers or
strings with up to two decimals ("18.5": TOML floats are refused, as for money).

A sit & go (`kind = "sit-and-go"`) starts when `seats` players have registered; a scheduled one
(`kind = "scheduled"`) at `start` (a TOML date-time with its offset, e.g. 2026-07-01T20:00:00Z)
and/or every `every_minutes` from it (from midnight UTC 1970 without a `start`: 60 starts on
the hour).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any, NoReturn

from cardroom.config_keys import MAX_SEATS, MAX_TABLE_NAME, MIN_SEATS, ConfigError, Section, money_keys
from cardroom.engine.betting import ANTE_ALL, ANTE_STYLES, STRUCTURES, StructureError
from cardroom.engine.tournament import (
    KINDS, SIT_AND_GO, Level, PayoutBand, PayoutError, Payouts, Schedule, ScheduleError,
    TournamentSpec,
)
from cardroom.engine.variants import UnknownVariant, Variant, find_variant
from cardroom.room.text import clean_text

TOURNAMENT_KEYS = {
    "name", "game", "structure", "kind", "seats", "table_size", "starting_chips", "levels",
    "break_every", "break_minutes", "payouts", "start", "every_minutes", "late_levels", "reentries",
    "min_players", "max_players", "ante_style",
} | money_keys("buy_in", "fee", "added")
_SCHEDULED_ONLY = ("start", "every_minutes", "late_levels", "reentries", "min_players", "max_players")
LEVEL_KEYS = {"blinds", "bets", "ante", "bring_in", "minutes"}
BAND_KEYS = {"entrants", "percent"}
MAX_CHIPS = 10**12
MAX_FIELD = 100_000             # entries of one tournament
MAX_LEVELS = 200
_PERCENT = re.compile(r"([0-9]{1,3})(?:\.([0-9]{1,2}))?", re.ASCII)


class _Part(Section):
    """One entry of a list inside a block (a level, a payout band): its errors name the block
    and `prefix.key`."""

    def __init__(self, data: Any, parent: Section, prefix: str, known: set[str]) -> None:
        self.prefix = prefix
        super().__init__(data, parent.path, None, known, table=parent.table)

    def fail(self, message: str, key: str | None = None) -> NoReturn:
        super().fail(message, f"{self.prefix}.{key}" if key else self.prefix)


def tournaments(raw: Any, path) -> tuple[TournamentSpec, ...]:
    if not isinstance(raw, list):
        raise ConfigError("write each tournament as a [[tournaments]] block", path=path, key="tournaments")
    out: list[TournamentSpec] = []
    for i, data in enumerate(raw):
        spec = tournament(data, path, i)
        if spec.name.casefold() in {t.name.casefold() for t in out}:
            raise ConfigError(f"{spec.name!r} is the name of an earlier tournament", path=path,
                              table=f"[[tournaments]] #{i + 1} {spec.name!r}", key="name")
        out.append(spec)
    return tuple(out)


def tournament(data: Any, path, index: int) -> TournamentSpec:
    label = f"[[tournaments]] #{index + 1}"
    if isinstance(data, dict) and isinstance(data.get("name"), str):
        label += f" {data['name']!r}"
    s = Section(data, path, None, TOURNAMENT_KEYS, table=label)
    for key in ("name", "game", "structure", "kind", "starting_chips", "levels", "payouts"):
        if not s.has(key):
            s.fail("every tournament needs one", key)
    # The keys every tournament needs are there (checked above): their defaults are never used.
    name = s.str("name", "", 200)
    if clean_text(name, MAX_TABLE_NAME) != name:
        s.fail(f"{name!r} must be at most {MAX_TABLE_NAME} cells of printable text, single-spaced, "
               "without leading or trailing spaces", "name")
    variant = _game(s)
    kind = s.choice("structure", "", STRUCTURES)
    what = s.choice("kind", "", KINDS)
    table_size = s.int("table_size", min(MAX_SEATS, variant.max_seats), MIN_SEATS, MAX_SEATS)
    if table_size > variant.max_seats:
        s.fail(f"{variant.name} seats at most {variant.max_seats} players, not {table_size}", "table_size")
    style = s.choice("ante_style", ANTE_ALL, ANTE_STYLES)
    if style != ANTE_ALL and variant.bring_in:
        s.fail(f"{variant.name} has no big blind or button: everyone antes", "ante_style")
    levels = _levels(s, variant.bring_in, kind, style)
    starting = s.int("starting_chips", 0, 1, MAX_CHIPS)
    if starting < levels[0].big_blind:
        what_unit = "small bet" if variant.bring_in else "big blind"
        s.fail(f"{starting} is less than the first level's {what_unit} ({levels[0].big_blind})", "starting_chips")
    schedule = _schedule(s, levels)
    if what == SIT_AND_GO:
        seats, timing = _sit_and_go_seats(s), {}
        smallest_field = seats
    else:
        if s.has("seats"):
            s.fail("a scheduled tournament has min_players and max_players (seats is a sit & go's)", "seats")
        seats = 0
        timing = _timing(s, len(levels))
        smallest_field = timing["min_players"]
    payouts = _payouts(s, smallest_field)
    buy_in = s.money("buy_in", 0)
    return TournamentSpec(
        name=name, game=variant.key, structure_kind=kind, schedule=schedule, payouts=payouts,
        starting_chips=starting, table_size=table_size, kind=what, seats=seats, buy_in=buy_in,
        fee=s.money("fee", 0), added=s.money("added", 0), ante_style=style, **timing)


def _game(s: Section) -> Variant:
    game = s.get("game")
    try:
        variant = find_variant(game) if isinstance(game, str) else None
    except UnknownVariant as e:
        s.fail(str(e), "game")
    if variant is None:
        s.fail(f"{game!r} is not a game name", "game")
    return variant


def _schedule(s: Section, levels: tuple[Level, ...]) -> Schedule:
    """The levels with a break every `break_every` levels (none: 0) of `break_minutes`."""
    every = s.int("break_every", 0, 0, MAX_LEVELS)
    if s.has("break_minutes") and not every:
        s.fail("a break needs break_every (levels between breaks)", "break_minutes")
    if every and not s.has("break_minutes"):
        s.fail("say how long each break is", "break_minutes")
    return Schedule(levels, every, s.int("break_minutes", 0, 1, 24 * 60))


def _sit_and_go_seats(s: Section) -> int:
    """A sit & go's field, which starts it; it has none of a scheduled tournament's timing keys."""
    for key in _SCHEDULED_ONLY:
        if s.has(key):
            s.fail("a sit & go starts when `seats` players have registered (scheduled tournaments only)", key)
    if not s.has("seats"):
        s.fail("a sit & go needs seats: it starts when that many players have registered", "seats")
    return s.int("seats", 0, 2, MAX_FIELD)    # there (checked above): the default is never used


def _levels(s: Section, stud: bool, kind: str, style: str) -> tuple[Level, ...]:
    raw = s.get("levels")
    if not isinstance(raw, list) or not raw or len(raw) > MAX_LEVELS:
        s.fail(f"must be a list of 1 to {MAX_LEVELS} levels, like [{{ blinds = [10, 20], minutes = 10 }}, ...]"
               + (" (stud: { bets = [20, 40], ante = 2, bring_in = 5, minutes = 10 })" if stud else ""), "levels")
    levels: list[Level] = []
    for i, item in enumerate(raw):
        part = _Part(item, s, f"levels #{i + 1}", LEVEL_KEYS)
        minutes = part.int("minutes", None, 1, 24 * 60)
        if minutes is None:
            part.fail("every level needs minutes", "minutes")
        have, lack = ("bets", "blinds") if stud else ("blinds", "bets")
        if part.has(lack):
            part.fail("stud games bet bets, with an ante and a bring-in" if stud else
                      "games with a button have blinds (bets are stud's)", lack)
        if not part.has(have):
            part.fail(f"every level needs its {have}, like [10, 20]", have)
        pair = _pair(part, have)
        ante = part.int("ante", 0, 0, MAX_CHIPS)
        if part.has("bring_in") and not stud:
            part.fail("only stud games bring in", "bring_in")
        bring_in = part.int("bring_in", 0, 1, pair[0]) if stud else 0
        if stud and not bring_in:
            part.fail("every stud level needs a bring_in", "bring_in")
        unit = pair[0] if stud else pair[1]
        if ante and style == ANTE_ALL and ante >= unit:
            part.fail(f"the ante must be less than the {'small bet' if stud else 'big blind'} ({unit})", "ante")
        if ante > unit:
            part.fail(f"the big blind's or button's ante must be at most the big blind ({unit})", "ante")
        level = Level(minutes, **{have: pair}, ante=ante, bring_in=bring_in)
        if levels and level.big_blind < levels[-1].big_blind:
            part.fail(f"the stakes never go down ({levels[-1].describe()} before)", have)
        try:
            level.structure(kind, style)
        except (StructureError, ScheduleError) as e:
            part.fail(str(e), have)
        levels.append(level)
    return tuple(levels)


def _pair(part: _Part, key: str) -> tuple[int, int]:
    v = part.get(key)
    if not (isinstance(v, list) and len(v) == 2 and all(type(x) is int for x in v)):
        part.fail(f"{v!r} is not two whole numbers of chips, like [10, 20]", key)
    if not 0 < v[0] <= v[1] <= MAX_CHIPS:
        part.fail(f"{v!r}: both above zero, the second at least the first", key)
    return v[0], v[1]


def _timing(s: Section, levels: int) -> dict:
    start = s.get("start")
    if start is not None:
        if not isinstance(start, dt.datetime) or start.tzinfo is None:
            s.fail(f"{start!r} is not a date and time with its offset, like 2026-07-01T20:00:00Z", "start")
        start = start.timestamp()
    every = s.int("every_minutes", 0, 1, 7 * 24 * 60)
    if start is None and not every:
        s.fail("a scheduled tournament needs a start time or every_minutes (or both)", "start")
    late = s.int("late_levels", 0, 0, levels - 1)
    reentries = s.int("reentries", 0, 0, 1000)
    if reentries and not late:
        s.fail("players re-enter during late registration: set late_levels", "reentries")
    low = s.int("min_players", 2, 2, MAX_FIELD)
    high = s.int("max_players", None, 2, MAX_FIELD)
    if high is not None and high < low:
        s.fail(f"{high} is less than min_players ({low})", "max_players")
    return {"start": start, "every": 60 * every, "late_levels": late, "reentries": reentries,
            "min_players": low, "max_players": high}


def _payouts(s: Section, smallest_field: int) -> Payouts:
    raw = s.get("payouts")
    if not isinstance(raw, list) or not raw:
        s.fail("must be a list of bands, like [{ entrants = 2, percent = [100] }, "
               "{ entrants = 6, percent = [65, 35] }]", "payouts")
    bands: list[PayoutBand] = []
    for i, item in enumerate(raw):
        part = _Part(item, s, f"payouts #{i + 1}", BAND_KEYS)
        for key in sorted(BAND_KEYS):
            if not part.has(key):
                part.fail("every band needs entrants (from how many) and percent (for each place paid)", key)
        entrants = part.int("entrants", 0, 2, MAX_FIELD)     # there (checked above)
        if bands and entrants <= bands[-1].entrants:
            part.fail(f"bands go up in entrants ({bands[-1].entrants} before)", "entrants")
        percents = part.get("percent")
        if not isinstance(percents, list) or not percents:
            part.fail("must be a list of percentages, first place first, like [50, 30, 20]", "percent")
        try:
            bands.append(PayoutBand(entrants, tuple(_hundredths(p) for p in percents)))
        except (ValueError, PayoutError) as e:
            part.fail(str(e), "percent")
    if bands[0].entrants > smallest_field:
        s.fail(f"the first band is from {bands[0].entrants} entrants; it must cover "
               f"{smallest_field} (the fewest this tournament can have)", "payouts")
    return Payouts(tuple(bands))


def _hundredths(value: Any) -> int:
    """A percentage -> hundredths of a percent: 50 -> 5000, "18.5" -> 1850."""
    if type(value) is int and 0 < value <= 100:
        return value * 100
    m = _PERCENT.fullmatch(value) if isinstance(value, str) else None
    if m is None:
        raise ValueError(f"{value!r} is not a percentage: a whole number or a string like \"18.5\"")
    return int(m.group(1)) * 100 + int((m.group(2) or "").ljust(2, "0"))
