"""Hot-seat play: several local players share one terminal and one app.

The app shows the table through one local player's own client at a time, and only while that
player is the one to act (after a full-screen "Pass to NAME" screen). The rest of the time the
table is drawn from a railbird's copy of the view (`redact_view`): nobody's hidden cards are in
the object the widgets receive, so no screen can show one local player's cards to another.
A single local player against bots keeps his own view throughout and is never asked to pass.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from cardroom.room.api import TableView


@dataclass
class HotSeat:
    """The local players (name -> their own RoomClient) sharing one table."""

    clients: dict
    table: str

    @property
    def solo(self) -> bool:
        """One local player (with bots): his own view all the time, never a pass screen."""
        return len(self.clients) == 1

    def actor(self):
        """The local player whose decision it is now, or None (a bot, a remote player, nobody)."""
        for client in self.clients.values():
            try:
                view = client.view(self.table)
            except Exception:
                continue
            if view.my_seat is None:
                continue
            if view.legal is not None and view.acting_seat == view.my_seat:
                return client
            if view.blind_prompt:        # Auto Blind off: asked to post before the deal
                return client
        return None


def redact_view(view: TableView) -> TableView:
    """The view as a railbird would have it: no hidden card of anyone, no private state."""
    seats = tuple(
        replace(s, cards=tuple(c if (u or s.shown) else None for c, u in zip(s.cards, s.up)))
        if s.cards else s
        for s in view.seats)
    return replace(view, seats=seats, my_seat=None, my_cards=(), legal=None, message="",
                   buy_in=None, pending_chips=0, table_chips=0, missed_blinds=False, missed_posts=(0, 0),
                   auto_action="ask", sitting_out=False, blind_prompt=0)


def seat_hotseat(room, table: str, players: list[str], bots: int, *, buy_in: int | None = None,
                 seed: int | None = None) -> HotSeat:
    """Connect and seat the local players and `bots` practice bots at `table` (must run on the loop
    the room's clock uses: seating may schedule the first hand)."""
    import random
    clients = {}
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    t = room.tables[table]

    def sit(client) -> None:
        client.join(table)
        lo, hi, default = client.view(table).buy_in
        client.buy_in(table, buy_in if buy_in is not None else min(default, max(lo, 10 * lo)))

    for name in players:
        client = room.connect(name)
        clients[name] = client
    for i in range(bots):
        bot = room.connect(f"bot{i + 1}")
        sit(bot)
        t.make_bot(bot.account_id, random.Random(rng.randrange(2**32)))
    for client in clients.values():
        sit(client)
    return HotSeat(clients, table)


async def run_hotseat(room, table: str, players: list[str], bots: int, *, buy_in: int | None = None,
                      seed: int | None = None, options=None) -> None:
    """The whole hot-seat session: seat everyone, run one app until it quits. SIGTERM, or SIGHUP
    (the terminal closed), quits it as Ctrl-Q does: the terminal is restored and the caller's
    clean-up (closing the database, releasing its folder) runs, where the default would end the
    process on the spot."""
    import asyncio
    import signal

    from cardroom.tui.app import build_app
    hotseat = seat_hotseat(room, table, players, bots, buy_in=buy_in, seed=seed)
    first = next(iter(hotseat.clients.values()))
    app = build_app(first, hotseat=hotseat, options=options)
    loop = asyncio.get_running_loop()
    quits = (signal.SIGTERM, signal.SIGHUP)
    for sig in quits:
        loop.add_signal_handler(sig, app.exit)
    try:
        await app.run_async()
    finally:
        for sig in quits:
            loop.remove_signal_handler(sig)
        for client in hotseat.clients.values():
            client.close()
