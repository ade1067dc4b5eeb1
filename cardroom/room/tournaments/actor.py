"""One tournament in the room: its director, its tables, its clock and its records.

The director (engine/tournament/director.py) decides; this actor carries out what it decides, on
the room's loop, and keeps the store in step:

- every record at once in memory: tables opened and broken (real `Table`s with the tournament's
  policy, policy.py), players seated and moved with their chips (a move comes between the source
  table's hands; at the new table he waits as the director says), players out, and the dealer's
  words at the tables (levels, breaks, hand-for-hand, pauses);
- every change through the room's writer in one transaction with the director's snapshot
  (`Store.record_tournament`): a hand's end with its places and prizes, a move, a registration,
  the clock's changes, and the clock itself now and then (CHECKPOINT_SECONDS), so a restart
  resumes it where it was (lobby.py restores it; the hands in progress are void);
- what needs the money to be in the balance first (a place and its prize, a refund, a share,
  the winner) is told once the store has it: the player is paged, the room hears the winner.

Registration pays first: the store takes the buy-in and fee under the entry number the director
will give (one registration at a time), then the director enters him; a payment the director
then refuses (it filled or started meanwhile), or one a crash left without its entry, is refunded.

Time is the lobby's: the room's monotonic clock shifted to the epoch (`Tournaments.now`), as the
director's scheduled starts are epoch seconds.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any, Callable, Iterable, Protocol

from cardroom.engine.tournament import (
    RUNNING, BreakStarted, Cancelled, Deal, Director, Eliminated, Finished, HandForHand, Hold,
    LateRegistrationClosed, LevelStarted, Moved, Paused, Placed, Refunded, Registered, Resumed, Seated,
    Shared, Started, TableBroken, TableOpened, TournamentError, TournamentSpec, Unregistered, snapshot,
)
from cardroom.engine.tournament.history import hand_in_tournament
from cardroom.room import api
from cardroom.room.history import public_text, record_of
from cardroom.room.narration import money
from cardroom.room.clock import Clock
from cardroom.room.ports import Refused, Store, TournamentChange, TournamentHandEnd, TournamentRecord
from cardroom.room.seat import Seat
from cardroom.room.settlement import SETTLE_RETRIES, VOID_RETRY_MAX
from cardroom.room.table import Table, TablePolicy, TableSettings
from cardroom.room.tournaments import views, words
from cardroom.room.tournaments.policy import TournamentPolicy
from cardroom.room.writer import Writer

log = logging.getLogger("cardroom.tournament")
TICK_SECONDS = 1.0            # the director's clock is looked at this often
CHECKPOINT_SECONDS = 5.0      # a running clock is saved at least this often (its time left after a crash)
KEEP_TABLES_SECONDS = 300.0   # a finished tournament's tables stay to be looked at this long


class TheRoom(Protocol):
    """What a tournament uses of the room (room.py's `Room`)."""

    store: Store
    clock: Clock
    writer: Writer
    clients: dict[int, list]          # account -> its live sessions (each has notify() and name)

    def page(self, account: int, text: str) -> None: ...
    def broadcast(self, text: str) -> None: ...
    async def write(self, call: Callable[[], Any]) -> Any: ...
    def add_table(self, settings: TableSettings, policy: TablePolicy | None = None) -> Table: ...
    def remove_table(self, table: Table) -> None: ...


class Lobby(Protocol):
    """What a tournament asks of the room's tournaments (lobby.py's `Tournaments`)."""

    room: TheRoom

    def now(self) -> float: ...
    def table_settings(self, spec: TournamentSpec, name: str) -> TableSettings: ...
    def started(self, t: Tournament) -> None: ...
    def ended(self, t: Tournament) -> None: ...


# What changes a tournament's lobby for the players in it (a hand's end alone does not).
_LOBBY_NEWS = (Registered, Unregistered, Started, LevelStarted, BreakStarted, HandForHand, Paused, Resumed,
               LateRegistrationClosed, Placed, Shared, Refunded, Finished, Cancelled)


class Tournament:
    def __init__(self, lobby: Lobby, spec: TournamentSpec, record: TournamentRecord,
                 director: Director) -> None:
        self.lobby = lobby
        self.room = lobby.room
        self.spec = spec
        self.number = record.id
        self.director = director
        self.version = record.version
        self.started_at = record.started_at
        self.finished_at = record.finished_at
        self.tables: dict[int, Table] = {}
        self.deals: dict[int, Deal] = {}          # the hand each table plays now, as dealt
        self.holds: dict[int, str] = {}           # why a table is not dealing now
        self.names: dict[object, str] = {}        # player key (account id) -> name
        self.paid: dict[int, object] = {}         # entry -> player: buy-ins the store holds
        self.placed: list[Placed] = []            # every place given (the summary's)
        # entry -> the hand he went out in (its deal, hand and where), while his place is to come
        self.unplaced: dict[int, tuple] = {}
        self.broken = ""                          # the store refused a record: why (dealing stopped)
        self._lock = asyncio.Lock()               # one registration at a time (its entry number)
        self._timer = None
        self._saved_at = lobby.now()
        self._ranking: tuple = (None, None)

    # ------------------------------------------------------------------ what it is now

    def now(self) -> float:
        return self.lobby.now()

    @property
    def over(self) -> bool:
        return self.director.state in ("finished", "cancelled")

    def name_of(self, player) -> str:
        return self.names.get(player, str(player))

    def summary(self) -> api.TournamentSummary:
        return views.summary(self)

    def view(self, account: int | None) -> api.TournamentView:
        return views.view(self, account)

    def line(self, number: int, account: int | None) -> api.TournamentLine:
        return views.line(self, number, account)

    def ranking(self) -> tuple[dict, int, int]:
        """(player -> rank among the players in, by chips; the average stack; players left), made
        once per change of the tournament (every table's view asks for it)."""
        if self._ranking[0] != self.version:
            alive = sorted(self.director.alive(), key=lambda e: -e.chips)
            ranks = {e.player: i for i, e in enumerate(alive, 1)}
            average = sum(e.chips for e in alive) // len(alive) if alive else 0
            self._ranking = (self.version, (ranks, average, len(alive)))
        return self._ranking[1]

    def table_name(self, number: int) -> str:
        return f"{self.spec.name} #{self.number} table {number}"

    # ------------------------------------------------------------------ after a restart

    def resume(self) -> None:
        """Restored from the store (lobby.py): the entries' names and payments, a payment a crash
        left without its entry refunded, the places given, and the tables with everyone in his
        seat; then its clock runs."""
        d, store = self.director, self.room.store
        stray = []
        entries = store.tournament_entries(self.number)
        for e in entries:
            if e.status != "in":
                continue
            if e.entry in d.entries:
                self.paid[e.entry] = e.account_id
            else:
                stray.append(TournamentChange("refund", e.entry))
            self.names.setdefault(e.account_id, store.get(e.account_id).name)
        d.number_past(max((e.entry for e in entries), default=0))   # a refunded number is not given again
        if stray:
            log.warning("%s #%d: refunding %d payment(s) a crash left without their entry", self.spec.name,
                        self.number, len(stray))
            self.version += 1
            store.record_tournament(self.number, stray, snapshot=json.dumps(snapshot(d, self.now())),
                                    version=self.version)
        prizes = {e.entry: e.prize_cents for e in entries}
        self.placed = [Placed(e.player, e.number, e.place, d.entrants, prizes.get(e.number, 0))
                       for e in d.entries.values() if e.place is not None]
        for number, table in sorted(d.tables().items()):
            self.open_table(number)
            for seat, entry in sorted(table.seats.items()):
                e = d.entries[entry]
                self.seat_player(Seated(e.player, entry, number, seat, e.chips))
        log.info("%s #%d restored: %s, %d entries, %d tables", self.spec.name, self.number, d.state,
                 d.entrants, len(d.tables()))
        self.start_clock()
        self.wake()

    # ------------------------------------------------------------------ the clock

    def start_clock(self) -> None:
        if self._timer is None and not self.over:
            self._timer = self.room.clock.call_later(TICK_SECONDS, self._tick)

    def stop_clock(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _tick(self) -> None:
        self._timer = None
        if self.over:
            return
        now = self.now()
        records = self.director.tick(now)
        if records:
            self.apply(records)
            self.persist(records)
        elif self.director.state == RUNNING and not self.director.paused and now - self._saved_at >= CHECKPOINT_SECONDS:
            self.persist(())          # the clock's time left, for a restart
        self.wake()
        self.start_clock()

    def wake(self) -> None:
        """Tables that may deal now do (after a hand, a tick, a move, a resume)."""
        for t in list(self.tables.values()):
            t.maybe_start()

    def notify(self) -> None:
        """The players registered hear that the tournament changed as its lobby shows it (not at
        every hand: their own table's changes wake them anyway)."""
        for player in {e.player for e in self.director.entries.values()}:
            for client in self.room.clients.get(player, ()):
                client.notify()

    # ------------------------------------------------------------------ the tables' questions

    def deal(self, number: int) -> Deal | Hold:
        if self.broken:
            result: Deal | Hold = Hold(number, f"the card room's records refused the tournament: {self.broken}")
        else:
            result = self.director.deal(number, self.now())
        if isinstance(result, Deal):
            self.deals[number] = result
            self.holds.pop(number, None)
        elif self.holds.get(number) != result.reason:
            self.holds[number] = result.reason
            table = self.tables.get(number)
            if table is not None:
                table.changed()
        return result

    def void(self, number: int) -> None:
        """The hand the director allowed at table `number` was never played (the store refused it)."""
        self.director.void(number)
        self.deals.pop(number, None)
        self.wake()

    def hand_over(self, table: Table, number: int) -> None:
        """Table `number`'s hand is over: the director hears the stacks; the seats, moves and
        eliminations follow at once; the store records the hand with them."""
        hand, deal = table.hand, self.deals.pop(number)
        stacks = {seat: hand.stacks[i] for i, seat in enumerate(table.hand_seats)}
        try:
            records = self.director.hand_ended(number, stacks, self.now())
        except TournamentError:       # a bug: this table stops, the others go on
            log.exception("%s table %d: the director refused the hand's end", self.spec.name, number)
            table.status = "paused"
            table.say("The table is paused: the tournament could not take this hand's end", "system", "Table")
            table.changed()
            return
        about = dict(table=table.name, hand_id=table.hand_id, when=table.hand_started or self.room.clock.wall(),
                     seats=table.settings.seats, currency=table.settings.currency)
        end = self._history(deal, hand, about, records)
        placed = {r.entry for r in records if isinstance(r, Placed)}
        for r in records:       # out, his place to come: his hand's history is written again then
            if isinstance(r, Eliminated) and r.entry not in placed:
                self.unplaced[r.entry] = (deal, hand, about)
        for i, seat_number in enumerate(table.hand_seats):
            seat = table.seats[seat_number]
            seat.stack = hand.stacks[i]
            if seat.timed_out:
                seat.timed_out = False
                seat.sitting_out = True
                seat.message = "you timed out: you are sitting out (checked or folded for); Sit In to play"
        table.recording = frozenset(table.hand_seats)
        table.changed()

        def recorded() -> None:
            table.recording = frozenset()
            table.changed()
            table.maybe_start()
        self.apply(records)
        self.persist(records, hand=end, then=recorded)
        self.wake()

    # ------------------------------------------------------------------ registration

    async def register(self, account: int, name: str) -> int:
        """Enter `account` (RoomError saying why not): his entry's number."""
        d, spec = self.director, self.spec
        self._may_register(account)
        cost = spec.buy_in + spec.fee
        balance = self.room.store.balance(account)
        if balance < cost:
            raise api.RoomError(f"{spec.name} costs {money(spec.buy_in)} + {money(spec.fee)}: "
                                f"you have {money(balance)}")
        async with self._lock:
            self._may_register(account)           # again: it may have filled or started meanwhile
            entry = d.next_entry
            await self.room.write(lambda: self.room.store.enter_tournament(self.number, account, entry))
            self.paid[entry] = account
            self.names[account] = name
            try:
                records = d.register(account, self.now())
            except TournamentError as e:           # it changed while the store took the money
                self.persist([Refunded(account, cost)])
                raise api.RoomError(f"{e}: your buy-in and fee are back in your balance") from None
        log.info("%s #%d: %s registers (entry %d)", spec.name, self.number, name, entry)
        self.apply(records)
        self.persist(records)
        self.wake()
        return entry

    def _history(self, deal: Deal, hand, about: dict, records) -> TournamentHandEnd:
        """A hand's end as the store keeps it: its chips by account, and its histories as a
        tournament's hand with the places `records` give its players."""
        th = hand_in_tournament(self.spec, self.number, deal, records, currency=about["currency"])
        stacks = {self.director.entries[e].player: hand.stacks[i] for i, e in enumerate(deal.entries)}
        return TournamentHandEnd(about["hand_id"], stacks, record_of(hand, **about, tournament=th),
                                 public_text(hand, **about, tournament=th))

    def _amendments(self, records: list) -> list[TournamentHandEnd]:
        """Earlier hands whose players `records` place (a hand-for-hand round's end, late
        registration's close): their histories again, with those places."""
        hands = {}
        for r in records:
            if isinstance(r, Placed) and r.entry in self.unplaced:
                deal, hand, about = self.unplaced.pop(r.entry)
                hands[about["hand_id"]] = (deal, hand, about)
        return [self._history(deal, hand, about, records) for deal, hand, about in hands.values()]

    def _may_register(self, account: int) -> None:
        if self.broken:
            raise api.RoomError(f"{self.spec.name} is stopped: the card room's records refused it")
        try:
            self.director.may_register(account, self.now())
        except TournamentError as e:
            raise api.RoomError(str(e)) from None

    async def unregister(self, account: int) -> None:
        try:
            records = self.director.unregister(account, self.now())
        except TournamentError as e:
            raise api.RoomError(str(e)) from None
        log.info("%s #%d: %s unregisters", self.spec.name, self.number, self.name_of(account))
        await self.persisted(records)

    # ------------------------------------------------------------------ the operator's

    def operate(self, call: Callable[[float], list]) -> list:
        """An operator's call of the director (start, pause, resume, cancel): carried out and
        recorded; TournamentError when it refuses."""
        records = call(self.now())
        self.apply(records)
        self.persist(records)
        self.wake()
        return records

    # ------------------------------------------------------------------ carrying out the records

    def apply(self, records: Iterable) -> None:
        """What the records change in the room's memory, at once."""
        for r in records:
            if isinstance(r, TableOpened):
                self.open_table(r.table)
            elif isinstance(r, Seated):
                self.seat_player(r)
            elif isinstance(r, Moved):
                self._move(r)
            elif isinstance(r, Eliminated):
                self._out(r)
            elif isinstance(r, TableBroken):
                self._close(self.tables.pop(r.table, None))
            elif isinstance(r, Registered):
                self.paid[r.entry] = r.player
            elif isinstance(r, Placed):
                self.placed.append(r)
            elif isinstance(r, Started):
                self.started_at = self.room.clock.wall()
                log.info("%s #%d starts: %d players at %d tables", self.spec.name, self.number, r.entrants, r.tables)
                self.lobby.started(self)
            elif isinstance(r, (Finished, Cancelled)):
                self._over(r)
            text = words.table_line(r)
            if text:
                for t in self.tables.values():
                    t.say(text, "system", "Tournament")
                    t.changed()

    def open_table(self, number: int) -> None:
        settings = self.lobby.table_settings(self.spec, self.table_name(number))
        self.tables[number] = self.room.add_table(settings, policy=TournamentPolicy(self, number))

    def _follow(self, account, table: Table | None, away: Table | None = None) -> None:
        """His sessions watch where he plays now (his screen follows him)."""
        for client in self.room.clients.get(account, ()):
            if away is not None:
                away.unwatch(account)
            if table is not None:
                table.watch(account, client.notify, client.name)

    def seat_player(self, r: Seated) -> None:
        table = self.tables[r.table]
        seat = Seat(r.seat, r.player, self.name_of(r.player))
        seat.stack, seat.owes, seat.bought_in, seat.auto_blind = r.chips, "", True, True
        seat.connected = bool(self.room.clients.get(r.player))
        if not seat.connected:      # away from the start: his clock is the reconnect grace, not the whole
            seat.lost_at = self.room.clock.now()
        table.seats[r.seat] = seat
        table.say(f"{seat.name} sits down in seat {r.seat}", "system", "Table")
        self._follow(r.player, table)
        if self.director.state == RUNNING:
            self.room.page(r.player, f"{self.spec.name}: your seat is {table.name}, seat {r.seat}")
        table.changed()

    def _move(self, r: Moved) -> None:
        source, target = self.tables[r.from_table], self.tables[r.to_table]
        old = source.seats.pop(r.from_seat)
        seat = Seat(r.to_seat, old.account, old.name)
        for field in ("sitting_out", "connected", "lost_at", "auto", "bot", "auto_blind", "message"):
            setattr(seat, field, getattr(old, field))
        seat.stack, seat.owes, seat.bought_in = r.chips, "", True
        target.seats[r.to_seat] = seat
        why = "to balance the tables" if r.reason == "balance" else f"table {r.from_table} breaks"
        log.info("%s #%d: %s moves from table %d to table %d, seat %d (%s)", self.spec.name, self.number,
                 old.name, r.from_table, r.to_table, r.to_seat, r.reason)
        source.say(f"{old.name} moves to table {r.to_table} ({why})", "system", "Tournament")
        target.say(f"{old.name} joins from table {r.from_table}, in seat {r.to_seat}", "system", "Tournament")
        self._follow(old.account, target, away=source)
        self.room.page(old.account, f"{self.spec.name}: you move to {target.name}, seat {r.to_seat}, "
                                    f"with your {r.chips:,} chips ({why})")
        source.changed()
        target.changed()

    def _out(self, r: Eliminated) -> None:
        table = self.tables.get(r.table)
        if table is not None and (seat := table.seats.get(r.seat)) is not None and seat.account == r.player:
            del table.seats[r.seat]
            table.say(f"{seat.name} is out of the tournament", "system", "Tournament")
            table.changed()

    def _close(self, table: Table | None) -> None:
        """A table broken (its players moved) or the tournament over: it deals no more, and
        leaves the room once its last hand is recorded (now, or a while later to be looked at)."""
        if table is None:
            return
        table.stop()
        if self.over:
            self.room.clock.call_later(KEEP_TABLES_SECONDS, lambda: self.room.remove_table(table))
        else:
            self.room.remove_table(table)

    def _over(self, r) -> None:
        self.finished_at = self.room.clock.wall()
        self.stop_clock()
        log.info("%s #%d is %s", self.spec.name, self.number, self.director.state)
        for table in list(self.tables.values()):
            if table.hand is not None and not table.hand.over:      # cancelled mid-hand: void
                hand_id = table.hand_id
                self.room.writer.submit(
                    lambda h=hand_id: self.room.store.void_hand(h, "the tournament was cancelled"),
                    lambda _, e, h=hand_id: e and log.error("voiding hand %s failed: %s", h, e))
            self._close(table)
        self.lobby.ended(self)

    # ------------------------------------------------------------------ the store

    def changes(self, records: Iterable) -> list[TournamentChange]:
        """What the records do to the tournament's money and entries, for the store."""
        out = []
        for r in records:
            if isinstance(r, Started):
                out.append(TournamentChange("start"))
            elif isinstance(r, (Unregistered, Refunded)):
                entry = max(e for e, p in self.paid.items() if p == r.player)
                del self.paid[entry]
                out.append(TournamentChange("refund", entry))
            elif isinstance(r, Placed):
                out.append(TournamentChange("prize", r.entry, r.place, r.prize))
            elif isinstance(r, Shared):
                out.append(TournamentChange("share", r.entry, None, r.amount))
            elif isinstance(r, Finished):
                out.append(TournamentChange("finish"))
            elif isinstance(r, Cancelled):
                out.append(TournamentChange("cancel"))
        return out

    def persist(self, records: Iterable, *, hand: TournamentHandEnd | None = None,
                then: Callable[[], None] | None = None, done: Callable[[Exception | None], None] | None = None) -> None:
        """Record the records' changes and the director's snapshot now (one transaction, through
        the writer), then tell what needed the money first. A failure is tried again (the
        changes apply once); a refusal stops the tournament's dealing (a bug: the operator's)."""
        records = list(records)
        changes = self.changes(records)
        now = self.now()
        self.version += 1
        version, self._saved_at = self.version, now
        text = json.dumps(snapshot(self.director, now))
        store = self.room.store

        amend = self._amendments(records)

        def write() -> None:
            store.record_tournament(self.number, changes, snapshot=text, version=version, hand=hand, amend=amend)

        def answer(_, error: Exception | None, tries: int = 0) -> None:
            if error is None:
                if then is not None:
                    then()
                self._announce(records)
            elif isinstance(error, Refused):
                log.error("%s #%d: the store refused its records: %s", self.spec.name, self.number, error)
                self.broken = str(error)
                for t in self.tables.values():
                    t.say(f"The tournament has stopped: its records were refused ({error})", "system", "Tournament")
                    t.changed()
            else:
                log.error("%s #%d: recording failed (try %d): %s", self.spec.name, self.number, tries + 1, error)
                delay = SETTLE_RETRIES[tries] if tries < len(SETTLE_RETRIES) else VOID_RETRY_MAX
                self.room.clock.call_later(delay, lambda: self.room.writer.submit(
                    write, lambda r, e: answer(r, e, tries + 1)))
                return
            if done is not None:
                done(error)

        self.room.writer.submit(write, answer)

    async def persisted(self, records: Iterable) -> None:
        """`persist`, awaited: RoomError if the store refused it."""
        future = asyncio.get_running_loop().create_future()
        self.persist(records, done=lambda error: future.done() or future.set_result(error))
        error = await future
        if error is not None:
            raise api.RoomError(f"the card room's records refused it: {error}")

    def _announce(self, records: list) -> None:
        """What the players hear once the store has the money."""
        for r in records:
            text = words.page(self.spec.name, r)
            if text:
                self.room.page(r.player, text)
            elif isinstance(r, Finished):
                self.room.broadcast(words.result(self.spec.name, self.number, self.placed, self.name_of))
        if any(isinstance(r, _LOBBY_NEWS) for r in records):
            self.notify()


__all__ = ["CHECKPOINT_SECONDS", "TICK_SECONDS", "Lobby", "TheRoom", "Tournament"]
