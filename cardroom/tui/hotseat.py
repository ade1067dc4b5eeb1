"""Hot-seat play: several local players share one terminal and one app.

The app shows the table through one local player's own client at a time, and only while that
player is the one to act (after a full-screen "Pass to NAME" screen). The rest of the time the
table is drawn from a railbird's copy of the view (`redact_view`): nobody's hidden cards are in
the object the widgets receive, so no screen can show one local player's cards to another.
A single local player against bots keeps his own view throughout and is never asked to pass.
In a tournament (`follow`) the room moves the players between tables: the screen shows the table
of the local player whose turn it is, else of the one at the device, else of the first one still
in, and changes when that does.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Awaitable, Callable

from cardroom.room.api import TableView
from cardroom.room.client import as_client
from cardroom.tui.app import CardroomApp
from cardroom.tui.options import UIOptions


@dataclass
class HotSeat:
    """The local players (name -> their own RoomClient) sharing one table (the one on the screen);
    in a tournament (`follow`) each plays wherever the room seats him."""

    clients: dict
    table: str
    follow: bool = False

    def table_of(self, client) -> str:
        """Where `client`'s player plays now (out of a tournament: the table on the screen)."""
        if self.follow:
            tables = client.my_tables()
            if tables:
                return tables[0]
        return self.table

    @property
    def solo(self) -> bool:
        """One local player (with bots): his own view all the time, never a pass screen."""
        return len(self.clients) == 1

    def actor(self):
        """The local player whose decision it is now, or None (a bot, a remote player, nobody)."""
        for client in self.clients.values():
            try:
                view = client.view(self.table_of(client))
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
    # A tournament's line is a railbird's too: no rank of whoever last held the device.
    line = replace(view.tournament, my_rank=None) if view.tournament is not None else None
    return replace(view, seats=seats, my_seat=None, my_cards=(), legal=None, message="", tournament=line,
                   buy_in=None, pending_chips=0, table_chips=0, missed_blinds=False, missed_posts=(0, 0),
                   auto_action="ask", sitting_out=False, blind_prompt=0, decision="")


class SharedTerminal:
    """The device of a shared terminal (tui/device.py): the table through the client of the local
    player who has taken it (after the pass screen), else as a railbird sees it."""

    shared = True

    def __init__(self, hotseat: HotSeat, client, *, warn: Callable[..., object],
                 after_act: Callable[[], Awaitable[None]]) -> None:
        self.hotseat = hotseat
        self.client = client          # the last local player to take the device (the first at the start)
        self.revealed = None          # the local player whose cards may be shown now
        self._warn = warn             # tells whoever is at the keyboard (the app's notify)
        self._after_act = after_act   # what follows a decision: the app's pass-screen check

    def take(self, client) -> None:
        """`client`'s player has taken the device (the pass screen answered): his own view."""
        self.client = client
        self.revealed = client

    def who(self) -> str:
        return self.revealed.name if self.revealed is not None else ""

    def view(self, table: str) -> TableView:
        """A railbird's copy unless the player whose view it is has taken the seat (after the
        pass screen)."""
        if self.revealed is None:
            return redact_view(self.client.view(table))
        return self.client.view(table)

    def now(self) -> float:
        return self.client.now()

    def private_ok(self) -> bool:
        if self.revealed is None:
            self._warn("Not now: wait for your turn", severity="warning")
            return False
        return True

    async def acted(self) -> None:
        """After a local player's decision: hide their cards until the next pass screen."""
        if not self.hotseat.solo:
            self.revealed = None
        await self._after_act()


