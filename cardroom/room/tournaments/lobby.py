"""The room's tournaments: one `Tournament` (actor.py) per instance registering or running, made
from config.toml's blocks and kept going.

- At start-up (`start`): every instance the store holds as registering or running is restored
  from its last snapshot (the hands cut off are void: the store voided them; the clock goes on
  with the time it had left; a payment a crash left without its entry is refunded); then every
  tournament that should be open for registration and is not gets an instance: a sit & go always
  has one (a new one opens as the last one starts), a scheduled one has its next start
  (`spec.next_start`; a recurring one's next opens as the last one starts or is cancelled).
- The lobby: each instance's row (`summaries`), and its own lobby (`view`); the last instance of
  each tournament that is over stays listed until the next one ends.
- Players' room-level actions (actions.py `RoomAction`: Register, Unregister) are handled here,
  one handler per record (`HANDLERS`), as a table's actions are at the table.

Time: the director counts epoch seconds (a scheduled start is a time of day), which the room's
clock, monotonic, is not: `now()` is the room's clock shifted to the epoch once, at start.
"""

from __future__ import annotations

import json
import logging
import random
import secrets
from dataclasses import replace
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from cardroom.engine.betting import Rules
from cardroom.engine.pokerstars import PLAY
from cardroom.engine.tournament import (
    FINISHED, REGISTERING, RUNNING, SCHEDULED, SIT_AND_GO, Director, TournamentError, TournamentSpec, restore,
    snapshot,
)
from cardroom.room import api
from cardroom.room.actions import Caller, Register, RoomAction, Unregister
from cardroom.room.table import TableSettings
from cardroom.room.tournaments.actor import TheRoom, Tournament
from cardroom.room.tournaments.summaries import summary_of

log = logging.getLogger("cardroom.tournament")
# Room-level action -> its handler (tournaments, session, action) -> its answer (a coroutine).
HANDLERS: dict[type[RoomAction], Callable[..., Any]] = {}


def handles(kind: type[RoomAction]):
    def register(handler):
        HANDLERS[kind] = handler
        return handler
    return register


