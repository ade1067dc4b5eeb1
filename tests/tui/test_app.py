"""The app as a whole: layering, the lobby, the command palette, the bell, 80x24 usability."""

from __future__ import annotations

import ast
from pathlib import Path

import cardroom.tui
from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.amount import AmountDialog
from cardroom.tui.render import BadAmount, money, parse_amount
from cardroom.tui.screens.lobby import LobbyScreen

from tests.rooms import table_settings, wait_for
from .conftest import SIZE, alices_turn_three_handed, notified, open_table, others_until, screen_text

import pytest


def test_tui_imports_only_room_and_engine():
    root = Path(cardroom.tui.__file__).parent
    for path in root.rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for n in names:
                assert not n.startswith(("cardroom.store", "cardroom.ssh", "sqlite3", "asyncssh")), (path, n)


@pytest.mark.parametrize("text,cents", [("12", 1200), ("12.5", 1250), ("$12.50", 1250), ("0.25", 25)])
def test_amounts_people_mean(text, cents):
    assert parse_amount(text) == cents


def test_the_amount_box_reads_the_amount_inside_the_spaces_typed_around_it():
    """parse_amount reads an amount as config.toml and the admin console do (tests/test_money.py);
    the spaces around what was typed in the box are the box's."""
    assert AmountDialog("Bet", [], 100, 1, None).validate(" 0.25 ") == 25


@pytest.mark.parametrize("text", ["1_000", "-5", "+5", "1e3", "\u0661\u0662", "12.505", "", "$", "1,000", "nan"])
def test_amounts_people_did_not_mean(text):
    with pytest.raises(BadAmount):
        parse_amount(text)


def test_money():
    assert money(1250) == "$12.50" and money(100_000) == "$1,000" and money(-325) == "-$3.25"


async def test_lobby_lists_tables_and_joins_the_wait_list(world):
    w = world(table_settings("Full", seats=2), table_settings("Open"))
    w.seat("Full", ["alice", "bob"])
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        text = screen_text(app)
        for word in ("Game", "Stakes", "Seats", "Waiting", "Railbirds", "Avg pot", "Hands/h", "2/2"):
            assert word in text
        await pilot.press("w")
        await pilot.pause()
        assert "number 1 on the wait list" in notified(app)
        assert w.room.tables["Full"].summary().waiting == 1
        await pilot.press("j")                # the table is full: a clear refusal
        await pilot.pause()
        assert "wait list" in notified(app).splitlines()[-1]


async def test_command_palette_offers_the_table_actions(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    others_until(w, clients, clients[0])
    app = build_app(clients[0])
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_table(app, pilot)
        titles = [c.title for c in app.get_system_commands(screen)]
        assert "Fold" in titles and "Call" in titles and "Options" in titles
        assert "Check" not in titles        # not now: there is a bet to call
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"Fold")
        await wait_for(lambda: _palette_offers(app, "Fold"), what="the palette's Fold hit highlighted")
        await pilot.press("enter")
        await wait_for(lambda: "alice folds" in [c.text for c in clients[0].view("T").chat], what="alice's fold")
        assert "alice folds" in [c.text for c in clients[0].view("T").chat]


def _palette_offers(app, title: str) -> bool:
    """The command palette is up and its highlighted hit is `title`."""
    from textual.command import CommandList

    lists = app.screen.query(CommandList)
    if not lists:
        return False
    hits = lists.first()
    return hits.highlighted is not None and title in str(hits.get_option_at_index(hits.highlighted).prompt)


