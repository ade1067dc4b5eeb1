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
