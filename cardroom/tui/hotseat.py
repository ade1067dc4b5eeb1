"""Hot-seat play: several local players share one terminal and one app.

The app shows the table through one local player's own client at a time, and only while that
player is the one to act (after a full-screen "Pass to NAME" screen). The rest of the time the
table is drawn from a railbird's copy of the view (`redact_view`): nobody's hidden cards are in
the object the widgets receive, so no screen can show one local player's cards to another.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardroom.room.api import TableView


@dataclass
class HotSeat:
    """The local players (name -> their own RoomClient) sharing one table."""

    clients: dict
    table: str

    def actor(self):
        """The local player whose decision it is now, or None (a bot, a remote player, nobody)."""
        for client in self.clients.values():
            try:
                view = client.view(self.table)
            except Exception:
                continue
            if view.legal is not None and view.my_seat is not None and view.acting_seat == view.my_seat:
                return client
        return None


def redact_view(view: TableView) -> TableView:
    """The view as a railbird would have it: no hidden card of anyone, no private state."""
    seats = tuple(
        replace(s, cards=tuple(c if (u or s.shown) else None for c, u in zip(s.cards, s.up)))
        if s.cards else s
        for s in view.seats)
    return replace(view, seats=seats, my_seat=None, my_cards=(), legal=None, message="",
                   buy_in=None, pending_chips=0, missed_blinds=False, auto_action="ask",
                   sitting_out=False)
