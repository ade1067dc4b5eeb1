"""`cardroom serve` builds the room's tournaments from config.toml: every block opens for
registration at start, and a restart resumes those the store holds instead of opening more."""

from pathlib import Path

from cardroom.config import load_config
from cardroom.room.actions import Register
from cardroom.room.clock import LoopClock
from cardroom.serve import build_room

CONFIG = Path(__file__).resolve().parents[1] / "config.toml"


async def test_serve_opens_each_tournament_of_config_toml_and_a_restart_resumes_them(tmp_path):
    config = load_config(CONFIG)
    names = [t.name for t in config.tournaments]
    assert {"Sit & Go Hold'em 9", "Draw Lo Sit & Go", "45-Player Sit & Go", "Hourly PLO"} <= set(names)
    room, store = build_room(config, tmp_path, LoopClock())
    try:
        rows = room.tournaments.summaries()
        assert [r.name for r in rows] == names and {r.state for r in rows} == {"registering"}
        hourly = next(r for r in rows if r.name == "Hourly PLO")
        assert hourly.kind == "scheduled" and 0 < hourly.starts_in <= 3600
        ann = await room.login("ann")
        assert await ann.ask(Register(rows[0].number)) == 1
    finally:
        room.close()
        room.writer.close()
        store.close()
    room, store = build_room(config, tmp_path, LoopClock())
    try:
        again = room.tournaments.summaries()
        assert [(r.number, r.entries) for r in again] == [(r.number, r.entries + (r is rows[0])) for r in rows]
    finally:
        room.close()
        room.writer.close()
        store.close()
