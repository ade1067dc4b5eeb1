"""`cardroom demo --tournament NAME`: practice bots play one of config.toml's tournaments to its end.

The real room (a real SQLite file in a temporary folder, the tournament's director, its real
tables and their practice bots) on a fake clock: an hour of play takes seconds. What a player of
the tournament would hear is printed as it happens (the start, levels and breaks, hand-for-hand,
moves, tables broken, every place and prize, the winner), then what it took. With `out` the
tournament's hands are written as the room keeps them: `pokerstars.txt` (PokerStars' tournament
hands, as a railbird saw them: the hands shown down and no others), `hands.phhs` (PHH, every
card: nobody here is owed privacy) and `summary.txt` (the winner's PokerStars tournament summary).

A sit & go is played with its seats; a scheduled one with `players` bots (three tables by
default), registered before it starts.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
import tempfile
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable

from cardroom.engine.tournament import (
    SCHEDULED, Finished, Moved, Placed, Seated, Started, TableBroken, TournamentSpec,
)
from cardroom.room.client import LocalClient
from cardroom.room.clock import FakeClock
from cardroom.room.history import phhs_file, pokerstars_file
from cardroom.room.narration import money
from cardroom.room.room import Room, RoomSettings
from cardroom.room.table import TableSettings
from cardroom.room.tournaments import Tournament
from cardroom.room.tournaments.words import ordinal, table_line
from cardroom.store.audit import check_store
from cardroom.store.sqlite import SqliteStore

STEP = 5.0                  # seconds of the fake clock per step (the tournament's clock ticks each second)
LIMIT = 30 * 24 * 3600.0    # a tournament still running after a month of play has a bug: give up


_STRUCTURES = {"fixed": "fixed limit", "spread": "spread limit", "pot": "pot limit", "no": "no limit"}


@dataclass
class Tally:
    """What the tournament did, counted from its records."""

    moves: int = 0
    broken: int = 0


def default_players(spec: TournamentSpec) -> int:
    """How many bots play: a sit & go's seats; a scheduled one three tables' worth (moves and
    broken tables to see), within its limits."""
    if spec.kind != SCHEDULED:
        return spec.seats
    most = spec.max_players or 3 * spec.table_size
    return max(spec.min_players, min(3 * spec.table_size, most))


def check_players(spec: TournamentSpec, players: int | None) -> int:
    """The number of bots to play with (ValueError saying why not)."""
    if players is None:
        return default_players(spec)
    if spec.kind != SCHEDULED:
        if players != spec.seats:
            raise ValueError(f"{spec.name} is a sit & go of {spec.seats} players: --players is for "
                             "scheduled tournaments")
        return players
    if players < max(2, spec.min_players):
        raise ValueError(f"{spec.name} needs at least {max(2, spec.min_players)} players")
    if spec.max_players is not None and players > spec.max_players:
        raise ValueError(f"{spec.name} takes at most {spec.max_players} players")
    return players


def run_tournament_demo(spec: TournamentSpec, *, table: TableSettings | None = None, players: int | None = None,
                        out: Path | None = None, seed: int | None = None, write: Callable[[str], None] = print) -> int:
    """Play `spec` to its end with bots and print it (see the module docstring). 0 when the money
    adds up and the store's audit is clean, 1 otherwise."""
    players = check_players(spec, players)
    return asyncio.run(_play(spec, table, players, out, seed, write))


async def _play(spec, table, players, out, seed, write) -> int:
    seed = seed if seed is not None else secrets.randbits(64)
    wall = datetime.now(timezone.utc).replace(microsecond=0)
    with tempfile.TemporaryDirectory() as d:
        clock = FakeClock(wall=wall)
        store = SqliteStore(Path(d) / "demo.sqlite3", clock=clock.wall)   # the hands' times are the play's
        try:
            settings = RoomSettings(starting_money=max(RoomSettings().starting_money, spec.buy_in + spec.fee))
            room = Room([], store, clock, settings=settings, rng=random.Random(seed), tournaments=[spec],
                        tournament_table=table)
            room.start()
            t = next(iter(room.tournaments.live.values()))      # the instance open for registration
            _header(spec, t, players, write)
            tally = _follow(t, random.Random(f"{seed} bots"), write)
            for i in range(players):
                await LocalClient(room.connect(f"bot{i + 1}")).register(t.number)
            began = time.process_time()
            clock.advance(max(0.0, (t.director.starts_at or 0.0) - t.now()))
            ended = clock.run_until(lambda: t.over, limit=LIMIT, step=STEP)
            cpu = time.process_time() - began
            problems = check_store(store) + ([] if store.total_money() == store.expected_money() else ["money"])
            write("")
            write(f"{t.director.hands:,} hands, {tally.moves} moves, {tally.broken} tables broken; "
                  f"{_span(t.director.elapsed(t.now()))} of play in {cpu:.1f} s")
            write(f"money conserved and the ledger audited: {'yes' if not problems else problems}")
            if not ended:
                write(f"the tournament had not ended after {_span(LIMIT)}")
            if out is not None and ended:
                _write_files(room, t, out, write)
            return 0 if ended and not problems else 1
        finally:
            store.close()


