"""How config.toml's values are read, for config.py (server, room, tables) and
config_tournaments.py alike: the error that names the file, block and key; `Section`, one TOML
table whose every key is checked; money (dollars or `NAME_cents`, integer cents inside); and the
limits both kinds of block share. Its own module so that neither config module imports the other
back (config.py reads its tournaments through config_tournaments)."""

from __future__ import annotations

import builtins
from collections.abc import Collection
from pathlib import Path
from typing import Any, NoReturn, overload

from cardroom.engine.money import MAX_CENTS, format_cents, parse_dollars

MAX_TABLE_NAME = 40                  # cells; table names reach every lobby screen
MIN_SEATS, MAX_SEATS = 2, 10


class ConfigError(ValueError):
    """A config file that cannot be used. `path`, `table` and `key` say where."""

    def __init__(self, message: str, *, path: str | Path | None = None, table: str | None = None,
                 key: str | None = None) -> None:
        self.path = str(path) if path is not None else None
        self.table = table
        self.key = key
        self.reason = message
        where = [p for p in (self.path, table) if p]
        prefix = ": ".join(where)
        if key:
            prefix = f"{prefix}: {key}" if prefix else key
        super().__init__(f"{prefix}: {message}" if prefix else message)


def parse_money(value: Any, *, cents: bool = False) -> int:
    """A config money value -> cents. Dollars (str, read by the engine's parse_dollars, or int)
    unless `cents` (int only).

    Raises ValueError with a message meant to follow the key's name."""
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is a boolean, not an amount of money")
    if isinstance(value, float):
        raise ValueError(f"{value!r} is a TOML float; write money as a string with at most two "
                         f"decimals, like \"2.50\"" if not cents else
                         f"{value!r} is a float; write a whole number of cents")
    if isinstance(value, str) and not cents:
        return parse_dollars(value)
    if isinstance(value, int):
        amount = value if cents else value * 100
    else:   # a ValueError, as every bad value here: the caller makes it a ConfigError
        raise ValueError(f"{value!r} is not a whole number of cents" if cents else  # noqa: TRY004
                         f"{value!r} is not an amount of money (write a string like \"2.50\")")
    if amount < 0:
        raise ValueError("an amount cannot be negative")
    if amount > MAX_CENTS:
        raise ValueError(f"{value!r} is too large (at most {format_cents(MAX_CENTS)})")
    return amount


class Section:
    """Reads one TOML table, turning every problem into a ConfigError that names the key."""

    def __init__(self, data: Any, path: Path, label: str | None, known: set[str],
                 table: str | None = None) -> None:
        self.path, self.table = path, table
        self.label = label
        if not isinstance(data, dict):
            self.fail(f"must be a table, not {type(data).__name__}")
        self.data = data
        unknown = sorted(set(data) - known)
        if unknown:
            self.fail(f"unknown key (known: {', '.join(sorted(known))})", unknown[0])

    def fail(self, message: str, key: str | None = None) -> NoReturn:
        where = self.table or self.label
        raise ConfigError(message, path=self.path, table=where,
                          key=f"{self.label}.{key}" if (key and self.label and not self.table) else key)

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str, default: Any = None) -> Any:
        return self.data.get(key, default)

    # A key's value, or `default` when it is absent: given a default, never None. (`builtins.`: the
    # methods int, str and bool are named for what they read, and hide the types in the class.)
    @overload
    def int(self, key: str, default: int, lo: int | None = None, hi: int | None = None) -> int: ...
    @overload
    def int(self, key: str, default: None, lo: int | None = None, hi: int | None = None) -> int | None: ...

    def int(self, key: str, default: int | None, lo: int | None = None, hi: int | None = None) -> int | None:
        if key not in self.data:
            return default
        v = self.data[key]
        if isinstance(v, bool) or not isinstance(v, int):
            self.fail(f"{v!r} is not a whole number", key)
        if lo is not None and v < lo:
            self.fail(f"{v} is too small (at least {lo})", key)
        if hi is not None and v > hi:
            self.fail(f"{v} is too large (at most {hi})", key)
        return v

    def seconds(self, key: str, default: float, lo: float = 0.0, hi: float = 86400.0) -> float:
        if key not in self.data:
            return default
        v = self.data[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(f"{v!r} is not a number of seconds", key)
        if not (lo < v <= hi):       # also refuses nan and inf
            self.fail(f"{v} must be more than {lo:g} and at most {hi:g} seconds", key)
        return float(v)

    def number(self, key: str, default: float, lo: float, hi: float, unit: str) -> float:
        """A number (whole or not) from `lo` to `hi`, both included."""
        if key not in self.data:
            return default
        v = self.data[key]
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            self.fail(f"{v!r} is not a number", key)
        if not (lo <= v <= hi):      # also refuses nan and inf
            self.fail(f"{v} must be from {lo:g} to {hi:g} {unit}", key)
        return float(v)

    def bool(self, key: str, default: bool) -> bool:
        if key not in self.data:
            return default
        v = self.data[key]
        if not isinstance(v, bool):
            self.fail(f"{v!r} is not true or false", key)
        return v

    def choice(self, key: builtins.str, default: builtins.str, choices: Collection[builtins.str],
               hint: builtins.str = "") -> builtins.str:
        if key not in self.data:
            return default
        v = self.data[key]
        if not (isinstance(v, str) and v in choices):
            self.fail(f"{v!r} is not one of {', '.join(map(repr, choices))}{hint}", key)
        return v

    @overload
    def str(self, key: builtins.str, default: builtins.str, max_len: builtins.int = 200) -> builtins.str: ...
    @overload
    def str(self, key: builtins.str, default: None, max_len: builtins.int = 200) -> builtins.str | None: ...

    def str(self, key: builtins.str, default: builtins.str | None, max_len: builtins.int = 200) -> builtins.str | None:
        if key not in self.data:
            return default
        v = self.data[key]
        if not isinstance(v, str):
            self.fail(f"{v!r} is not a string", key)
        if not v or len(v) > max_len or not v.isprintable():
            self.fail(f"{v!r} must be 1 to {max_len} printable characters", key)
        return v

    @overload
    def money(self, key: builtins.str, default: builtins.int) -> builtins.int: ...
    @overload
    def money(self, key: builtins.str, default: None) -> builtins.int | None: ...

    def money(self, key: builtins.str, default: builtins.int | None) -> builtins.int | None:
        """`key` in dollars, or `key`_cents in cents; not both."""
        ckey = f"{key}_cents"
        if key in self.data and ckey in self.data:
            self.fail(f"give {key} or {ckey}, not both", ckey)
        if ckey in self.data:
            k, cents = ckey, True
        elif key in self.data:
            k, cents = key, False
        else:
            return default
        try:
            return parse_money(self.data[k], cents=cents)
        except ValueError as e:
            self.fail(str(e), k)


def money_keys(*names: str) -> set[str]:
    return {n for name in names for n in (name, f"{name}_cents")}
