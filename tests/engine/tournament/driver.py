"""Drive a tournament Director with random hand results, as the room will: tables deal when the
director lets them, hands end in any order, the clock moves on, and every record is checked
against the tournament's invariants as it comes.

The checks (each an AssertionError naming the rule). The driver keeps its own picture of every
table from the records (who sits where, the last hand dealt, who has not been dealt there yet):
- chips in play are the starting chips of every entry, after every hand;
- after balancing, no two tables differ by two players or more, but for a biggest table that is
  still in a hand (its turn comes when its hand ends), a table waiting to break, and tables in
  the middle of a hand-for-hand round (balanced at its end);
- the button and blinds move by the dead-button rule: the big blind to the next player after
  the last big blind, the small blind to the last big blind's seat, the button to the last small
  blind's seat; a player new at the table between the button and the small blind sits out;
- the big blind never goes round past a player who is dealt in (no skip at a table), and no
  player posts it in two hands running (never twice), but after a table broke under him (the
  TDA's random draw may seat him anywhere);
- a balancing move takes the player due the big blind next at his table, to a smallest table,
  to the open seat where it reaches him soonest (no open seat there or at another smallest table
  would have it reach him sooner), and his first hand there is his big blind: across the move
  he neither pays it twice nor skips it;
- hand-for-hand starts on the money bubble (one player more than places paid, two tables or more);
- places are a permutation of 1..entrants and the prizes add up to the pool; what is paid never
  exceeds the pool (the ledger's "prizes paid + prizes to decide = pool").
"""

from __future__ import annotations

import random
from collections import defaultdict

from cardroom.engine.tournament import (
    FINISHED, Deal, Director, Eliminated, HandForHand, Hold, Level, Moved, PayoutBand, Payouts, Placed, Plan, Schedule,
    Seated, TableBroken, TableOpened, TournamentSpec, next_plan,
)
from cardroom.engine.tournament.seats import after, between
from cardroom.engine.tournament.spec import SIT_AND_GO

FAMILIES = {"board": "holdem", "omaha": "omaha8", "draw": "a5-draw", "triple": "27-triple", "stud": "stud",
            "razz": "razz"}


