"""What a hand holds: its players and the state that Hand and its mixins (legality.py, drawing.py,
showdown.py) share. Declarations only: Hand (hand.py) keeps these as slots and fills them in; the
mixins read and write them, and a type checker reads their types here, since a mixin cannot see
what Hand.__init__ assigns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from cardroom.engine.betting import Rules, Structure
from cardroom.engine.cards import Card, Deck
from cardroom.engine.evaluation import Evaluator
from cardroom.engine.events import Event
from cardroom.engine.pots import Pot
from cardroom.engine.variants import Variant


class Player(NamedTuple):
    """One seat dealt into the hand. `live_post`: a new (or returning) player's big-blind-sized post,
    which counts toward calling; `dead_post`: the smaller blinds he missed, which go to the pot and
    count for nothing.
    A NamedTuple rather than a frozen dataclass: a table builds six per hand, at half the cost."""

    name: str
    stack: int
    seat: int = 0
    live_post: int = 0
    dead_post: int = 0


class HandState:
    """The attributes of a Hand, with their types."""

    # Slots, not an instance dict: a hand has about sixty attributes, past the thirty a shared-key
    # instance dict holds, so a dict would be a full one, rebuilt several times while __init__
    # fills it in and probed by hash on every self.x; a slot is an array index.
    __slots__ = (
        "variant", "structure", "rules", "players", "n", "button", "deck", "start_stacks", "stacks",
        "totals", "dead", "bets", "folded", "all_in", "protected", "hole", "up", "board", "muck_pile",
        "discarded_by", "burns", "events", "street", "round", "phase", "actor", "shown",
        "showdown_order", "last_aggressor", "draw_counts", "draw_index", "rake", "saw_flop",
        "_live", "_active", "_high", "_low", "_legal", "_must_raise", "_big_blind",
        "_stud", "_no_stack_runs_out", "_clockwise", "_blind_level", "_last_blind", "_size", "_to_call",
        "_full_level", "_bet_count", "_last_raise", "_raise_id", "_acted_at", "_bring_in_due", "_pending",
        "_deferred", "_draw_order", "_draw_pos", "_sd_pos", "_posts", "_dead_posts",
    )

    variant: Variant
    structure: Structure
    rules: Rules
    players: tuple[Player, ...]
    n: int
    button: int                      # a player index
    deck: Deck
    start_stacks: tuple[int, ...]
    stacks: list[int]
    totals: list[int]                # put in this hand
    dead: list[int]                  # of which dead money (antes, a missed small blind)
    bets: list[int]                  # put in this betting round
    folded: list[bool]
    all_in: list[bool]
    protected: list[bool]
    hole: list[list[Card]]           # each player's cards ...
    up: list[list[bool]]             # ... and their face-up flags
    board: list[Card]
    muck_pile: list[Card]            # folded hands and discards: what a reshuffle may use
    discarded_by: list[list[Card]]   # per player, from the first draw
    burns: list[Card]
    events: list[Event]
    street: int                      # index into variant.streets
    round: int                       # betting round index
    phase: str                       # BET, DRAW, SHOWDOWN or DONE (legality.py)
    actor: int | None                # whose decision it is; None when nobody's
    shown: dict[int, tuple[int, int | None]]   # player -> (high, low or None) values shown
    showdown_order: list[int]
    last_aggressor: int | None
    draw_counts: dict[int, int]      # public until the first action after the draw
    draw_index: int
    rake: int
    saw_flop: bool
    _live: int                       # players not folded
    _active: set[int]                # who may still bet: not folded, all-in or protected
    # The evaluators (evaluation.evaluator): f(cards), or f(hole, board) for Omaha.
    _high: Evaluator
    _low: Evaluator | None
    # _legal: legal()'s answer for the current state (typed in legality.py, with Legal)
    _must_raise: bool
    _big_blind: int
    _stud: bool
    _no_stack_runs_out: bool         # fixed limit, capped: legal() skips the all-in rules
    _clockwise: tuple[tuple[int, ...], ...]
    _blind_level: int
    _last_blind: int
    _size: int                       # fixed: the bet; spread/pot/no: the minimum bet
    _to_call: int
    _full_level: int
    _bet_count: int
    _last_raise: int
    _raise_id: int
    _acted_at: list[int]             # per player: the _raise_id when they last acted
    _bring_in_due: bool
    _pending: set[int]               # who must still act this round
    _deferred: list[int]             # players owed a deferred fifth card (seed 002)
    _draw_order: list[int]
    _draw_pos: int
    _sd_pos: int
    _posts: bool                     # a live or dead post to make
    _dead_posts: list[int] | None

    if TYPE_CHECKING:
        # Hand's own steps that the mixins call (defined in hand.py).
        def _end(self) -> None: ...
        def _advance(self) -> None: ...
        def _order_from(self, first: int) -> list[int]: ...
        def _discard_hand(self, p: int) -> None: ...
        def _burn(self) -> None: ...
        def pots(self) -> list[Pot]: ...
        # Showdown's, which legal() asks.
        def _may_muck(self, p: int) -> bool: ...
