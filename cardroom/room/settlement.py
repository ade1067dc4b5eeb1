"""The end of a hand: recording it in the store, retrying, voiding, and giving the stacks back.

Apart from `Table` because settling is a conversation with the store that outlives the hand:
the settlement goes to the writer, a passing refusal is retried (`settle_retries`: for the
table's `store_patience`), then the hand is voided (every stack back to its start), and a void
that fails is retried until it goes through. Only when the store has the hand's end do the seats
get their new stacks (`recorded`); meanwhile the table's `recording` keeps those chips the hand's.
"""

from __future__ import annotations

import logging
from typing import Any

from cardroom.engine import events as ev
from cardroom.engine.hand import Hand
from cardroom.room.history import public_text, record_of
from cardroom.room.ports import HandRecord, Refused
from cardroom.room.tablesettings import STORE_PATIENCE
from cardroom.room.tablefaces import SettlingTable

log = logging.getLogger("cardroom.table")
# A settlement the store refused for a passing reason (busy, disk full, PostgreSQL restarting) is
# tried again after pauses doubling from the first up to the last, for as long as the table's
# store_patience (seconds; tablesettings.STORE_PATIENCE by default); then the hand is voided. A
# void that fails too is tried again at most VOID_RETRY_MAX apart until it goes through (no hand
# can be dealt without the store).
SETTLE_PAUSE_FIRST, SETTLE_PAUSE_MOST = 0.5, 4.0
VOID_RETRY_MAX = 30.0


def settle_retries(patience: float) -> tuple[float, ...]:
    """The pauses before each retry of a settlement: doubling, at most SETTLE_PAUSE_MOST, until
    they add up to `patience` seconds."""
    pauses: list[float] = []
    pause = SETTLE_PAUSE_FIRST
    while sum(pauses) < patience:
        pauses.append(pause)
        pause = min(2 * pause, SETTLE_PAUSE_MOST)
    return tuple(pauses)


SETTLE_RETRIES = settle_retries(STORE_PATIENCE)


class Settlement:
    def __init__(self, table: SettlingTable) -> None:
        self.table = table

    def finish(self) -> None:
        """The hand is over: its deltas, record and history go to the store."""
        t = self.table
        hand = t.live_hand
        t.decision_clock.cancel()
        deltas: dict[int, int] = {}
        for i, account in enumerate(t.hand_accounts):
            deltas[account] = hand.stacks[i] - hand.start_stacks[i]
        # Dated by its start, as the store and every export date it (`hand N` showed its end).
        about: dict[str, Any] = dict(table=t.name, hand_id=t.hand_id, when=t.hand_started or t.clock.wall(),
                     seats=t.settings.seats, currency=t.settings.currency)
        t.recording = frozenset(t.hand_seats)
        self.settle(t.hand_id, hand, deltas, record_of(hand, **about), public_text(hand, **about), 0)
        if t.recording:
            t.changed()   # the hand's end is on every screen while the store records it

    def settle(self, hand_id: str, hand: Hand, deltas: dict[int, int], events: str, history: str,
               tries: int) -> None:
        t = self.table

        retries = settle_retries(t.settings.store_patience)

        def then(_: object, error: Exception | None) -> None:
            if error is None:
                if tries:
                    log.info("hand %s recorded at try %d", hand_id, tries + 1)
                self.recorded(hand)
                return
            if isinstance(error, Refused) or tries == len(retries):
                # Retrying cannot help, or did not.
                log.error("settling hand %s failed (try %d, the last): %s", hand_id, tries + 1, error)
                self.void(hand_id, hand, error, 0)
                return
            log.warning("settling hand %s failed (try %d; trying again in %g s): %s", hand_id, tries + 1,
                        retries[tries], error)
            if tries == 0:
                t.say(f"Recording hand #{hand_id} is taking a moment: the card room's records are busy",
                       "system", "Table")
                t.changed()
            t.clock.call_later(retries[tries],
                               lambda: self.settle(hand_id, hand, deltas, events, history, tries + 1))
        t.writer.submit(lambda: t.store.settle_hand(hand_id, deltas, hand.rake, events, history), then)

    def void(self, hand_id: str, hand: Hand, why: Exception, tries: int) -> None:
        """The settlement could not be recorded: the hand is void and its stacks go back. The
        store says which happened (a settlement whose commit was only reported failed stands)."""
        t = self.table

        def then(record: HandRecord | None, error: Exception | None) -> None:
            if isinstance(error, Refused):   # no such hand: nothing a retry can mend
                log.error("voiding hand %s was refused: %s", hand_id, error)
                t.status = "paused"
                t.say(f"The table is paused: hand #{hand_id} could not be recorded ({error})",
                       "system", "Table")
                t.changed()
                return
            if error is not None:
                log.error("voiding hand %s failed (try %d): %s", hand_id, tries + 1, error)
                t.clock.call_later(min(VOID_RETRY_MAX, 2.0 ** tries),
                                   lambda: self.void(hand_id, hand, why, tries + 1))
                return
            if record is not None and record.status == "settled":
                self.recorded(hand)
                return
            text = (f"Hand #{hand_id} could not be recorded ({why}): it is void, and every player "
                    f"has the stack he began it with back")
            t.say(text, "system", "Table")
            for account in t.hand_accounts:
                t.page(account, f"{t.name}: {text}")
            self.recorded(hand, voided=True)
        t.writer.submit(lambda: t.store.void_hand(hand_id, f"the settlement could not be recorded: {why}"),
                        then)

    def recorded(self, hand: Hand, voided: bool = False) -> None:
        """The store has the hand's end: settled, or void (every stack back to its start)."""
        t = self.table
        t.recording = frozenset()
        dealt = len(t.hand_seats)
        stacks = hand.start_stacks if voided else hand.stacks
        if not voided:
            saw = sum(1 for i in range(dealt) if saw_second_round(hand, i))
            t.stats.append((t.clock.now(), sum(e.amount for e in hand.events if isinstance(e, ev.Awarded))
                            + hand.rake, dealt, saw))
        for i, number in enumerate(t.hand_seats):
            seat = t.seats[number]
            seat.stack = stacks[i]
            if seat.pending_chips:
                seat.stack += seat.pending_chips
                seat.pending_chips = 0
            if seat.timed_out and not seat.sitting_out and not seat.leaving:
                t.holds.start_sit_out(seat)   # a player who timed out is sat out after the hand
            if seat.leaving and t.seats.get(number) is seat:
                t.floor.remove(seat, "leaves the table")
            elif seat.stack == 0:
                seat.message = "you are out of chips: buy in to keep playing"
                t.holds.free_if_empty_and_away(seat)
        t.changed()
        t.maybe_start()


def saw_second_round(hand: Hand, i: int) -> bool:
    """Did player `i` stay past the first betting round (the table's "saw the flop" share)?"""
    folded_first = False
    for e in hand.events:
        if isinstance(e, (ev.DealtBoard, ev.DrawStarted)) or (isinstance(e, ev.RoundStarted) and e.index > 0):
            break
        if isinstance(e, ev.Folded) and e.player == i:
            folded_first = True
    return not folded_first
