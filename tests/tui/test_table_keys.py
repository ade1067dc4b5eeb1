"""Every key path of the table screen, with a real room, a real SQLite store and a FakeClock."""

from __future__ import annotations

import pytest
from textual.widgets import Digits, Input

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.amount import AmountDialog
from cardroom.tui.dialogs.confirm import Confirm
from cardroom.tui.screens.lobby import LobbyScreen
from cardroom.tui.widgets.bars import AutoBar, Chip
from cardroom.tui.widgets.card import HandCard

from .conftest import (SIZE, alices_turn_three_handed, notified, open_table, others_until, passive,
                       screen_text, table_settings)


def last_chat(view, n=3):
    return [c.text for c in view.chat[-n:]]


async def test_fold_key(world):
    w, (alice, bob, carol) = alices_turn_three_handed(world)
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert "f Fold" in screen_text(app)
        await pilot.press("f")
        await pilot.pause()
        assert "alice folds" in last_chat(alice.view("T"))
        seat = next(s for s in alice.view("T").seats if s.name == "alice")
        assert seat.status == "folded"


async def test_clicking_a_chip_of_the_action_bar_does_its_action(world):
    from cardroom.tui.widgets.bars import ActionBar

    w, (alice, bob, carol) = alices_turn_three_handed(world)
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        bar = screen.query_one(ActionBar)
        keys = [k for k, _, _ in bar.items]
        assert "c" in keys and "f" in keys
        # the chips sit side by side: " f Fold " then " c Call $2 " ...; click inside the second
        x = len(" f Fold ") + 2 if keys[0] == "f" else 2
        await pilot.hover(ActionBar, offset=(x, 0))
        await pilot.click(ActionBar, offset=(x, 0))
        await pilot.pause()
        assert "alice calls $2" in last_chat(alice.view("T"))
        await pilot.click(ActionBar, offset=(SIZE[0] - 45, 0))   # the note, not a chip: nothing
        await pilot.pause()
        assert "alice calls $2" in last_chat(alice.view("T"), 1)


