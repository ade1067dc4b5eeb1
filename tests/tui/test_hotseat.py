"""Hot-seat: two local players and a bot finish a hand at one terminal; on every frame no local
player's hidden cards are on the screen unless it is that player's own (revealed) turn."""

from __future__ import annotations

from pathlib import Path

from cardroom.config import load_config
from cardroom.tui import UIOptions
from cardroom.tui.hotseat import HotSeatApp, redact_view, seat_hotseat
from cardroom.tui.render import RANKS, SUIT_SYMBOLS
from cardroom.tui.screens.pass_device import PassScreen
from cardroom.tui.screens.table import TableScreen

from tests.rooms import table_settings
from .conftest import SIZE, screen_text

SHIPPED = load_config(Path(__file__).resolve().parents[2] / "config.toml")     # its tournaments


def hidden_cards(client, table="T") -> set[str]:
    """The card texts only this player may see now (face down to everyone else, not shown)."""
    v = client.view(table)
    me = next((s for s in v.seats if s.number == v.my_seat), None)
    if me is None or me.shown:
        return set()
    return {RANKS[c.rank] + SUIT_SYMBOLS[c.suit] for c, up in zip(me.cards, me.up) if c is not None and not up}


def auto_blind_on(hs):
    """The local players turn Auto Blind on (it starts off, seed 000): these tests are about
    passing the device for decisions, not for blinds."""
    for c in hs.clients.values():
        c.set_auto_blind(hs.table, True)


async def test_two_local_players_and_a_bot_play_a_hand_without_seeing_each_others_cards(world):
    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=1, seed=3)
    auto_blind_on(hs)
    w.clock.advance(0.01)
    clients = hs.clients
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    frames = 0
    passes = set()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        hand_id = None
        for _ in range(200):
            await pilot.pause()
            text = screen_text(app)
            frames += 1
            revealed = app.revealed.name if app.revealed is not None else None
            hidden = {name: hidden_cards(c) for name, c in clients.items()}
            for name, cards in hidden.items():
                if name != revealed:
                    leaked = [c for c in cards if c in text]
                    assert not leaked, f"frame {frames}: {name}'s {leaked} shown while {revealed} has the screen"
            if isinstance(app.screen, TableScreen):
                # the widgets only ever get the revealed player's own view, or a railbird's
                view = app.screen.view
                for name, c in clients.items():
                    if name != revealed:
                        assert not (set(map(repr, c.view("T").my_cards)) & set(map(repr, view.my_cards)))
            view = clients["alice"].view("T")
            hand_id = hand_id or view.hand_id
            if view.hand_id != hand_id or view.phase == "done":
                break
            if isinstance(app.screen, PassScreen):
                passes.add(app.screen.client.name)
                assert "Pass to " + app.screen.client.name in text
                assert not any(c in text for cards in hidden.values() for c in cards)
                await pilot.press("enter")
                await pilot.pause()
                cards = hidden_cards(app.revealed)
                assert cards and all(c in screen_text(app) for c in cards)   # my own cards, on my turn
                continue
            if revealed is not None:
                await pilot.press("c")       # check or call
                continue
            w.clock.advance(1.0)             # the bot thinks
        assert passes == {"alice", "bob"}
        done = clients["alice"].view("T")
        assert done.hand_id != hand_id or done.phase == "done"
    assert frames > 5


def test_redacted_view_keeps_no_hidden_card(world):
    w = world()
    clients = w.seat("T", ["alice", "bob"])
    w.clock.advance(0.01)
    v = redact_view(clients[0].view("T"))
    assert v.my_cards == () and v.legal is None and v.my_seat is None
    assert all(c is None for s in v.seats for c in s.cards)


async def test_a_local_players_clock_starts_when_they_take_the_device(world):
    """The hot-seat table (clock_waits_for_ready, as `cardroom hotseat` makes it): while "Pass to"
    is up the decision clock does not run, so nobody times out before seeing their cards; Enter
    on the pass screen starts it. Before, a player could time out behind the pass screen."""
    w = world(table_settings(seats=4, clock_waits_for_ready=True))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=0, seed=3)
    auto_blind_on(hs)
    w.clock.advance(0.01)
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        actor = app.screen.client
        w.clock.advance(60.0)
        await pilot.pause()
        assert app.hotseat.actor() is actor and actor.view("T").seconds_left is None
        await pilot.press("enter")
        await pilot.pause()
        assert app.revealed is actor
        assert abs(actor.view("T").seconds_left - 23) < 0.1


