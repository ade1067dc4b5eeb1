"""The tournament screens (issue 38, "What players get"): the lobby's tournaments, a tournament's
own lobby with Register / Unregister, its tables watched as a railbird, the tournament's line at
its tables (and the keys a tournament table does not offer), a move that takes the screen along,
and the dialog that says where a player finished. Real rooms on a fake clock, real apps via Pilot."""

from __future__ import annotations

import pytest

from cardroom.tui import UIOptions, build_app
from cardroom.tui.dialogs.finished import Finished
from cardroom.tui.screens.lobby import LobbyScreen
from cardroom.tui.screens.table import TableScreen
from cardroom.tui.screens.tournament import TournamentScreen

from .conftest import notified, screen_text
from .tournaments import Bots, TournamentWorld, done, sit_and_go

SMALL = (80, 24)


@pytest.fixture
def tworld(tmp_path):
    made = []

    def make(*specs, seed=7):
        w = TournamentWorld(tmp_path / f"room{len(made)}.sqlite3", *specs, seed=seed)
        made.append(w)
        return w

    yield make
    for w in made:
        w.close()


def app_for(client):
    return build_app(client, options=UIOptions(sound=False))


async def to_tournaments(pilot):
    """Welcome -> lobby -> the tournaments page."""
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("t")
    await pilot.pause()


async def to_tournament(pilot):
    """... and the first tournament's own lobby."""
    await to_tournaments(pilot)
    await pilot.press("enter")
    await pilot.pause()
    assert isinstance(pilot.app.screen, TournamentScreen), pilot.app.screen


