"""A player's tournament summaries (PokerStars' "PokerStars Tournament #N" files: his buy-in,
the entrants, the prize pool, the places, his own), made from the store alone: the tournament's
last snapshot, its entries' places and prizes, and its config.toml block (`specs`, by name). Pure
reads: safe off the loop (the SFTP folder builds them on a thread).

    summaries(store, specs, account, currency)      -> {day: {"tournament-42.txt": text}}
    summary_of(store, specs, account, 42, currency) -> text (RoomError: not his, not started)

A tournament is filed under the UTC day it started, beside that day's hands; one not started
yet, or whose block is gone from config.toml, has none.
"""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Mapping
from datetime import UTC, date

from cardroom.engine.pokerstars_summary import tournament_summary
from cardroom.engine.tournament import Placed, TournamentSpec, restore
from cardroom.engine.tournament.history import tournament_result
from cardroom.room.api import RoomError
from cardroom.room.ports import TournamentRecord

log = logging.getLogger("cardroom.tournament")


def file_name(number: int) -> str:
    return f"tournament-{number}.txt"


def _text(store, spec: TournamentSpec, record: TournamentRecord, account: int, currency: str) -> str:
    director = restore(spec, json.loads(record.snapshot), random.Random(0), 0.0)
    entries = store.tournament_entries(record.id)
    placed = [Placed(e.account_id, e.entry, e.place, director.entrants, e.prize_cents)
              for e in entries if e.place is not None and e.entry in director.entries]
    names = {e.player: store.get(e.player).name for e in director.entries.values()}
    result = tournament_result(director, record.id, placed, started=record.started_at,
                               finished=record.finished_at, currency=currency, names=names)
    return tournament_summary(result, names[account])


def summaries(store, specs: Mapping[str, TournamentSpec], account: int, currency: str) -> dict[date, dict[str, str]]:
    out: dict[date, dict[str, str]] = {}
    for record in store.tournaments_of(account):
        spec = specs.get(record.name)
        if spec is None or record.started_at is None:
            continue
        try:
            text = _text(store, spec, record, account, currency)
        except Exception:      # noqa: BLE001 - one summary that fails costs that file, never the folder
            log.exception("the summary of tournament #%d for account %s failed", record.id, account)
            continue
        out.setdefault(record.started_at.astimezone(UTC).date(), {})[file_name(record.id)] = text
    return out


def summary_of(store, specs: Mapping[str, TournamentSpec], account: int, number: int, currency: str) -> str:
    record = next((r for r in store.tournaments_of(account) if r.id == number), None)
    if record is None:
        raise RoomError(f"you did not play tournament #{number}")
    if record.started_at is None:
        raise RoomError(f"tournament #{number} has not started: its summary comes with its start")
    spec = specs.get(record.name)
    if spec is None:
        raise RoomError(f"tournament #{number} ({record.name}) is no longer offered: its summary is gone")
    return _text(store, spec, record, account, currency)


__all__ = ["file_name", "summaries", "summary_of"]
