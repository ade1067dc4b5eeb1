"""Replay: a parsed file played through the engine action by action (import_hand), and what
`cardroom replay` prints for a file (replay_file)."""

from __future__ import annotations

import copy
import re
from collections import deque
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, TypeVar

from cardroom.engine import events as ev
from cardroom.engine.cards import CARDS, Card
from cardroom.engine.hand import Hand
from cardroom.engine.legality import DRAW, SHOWDOWN, BadAmount, IllegalAction, NotYourTurn, SetupError
from cardroom.engine.phh.deck import ScriptedDeck
from cardroom.engine.phh.errors import PHHError, PHHFormatError, PHHRuleError
from cardroom.engine.phh.fields import to_units
from cardroom.engine.phh.holdings import resolve_cards
from cardroom.engine.phh.parse import HEADS_UP_BEFORE, Action, Setup, Slot, load_hand, parse_setup

_SHARE = {id(c): c for c in CARDS}
_T = TypeVar("_T")


class _ReplayHand(Hand):
    """The engine's hand, except that a player showing down first gets the cards the file shows
    for him but dealt as ?? (ScriptedDeck.reveal)."""

    __slots__ = ()
    deck: ScriptedDeck   # always, here (the replayer deals it)

    def _show_player(self, p: int) -> None:
        self.deck.reveal(self, p)
        super()._show_player(p)


