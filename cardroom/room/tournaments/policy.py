"""A tournament table's policy (room/table.py `TablePolicy`): everything a tournament's table does
differently from a cash game's, declared here and nowhere in the table.

- Dealing: the table deals when and how its director says (`Deal`: who, the button and blinds,
  the level's structure with a dead small blind left out), not by room/seating.py; a `Hold`
  (a break, a pause, hand-for-hand, too few players) deals nothing and says why in the view.
- Settling: a hand's end goes to its tournament, which records it with the director's records
  and snapshot in one transaction (no money moves in a tournament hand; no rake).
- Seats: nobody buys in, adds chips, leaves with his chips, takes a seat or joins a wait list:
  the director seats and moves players. A player away, sitting out or disconnected stays in: he
  is dealt in, his blinds and antes are posted (Auto Blind, no prompts), and the dealer checks
  or folds for him at once; a timeout is checked or folded, never a protected all-in (seed 000's
  quota is a cash game's), and he is then sitting out until he sits in again, never removed.
- Amounts are chips ("raises to 1,200"), not money.
"""

from __future__ import annotations

from typing import Any, Protocol

from cardroom.engine.hand import Player
from cardroom.engine.tournament import Deal, Hold
from cardroom.room import api
from cardroom.room.actions import (
    Action, BuyIn, Caller, Join, JoinWaitList, Leave, LeaveWaitList, PostBlind, PostOrWait, SitOut,
)
from cardroom.room.dealing import Dealing, NextHand
from cardroom.room.seating import HandPlan
from cardroom.room.table import HANDLERS, Table, TablePolicy

NO_CHIPS_OUT = "tournament chips stay at the table: you play until you are out (Sit Out to be away)"


def _refuse(why: str):
    def handler(t: Table, who: Caller, a: Action) -> Any:
        raise api.NotAllowedNow(why)
    return handler


def _sit_out(t: Table, who: Caller, a: SitOut) -> None:
    """Away: still dealt in, blinds posted, checked or folded for at once; never removed."""
    seat = t.need_seat(who.account_id)
    seat.sitting_out = True
    if t.waiting_on(who.account_id):
        t.drive()


class Tournament(Protocol):
    """What a tournament table asks of its tournament (actor.py's `Tournament`)."""

    number: int

    def deal(self, number: int) -> Deal | Hold:
        """May table `number` deal now, and how (the director's answer, remembered)."""

    def void(self, number: int) -> None:
        """The hand `deal` allowed was never played (the store refused its start)."""

    def hand_over(self, table: Table, number: int) -> None:
        """Table `number`'s hand is over: the tournament takes it from here."""

    def line(self, number: int, account: int | None) -> api.TournamentLine: ...


TOURNAMENT_HANDLERS: dict[type[Action], Any] = {
    **HANDLERS,
    Join: _refuse("the tournament seats its players: register in the lobby"),
    BuyIn: _refuse("tournament chips are not bought: every entry starts with the same chips"),
    Leave: _refuse(NO_CHIPS_OUT),
    JoinWaitList: _refuse("a tournament table has no wait list"),
    LeaveWaitList: _refuse("a tournament table has no wait list"),
    PostBlind: _refuse("a tournament posts every blind for you"),
    PostOrWait: _refuse("a tournament posts every blind for you"),
    SitOut: _sit_out,
}


class TournamentPolicy(TablePolicy):
    """Table `number` of `tournament` (module docstring)."""

    money = False
    protected_all_in = False
    away_dealt_in = True

    def __init__(self, tournament: Tournament, number: int) -> None:
        self.tournament = tournament
        self.number = number

    @property
    def handlers(self) -> dict:
        return TOURNAMENT_HANDLERS

    def dealing(self, table: Table) -> Dealing:
        return TournamentDealing(table, self.tournament, self.number)

    def settlement(self, table: Table) -> TournamentSettlement:
        return TournamentSettlement(table, self.tournament, self.number)

    def amount(self, n: int) -> str:
        return f"{n:,}"

    def line(self, table: Table, account: int | None) -> api.TournamentLine:
        return self.tournament.line(self.number, account)


class TournamentDealing(Dealing):
    """The director's deal, through the table's own start (the store records it first)."""

    def __init__(self, table: Table, tournament: Tournament, number: int) -> None:
        super().__init__(table)
        self.tournament = tournament
        self.number = number

    def ready(self) -> bool:
        return len(self.table.seats) >= 2        # the director says the rest (a Hold says why)

    def next_hand(self) -> NextHand | None:
        deal = self.tournament.deal(self.number)
        if not isinstance(deal, Deal):
            return None
        t = self.table
        players, accounts = [], []
        for number, chips in zip(deal.seats, deal.stacks):
            seat = t.seats[number]
            seat.stack = chips                   # the director's count is the tournament's
            players.append(Player(seat.name, chips, number))
            accounts.append(seat.account)
        blinds = () if deal.big_blind is None else (
            (deal.big_blind,) if deal.small_blind is None else (deal.small_blind, deal.big_blind))
        plan = HandPlan(deal.button, deal.seats, blinds,
                        () if deal.big_blind is None else (deal.small_blind_seat, deal.big_blind))
        return NextHand(plan, deal.structure, tuple(players), tuple(accounts), self.tournament.number)

    def not_dealt(self, hand: NextHand) -> None:
        self.tournament.void(self.number)


class TournamentSettlement:
    """A hand's end goes to the tournament (Tournament.hand_over)."""

    def __init__(self, table: Table, tournament: Tournament, number: int) -> None:
        self.table = table
        self.tournament = tournament
        self.number = number

    def finish(self) -> None:
        self.table.decision_clock.cancel()
        if self.table.status != "closed":        # closed: cancelled under it, the hand was voided
            self.tournament.hand_over(self.table, self.number)


__all__ = ["TOURNAMENT_HANDLERS", "Tournament", "TournamentDealing", "TournamentPolicy", "TournamentSettlement"]