def levels(stud: bool, count: int = 30, minutes: int = 1) -> tuple[Level, ...]:
    out = []
    for i in range(count):
        big = 20 * (i + 1) ** 2
        if stud:
            out.append(Level(minutes, bets=(big, 2 * big), ante=big // 10, bring_in=big // 4))
        else:
            out.append(Level(minutes, blinds=(big // 2, big), ante=big // 10 if i >= 3 else 0))
    return tuple(out)


PAYOUTS = Payouts((PayoutBand(2, (10_000,)), PayoutBand(6, (6_500, 3_500)), PayoutBand(10, (5_000, 3_000, 2_000)),
                   PayoutBand(30, (4_000, 2_500, 1_600, 1_100, 800)),
                   PayoutBand(100, (3_000, 1_800, 1_200, 900, 800, 700, 600, 500, 500))))


def sit_and_go(players: int, table_size: int = 9, game: str = "holdem", structure: str = "no",
               **kw) -> TournamentSpec:
    """A sit & go of `players` (any key of TournamentSpec may be given, `kind` too)."""
    stud = game in ("stud", "stud8", "razz")
    spec = dict(name="Test", game=game, structure_kind=structure,
                schedule=Schedule(levels(stud), break_every=4, break_minutes=1), payouts=PAYOUTS,
                starting_chips=1500, table_size=table_size, kind=SIT_AND_GO, seats=players, buy_in=1000, fee=100)
    spec.update(kw)
    return TournamentSpec(**spec)


class Run:
    """One tournament played with random results. `sync`: tables deal in rounds (every table
    ends its hand before any deals again), so balancing is checked strictly."""

    def __init__(self, spec: TournamentSpec, seed: int, *, sync: bool = False, players=None, late: float = 0.0,
                 starts_at: float | None = None):
        self.spec = spec
        self.rng = random.Random(seed)
        self.director = Director(spec, random.Random(seed ^ 0x5EED), starts_at=starts_at)
        self.sync = sync
        self.now = 0.0
        self.records: list = []
        self.hands: dict[int, Deal] = {}           # table -> hand in progress
        self.broke: set[int] = set()               # entries seated by a broken table since their last big blind
        self.last_bb: dict[int, bool] = {}         # entry -> posted the big blind in his last hand dealt
        # table -> entry -> players who posted the big blind in his hands since his own last one
        self.passed: dict[int, dict[int, set]] = defaultdict(lambda: defaultdict(set))
        self.players = players or [f"p{i}" for i in range(spec.seats)]
        self.late = late                                # chance a step brings a late entry or re-entry
        self.stud = spec.variant.bring_in
        # The driver's own picture of the tables, from the records.
        self.seats: dict[int, dict[int, int]] = {}      # table -> seat -> entry
        self.last: dict[int, Deal] = {}                 # table -> its last hand dealt
        self.new: dict[int, set[int]] = defaultdict(set)  # table -> seats not dealt there yet
        self.waiting: dict[int, set[int]] = defaultdict(set)  # table -> seats moved to balance, not dealt yet
        self.waits: list[int] = []                      # per balancing move: hands before his big blind
        self.undo: dict[int, tuple] = {}                # table -> the picture before its hand in progress

    # ------------------------------------------------------------------ the run

    def register_all(self) -> None:
        for p in self.players:
            self.take(self.director.register(p, self.now))

    def play(self, max_steps: int = 200_000, until=None) -> None:
        """Deal and end hands until the tournament is over (or `until()` holds between steps)."""
        d = self.director
        for _ in range(max_steps):
            if d.state not in ("registering", "running") or (until is not None and until()):
                return
            self.now += self.rng.choice((0.5, 1, 2, 5, 15))
            self.take(d.tick(self.now))
            if d.state != "running":
                continue
            if self.late and d.late_registration_open(self.now) and self.rng.random() < self.late:
                self.enter_late()
            idle = [n for n in d.tables() if n not in self.hands]
            dealt = False
            if idle and not (self.sync and self.hands):
                for n in self.rng.sample(idle, len(idle)):
                    result = d.deal(n, self.now)
                    if isinstance(result, Deal):
                        self.dealt(result)
                        dealt = True
                        if not self.sync:
                            break
            if self.hands and (not dealt or self.rng.random() < 0.5):
                n = self.rng.choice(sorted(self.hands))
                deal = self.hands.pop(n)
                self.take(d.hand_ended(n, self.result(deal), self.now))
                self.check_chips()
                self.check_balance()
        raise AssertionError("the tournament did not end")

    def enter_late(self) -> None:
        """A new player, or one who is out re-entering when he may."""
        d = self.director
        entries = defaultdict(list)
        for e in d.entries.values():
            entries[e.player].append(e)
        out = [p for p, es in entries.items() if all(e.out for e in es) and len(es) <= self.spec.reentries]
        player = self.rng.choice(out) if out and self.rng.random() < 0.5 else f"late{len(d.entries)}"
        if d.spec.capacity is None or d.entrants < d.spec.capacity:
            self.take(d.register(player, self.now))

    def take(self, records: list) -> None:
        for r in records:
            self.records.append(r)
            if isinstance(r, TableOpened):
                self.seats[r.table] = {}
            elif isinstance(r, Seated):
                self.seats[r.table][r.seat] = r.entry
                self.new[r.table].add(r.seat)
            elif isinstance(r, Moved):
                assert r.entry not in self.hands_entries(), "a player is moved out of a hand in progress"
                if r.reason == "balance":
                    self.check_move(r)
                else:
                    self.broke.add(r.entry)
                assert self.seats[r.from_table].pop(r.from_seat) == r.entry
                self.new[r.from_table].discard(r.from_seat)
                self.waiting[r.from_table].discard(r.from_seat)
                self.passed[r.from_table].pop(r.entry, None)
                assert r.to_seat not in self.seats[r.to_table], "a player is seated on another"
                self.seats[r.to_table][r.to_seat] = r.entry
                waits = r.reason == "balance" and not self.stud
                (self.waiting if waits else self.new)[r.to_table].add(r.to_seat)
            elif isinstance(r, Eliminated):
                assert self.seats[r.table].pop(r.seat) == r.entry
                self.new[r.table].discard(r.seat)
                self.waiting[r.table].discard(r.seat)
                self.passed[r.table].pop(r.entry, None)
            elif isinstance(r, HandForHand) and r.on:
                d = self.director
                assert d.final and len(d.tables()) > 1, "hand-for-hand with one table or entrants to come"
                assert len(d.alive()) == d.spec.payouts.places_paid(d.entrants) + 1, "hand-for-hand off the bubble"
            elif isinstance(r, TableBroken):
                assert not self.seats.pop(r.table), "a broken table is empty"
                self.passed.pop(r.table, None)

    def reference(self, table: int) -> Plan | None:
        d = self.last.get(table)
        return d and Plan(d.button, d.small_blind, d.big_blind, d.seats, d.small_blind_seat)

    def hands_to_big_blind(self, table: int, seat: int) -> int:
        """Hands dealt at `table` before the big blind reaches `seat`, if he waits there for it."""
        seats, last = [*self.seats[table], seat], self.reference(table)
        new, waiting = self.new[table], self.waiting[table] | {seat}
        for hands in range(40):
            plan = next_plan(seats, last, new, waiting)
            if plan is None or plan.big_blind == seat:
                return hands
            new, waiting, last = new - set(plan.dealt), waiting - set(plan.dealt), plan
        raise AssertionError(f"the big blind never reaches seat {seat}")

    def breaking(self) -> int | None:
        players = sum(map(len, self.seats.values()))
        if len(self.seats) > 1 and players <= (len(self.seats) - 1) * self.spec.table_size:
            return max(self.seats)
        return None

    def check_move(self, m: Moved) -> None:
        """A balancing move takes the player due the big blind to the seat where he posts it soonest."""
        src, dst = self.seats[m.from_table], self.seats[m.to_table]
        assert len(dst) <= len(src) - 2, f"a move from {len(src)} players to {len(dst)}"
        counts = {n: len(s) for n, s in self.seats.items() if n != self.breaking()}
        assert len(dst) == min(counts.values()), "a move goes to a smallest table"
        if self.stud:
            return
        due = next_plan(src, self.reference(m.from_table), self.new[m.from_table],
                        self.waiting[m.from_table]).big_blind
        assert m.from_seat == due, f"seat {m.from_seat} moves, not seat {due} who is due the big blind"
        size = self.spec.table_size
        best = min(self.hands_to_big_blind(n, s) for n in counts if counts[n] == len(dst)
                   for s in range(1, size + 1) if s not in self.seats[n])
        waits = self.hands_to_big_blind(m.to_table, m.to_seat)
        assert waits == best, f"moved to a seat {waits} hands from the big blind; one {best} hands away was open"
        self.waits.append(waits)

    def hands_entries(self) -> set[int]:
        return {e for deal in self.hands.values() for e in deal.entries}

    def void(self, table: int) -> None:
        """The hand in progress at `table` is void (a crash): the director and this picture forget it."""
        self.director.void(table)
        del self.hands[table]
        (self.last[table], self.new[table], self.waiting[table], self.passed[table], last_bb,
         self.broke) = self.undo.pop(table)
        self.last_bb.update(last_bb)
        if self.last[table] is None:
            del self.last[table]

    def dealt(self, deal: Deal) -> None:
        self.hands[deal.table] = deal
        t = deal.table
        self.undo[t] = (self.last.get(t), set(self.new[t]), set(self.waiting[t]),
                        defaultdict(set, {e: set(v) for e, v in self.passed[t].items()}),
                        {e: self.last_bb.get(e, False) for e in deal.entries}, set(self.broke))
        assert deal.level >= 1 and deal.structure.kind == self.spec.structure_kind
        seats = self.seats[deal.table]
        assert deal.entries == tuple(seats[s] for s in deal.seats), "the hand deals who sits there"
        prev, new, waiting = self.last.get(deal.table), self.new[deal.table], self.waiting[deal.table]
        self.last[deal.table] = deal
        self.new[deal.table] = new - set(deal.seats)
        self.waiting[deal.table] = waiting - set(deal.seats)
        for s in waiting & set(deal.seats):
            assert s == deal.big_blind or len(deal.seats) == len(seats), \
                f"seat {s}, moved to balance, is dealt before his big blind"
        if deal.big_blind is None:
            assert deal.seats == tuple(sorted(seats)), "stud deals everyone"
            return                               # stud: no blinds
        if prev is not None:
            self.check_dead_button(prev, deal, sorted(seats), new)
        bb = deal.entries[deal.seats.index(deal.big_blind)]
        passed = self.passed[deal.table]
        for e in deal.entries:
            if e == bb:
                passed[e] = set()
                continue
            assert bb not in passed[e], f"the big blind went round past entry {e} (skipped)"
            passed[e].add(bb)
        if len(deal.entries) > 1:
            assert not (self.last_bb.get(bb) and bb not in self.broke), \
                f"entry {bb} posts the big blind twice running"
        for e in deal.entries:
            self.last_bb[e] = e == bb
        self.broke.discard(bb)

    def check_dead_button(self, prev: Deal, deal: Deal, seated: list[int], new: set[int]) -> None:
        assert deal.big_blind == after(prev.big_blind, seated), "the big blind goes to the next player"
        if len(deal.seats) > 2:                  # heads-up the button posts the small blind
            assert deal.small_blind_seat == prev.big_blind, "the small blind is the last big blind's seat"
            if prev.small_blind_seat in deal.seats and prev.small_blind_seat != deal.big_blind:
                assert deal.button == prev.small_blind_seat, "the button is the last small blind's seat"
            for s in new:
                if between(s, deal.button, deal.small_blind_seat) and s != deal.big_blind:
                    assert s not in deal.seats, f"new seat {s} is dealt between the button and the small blind"

    def result(self, deal: Deal) -> dict[int, int]:
        """Random final stacks: one winner takes from the others, each losing some or all."""
        stacks = dict(zip(deal.seats, deal.stacks))
        seats = list(deal.seats)
        winner = self.rng.choice(seats)
        cover = stacks[winner]
        for s in seats:
            if s == winner:
                continue
            r = self.rng.random()
            lost = min(stacks[s], cover) if r < 0.15 else self.rng.randint(0, stacks[s] // 4)
            stacks[s] -= lost
            stacks[winner] += lost
        return stacks

    # ------------------------------------------------------------------ the checks

    def check_chips(self) -> None:
        d = self.director
        assert 0 <= d.paid <= d.pool == d.entrants * self.spec.buy_in + self.spec.added
        total = sum(e.chips for e in d.alive())
        assert total == d.entrants * self.spec.starting_chips, "chips in play changed"
        seated = sum(len(t.seats) for t in d.tables().values())
        if d.state == "running":
            assert seated == len(d.alive()), "every player in has a seat"

    def check_balance(self) -> None:
        d = self.director
        if d.state != "running":
            return
        tables = d.tables()
        breaking = d.floor.breaking()
        counts = {n: len(t.seats) for n, t in tables.items() if t is not breaking}
        if len(counts) < 2:
            return
        big, small = max(counts.values()), min(counts.values())
        if big - small >= 2 and not d.round_open:       # hand-for-hand: at the round's end
            assert all(n in self.hands for n, c in counts.items() if c == big), \
                f"tables {counts} unbalanced after a hand"
        if self.sync and not self.hands and not d.round_open:
            assert big - small <= 1 and breaking is None, f"tables {counts} unbalanced after a round"

    def check_end(self) -> None:
        d = self.director
        assert d.state == FINISHED
        places = sorted(r.place for r in self.records if isinstance(r, Placed))
        assert places == list(range(1, d.entrants + 1)), "places are a permutation of 1..entrants"
        assert sum(r.prize for r in self.records if isinstance(r, Placed)) == d.pool == d.paid
        seated = {r.entry for r in self.records if isinstance(r, Seated)}
        assert seated == set(d.entries), "every entry was seated"


def run(spec: TournamentSpec, seed: int, **kw) -> Run:
    r = Run(spec, seed, **kw)
    r.register_all()
    r.play()
    r.check_end()
    return r


__all__ = ["FAMILIES", "PAYOUTS", "Run", "run", "sit_and_go", "levels", "Hold"]