class _Replayer:
    def __init__(self, setup: Setup) -> None:
        self.s = setup
        n = len(setup.players)
        self.n = n
        # engine index == PHH index: players are built in PHH order (button last).
        self.hole_q: list[deque[Slot]] = [deque() for _ in range(n)]
        self.board_q: deque[Slot] = deque()
        reserved: dict[Card, list[float]] = {}   # card -> when the file deals it, in dealing order
        ranks = self._deal_ranks(setup)
        for a in setup.actions:
            if a.verb == "dh":
                self.hole_q[a.player].extend(a.slots)
            elif a.verb == "db":
                self.board_q.extend(a.slots)
            for sl in a.slots:
                if sl.card is not None:
                    sl.rank = ranks[id(sl)]
                    reserved.setdefault(sl.card, []).append(sl.rank)
        for uses in reserved.values():
            uses.sort()
        self.deck = ScriptedDeck(reserved)
        self.deck.unknowns = any(sl.card is None for a in setup.actions for sl in a.slots)
        self.deck.reveals = {a.player: a for a in setup.actions if a.verb == "sm" and a.reveals}
        self.eng_hole: list[list[Card | None]] = [[] for _ in range(n)]
        self.eng_board: list[Card | None] = []
        self.file_hole = [0] * n
        self.file_board = 0
        self.seen = 0
        self.shows: dict[int, Action] = {}
        self.claims: dict[int, Action] = {}
        self._hand: Hand | None = None   # run() deals it

    @property
    def hand(self) -> Hand:
        if self._hand is None:
            raise AssertionError("the hand is dealt in run(), before any action is applied")
        return self._hand

    @staticmethod
    def _deal_ranks(setup: Setup) -> dict[int, float]:
        """When each dealt card leaves the deck, as a sortable number: the file's order, except that
        a fifth replacement card comes after every other player's draw (seed 002 dealing)."""
        ranks: dict[int, float] = {}
        segment: list[Action] = []

        def close() -> None:
            if not segment:
                return
            end = segment[-1].number
            deferred = [a.player for a in segment if a.verb == "sd" and len(a.cards) == 5]
            if not setup.rules.defer_fifth_card:
                deferred = []
            got: dict[int, int] = {}
            for a in segment:
                for j, sl in enumerate(a.slots):
                    rank = a.number + j / 1000
                    if a.verb == "dh" and a.player in deferred:
                        got[a.player] = got.get(a.player, 0) + 1
                        if got[a.player] == 5:
                            rank = end + 0.5 + deferred.index(a.player) / 1000
                    ranks[id(sl)] = rank
            segment.clear()

        for a in setup.actions:
            if a.verb in ("f", "cc", "cbr", "pb") or (
                    a.verb == "sd" and any(b.verb == "sd" and b.actor == a.actor for b in segment)):
                close()     # a betting action, or the next draw (all-in players draw on and on)
            segment.append(a)
        close()
        return ranks

    # -- one step: dry run on a copy to learn what each dealt card is for, then the real thing
    def _plan_from(self, deck: ScriptedDeck, new_events: Iterable[ev.Event]) -> None:
        purpose: dict[Card | None, tuple[str, int]] = {}
        for e in new_events:
            if isinstance(e, (ev.DealtHole, ev.Drew)):
                for c in e.cards:
                    purpose[c] = ("p", e.player)
            elif isinstance(e, ev.DealtBoard):
                for c in e.cards:
                    purpose[c] = ("b", 0)
        # A card burned may come back in a reshuffle of the same step and be dealt: only its last
        # deal is the one the events name; the earlier ones were burns.
        last = {c: i for i, c in enumerate(deck.log)}
        plan: deque[Slot | None] = deque()
        for i, c in enumerate(deck.log):
            kind, p = purpose.get(c, ("burn", 0)) if last[c] == i else ("burn", 0)
            if kind == "p":
                plan.append(self.hole_q[p].popleft() if self.hole_q[p] else None)
            elif kind == "b":
                plan.append(self.board_q.popleft() if self.board_q else None)
            else:
                plan.append(None)
        self.deck.plan = plan

    def _step(self, fn: Callable[[Hand], object]) -> None:
        hand = self.hand
        rec = self.deck.recorder()
        memo: dict[int, object] = dict(_SHARE)
        # Shared, not copied: the hand's records (its evaluators are functions, which deepcopy shares).
        for obj in (hand.variant, hand.structure, hand.rules, hand.players):
            memo[id(obj)] = obj
        memo[id(hand.deck)] = rec
        memo[id(hand.events)] = []
        trial = copy.deepcopy(hand, memo)
        try:
            fn(trial)
        except IllegalAction:
            pass                      # the real call below raises the same error
        self._plan_from(rec, trial.events)
        fn(hand)

    def _sync(self) -> None:
        for e in self.hand.events[self.seen:]:
            if isinstance(e, (ev.DealtHole, ev.Drew)):
                self.eng_hole[e.player].extend(e.cards)
            elif isinstance(e, ev.DealtBoard):
                self.eng_board.extend(e.cards)
        self.seen = len(self.hand.events)

    def run(self) -> Hand:
        s = self.s
        rec = self.deck.recorder()
        try:
            trial = _ReplayHand(s.variant, s.structure, s.players, button=s.button, deck=rec, rules=s.rules)
        except SetupError as e:
            raise PHHFormatError(f"cannot start the hand: {e}") from None
        self._plan_from(rec, trial.events)
        self._hand = _ReplayHand(s.variant, s.structure, s.players, button=s.button, deck=self.deck,
                                 rules=s.rules)
        self.deck.hand = self._hand
        self._sync()
        for a in s.actions:
            try:
                self._apply(a)
            except PHHError:
                raise
            except IllegalAction as e:
                raise PHHRuleError(self._explain(a, e)) from None
            if self.deck.error is not None:
                raise self.deck.error
            self._sync()
            self._showdown()
        self._finish()
        return self.hand

    # -- checks that the file's dealing matches the game's
    def _dealer(self, a: Action) -> None:
        k = len(a.slots)
        if a.verb == "db":
            have = len(self.eng_board) - self.file_board
            if k > have:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the game deals "
                                   f"{have if have else 'no'} board card{'s' if have != 1 else ''} now, "
                                   f"not {k} (too many cards, or the betting round is not over)")
            got = self.eng_board[self.file_board:self.file_board + k]
            self.file_board += k
        else:
            p = a.player
            have = len(self.eng_hole[p]) - self.file_hole[p]
            if k > have and self.hand.phase == DRAW and self.hand.actor is not None:
                # Replacement cards written right after a discard: a fifth card may still be owed.
                self.claims[p] = a
                got = self.eng_hole[p][self.file_hole[p]:]
                self.file_hole[p] += k
                for slot, card in zip(a.slots, got):
                    if slot.card is not None and slot.card != card:
                        raise PHHRuleError(f"action {a.number} ({a.text!r}): {slot.card!r} cannot be dealt "
                                           f"here (the deck gave {card!r})")
                return
            if k > have:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): the game deals p{p + 1} "
                                   f"{have if have else 'no'} card{'s' if have != 1 else ''} now, not {k} "
                                   "(too many cards, or it is not time to deal)")
            got = self.eng_hole[p][self.file_hole[p]:self.file_hole[p] + k]
            self.file_hole[p] += k
        for slot, card in zip(a.slots, got):
            if slot.card is not None and slot.card != card:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): {slot.card!r} cannot be dealt here "
                                   f"(the deck gave {card!r}: the card is already in play)")

    def _check_dealt(self, a: Action) -> None:
        if self.file_board < len(self.eng_board):
            raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.player + 1} acts before the dealer "
                               "deals the board cards ('d db ...' is missing)")
        self._check_claims()
        for p in range(self.n):
            if self.file_hole[p] < len(self.eng_hole[p]):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): p{a.player + 1} acts before the dealer "
                                   f"deals p{p + 1}'s cards ('d dh p{p + 1} ...' is missing)")

    def _check_claims(self) -> None:
        for p, a in list(self.claims.items()):
            if self.file_hole[p] > len(self.eng_hole[p]):
                raise PHHRuleError(f"action {a.number} ({a.text!r}): too many cards: the game deals p{p + 1} "
                                   f"{len(self.eng_hole[p]) - (self.file_hole[p] - len(a.slots))} here, "
                                   f"not {len(a.slots)}")
            del self.claims[p]

    def _apply(self, a: Action) -> None:
        if a.verb in ("dh", "db"):
            self._dealer(a)
            return
        p = a.player
        if a.verb == "sm":
            self.shows[p] = a
            self._showdown()
            return
        if a.verb == "protect":
            self._step(lambda h: h.protect_all_in(p))
            return
        hand = self.hand
        if hand.actor is None:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): the hand is already over")
        if hand.actor != p:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): out of turn: it is p{hand.actor + 1}'s turn")
        self._step(self._draw(a) if a.verb == "sd" else self._bet(a))

    def _bet(self, a: Action) -> Callable[[Hand], object]:
        """A betting action (f, cc, pb, cbr) as a call on the hand, once it is a betting round and
        the file has dealt what the game dealt."""
        hand, p = self.hand, a.player
        if hand.phase == DRAW:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): p{p + 1} must stand pat or discard now")
        if hand.phase == SHOWDOWN:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): the betting is over: it is the showdown")
        self._check_dealt(a)
        if a.verb == "f":
            return lambda h: h.fold(p)
        if a.verb == "cc":
            return (lambda h: h.check(p)) if hand.legal().check else (lambda h: h.call(p))
        if a.verb == "pb":
            return lambda h: h.bring_in(p)
        if a.amount is None:
            raise AssertionError("parse gives every cbr its amount")
        cents = a.amount * self.s.cpu
        if cents != cents.to_integral_value():
            raise PHHFormatError(f"action {a.number} ({a.text!r}): {a.amount} is not a whole number "
                                 "of cents")
        to = int(cents)
        return lambda h: h.bet(to, p)

    def _draw(self, a: Action) -> Callable[[Hand], object]:
        """A draw's discards (sd) as a call on the hand: the cards the deck served for the slots the
        holdings pre-pass tied them to."""
        hand, p = self.hand, a.player
        if hand.phase != DRAW:
            raise PHHRuleError(f"action {a.number} ({a.text!r}): there is no draw now")
        discards = []
        for sl in a.chosen:
            if sl.served is None or sl.served not in hand.hole[p]:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): p{p + 1} discards a card "
                                   "they do not hold")
            discards.append(sl.served)
        return lambda h: h.draw(discards, p)

    def _showdown(self) -> None:
        hand = self.hand
        while hand.phase == SHOWDOWN and hand.actor is not None and hand.actor in self.shows:
            p = hand.actor
            a = self.shows.pop(p)
            try:
                if a.cards or a.dash:
                    self._step(partial(Hand.show, player=p))
                else:
                    self._step(partial(Hand.muck, player=p))
            except IllegalAction as e:
                raise PHHRuleError(f"action {a.number} ({a.text!r}): {e}") from None
            self._sync()

    def _finish(self) -> None:
        hand = self.hand
        if hand.phase != DRAW or hand.actor is None:
            self._check_claims()
        # A shown hand in the file must be the hand the game holds.
        for e in hand.events:
            if isinstance(e, ev.Shown):
                a = self._shown_action(e.player)
                if a is not None and a.cards:
                    known = {c for c in a.cards if c is not None}
                    if not known <= set(e.cards):
                        raise PHHRuleError(f"action {a.number} ({a.text!r}): p{e.player + 1} shows "
                                           "cards that are not their hand")
        if hand.over and any(isinstance(e, ev.Shown) for e in hand.events):
            fill = self.deck.fillers
            if any(c in fill for c in self.eng_board):
                raise PHHRuleError("the actions end before the dealer deals the board the showdown "
                                   "needs: the result would depend on cards the file does not give")
            contenders = [e.player for e in hand.events if isinstance(e, ev.Shown)]
            if len(contenders) > 1:
                for e in hand.events:
                    if isinstance(e, ev.Shown) and any(c in fill for c in e.cards):
                        raise PHHRuleError(f"p{e.player + 1}'s cards are unknown at the showdown: the result "
                                           "cannot be decided")

    def _shown_action(self, p: int) -> Action | None:
        for a in reversed(self.s.actions):
            if a.verb == "sm" and a.actor == p:
                return a
        return None

    def _explain(self, a: Action, e: IllegalAction) -> str:
        hand, cpu = self.hand, self.s.cpu
        head = f"action {a.number} ({a.text!r})"
        if isinstance(e, NotYourTurn):
            return f"{head}: out of turn: {e}"
        if isinstance(e, BadAmount):
            lg = hand.legal()
            lo, hi = to_units(lg.min_to, cpu), to_units(lg.max_to, cpu)
            kind = lg.raise_kind or "bet"
            if lo == hi:
                return f"{head}: the {kind} here is exactly {lo} ({hand.structure.kind} limit)"
            if a.amount is not None and a.amount * cpu < lg.min_to:
                return f"{head}: {a.amount} is below the minimum {kind} to {lo} (at most {hi})"
            return f"{head}: {a.amount} is not allowed: {kind} to between {lo} and {hi}"
        msg = str(e)
        msg = re.sub(r"\$(\d+)\.(\d\d)", lambda m: str(to_units(int(m.group(1)) * 100 + int(m.group(2)), cpu)),
                     msg)
        return f"{head}: {msg}"