async def test_the_lobby_turns_to_the_tournaments_and_back_with_t(tworld):
    w = tworld(sit_and_go(9, name="Hold'em Nine"), sit_and_go(6, 6, game="a5-draw", structure="fixed",
                                                               name="Draw Lo Six", buy_in=500, fee=50))
    w.register(w.players("alice", "bob"), w.number("Hold'em Nine"))
    app = app_for(w.player("erin"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Hold'em Nine" not in text and " t Tournaments" in text
        await pilot.press("t")
        await pilot.pause()
        text = screen_text(app)
        assert text.splitlines()[0].strip().startswith("Tournaments")
        assert "Hold'em Nine" in text and "2/9" in text and "$10+$1" in text and "when full" in text
        assert "Draw Lo Six" in text and "Limit Draw Lo" in text and "$5+$0.50" in text and "0/6" in text
        assert " t Tables" in text and "j Join" not in text
        await pilot.press("t")
        await pilot.pause()
        assert "Hold'em Nine" not in screen_text(app) and isinstance(app.screen, LobbyScreen)


async def test_register_and_unregister_in_the_tournament_lobby(tworld):
    w = tworld(sit_and_go(3))
    erin = w.player("erin")
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await to_tournament(pilot)
        assert "Not registered: r registers ($10 + $1)" in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        text = screen_text(app)
        assert "You are registered" in text and "erin" in text and "Pool $10, 1 entry" in text
        assert (await erin.my_money()).balance == 100_000 - 1_100
        assert "$11 left your balance" in notified(app)
        await pilot.press("u")
        await pilot.pause()
        assert "Not registered" in screen_text(app) and (await erin.my_money()).balance == 100_000
        assert "$11 is back in your balance" in notified(app)


async def test_a_refused_registration_says_why_and_changes_nothing(tworld):
    w = tworld(sit_and_go(3))
    erin = w.player("erin")
    w.store.debit(erin.account_id, 100_000 - 500, "test", "boss")
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await to_tournament(pilot)
        await pilot.press("r")
        await pilot.pause()
        assert "Test costs $10 + $1: you have $5" in notified(app)
        assert (await erin.my_money()).balance == 500 and "Not registered" in screen_text(app)


async def test_the_tournament_lobby_shows_others_registering_as_it_happens(tworld):
    w = tworld(sit_and_go(4))
    erin = w.player("erin")
    number = w.register([erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await to_tournament(pilot)
        assert "bob" not in screen_text(app)
        w.register(w.players("bob", "carol"), number)      # the room tells erin's app: no key pressed
        await pilot.pause()
        text = screen_text(app)
        assert "bob" in text and "carol" in text and "Pool $30, 3 entries" in text


async def test_unregistering_after_the_start_is_refused_with_the_rooms_words(tworld):
    w = tworld(sit_and_go(2))
    erin = w.player("erin")
    w.register([w.player("bob"), erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("t", "enter")        # the first row: the one under way
        await pilot.pause()
        assert isinstance(app.screen, TournamentScreen) and app.screen.number == 1
        text = screen_text(app)
        assert "You: " in text and "running, level 1 (10/20)" in text and "u Unregister" in text
        await pilot.press("u")
        await pilot.pause()
        assert "has started: nobody leaves with his chips" in notified(app)
        assert erin.my_tables()


async def test_a_railbird_watches_a_tournament_table_from_its_lobby(tworld):
    w = tworld(sit_and_go(4, 2))                  # two tables of two
    w.register(w.players("alice", "bob", "carol", "dave"))
    w.clock.advance(0.5)
    erin = w.player("erin")
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("t", "enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Table 1" in text and "alice" in text and "1,500" in text
        assert "Not registered: Test is full" in text
        await pilot.press("r")                        # the room's refusal, as every refusal
        await pilot.pause()
        assert "Test is full" in notified(app) and not erin.my_tables()
        await pilot.press("tab", "enter")            # the tables list, its first table
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.table == "Test #1 table 1"
        text = screen_text(app)
        assert "Level 1: 10/20" in text and "4/4 left" in text and "avg 1,500" in text
        assert "you " not in text.splitlines()[1]          # a railbird has no rank
        assert "j Join" not in text and "w Wait list" not in text and "Join" not in text
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TournamentScreen)
        # The players list: Enter on one at table 2 watches his table.
        row = next(i for i, p in enumerate(w.tournament(1).view(None).players) if p.table.endswith("table 2"))
        await pilot.press("shift+tab", *["down"] * row, "enter")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table == "Test #1 table 2"


async def test_at_a_tournament_table_no_buy_in_leave_join_or_wait_list_key(tworld):
    w = tworld(sit_and_go(2))
    erin = w.player("erin")
    w.register([w.player("bob"), erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.view.my_seat is not None
        for action in ("join", "leave", "wait_list", "buy_in"):
            assert screen.check_action(action, ()) is False, action
        text = screen_text(app)
        assert " l Leave" not in text and " b Buy in" not in text and " s Sit out" in text
        assert "Level 1: 10/20" in text and "you " in text.splitlines()[1]


async def test_the_table_opens_when_my_registration_starts_the_sit_and_go(tworld):
    w = tworld(sit_and_go(2))
    w.register([w.player("bob")])
    app = app_for(w.player("erin"))
    async with app.run_test(size=SMALL) as pilot:
        await to_tournament(pilot)
        await pilot.press("r")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.table == "Test #1 table 1"
        assert "your seat is Test #1 table 1, seat" in notified(app)


async def test_a_move_takes_my_screen_to_my_new_table(tworld):
    w = tworld(sit_and_go(9, 3), seed=11)
    erin = w.player("erin")
    number = w.register([*w.players(*[f"p{i}" for i in range(8)]), erin])
    t = w.tournament(number)
    bots = Bots(t, seed=2, spare=[erin.account_id])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        first = app.screen.table
        done(erin.sit_out(first))          # away: checked or folded for, dealt in all the same
        await pilot.press("question_mark")   # the table's rules open over it when the move comes
        await pilot.pause()
        assert not isinstance(app.screen, TableScreen)
        for _ in range(3_000):
            bots.seat_them()
            w.clock.advance(1.0)
            await pilot.pause()
            mine = erin.my_tables()
            if not mine or mine[0] != first:
                break
        assert mine and mine[0] != first, "erin was never moved"
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.table == mine[0]
        assert "you move to " + mine[0] in notified(app)
        assert screen.view.my_seat is not None


async def test_out_of_the_tournament_a_dialog_says_where_and_he_may_keep_watching(tworld):
    w = tworld(sit_and_go(2, starting_chips=100), seed=5)
    erin = w.player("erin")
    number = w.register([w.player("bob"), erin])
    bots = Bots(w.tournament(number), seed=1, spare=[erin.account_id])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        table = app.screen.table
        done(erin.sit_out(table))          # folds every hand: the blinds take his chips
        for _ in range(3_000):
            bots.seat_them()
            w.clock.advance(1.0)
            await pilot.pause()
            if isinstance(app.screen, Finished):
                break
        assert isinstance(app.screen, Finished), "no finish shown"
        text = screen_text(app)
        assert "Test #1" in text and "You finished 2nd of 2: no prize" in text
        await pilot.press("enter")           # keep watching: the table stays
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.screen.table == table
        assert app.screen.view.my_seat is None


async def test_out_of_the_tournament_l_goes_back_to_the_lobby(tworld):
    w = tworld(sit_and_go(2, starting_chips=100), seed=5)
    erin = w.player("erin")
    number = w.register([w.player("bob"), erin])
    bots = Bots(w.tournament(number), seed=1, spare=[erin.account_id])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        done(erin.sit_out(app.screen.table))
        for _ in range(3_000):
            bots.seat_them()
            w.clock.advance(1.0)
            await pilot.pause()
            if isinstance(app.screen, Finished):
                break
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_a_tournament_tables_amounts_are_chips_and_a_raise_is_typed_in_chips(tworld):
    w = tworld(sit_and_go(2))
    erin, bob = w.player("erin"), w.player("bob")
    w.register([bob, erin])
    table = erin.my_tables()[0]
    w.clock.advance(0.5)
    if erin.view(table).legal is None:      # heads-up, bob first: he calls, and it is erin's turn
        done(bob.act(table, "call"))
    assert erin.view(table).legal is not None
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        text = screen_text(app)
        assert "$" not in "\n".join(text.splitlines()[:16]), text      # no money on the felt or the bar
        assert "1,480" in text and "Pot 40" in text
        await pilot.press("r")
        await pilot.pause()
        assert "Raise to at least 40; the most you may raise to is 1,500." in screen_text(app)
        await pilot.press(*"300", "enter")        # over the default, selected: 300 chips
        await pilot.pause()
    assert [s.bet for s in erin.view(table).seats if s.name == "erin"] == [300]


async def test_hot_seat_shows_a_tournament_table_with_its_line(tworld):
    from cardroom.tui.hotseat import HotSeat, HotSeatApp
    w = tworld(sit_and_go(2))
    alice, bob = w.players("alice", "bob")
    w.register([alice, bob])
    table = alice.my_tables()[0]
    w.clock.advance(0.5)
    app = HotSeatApp(HotSeat({"alice": alice, "bob": bob}, table), options=UIOptions(sound=False))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        line = screen.query_one("#table-tournament").render().plain
        assert line.startswith("Lvl 1: 10/20") and "2/2 left" in line and "you " not in line   # nobody's rank
        await pilot.press("enter")                   # the pass screen: the player to act takes the device
        await pilot.pause()
        assert app.screen is screen
        text = screen_text(app)
        assert "Lvl 1: 10/20" in text and ("you 1st" in text or "you 2nd" in text)
        assert "1,480" in text or "1,490" in text
        assert " l Leave" not in text and "Join" not in text


async def test_the_lobbys_tournaments_page_shows_others_registering(tworld):
    w = tworld(sit_and_go(4))
    erin = w.player("erin")
    number = w.register([erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await to_tournaments(pilot)
        assert "1/4" in screen_text(app)
        w.register(w.players("bob", "carol"), number)
        await pilot.pause()
        assert "3/4" in screen_text(app)


async def test_the_tournament_line_counts_down_and_names_are_shown_as_typed(tworld):
    w = tworld(sit_and_go(2))
    erin = w.player("erin")
    w.register([w.player("[red]bob[/]"), erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        screen = app.screen
        assert "next 1:00" in screen_text(app).splitlines()[1]
        w.clock.advance(5.0)       # the room says nothing meanwhile: the screen's own tick counts
        screen._tick()
        await pilot.pause()
        assert "next 0:55" in screen_text(app).splitlines()[1]
        assert "[red]bob[/]" in screen_text(app)
        await pilot.press("escape")        # the lobby, its tournaments, this one's lobby
        await pilot.press("t", "enter")
        await pilot.pause()
        assert "[red]bob[/]" in screen_text(app)


async def test_the_tournament_lobby_redraws_only_what_changed(tworld):
    w = tworld(sit_and_go(4))
    erin = w.player("erin")
    number = w.register([erin])
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await to_tournament(pilot)
        screen = app.screen
        updated = []
        for part in ("title", "me", "payouts", "levels"):
            box = screen.query_one(f"#tournament-{part}")
            box.update = (lambda text, part=part, real=box.update: (updated.append(part), real(text)))
        rows = []
        players = screen.query_one("#tournament-players")
        players.set_rows = (lambda r, real=players.set_rows: (rows.append(len(r)), real(r)))
        w.register([w.player("bob")], number)
        await pilot.pause()
        assert sorted(updated) == ["me", "payouts"] and rows == [2]     # the levels and the title stay
        updated.clear()
        screen.refresh_from_room()        # nothing changed: nothing drawn
        assert updated == [] and rows == [2]


async def test_the_table_says_when_the_tournament_is_on_break(tworld):
    w = tworld(sit_and_go(3))
    players = w.players("bob", "carol", "erin")
    w.register(players)
    erin = players[-1]
    table = erin.my_tables()[0]
    for c in players:            # all away: checked or folded for at once, the blinds go round
        done(c.sit_out(table))
    app = app_for(erin)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("right_square_bracket")
        await pilot.pause()
        for _ in range(600):
            w.clock.advance(1.0)
            await pilot.pause()
            if erin.view(table).tournament.hold:      # on break, between hands
                break
        assert erin.view(table).tournament.on_break, "no break came"
        app.screen.refresh_from_room()
        text = screen_text(app)
        line = text.splitlines()[1]
        assert line.startswith(" On break, ") and "then 250/500 ante 50" in line, line    # level 5's
        await pilot.press("s")                    # back from away: the bar says why no hand is dealt
        await pilot.pause()
        assert not erin.view(table).sitting_out
        text = screen_text(app)
        assert "\nBreak" in text and "Waiting for the next hand" not in text, text


async def test_a_room_without_tournaments_says_so_on_the_page(world):
    w = world()
    app = app_for(w.room.connect("erin"))
    async with app.run_test(size=SMALL) as pilot:
        await to_tournaments(pilot)
        assert "No tournaments in this room now" in screen_text(app)
        await pilot.press("enter")            # nothing to open
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)


async def test_a_busy_host_ticks_no_railbirds_tournament_clock(tworld):
    from .test_hosting import RecordingHosting
    w = tworld(sit_and_go(2))
    w.register(w.players("alice", "bob"))
    hosting = RecordingHosting()
    app = build_app(w.player("erin"), options=UIOptions(sound=False), hosting=hosting)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("t", "enter")
        await pilot.pause()
        await pilot.press("tab", "enter")            # watch its table
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.view.tournament is not None
        shown: list = []
        screen._show_tournament = shown.append
        screen._tick()
        assert len(shown) == 1                       # on its own: the level's clock counts down
        hosting.busy = True
        screen._tick()
        assert len(shown) == 1                       # a busy host: a railbird's line waits for the table
