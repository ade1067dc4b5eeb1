"""Tournaments in the store (`cardroom.room.ports.TournamentStore`): each instance's money, entries,
hands and its director's snapshot, in SQL both dialects run. `SqlStore` inherits these methods.

Tournament chips are not money. The money: registration takes the buy-in from the balance into
the tournament's prize pool (`pool_cents`) and the fee to the house (`fees_cents`), each a ledger
row naming the tournament; a refund gives both back; a prize (or, cancelled while running, a
share by chips) leaves the pool for the balance when its place is decided; money the house adds
joins the pool at the start. So the ledger check (`cardroom.store.audit`) can say for each: the
buy-ins taken are its buy-in for each paid entry, and buy-ins + added = prizes paid + the pool
still held.

Each write is one transaction: `enter_tournament` takes one entry's money; `record_tournament`
applies what one call of the director changed -- money and entries (`TournamentChange`), the
hand whose end made them (settled: its stacks are chips, nothing moves in the ledger), the
histories of earlier hands whose players were placed only now (`amend`), and the director's snapshot, kept only if newer than the one stored, so a write retried late never puts
an older one back. Each change is applied once (a refunded entry is not refunded again, a place
not given twice), so a write retried after a commit that was only reported failed changes nothing.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from datetime import datetime

from cardroom.room.ports import (
    AccountId, HandStateError, Refused, SettlementError, TOURNAMENT_CHANGES, TOURNAMENT_STATES,
    TournamentChange, TournamentEntry, TournamentHandEnd, TournamentRecord,
)
from cardroom.store import books
from cardroom.store.database import Connection, Database, writes

__all__ = ["TournamentBooks", "fence_name"]

TOURNAMENT_COLS = ("id, name, state, buy_in_cents, fee_cents, added_cents, pool_cents, fees_cents,"
                   " starts_at, created_at, started_at, finished_at, snapshot, version")
ENTRY_COLS = "tournament_id, entry, account_id, status, place, prize_cents"
OVER = ("finished", "cancelled")


def fence_name(tournament_id: int) -> str:
    """What a tournament's writes are fenced by (`Database.fence`): the whole tournament is one
    table host's, as a table is (its tables balance into each other)."""
    return f"tournament #{tournament_id}"


def _when(text: str | None) -> datetime | None:
    return None if text is None else datetime.fromisoformat(text)


def _tournament_row(row: tuple) -> TournamentRecord:
    (tid, name, state, buy_in, fee, added, pool, fees, starts, created, started, finished, snapshot,
     version) = row
    return TournamentRecord(tid, name, state, buy_in, fee, added, pool, fees, _when(starts),
                            datetime.fromisoformat(created), _when(started), _when(finished), snapshot, version)


