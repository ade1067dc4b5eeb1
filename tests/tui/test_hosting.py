"""The app and its host (cardroom/tui/hosting.py): an app on its own repaints at once; a hosted
app asks its host when to repaint, has its screen painted after re-reading the room and after
its player's own action, and stops re-reading the room while another app draws its screen."""

from __future__ import annotations

from cardroom.tui.app import build_app
from cardroom.tui.hosting import NoHosting
from cardroom.tui.screens.table import TableScreen

from tests.rooms import table_settings
from .conftest import SIZE, alices_turn_three_handed, open_table


class RecordingHosting:
    """A host that wakes nobody by itself and writes down what the app asks of it."""

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.wakes: list = []
        self.elsewhere = False
        self.busy = False

    def room_changed(self, app, wake) -> None:
        self.asked.append("room_changed")
        self.wakes.append(wake)

    def paint_now(self, app) -> None:
        self.asked.append("paint")

    def drawn_elsewhere(self, app) -> bool:
        return self.elsewhere


async def test_an_app_on_its_own_repaints_at_once(world):
    w = world(table_settings())
    clients = w.seat("T", ["alice", "bob"])
    app = build_app(clients[0])
    assert isinstance(app.hosting, NoHosting)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.pause()
        app._room_changed()
        assert app._pending                             # woken within the call
        await pilot.pause()
        assert not app._pending


async def test_a_hosted_app_repaints_when_its_host_says_and_is_painted_after_rereading(world):
    w = world(table_settings())
    clients = w.seat("T", ["alice", "bob"])
    hosting = RecordingHosting()
    app = build_app(clients[0], hosting=hosting)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.pause()
        order: list[str] = []
        screen = app.screen
        reread = screen.refresh_from_room
        screen.refresh_from_room = lambda: (order.append("reread"), reread())[1]
        hosting.asked.clear()
        hosting.wakes.clear()
        app._room_changed()
        app._room_changed()
        assert hosting.asked == ["room_changed", "room_changed"] and not app._pending
        await pilot.pause()
        assert order == []                              # not yet: the host decides when
        hosting.wakes[0]()
        hosting.wakes[1]()                              # woken twice before it ran: one repaint
        await pilot.pause()
        assert order == ["reread"] and hosting.asked[-1] == "paint"
        app._room_changed()                             # asked again once it has repainted
        assert hosting.asked[-1] == "room_changed"


async def test_a_players_own_action_asks_the_host_to_paint_it_at_once(world):
    w, clients = alices_turn_three_handed(world)
    hosting = RecordingHosting()
    app = build_app(clients[0], hosting=hosting)
    async with app.run_test(size=SIZE) as pilot:
        await open_table(app, pilot)
        await pilot.pause()
        assert app.screen.legal is not None
        hosting.asked.clear()
        await pilot.press("c")                          # check or call
        assert clients[0].view("T").legal is None       # acted (the room said so, inside the act) ...
        assert "paint" in hosting.asked                 # ... and painted: nobody was woken to repaint


async def test_an_app_drawn_elsewhere_says_it_follows_and_ticks_no_clock(world):
    w, clients = alices_turn_three_handed(world)
    hosting = RecordingHosting()
    app = build_app(w.room.connect("rail"), hosting=hosting)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("enter", "enter")             # welcome -> lobby -> watch T
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, TableScreen) and screen.view.acting_seat is not None
        shown: list = []
        screen._show_clock = shown.append
        screen._tick()
        assert len(shown) == 1                          # on its own: the clock moves
        hosting.busy = True
        screen._tick()
        assert len(shown) == 1                          # a busy host: a railbird's tick is left out
        hosting.busy = False
        hosting.elsewhere = True
        assert app.following
        screen._tick()
        assert len(shown) == 1                          # drawn by another app: nothing to tick