# ---------------------------------------------------------------------------- the public API
def _replay(phh: str | bytes | dict[str, Any]) -> tuple[Hand, int]:
    """The replayed hand and the file's chips per unit (parse.chips_per_unit)."""
    setup = parse_setup(load_hand(phh))
    resolve_cards(setup)
    why = f" (perhaps {HEADS_UP_BEFORE})" if setup.maybe_before_three_blinds else ""
    try:
        hand = _Replayer(setup).run()
    except PHHRuleError as e:
        raise PHHRuleError(f"{e}{why}") from None
    # Our own file ends where our engine ended the hand: anything else was dealt by other rules,
    # and a replay that ends elsewhere would pass off another hand as this one.
    if setup.finishing is not None and hand.over and hand.stacks != setup.finishing:
        cpu = setup.cpu
        raise PHHRuleError(f"finishing_stacks {[to_units(c, cpu) for c in setup.finishing]} are not where "
                           f"the actions end ({[to_units(c, cpu) for c in hand.stacks]}): the hand was "
                           f"dealt under other rules{why}")
    return hand, setup.cpu


def import_hand(phh: str | bytes | dict[str, Any]) -> Hand:
    """Rebuild and replay a hand from PHH text (or an already parsed dict). Raises PHHError."""
    return _replay(phh)[0]


