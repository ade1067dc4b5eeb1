"""The app and its factory.

    app = build_app(client, options=None, admin=None, hosting=None)

One app per session. The room tells the app "something changed" through `client.on_change`; the
callback only posts the app a `RoomChanged` message (coalesced: at most one waiting), and the app,
in its own task, re-reads its own view and updates only the widgets whose data changed. The app
never touches another app's widgets and keeps no state of the table beyond what it draws.

Multi-tabling: a session may sit at several tables. Escape leaves a table screen for the lobby and
keeps the seat (the room keeps notifying us); `]` (or ctrl+n) switches to the next of my tables,
those waiting for my decision first; the lobby and the table screen show which tables wait for me,
and with sound on the bell rings when another table starts waiting.

Hosting: the app asks whatever serves it (tui/hosting.py: the SSH server's pacing, painting at once,
shared railbird screens; nothing in hot-seat and tests) only through the `hosting` it is given.

Admin: the composition root may pass `admin`, a callable returning a Screen (the admin panel); the
app only pushes what it is given (F12 or ctrl+a), so the TUI never imports the admin or the store.
"""

from __future__ import annotations


from pathlib import Path
from typing import Callable, Hashable, Iterable

from textual.app import SystemCommand
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen

from cardroom.room.api import RoomError
from cardroom.room.client import as_client
from cardroom.textual_adapter import toasts
from cardroom.tui.device import Device, OwnTerminal
from cardroom.tui.following import Following
from cardroom.tui.hosting import Hosting, NoHosting
from cardroom.tui.navigation import (OpenExport, OpenHand, OpenHelp, OpenHistory, OpenKeys, OpenLobby,
                                     OpenMoney, OpenTable, OpenTournament)
from cardroom.tui.options import UIOptions
from cardroom.tui.shell import Shell
from cardroom.tui.screens.too_small import TooSmallScreen, too_small

STYLES = Path(__file__).parent / "styles"


class RoomChanged(Message):
    """Posted by the room's callback: something this session can see has changed."""


