"""History export: PokerStars text and PHH, as I saw the hand (others' hidden cards never)."""

from __future__ import annotations

from textual.widgets import TextArea

from cardroom.engine import events as ev
from cardroom.engine.cards import format_cards
from cardroom.tui import UIOptions, build_app
from cardroom.tui.screens.history import ExportScreen, HandScreen, HistoryScreen
from cardroom.tui.screens.too_small import TooSmallScreen

from .conftest import SIZE, others_until, screen_text


async def test_export_both_formats_with_only_my_cards(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice, bob, carol = clients
    others_until(w, clients, alice)
    hole = {c.name: c.view("T").my_cards for c in clients}
    alice.act("T", "fold")
    while (a := w.actor(clients)) is not None:
        a.act("T", "fold")
    w.clock.advance(0.01)
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HandScreen)
        assert "x Export" in screen_text(app)
        await pilot.press("x")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        area = screen.query_one(TextArea)
        assert area.read_only and area.has_focus

        # PokerStars text first: my hole cards, nobody else's.
        stars = area.text
        text = screen_text(app)
        assert "PokerStars text" in text and "PokerStars Hand #1001" in text
        assert f"Dealt to alice [{format_cards(hole['alice'])}]" in stars
        for other in ("bob", "carol"):
            assert format_cards(hole[other]) not in stars
            assert f"Dealt to {other}" not in stars
        footer = " ".join(text.splitlines()[-3:])
        assert "p PHH" in footer and "c Copy all" in footer

        # PHH: my cards, the others' as ????.
        await pilot.press("p")
        await pilot.pause()
        phh = area.text
        assert phh != stars and 'hand = 1001' in phh and "PHH" in screen_text(app)
        mine = format_cards(hole["alice"]).replace(" ", "")
        assert f'"d dh p3 {mine}"' in phh
        assert phh.count("????") == 2
        for other in ("bob", "carol"):
            assert format_cards(hole[other]).replace(" ", "") not in phh
        assert "s PokerStars" in " ".join(screen_text(app).splitlines()[-3:])

        # Copy it all (OSC 52 to the player's own terminal); nothing is written on the server.
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == phh
        await pilot.press("s")
        await pilot.pause()
        assert area.text == stars
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard == stars

        # Below 80x24 the room asks for a bigger window; back at 80x24 the export is all there.
        await pilot.resize_terminal(60, 10)
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert area.virtual_size.height <= area.size.height and area.text == stars

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HandScreen)


