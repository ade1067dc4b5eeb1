"""The tournament director: registration, the start, every hand's end, the clock, and the end.

A state machine the room drives and obeys. Every call takes the time as a number (seconds, the
room's clock) and returns what changed as records (records.py) for the room to execute, persist
and announce; a call that is refused raises TournamentError and changes nothing. Given the same
calls and the same injected random source it does the same things.

The room, for each tournament table:
- asks `deal(table, now)` before each hand: a `Deal` (who is dealt, the button and blinds, the
  level's structure) or a `Hold` (a break, a pause, hand-for-hand, too few players);
- reports `hand_ended(table, {seat: chips}, now)` after it (`void(table)` if it was never played);
- calls `tick(now)` every second or so (levels, breaks, a scheduled start, late registration's end).
`snapshot.snapshot(director, now)` / `snapshot.restore(...)` keep a tournament across a crash:
hands in progress are void and it goes on with the same players, chips, level and time left.
"""

from __future__ import annotations

from dataclasses import replace

from cardroom.engine.tournament.balancing import Entry, Floor, Rng, Table
from cardroom.engine.tournament.levels import Stage
from cardroom.engine.tournament.payouts import pool, share_by_chips
from cardroom.engine.tournament.places import Out, award
from cardroom.engine.tournament.records import (
    BreakStarted, Cancelled, Deal, Eliminated, Finished, HandForHand, Hold, LateRegistrationClosed,
    LevelStarted, Paused, Placed, Player, Refunded, Registered, Resumed, Shared, Standing, Started,
    Unregistered,
)
from cardroom.engine.tournament.seats import Plan
from cardroom.engine.tournament.spec import SCHEDULED, SIT_AND_GO, TournamentSpec

REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"


class TournamentError(ValueError):
    """A call the tournament refuses (the message says why, for the player or the operator)."""


