"""Dealing a hand: the plan (who is dealt, who posts), blind prompts, the start in the store.

Apart from `Table` because starting a hand is a conversation with the store of its own: the
seats and the deck's order go to the writer (`begin_hand`), the dealt seats' chips are the
hand's meanwhile (`Table.recording`), and a store that refuses or fails pauses the table or
tries again later. When the store has it, the engine's `Hand` is made and its first events played.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

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


class Dealing:
    def __init__(self, table: Table) -> None:
        self.table = table

    def start(self) -> None:
        t = self.table
        t.next_hand_timer = None
        if t.status != "open" or t.closing is not None or not t.idle() or t.clock_held:
            return
        facts = [SeatFacts(s.number, ready=s.stack > 0 and not s.sitting_out and not s.leaving,
                           owes=s.owes, missed=s.missed, wants_post=s.wants_post)
                 for s in t.seats.values()]
        st = t.settings.structure
        plan = plan_hand(facts, t.plan, () if t.settings.variant.bring_in else st.blinds)
        if plan is None:
            return
        if t.blinds.ask(plan):
            return
        players, accounts = [], []
        for number in plan.dealt:
            s = t.seats[number]
            players.append(Player(s.name, s.stack, number, live_post=plan.live_posts.get(number, 0),
                                  dead_post=plan.dead_posts.get(number, 0)))
            accounts.append(s.account)
        for number, passed in plan.missed.items():
            away = t.seats.get(number)
            if away and away.owes != "new":    # a newcomer owes a big blind, whatever passed him
                away.owes = "missed"
                away.missed |= passed
        deck = Deck(t.rng)
        start = HandStart(t.name, tuple(SeatStack(p.seat, a, p.stack) for p, a in zip(players, accounts)),
                          format_cards(deck.order()))
        t.recording = frozenset(plan.dealt)
        t.writer.submit(lambda: t.store.begin_hand(start),
                           lambda record, error: self._begun(plan, players, accounts, deck, record, error))

    def _begun(self, plan: HandPlan, players: list[Player], accounts: list[int], deck: Deck,
                    record: HandRecord | None, error: Exception | None) -> None:
        t = self.table
        t.recording = frozenset()
        if error is not None:
            log.error("table %s cannot start a hand: %s", t.name, error)
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
        if record is None:
            raise AssertionError("the store answers begin_hand with the hand's record")
        st = t.settings.structure
        button = plan.dealt.index(plan.button) if plan.button is not None else 0
        t.plan = plan
        hand_id = t.hand_id = record.hand_id
        t.hand_started = record.started_at
        t.hand_seats = list(plan.dealt)
        t.hand_accounts = accounts
        # The engine posts a structure's blinds left of its button in order: this hand's without
        # those not posted (dead under the dead button, or heads-up the smallest).
        st = st.for_hand([who is not None for who in plan.blinds])
        t.hand = Hand(t.settings.variant, st, players, button=button, deck=deck,
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