async def test_one_local_player_with_bots_keeps_his_own_view_and_is_never_asked_to_pass(world):
    """Seen trying `cardroom hotseat --players ann --bots 9`: every turn began with "Pass to
    ann", and between his turns ann saw the railbird's view, without his own cards."""
    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["ann"], bots=2, seed=5)
    auto_blind_on(hs)
    w.clock.advance(0.01)
    ann = hs.clients["ann"]
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        hand_id = ann.view("T").hand_id
        turns = seen_off_turn = 0
        for _ in range(120):
            await pilot.pause()
            assert not isinstance(app.screen, PassScreen)
            assert isinstance(app.screen, TableScreen)
            view = ann.view("T")
            cards = hidden_cards(ann)
            if cards:
                assert all(c in screen_text(app) for c in cards)     # his own cards, his turn or not
                if view.legal is None:
                    seen_off_turn += 1
            if view.hand_id != hand_id or view.phase == "done":
                break
            if view.legal is not None:
                turns += 1
                await pilot.press("c")
                continue
            w.clock.advance(1.0)             # the bots think
        assert turns >= 1 and seen_off_turn >= 1


async def test_a_betting_key_while_a_bot_acts_says_to_wait_not_to_take_a_seat(world):
    """Between local turns the hot-seat screen shows a railbird's view; a dimmed key pressed
    then must not tell the players at the table to 'press j to take a seat'."""
    from .conftest import notified

    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=2, seed=3)
    w.clock.advance(0.01)
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(100):
            await pilot.pause()
            if isinstance(app.screen, PassScreen):
                await pilot.press("enter")
                await pilot.pause()
                await pilot.press("c")
                continue
            if hs.actor() is None and app.revealed is None and isinstance(app.screen, TableScreen):
                break                                   # a bot's turn: nobody's cards on screen
            w.clock.advance(0.2)
        else:
            raise AssertionError("never reached a bot's turn")
        await pilot.press("f")
        await pilot.pause()
        assert "Not now: wait for your turn" in notified(app)
        assert "take a seat" not in notified(app)


async def test_the_previous_players_toast_is_gone_when_the_device_is_passed(world):
    """Issue 35: alice's "You post the blind of $1" was still on bob's screen after the pass
    screen. What one player was told is his: the device is passed with no toast on it."""
    from .conftest import notified
    w = world(table_settings(seats=4))
    hs = seat_hotseat(w.room, "T", ["alice", "bob"], bots=0, seed=3)
    w.clock.advance(0.01)
    assert all(c.view("T").blind_prompt for c in hs.clients.values())    # Auto Blind off: both asked
    app = HotSeatApp(hs, options=UIOptions(sound=False))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, PassScreen)
        first = app.screen.client
        await pilot.press("enter")                  # the first takes the device ...
        await pilot.pause()
        await pilot.press("enter")                  # ... and posts his blind
        await pilot.pause()
        assert isinstance(app.screen, PassScreen) and app.screen.client is not first
        assert "You post the blind" not in notified(app)
        assert "You post the blind" not in screen_text(app)
        await pilot.press("enter")                  # the second takes it
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.revealed is not first
        assert "You post the blind" not in notified(app) + screen_text(app)
        assert "Post the blind of" in screen_text(app)     # his own question, nothing of the other's


async def test_a_hotseat_sit_and_go_starts_and_its_local_players_play_a_hand(tmp_path):
    """`cardroom hotseat --tournament NAME`: config.toml's sit & go with two local players and
    practice bots in its other seats: registering them starts it, the hot-seat table is the
    tournament's, each local player takes the device on his turn and
    plays; a hand is played out and the next dealt, the tournament's chips all there."""
    from cardroom.tui.hotseat import seat_hotseat_tournament
    from tests.room.tournaments.helpers import room_with

    spec = SHIPPED.tournament("Sit & Go Hold'em 9")
    room, store, clock = room_with(tmp_path, spec)
    try:
        t = next(iter(room.tournaments.live.values()))
        hs = await seat_hotseat_tournament(room, t, ["alice", "bob"], seed=4)
        assert t.director.state == "running" and t.director.entrants == 9
        table = hs.table
        assert table == t.table_name(1) and len(room.tables[table].seats) == 9
        assert sum(s.bot is not None for s in room.tables[table].seats.values()) == 7
        app = HotSeatApp(hs, options=UIOptions(sound=False))
        first = None
        acted = set()
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(400):
                await pilot.pause()
                view = hs.clients["alice"].view(table)
                first = first or view.hand_id
                if view.hand_id and view.hand_id != first and acted:
                    break
                if isinstance(app.screen, PassScreen):
                    await pilot.press("enter")
                    await pilot.pause()
                    assert app.revealed is not None
                    acted.add(app.revealed.name)
                    assert table in screen_text(app)     # the tournament's table
                    await pilot.press("c")           # check or call
                    continue
                clock.advance(1.0)                   # the bots think; the hand ends, the next is dealt
            else:
                raise AssertionError(f"no hand was played out (local players who acted: {acted})")
        assert acted and t.director.hands >= 2
        assert sum(e.chips for e in t.director.alive()) == 9 * spec.starting_chips
    finally:
        store.close()