class CardroomApp(Shell):
    CSS_PATH = [STYLES / "app.tcss", STYLES / "table.tcss"]
    TITLE = "cardroom"
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False),
                Binding("f12", "admin", "Admin"),
                Binding("ctrl+a", "admin", "Admin", show=False)]

    def __init__(self, client, *, options: UIOptions | None = None,
                 admin: Callable[[], Screen] | None = None, hosting: Hosting | None = None,
                 device: Device | None = None) -> None:
        super().__init__()
        # Who holds this terminal (tui/device.py), built once and given to the screens: a player's
        # own terminal unless the caller (hot-seat) gives another. Every call of its client that
        # asks the room is awaited: in this process it is done at once, through a gateway it is a
        # round trip on the bus (the screens cannot tell which).
        self.device: Device = device if device is not None else OwnTerminal(as_client(client))
        self.options = options or UIOptions()
        self.admin = admin
        self._admin_screen: Screen | None = None
        self._waiting: frozenset = frozenset()     # tables waiting for my decision, last seen
        self.table_memory: dict = {}               # table -> (hand key, holds) kept across switches
        self._pending = False
        self.hosting: Hosting = hosting if hosting is not None else NoHosting()   # tui/hosting.py
        self._last_page = self.client.pages[-1] if self.client.pages else None
        self._session_ending = False
        self._kept_theme = ""         # the theme kept for this player (or the default)
        self.follower = Following(self)   # a tournament player's screen follows his seat

    @property
    def client(self):
        """The RoomClient of whoever holds this terminal now (the device's)."""
        return self.device.client

    # ------------------------------------------------------------------ what the hosting asks
    @property
    def following(self) -> bool:
        """Another session's app draws this screen: ours need not re-read the room or tick."""
        return self.hosting.drawn_elsewhere(self)

    def share_key(self) -> Hashable | None:
        """Equal for two sessions exactly when their screens would be drawn the same: the table
        screen of a railbird (sitting nowhere, no page or toast pending) at the same size, theme
        and options; None when this screen shows anything of this session's own."""
        if self.client.closed or self._session_ending or toasts(self):
            return None
        screen_key = getattr(self.screen, "share_key", None)
        key = screen_key() if screen_key is not None else None
        if key is None:
            return None
        pages = self.client.pages
        if pages and pages[-1] is not self._last_page:
            return None
        if self.my_tables():
            return None
        o = self.options
        return (key, self.size, self.theme, self.no_color, o.four_colour, o.letters, o.ascii,
                self.admin is not None)

    def redraw_all(self) -> None:
        """This app's screen was drawn by another app until now: read the room again and draw
        every cell (the terminal shows the other app's drawing)."""
        self._wake()
        self.screen.refresh()

    # ------------------------------------------------------------------ screens
    def get_default_screen(self) -> Screen:
        return self._fit(super().get_default_screen())

    def push_screen(self, screen, *args, **kwargs):
        return super().push_screen(self._fit(screen), *args, **kwargs)

    def switch_screen(self, screen):
        return super().switch_screen(self._fit(screen))

    def _fit(self, screen):
        """A new screen starts with the breakpoint classes of the terminal's size (its own
        breakpoints, or the app's), which Textual would give it at its first resize: that resize
        then changes no class, and the screen is not styled again from top to bottom (a tenth of
        a login's CPU, three screens a login). The same rule as Textual's: per direction, the
        class of the largest breakpoint the size reaches."""
        if isinstance(screen, Screen) and not screen.is_attached:
            classes: dict[str, bool] = {}
            for own, app, size in ((screen.HORIZONTAL_BREAKPOINTS, self.HORIZONTAL_BREAKPOINTS, self.size.width),
                                   (screen.VERTICAL_BREAKPOINTS, self.VERTICAL_BREAKPOINTS, self.size.height)):
                points = (app if own is None else own) or []
                fits = max(((at, name) for at, name in points if size >= at), default=None)
                classes.update({name: (at, name) == fits for at, name in points})
            if classes:
                screen.update_classes(classes, update=False)
        return screen

    # ------------------------------------------------------------------ the room's callback
    def _room_changed(self) -> None:
        """Called by the room (on this loop, possibly inside our own intent): never touch widgets."""
        if not self._pending:
            self.hosting.room_changed(self, self._wake)    # the hosting says when

    def _wake(self) -> None:
        if not self._pending:
            self._pending = True
            self.post_message(RoomChanged())

    def on_resize(self, event) -> None:
        if len(self.screen_stack) > 1:     # the first resize comes before on_mount's screens
            self._check_size(event.size)   # (self.size is the old one until Textual's own handler)

    def _check_size(self, size) -> None:
        """Below the smallest size the screens are laid out for, say so instead of drawing them."""
        showing = isinstance(self.screen, TooSmallScreen)
        if too_small(size) and not showing:
            self.push_screen(TooSmallScreen())
        elif not too_small(size) and showing:
            self.pop_screen()
            self._wake()        # what changed meanwhile, and a hot-seat pass that is due

    async def on_mount(self) -> None:
        await self._load_kept()
        await self._start()
        self._check_size(self.size)

    async def _start(self) -> None:
        """Listen to the room and show the first screen."""
        from cardroom.tui.screens.welcome import WelcomeScreen
        self.client.on_change(self._room_changed)
        self.follower.start()
        self.push_screen(WelcomeScreen(self.client))

    async def on_room_changed(self, message: RoomChanged) -> None:
        self._pending = False
        self._show_pages()
        if self._session_ended():
            return
        if isinstance(self.screen, TooSmallScreen):
            return      # the screens under it catch up when the window is big enough again
        await self._room_checks()
        if not self.screen.is_mounted:
            return      # a screen still being pushed (a reply over the bus came first) reads the room at its mount
        refresh = getattr(self.screen, "refresh_from_room", None)
        if refresh is not None:
            if (shown := refresh()) is not None:     # a screen that asks the room first
                await shown
            # Hosted over ssh: drawn now, in this turn of the loop, rather than four turns later
            # together with every other screen woken meanwhile (one long turn for all).
            self.hosting.paint_now(self)

    def _session_ended(self) -> bool:
        if self.client.closed and not self._session_ending:
            # Taken over by a newer login, or banned: the session ends (the page said why).
            self._session_ending = True
            self.set_timer(1.5, self.exit)
            return True
        return False

    async def _room_checks(self) -> None:
        """What the app itself does when the room changed, before the screen redraws."""
        self._check_waiting()
        await self.follower.check()

    def _show_pages(self) -> None:
        pages = self.client.pages
        if not pages or pages[-1] is self._last_page:
            return
        start = 0
        for i in range(len(pages) - 1, -1, -1):
            if pages[i] is self._last_page:
                start = i + 1
                break
        for text in pages[start:]:
            self.notify(text, title="Page", timeout=8, markup=False)
        self._last_page = pages[-1]

    # ------------------------------------------------------------------ multi-tabling
    def my_tables(self) -> list[str]:
        return self._player_tables(lambda: self.client.my_tables())

    def waiting_for_me(self) -> list[str]:
        return self._player_tables(lambda: self.client.waiting_for_me())

    def _player_tables(self, ask) -> list[str]:
        """Table names the room keeps for this player: none when the room can't say."""
        try:
            return list(ask())
        except RoomError:
            return []

    def current_table(self) -> str | None:
        """The table of the topmost table screen (a dialog may be open over it)."""
        from cardroom.tui.screens.table import TableScreen
        for screen in reversed(self.screen_stack):
            if isinstance(screen, TableScreen):
                return screen.table
        return None

    def next_table(self, current: str | None = None) -> str | None:
        """The next of my tables after `current` (in the lobby's order, wrapping round): the
        first one waiting for my decision, else simply the next one. None: no other table."""
        mine = self.my_tables()
        if current in mine:
            i = mine.index(current)
            order = mine[i + 1:] + mine[:i]
        else:
            order = mine
        waiting = set(self.waiting_for_me())
        for name in order:
            if name in waiting:
                return name
        return order[0] if order else None

    async def open_table(self, name: str, *, replace: bool = False):
        """Watch `name` and show it: pushed over the lobby, or in place of the current table."""
        from cardroom.tui.screens.table import TableScreen
        try:
            await self.client.watch(name)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return None
        screen = TableScreen(name, self.device, self.options)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)
        return screen

    # Navigation: screens say where they want to go (tui/navigation.py); only the app builds screens.
    async def navigate(self, message: Message) -> None:
        """Show where a screen asked to go, at once rather than by the message queue: keys typed
        ahead in the same packet (a join and its buy-in amount) must reach the new screen."""
        shown = getattr(self, message.handler_name)(message)
        if shown is not None:
            await shown

    async def on_open_lobby(self, message: OpenLobby) -> None:
        from cardroom.tui.screens.lobby import LobbyScreen
        self.switch_screen(LobbyScreen(self.client, self.options))
        if message.then_table is not None:
            await self.open_table(message.then_table)

    async def back_to_lobby(self) -> None:
        """Close the screens over the lobby (or open it, if it was never shown)."""
        from cardroom.tui.screens.lobby import LobbyScreen
        if not any(isinstance(s, LobbyScreen) for s in self.screen_stack):
            await self.navigate(OpenLobby())
            return
        while not isinstance(self.screen, LobbyScreen):
            self.pop_screen()

    def on_open_table(self, message: OpenTable) -> None:
        from cardroom.tui.screens.table import TableScreen
        self.push_screen(TableScreen(message.name, self.device, self.options, buy_in=message.buy_in))

    def on_open_tournament(self, message: OpenTournament) -> None:
        from cardroom.tui.screens.tournament import TournamentScreen
        self.push_screen(TournamentScreen(message.number, self.client))

    def on_open_money(self, message: OpenMoney) -> None:
        from cardroom.tui.screens.money import MoneyScreen
        self.push_screen(MoneyScreen(self.client, shared=self.device.shared))

    def on_open_keys(self, message: OpenKeys) -> None:
        from cardroom.tui.screens.keys import KeysScreen
        self.push_screen(KeysScreen(self.client))

    def on_open_history(self, message: OpenHistory) -> None:
        from cardroom.tui.screens.history import HistoryScreen
        self.push_screen(HistoryScreen(self.client))

    def on_open_hand(self, message: OpenHand) -> None:
        from cardroom.tui.screens.history import HandScreen
        self.push_screen(HandScreen(message.hand, message.variant))

    def on_open_export(self, message: OpenExport) -> None:
        from cardroom.tui.screens.history import ExportScreen
        self.push_screen(ExportScreen(message.hand))

    def on_open_help(self, message: OpenHelp) -> None:
        from cardroom.tui.screens.help import HelpScreen
        self.push_screen(HelpScreen(message.rules, message.table))

    def _check_waiting(self) -> None:
        """With sound on, ring when a table other than the one on screen starts waiting for me."""
        if self.client.closed:
            return
        now = frozenset(self.waiting_for_me())
        new = now - self._waiting - {self.current_table()}
        self._waiting = now
        if new and self.options.sound:
            self.bell()

    # ------------------------------------------------------------------ kept across logins
    def _keeper(self):
        """The client whose preferences this screen shows: the session's own."""
        return self.client

    async def _load_kept(self) -> None:
        """The options and theme the player kept: they win over the session's defaults."""
        keeper = self._keeper()
        try:
            kept = await keeper.preferences() if keeper is not None else {}
        except RoomError as e:      # the records are away: the session's defaults, and say so
            self.notify(f"Your kept options could not be read: {e}", severity="warning", markup=False)
            kept = {}
        self.options.apply_kept(kept)
        theme = kept.get("theme")
        if theme in self.available_themes:
            self.theme = theme
        self._kept_theme = self.theme
        self.theme_changed_signal.subscribe(self, self._theme_changed)

    def _theme_changed(self, theme) -> None:
        if theme.name != self._kept_theme:       # a theme chosen in the palette: kept
            self._kept_theme = theme.name
            self.keep({"theme": theme.name})

    def keep(self, values: dict[str, str]) -> None:
        """Keep these preferences for the player's next logins (nothing in a shared hot-seat)."""
        keeper = self._keeper()
        if keeper is None or not values:
            return
        self.send(keeper.save_preferences(values))

    def send(self, call) -> None:
        """An intent nobody waits on (a preference kept, a table no longer watched), in the
        background: a refusal is shown, and no screen waits on the answer."""
        async def go() -> None:
            try:
                await call
            except RoomError as e:
                self.notify(str(e), severity="warning", markup=False)
        self.run_worker(go(), group="send", exit_on_error=False)

    # ------------------------------------------------------------------ admin
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "admin":
            return self.admin is not None
        return True

    def action_admin(self) -> None:
        if self.admin is None:
            return
        if self._admin_screen is not None and self._admin_screen in self.screen_stack:
            return
        try:
            screen = self.admin()
        except Exception as e:     # the panel could not be made: say so, keep the session
            self.notify(f"The admin panel is not available: {e}", severity="error", markup=False)
            return
        self._admin_screen = screen
        self.push_screen(screen)

    # ------------------------------------------------------------------ command palette
    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        for command in super().get_system_commands(screen):
            # Textual's screenshot is saved on the server, where a player over ssh can't reach it.
            if command.title != "Screenshot":
                yield command
        for binding in getattr(screen, "BINDINGS", []):
            if isinstance(binding, Binding) and binding.description and binding.show:
                action = binding.action
                if action in ("quit", "app.quit"):       # Textual's own "Quit" is listed already
                    continue
                name = action.split("(")[0]
                if screen.check_action(name, _params(action)) is False:
                    continue
                yield SystemCommand(f"{binding.description}", f"key: {binding.key}",
                                    lambda a=action, s=screen: s.run_action(a))


def _params(action: str) -> tuple:
    if "(" not in action:
        return ()
    inner = action[action.index("(") + 1:-1]
    try:
        import ast
        value = ast.literal_eval(inner + ",")
        return tuple(value)
    except Exception:
        return ()


def build_app(client, *, options: UIOptions | None = None,
              admin: Callable[[], Screen] | None = None, hosting: Hosting | None = None) -> CardroomApp:
    """The one way to make the app (SSH sessions, hot-seat and tests alike).

    client: the session's RoomClient. (Hot-seat play is tui/hotseat.py's HotSeatApp.)
    options: display preferences (four-colour deck, suit letters, ASCII, sound).
    admin: for admin accounts only, a callable returning the admin panel (a Screen); F12 or
        ctrl+a pushes it. The composition root decides who gets it; None: no admin key at all.
    hosting: what serves the app (tui/hosting.py); None: NoHosting, the app on its own.
    """
    if client is None:
        raise RoomError("a session needs a client")
    if admin is not None and not callable(admin):
        raise TypeError("admin must be a callable returning a Screen")
    return CardroomApp(client, options=options, admin=admin, hosting=hosting)
