"""One hand of poker as a state machine: no I/O, no clock, randomness only through the deck.

    hand = Hand(variant, structure, players, button=3, deck=Deck(rng))
    hand.actor            # whose decision it is (player index) or None when the hand is over
    hand.legal()          # what that player may do, with the amounts
    hand.call()           # each action returns the events it produced, or raises IllegalAction

Players are given in seat order (ascending seat numbers = clockwise). The button is a player index.
Every change is an event (events.py) appended to `hand.events`; an illegal action raises a
specific IllegalAction saying which rule it breaks and changes nothing.
"""

from __future__ import annotations

from functools import cache
from typing import Callable, Sequence

from cardroom.engine import events as ev
from cardroom.engine.betting import ANTE_ALL, ANTE_BUTTON, FIXED, NO, POT, SPREAD, Rules, Structure
from cardroom.engine.cards import Card, Deck, check_unique
from cardroom.engine.drawing import Drawing
from cardroom.engine.evaluation import evaluator
# Player is imported from here by the rest of cardroom.
from cardroom.engine.handstate import Player as Player
# The errors, Legal and the phase names live in legality.py with legal() and verify(); the rest of
# cardroom imports them from here, as before the split.
from cardroom.engine.legality import (  # noqa: F401
    BET, DONE, DRAW, SHOWDOWN, ActionNotAllowed, BadAmount, BadDiscard, IllegalAction, Legal, Legality,
    NotYourTurn, SetupError,
)
from cardroom.engine.pots import Pot, pots_of, uncalled
from cardroom.engine.showdown import Showdown
from cardroom.engine.showing import showing_value
from cardroom.engine.variants import Variant


# A NamedTuple's own __new__ is a Python function (it fills in defaults): the per-action records
# (Legal and the betting events) are built with tuple.__new__ and every field given, one C call.
_new = tuple.__new__
Folded, Checked, Called, BetTo = ev.Folded, ev.Checked, ev.Called, ev.BetTo
# The largest blind, posted last, is the big blind (three blinds: seed 002; DESIGN.md).
_BLIND_NAMES = {0: (), 1: ("big blind",), 2: ("small blind", "big blind"),
                3: ("small blind", "blind", "big blind")}


def blind_posters(n: int, button: int, blinds: tuple[int, ...]) -> tuple[Sequence[int], tuple[int, ...]]:
    """Who posts which blind, left of the button in order: (player indices, amounts). Heads-up the
    two largest are posted, the smaller by the button (who acts first before the flop or draw)."""
    if n == 2 and len(blinds) >= 2:
        return (button, (button + 1) % n), blinds[-2:]
    return _clockwise(n)[(button + 1) % n][:len(blinds)], blinds


def ante_posters(n: int, button: int, blinds: tuple[int, ...], style: str) -> Sequence[int]:
    """Who antes (Structure.ante_style): everyone, or only the player who posts the big blind, or
    only the button."""
    if style == ANTE_ALL:
        return range(n)
    if style == ANTE_BUTTON:
        return (button,)
    posters, blinds = blind_posters(n, button, blinds)
    return (posters[len(blinds) - 1],)    # the big blind: the largest, posted last


@cache
def _seats(m: int) -> tuple[slice, ...]:
    """For cards dealt one at a time around m players, the j-th player's cards: j, j + m,
    j + 2m ... (stepped slices, made once per m)."""
    return tuple(slice(j, None, m) for j in range(m))


@cache
def _clockwise(n: int) -> tuple[tuple[int, ...], ...]:
    """For each start 0..n: the player indices clockwise from it (a start of n is 0 again)."""
    return tuple(tuple((start + i) % n for i in range(n)) for start in range(n + 1))


