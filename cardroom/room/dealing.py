"""Dealing a hand: the plan (who is dealt, who posts), blind prompts, the start in the store.

Apart from `Table` because starting a hand is a conversation with the store of its own: the
seats and the deck's order go to the writer (`begin_hand`), the dealt seats' chips are the
hand's meanwhile (`Table.recording`), and a store that refuses or fails pauses the table or
tries again later. When the store has it, the engine's `Hand` is made and its first events played.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cardroom.engine.betting import Structure
from cardroom.engine.cards import Deck, format_cards
from cardroom.engine.hand import Hand, Player
from cardroom.room.ports import HandRecord, HandStart, Refused, SeatStack
from cardroom.room.seating import HandPlan, SeatFacts, plan_hand
from cardroom.room.settlement import SETTLE_PAUSE_MOST

if TYPE_CHECKING:
    from cardroom.room.table import Table

log = logging.getLogger("cardroom.table")
# Seed 001: a new player may post in "at any time except when he is between the button and the big blind".
KEPT_OUT = ("you sit between the button and the big blind, where nobody may post in: "
            "you play when the button has passed you")


@dataclass(frozen=True, slots=True)
class NextHand:
    """The hand a table is about to deal: who is dealt (in seat order, with the accounts they
    belong to), the button and blinds, and this hand's structure (the blinds not posted left out:
    the engine posts a structure's blinds left of its button in order)."""

    plan: HandPlan
    structure: Structure
    players: tuple[Player, ...]
    accounts: tuple[int, ...]
    tournament_id: int | None = None     # a tournament's hand: stacks in chips (HandStart)


class Dealing:
    """A cash game's dealing: the blind rules of room/seating.py and, with Auto Blind off, the
    blind prompts. A tournament's table deals as its director says (room/tournaments), through
    the same start: it overrides `ready`, `next_hand` and `not_dealt`."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def ready(self) -> bool:
        """Could a hand be dealt if the table were idle: two players with chips, sitting in."""
        return sum(1 for s in self.table.seats.values() if s.stack > 0 and not s.sitting_out) >= 2

    def next_hand(self) -> NextHand | None:
        """The next hand by the blind rules, or None (too few players, or a blind prompt pending)."""
        t = self.table
        facts = [SeatFacts(s.number, ready=s.stack > 0 and not s.sitting_out and not s.leaving,
                           owes=s.owes, missed=s.missed, wants_post=s.wants_post)
                 for s in t.seats.values()]
        st = t.settings.structure
        plan = plan_hand(facts, t.plan, () if t.settings.variant.bring_in else st.blinds)
        if plan is None:
            return None
        if t.blinds.ask(plan):
            return None
        players, accounts = [], []
        for number in plan.dealt:
            s = t.seats[number]
            players.append(Player(s.name, s.stack, number, live_post=plan.live_posts.get(number, 0),
                                  dead_post=plan.dead_posts.get(number, 0)))
            accounts.append(s.account)
        for number, passed in plan.missed.items():
            s = t.seats.get(number)
            if s and s.owes != "new":    # a newcomer owes a big blind, whatever passed him
                s.owes = "missed"
                s.missed |= passed
        # The engine posts a structure's blinds left of its button in order: this hand's without
        # those not posted (dead under the dead button, or heads-up the smallest).
        return NextHand(plan, st.for_hand([who is not None for who in plan.blinds]), tuple(players),
                        tuple(accounts))

    def not_dealt(self, hand: NextHand) -> None:
        """The store did not record the hand's start: it was never dealt (a cash table forgets it)."""

    def start(self) -> None:
        t = self.table
        t.next_hand_timer = None
        if t.status != "open" or t.closing is not None or not t.idle() or t.clock_held:
            return
        hand = self.next_hand()
        if hand is None:
            return
        deck = Deck(t.rng)
        start = HandStart(t.name, tuple(SeatStack(p.seat, a, p.stack) for p, a in zip(hand.players, hand.accounts)),
                          format_cards(deck.order()), hand.tournament_id)
        t.recording = frozenset(hand.plan.dealt)
        t.writer.submit(lambda: t.store.begin_hand(start),
                        lambda record, error: self._begun(hand, deck, record, error))

    def _begun(self, next_hand: NextHand, deck: Deck, record: HandRecord | None,
               error: Exception | None) -> None:
        t = self.table
        t.recording = frozenset()
        plan = next_hand.plan
        if error is not None:
            log.error("table %s cannot start a hand: %s", t.name, error)
            self.not_dealt(next_hand)
            if isinstance(error, Refused):
                t.status = "paused"
                t.say(f"The table is paused: {error}", "system", "Table")
            else:   # the database is busy or failing: try again after a pause
                t.say(f"The next hand waits for the card room's records ({error})", "system", "Table")
                t.next_hand_timer = t.clock.call_later(max(t.settings.between_hands, SETTLE_PAUSE_MOST),
                                                        self.start)
            for number in plan.dealt:
                seat = t.seats.get(number)
                if seat is not None and seat.leaving:
                    t.floor.remove(seat, "leaves the table")
            t.changed()
            t.maybe_start()   # a room shutting down hears that this table is idle
            return
        if t.status == "closed":
            # Stopped while the store recorded the start (the room closing, a tournament cancelled):
            # never played, so void now (each stack back where it was) rather than dealt.
            t.writer.submit(lambda: t.store.void_hand(record.hand_id, "the table closed before the hand was dealt"),
                            lambda _, e: e and log.error("voiding hand %s failed: %s", record.hand_id, e))
            self.not_dealt(next_hand)
            t.maybe_start()
            return
        button = plan.dealt.index(plan.button) if plan.button is not None else 0
        t.plan = plan
        hand_id = t.hand_id = record.hand_id
        t.hand_started = record.started_at
        t.hand_seats = list(plan.dealt)
        t.hand_accounts = list(next_hand.accounts)
        t.hand = Hand(t.settings.variant, next_hand.structure, next_hand.players, button=button, deck=deck,
                      rules=t.settings.rules)
        for number in plan.dealt:
            s = t.seats[number]
            s.owes, s.missed = "", frozenset()
            if s.message == KEPT_OUT:
                s.message = ""
        for s in t.seats.values():
            # A ready poster left out can only be between the button and the big blind (plan_hand).
            if s.wants_post and s.owes and s.number not in plan.dealt and s.stack > 0 \
                    and not (s.sitting_out or s.leaving):
                s.message = KEPT_OUT
        t.say(f"Hand #{hand_id} begins")
        t.after_events(list(t.hand.events))