def test_a_draw_hand_history_names_each_street_as_the_felt_does(world):
    """Before, the betting after the draw was headed "-- draw --" like the draw itself."""
    from cardroom.engine.variants import find_variant
    from cardroom.tui.screens.history import hand_lines

    from tests.rooms import table_settings
    from .conftest import passive

    w = world(table_settings(game="27-triple"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    hand_id = w.room.tables["T"].hand_id
    while (a := w.actor(clients)) is not None:
        passive(a)
    w.clock.advance(0.01)
    lines = [t.plain for t in hand_lines(clients[0].hand(hand_id), find_variant("27-triple"))]
    heads = [line.strip("- ") for line in lines if line.startswith("--")]
    assert heads == ["before the draw", "the first draw", "after the first draw", "the second draw",
                     "after the second draw", "the third draw", "after the third draw"]


def test_a_hand_mucked_at_the_showdown_is_in_the_others_history_with_its_cards(world):
    """Seed 001: "The hole cards of all players who stay in to the showdown are included in the
    hand history". The history screen said only "carol mucks"; it now gives her final hand."""
    from cardroom.engine.variants import find_variant
    from cardroom.tui.screens.history import hand_lines

    from tests.rooms import table_settings
    from .conftest import passive

    w = world(table_settings(game="27-triple"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    hand, hand_id = t.hand, t.hand_id
    while (a := w.actor(clients)) is not None:
        passive(a)
    w.clock.advance(0.01)
    mucker = next(e.player for e in hand.events if isinstance(e, ev.Mucked))   # this deal has one
    held: set = set()
    for e in hand.events:
        if isinstance(e, ev.DealtHole) and e.player == mucker:
            held |= set(e.cards)
        if isinstance(e, ev.Drew) and e.player == mucker:
            held = (held - set(e.discards)) | set(e.cards)
    name = hand.players[mucker].name
    for c in clients:
        if c.name == name:
            continue
        lines = [x.plain for x in hand_lines(c.hand(hand_id), find_variant("27-triple"))]
        muck = next(x for x in lines if x.startswith(f"  {name} mucks"))
        assert set(muck.split()[2:]) == {repr(x) for x in held}


async def test_the_hand_in_progress_is_not_opened_as_an_empty_history(world):
    """Found by a play-tester: opening the 'in progress' row showed only the seats, a heading
    '-- 1 --' and 'street 1 of 1': the events are kept when the hand ends."""
    from .conftest import notified

    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    others_until(w, clients, clients[0])
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert "in progress" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        assert "is still being played" in notified(app)


async def test_the_replay_and_exports_of_a_draw_hand_hold_no_card_alice_never_saw(world):
    """Issue 34: alice folded before the draw; bob and carol drew and showed down. Her History
    screen's replay (every street), both its exports and the hand object her session was handed
    hold only cards her table view showed, and the hands seed 001 puts in every history (mucked at
    the showdown): never bob's or carol's dealt cards nor discards. The hand object held the
    whole hand's PHH (every card, as the store keeps it)."""
    import dataclasses
    import re

    from cardroom.engine.cards import Card
    from tests.engine.test_history_leaks import event_cards, phh_cards, pokerstars_cards, showdown_hands
    from tests.rooms import table_settings
    from .conftest import passive

    w = world(table_settings(game="27-triple"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    w.clock.advance(0.01)
    t = w.room.tables["T"]
    hand, hand_id = t.hand, t.hand_id
    seen: set = set()

    def look() -> None:
        view = alice.view("T")
        seen.update(c for s in view.seats for c in s.cards if c is not None)
        seen.update(view.my_cards, view.board)

    while (a := w.actor(clients)) is not None:
        look()
        if a is alice:
            a.act("T", "fold")
        elif a.view("T").legal.phase == "draw":
            a.act("T", "draw", discards=a.view("T").my_cards[:3])
        else:
            passive(a)
    look()
    w.clock.advance(0.01)
    allowed = seen | showdown_hands(hand.events)
    hidden = {c for e in hand.events if isinstance(e, (ev.DealtHole, ev.Drew))
              for c in e.cards + getattr(e, "discards", ())} - allowed
    assert hidden and any(isinstance(e, ev.Shown) for e in hand.events)

    def cards_in(text: str) -> set:
        return {Card.parse(m) for m in re.findall(r"(?<![A-Za-z0-9])[2-9TJQKA][cdhs](?![A-Za-z0-9])", text)}

    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HandScreen) and screen.hand.hand_id == hand_id
        shown_text = ""
        for _ in range(screen.last + 1):
            shown_text += screen_text(app)
            await pilot.press("right")
            await pilot.pause()
        assert "mucks" in shown_text or "shows" in shown_text
        assert not cards_in(shown_text) - allowed, shown_text
        # What the session holds: the events the replay steps through, and every text in it.
        mine = screen.hand
        assert not event_cards(mine.events) - allowed
        for f in dataclasses.fields(mine):
            value = getattr(mine, f.name)
            if isinstance(value, str):
                assert not phh_cards(value) - allowed, f.name
        await pilot.press("x")
        await pilot.pause()
        area = app.screen.query_one(TextArea)
        stars = area.text
        await pilot.press("p")
        await pilot.pause()
        phh = area.text
        assert "PokerStars Hand #" in stars and "variant = " in phh
        assert not pokerstars_cards(stars) - allowed and not phh_cards(phh) - allowed
        assert not (pokerstars_cards(stars) | phh_cards(phh)) & hidden