replay = import_hand


def finishing_stacks(phh: str | bytes | dict[str, Any]) -> list[int | float]:
    """The replayed hand's stacks in the file's player order and units."""
    hand, cpu = _replay(phh)
    return [to_units(c, cpu) for c in hand.stacks]


def replay_file(path: str | Path) -> dict[str, Any]:
    """{"file": PATH, "finishing_stacks": [...]} or {"file": PATH, "error": "one line"}; never raises."""
    stacks, error = _attempt(lambda: finishing_stacks(Path(path).read_bytes()))
    return {"file": str(path), **({"error": error} if error else {"finishing_stacks": stacks})}


def replay_each(path: str | Path) -> list[dict[str, Any]]:
    """What `cardroom replay` prints for a file: replay_file's one result for a file of one hand;
    for a hands file (.phhs, the room's own among them: every table of the TOML is a hand, as
    pokerkit's `HandHistory.load_all` reads it) one result per hand, naming it ("hand": "1").
    Never raises."""
    name = str(path)
    data, error = _attempt(lambda: load_hand(Path(path).read_bytes()))
    if data is None:
        return [{"file": name, "error": error}]
    hands = list(data.items()) if is_hands_file(data) else [(None, data)]
    out = []
    for key, one in hands:
        stacks, error = _attempt(partial(finishing_stacks, one))
        out.append({"file": name, **({"hand": key} if key is not None else {}),
                    **({"error": error} if error else {"finishing_stacks": stacks})})
    return out


def is_hands_file(data: dict[str, Any]) -> bool:
    """A parsed file that holds hands, not one: no `variant` (every hand has one), and nothing
    but tables at the top."""
    return bool(data) and "variant" not in data and all(isinstance(v, dict) for v in data.values())


def _attempt(fn: Callable[[], _T]) -> tuple[_T | None, str | None]:
    """(fn(), None), or (None, why in one line): a replay never shows a traceback."""
    try:
        return fn(), None
    except OSError as e:
        return None, f"cannot read the file: {e.strerror or e}"
    except PHHError as e:
        return None, _one_line(str(e))
    except RecursionError:
        return None, "the file is nested too deeply to read"
    except Exception as e:   # noqa: BLE001 - a replay never shows a traceback
        return None, _one_line(f"cannot replay the file: {type(e).__name__}: {e}")


def _one_line(msg: str) -> str:
    return " ".join(msg.split())[:500]