def _get(c: Connection, tournament_id: int) -> TournamentRecord:
    if type(tournament_id) is not int:
        raise Refused(f"no tournament #{tournament_id!r}")
    row = c.execute(f"SELECT {TOURNAMENT_COLS} FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    if row is None:
        raise Refused(f"no tournament #{tournament_id}")
    return _tournament_row(row)


def _entry(c: Connection, tournament_id: int, entry: object) -> TournamentEntry:
    if type(entry) is not int:
        raise Refused(f"an entry is a number, not {entry!r}")
    row = c.execute(f"SELECT {ENTRY_COLS} FROM tournament_entries WHERE tournament_id = ? AND entry = ?",
                    (tournament_id, entry)).fetchone()
    if row is None:
        raise Refused(f"tournament #{tournament_id} has no entry {entry}")
    return TournamentEntry(*row)


class TournamentBooks:
    """The tournament half of `SqlStore` (module docstring)."""

    db: Database

    def _now(self) -> str: ...          # SqlStore's

    # ------------------------------------------------------------------ reading

    def tournament(self, tournament_id: int) -> TournamentRecord | None:
        with self.db.transaction(write=False) as c:
            row = c.execute(f"SELECT {TOURNAMENT_COLS} FROM tournaments WHERE id = ?",
                            (tournament_id,)).fetchone()
            return None if row is None else _tournament_row(row)

    def tournaments(self, states: Iterable[str] = ("registering", "running")) -> list[TournamentRecord]:
        states = tuple(states)
        if not states or any(s not in TOURNAMENT_STATES for s in states):
            raise Refused(f"tournament states are {', '.join(TOURNAMENT_STATES)}, not {states!r}")
        marks = ", ".join("?" for _ in states)      # placeholders only: the states are bound
        with self.db.transaction(write=False) as c:
            return [_tournament_row(r) for r in c.execute(
                f"SELECT {TOURNAMENT_COLS} FROM tournaments WHERE state IN ({marks}) ORDER BY id", states)]

    def tournaments_of(self, account_id: AccountId) -> list[TournamentRecord]:
        """The tournaments the account has (or had) a paid entry in, oldest first."""
        with self.db.transaction(write=False) as c:
            return [_tournament_row(r) for r in c.execute(
                f"SELECT {TOURNAMENT_COLS} FROM tournaments WHERE id IN (SELECT tournament_id FROM"
                " tournament_entries WHERE account_id = ? AND status = 'in') ORDER BY id", (account_id,))]

    def tournament_entries(self, tournament_id: int) -> list[TournamentEntry]:
        with self.db.transaction(write=False) as c:
            return [TournamentEntry(*r) for r in c.execute(
                f"SELECT {ENTRY_COLS} FROM tournament_entries WHERE tournament_id = ? ORDER BY entry",
                (tournament_id,))]

    # ------------------------------------------------------------------ writing

    @writes
    def create_tournament(self, name: str, *, buy_in: int, fee: int, added: int,
                          starts_at: datetime | None, snapshot: str) -> TournamentRecord:
        books.nonempty(name, "tournament name")
        for value, what in ((buy_in, "buy-in"), (fee, "fee"), (added, "added money")):
            books.cents(value, what, allow_zero=True)
        books.text(snapshot, "snapshot")
        if starts_at is not None and not isinstance(starts_at, datetime):
            raise Refused(f"a start is a date and time, not {starts_at!r}")
        with self.db.transaction() as c:
            tid = c.execute(
                "INSERT INTO tournaments (name, state, buy_in_cents, fee_cents, added_cents, starts_at,"
                " created_at, snapshot) VALUES (?, 'registering', ?, ?, ?, ?, ?, ?) RETURNING id",
                (name, buy_in, fee, added, None if starts_at is None else starts_at.isoformat(), self._now(),
                 snapshot)).fetchone()[0]
            return _get(c, tid)

    @writes
    def enter_tournament(self, tournament_id: int, account_id: AccountId, entry: int) -> TournamentEntry:
        if type(entry) is not int or entry < 1:
            raise Refused(f"an entry is a number from 1, not {entry!r}")
        with self.db.transaction() as c:
            self.db.fence(c, fence_name(tournament_id))
            t = _get(c, tournament_id)
            if t.state in OVER:
                raise Refused(f"{t.name} is {t.state}")
            if c.execute("SELECT 1 FROM tournament_entries WHERE tournament_id = ? AND entry = ?",
                         (tournament_id, entry)).fetchone():
                raise Refused(f"entry {entry} of tournament #{tournament_id} is taken")
            account = books.get_account(c, account_id)
            books.add_balance(c, account, -(t.buy_in_cents + t.fee_cents))
            c.execute("INSERT INTO tournament_entries (tournament_id, entry, account_id, status, registered_at)"
                      " VALUES (?, ?, ?, 'in', ?)", (tournament_id, entry, account_id, self._now()))
            self._move(c, t, "tournament_buy_in", account_id, t.buy_in_cents, pool=t.buy_in_cents)
            self._move(c, t, "tournament_fee", account_id, t.fee_cents, fees=t.fee_cents)
            return _entry(c, tournament_id, entry)

    @writes
    def record_tournament(self, tournament_id: int, changes: Iterable[TournamentChange], *,
                          snapshot: str, version: int, hand: TournamentHandEnd | None = None,
                          amend: Iterable[TournamentHandEnd] = ()) -> None:
        changes, amend = tuple(changes), tuple(amend)
        for ch in changes:
            if not isinstance(ch, TournamentChange) or ch.kind not in TOURNAMENT_CHANGES:
                raise Refused(f"{ch!r} is not a tournament change")
            books.cents(ch.cents, f"the {ch.kind}", allow_zero=True)
        books.text(snapshot, "snapshot")
        if type(version) is not int or version < 1:
            raise Refused(f"a snapshot's version is a number from 1, not {version!r}")
        with self.db.transaction() as c:
            self.db.fence(c, fence_name(tournament_id))
            _get(c, tournament_id)
            if hand is not None:
                self._settle_hand(c, tournament_id, hand)
            for end in amend:
                self._amend_hand(c, tournament_id, end)
            for ch in changes:
                self._change(c, _get(c, tournament_id), ch)
            c.execute("UPDATE tournaments SET snapshot = ?, version = ? WHERE id = ? AND version < ?",
                      (snapshot, version, tournament_id, version))

    # ------------------------------------------------------------------ the parts

    def _move(self, c: Connection, t: TournamentRecord, kind: str, account: AccountId | None, cents: int,
              *, pool: int = 0, fees: int = 0) -> None:
        """A ledger row of `kind` naming the tournament, and the pool and fees it changes (the
        balance is the caller's); nothing for zero cents."""
        if not cents:
            return
        c.execute("UPDATE tournaments SET pool_cents = pool_cents + ?, fees_cents = fees_cents + ? WHERE id = ?",
                  (pool, fees, t.id))
        books.add_entry(c, self._now(), kind, account, None, cents, tournament_id=t.id, reason=t.name)

    def _pay(self, c: Connection, t: TournamentRecord, account_id: AccountId, cents: int, kind: str,
             *, pool: int = 0, fees: int = 0) -> None:
        if cents:
            books.add_balance(c, books.get_account(c, account_id), cents)
            self._move(c, t, kind, account_id, cents, pool=pool, fees=fees)

    def _change(self, c: Connection, t: TournamentRecord, ch: TournamentChange) -> None:
        now = self._now()
        if ch.kind == "start":
            if t.state == "registering":
                c.execute("UPDATE tournaments SET state = 'running', started_at = ? WHERE id = ?", (now, t.id))
                self._move(c, t, "tournament_added", None, t.added_cents, pool=t.added_cents)
            return
        if ch.kind in ("finish", "cancel"):
            if t.state not in OVER:
                c.execute("UPDATE tournaments SET state = ?, finished_at = ? WHERE id = ?",
                          ("finished" if ch.kind == "finish" else "cancelled", now, t.id))
            return
        e = _entry(c, t.id, ch.entry)
        if ch.kind == "refund":
            if e.status == "in":
                c.execute("UPDATE tournament_entries SET status = 'refunded' WHERE tournament_id = ? AND entry = ?",
                          (t.id, e.entry))
                self._pay(c, t, e.account_id, t.buy_in_cents, "tournament_refund", pool=-t.buy_in_cents)
                self._pay(c, t, e.account_id, t.fee_cents, "tournament_fee_refund", fees=-t.fee_cents)
            return
        if e.status != "in":
            raise Refused(f"entry {e.entry} of tournament #{t.id} was refunded: it wins nothing")
        if ch.kind == "prize":
            if e.place is not None:
                return
            if type(ch.place) is not int or ch.place < 1:
                raise Refused(f"a place is a number from 1, not {ch.place!r}")
            c.execute("UPDATE tournament_entries SET place = ?, prize_cents = ? WHERE tournament_id = ? AND entry = ?",
                      (ch.place, ch.cents, t.id, e.entry))
            self._pay(c, t, e.account_id, ch.cents, "tournament_prize", pool=-ch.cents)
        else:   # share: cancelled while running; an entry still in has neither place nor prize yet
            if e.place is not None or e.prize_cents:
                return
            c.execute("UPDATE tournament_entries SET prize_cents = ? WHERE tournament_id = ? AND entry = ?",
                      (ch.cents, t.id, e.entry))
            self._pay(c, t, e.account_id, ch.cents, "tournament_share", pool=-ch.cents)

    def _amend_hand(self, c: Connection, tournament_id: int, end: TournamentHandEnd) -> None:
        """A settled hand's events and history written again, with the places its players were
        given after it (at the end of a hand-for-hand round, or when late registration closed);
        its chips stay as they were."""
        books.text(end.events_json, "events")
        books.text(end.history, "history")
        found = books.find_hand(c, books.nonempty(end.hand_id, "hand id"))
        if found is None or found[1].tournament_id != tournament_id or found[1].status != "settled":
            raise HandStateError(f"hand {end.hand_id!r} is not a settled hand of tournament #{tournament_id}")
        c.execute("UPDATE hands SET events = ?, history = ? WHERE seq = ?", (end.events_json, end.history, found[0]))

    def _settle_hand(self, c: Connection, tournament_id: int, end: TournamentHandEnd) -> None:
        """The tournament's hand is over: its seats' end stacks, events and history. Chips only:
        they must add up to the stacks it started with; no ledger row. Settled already (a write
        retried): nothing."""
        books.text(end.events_json, "events")
        books.text(end.history, "history")
        try:
            json.loads(end.events_json)
        except ValueError as e:
            raise SettlementError(f"the events are not valid JSON: {e}") from e
        found = books.find_hand(c, books.nonempty(end.hand_id, "hand id"))
        if found is None:
            raise HandStateError(f"no hand {end.hand_id!r}")
        seq, hand = found
        if hand.tournament_id != tournament_id:
            raise HandStateError(f"hand {end.hand_id!r} is not tournament #{tournament_id}'s")
        if hand.status == "settled":
            return
        if hand.status != "in_progress":
            raise HandStateError(f"hand {end.hand_id!r} is {hand.status}, not in progress")
        stacks = dict(end.stacks)
        if set(stacks) != {s.account_id for s in hand.seats}:
            raise SettlementError(f"results name accounts {sorted(stacks)} but the hand seats "
                                  f"{sorted(s.account_id for s in hand.seats)}")
        if any(type(v) is not int or v < 0 for v in stacks.values()):
            raise SettlementError("end stacks are whole numbers of chips, none below zero")
        if sum(stacks.values()) != sum(s.start_cents for s in hand.seats):
            raise SettlementError(f"the hand started with {sum(s.start_cents for s in hand.seats)} chips "
                                  f"and ends with {sum(stacks.values())}")
        seats = []
        for s in hand.seats:
            end_chips = stacks[s.account_id]
            c.execute("UPDATE hand_seats SET end_cents = ? WHERE hand_seq = ? AND seat = ?", (end_chips, seq, s.seat))
            seats.append({"seat": s.seat, "account_id": s.account_id, "start_cents": s.start_cents,
                          "delta_cents": end_chips - s.start_cents, "end_cents": end_chips})
        c.execute("UPDATE hands SET status = 'settled', finished_at = ?, events = ?, results = ?, history = ?"
                  " WHERE seq = ?", (self._now(), end.events_json,
                                     json.dumps({"seats": seats, "rake_cents": 0, "chips": True}), end.history, seq))