class Director:
    def __init__(self, spec: TournamentSpec, rng: Rng, *, starts_at: float | None = None) -> None:
        self.spec = spec
        self.state = REGISTERING
        self.starts_at = starts_at if starts_at is not None else (
            spec.start if spec.kind == SCHEDULED else None)
        self.entries: dict[int, Entry] = {}
        self.floor = Floor(spec.table_size, spec.variant.bring_in, rng)
        self.paused = False
        self.hand_for_hand = False
        self.final = False              # the entrants are known: late registration is over
        self.hands = 0
        self.paid = 0                   # prizes given so far, cents
        self._numbered = 0
        self._clock_at = 0.0            # the room's time when the clock was last set
        self._clock = 0.0               # seconds of play at _clock_at
        self._stage = (0, False)        # the stage last announced
        self._worst = 0                 # the worst place not given yet
        self._pending: list[list[Out]] = []   # out during late registration, in order
        self._round: set[int] = set()   # tables that dealt in this hand-for-hand round
        self._round_out: list[Out] = []

    # ------------------------------------------------------------------ what it is now

    @property
    def entrants(self) -> int:
        return len(self.entries)

    @property
    def pool(self) -> int:
        """The prize pool (cents): every entry's buy-in and what the house adds."""
        return pool(self.spec.buy_in, self.entrants, self.spec.added)

    def prizes(self) -> tuple[int, ...]:
        """The prize of each paid place for the entries so far, first place first."""
        return self.spec.payouts.prizes(self.pool, self.entrants)

    def alive(self) -> list[Entry]:
        return [e for e in self.entries.values() if not e.out]

    def elapsed(self, now: float) -> float:
        """Seconds of play: the clock runs from the start, stops while paused and at the end."""
        if self.state != RUNNING or self.paused:
            return self._clock
        return self._clock + max(0.0, now - self._clock_at)

    def stage(self, now: float) -> Stage:
        return self.spec.schedule.stage(self.elapsed(now))

    def late_registration_open(self, now: float) -> bool:
        ends = self.spec.late_registration_ends
        return self.state == RUNNING and not self.final and ends is not None and self.elapsed(now) < ends

    @property
    def round_open(self) -> bool:
        """Hand-for-hand, and its round is not over (tables are balanced when it is)."""
        return self.hand_for_hand and not self._round_over()

    def tables(self) -> dict[int, Table]:
        return self.floor.tables

    def standings(self) -> list[Standing]:
        """Players in, most chips first, then players out, best place first."""
        seat = self.floor.entry_of
        rows = [Standing(e.player, e.number, e.chips, *seat.get(e.number, (None, None)), e.place)
                for e in self.entries.values()]
        return sorted(rows, key=lambda r: (r.chips == 0, -r.chips, r.place or 0, r.entry))

    # ------------------------------------------------------------------ registration

    @property
    def next_entry(self) -> int:
        """The number the next entry will have (the room takes its buy-in under it first)."""
        return self._numbered + 1

    def number_past(self, number: int) -> None:
        """Entry numbers up to `number` are spoken for (the room refunded a payment made under one
        that a crash left without its entry): the next entry is numbered after them."""
        self._numbered = max(self._numbered, number)

    def may_register(self, player: Player, now: float) -> None:
        """TournamentError (saying why) unless `register(player, now)` would take him now; changes
        nothing."""
        spec = self.spec
        if self.state in (FINISHED, CANCELLED):
            raise TournamentError(f"{spec.name} is {self.state}")
        mine = [e for e in self.entries.values() if e.player == player]
        if any(not e.out for e in mine):
            raise TournamentError(f"you are already in {spec.name}")
        if spec.capacity is not None and self.entrants >= spec.capacity:
            raise TournamentError(f"{spec.name} is full")
        if self.state == RUNNING:
            if not self.late_registration_open(now):
                raise TournamentError(f"registration for {spec.name} is closed")
            if len(mine) > spec.reentries:
                raise TournamentError("no re-entries left" if spec.reentries else f"{spec.name} is a freezeout")

    def register(self, player: Player, now: float) -> list:
        """Enter `player` (take his buy-in and fee): before the start, or in late registration
        (a re-entry when he is out and `reentries` allows). A sit & go starts when it is full."""
        spec = self.spec
        self.may_register(player, now)
        mine = [e for e in self.entries.values() if e.player == player]
        # No clock here (tick's): a start or cancellation due now must not be lost to a refusal.
        entry = self._enter(player)
        records: list = [Registered(player, entry.number, spec.buy_in, spec.fee, reentry=bool(mine))]
        if self.state == RUNNING:
            self.floor.seat_newcomer(entry, records)
            self.floor.balance(self.entries, records)
        elif spec.kind == SIT_AND_GO and self.entrants == spec.seats:
            records += self._start(now)
        return records

    def unregister(self, player: Player, now: float) -> list:
        """Before the start only: the buy-in and fee go back."""
        if self.state != REGISTERING:
            raise TournamentError(f"{self.spec.name} has started: nobody leaves with his chips")
        entry = next((e for e in self.entries.values() if e.player == player), None)
        if entry is None:
            raise TournamentError(f"you are not registered for {self.spec.name}")
        del self.entries[entry.number]
        return [Unregistered(player, self.spec.buy_in + self.spec.fee)]

    def _enter(self, player: Player) -> Entry:
        self._numbered += 1
        entry = self.entries[self._numbered] = Entry(self._numbered, player, self.spec.starting_chips)
        return entry

    # ------------------------------------------------------------------ the start and the clock

    def start(self, now: float) -> list:
        """Start now (the operator's `start NAME now`), with whoever has registered."""
        if self.state != REGISTERING:
            raise TournamentError(f"{self.spec.name} is {self.state}, not registering")
        if self.entrants < 2:
            raise TournamentError(f"{self.spec.name} needs two players to start")
        return self._start(now)

    def _start(self, now: float) -> list:
        self.state = RUNNING
        self._clock_at, self._clock = now, 0.0
        records: list = []
        self.floor.draw(self.entries, records)
        records.insert(0, Started(self.entrants, len(self.floor.tables)))
        records.append(LevelStarted(1, self.spec.schedule.levels[0]))
        if self.spec.late_registration_ends is None:
            self.final, self._worst = True, self.entrants
        self._after(records, now)
        return records

    def tick(self, now: float) -> list:
        """The clock: a scheduled start (or its cancellation), level and break changes, the end
        of late registration."""
        return self._advance(now)

    def _advance(self, now: float) -> list:
        records: list = []
        if self.state == REGISTERING and self.starts_at is not None and now >= self.starts_at:
            if self.entrants < max(2, self.spec.min_players):
                return self._cancel(f"fewer than {max(2, self.spec.min_players)} players registered", now)
            records += self._start(now)
        if self.state != RUNNING:
            return records
        stage = self.stage(now)
        if (stage.level, stage.on_break) != self._stage:
            self._stage = (stage.level, stage.on_break)
            records.append(BreakStarted(stage.level + 1, self.spec.schedule.break_minutes) if stage.on_break
                           else LevelStarted(stage.level + 1, self.spec.schedule.levels[stage.level]))
        ends = self.spec.late_registration_ends
        if not self.final and ends is not None and self.elapsed(now) >= ends:
            self._close_registration(records)
            self._after(records, now)
        return records

    def pause(self, now: float) -> list:
        """Stop the clock and the dealing; hands in progress finish."""
        if self.state != RUNNING or self.paused:
            raise TournamentError(f"{self.spec.name} is not running" if self.state != RUNNING
                                  else f"{self.spec.name} is already paused")
        records = self._advance(now)
        self._clock, self.paused = self.elapsed(now), True
        return [*records, Paused()]

    def resume(self, now: float) -> list:
        if not self.paused:
            raise TournamentError(f"{self.spec.name} is not paused")
        self._clock_at, self.paused = now, False
        return [Resumed(), *self._advance(now)]

    # ------------------------------------------------------------------ hands

    def deal(self, table: int, now: float) -> Deal | Hold:
        """May `table` deal its next hand now, and how."""
        t = self._table(table)
        if t.hand is not None:
            raise TournamentError(f"table {table} has a hand in progress")
        if self.state != RUNNING:
            return Hold(table, f"the tournament is {self.state}")
        if self.paused:
            return Hold(table, "the tournament is paused")
        stage = self.stage(now)
        if stage.on_break:
            return Hold(table, "break")
        if self.hand_for_hand and table in self._round:
            return Hold(table, "hand for hand: waiting for the other tables")
        plan = t.next_plan(self.floor.stud)
        if plan is None:
            return Hold(table, "waiting for players")
        structure = self.spec.structure(stage.level)
        if plan.small_blind is None and plan.big_blind is not None:
            structure = replace(structure, blinds=structure.blinds[1:])    # a dead small blind
        entries = tuple(t.seats[s] for s in plan.dealt)
        self.hands += 1
        t.hand = Deal(table, self.hands, stage.level + 1, structure, plan.dealt, entries,
                      tuple(self.entries[e].chips for e in entries), plan.button, plan.small_blind,
                      plan.big_blind, plan.small_blind_seat)
        if self.hand_for_hand:
            self._round.add(table)
        return t.hand

    def void(self, table: int) -> None:
        """The hand `deal` allowed was not played (or was cut off): as if never dealt."""
        t = self._table(table)
        if t.hand is not None:
            t.hand = None
            self._round.discard(table)

    def hand_ended(self, table: int, stacks: dict[int, int], now: float) -> list:
        """The hand at `table` is over and its players have `stacks` (seat -> chips): players out,
        places and prizes, hand-for-hand, tables broken and balanced, the end."""
        t = self._table(table)
        deal = t.hand
        if deal is None:
            raise TournamentError(f"table {table} has no hand in progress")
        if set(stacks) != set(deal.seats):
            raise TournamentError(f"table {table} dealt seats {list(deal.seats)}, not {list(stacks)}")
        if any(type(c) is not int or c < 0 for c in stacks.values()):
            raise TournamentError("chips are whole numbers, none below zero")
        if sum(stacks.values()) != sum(deal.stacks):
            raise TournamentError(f"table {table} started the hand with {sum(deal.stacks)} chips and "
                                  f"ended it with {sum(stacks.values())}")
        records = self._advance(now)
        t.hand = None
        t.last = Plan(deal.button, deal.small_blind, deal.big_blind, deal.seats, deal.small_blind_seat)
        t.dealt(deal.seats)
        outs = []
        for seat, number, started in zip(deal.seats, deal.entries, deal.stacks):
            entry = self.entries[number]
            entry.chips = stacks[seat]
            if not entry.chips:
                entry.out = True
                self.floor.leave(number)
                outs.append(Out(number, started))
                records.append(Eliminated(entry.player, number, table, seat, started))
        if self.hand_for_hand:
            self._round_out += outs
            if not self._round_over():
                return records
            outs, self._round_out, self._round = self._round_out, [], set()
        self._out(outs, records)
        self._after(records, now)
        return records

    def _table(self, table: int) -> Table:
        try:
            return self.floor.tables[table]
        except KeyError:
            raise TournamentError(f"no table {table} in {self.spec.name}") from None

    def _round_over(self) -> bool:
        """No hand is in progress, and every table has played its hand of the round or cannot
        deal one (or none has: the hands that were in progress when hand-for-hand began are over)."""
        tables = self.floor.tables.values()
        return all(t.hand is None for t in tables) and (
            not self._round or all(t.number in self._round or len(t.seats) < 2 for t in tables))

    # ------------------------------------------------------------------ places and the end

    def _out(self, outs: list[Out], records: list) -> None:
        """Players out together: placed now, or when late registration closes."""
        if not outs:
            return
        if not self.final:
            self._pending.append(outs)
            return
        prizes = self.prizes()
        for a in reversed(award(outs, self._worst, prizes)):
            entry = self.entries[a.entry]
            entry.place = a.place
            self.paid += a.prize
            records.append(Placed(entry.player, a.entry, a.place, self.entrants, a.prize, a.shared))
        self._worst -= len(outs)

    def _close_registration(self, records: list) -> None:
        self.final, self._worst = True, self.entrants
        records.append(LateRegistrationClosed(self.entrants, self.pool, self.spec.payouts.places_paid(self.entrants)))
        pending, self._pending = self._pending, []
        for outs in pending:
            self._out(outs, records)

    def _after(self, records: list, now: float) -> None:
        """After players went out (in hand-for-hand: after a round): the end, breaking and
        balancing tables, hand-for-hand."""
        alive = self.alive()
        if len(alive) == 1:
            if not self.final:
                self._close_registration(records)       # nobody left to play: it is over
            self._out([Out(alive[0].number, alive[0].chips)], records)
            self._clock = self.elapsed(now)
            self.state = FINISHED
            records.append(Finished(alive[0].player, alive[0].number))
            return
        self.floor.balance(self.entries, records)       # every table is between hands in hand-for-hand
        self._bubble(records)

    def _bubble(self, records: list) -> None:
        """Hand-for-hand from the money bubble (one more player than places paid, entrants
        final, two tables or more) until it bursts."""
        paid = self.spec.payouts.places_paid(self.entrants)
        on = self.final and len(self.floor.tables) > 1 and len(self.alive()) == paid + 1
        if on != self.hand_for_hand:
            self.hand_for_hand = on
            self._round, self._round_out = set(), []
            records.append(HandForHand(on))

    # ------------------------------------------------------------------ cancel

    def cancel(self, now: float, reason: str = "cancelled by the card room") -> list:
        """Before the start, every buy-in and fee back; once running, places decided keep their
        prizes and the rest of the pool is shared by chips (hands in progress are void)."""
        if self.state not in (REGISTERING, RUNNING):
            raise TournamentError(f"{self.spec.name} is already {self.state}")
        return self._cancel(reason, now)

    def _cancel(self, reason: str, now: float) -> list:
        records: list = [Cancelled(reason)]
        if self.state == REGISTERING:
            records += [Refunded(e.player, self.spec.buy_in + self.spec.fee) for e in self.entries.values()]
        else:
            alive = self.alive()
            shares = share_by_chips(self.pool - self.paid, [e.chips for e in alive])
            for e, amount in zip(alive, shares):
                self.paid += amount
                records.append(Shared(e.player, e.number, e.chips, amount))
            for t in self.floor.tables.values():
                t.hand = None
            self._clock = self.elapsed(now)
        self.state = CANCELLED
        return records
