"""A player's own hand histories: the stored hand, with others' cards only where they were shown."""

from __future__ import annotations

import json
from dataclasses import dataclass

from cardroom.engine import events as ev
from cardroom.engine.views import redact
from cardroom.room.api import RoomError


@dataclass(frozen=True, slots=True)
class PlayerHand:
    hand_id: str
    table: str
    started_at: object
    status: str
    me: int                      # my player index in the hand
    seats: tuple                 # SeatStack records, in player order
    events: tuple                # redacted for me
    rake: int

    def streets(self) -> list[list]:
        """The events cut into streets (a new street at each RoundStarted or DrawStarted)."""
        out: list[list] = [[]]
        for e in self.events:
            if isinstance(e, (ev.RoundStarted, ev.DrawStarted)) and out[-1]:
                out.append([])
            out[-1].append(e)
        return out


def player_history(store, hand_id: str, account: int) -> PlayerHand:
    record = store.get_hand(hand_id)
    if record is None:
        raise RoomError(f"there is no hand #{hand_id}")
    seats = tuple(sorted(record.seats, key=lambda s: s.seat))
    mine = [i for i, s in enumerate(seats) if s.account_id == account]
    if not mine:
        raise RoomError(f"you did not play hand #{hand_id}")
    me = mine[0]
    events = ev.from_json_list(json.loads(record.events_json)) if record.events_json else []
    return PlayerHand(record.hand_id, record.table, record.started_at, record.status, me, seats,
                      tuple(redact(e, me) for e in events), record.rake_cents)
