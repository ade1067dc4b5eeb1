"""The draw of a draw game: who draws in what order, the exchange, and the deferred fifth card
(seed 002). A mixin of Hand (the same object's state), kept in its own file like legality.py and
showdown.py: Hand decides when a draw starts (Hand._advance). Dealing from a stub that has run out
(_draw_cards: the reshuffle of the muck) is here too; the draws need it most, and Hand._burn uses it.
"""

from __future__ import annotations

from typing import Sequence, TypeVar

from cardroom.engine import events as ev
from cardroom.engine.cards import Card, shuffled
from cardroom.engine.handstate import HandState
from cardroom.engine.legality import DRAW, SetupError

_new = tuple.__new__   # as in hand.py: a NamedTuple record in one C call, every field given
_C = TypeVar("_C", Card, Card | None)   # exchange works on a redacted hand too (None: a hidden card)


def exchange(hand: Sequence[_C], discards: Sequence[_C], cards: Sequence[_C]) -> list[_C]:
    """`hand` after a draw that threw `discards` and dealt `cards`: each new card takes a thrown
    card's place, the leftmost place first, as PokerStars shows a drawn hand (Qd 7h 6c 6h Th,
    throwing 7h Th and drawing 4h Td, is Qd 4h 6c 6h Td). New cards put after the kept ones would
    tell anyone shown the hand which cards were drawn (the last k, k being public).

    A deferred fifth card (seed 002) comes in a later exchange with nothing thrown: it goes last,
    which is the place left for it (its owner threw all five). Works on redacted hands too: a
    hidden card (None) stands for any one of the hand's hidden cards."""
    out = list(hand)
    places: list[int] = []
    for c in discards:
        i = out.index(c)
        while i in places:            # the same hidden card (None) again: the next one
            i = out.index(c, i + 1)
        places.append(i)
    places.sort()
    for i, c in zip(places, cards):
        out[i] = c
    for i in reversed(places[len(cards):]):   # a fifth card still owed: its place waits at the end
        del out[i]
    out.extend(cards[len(places):])
    return out