class Tournaments:
    def __init__(self, room: TheRoom, specs: Iterable[TournamentSpec] = (), *,
                 table: TableSettings | None = None, rng=None) -> None:
        self.room = room
        self.specs = {s.name: s for s in specs}
        # What every tournament table is like besides its game (clocks, pauses, currency).
        self.template = table
        self.rng = rng if rng is not None else secrets.SystemRandom()
        self.live: dict[int, Tournament] = {}       # number -> instance, registering or running
        self.over: dict[str, Tournament] = {}       # name -> its last instance that is over
        self._offset = 0.0

    # ------------------------------------------------------------------ time

    def now(self) -> float:
        """Epoch seconds on the room's clock (see the module docstring)."""
        return self.room.clock.now() + self._offset

    def _wall(self, at: float) -> datetime:
        return datetime.fromtimestamp(at, timezone.utc)

    # ------------------------------------------------------------------ start and stop

    def start(self) -> None:
        records = self.room.store.tournaments((REGISTERING, RUNNING))
        if not records and not self.specs:
            return            # nothing to deal (and a room with no tournaments reads no clock here)
        clock = self.room.clock
        self._offset = clock.wall().timestamp() - clock.now()
        for record in records:
            spec = self.specs.get(record.name)
            if spec is None:
                log.error("tournament #%d %r is in the store but not in config.toml: it is left as it is",
                          record.id, record.name)
                continue
            try:
                director = restore(spec, json.loads(record.snapshot), self._rng(), self.now())
            except (ValueError, KeyError, TypeError, TournamentError) as e:
                log.error("tournament #%d %r cannot be restored (%s): it is left as it is", record.id, record.name, e)
                continue
            t = Tournament(self, spec, record, director)
            self.live[t.number] = t
            t.resume()
        for spec in self.specs.values():
            self._open_next(spec)

    def stop(self) -> None:
        """The room is closing: no clock runs (the hands in progress are void at the next start)."""
        for t in self.live.values():
            t.stop_clock()

    def _rng(self):
        return random.Random(self.rng.getrandbits(64)) if isinstance(self.rng, random.Random) else self.rng

    # ------------------------------------------------------------------ instances

    def _open_next(self, spec: TournamentSpec, after: float | None = None) -> Tournament | None:
        """A new instance of `spec` open for registration, unless one is or none is due."""
        if any(t.spec.name == spec.name and t.director.state == REGISTERING for t in self.live.values()):
            return None
        starts_at = None
        if spec.kind == SCHEDULED:
            starts_at = spec.next_start(self.now() if after is None else after)
            if starts_at is None:
                return None
        director = Director(spec, self._rng(), starts_at=starts_at)
        record = self.room.store.create_tournament(
            spec.name, buy_in=spec.buy_in, fee=spec.fee, added=spec.added,
            starts_at=None if starts_at is None else self._wall(starts_at),
            snapshot=json.dumps(snapshot(director, self.now())))
        t = Tournament(self, spec, record, director)
        self.live[t.number] = t
        log.info("tournament #%d %r opens for registration%s", t.number, spec.name,
                 f", starting {self._wall(starts_at):%Y-%m-%d %H:%M} UTC" if starts_at else "")
        t.start_clock()
        return t

    def started(self, t: Tournament) -> None:
        """`t` has started: the next one opens (a sit & go's, or a recurring one's)."""
        if t.spec.kind == SIT_AND_GO or t.spec.every:
            self._open_next(t.spec, after=max(self.now(), t.director.starts_at or 0.0) + 1)

    def ended(self, t: Tournament) -> None:
        self.live.pop(t.number, None)
        self.over[t.spec.name] = t
        if t.director.state != FINISHED and t.spec.kind == SCHEDULED and t.spec.every:
            self._open_next(t.spec, after=max(self.now(), t.director.starts_at or 0.0) + 1)
        elif t.spec.kind == SIT_AND_GO:
            self._open_next(t.spec)

    @property
    def currency(self) -> str:
        """What the room's money is called in histories and summaries ([room] currency)."""
        return self.template.currency if self.template is not None else PLAY

    def summary_text(self, account: int, number: int) -> str:
        """His PokerStars summary of tournament `number` (summaries.py)."""
        return summary_of(self.room.store, self.specs, account, number, self.currency)

    def table_settings(self, spec: TournamentSpec, name: str) -> TableSettings:
        """A tournament table: the template's clocks, the game's rules without rake, the first
        level's stakes (each hand is dealt at its own level's)."""
        base = self.template or TableSettings(name, spec.variant, spec.structure(0))
        return replace(base, name=name, variant=spec.variant, structure=spec.structure(0),
                       rules=Rules.of_game(spec.variant, rake_percent=0), seats=spec.table_size,
                       min_buy_in=None, max_buy_in=None)

    # ------------------------------------------------------------------ finding them

    def all(self) -> list[Tournament]:
        """Every instance listed: those over (their last) and those live, oldest first."""
        return sorted([*self.over.values(), *self.live.values()], key=lambda t: t.number)

    def get(self, number: int) -> Tournament:
        for t in self.all():
            if t.number == number:
                return t
        raise api.RoomError(f"there is no tournament #{number}")

    def find(self, text: str, states: Iterable[str] = (REGISTERING, RUNNING)) -> Tournament:
        """An instance by "#N", or by name (the live one in the first of `states` that has one)."""
        text = text.strip()
        if text.startswith("#") and text[1:].isdigit():
            return self.get(int(text[1:]))
        named = [t for t in self.all() if t.spec.name.casefold() == text.casefold()]
        for state in states:
            found = [t for t in named if t.director.state == state]
            if found:
                return found[-1]
        if named:
            return named[-1]
        known = ", ".join(sorted({t.spec.name for t in self.all()})) or "none"
        raise api.RoomError(f"no tournament called {text[:60]!r} (tournaments: {known})")

    def summaries(self) -> list[api.TournamentSummary]:
        return [t.summary() for t in self.all()]

    # ------------------------------------------------------------------ players' actions

    async def handle(self, session: Caller, action: RoomAction) -> Any:
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise api.RoomError(f"the room does not know how to {type(action).__name__}")
        return await handler(self, session, action)


def _number(value: object) -> int:
    if type(value) is not int:
        raise api.RoomError(f"a tournament is named by its number, not {value!r}")
    return value


@handles(Register)
async def _register(lobby: Tournaments, who: Caller, a: Register) -> int:
    return await lobby.get(_number(a.tournament)).register(who.account_id, who.name)


@handles(Unregister)
async def _unregister(lobby: Tournaments, who: Caller, a: Unregister) -> None:
    await lobby.get(_number(a.tournament)).unregister(who.account_id)


__all__ = ["HANDLERS", "Tournaments", "handles"]