async def test_the_bell_rings_on_my_turn_only_when_sound_is_on(world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    for sound, rings in ((True, 1), (False, 0)):
        app = build_app(alice, options=UIOptions(sound=sound))
        count = []
        app.bell = lambda count=count: count.append(1)
        async with app.run_test(size=SIZE) as pilot:
            await open_table(app, pilot)
            others_until(w, clients, alice)
            await pilot.pause()
            assert len(count) == rings
        w.actor(clients).act("T", "fold")


async def test_usable_at_80x24_every_key_in_the_footer(world):
    w = world(table_settings(game="a5-draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    others_until(w, clients, clients[0], lambda v: v.legal.phase == "draw")
    app = build_app(clients[0])
    async with app.run_test(size=(80, 24)) as pilot:
        await open_table(app, pilot)
        text = screen_text(app)
        for piece in ("12345 Hold", "Draw", "f Fold", "r Bet", "space Tap", "f2 f3 f4 f5 f6 Auto",
                      "s Sit out", "l Leave", "t Chat", "h History", "? Help", "o Options",
                      "m My Money", "^p palette", "^q quit"):
            assert piece in text, piece
        assert "alice to act" in text and "You may draw up to 5" in text


async def test_a_name_that_looks_like_markup_is_shown_literally(world):
    w = world()
    clients = w.seat("T", ["[b]x[/b]", "bob"])
    app = build_app(clients[1])
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert "[b]x[/b]" in screen_text(app)


async def test_a_railbird_who_goes_back_to_the_lobby_is_no_longer_counted_at_the_table(world):
    """Seen over ssh: three players left a table for the lobby and it went on listing 3 railbirds
    (and waking their sessions at every change). A wait-lister in the lobby is no railbird either."""
    w = world(table_settings("Full", seats=2))
    w.seat("Full", ["alice", "bob"])
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")                      # watch
        await pilot.pause()
        assert w.room.tables["Full"].summary().railbirds == 1
        await pilot.press("escape")                     # back to the lobby
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert w.room.tables["Full"].summary().railbirds == 0
        assert erin.account_id not in w.room.tables["Full"].watchers
        await pilot.press("w")
        await pilot.pause()
        assert w.room.tables["Full"].summary().waiting == 1
        assert w.room.tables["Full"].summary().railbirds == 0


async def test_back_mid_hand_enter_goes_straight_to_the_table_waiting_for_me(world):
    """A dropped connection keeps the seat and the clock runs: the player who logs in again is told
    it is his turn, and Enter opens that table (over the lobby) instead of the table list."""
    from cardroom.tui.screens.table import TableScreen

    w = world()
    clients = w.seat("T", ["alice", "bob"])
    w.clock.advance(0.01)
    me = w.actor(clients)
    other = next(c for c in clients if c is not me)
    for client, waiting in ((me, True), (other, False)):
        app = build_app(client)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            said = "It is your turn at T: press Enter to go there."
            assert (said in screen_text(app)) is waiting
            await pilot.press("enter")
            await pilot.pause()
            if waiting:
                assert isinstance(app.screen, TableScreen) and app.screen.table == "T"
                await pilot.press("escape")
                await pilot.pause()
            assert isinstance(app.screen, LobbyScreen)


async def test_the_lobby_shows_seated_in_full_after_taking_a_seat(world):
    """Seen over ssh: after joining a table and going back to the lobby, the You column read
    "sea": a cell updated in place did not widen its column past the heading."""
    w = world(table_settings("Open"))
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        erin.join("Open")
        erin.buy_in("Open", 10_000)
        app.screen.refresh_from_room()
        await pilot.pause()
        row = next(line for line in screen_text(app).splitlines() if "Open" in line)
        assert "seated" in row, row


async def test_the_lobby_at_80_columns_shows_every_column_that_matters(world):
    """The shipped config.toml's tables at 80x24: the game column once took 33 characters for
    "Draw Lo (Ace-to-Five Single Draw)" and pushed Seats and Waiting off the screen; then the
    columns were cut at "Waiting Ra", losing the average pot and hands an hour."""
    from cardroom.config import load_config
    from cardroom.serve import table_settings as settings_of

    config = load_config(Path(cardroom.__file__).parent.parent / "config.toml")
    w = world(*[settings_of(config, t) for t in config.tables])
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert lines[1].split() == ["Table", "Game", "Stakes", "Seats", "Wait", "Avg", "pot", "H/hr"], lines[1]
        for t in config.tables:
            row = next(line for line in lines if t.name in line)
            assert f"0/{t.seats}" in row, row
            assert t.variant.short_name in row, row
            assert row.split()[-2:] == ["$0", "0"], row       # the average pot and hands an hour


def test_a_pasted_page_is_refused_as_an_amount_without_being_quoted_back_whole():
    with pytest.raises(BadAmount) as e:
        parse_amount("9" * 5000)
    assert len(str(e.value)) < 100


async def test_a_player_who_leaves_during_a_hand_is_not_counted_as_a_railbird(world):
    """Found by a play-tester: after leaving tables with l (mid-hand), every lobby went on listing
    the leavers as railbirds, and the lobby marked the table 'seated' until the hand ended."""
    w, clients = alices_turn_three_handed(world)
    alice = clients[0]
    app = build_app(alice)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        assert w.room.tables["T"].seat_of(alice.account_id) is not None
        await pilot.press("l")
        await pilot.pause()
        await pilot.press("enter")                      # "Leave now? Your hand will be folded."
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert w.room.tables["T"].summary().railbirds == 0
        assert alice.account_id not in w.room.tables["T"].watchers
        assert alice.my_tables() == []
        row = next(line for line in screen_text(app).splitlines() if " T " in line or line.strip().startswith("T "))
        assert "seated" not in row, row


async def test_home_and_end_in_the_lobby_go_to_the_first_and_last_table(world):
    """Found play-testing: End in the lobby slid the columns sideways (Textual's DataTable gives
    Home and End to horizontal scrolling) and j then joined the table the cursor was still on."""
    from cardroom.tui.widgets.picklist import PickList

    w = world(*[table_settings(f"T{i}") for i in range(5)])
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        table = app.screen.query_one(PickList)
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 4
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0
        await pilot.press("end", "j")
        await pilot.pause()
        assert "Buy in at T4" in screen_text(app)


async def test_cancelling_the_buy_in_after_joining_gives_the_seat_back(world):
    """Found by a play-tester: j then Esc in the buy-in dialog left the player seated with $0
    (the lobby said 'seated', the seat was taken) until he pressed b or l."""
    w = world(table_settings("Open"))
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("j")
        await pilot.pause()
        assert "Buy in at Open" in screen_text(app)
        assert w.room.tables["Open"].seat_of(erin.account_id) is not None
        await pilot.press("escape")
        await pilot.pause()
        assert w.room.tables["Open"].seat_of(erin.account_id) is None
        assert erin.my_tables() == [] and "seat given back" in notified(app)


async def test_the_narrow_lobby_marks_my_tables_and_says_when_a_table_is_not_open(world):
    """At 80 columns "You" is one mark and the status column is gone: a paused table says so after
    its name, and the lobby follows the terminal back to the full columns when it is widened."""
    w = world(table_settings("Open"), table_settings("Quiet"))
    erin = w.room.connect("erin")
    app = build_app(erin)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        erin.join("Open")
        erin.buy_in("Open", 10_000)
        w.room.tables["Quiet"].set_status("paused")
        app.screen.refresh_from_room()
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert next(line for line in lines if "Open" in line).split()[0] == "\u25cf"
        assert "Quiet (paused)" in next(line for line in lines if "Quiet" in line)
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert "Railbirds" in lines[1] and "Status" in lines[1], lines[1]
        assert "seated" in next(line for line in lines if "Open" in line)
        assert "paused" in next(line for line in lines if "Quiet" in line).split()


async def test_the_palette_has_no_dead_screenshot_and_one_quit(world):
    """Issue 22: over ssh Textual's "Screenshot" writes a file on the server, where the player
    can't reach it, and "Quit" was offered twice in the lobby (Textual's and the lobby's key)."""
    w = world()
    app = build_app(w.room.connect("erin"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert "Screenshot" not in titles and titles.count("Quit") == 1, titles
        assert "^q quit" in screen_text(app)


async def test_a_room_change_heard_while_the_table_screen_is_pushed_waits_for_its_mount(world):
    """Seen on a gateway (benchmarks ssh --topology scaled): a railbird's watch answered over the
    bus together with a change of the room; the app refreshed the TableScreen it had just pushed
    before the screen was composed, and the session crashed (NoMatches '#table-title')."""
    import asyncio

    from cardroom.room.client import LocalClient

    class RemoteLike(LocalClient):
        async def watch(self, table):
            view = await super().watch(table)
            await asyncio.sleep(0)            # the reply comes over the bus ...
            self.session.notify()            # ... with a change of the room
            return view

    w = world(table_settings("T", seats=6))
    w.seat("T", ["alice", "bob"])
    app = build_app(RemoteLike(w.room.connect("erin")))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("enter")                      # watch
        await pilot.pause()
        assert app.is_running
        assert "You are watching" in screen_text(app)
