"""The replay's deck: it deals exactly the file's cards, and unused cards for ?? and burns."""

from __future__ import annotations

from collections import deque
from typing import Sequence

from cardroom.engine.cards import CARDS, Card, Deck, random_source
from cardroom.engine.hand import Hand
from cardroom.engine.phh.errors import PHHError, PHHRuleError
from cardroom.engine.phh.parse import Action, Slot


class ScriptedDeck(Deck):
    """Deals what the replay tells it: `plan` holds, per deal, a file slot (its card, or ?? =
    any unused card) or None for a burn. Cards the file still needs are never used as fillers.

    In recording mode (the dry run of one step) it deals unreserved cards and logs them."""

    def __init__(self, reserved: dict[Card, list[float]], recording: bool = False) -> None:
        self.rng = random_source(None)
        self.stub: list[Card] = list(CARDS)
        self.dealt: list[Card] = []
        self.plan: deque[Slot | None] = deque()
        self.reserved = reserved
        self.recording = recording
        self.log: list[Card] = []
        self.fillers: set[Card] = set()
        self.error: PHHError | None = None
        self.hand: Hand | None = None      # set once the hand is dealt (for _swap_in)
        self.unknowns = False              # the file has ?? cards
        self.served_by: dict[Card, Slot] = {}
        self.reveals: dict[int, Action] = {}   # player -> his `sm` action, where it shows cards dealt as ??

    # the Deck interface the engine uses
    @property
    def remaining(self) -> int:
        return len(self.stub)

    def order(self) -> list[Card]:
        return self.dealt + self.stub

    def replace_stub(self, cards: Sequence[Card]) -> None:
        self.stub = list(cards)

    def deal(self, n: int = 1) -> list[Card]:
        if n > len(self.stub):
            raise IndexError(f"cannot deal {n} cards: {len(self.stub)} left in the stub")
        return [self._one() for _ in range(n)]

    def _filler(self) -> Card:
        """An unused card no later deal in the file needs; failing that (a reshuffle is coming),
        the one needed last: it comes back with the burns and the muck."""
        best, best_next = None, -1.0
        for c in self.stub:
            uses = self.reserved.get(c)
            if not uses:
                return c
            if uses[0] > best_next:
                best, best_next = c, uses[0]
        if best is None:
            raise AssertionError("a filler is taken from a stub with cards in it")
        return best

    def _one(self) -> Card:
        if self.recording:
            card = self._filler()
            self.log.append(card)
        else:
            slot = self.plan.popleft() if self.plan else None
            if slot is not None and slot.card is not None:
                card = slot.card
                if card not in self.stub and not self._swap_in(card):
                    err = PHHRuleError(f"action {slot.action}: card {card!r} cannot be dealt: it is not in "
                                       "the deck (dealt before)")
                    self.error = err
                    raise err
                self.fillers.discard(card)
                uses = self.reserved[card]
                if slot.rank in uses:
                    uses.remove(slot.rank)
            else:
                card = self._filler()
                self.fillers.add(card)
            if slot is not None:
                slot.served = card
                self.served_by[card] = slot
        self.stub.remove(card)
        self.dealt.append(card)
        return card

    def _swap_in(self, card: Card) -> bool:
        """A file with unknown cards cannot say which cards were burned or mucked, so a known card
        that the reshuffled stub lacks may be taken from the muck or the burns (a stub card takes
        its place there) as long as nobody holds it and it is not on the board."""
        hand = self.hand
        if hand is None or not self.unknowns or not self.stub:
            return False
        if card in hand.board:
            return False
        piles = [hand.muck_pile, hand.burns]
        if card in self.fillers:
            piles += hand.hole      # an unknown (??) card someone holds: give them another unknown
        elif any(card in h for h in hand.hole):
            return False
        for pile in piles:
            if card in pile:
                sub = self._filler()
                self.stub.remove(sub)
                pile[pile.index(card)] = sub
                if card in self.fillers:
                    self.fillers.discard(card)
                    self.fillers.add(sub)
                    slot = self.served_by.pop(card, None)
                    if slot is not None:
                        slot.served = sub
                        self.served_by[sub] = slot
                self.stub.append(card)
                return True
        return False

    def reveal(self, hand: Hand, p: int) -> None:
        """As p shows down: put the cards his `sm` shows but the file dealt as ?? into his hand, each
        in place of an unknown card this deck gave him; that card takes the shown one's place (the
        stub, the muck, the burns, or another unknown hand). The file says what the hand is at the
        showdown, not which deal brought each card: a player's history of a draw game hides that
        (which cards another player drew), and a card may have been someone else's before a
        reshuffle. (A dry run's recorder leaves the hand as dealt: it only learns what is dealt.)"""
        a = self.reveals.get(p)
        if a is None or self.recording:
            return
        hole, fillers = hand.hole[p], self.fillers
        for c in a.reveals:
            if c in hole:
                fillers.discard(c)      # the deck happened to give it for a ??
                continue
            given = next((x for x in hole if x in fillers and x not in a.reveals), None)
            piles = [self.stub, hand.muck_pile, hand.burns] + [h for h in hand.hole if c in h and c in fillers]
            pile = next((pile for pile in piles if c in pile), None)
            if given is None or pile is None:
                err = PHHRuleError(f"action {a.number} ({a.text!r}): p{p + 1} shows {c!r}, "
                                   + ("which is not in their hand" if given is None else "which is dealt elsewhere"))
                self.error = err
                raise err
            pile[pile.index(c)] = given
            hole[hole.index(given)] = c
            fillers.discard(c)

    def recorder(self) -> ScriptedDeck:
        d = ScriptedDeck(self.reserved, recording=True)
        d.stub = list(self.stub)
        d.dealt = list(self.dealt)
        return d
