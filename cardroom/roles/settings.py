"""What every way of serving a room (`cardroom serve`, a table host, a gateway) makes of
config.toml for the room: its tables' and its own settings, and the evaluators warmed."""

from __future__ import annotations

from cardroom.config import RoomConfig, TableConfig
from cardroom.engine.evaluation import evaluator
from cardroom.room.room import RoomSettings
from cardroom.room.table import TableSettings


def table_settings(config: RoomConfig, t: TableConfig) -> TableSettings:
    """A table of config.toml as the room's settings record."""
    r = config.room
    return TableSettings(
        name=t.name, variant=t.variant, structure=t.structure(), rules=t.rules(), seats=t.seats,
        action_seconds=float(config.action_seconds_for(t)), countdown_seconds=r.countdown_seconds,
        reconnect_seconds=float(r.reconnect_seconds),
        sit_out_seconds=60.0 * config.sit_out_minutes_for(t), sit_outs_allowed=r.sit_outs_allowed,
        seat_hold_seconds=float(r.seat_hold_seconds),
        min_buy_in=t.min_buy_in or None, max_buy_in=t.max_buy_in, currency=r.currency,
        store_patience=config.server.settle_patience)


def tournament_table_settings(config: RoomConfig) -> TableSettings | None:
    """What every tournament table is like besides its game and stakes (the room's clocks and
    currency); None when config.toml offers no tournament."""
    if not config.tournaments:
        return None
    r, first = config.room, config.tournaments[0]
    return TableSettings(
        name="", variant=first.variant, structure=first.structure(0), seats=first.table_size,
        action_seconds=float(r.action_seconds), countdown_seconds=r.countdown_seconds,
        reconnect_seconds=float(r.reconnect_seconds), currency=r.currency)


def room_settings(config: RoomConfig) -> RoomSettings:
    r = config.room
    return RoomSettings(starting_money=r.starting_money, timeout_allin_quota=r.timeout_allin_quota,
                        chat_max_len=r.chat_max_chars, chat_burst=r.chat_lines,
                        chat_per_second=r.chat_lines / r.chat_per_seconds)


def warm_evaluators(config: RoomConfig) -> None:
    """Build the evaluation tables the tables will use now (about a second), not on the loop in
    the middle of the first hand, where every session would stall for it."""
    for t in (*config.tables, *config.tournaments):
        for order in (t.variant.high, t.variant.low):
            if order:
                evaluator(order)


__all__ = ["room_settings", "table_settings", "tournament_table_settings", "warm_evaluators"]
