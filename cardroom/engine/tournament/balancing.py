"""The tournament's tables: the seat draw, seating newcomers, balancing and breaking (TDA).

- The draw: entries shuffled, dealt round the tables so that no table has two more than another,
  each to a random seat. A late entry or re-entry, and every player of a broken table, takes a
  random open seat at one of the tables with the fewest players (TDA's random draw, within the
  balancing rule); he is dealt in at once unless he sits between the button and the small blind
  (seats.py).
- Balancing, after every hand: while the biggest table has two or more players more than the
  smallest, the player due the big blind next at a biggest table that is between hands moves to
  the smallest table (of those, the one) where the big blind reaches him soonest, and waits for
  it there (seats.py); a table in the middle of a hand gives nobody away (its turn comes when
  its hand ends) but can take a player.
- Breaking: when the others have seats for all its players, the highest-numbered table breaks,
  as soon as it is between hands; the last table plays to the end (the final table).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, Sequence, TypeVar

from cardroom.engine.tournament.records import Deal, Moved, Player, Record, Seated, TableBroken, TableOpened
from cardroom.engine.tournament.seats import Plan, next_plan, seat_for_move, stud_mover


_T = TypeVar("_T")


class Rng(Protocol):
    """What the director draws with: random.Random or secrets.SystemRandom (injected)."""

    def shuffle(self, x: list[Any]) -> None: ...
    def choice(self, seq: Sequence[_T]) -> _T: ...
    def sample(self, population: Sequence[_T], k: int) -> list[_T]: ...


@dataclass(eq=False, slots=True)
class Entry:
    """One entry (a re-entry is another): its player and chips; `out` once his chips are gone."""

    number: int
    player: Player
    chips: int
    out: bool = False
    place: int | None = None


@dataclass(eq=False, slots=True)
class Table:
    """One table's seats (seat -> entry), its last hand's plan, the seats of players not yet
    dealt a hand here (`new`: dealt in at once, but not between the button and the small blind;
    `waiting`: moved here, waiting for the big blind; seats.py), the seat that opened last
    (stud's balancing) and the hand in progress."""

    number: int
    seats: dict[int, int] = field(default_factory=dict)
    last: Plan | None = None
    new: set[int] = field(default_factory=set)
    waiting: set[int] = field(default_factory=set)
    vacated: int | None = None
    hand: Deal | None = None

    def reference(self) -> tuple[Plan | None, set[int], set[int]]:
        """The plan the next hand follows, and who will still be new and waiting then: the hand
        in progress, if any, is the last hand before the next."""
        if self.hand is None:
            return self.last, self.new, self.waiting
        d = self.hand
        dealt = set(d.seats)
        return (Plan(d.button, d.small_blind, d.big_blind, d.seats, d.small_blind_seat),
                self.new - dealt, self.waiting - dealt)

    def next_plan(self, stud: bool) -> Plan | None:
        last, new, waiting = self.reference()
        return next_plan(self.seats, last, new, waiting, stud=stud)

    def dealt(self, seats: tuple[int, ...]) -> None:
        """Those seats' players have been dealt a hand here."""
        self.new.difference_update(seats)
        self.waiting.difference_update(seats)

    def vacate(self, seat: int) -> int:
        """The player of `seat` leaves it (out, or moved): his entry."""
        entry = self.seats.pop(seat)
        self.new.discard(seat)
        self.waiting.discard(seat)
        self.vacated = seat
        return entry


@dataclass(slots=True)
class Floor:
    """The tables of one tournament and the rules that move players between them. Changes go on
    `records` (Seated, Moved, TableOpened, TableBroken)."""

    size: int
    stud: bool
    rng: Rng
    tables: dict[int, Table] = field(default_factory=dict)
    opened: int = 0                    # tables opened so far: the next is number opened + 1
    entry_of: dict[int, tuple[int, int]] = field(default_factory=dict)   # entry -> (table, seat)

    # ------------------------------------------------------------------ seating

    def draw(self, entries: dict[int, Entry], records: list[Record]) -> None:
        """The start: the entries drawn to tables and seats."""
        order = sorted(entries)
        self.rng.shuffle(order)
        count = -(-len(order) // self.size)
        tables = [self._open(records) for _ in range(count)]
        groups = [order[i::count] for i in range(count)]
        for table, group in zip(tables, groups):
            for entry, seat in zip(group, sorted(self.rng.sample(range(1, self.size + 1), len(group)))):
                self._sit(table, seat, entry)
        for table in tables:
            for seat, entry in sorted(table.seats.items()):
                records.append(Seated(entries[entry].player, entry, table.number, seat, entries[entry].chips))

    def seat_newcomer(self, entry: Entry, records: list[Record]) -> None:
        """A late entry or re-entry: a random open seat at a table with the fewest players (a new
        table when every seat is taken)."""
        table, seat = self._random_seat(records, exclude=self.breaking())
        self._sit(table, seat, entry.number)
        records.append(Seated(entry.player, entry.number, table.number, seat, entry.chips))

    def leave(self, entry: int) -> None:
        """An entry out of chips leaves his seat."""
        number, seat = self.entry_of.pop(entry)
        self.tables[number].vacate(seat)

    # ------------------------------------------------------------------ balancing and breaking

    def players(self) -> int:
        return sum(len(t.seats) for t in self.tables.values())

    def breaking(self) -> Table | None:
        """The table to break now (the highest-numbered), when the others can seat its players."""
        if len(self.tables) < 2:
            return None
        if self.players() > (len(self.tables) - 1) * self.size:
            return None
        return self.tables[max(self.tables)]

    def balance(self, entries: dict[int, Entry], records: list[Record]) -> None:
        """Break what can break and move players until no table has two more than another, as far
        as the tables between hands allow."""
        while True:
            gone = self.breaking()
            if gone is not None and gone.hand is None:
                self._break(gone, entries, records)
                continue
            others = [t for t in self.tables.values() if t is not gone]
            if len(others) < 2:
                return
            big = max(len(t.seats) for t in others)
            small = min(len(t.seats) for t in others)
            sources = [t for t in others if len(t.seats) == big and t.hand is None]
            if big - small < 2 or not sources:
                return
            source = min(sources, key=lambda t: t.number)
            targets = [t for t in others if len(t.seats) == small]
            self._balance_one(source, targets, entries, records)

    def _balance_one(self, source: Table, targets: list[Table], entries: dict[int, Entry],
                     records: list[Record]) -> None:
        # The targets have the fewest players, two fewer than the source: none is full, and the
        # source has players to plan a hand for.
        if self.stud:
            target = min(targets, key=lambda t: t.number)
            seat, _ = _open(seat_for_move(self.size, target.seats, None, stud=True, vacated=target.vacated))
            mover = stud_mover(source.seats, seat, self.size)
        else:
            plan = source.next_plan(False)
            if plan is None or plan.big_blind is None:
                raise AssertionError("a table to balance from has players")
            mover = plan.big_blind

            def choice(t: Table) -> tuple[int, int, int]:
                seat, waits = _open(seat_for_move(self.size, t.seats, *t.reference()))
                return waits, t.number, seat

            _, number, seat = min(map(choice, targets))
            target = self.tables[number]
        self._move(source, mover, target, seat, "balance", entries, records)

    def _break(self, table: Table, entries: dict[int, Entry], records: list[Record]) -> None:
        del self.tables[table.number]
        order = sorted(table.seats.items())
        self.rng.shuffle(order)
        for from_seat, entry in order:
            target, seat = self._random_seat(records, exclude=None, may_open=False)
            self._move_to(table, from_seat, entry, target, seat, "break", entries, records)
        records.append(TableBroken(table.number))

    # ------------------------------------------------------------------ the parts

    def _open(self, records: list[Record]) -> Table:
        self.opened += 1
        table = self.tables[self.opened] = Table(self.opened)
        records.append(TableOpened(table.number))
        return table

    def _sit(self, table: Table, seat: int, entry: int, waits: bool = False) -> None:
        table.seats[seat] = entry
        (table.waiting if waits else table.new).add(seat)
        self.entry_of[entry] = (table.number, seat)

    def _random_seat(self, records: list[Record], exclude: Table | None, may_open: bool = True) -> tuple[Table, int]:
        tables = [t for t in self.tables.values() if t is not exclude and len(t.seats) < self.size]
        if not tables:
            if not may_open:
                raise AssertionError("a table breaks only when the others can seat its players")
            table = self._open(records)
        else:
            fewest = min(len(t.seats) for t in tables)
            table = self.rng.choice([t for t in tables if len(t.seats) == fewest])
        seat = self.rng.choice([s for s in range(1, self.size + 1) if s not in table.seats])
        return table, seat

    def _move(self, source: Table, from_seat: int, target: Table, seat: int, reason: str,
              entries: dict[int, Entry], records: list[Record]) -> None:
        entry = source.vacate(from_seat)
        self._move_to(source, from_seat, entry, target, seat, reason, entries, records, waits=not self.stud)

    def _move_to(self, source: Table, from_seat: int, entry: int, target: Table, seat: int, reason: str,
                 entries: dict[int, Entry], records: list[Record], waits: bool = False) -> None:
        self._sit(target, seat, entry, waits)
        records.append(Moved(entries[entry].player, entry, source.number, from_seat, target.number, seat,
                             entries[entry].chips, reason))



def _open(place: tuple[int, int] | None) -> tuple[int, int]:
    """seat_for_move's answer at a table that is not full."""
    if place is None:
        raise AssertionError("a table with fewer players than another has an open seat")
    return place
