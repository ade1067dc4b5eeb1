"""What a tournament shows (room/api.py's records): its lobby row, its lobby, and the line a
tournament table's view carries. Pure functions of a `Tournament` (actor.py), read only."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Protocol

from cardroom.engine.betting import STRUCTURE_NAMES
from cardroom.engine.tournament import REGISTERING, RUNNING, Director, Placed, TournamentError, TournamentSpec
from cardroom.room import api
from cardroom.room.clock import Clock
from cardroom.room.table import Table


class _Room(Protocol):
    clock: Clock


class Tournament(Protocol):
    """What these read of a tournament (actor.py's `Tournament`)."""

    number: int
    spec: TournamentSpec
    director: Director
    tables: dict[int, Table]
    holds: dict[int, str]        # why each table is not dealing
    placed: list[Placed]
    room: _Room

    def now(self) -> float: ...
    def name_of(self, player) -> str: ...
    def ranking(self) -> tuple[dict, int, int]: ...
    def table_name(self, number: int) -> str: ...


def state_of(t: Tournament) -> str:
    """One of api.TOURNAMENT_STATES."""
    d = t.director
    if d.state != RUNNING:
        return d.state
    if d.paused:
        return "paused"
    now = t.now()
    if d.stage(now).on_break:
        return "on break"
    return "late registration" if d.late_registration_open(now) else "running"


def summary(t: Tournament) -> api.TournamentSummary:
    d, spec = t.director, t.spec
    starts_in = starts_at = None
    if d.state == REGISTERING and d.starts_at is not None:
        starts_in = max(0.0, d.starts_at - t.now())
        starts_at = datetime.fromtimestamp(d.starts_at, timezone.utc)
    return api.TournamentSummary(
        t.number, spec.name, spec.variant.name, STRUCTURE_NAMES[spec.structure_kind], spec.kind, spec.buy_in,
        spec.fee, d.entrants, spec.capacity, state_of(t), starts_in, starts_at, len(d.alive()), d.pool,
        t.room.clock.now())


def levels(t: Tournament) -> tuple[api.TournamentLevel, ...]:
    schedule = t.spec.schedule
    out = []
    for i, level in enumerate(schedule.levels, 1):
        pause = schedule.break_minutes if schedule.break_every and i % schedule.break_every == 0 \
            and i < len(schedule.levels) else 0
        out.append(api.TournamentLevel(i, level.describe(), level.minutes, pause))
    return tuple(out)


def view(t: Tournament, account: int | None) -> api.TournamentView:
    d = t.director
    prizes = {p.entry: p.prize for p in t.placed}
    players = tuple(api.TournamentPlayer(t.name_of(r.player), r.entry, r.chips,
                                         t.table_name(r.table) if r.table is not None else None, r.seat, r.place,
                                         prizes.get(r.entry, 0))
                    for r in d.standings())
    mine = [p for p, r in zip(players, d.standings()) if r.player == account]
    me = max(mine, key=lambda p: p.entry) if mine else None
    alive = [p for p in players if p.table is not None]
    rank = next((i for i, p in enumerate(alive, 1) if me is not None and p.entry == me.entry), None)
    registered = any(e.player == account and not e.out for e in d.entries.values())
    why = ""
    try:
        d.may_register(account, t.now())
    except TournamentError as e:
        why = str(e)
    now = t.now()
    tables = tuple(api.TournamentTable(n, table.name, len(table.seats), table.hand is not None and not table.hand.over)
                   for n, table in sorted(t.tables.items()) if n in d.tables())
    return api.TournamentView(
        summary(t), levels(t), d.stage(now).level + 1 if d.state != REGISTERING else 0, d.prizes(), tables,
        players, me, rank, registered, why, d.late_registration_open(now), d.hand_for_hand, d.paused)


def line(t: Tournament, number: int, account: int | None) -> api.TournamentLine:
    d = t.director
    now = t.now()
    stage = d.stage(now)
    elapsed = d.elapsed(now)
    ticking = d.state == RUNNING and not d.paused
    nxt = stage.left(elapsed) if ticking else None
    brk = d.spec.schedule.next_break(elapsed)
    ranks, average, left = t.ranking()
    level = d.spec.schedule.levels[stage.level]
    hold = t.holds.get(number, "")
    table = t.tables.get(number)
    if table is not None and table.hand is not None and not table.hand.over:
        hold = ""
    return api.TournamentLine(
        t.number, t.spec.name, number, stage.level + 1, level.describe(), nxt,
        (brk.starts - elapsed) if brk is not None and ticking else None, stage.on_break, d.paused, d.hand_for_hand,
        left, d.entrants, average, ranks.get(account), hold, t.room.clock.now())


__all__ = ["levels", "line", "state_of", "summary", "view"]