async def test_call_and_check_keys_change_label(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        assert "c Call $2" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert "alice calls $2" in last_chat(alice.view("T"))
        others_until(w, clients, alice, lambda v: v.street == "flop")
        await pilot.pause()
        screen.refresh_from_room()
        await pilot.pause()
        assert "c Check" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert "alice checks" in last_chat(alice.view("T"))


async def test_fixed_limit_raise_confirms_the_fixed_amount(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "Raise to $4?" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "alice raises to $4" in last_chat(alice.view("T"))


async def test_space_taps_the_table_to_check(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("space")        # facing a bet: a tap cannot check
        await pilot.pause()
        assert alice.view("T").legal is not None
        assert "you cannot check: there is a bet of $2.00 to you" in notified(app)
        await pilot.press("c")
        others_until(w, clients, alice, lambda v: v.street == "flop")
        await pilot.pause()
        await pilot.press("space")
        await pilot.pause()
        assert "alice checks" in last_chat(alice.view("T"))


async def test_no_limit_bet_prompt_default_min_shows_max_and_rejects_a_bad_amount(world):
    w, clients = alices_turn_three_handed(world, table_settings(kind="no", small=200))
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        lg = alice.view("T").legal
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AmountDialog)
        box = dialog.query_one("#amount", Input)
        assert box.value == "4.00"                       # the smallest raise is the default
        text = screen_text(app)
        assert "$100" in text and "most you may raise to" in text   # the largest is shown
        labels = [b.label.plain for b in dialog.query("Button") if (b.id or "").startswith("preset-")]
        assert labels[-1] == "all-in $100"                           # no limit: the whole stack
        box.value = "500"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, AmountDialog)      # refused, still asking
        assert "too much: the largest allowed is $100" in screen_text(app)
        box.value = "3"
        await pilot.press("enter")
        await pilot.pause()
        assert "too little: the smallest is $4" in screen_text(app)
        assert alice.view("T").legal == lg               # nothing was sent
        box.value = "12.50"
        await pilot.press("enter")
        await pilot.pause()
        assert "alice raises to $12.50" in last_chat(alice.view("T"))


async def test_pot_limit_presets(world):
    w, clients = alices_turn_three_handed(world, table_settings(kind="pot", small=200))
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        lg = alice.view("T").legal
        await pilot.press("r")
        await pilot.pause()
        dialog = app.screen
        labels = [b.label.plain for b in dialog.query("Button") if (b.id or "").startswith("preset-")]
        # No "all-in" button: in pot limit the pot is the most, and alice's stack covers it.
        assert [label.split()[0] for label in labels] == ["1/2", "pot"] and lg.max_to < 10_000
        await pilot.click("#preset-1")
        await pilot.pause()
        # pot limit: the pot preset is the largest raise (seed 001: pot after calling)
        assert dialog.query_one("#amount", Input).value == f"{lg.max_to // 100}.{lg.max_to % 100:02d}"
        await pilot.press("enter")
        await pilot.pause()
        assert any("raises to" in t for t in last_chat(alice.view("T")))


async def test_hold_toggles_and_the_draw(world):
    w = world(table_settings(game="draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        mine = alice.view("T").my_cards
        await pilot.press("1", "3")
        await pilot.pause()
        cards = list(screen.query(HandCard))
        assert [c.held for c in cards[:5]] == [True, False, True, False, False]
        assert cards[0].has_class("-held")
        assert cards[0].region.y == cards[1].region.y + 1        # the held card drops a line
        await pilot.press("3")                                    # unhold
        await pilot.pause()
        assert not cards[2].held
        await pilot.click("#card-2")                              # a click holds too
        await pilot.pause()
        assert cards[1].held
        assert "Draw 3" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert "alice draws 3" in last_chat(alice.view("T"), 6)
        after = alice.view("T").my_cards
        assert after[0] == mine[0] and after[1] == mine[1]        # held cards kept


async def test_all_held_is_stand_pat_after_a_confirmation(world):
    w = world(table_settings(game="draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("1", "2", "3", "4", "5", "enter")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("escape")                   # cancelled: nothing sent
        await pilot.pause()
        assert alice.view("T").legal.phase == "draw"
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert "alice stands pat" in last_chat(alice.view("T"), 6)


async def test_space_at_the_draw_stands_pat(world):
    w = world(table_settings(game="draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("space")
        await pilot.pause()
        assert "alice stands pat" in last_chat(alice.view("T"), 6)


async def test_each_auto_action_key(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    alice.act("T", "call")                   # now it is bob's turn: autos wait for alice's next turn
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        for key, auto in (("f2", "check/fold"), ("f3", "check/call"), ("f4", "bet/call"),
                          ("f5", "raise"), ("f6", "fold"), ("a", "ask")):
            await pilot.press(key)
            await pilot.pause()
            assert alice.view("T").auto_action == auto
            active = [c for c in screen.query_one(AutoBar).query(Chip) if c.has_class("-active")]
            assert [c.action for c in active] == [f"auto('{auto}')"]
        await pilot.press("f3")                  # check/call: played when the turn comes
        for _ in range(4):                       # bob and carol finish preflop, check the flop
            passive(w.actor(clients))
        w.clock.advance(0.01)
        await pilot.pause()
        v = alice.view("T")
        assert "alice checks" in last_chat(v, 2) and v.auto_action == "ask"   # used once
        assert [c.action for c in screen.query_one(AutoBar).query(Chip) if c.has_class("-active")] \
            == ["auto('ask')"]


async def test_sit_out_and_back_in(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("s")
        await pilot.pause()
        assert alice.view("T").sitting_out
        await pilot.press("s")
        await pilot.pause()
        assert not alice.view("T").sitting_out


async def test_leave_during_a_hand_asks_then_returns_to_the_lobby(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "Your hand will be folded" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert "alice folds" in last_chat(clients[1].view("T"), 8)


async def test_leave_while_the_database_refuses_the_cash_out_says_so_and_keeps_the_seat(tmp_path):
    """Issue 19: `l` at a table whose cash-out the store refused (the database held by another
    process) ended the session with a traceback on the server's stdout."""
    import sqlite3

    from cardroom.tui.screens.table import TableScreen

    from tests.rooms import build_room

    room, store, _ = build_room(tmp_path / "room.sqlite3", store_options={"busy_timeout_ms": 50})
    alice = room.connect("alice")
    alice.join("T")
    alice.buy_in("T", 10_000)
    app = build_app(alice)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await open_table(app, pilot)
            held = sqlite3.connect(store.path, isolation_level=None)
            held.execute("BEGIN EXCLUSIVE")
            try:
                await pilot.press("l")
                await pilot.pause()
            finally:
                held.execute("ROLLBACK")
                held.close()
            assert isinstance(app.screen, TableScreen)
            assert notified(app).count("could not be returned to your account") == 1
            assert "You left" not in notified(app)
            await pilot.press("l")                        # the database free again
            await pilot.pause()
            assert isinstance(app.screen, LobbyScreen) and "You left T" in notified(app)
        assert store.balance(alice.account_id) == 100_000
    finally:
        store.close()


async def test_a_buy_in_the_database_refuses_is_not_reported_as_made(tmp_path):
    import sqlite3

    from tests.rooms import build_room

    room, store, _ = build_room(tmp_path / "room.sqlite3", store_options={"busy_timeout_ms": 50})
    alice = room.connect("alice")
    alice.join("T")
    app = build_app(alice)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await open_table(app, pilot)
            held = sqlite3.connect(store.path, isolation_level=None)
            held.execute("BEGIN EXCLUSIVE")
            try:
                await pilot.press("b")
                await pilot.pause()
                assert isinstance(app.screen, AmountDialog)
                await pilot.press("enter")
                await pilot.pause()
            finally:
                held.execute("ROLLBACK")
                held.close()
            assert notified(app).count("was not made") == 1 and "Bought in" not in notified(app)
            assert alice.view("T").table_chips == 0
            await pilot.press("b")
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert "Bought in for" in notified(app) and alice.view("T").table_chips > 0
    finally:
        store.close()


async def test_leave_while_all_in_says_the_hand_plays_on(world):
    """Found by a play-tester: a protected all-in pressed l and read 'Your hand will be folded';
    the hand played on to the showdown (an all-in cannot be folded), then he left."""
    w = world(table_settings(kind="no"))
    alice, bob, carol = w.room.connect("alice"), w.room.connect("bob"), w.room.connect("carol")
    for c, stack in ((alice, 10_000), (bob, 2_000), (carol, 10_000)):
        c.join("T")
        c.set_auto_blind("T", True)
        c.buy_in("T", stack)
    w.clock.advance(0.01)
    clients = [alice, bob, carol]
    for _ in range(10):                                      # bob goes all-in; the others play on
        me = next(s for s in bob.view("T").seats if s.name == "bob")
        if me.status == "all-in":
            break
        a = w.actor(clients)
        lg = a.view("T").legal
        a.act("T", "raise", lg.max_to) if a is bob and lg.min_to else a.act("T", "call" if lg.call else "check")
    assert me.status == "all-in" and bob.view("T").phase == "bet"   # the hand goes on without him
    app = build_app(bob, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        text = screen_text(app)
        assert "You are all-in: your hand plays on to the showdown" in text
        assert "will be folded" not in text

async def test_chat_is_shown_literally_never_as_markup(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("t")
        await pilot.pause()
        assert isinstance(app.focused, Input)
        await pilot.press(*"[bold red]x[/]")
        await pilot.press("enter")
        await pilot.pause()
        assert "alice: [bold red]x[/]" in screen_text(app)
        clients[1].chat("T", "[link=http://evil]click[/link] [@click=app.quit]q[/]")
        await pilot.pause()
        assert "[link=http://evil]click[/link]" in screen_text(app)
        assert app.is_running


async def test_dealer_chat_toggle(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("t", "ctrl+t")          # player -> dealer
        await pilot.press(*"how many did bob draw", "enter")
        await pilot.pause()
        assert any(c.kind == "dealer" and "I can't answer" in c.text for c in alice.view("T").chat)
        await pilot.press("escape", "d", "ctrl+t", *"hello", "enter")   # d opens the dealer box; back to the players
        await pilot.pause()
        assert alice.view("T").chat[-1].text == "hello"


async def test_join_and_buy_in_errors(world):
    w = world()
    w.seat("T", ["alice", "bob"])
    dave = w.room.connect("dave")
    app = build_app(dave)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")             # welcome -> lobby
        await pilot.pause()
        await pilot.press("j")                 # join the table under the cursor
        await pilot.pause()
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AmountDialog)
        text = screen_text(app)
        assert "Minimum $20" in text and "balance is $1,000" in text
        box = dialog.query_one("#amount", Input)
        assert box.value == "1000.00"           # the default is the whole balance (seed 001)
        box.value = "5"
        await pilot.press("enter")
        await pilot.pause()
        assert "too little: the smallest is $20" in screen_text(app)
        box.value = "5000"
        await pilot.press("enter")
        await pilot.pause()
        assert "you have only $1,000 in your account" in screen_text(app)
        box.value = "1.2.3"
        await pilot.press("enter")
        await pilot.pause()
        assert "is not an amount" in screen_text(app)
        box.value = "150"
        await pilot.press("enter")
        await pilot.pause()
        me = next(s for s in dave.view("T").seats if s.name == "dave")
        assert me.stack == 15_000


async def test_join_a_seat_by_clicking_it(world):
    w = world()
    w.seat("T", ["alice", "bob"])
    dave = w.room.connect("dave")
    app = build_app(dave)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")      # watch
        await pilot.pause()
        felt = app.screen.query_one("#felt")
        x, y = felt.seat_offset(5)
        gutter = felt.styles.gutter
        await pilot.click("#felt", offset=(x + gutter.left + 2, y + gutter.top + 1))
        await pilot.pause()
        assert isinstance(app.screen, AmountDialog)
        await pilot.press("enter")
        await pilot.pause()
        assert dave.view("T").my_seat == 5


async def test_history_viewer_steps_and_exports(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    alice.act("T", "fold")
    while alice.view("T").hand_id == "1001" and alice.view("T").phase != "done":
        a = w.actor(clients)
        if a is None:
            break
        a.act("T", "fold")
    w.clock.advance(0.01)
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("h")
        await pilot.pause()
        assert "1001" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Hand #1001" in text and "Dealt to alice" in text and "street 1 of" in text
        # Everyone by name (public at the table), me marked; the street by its name.
        assert "alice (you)," in text and ": bob," in text and ": carol," in text and "-- preflop --" in text
        await pilot.press("right")
        await pilot.pause()
        assert "alice folds" in app.screen.export_text()
        await pilot.press("x")
        await pilot.pause()
        assert "PokerStars Hand #1001" in screen_text(app)
        await pilot.press("c")
        await pilot.pause()
        assert app.clipboard.startswith("PokerStars Hand #1001") and "alice: folds" in app.clipboard
        bob_cards = clients[1].hand("1001")
        assert bob_cards is not None
        await pilot.press("escape", "escape", "escape")
        await pilot.pause()


async def test_options_four_colour_and_letters_take_effect(world):
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        card = screen.query_one("#card-1", HandCard)
        c = card.card
        symbol_text = card.render().plain
        assert symbol_text[1] in "\u2663\u2666\u2665\u2660"
        await pilot.press("o")
        await pilot.pause()
        await pilot.click("#four_colour")
        await pilot.click("#letters")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.options.four_colour and app.options.letters
        assert card.render().plain == repr(c)                       # "9s": letters
        colour = card.render().spans[0].style if card.render().spans else card.render().style
        expected = {0: "#007a00", 1: "#0040d0", 2: "#c00000", 3: "#000000"}[c.suit]
        assert expected in str(colour)
        assert repr(c) in screen_text(app)


async def test_help_shows_the_tables_own_rules(world):
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = screen_text(app)
        assert "At most 4 bets a round" in text and "23 seconds" in text and "Buy-in: at least $20" in text
        await pilot.press("escape", "m")
        await pilot.pause()
        assert "Balance" in screen_text(app) and "On table" in screen_text(app)


async def test_countdown_bar_then_large_digits_for_whoever_acts(world):
    w, (alice, bob, _carol) = alices_turn_three_handed(world)
    alice.act("T", "call")           # bob to act; alice (and every railbird) sees his clock
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        assert "bob to act" in screen_text(app)
        assert "23s" in screen_text(app)
        w.clock.advance(15)
        await pilot.pause()
        digits = screen.query_one(Digits)
        assert digits.display and digits.value.strip() == "8"
        w.clock.advance(9)           # timed out
        await pilot.pause()
        assert bob.view("T").acting_seat != 3 or bob.view("T").street != "preflop"


async def test_options_auto_blind_and_change_table_stake(world):
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    alice = clients[0]
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert alice.view("T").auto_blind
        await pilot.press("o")
        await pilot.pause()
        await pilot.click("#auto_blind")
        await pilot.click("#stake")
        await pilot.pause()
        assert not alice.view("T").auto_blind
        dialog = app.screen
        assert isinstance(dialog, AmountDialog) and "Change table stake" in screen_text(app)
        dialog.query_one("#amount", Input).value = "50"
        await pilot.press("enter")
        await pilot.pause()
        assert alice.my_money().on_tables["T"] == 15_000


async def test_a_call_of_the_whole_stack_says_all_in(world):
    w = world(table_settings(kind="no"))
    alice, bob = w.room.connect("alice"), w.room.connect("bob")
    for c, stack in ((alice, 10_000), (bob, 2_000)):
        c.join("T")
        c.set_auto_blind("T", True)
        c.buy_in("T", stack)
    w.clock.advance(0.01)
    assert w.actor([alice, bob]) is alice                  # heads-up the button acts first
    alice.act("T", "raise", alice.view("T").legal.max_to)   # all-in, more than bob has
    app = build_app(bob, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert "c Call $18 all-in" in screen_text(app)      # his $20 less the $2 big blind


async def test_a_dimmed_key_says_why_the_stud_bring_in_cannot_fold(world):
    """Seed 001/stud: the lowest up card must bring in (or complete); f is dimmed then, and
    pressing it says the rule instead of doing nothing, and changes nothing."""
    w = world(table_settings(game="stud", small=200, big=400))
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    bringer = w.actor(clients)
    assert bringer.view("T").legal.bring_in
    app = build_app(bringer)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("f")
        await pilot.pause()
        assert "must bring in or complete" in notified(app)
        view = bringer.view("T")
        assert view.legal is not None and view.legal.bring_in   # still the bring-in's decision
        assert not any("folds" in c.text for c in view.chat)


async def test_a_dimmed_key_out_of_turn_says_so_and_never_acts_later(world):
    w, (alice, bob, carol) = alices_turn_three_handed(world)
    app = build_app(bob)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("c", "f", "c")
        await pilot.pause()
        assert notified(app).count("It is not your turn") == 1    # one toast, not three
        passive(alice)                              # now it is bob's turn: nothing was queued
        await pilot.pause()
        assert bob.view("T").legal is not None
        assert bob.view("T").chat[-1].text.startswith("alice")


async def test_a_dimmed_key_for_a_railbird_says_how_to_sit(world):
    w, clients = alices_turn_three_handed(world)
    dave = w.room.connect("dave")
    dave.watch("T")
    app = build_app(dave)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert "You are watching this table" in notified(app)


async def test_a_dimmed_raise_key_states_the_cap(world):
    """Seed 000: a bet and three raises a round; after the cap r is dimmed and says so."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    w.clock.advance(0.01)
    while True:   # everyone raises while a raise is allowed: the big blind and three raises
        a = w.actor(clients)
        lg = a.view("T").legal
        if not lg.min_to:
            break
        a.act("T", "raise", lg.min_to)
    others_until(w, clients, alice)
    assert alice.view("T").legal.min_to == 0
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        footer = screen_text(app).splitlines()[-3:]
        assert any("r Raise" in line for line in footer) and not any("r Bet" in line for line in footer)
        await pilot.press("r")
        await pilot.pause()
        assert "capped at 4 bets" in notified(app)
        assert alice.view("T").legal is not None


@pytest.mark.parametrize("typed", ["1e9", "1o0", "12,50", "-5"])
async def test_a_mistyped_amount_is_refused_whole_not_trimmed_to_digits(world, typed):
    """Seen over ssh: "1e9" typed into the no-limit raise prompt and Enter raised to $19, the
    input having dropped the "e" without a word. A mistyped amount is refused with a message
    and nothing is sent."""
    w, clients = alices_turn_three_handed(world, table_settings(kind="no", small=200))
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        lg = alice.view("T").legal
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("ctrl+a", "ctrl+k", *typed, "enter")
        await pilot.pause()
        assert isinstance(app.screen, AmountDialog)          # still asking
        assert "is not an amount" in screen_text(app)
        assert alice.view("T").legal == lg                   # nothing was sent


async def test_an_options_tick_shows_on_or_off_without_colour(world):
    """Textual's checkbox draws its X whether ticked or not (the colour tells); seen over ssh,
    every option looked ticked. The mark is drawn only when the option is on."""
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0], options=UIOptions(sound=True))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("o")
        await pilot.pause()

        def line(label):
            return next(t for t in screen_text(app).splitlines() if label in t)
        assert "\u2590 \u258c Four-colour deck" in line("Four-colour deck")     # off: an empty box
        assert "\u2590X\u258c Sound" in line("Sound")                           # on: ticked
        await pilot.click("#four_colour")
        await pilot.pause()
        assert "\u2590X\u258c Four-colour deck" in line("Four-colour deck")
        await pilot.press("escape")
        app.options.ascii = True                    # ASCII only: no block characters either
        await pilot.press("o")
        await pilot.pause()
        assert "[ ] Four-colour deck" in line("Four-colour deck") and "[X] Sound" in line("Sound")


async def test_change_table_stake_in_a_hand_offers_what_the_room_accepts(world):
    """Found by a play-tester: at a no-limit table (most $200 here) with $36 behind a $2 blind,
    the dialog offered $164 and the room refused it ("you have $38"): the dialog counted the
    stack behind the pot, the room the stack the hand began with. The offer is now the room's."""
    w, clients = alices_turn_three_handed(world, table_settings(kind="no", small=200, max_buy_in=20_000), stack=3_800)
    alice = clients[0]
    alice.act("T", "call")                              # $2 of her $38 in the pot
    others_until(w, clients, alice, lambda v: v.street == "flop")
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("o")
        await pilot.pause()
        await pilot.click("#stake")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, AmountDialog)
        assert dialog.query_one("#amount", Input).value == "162.00"     # $200 less the $38 she began with
        await pilot.press("enter")
        await pilot.pause()
        assert not isinstance(app.screen, AmountDialog)
        assert alice.view("T").pending_chips == 16_200                     # added when the hand ends


async def test_change_table_stake_above_the_table_maximum_says_so(world):
    """Found by a play-tester: with $307.90 on a table whose most is $200, the dialog filled in
    -107.90 and called -$107.90 'the largest allowed'. Now nothing can be added, and it says so."""
    from dataclasses import replace

    w = world(table_settings(kind="no", small=200))
    clients = w.seat("T", ["alice", "bob"], stack=20_000)
    alice = clients[0]
    t = w.room.tables["T"]
    t.settings = replace(t.settings, max_buy_in=15_000)   # her $200 is now above the table's most
    app = build_app(alice, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("o")
        await pilot.pause()
        await pilot.click("#stake")
        await pilot.pause()
        assert not isinstance(app.screen, AmountDialog)
        assert "the most this table allows is $150: no chips can be added" in notified(app)


async def test_a_raise_of_the_whole_stack_is_confirmed_as_all_in(world):
    """Found by a play-tester: the only raise left to a short stack was confirmed as 'Raise to
    $25?' with no word that it was all-in (the dealer then said so)."""
    w = world(table_settings(kind="no"))
    alice, bob = w.room.connect("alice"), w.room.connect("bob")
    for c, stack in ((alice, 10_000), (bob, 2_000)):
        c.join("T")
        c.set_auto_blind("T", True)
        c.buy_in("T", stack)
    w.clock.advance(0.01)
    alice.act("T", "raise", 1_200)                          # bob's smallest re-raise is more than he has
    lg = bob.view("T").legal
    assert lg.min_to == lg.max_to == 2_000
    app = build_app(bob, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "Raise to $20 (all-in)?" in screen_text(app)


async def test_the_help_says_how_to_close_it_and_wraps_under_each_description(world):
    """Found by a play-tester at 80 columns: nothing said how to close the help, and a long key
    description wrapped back under the keys ("a click on a card does" / "the same")."""
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert any("esc, ? or q closes this help" in line for line in lines)
        first = next(i for i, line in enumerate(lines) if "a click on a card does" in line)
        column = lines[first].index("hold / unhold")
        assert lines[first + 1][column:].strip().startswith("the same")       # under its description
        assert not lines[first + 1][:column].strip("█ ")                       # nothing under the keys
        await pilot.press("escape")
        await pilot.pause()
        assert not any("closes this help" in line for line in screen_text(app).splitlines())


async def test_a_tap_under_the_must_raise_house_rule_says_what_is_owed(world):
    """Found by a play-tester at a must-raise lowball table: space said "You can't check: it is
    $0 to call" (the rule allows no call, so the screen's figure was 0)."""
    from cardroom.engine.betting import Rules

    w = world(table_settings(game="a5-draw", rules=Rules(rake_percent=0, must_raise_to_enter=True)))
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    me = w.actor(clients)
    assert not me.view("T").legal.can_call and not me.view("T").legal.check
    app = build_app(me, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.press("space")
        await pilot.pause()
        assert "there is a bet of $2.00 to you" in notified(app)
        assert "$0" not in notified(app)
        await pilot.press("c")
        await pilot.pause()
        assert "you must raise the big blind to enter" in notified(app)
        assert me.view("T").legal is not None                  # nothing changed


async def test_every_auto_action_label_is_whole_at_80_columns(world):
    """The six auto-action chips, one column of padding each side, took 84 columns: at 80 (and in
    the 80-column table pane of wider screens) the last read "f6 Fold in T"."""
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0], options=UIOptions(sound=False))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        line = next(t for t in screen_text(app).splitlines() if "f2 Check/Fold" in t)
        for label in ("a Ask Me", "f2 Check/Fold", "f3 Check/Call", "f4 Bet/Call", "f5 Raise It", "f6 Fold in Turn"):
            assert label in line, line


async def test_a_held_card_shows_its_h_on_screen_at_80x24(world):
    """Issue 22: the "H" of a held card never reached the screen: Textual leaves no room for a
    border subtitle on a 6-wide card, so only the dropped line told a held card from the rest."""
    w = world(table_settings(game="draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")
    app = build_app(alice)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_table(app, pilot)
        await pilot.press("2")
        await pilot.pause()
        cards = list(screen.query(HandCard))
        held = cards[1].region
        bottom = screen_text(app).splitlines()[held.bottom - 1][held.x:held.right]
        assert "H" in bottom, bottom
        other = cards[2].region
        assert "H" not in screen_text(app).splitlines()[other.bottom - 1][other.x:other.right]


async def test_chat_stays_open_for_the_next_line_until_esc(world):
    """Issue 22: each line sent closed the chat, so the next line typed went to the table's keys
    ("how many did bob draw?" opened the history, the options and My Money; an f would fold)."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        await pilot.press("t", *"hello", "enter")
        await pilot.press(*"how many did bob draw?", "enter")
        await pilot.pause()
        said = [c.text for c in alice.view("T").chat if c.name == "alice"]
        assert said[-2:] == ["hello", "how many did bob draw?"], said
        assert app.screen is screen and isinstance(app.focused, Input)
        await pilot.press("escape", "h")              # Esc: back to the table's keys
        await pilot.pause()
        assert app.screen is not screen               # h opened the history