async def test_a_hotseat_multi_table_sit_and_go_screen_follows_a_moved_local_player(tmp_path):
    """config.toml's 45-player sit & go at hot-seat, ann and 44 bots on five tables: when the room
    moves ann (balancing, or her table breaking), the screen shows her new table, and she plays
    there (Issue 38: "his screen follows him")."""
    from cardroom.engine.tournament import Moved
    from cardroom.tui.hotseat import seat_hotseat_tournament
    from tests.room.tournaments.helpers import room_with

    room, store, clock = room_with(tmp_path, SHIPPED.tournament("45-Player Sit & Go"))
    try:
        t = next(iter(room.tournaments.live.values()))
        hs = await seat_hotseat_tournament(room, t, ["ann"], seed=2)
        ann = hs.clients["ann"]
        assert len(t.tables) == 5 and hs.table == ann.my_tables()[0]
        moves = []
        t.listeners.append(lambda records: moves.extend(r for r in records if isinstance(r, Moved)
                                                        and r.player == ann.account_id))
        app = HotSeatApp(hs, options=UIOptions(sound=False))
        acted_after_move = False
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(3000):
                await pilot.pause()
                assert isinstance(app.screen, TableScreen) and app.screen.table == app.hotseat.table
                if not ann.my_tables():
                    raise AssertionError("ann went out before she was moved: choose another seed")
                view = ann.view(ann.my_tables()[0])
                if view.legal is not None and view.acting_seat == view.my_seat:
                    if moves:
                        assert app.screen.table == t.table_name(moves[-1].to_table)
                        assert t.table_name(moves[-1].to_table) in screen_text(app)
                        acted_after_move = True
                    await pilot.press("c" if view.legal.check else "f")
                    if acted_after_move:
                        break
                    continue
                clock.advance(1.0)
        assert moves and acted_after_move
    finally:
        store.close()


async def test_two_local_players_at_different_tables_each_get_the_device_at_their_own(tmp_path):
    """Two local players of a multi-table sit & go: each is passed the device at his own table
    (the pass screen over it) and plays there with his own view; they sit at two tables or more
    over the game, and a move of either is followed as well."""
    from cardroom.engine.tournament import Moved
    from cardroom.tui.hotseat import seat_hotseat_tournament
    from tests.room.tournaments.helpers import room_with

    room, store, clock = room_with(tmp_path, SHIPPED.tournament("45-Player Sit & Go"))
    try:
        t = next(iter(room.tournaments.live.values()))
        hs = await seat_hotseat_tournament(room, t, ["ann", "bob"], seed=2)
        clients = hs.clients
        locals_ = {c.account_id for c in clients.values()}
        moved = []
        t.listeners.append(lambda records: moved.extend(r.player for r in records
                                                        if isinstance(r, Moved) and r.player in locals_))
        tables_played = set()
        app = HotSeatApp(hs, options=UIOptions(sound=False))
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(3000):
                await pilot.pause()
                if isinstance(app.screen, PassScreen):
                    assert app.screen.client is app.hotseat.actor()
                    await pilot.press("enter")
                    await pilot.pause()
                    me = app.revealed
                    table = app.hotseat.table_of(me)
                    # His own table and his own view: the widgets get no one else's cards.
                    assert isinstance(app.screen, TableScreen) and app.screen.table == table
                    assert app.screen.view.my_cards == me.view(table).my_cards != ()
                    tables_played.add((me.name, table))
                    lg = me.view(table).legal
                    await pilot.press("c" if lg.check else "f")
                    if len({n for n, _ in tables_played}) == 2 and moved and \
                            any(c.account_id in moved for c in clients.values()):
                        break
                    continue
                if not all(c.my_tables() for c in clients.values()):
                    raise AssertionError("a local player went out first: choose another seed")
                clock.advance(1.0)
            else:
                raise AssertionError(f"played at {tables_played}, moves {moved}")
        assert {n for n, _ in tables_played} == {"ann", "bob"} and len({tb for _, tb in tables_played}) >= 2
    finally:
        store.close()