class HotSeatApp(CardroomApp):
    """The app of a shared terminal: the table of `hotseat`, drawn through the client of the
    local player whose turn it is (after the pass screen), else as a railbird sees it. No
    welcome, lobby, keys or kept preferences (those are one person's)."""

    device: SharedTerminal          # the one it builds (CardroomApp's is any Device)

    def __init__(self, hotseat: HotSeat, *, options: UIOptions | None = None) -> None:
        # Its own copy: the players' RoomClients (a Session given is wrapped), the caller's untouched.
        hotseat = replace(hotseat, clients={name: as_client(c) for name, c in hotseat.clients.items()})
        first = next(iter(hotseat.clients.values()))
        device = SharedTerminal(hotseat, first, warn=self.notify, after_act=self._hotseat_check)
        super().__init__(first, options=options, device=device)
        self.hotseat = hotseat

    @property
    def revealed(self):
        """The local player whose cards may be shown now (the device's), or None."""
        return self.device.revealed

    async def _start(self) -> None:
        from cardroom.tui.screens.table import TableScreen
        clients = list(self.hotseat.clients.values())
        for c in clients:
            c.on_change(self._room_changed)
        for c in clients:
            await c.watch(self.hotseat.table)
        if self.hotseat.solo:
            self.device.revealed = self.client   # one person and bots: nobody to hide his cards from
        self.push_screen(TableScreen(self.hotseat.table, self.device, self.options))
        await self._hotseat_check()

    def share_key(self):
        return None       # a shared terminal's screen is nobody else's

    def _session_ended(self) -> bool:
        return False

    async def _room_checks(self) -> None:
        await self._hotseat_check()

    def _player_tables(self, ask) -> list[str]:
        return []         # one table, no multi-tabling

    def _keeper(self):
        """The one local player's preferences; a screen passed between several people keeps nobody's."""
        return self.client if self.hotseat.solo else None

    async def _hotseat_check(self) -> None:
        from cardroom.tui.screens.pass_device import PassScreen
        actor = self.hotseat.actor()
        await self._follow(actor)
        if self.hotseat.solo:
            # The one local player keeps the screen: no pass screen, his own view throughout.
            if actor is not None:
                await actor.ready(self.hotseat.table)
            return
        if actor is not None and actor is self.revealed:
            await actor.ready(self.hotseat.table)   # a new decision of the player at the device: their clock
            return
        if self.revealed is not None and actor is not self.revealed:
            self.device.revealed = None   # the decision moved on (a timeout, a leave): hide
        screen = self.screen
        passing = isinstance(screen, PassScreen)
        if actor is None:
            if passing:
                self.pop_screen()
            return
        self._forget_toasts()
        if isinstance(screen, PassScreen):
            screen.set_player(actor)
            return
        while len(self.screen_stack) > 2:   # close any dialog of the previous player
            self.pop_screen()
        self.push_screen(PassScreen(actor), self._taken)

    async def _follow(self, actor) -> None:
        """A tournament's table on the screen: the actor's, else the player's at the device, else
        the first local player's still in; another one replaces the table screen (and whatever
        was over it: a dialog, the pass screen, which the check then puts up again if needed)."""
        from cardroom.tui.screens.table import TableScreen
        hs = self.hotseat
        if not hs.follow:
            return
        who = actor or self.revealed or next((c for c in hs.clients.values() if c.my_tables()), None)
        table = hs.table_of(who) if who is not None else hs.table
        if table == hs.table:
            return
        hs.table = table
        for c in hs.clients.values():
            await c.watch(table)
        while len(self.screen_stack) > 2:
            self.pop_screen()
        self.switch_screen(TableScreen(table, self.device, self.options))

    def _forget_toasts(self) -> None:
        """What the previous player was told is his ("You post the blind of $2" stayed on the next
        player's screen, issue 35): the device is passed, and taken, with no toast on it. A toast
        is a message to the app, so those on their way are cleared once they have arrived too."""
        self.clear_notifications()
        self.call_later(self.clear_notifications)

    async def _taken(self, client) -> None:
        if client is None:
            return
        self._forget_toasts()
        if self.hotseat.actor() is client:
            self.device.take(client)
            await client.ready(self.hotseat.table)   # the clock starts now, not while the device was passed
        refresh = getattr(self.screen, "refresh_from_room", None)
        if refresh is not None:
            refresh()


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


async def seat_hotseat_tournament(room, tournament, players: list[str], *, seed: int | None = None) -> HotSeat:
    """Register the local players and practice bots (in the seats left) for `tournament`, a sit &
    go open for registration (room/tournaments' `Tournament`): the last entry starts it, which
    seats everyone; the bots play wherever they are seated, the local players' screen follows
    them from table to table. Runs on the loop the room's clock uses."""
    import random

    from cardroom.engine.tournament import Seated

    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    t = tournament
    bots = [room.connect(f"bot{i + 1}") for i in range(t.spec.seats - len(players))]
    bot_ids = {b.account_id for b in bots}

    def seat_bots(records: list) -> None:
        for r in records:
            if isinstance(r, Seated) and r.player in bot_ids:
                t.tables[r.table].make_bot(r.player, random.Random(rng.randrange(2**32)))
    t.listeners.append(seat_bots)
    clients = {name: room.connect(name) for name in players}
    for session in [*bots, *clients.values()]:
        await as_client(session).register(t.number)
    first = next(iter(clients.values()))
    return HotSeat(clients, (first.my_tables() or [t.table_name(1)])[0], follow=True)


async def run_hotseat(room, table: str, players: list[str], bots: int, *, buy_in: int | None = None,
                      seed: int | None = None, options=None) -> None:
    """The whole hot-seat session: seat everyone, run one app until it quits."""
    await play_hotseat(seat_hotseat(room, table, players, bots, buy_in=buy_in, seed=seed), options=options)


async def play_hotseat(hotseat: HotSeat, *, options=None) -> None:
    """Run one app for the seated `hotseat` until it quits. SIGTERM, or SIGHUP (the terminal
    closed), quits it as Ctrl-Q does: the terminal is restored and the caller's clean-up (closing
    the database, releasing its folder) runs, where the default would end the process on the spot."""
    import asyncio
    import signal

    app = HotSeatApp(hotseat, options=options)
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
