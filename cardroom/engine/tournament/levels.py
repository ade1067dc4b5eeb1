"""A tournament's levels and breaks, and where its clock stands.

The clock counts seconds of play since the start: a pause stops it (the director keeps the
arithmetic), and a break is part of it, so one timeline says everything: level 1, level 2, ...,
a break after every `break_every` levels, and the last level lasting until the end (a schedule
cannot run out). A level's blinds apply from the first hand that STARTS after its time begins
(DESIGN.md "Tournaments"): a hand is never re-priced midway, so `stage(elapsed)` is asked when a
hand is about to be dealt, not while it is played.
"""

from __future__ import annotations

from dataclasses import dataclass

from cardroom.engine.betting import ANTE_ALL, Structure


class ScheduleError(ValueError):
    """A level or schedule that cannot be played."""


@dataclass(frozen=True, slots=True)
class Level:
    """One level: `blinds` (small, big) for games with a button, or `bets` (small bet, big bet)
    with a `bring_in` for stud; an `ante` for either; `minutes` long. Amounts are chips."""

    minutes: int
    blinds: tuple[int, ...] = ()     # (small, big), or () in stud
    bets: tuple[int, ...] = ()       # (small bet, big bet) in stud, else ()
    ante: int = 0
    bring_in: int = 0

    def __post_init__(self) -> None:
        if self.minutes < 1:
            raise ScheduleError("a level lasts at least a minute")
        if bool(self.blinds) == bool(self.bets):
            raise ScheduleError("a level has blinds (games with a button) or bets (stud), not both")

    @property
    def stud(self) -> bool:
        return bool(self.bets)

    @property
    def big_blind(self) -> int:
        """The level's unit: the big blind, or stud's small bet."""
        return self.blinds[1] if self.blinds else self.bets[0]

    def structure(self, kind: str, ante_style: str = ANTE_ALL) -> Structure:
        """The betting of a hand at this level. Limit tournaments bet the big blind on the early
        rounds and twice it later, as every limit table does (the big blind is the first bet);
        pot and no limit need only the blinds."""
        if self.stud:
            return Structure(kind, self.bets[0], self.bets[1], (), self.ante, self.bring_in)
        small, big = self.blinds
        return Structure(kind, big, 2 * big, (small, big), self.ante, 0, ante_style=ante_style)

    def describe(self) -> str:
        """"10/20", "10/20 ante 2", "ante 5, bring-in 5, 20/40" (chips)."""
        if self.stud:
            ante = f"ante {self.ante}, " if self.ante else ""
            return f"{ante}bring-in {self.bring_in}, {self.bets[0]}/{self.bets[1]}"
        text = f"{self.blinds[0]}/{self.blinds[1]}"
        return f"{text} ante {self.ante}" if self.ante else text


@dataclass(frozen=True, slots=True)
class Stage:
    """Where the clock is: level `level` (0-based index into the schedule's levels) in force, or,
    when `on_break`, the break before level `level`. `starts`/`ends` are clock seconds (`ends` None:
    the last level, which lasts until the end)."""

    level: int
    on_break: bool
    starts: float
    ends: float | None

    def left(self, elapsed: float) -> float | None:
        """Seconds until this stage ends (None: never)."""
        return None if self.ends is None else max(0.0, self.ends - elapsed)


@dataclass(frozen=True, slots=True)
class Schedule:
    """The levels in order, and a break of `break_minutes` after every `break_every` levels
    (0: no breaks). No break follows the last level: it lasts until the end."""

    levels: tuple[Level, ...]
    break_every: int = 0
    break_minutes: int = 0

    def __post_init__(self) -> None:
        if not self.levels:
            raise ScheduleError("a schedule needs at least one level")
        if self.break_every < 0 or (self.break_every and self.break_minutes < 1):
            raise ScheduleError("a break lasts at least a minute")
        if len({lv.stud for lv in self.levels}) > 1:
            raise ScheduleError("every level is for the same kind of game (blinds, or stud's bets)")

    def stages(self) -> list[Stage]:
        """Every stage in order; the last one open-ended."""
        out, t = [], 0.0
        last = len(self.levels) - 1
        for i, level in enumerate(self.levels):
            ends = None if i == last else t + 60 * level.minutes
            out.append(Stage(i, False, t, ends))
            if ends is None:
                break
            t = ends
            if self.break_every and (i + 1) % self.break_every == 0:
                out.append(Stage(i + 1, True, t, t + 60 * self.break_minutes))
                t += 60 * self.break_minutes
        return out

    def stage(self, elapsed: float) -> Stage:
        """The stage at `elapsed` clock seconds: a stage starts at its `starts` and is over at its
        `ends` (the next one has begun)."""
        found = None
        for s in self.stages():
            if s.starts <= elapsed:
                found = s
            else:
                break
        return found if found is not None else self.stages()[0]

    def level_ends(self, n: int) -> float | None:
        """Clock seconds when the first `n` levels are over (late registration closes then);
        None when that is never (n reaches the last, endless level)."""
        if n >= len(self.levels):
            return None
        for s in self.stages():
            if not s.on_break and s.level == n - 1:
                return s.ends
        return None

    def next_break(self, elapsed: float) -> Stage | None:
        """The next break that has not begun at `elapsed`, or None."""
        return next((s for s in self.stages() if s.on_break and s.starts > elapsed), None)
