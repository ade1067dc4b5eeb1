"""A running tournament as plain data (JSON's types), and back: the room stores it with every
hand's end so that after a crash the tournament goes on with the same players, chips, places,
level and time left. A hand in progress at the snapshot is void (its players have the chips they
started it with, which are the director's), and the time between the snapshot and the restart
does not count: the clock goes on from where it was.
"""

from __future__ import annotations

from typing import Any

from cardroom.engine.tournament.balancing import Entry, Rng, Table
from cardroom.engine.tournament.director import Director
from cardroom.engine.tournament.places import Out
from cardroom.engine.tournament.seats import Plan
from cardroom.engine.tournament.spec import TournamentSpec

VERSION = 1


def snapshot(d: Director, now: float) -> dict[str, Any]:
    in_hand = {n for n, t in d.floor.tables.items() if t.hand is not None}
    return {
        "version": VERSION, "name": d.spec.name, "state": d.state, "starts_at": d.starts_at,
        "clock": d.elapsed(now), "paused": d.paused, "stage": list(d._stage), "final": d.final,
        "worst": d._worst, "hands": d.hands, "paid": d.paid, "numbered": d._numbered,
        "hand_for_hand": d.hand_for_hand, "round": sorted(d._round - in_hand),
        "round_out": [[o.entry, o.chips] for o in d._round_out],
        "pending": [[[o.entry, o.chips] for o in outs] for outs in d._pending],
        "entries": [[e.number, e.player, e.chips, e.out, e.place] for e in d.entries.values()],
        "opened": d.floor.opened,
        "tables": [{"number": t.number, "seats": sorted(t.seats.items()),
                    "last": _plan(t.last), "new": sorted(t.new), "waiting": sorted(t.waiting),
                    "vacated": t.vacated} for t in d.floor.tables.values()],
    }


def restore(spec: TournamentSpec, data: dict[str, Any], rng: Rng, now: float) -> Director:
    if data.get("version") != VERSION or data.get("name") != spec.name:
        raise ValueError(f"not a snapshot of {spec.name!r} (version {VERSION})")
    d = Director(spec, rng, starts_at=data["starts_at"])
    d.state, d.paused, d.final = data["state"], data["paused"], data["final"]
    d._clock_at, d._clock = now, float(data["clock"])
    d._stage = tuple(data["stage"])
    d._worst, d.hands, d.paid, d._numbered = data["worst"], data["hands"], data["paid"], data["numbered"]
    d.hand_for_hand, d._round = data["hand_for_hand"], set(data["round"])
    d._round_out = [Out(e, c) for e, c in data["round_out"]]
    d._pending = [[Out(e, c) for e, c in outs] for outs in data["pending"]]
    d.entries = {n: Entry(n, player, chips, out, place) for n, player, chips, out, place in data["entries"]}
    d.floor.opened = data["opened"]
    for t in data["tables"]:
        table = d.floor.tables[t["number"]] = Table(
            t["number"], {s: e for s, e in t["seats"]}, _unplan(t["last"]), set(t["new"]), set(t["waiting"]),
            t["vacated"])
        for seat, entry in table.seats.items():
            d.floor.entry_of[entry] = (table.number, seat)
    return d


def _plan(p: Plan | None) -> list[Any] | None:
    return None if p is None else [p.button, p.small_blind, p.big_blind, list(p.dealt), p.small_blind_seat]


def _unplan(p: list[Any] | None) -> Plan | None:
    return None if p is None else Plan(p[0], p[1], p[2], tuple(p[3]), p[4])