class Drawing(HandState):
    """Hand's draw steps (they read and write the Hand's own attributes)."""

    __slots__ = ()   # Hand's attributes are HandState's slots; a mixin with a dict would undo that

    def _start_draw(self) -> None:
        self.phase = DRAW
        self.draw_index += 1
        self.draw_counts = {}
        self._deferred = []
        self._draw_order = self._order_from((self.button + 1) % self.n)
        if not self.discarded_by:
            self.discarded_by = [[] for _ in range(self.n)]
        self.saw_flop = True
        self.events.append(_new(ev.DrawStarted, (self.draw_index,)))
        if self.rules.burn_before_draw:
            self._burn()
        self._draw_pos = 0
        self.actor = self._draw_order[0]

    def _draw(self, p: int, discards: tuple[Card, ...]) -> None:
        """p (the actor) throws `discards` and is dealt as many."""
        k = len(discards)
        if k:
            hand = self.hole[p]
            held = tuple(hand)
            # Out of his hand before his cards come (a replay's deck looks there for who holds what).
            for c in discards:
                hand.remove(c)
            self.discarded_by[p].extend(discards)
            # Into the muck before his cards come: a reshuffle deals them back only when nothing
            # else is left, and then after every other card (_draw_cards).
            self.muck_pile.extend(discards)
            # Seed 002: up to four cards at the player's turn; a fifth after everyone else has drawn.
            now = 4 if k == 5 and self.rules.defer_fifth_card else k
            try:
                cards = self.deck.deal(now)   # _draw_cards' usual case, without its frame
            except IndexError:
                cards = self._draw_cards(now, p, discards)
            hand[:] = exchange(held, discards, cards)
            self.events.append(_new(ev.Drew, (p, discards, tuple(cards), k - now)))
            if k > now:
                self._deferred.append(p)
        else:
            self.events.append(_new(ev.Drew, (p, (), (), 0)))   # standing pat
        self.draw_counts[p] = k
        self._draw_pos += 1
        if self._draw_pos < len(self._draw_order):
            self.actor = self._draw_order[self._draw_pos]
            return
        deferred = self._deferred
        while deferred:
            q = deferred[0]
            if q == self._draw_order[-1]:
                self._burn_for(q)   # the last player's fifth card comes after a burn
            card = self._fifth_card(q)
            del deferred[0]   # served: his discards may go to a later reshuffle (_draw_cards)
            self.hole[q].extend(card)   # the place of his last thrown card (exchange)
            self.events.append(_new(ev.Drew, (q, (), tuple(card), 0)))
        self.actor = None

    def _fifth_card(self, q: int) -> list[Card]:
        """q's deferred fifth card. The five he threw in this draw may be in the stub when a
        reshuffle for another player needed them: he is dealt the first stub card that is not one
        of them (the stub's order is random, so any of the others is as likely). Only a stub of
        nothing but his throws deals him one of them, as the muck waits for the stub to run out.
        (Moving a card within the stub keeps every count the replay of a hand history relies on.)"""
        thrown = self.discarded_by[q][-5:]
        deck = self.deck
        if deck.remaining:
            order = deck.order()
            stub = order[len(order) - deck.remaining:]
            if stub[0] in thrown:
                other = next((i for i, c in enumerate(stub) if c not in thrown), None)
                if other is not None:
                    stub.insert(0, stub.pop(other))
                    deck.replace_stub(stub)
        return self._draw_cards(1, q, thrown)

    def _burn_for(self, q: int) -> None:
        card = self._draw_cards(1, q)[0]
        self.burns.append(card)
        self.events.append(_new(ev.Burned, (card,)))

    def _draw_cards(self, k: int, player: int | None, thrown: Sequence[Card] = ()) -> list[Card]:
        """Deal k cards from the stub; when it runs out, reshuffle the muck and the burns (seed 002:
        "all the mucked cards"), re-burning if the rules say so.

        What a reshuffle gives `player` (DESIGN.md): the pool leaves out the discards of every
        player still owed cards (he and those owed a deferred fifth card) while it is big enough
        without them; failing that, only his own; failing that, only the cards he threw in this
        draw (`thrown`: his earlier draws' may come back in triple draw); and only when nothing
        else is left are those dealt, after every other card."""
        deck = self.deck
        try:
            return deck.deal(k)   # the usual case; deal raises (changing nothing) when the stub is short
        except IndexError:
            pass
        got = deck.deal(deck.remaining)
        need = k - len(got)
        throws = set(thrown)
        owed = [] if player is None else [player]
        if self.discarded_by:   # a draw has started, so _deferred is set
            owed += [q for q in self._deferred if q != player]
        piles = self.muck_pile + self.burns
        for keep_out in ({c for q in owed for c in self.discarded_by[q]},
                         {c for q in owed[:1] for c in self.discarded_by[q]}, throws):
            stub = [c for c in piles if c not in keep_out]
            if len(stub) >= need:
                stub = shuffled(stub, deck.rng)
                break
        else:   # nothing else is left: his own throws come after every other card
            stub = shuffled(stub, deck.rng) + shuffled([c for c in piles if c in throws], deck.rng)
        # A re-burn never takes a card he needs (nor leaves him his own throws instead).
        reburn = self.rules.reburn_on_reshuffle and len([c for c in stub if c not in throws]) > need
        taken = set(stub)
        self.muck_pile = [c for c in self.muck_pile if c not in taken]
        self.burns = [c for c in self.burns if c not in taken]
        deck.replace_stub(stub)
        if reburn:
            self.burns.append(deck.deal_one())
        self.events.append(ev.Reshuffled(deck.remaining, reburn))
        if deck.remaining < need:
            raise SetupError("the deck is exhausted")   # unreachable with 52 cards and <= 10 players
        return got + deck.deal(need)
