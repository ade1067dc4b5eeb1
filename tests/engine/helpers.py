"""Building hands for rule tests: stacked decks laid out in the engine's dealing order."""

from __future__ import annotations

from cardroom.engine.betting import NO_RAKE, Rules, Structure
from cardroom.engine.cards import CARDS, Deck, parse_cards
from cardroom.engine.hand import Hand, Player
from cardroom.engine.variants import find_variant


def board_game_deck(n: int, button: int, holes: dict[int, str], board: str = "", k: int = 2) -> Deck:
    """A deck for a button game: hole cards one at a time from the left of the button, then
    burn + flop, burn + turn, burn + river (`board` lists the five board cards)."""
    fixed = {c for h in holes.values() for c in parse_cards(h)} | set(parse_cards(board))
    spare = iter(c for c in CARDS if c not in fixed)
    hole_cards = {p: parse_cards(h) for p, h in holes.items()}
    for p in range(n):
        hole_cards.setdefault(p, [next(spare) for _ in range(k)])
    order = []
    for i in range(k):
        for j in range(n):
            order.append(hole_cards[(button + 1 + j) % n][i])
    b = parse_cards(board)
    if b:
        order += [next(spare), *b[:3], next(spare), b[3], next(spare), b[4]]
    used = set(order)
    return Deck.stacked(order + [c for c in CARDS if c not in used])


def make_hand(game: str, kind: str, stacks, *, small_bet: int = 200, big_bet: int | None = None,
              button: int = 0, deck: Deck | None = None, rules: Rules = NO_RAKE, structure=None,
              players=None) -> Hand:
    variant = find_variant(game)
    if structure is None:
        structure = Structure.make(kind, small_bet, big_bet, stud=variant.bring_in,
                                   ante=25 if variant.bring_in else 0)
    if players is None:
        players = [Player(f"P{i + 1}", s, seat=i + 1) for i, s in enumerate(stacks)]
    return Hand(variant, structure, players, button=button, deck=deck or Deck.stacked(CARDS), rules=rules)


def kinds(events) -> list[str]:
    return [type(e).__name__ for e in events]