class Hand(Legality, Drawing, Showdown):
    __slots__ = ()   # the attributes are HandState's slots (handstate.py)

    def __init__(self, variant: Variant, structure: Structure, players: Sequence[Player], *,
                 button: int = 0, deck: Deck | None = None, rules: Rules | None = None) -> None:
        n = len(players)
        if n < 2:
            raise SetupError("a hand needs at least two players")
        if n > variant.max_seats:
            raise SetupError(f"{variant.name} is dealt to at most {variant.max_seats} players")
        # Player's columns in one C-level transpose (name, stack, seat, live_post, dead_post),
        # rather than a Python loop for the stacks and another for the posts.
        columns = tuple(zip(*players))
        stacks = list(columns[1])
        shortest = min(stacks)
        if shortest <= 0:
            raise SetupError("every player dealt in needs chips")
        if not variant.bring_in and not (0 <= button < n):
            raise SetupError("the button must be one of the players")
        self.variant = variant
        self.structure = structure
        self.rules = rules or Rules.of_game(variant)   # the game's own page unless the table says otherwise
        self.players = tuple(players)
        self.n = n
        self.button = button % n
        self.deck = deck if deck is not None else Deck()
        self.start_stacks = tuple(stacks)
        self.stacks = stacks
        self.totals = [0] * n          # put in this hand
        self.dead = [0] * n            # of which dead money (antes, a missed small blind)
        self.bets = [0] * n            # put in this betting round
        self.folded = [False] * n
        self._live = n                 # players not folded: folded.count(False), kept as we go
        self.all_in = [False] * n
        self.protected = [False] * n
        # Who may still bet: the players not folded, all-in or protected (kept with those lists).
        self._active = set(range(n))
        # Each player's cards and their face-up flags: lists made by the first street's deal,
        # which deals to every player (_deal_street), rather than empty lists made here to extend.
        # (None until then: the deal replaces each before __init__ returns, so they are typed as lists.)
        self.hole = [None] * n  # type: ignore[list-item]  # filled by the first deal, see above
        self.up = [None] * n  # type: ignore[list-item]  # filled by the first deal, see above
        self.board = []
        self.muck_pile = []     # folded hands and discards: what a reshuffle may use
        self.discarded_by = []   # per player, from the first draw (_start_draw)
        self.burns = []
        self.events = []
        self.street = -1               # index into variant.streets
        self.round = -1                # betting round index
        self.phase = BET
        self.actor = None
        self.shown = {}
        self.showdown_order = []
        self.last_aggressor = None
        self.draw_counts = {}   # public until the first action after the draw
        self.draw_index = -1
        self.rake = 0
        self.saw_flop = False
        self._high = evaluator(variant.high)
        self._low = evaluator(variant.low) if variant.low else None
        self._legal = None   # legal() for the current state; every change clears it
        self._must_raise = self.rules.must_raise_to_enter and not variant.bring_in
        self._big_blind = structure.big_blind
        self._stud = variant.bring_in
        self._clockwise = _clockwise(n)
        self._raise_id = 0
        self._acted_at = [-1] * n   # per player: the _raise_id when they last acted (see _start_round)
        self._posts = any(columns[3]) or any(columns[4])   # a live or dead post to make
        # No stack can run out this hand (fixed limit, capped): legal() skips the all-in rules.
        most = (structure.most_put_in(len(variant.streets), variant.big_bet_from)
                if structure.kind == FIXED and not variant.bring_in else None)
        self._no_stack_runs_out = most is not None and shortest > most and not self._posts
        # Dead posts for the main pot, when any (see pots): a missed small blind, a big blind's or
        # button's ante.
        self._dead_posts = None
        self._start()

    # ------------------------------------------------------------------ setup and dealing
    def _put(self, p: int, amount: int, live: bool = True) -> int:
        """Move chips from p's stack into the middle and return how many: every ante, blind,
        post, call, bet and raise. A stack that cannot cover `amount` goes all-in for what it has
        (and may bet no more this hand)."""
        stacks = self.stacks
        stack = stacks[p]
        if amount >= stack:
            amount = stack
            self.all_in[p] = True
            self._active.discard(p)
        stacks[p] = stack - amount
        self.totals[p] += amount
        if live:
            self.bets[p] += amount
        else:
            self.dead[p] += amount    # antes and dead blinds: never returned as an uncalled bet
        return amount

    def _dead_post(self, p: int, amount: int) -> None:
        """p's post of dead money that goes to the main pot (see pots)."""
        if self._dead_posts is None:
            self._dead_posts = [0] * self.n
        self._dead_posts[p] += amount

    def _start(self) -> None:
        s, v, n = self.structure, self.variant, self.n
        if s.ante:
            # Dead money first, before the blinds: a short stack antes all-in for less.
            for p in ante_posters(n, self.button, s.blinds, s.ante_style):
                a = self._put(p, s.ante, live=False)
                self.events.append(ev.Posted(p, "ante", a, self.all_in[p]))
                if s.ante_style != ANTE_ALL:
                    self._dead_post(p, a)
        self._blind_level = 0
        if not v.bring_in:
            self._post_blinds()
        self._deal_street(0)
        self._start_round()
        if self.actor not in self._pending:
            # The round was skipped (blinds or antes all-in), or stud's bring-in is all-in already.
            self._advance()

    def _post_blinds(self) -> None:
        s = self.structure
        posters, blinds = blind_posters(self.n, self.button, s.blinds)
        if self.n == 2:
            names = _BLIND_NAMES[len(blinds)]   # heads-up: the button's is the small blind
        else:   # the table's names, where the hand is dealt without its smaller blinds (for_hand)
            names = _BLIND_NAMES[len(blinds) + s.first_blind][s.first_blind:]
        events, stacks, all_in = self.events, self.stacks, self.all_in
        for p, amount, name in zip(posters, blinds, names):
            if not stacks[p]:
                continue          # all-in on his ante: nothing left to post
            amount = self._put(p, amount)
            events.append(_new(ev.Posted, (p, name, amount, all_in[p])))
        self._last_blind = posters[-1] if posters else self.button
        for p, pl in enumerate(self.players if self._posts else ()):
            if not (pl.live_post or pl.dead_post):
                continue
            if pl.live_post and p not in posters:
                a = self._put(p, pl.live_post)
                self.events.append(ev.Posted(p, "live", a, self.all_in[p]))
            if pl.dead_post and self.stacks[p]:
                a = self._put(p, pl.dead_post, live=False)
                self.events.append(ev.Posted(p, "dead", a, self.all_in[p]))
                self._dead_post(p, a)
        self._blind_level = self._big_blind if blinds else 0

    def _burn(self) -> None:
        try:
            card = self.deck.deal(1)[0]   # _draw_cards' usual case, without its frame
        except IndexError:
            card = self._draw_cards(1, None)[0]
        self.burns.append(card)
        self.events.append(_new(ev.Burned, (card,)))

    def _deal_street(self, index: int) -> None:
        self.street = index
        street = self.variant.streets[index]
        hole = street.hole
        if not hole:
            # A board street (the flop, turn and river: most streets dealt), in short.
            if street.board:
                if index > 0:
                    self._burn()
                    self.saw_flop = True
                cards = self.deck.deal(street.board)
                self.board.extend(cards)
                self.events.append(_new(ev.DealtBoard, (tuple(cards), street.name)))
            return
        first = 0 if self._stud else (self.button + 1) % self.n     # stud has no button
        # The first street is dealt to everyone (nobody has folded yet): _order_from(first).
        players = self._clockwise[first] if index == 0 else self._order_from(first)
        k = len(hole)
        deck = self.deck
        if self._stud and deck.remaining < 1 + k * len(players):
            # Seven-card stud with too many players left for the river: one community card
            # (the burn is skipped when it would take the last card).
            if index > 0 and deck.remaining >= 2:
                self._burn()
            card = deck.deal_one()
            self.board.append(card)
            self.events.append(ev.DealtBoard((card,), street.name))
            return
        if index > 0:
            self._burn()
            self.saw_flop = True   # "no flop, no drop": the hand got past its first round
        m = len(players)
        cards = deck.deal(k * m)
        # One card at a time around the table, as a dealer does: the j-th player in the
        # order gets cards j, j + m, j + 2m ... (a stepped slice, a new list).
        hands = map(cards.__getitem__, _seats(m))
        events, holes, ups = self.events, self.hole, self.up
        if index == 0:
            # The first street: every player's lists start here (see __init__).
            for p, mine in zip(players, hands):
                holes[p] = mine
                ups[p] = list(hole)
                events.append(_new(ev.DealtHole, (p, tuple(mine), hole)))
        else:
            for p, mine in zip(players, hands):
                holes[p].extend(mine)
                ups[p].extend(hole)
                events.append(_new(ev.DealtHole, (p, tuple(mine), hole)))
        if street.board:
            cards = self.deck.deal(street.board)
            self.board.extend(cards)
            self.events.append(_new(ev.DealtBoard, (tuple(cards), street.name)))

    def _order_from(self, first: int) -> list[int]:
        """Players still in, clockwise from `first`."""
        folded = self.folded
        return [p for p in self._clockwise[first] if not folded[p]]

    # ------------------------------------------------------------------ betting rounds
    def _start_round(self) -> None:
        self.round = r = self.round + 1
        self.phase = BET
        s = self.structure
        if s.kind == POT or s.kind == NO:
            size = self._big_blind
        elif s.kind == SPREAD:
            size = s.small_bet     # any amount from the minimum to the maximum, on every round
        else:
            size = s.big_bet if r >= self.variant.big_bet_from else s.small_bet
        self._size = size          # fixed: the bet; spread/pot/no: the minimum bet
        first_round = r == 0
        if first_round:
            # A big blind all-in for less still makes the others call the full big blind.
            level = self._blind_level
            top = max(self.bets)
            self._to_call = top if top > level else level
            self._full_level = level
            self._bet_count = 1 if level else 0
            self._bring_in_due = self._stud and s.bring_in > 0
        else:
            self.bets = [0] * self.n
            self._to_call = self._full_level = self._bet_count = 0
            self._bring_in_due = False
        self._last_raise = size
        # _raise_id counts full bets and raises through the whole hand, and a new round starts a
        # new id: what _acted_at recorded in earlier rounds can never equal it, so _acted_at needs
        # no reset (a list per round).
        self._raise_id += 1
        self.last_aggressor = None
        self._pending = pending = set(self._active)
        self.events.append(_new(ev.RoundStarted, (r, self.variant.streets[self.street].name, sum(self.totals))))
        if not pending or (len(pending) == 1 and self.bets[min(pending)] >= self._to_call):
            # Nobody left to bet against: the round is skipped.
            self._pending = set()
            self.actor = None
            return
        if self._stud:
            # Stud: from the bring-in or the best showing hand, who acts unless he may no longer
            # bet; then the next clockwise acts, as if he had checked (WSOP Live Action rule 250).
            start = self._first_actor()
        else:
            # Left of the last blind on the first round, else left of the button (a start of n is 0).
            start = self._last_blind + 1 if first_round else self.button + 1
        for p in self._clockwise[start]:
            if p in pending:
                self.actor = p
                return

    def _first_actor(self) -> int:
        """Where stud's action starts: the bring-in on the first round, else the best showing
        among all the players still in, all-in ones included (WSOP Live Action rule 250)."""
        if self.round == 0 and self.structure.bring_in:
            return self._bring_in_player()
        folded = self.folded
        return self._best_showing([p for p in range(self.n) if not folded[p]])

    def _bring_in_player(self) -> int:
        # Stud: the lowest up card brings in (suits break ties, clubs lowest); razz: the highest,
        # aces low (spades highest).
        razz = self.variant.lowball
        def key(p: int) -> tuple[int, int]:
            c = self.hole[p][2]
            r = (c.rank + 1) % 13 if razz else c.rank
            return (r, c.suit)
        live = [p for p in range(self.n) if not self.folded[p]]
        return max(live, key=key) if razz else min(live, key=key)

    def _best_showing(self, cands: list[int]) -> int:
        """Of `cands`, the best hand showing (the first of them on a tie)."""
        razz = self.variant.lowball
        def key(p: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
            ups = [c for c, u in zip(self.hole[p], self.up[p]) if u]
            return showing_value(ups, razz)
        best = max(key(p) for p in cands)
        return min(p for p in cands if key(p) == best)

    def act(self, kind: str, amount: int = 0, discards: Sequence[Card] = ()) -> list[ev.Event]:
        """Any action by name, for callers that receive one (tables, bots, replays):
        fold, check, call, bet/raise (to `amount`), complete, bring-in, draw (`discards`),
        stand pat, show, muck."""
        if kind == "fold":
            return self.fold()
        if kind == "check":
            return self.check()
        if kind == "call":
            return self.call()
        if kind in ("bet", "raise"):
            return self.bet(amount)
        if kind == "complete":
            return self.complete()
        if kind == "bring-in":
            return self.bring_in()
        if kind == "draw":
            return self.draw(discards)
        if kind == "stand pat":
            return self.stand_pat()
        if kind == "show":
            return self.show()
        if kind == "muck":
            return self.muck()
        raise ActionNotAllowed(f"unknown action {kind!r}")

    # ------------------------------------------------------------------ betting actions
    # Each action first asks the cached legal() whether it is plainly allowed (the common case);
    # only otherwise does verify() run, to raise the exact error (or to let an unusual case pass).
    # fold/check/call/bet do their work inline rather than through _do: these four are most of a
    # hand's calls, and the bound method and the extra frames were a tenth of their cost. They
    # end in _pass_on, which takes _advance's usual step (the next pending player clockwise) and
    # calls _advance only when the round may be over.
    def fold(self, player: int | None = None) -> list[ev.Event]:
        lg = self._legal or self.legal()
        if not (lg.fold and (player is None or player == lg.player)):
            self.verify("fold", 0, player)
        self._legal = None
        events = self.events
        start = len(events)
        p = lg.player   # the actor (verify refused the fold when nobody is to act)
        # _discard_hand, inline
        self.folded[p] = True
        self._active.discard(p)
        self._live = live = self._live - 1
        self.muck_pile.extend(self.hole[p])
        self.hole[p] = []
        self.up[p] = []
        events.append(_new(Folded, (p,)))
        self._pass_on(p, live > 1)
        return events[start:]

    def check(self, player: int | None = None) -> list[ev.Event]:
        lg = self._legal or self.legal()
        if not (lg.check and (player is None or player == lg.player)):
            self.verify("check", 0, player)
        self._legal = None
        events = self.events
        start = len(events)
        p = lg.player
        events.append(_new(Checked, (p,)))
        self._pass_on(p)
        return events[start:]

    def call(self, player: int | None = None) -> list[ev.Event]:
        lg = self._legal or self.legal()
        if not (lg.can_call and (player is None or player == lg.player)):
            self.verify("call", 0, player)
        self._legal = None
        events = self.events
        start = len(events)
        p = lg.player
        amount = self._put(p, self._to_call - self.bets[p])
        events.append(_new(Called, (p, amount, self.all_in[p])))
        self._pass_on(p)
        return events[start:]

    def bet(self, to: int, player: int | None = None) -> list[ev.Event]:
        """Bet or raise so that this round's total is `to` (also completes a stud bring-in)."""
        lg = self._legal or self.legal()
        if not (lg.min_to and type(to) is int and lg.min_to <= to <= lg.max_to
                and (player is None or player == lg.player)):
            lg = self.verify("bet", to, player)
        self._legal = None
        events = self.events
        start = len(events)
        self._raise(lg.player, to, lg.raise_kind)
        self._pass_on(lg.player)
        return events[start:]

    raise_to = bet

    def complete(self, player: int | None = None) -> list[ev.Event]:
        lg = self.verify("complete", self.legal().min_to, player)
        self._legal = None
        events = self.events
        start = len(events)
        self._raise(lg.player, lg.min_to, lg.raise_kind)
        self._pass_on(lg.player)
        return events[start:]

    def bring_in(self, player: int | None = None) -> list[ev.Event]:
        lg = self.verify("bring-in", 0, player)
        return self._do(self._bring_in, lg.player)

    def draw(self, discards: Sequence[Card] = (), player: int | None = None) -> list[ev.Event]:
        """Exchange `discards` (cards from the actor's hand); () stands pat."""
        lg = self._legal or self.legal()
        if not (lg.phase == DRAW and (player is None or player == lg.player)):
            lg = self.verify("draw", 0, player)
        p = lg.player
        discards = tuple(discards)
        distinct = set(discards)
        if len(distinct) != len(discards):
            raise BadDiscard("the same card is discarded twice")
        if not distinct.issubset(self.hole[p]):
            raise BadDiscard("you can only discard cards from your own hand")
        if len(discards) > lg.max_draw:
            raise BadDiscard(f"you may draw at most {lg.max_draw} cards")
        self._legal = None
        events = self.events
        start = len(events)
        self._draw(p, discards)
        if self.actor is None:
            self._advance()   # everyone has drawn: the next betting round
        return events[start:]

    def stand_pat(self, player: int | None = None) -> list[ev.Event]:
        return self.draw((), player)

    def show(self, player: int | None = None) -> list[ev.Event]:
        lg = self._legal or self.legal()
        if not (lg.show and (player is None or player == lg.player)):
            lg = self.verify("show", 0, player)
        self._legal = None
        events = self.events
        start = len(events)
        self._show_player(lg.player)
        self._next_shower()
        if self.actor is None:
            self._advance()   # everyone has shown or mucked: settle
        return events[start:]

    def muck(self, player: int | None = None) -> list[ev.Event]:
        lg = self._legal or self.legal()
        if not (lg.muck and (player is None or player == lg.player)):
            lg = self.verify("muck", 0, player)
        return self._do(self._muck, lg.player)

    def protect_all_in(self, player: int) -> list[ev.Event]:
        """A timeout while the daily quota lasts: the player contests only the pots built so far."""
        if player != self.actor or self.phase != BET:
            raise NotYourTurn("a protected all-in is declared only for the player to act")
        return self._do(self._protect, player)

    def _do(self, fn: Callable[[int], None], p: int) -> list[ev.Event]:
        """fn(p), p's action, then on until someone must decide: the events it made."""
        start = len(self.events)
        self._legal = None
        fn(p)
        self._advance()
        self._legal = None
        return self.events[start:]

    def _pass_on(self, p: int, go_on: bool = True) -> None:
        """After p's fold, check, call, bet or raise: p has acted (as _acted), and the next player
        clockwise who is still pending acts. Only when nobody is (or `go_on` is false: a fold left
        one player) does _advance run, to end the round or the hand; this is its usual step, taken
        here."""
        pending = self._pending
        pending.discard(p)
        self._acted_at[p] = self._raise_id
        if self.draw_counts:
            self.draw_counts = {}
        if pending and go_on:
            for q in self._clockwise[p + 1]:
                if q in pending:
                    self.actor = q
                    return
        self._advance()

    def _acted(self, p: int) -> None:
        self._pending.discard(p)
        self._acted_at[p] = self._raise_id
        if self.draw_counts:
            self.draw_counts = {}   # draw information is public only until the first action after the draw

    def _discard_hand(self, p: int) -> None:
        # The cards go to the muck (a reshuffle may deal them again), so the seat no longer holds them.
        self.folded[p] = True
        self._active.discard(p)
        self._live -= 1
        self.muck_pile.extend(self.hole[p])
        self.hole[p] = []
        self.up[p] = []

    def _bring_in(self, p: int) -> None:
        added = self._put(p, self.structure.bring_in)
        self._bring_in_due = False
        # A bring-in all-in for less does not lower what the others must put in (WSOP rule 227).
        self._to_call = max(self._to_call, self.bets[p], self.structure.bring_in)
        self.events.append(ev.BetTo(p, "bring-in", self.bets[p], added, self.all_in[p]))
        self._acted(p)
        self._reopen(p)

    def _raise(self, p: int, to: int, lg_kind: str) -> None:
        """p (the actor) bets or raises to `to`. `lg_kind`: legal().raise_kind, what this bet or raise
        is called. The caller ends with _pass_on (p has acted)."""
        added = self._put(p, to - self.bets[p])
        all_in = self.all_in[p]
        to_call_before = self._to_call
        increase = to - to_call_before
        full = to >= self._full_raise_to()   # a short all-in does not reopen the betting
        kind = lg_kind or "bet"
        self._bring_in_due = False
        if to > to_call_before:
            self._to_call = to
        if full:
            if self.structure.kind != FIXED and increase > self._last_raise:
                self._last_raise = increase
            self._full_level = to
            self._bet_count += 1
            self._raise_id += 1
        self.last_aggressor = p
        self.events.append(_new(BetTo, (p, kind, to, added, all_in)))
        if to > to_call_before:
            # _reopen's answer in short: after a bet above the last one (all but an odd
            # spread-limit stud completion) everyone who may still bet owes chips, all but p.
            pending = set(self._active)
            pending.discard(p)
            self._pending = pending
        else:
            self._reopen(p)

    def _reopen(self, p: int) -> None:
        """After p's bet, raise or bring-in (p has acted): everyone who may still bet and now owes
        chips must act again, besides those who had not acted yet (all of whom may still bet).
        p is neither: p owes nothing."""
        pending, active, bets, to_call = self._pending, self._active, self.bets, self._to_call
        self._pending = {q for q in active if bets[q] < to_call or q in pending}

    def _protect(self, p: int) -> None:
        self.protected[p] = True
        self._active.discard(p)
        self.events.append(ev.ProtectedAllIn(p, self.totals[p]))
        self._pending.discard(p)

    # ------------------------------------------------------------------ flow
    def _advance(self) -> None:
        """Move the hand on until someone must decide or it is over."""
        while True:
            phase = self.phase
            if phase == BET and self._live > 1:
                pending = self._pending
                if pending:
                    # The usual step: the next player clockwise who still has to act. A start of n
                    # is the same as 0 (the table wraps around).
                    actor = self.actor
                    if actor not in pending:
                        for q in self._clockwise[actor + 1 if actor is not None else 0]:
                            if q in pending:
                                self.actor = q
                                break
                    return
                self._return_uncalled()
                if self.street + 1 >= len(self.variant.streets):
                    self._start_showdown()
                    continue
                nxt = self.variant.streets[self.street + 1]
                if nxt.draw:
                    self.street += 1
                    self._start_draw()
                    return
                self._deal_street(self.street + 1)
                self._start_round()
                continue
            if phase == DONE:
                self.actor = None
                return
            if self._live == 1:
                self._return_uncalled()
                self._award_uncontested(self.folded.index(False))
                return
            if phase == DRAW:
                if self.actor is not None:
                    return
                self._start_round()
                continue
            if phase == SHOWDOWN:
                if self.actor is not None:
                    return
                self._settle()
                return

    def _return_uncalled(self) -> None:
        if not self._to_call:
            # Nobody put live chips in this round, and the last round's excess was returned when it
            # ended: nothing can be uncalled.
            return
        dead = self.dead
        p, amount = uncalled([t - d for t, d in zip(self.totals, dead)] if any(dead) else self.totals)
        if amount:
            self.totals[p] -= amount
            self.bets[p] = max(0, self.bets[p] - amount)
            self.stacks[p] += amount
            if self.stacks[p]:
                self.all_in[p] = False
                if not (self.folded[p] or self.protected[p]):
                    self._active.add(p)
            self.events.append(_new(ev.UncalledReturned, (p, amount)))

    def _start_showdown(self) -> None:
        self.phase = SHOWDOWN
        if self.last_aggressor is not None and not self.folded[self.last_aggressor]:
            order = self._order_from(self.last_aggressor)   # first is still in, so it comes first
        elif self._stud:
            # No button: the first to act on the last round (the best showing hand) shows first.
            folded = self.folded
            order = self._order_from(self._best_showing([p for p in range(self.n) if not folded[p]]))
        else:
            order = self._order_from((self.button + 1) % self.n)
        self.showdown_order = order
        # Show-all tables, and any hand where someone is all-in (or protected: every live player
        # who may no longer bet), table every hand at once.
        if self.rules.show_all or len(self._active) < self._live:
            for p in order:
                self._show_player(p)
            self.actor = None
        else:
            self._show_player(order[0])
            self._sd_pos = 1
            self.actor = order[1] if len(order) > 1 else None

    def _end(self) -> None:
        self.phase = DONE
        self.actor = None
        self.totals = [0] * self.n
        self.bets = [0] * self.n
        self.events.append(_new(ev.HandEnded, (tuple(self.stacks), self.rake)))

    # ------------------------------------------------------------------ state for views
    @property
    def over(self) -> bool:
        return self.phase == DONE

    def pots(self) -> list[Pot]:
        # The live players who are all-in or protected are the live ones missing from _active.
        folded, totals, active = self.folded, self.totals, self._active
        players = [p for p in range(self.n) if not folded[p]]
        dead_posts = self._dead_posts
        if dead_posts is not None:
            # A dead small blind, or a big blind's or button's ante, is the pot's, not its poster's
            # bet: the pots are built from what each put in besides it (else the poster's total
            # tops everyone's and the pot is his alone), and the dead posts go to the main pot,
            # which the poster contests like anyone.
            totals = [t - d for t, d in zip(totals, dead_posts)]
        pots = pots_of(totals, players, {totals[p] for p in players if p not in active}
                       if len(active) < len(players) else set())
        if dead_posts is not None:
            dead = sum(dead_posts)
            all_in = self.all_in
            if pots and not any(all_in[p] and not totals[p] for p in players):
                pots[0] = Pot(pots[0].amount + dead, pots[0].eligible)
            else:
                # Someone still in is all-in on his ante, with nothing else in: the dead money is a
                # pot of its own, which every live player contests.
                pots.insert(0, Pot(dead, tuple(players)))
        return pots

    def chips_in_play(self) -> int:
        """Stacks plus everything in the middle plus rake: constant through a hand."""
        return sum(self.stacks) + sum(self.totals) + self.rake

    def all_cards(self) -> list[Card]:
        """Every card held, on the board, burned, mucked or in the stub: exactly 52, no repeats."""
        cards = [c for h in self.hole for c in h] + self.board + self.burns + self.muck_pile
        cards += self.deck.order()[len(self.deck.order()) - self.deck.remaining:]
        check_unique(cards)
        return cards
