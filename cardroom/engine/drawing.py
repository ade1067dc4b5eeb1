"""The draw of a draw game: who draws in what order, the exchange, and the deferred fifth card
(seed 002). A mixin of Hand (the same object's state), kept in its own file like legality.py and
showdown.py: Hand decides when a draw starts (Hand._advance). Dealing from a stub that has run out
(_draw_cards: the reshuffle of the muck) is here too; the draws need it most, and Hand._burn uses it.
"""

from __future__ import annotations

from typing import Sequence

from cardroom.engine import events as ev
from cardroom.engine.cards import Card, shuffled
from cardroom.engine.legality import DRAW, SetupError

_new = tuple.__new__   # as in hand.py: a NamedTuple record in one C call, every field given
_NOTHING: frozenset = frozenset()


class Drawing:
    """Hand's draw steps (they read and write the Hand's own attributes)."""

    __slots__ = ()   # Hand's attributes are slots (hand.py); a mixin with a dict would undo that

    def _start_draw(self) -> None:
        self.phase = DRAW
        self.draw_index += 1
        self.draw_counts = {}
        self._deferred: list[int] = []
        self._draw_order = self._order_from((self.button + 1) % self.n)
        if not self.discarded_by:
            self.discarded_by = [[] for _ in range(self.n)]
        self.saw_flop = True
        self.events.append(_new(ev.DrawStarted, (self.draw_index,)))
        if self.rules.burn_before_draw:
            self._burn()
        self._draw_pos = 0
        self.actor = self._draw_order[0]

    def _draw(self, discards: tuple[Card, ...]) -> None:
        p = self.actor
        k = len(discards)
        if k:
            hand = self.hole[p]
            for c in discards:
                hand.remove(c)
            self.discarded_by[p].extend(discards)
            # Seed 002: up to four cards at the player's turn; a fifth after everyone else has drawn.
            now = 4 if k == 5 and self.rules.defer_fifth_card else k
            self._reclaimed = _NOTHING   # the discards a reshuffle had to deal back (_draw_cards)
            try:
                cards = self.deck.deal(now)   # _draw_cards' usual case, without its frame
            except IndexError:
                cards = self._draw_cards(now, p, discards)
            hand.extend(cards)
            # After dealing, so a reshuffle never gives back one's own discards (unless it had to).
            reclaimed = self._reclaimed
            self.muck_pile.extend([c for c in discards if c not in reclaimed] if reclaimed else discards)
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
            card = self._draw_cards(1, q)
            del deferred[0]   # served: his discards may go to a later reshuffle (_draw_cards)
            self.hole[q].extend(card)
            self.events.append(_new(ev.Drew, (q, (), tuple(card), 0)))
        self.actor = None

    def _burn_for(self, q: int) -> None:
        card = self._draw_cards(1, q)[0]
        self.burns.append(card)
        self.events.append(_new(ev.Burned, (card,)))

    def _draw_cards(self, k: int, player: int | None, holding: Sequence[Card] = ()) -> list[Card]:
        """Deal k cards from the stub; when it runs out, reshuffle the muck (and burns), re-burning
        if the rules say so (seed 002). Nobody is dealt his own discards back (seed 000): the pool leaves out those of
        `player` and of every player still owed a deferred fifth card, who is dealt from this stub
        too. Only when that leaves too few cards are the others' owed discards, and then his own,
        let in.

        `holding`: the discards `player` is exchanging right now (not yet in the muck)."""
        deck = self.deck
        try:
            return deck.deal(k)   # the usual case; deal raises (changing nothing) when the stub is short
        except IndexError:
            pass
        got = deck.deal(deck.remaining)
        need = k - len(got)
        owed = [] if player is None else [player]
        if self.discarded_by:   # a draw has started, so _deferred is set
            owed += [q for q in self._deferred if q != player]
        for keep_out in (owed, owed[:1]):
            own = {c for q in keep_out for c in self.discarded_by[q]}
            pool = [c for c in self.muck_pile if c not in own] + self.burns
            if len(pool) >= need:
                break
        else:
            pool = self.muck_pile + self.burns + list(holding)  # last resort: their own discards
        taken = set(pool)
        self.muck_pile = [c for c in self.muck_pile if c not in taken]
        self.burns = [c for c in self.burns if c not in taken]
        if holding:
            self._reclaimed = {c for c in holding if c in taken}
        stub = shuffled(pool, deck.rng)
        reburn = self.rules.reburn_on_reshuffle and len(stub) > need
        deck.replace_stub(stub)
        if reburn:
            self.burns.append(deck.deal_one())
        self.events.append(ev.Reshuffled(deck.remaining, reburn))
        if deck.remaining < need:
            raise SetupError("the deck is exhausted")   # unreachable with 52 cards and <= 10 players
        return got + deck.deal(need)
