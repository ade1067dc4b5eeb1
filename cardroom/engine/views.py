"""What one seat may know, and nothing more.

`seat_view(hand, viewer)` is built from the hand for one player (or `None` for a railbird). A card
the viewer may not see is not in the view at all: it is `None`, a face-down placeholder, so no UI
can leak it by accident. `redact(event, viewer)` does the same for the event stream (dealer chat,
live history). Draw counts are public until the first action after the draw (seed 002). A finished
hand's history also shows the hand of everyone who stayed in to the showdown, shown or mucked
(seed 001): `history_events` is that history, the one every format a player gets is written from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable, NamedTuple, Sequence

from cardroom.engine import events as ev
from cardroom.engine.cards import Card
from cardroom.engine.drawing import exchange
from cardroom.engine.legality import Legal

if TYPE_CHECKING:
    from cardroom.engine.hand import Hand


class SeatInfo(NamedTuple):
    player: int
    name: str
    seat: int
    stack: int
    bet: int                          # in front of the player this round
    status: str                       # "active", "folded", "all-in", "protected"
    cards: tuple[Card | None, ...]    # None = a card the viewer may not see
    up: tuple[bool, ...]
    shown: bool                       # tabled at the showdown


class HandView(NamedTuple):
    viewer: int                       # -1 for a railbird
    game: str
    phase: str                        # "bet", "draw", "showdown", "done"
    street: str
    round: int
    button: int                       # -1 in stud
    seats: tuple[SeatInfo, ...]
    board: tuple[Card, ...]
    pots: tuple[int, ...]             # main pot then side pots (including this round's bets)
    actor: int                        # -1 when nobody is to act
    legal: Legal | None               # Legal for the viewer when it is their turn, else None
    draw_counts: dict[int, int]       # player -> cards drawn, while that is public


def seat_view(hand: Hand, viewer: int | None) -> HandView:
    me = -1 if viewer is None else viewer
    # Bets sit in front of the players only while their round is on: in a draw or at the showdown
    # the last round's bets are in the pot (the engine keeps them until the next round starts).
    bets = hand.bets if hand.phase == "bet" else [0] * len(hand.players)
    seats = tuple(_seat_info(hand, p, me, bets) for p in range(len(hand.players)))
    actor = hand.actor if hand.actor is not None else -1
    street = hand.variant.streets[hand.street].name if hand.street >= 0 else ""
    return HandView(
        viewer=me, game=hand.variant.name, phase=hand.phase, street=street, round=hand.round,
        button=-1 if hand.variant.bring_in else hand.button, seats=seats,
        board=tuple(hand.board), pots=tuple(p.amount for p in hand.pots()), actor=actor,
        legal=hand.legal() if actor == me and me >= 0 else None,
        draw_counts=dict(hand.draw_counts),
    )


def seat_view_from(public: HandView, hand: Hand, viewer: int | None) -> HandView:
    """`seat_view(hand, viewer)` made from the railbird's view of the same moment of the hand
    (`seat_view(hand, None)`): a viewer sees what the rail sees and his own cards, so only his
    seat and his legal actions are his own. A table sends one change to every seat at once."""
    if viewer is None:
        return public
    bets = hand.bets if hand.phase == "bet" else [0] * len(hand.players)
    seats = public.seats[:viewer] + (_seat_info(hand, viewer, viewer, bets),) + public.seats[viewer + 1:]
    return public._replace(viewer=viewer, seats=seats,
                           legal=hand.legal() if public.actor == viewer else None)


def _seat_info(hand: Hand, p: int, me: int, bets: Sequence[int]) -> SeatInfo:
    shown = p in hand.shown
    visible = p == me or shown
    cards = tuple(c if (visible or up) else None for c, up in zip(hand.hole[p], hand.up[p]))
    if hand.folded[p] and p != me:
        cards = ()
    status = ("folded" if hand.folded[p] else "protected" if hand.protected[p]
              else "all-in" if hand.all_in[p] else "active")
    return SeatInfo(p, hand.players[p].name, hand.players[p].seat, hand.stacks[p], bets[p], status, cards,
                    tuple(hand.up[p]), shown)


def at_showdown(events: Iterable[ev.Event]) -> frozenset[int]:
    """The players who stayed in to the showdown, shown or mucked there. Seed 001: "The hole cards
    of all players who stay in to the showdown are included in the hand history"."""
    return frozenset(e.player for e in events if isinstance(e, (ev.Shown, ev.Mucked)))


def history_events(events: Sequence[ev.Event], viewer: int | None) -> list[ev.Event]:
    """A finished (or cut off) hand's events as `viewer`'s hand history holds them (None: anyone's,
    a railbird's). What a history shows is what the viewer's screen showed, plus seed 001:

    - his own cards: all he was dealt, discarded and drew;
    - everyone's face-up cards and the board; never a burn;
    - a draw: how many cards each player threw and drew, never which (seed 002's draw information);
    - the showdown: the hand each player who stayed in held there, shown as the table showed it, or
      mucked (seed 001 puts those hole cards in everyone's history; `Mucked.cards` carries them).
      What that reveals of how he came by the hand depends on the game family:
      * board games (hold'em, Omaha) and stud: the hand held is every card he was dealt, so his
        dealt cards are shown where they were dealt (stud: which came down on which street, as
        his seat at the table showed them in order);
      * draw games: the hand held is not the hand dealt. His five dealt cards, his discards and
        his replacement cards were never shown: they stay hidden (counts only), and the hand he
        held is only what the showdown says. Writing the shown cards back into the deal would
        tell which he kept and which he drew.
    A folded hand stays hidden (but from its own player)."""
    showdown = at_showdown(events)
    # Decided for the hand, not per player: in a hand with a draw even a pat hand is told by
    # the showdown alone.
    drawn = any(type(e) is ev.DrawStarted for e in events)
    whole = frozenset() if drawn else showdown
    held: dict[int, list[Card | None]] = {}
    out = []
    for e in events:
        if isinstance(e, ev.DealtHole):
            held.setdefault(e.player, []).extend(e.cards)
        elif isinstance(e, ev.Drew):
            held[e.player] = exchange(held.get(e.player, ()), e.discards, e.cards)
        seen = redact(e, viewer, whole)
        if isinstance(seen, ev.Mucked):
            seen = seen._replace(cards=tuple(held.get(seen.player, ())))
        out.append(seen)
    return out


def redact(event: ev.Event, viewer: int | None, revealed: frozenset[int] = frozenset()) -> ev.Event:
    """The event as `viewer` may see it (None = a railbird): hidden cards become None, but for the
    players in `revealed` (in a finished hand's history, those whose dealt cards are the hand they
    held at the showdown: history_events)."""
    me = -1 if viewer is None else viewer
    if isinstance(event, ev.DealtHole) and event.player != me and event.player not in revealed:
        return event._replace(cards=tuple(c if up else None for c, up in zip(event.cards, event.up)))
    if isinstance(event, ev.Drew) and event.player != me and event.player not in revealed:
        return event._replace(discards=(None,) * len(event.discards), cards=(None,) * len(event.cards))
    if isinstance(event, ev.Mucked) and event.cards and event.player != me and event.player not in revealed:
        return event._replace(cards=())
    if isinstance(event, ev.Burned):
        return event._replace(card=None)
    return event


def visible_cards(view: HandView) -> set[Card]:
    """Every real card a view contains (used by the leak checks in the tests and the TUI guard)."""
    out = {c for s in view.seats for c in s.cards if c is not None}
    out.update(view.board)
    return out