def _header(spec: TournamentSpec, t: Tournament, players: int, write) -> None:
    cost = f"{money(spec.buy_in)} + {money(spec.fee)}" if spec.buy_in or spec.fee else "a freeroll"
    write(f"{spec.name} (#{t.number}): {spec.variant.name} {_STRUCTURES[spec.structure_kind]}, {spec.schedule.levels[0].describe()} to start; "
          f"{cost}; {players} practice bots, {spec.starting_chips:,} chips each, {spec.table_size} a table")
    if t.director.starts_at is not None:
        start = datetime.fromtimestamp(t.director.starts_at, timezone.utc)
        write(f"Starts at {start:%H:%M} UTC")
    write("")


def _follow(t: Tournament, rng: random.Random, write) -> Tally:
    """Print the tournament's records as they come, count them, and put a bot in every seat."""
    tally = Tally()

    def line(text: str) -> None:      # stamped with the tournament's clock of play
        write(f"[{_span(t.director.elapsed(t.now()), short=True)}] {text}")

    def hear(records: list) -> None:
        for r in records:
            if isinstance(r, Seated):
                assert isinstance(r.player, int)      # in the room a player is his account's id
                t.tables[r.table].make_bot(r.player, random.Random(rng.getrandbits(64)))
            elif isinstance(r, Started):
                line(f"Started: {r.entrants} players at {r.tables} table{'s' if r.tables > 1 else ''}")
            elif isinstance(r, Moved):
                tally.moves += 1
                why = "to balance" if r.reason == "balance" else "table broken"
                line(f"{t.name_of(r.player)} moves from table {r.from_table} to table {r.to_table}, "
                     f"seat {r.to_seat}, with {r.chips:,} chips ({why})")
            elif isinstance(r, TableBroken):
                tally.broken += 1
                line(f"Table {r.table} breaks")
            elif isinstance(r, Placed):
                won = f" and wins {money(r.prize)}" if r.prize else ""
                line(f"{t.name_of(r.player)} finishes {ordinal(r.place)} of {r.entrants}{won}")
            elif isinstance(r, Finished):
                line(f"{t.name_of(r.winner)} wins the tournament")
            elif text := table_line(r):        # levels, breaks, hand-for-hand, registration's close
                line(text)
    t.listeners.append(hear)
    return tally


def _span(seconds: float, short: bool = False) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    if short:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{hours} h {minutes:02d} min" if hours else f"{minutes} min {secs:02d} s"


def tournament_hands(store, accounts) -> list:
    """Every settled hand the accounts played, in the order they were dealt (each once)."""
    seen = {}
    for account in accounts:
        offset = 0
        while True:
            page = store.hands_for_account(account, limit=500, offset=offset)
            for record in page:
                if record.status == "settled":
                    seen[record.hand_id] = record
            if len(page) < 500:
                break
            offset += 500

    def order(record):
        return (record.started_at, int(record.hand_id) if record.hand_id.isdigit() else 0, record.hand_id)
    return sorted(seen.values(), key=order)


def _write_files(room: Room, t: Tournament, out: Path, write) -> None:
    """The hands (PokerStars text and PHH) and the winner's summary in `out`."""
    out.mkdir(parents=True, exist_ok=True)
    hands = tournament_hands(room.store, {e.player for e in t.director.entries.values()})
    stars = [r.history for r in hands if r.history]
    phhs = [json.loads(r.events_json).get("phh", "") for r in hands if r.events_json]
    (out / "pokerstars.txt").write_text(pokerstars_file(stars), encoding="utf-8")
    (out / "hands.phhs").write_text(phhs_file([p for p in phhs if p]), encoding="utf-8")
    winner = min(t.placed, key=lambda p: p.place).player
    assert isinstance(winner, int)      # in the room a player is his account's id
    (out / "summary.txt").write_text(room.tournaments.summary_text(winner, t.number), encoding="utf-8")
    write(f"wrote {len(stars)} hands to {out / 'pokerstars.txt'} and {out / 'hands.phhs'}, "
          f"the winner's summary to {out / 'summary.txt'}")


__all__ = ["check_players", "default_players", "run_tournament_demo", "tournament_hands"]
