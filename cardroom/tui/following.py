"""A tournament player's screen follows him (issue 38, "Moves" and "Out").

The room seats a tournament's players and moves them (balancing, a table broken); his sessions then
watch the new table and he is paged where he goes. The app asks `Following.check()` each time the
room says something changed, before the screen redraws:

- a tournament table newly among my tables: the table screen of the table of that tournament I
  was moved from gives way to the new table's, with whatever was open over it; on the lobby or the
  tournament's lobby (the tournament has just started), it opens over them; anywhere else (my
  history, a cash table) the page says where and `]` goes there;
- my place decided (the room pages it once the prize is in my balance): a dialog that stays until
  answered says "You finished 7th of 45 and won $1.20" (or "no prize"); Enter keeps watching, `l`
  goes back to the lobby.

Each of these comes with a page (the seat, the move, the finish), so nothing is read unless a page
came: the changes of a hand cost one comparison. Then my tables are compared with those of the last
page, the tables new since are read once each (a view), and the tournaments I play in once each."""

from __future__ import annotations

from cardroom.room.api import RoomError


class Following:
    def __init__(self, app) -> None:
        self.app = app
        self.seen: frozenset = frozenset()   # my tables at the last page
        self.numbers: dict[str, int] = {}    # table -> its tournament's number (tournament tables only)
        self.playing: set[int] = set()       # tournaments I have had a seat in, my place not yet told
        self.told: set[tuple[int, int]] = set()   # (tournament, entry) whose finish was shown
        self.last_page = None

    def start(self) -> None:
        """At login: the tables I sit at already are not news (the lobby marks them)."""
        self.seen = frozenset(self.app.my_tables())
        for name in self.seen:
            self._number(name)
        self.last_page = self.app.client.pages[-1] if self.app.client.pages else None

    async def check(self) -> None:
        pages = self.app.client.pages
        if not pages or pages[-1] is self.last_page:
            return
        self.last_page = pages[-1]
        mine = frozenset(self.app.my_tables())
        new, gone = mine - self.seen, self.seen - mine
        self.seen = mine
        arrived = [(name, number) for name in sorted(new) if (number := self._number(name)) is not None]
        if arrived:
            table, number = arrived[0]
            await self._show(table, {name for name in gone if self.numbers.get(name) == number})
        self._check_places()

    def _number(self, table: str) -> int | None:
        """Table `table`'s tournament (None: a cash table), read once per table."""
        if table not in self.numbers:
            try:
                line = self.app.client.view(table).tournament
            except RoomError:
                return None
            if line is None:
                return None
            self.numbers[table] = line.number
        number = self.numbers[table]
        self.playing.add(number)
        return number

    async def _show(self, table: str, left: set) -> None:
        """Show `table`, where I now sit; `left`: the tables of its tournament I no longer sit at."""
        from cardroom.tui.screens.lobby import LobbyScreen
        from cardroom.tui.screens.table import TableScreen
        from cardroom.tui.screens.tournament import TournamentScreen
        stack = self.app.screen_stack
        old = next((i for i, s in enumerate(stack) if isinstance(s, TableScreen) and s.table in left), None)
        if old is not None:
            # What was open over the table I left (a raise prompt, the rules) was about that table.
            while len(self.app.screen_stack) > old + 1:
                self.app.pop_screen()
            await self.app.open_table(table, replace=True)
        elif isinstance(self.app.screen, (LobbyScreen, TournamentScreen)):
            await self.app.open_table(table)

    def _check_places(self) -> None:
        from cardroom.tui.dialogs.finished import Finished
        from cardroom.tui.tournament_text import finish_words
        for number in sorted(self.playing):
            try:
                view = self.app.client.tournament(number)
            except RoomError:
                self.playing.discard(number)
                continue
            me = view.me
            if me is None or me.place is None or (number, me.entry) in self.told:
                continue
            self.told.add((number, me.entry))
            self.playing.discard(number)      # a re-entry's seat brings it back
            words = self._paged(view.summary.name) or finish_words(me.place, view.summary.entries, me.prize)
            # The toasts so far (registered, seated, the page of this very finish) would cover
            # the dialog's keys at 80x24: the dialog says what matters now.
            self.app.clear_notifications()
            self.app.push_screen(Finished(f"{view.summary.name} #{number}", words), self._answer)

    def _paged(self, name: str) -> str | None:
        """The room's own words of my finish, from its page ("NAME: you finished 3rd of 3 and won
        $4.50 (sharing the prizes of places 2nd to 3rd)"): they say what a share is; None if the
        page is not among the last few (the dialog then says it from the tournament's view)."""
        prefix = f"{name}: you finished "
        for page in reversed(self.app.client.pages[-5:]):
            if page.startswith(prefix):
                return "You finished " + page[len(prefix):]
        return None

    async def _answer(self, where: str | None) -> None:
        if where == "lobby":
            await self.app.back_to_lobby()
