"""What a player sees of his own hand after a draw: his new cards where the ones he threw were
(as PokerStars shows them), the cards he held where they were. Real room, real SQLite, Pilot."""

from __future__ import annotations

from cardroom.tui import build_app
from cardroom.tui.widgets.card import HandCard

from .conftest import SIZE, open_table, others_until, table_settings


async def test_new_cards_appear_in_the_places_of_the_thrown_ones(world):
    w = world(table_settings(game="draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        before = alice.view("T").my_cards
        await pilot.press("2", "4", "enter")                     # hold the 2nd and 4th, throw three
        await pilot.pause()
        shown = [c.card for c in list(screen.query(HandCard))[:5]]
        assert shown == list(alice.view("T").my_cards)
        assert shown[1] == before[1] and shown[3] == before[3]   # held cards stay put
        assert not {shown[0], shown[2], shown[4]} & set(before)  # new cards where the thrown were
