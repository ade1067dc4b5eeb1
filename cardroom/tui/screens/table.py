"""The table: seats around the felt, my cards with holds, what I may do, auto actions, the decision
clock and the chat. It reads its view from the device it is given (tui/device.py: who holds this
terminal) whenever the room says something changed, and sends intents through the device's client;
a refusal is shown, nothing else.

Two questions the table may put to me before a hand, shown on a prompt line above the actions (and
their keys in the footer and the action bar):
- Auto Blind off (`view.blind_prompt`): "Post the blind of $X?" Enter posts, s declines (sits me
  out); while asked, these keys mean that and nothing else. Esc is not an answer: it closes the
  chat box, and goes back to the lobby, as everywhere.
- Missed blinds (`view.missed_blinds`): `p` posts them as soon as he may (a missed big blind live
  plus the small blind dead, a missed small blind alone dead: `view.missed_posts`), `w` waits for
  the big blind instead. A new player in a game under way (`view.new_player`) has the same
  choice: post the big blind to be dealt in, or wait for it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Static

from cardroom.engine.variants import UnknownVariant, Variant, find_variant
from cardroom.room.api import RoomError, TableView
from cardroom.tui.device import Device
from cardroom.tui.dialogs.options import OptionsDialog
from cardroom.tui.navigation import OpenHelp, OpenHistory, OpenMoney
from cardroom.tui.options import UIOptions
from cardroom.tui.screens import table_keys
from cardroom.tui.screens.table_actions import HandActions, SeatActions
from cardroom.tui.render import amount_of
from cardroom.tui.screens.table_keys import AUTO_KEYS, asked_post_or_wait
from cardroom.tui.tournament_text import line_ticks, table_line
from cardroom.tui.widgets.bars import ActionBar, AutoBar, Chip
from cardroom.tui.widgets.card import HandCard
from cardroom.tui.widgets.chat import ChatInput, ChatLog, ChatPane
from cardroom.tui.widgets.countdown import Countdown
from cardroom.tui.widgets.felt import Felt
from cardroom.tui.widgets.hand import MyHand
from cardroom.tui.widgets.keys import KeyFooter

if TYPE_CHECKING:
    from textual import getters

    from cardroom.tui.shell import Shell


class TableScreen(HandActions, SeatActions, Screen):
    if TYPE_CHECKING:
        app = getters.app(Shell)          # the CardroomApp, as its screens see it (tui/shell.py)

    AUTO_FOCUS = None
    BINDINGS = table_keys.BINDINGS     # each key, what it does and when: table_keys.KEYS
    # Tall enough (40 rows) for the chat below the table: a wide one then spans the whole width
    # instead of keeping 80 columns and leaving a third of the rows empty (table.tcss).
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    def __init__(self, table: str, device: Device, options: UIOptions, *, buy_in: bool = False) -> None:
        super().__init__()
        self.table = table
        self.device = device             # who holds this terminal (tui/device.py)
        self.options = options           # the display options (the app's own, changed in place)
        self._buy_in_on_mount = buy_in   # joined from the lobby: the buy-in dialog opens with the table
        self.view: TableView = device.view(table)
        self.holds: frozenset[int] = frozenset()
        self._hold_key: object = None
        # Holds survive a switch to another table and back (multi-tabling).
        remembered = self.app.table_memory.get(table)
        if remembered is not None:
            self._hold_key, self.holds = remembered
        self._others: tuple[tuple[str, ...], tuple[str, ...], bool] | None = None
        self._seen_at = device.now()     # when self.view was read (the clock runs from it)
        self._my_turn = False
        self._message = self.view.message
        self._title: Text | None = None
        self._tournament_line: Text | None = None
        self._keys: tuple[object, ...] | None = None
        self._prompt: Text | None = None
        self.post_missed: bool | None = None    # my answer to the missed blinds (None: not yet)
        self._chat: tuple[ChatPane, ChatLog, ChatInput] | None = None   # (pane, log, input line), for share_key
        self.variant: Variant | None
        try:
            self.variant = find_variant(self.view.game)
        except UnknownVariant:
            self.variant = None

    # ------------------------------------------------------------------ layout
    def compose(self) -> ComposeResult:
        opts = self.options
        yield Static("", id="table-title", markup=False)
        yield Static("", id="table-tournament", markup=False)
        yield Static("", id="table-others", markup=False)
        with Horizontal(id="table-body"):
            with Vertical(id="table-main"):
                yield Felt(len(self.view.seats), opts, id="felt")
                with Horizontal(id="hand-row"):
                    yield MyHand(opts, id="my-hand")
                    yield Countdown(opts, id="countdown")
                yield Static("", id="table-prompt", markup=False)
                yield ActionBar(id="action-bar")
                yield AutoBar(AUTO_KEYS, id="auto-bar")
            yield ChatPane(id="chat")
        yield KeyFooter()

    async def on_mount(self) -> None:
        self.refresh_from_room()
        self.set_interval(1.0, self._tick)
        if self._buy_in_on_mount:
            # Pushed while this screen mounts, so keys typed ahead ("j100" Enter) wait for the
            # dialog instead of reaching the table (textual_adapter: keys-wait-for-their-screen).
            await self.action_buy_in(just_seated=True)

    def on_screen_resume(self) -> None:
        self.refresh_from_room()

    def on_unmount(self) -> None:
        self.app.table_memory[self.table] = (self._hold_key, self.holds)
        # A railbird who closes the table stops watching it: the lobby counts its railbirds, and
        # the table would go on waking this session at every change. A seated player keeps
        # watching (multi-tabling: the other tables say when they wait for him).
        client = self.client
        if not self.shared and not client.closed and self.table not in client.my_tables():
            self.app.send(client.unwatch(self.table))

    def _tick(self) -> None:
        # The bar of the decision clock and a tournament's clocks move between the table's own
        # ticks. Only the clocks: the view is not read again (every screen at every table ticks
        # each second, and re-reading and comparing the whole view cost ~3 ms a screen).
        if not self.is_current or self.app.following:
            return
        if self.app.hosting.busy and self.view.legal is None:
            return      # a busy server ticks only the clocks of the one deciding (others catch up)
        elapsed = self.device.now() - self._seen_at
        if line_ticks(self.view.tournament):
            self._show_tournament(elapsed)
        if self.view.acting_seat is not None:
            self._show_clock(elapsed)

    # ------------------------------------------------------------------ attributes down
    @property
    def client(self):
        """The RoomClient of whoever is at this terminal now: the session's own, or in hot-seat
        the local player who has taken the device (it changes hands between decisions)."""
        return self.device.client

    @property
    def shared(self) -> bool:
        """Several people share this terminal (hot-seat): no seat-taking, no lobby, nobody's
        own things between their turns."""
        return self.device.shared

    @property
    def is_draw_game(self) -> bool:
        return self.variant is not None and self.variant.kind == "draw"

    @property
    def legal(self):
        return self.view.legal

    def amount(self, n: int) -> str:
        """An amount at this table: money, or a tournament's chips."""
        return amount_of(self.view)(n)

    def my_seat_state(self):
        v = self.view
        if v.my_seat is None:
            return None
        return next((s for s in v.seats if s.number == v.my_seat), None)

    def refresh_from_room(self) -> None:
        try:
            view = self.device.view(self.table)
        except RoomError as e:
            self.notify(str(e), severity="error")
            return
        self.view = view
        self._seen_at = self.device.now()
        key = (view.hand_id, view.my_cards)
        if key != self._hold_key:
            self._hold_key = key
            self.holds = frozenset()
        self._show()
        my_turn = view.legal is not None
        if my_turn != self._my_turn:
            self._my_turn = my_turn
            if my_turn and self.options.sound:
                self.app.bell()
        if view.message and view.message != self._message:
            self.notify(view.message, title=self.table, markup=False)
        self._message = view.message
        others = self._show_others()
        # The footer rebuilds itself on refresh_bindings: only when what the keys do has changed.
        if not asked_post_or_wait(view):
            self.post_missed = None
        keys = (view.legal, view.my_seat, view.sitting_out, view.buy_in is None, len(view.my_cards),
                any(s.status == "empty" and not s.held_for for s in view.seats), bool(others),
                view.blind_prompt, view.missed_blinds, view.new_player)
        if keys != self._keys:
            self._keys = keys
            self.refresh_bindings()

    def share_key(self) -> str | None:
        """The table's name while this screen shows only what every railbird of the table sees
        (no seat, no dialog, the chat neither scrolled back nor typed in, nothing focused but the
        chat log, which draws the same focused or not: no :focus style), else None: see
        CardroomApp.share_key, which asks only the screen on top. Asked on every write and from
        other sessions' tasks: no `self.app`, no DOM queries.

        Focus is not part of the key: Textual moves it to the chat log by itself at some point
        after the screen opens, and with it in the key every group's leader left its group once
        that happened (400 hand-overs, each a whole-screen redraw, at 1,000 sessions)."""
        if self.view.my_seat is not None:
            return None
        if self._chat is None:
            self._chat = (self.query_one(ChatPane), self.query_one(ChatLog), self.query_one(ChatInput))
        pane, log, line = self._chat
        focused = self.focused
        if log.back or pane.dealer or line.value or (focused is not None and focused is not log):
            return None
        return self.table

    def other_tables(self) -> tuple[list[str], list[str]]:
        """(my other tables, those of them waiting for my decision), in the lobby's order."""
        mine = [t for t in self.app.my_tables() if t != self.table]
        if not mine:
            return [], []
        waiting = set(self.app.waiting_for_me())
        return mine, [t for t in mine if t in waiting]

    def _show_others(self) -> list[str]:
        """The multi-tabling line: shown only while I sit at another table too."""
        mine, waiting = self.other_tables()
        state = (tuple(mine), tuple(waiting), self.options.ascii)
        if state != self._others:
            self._others = state
            box = self.query_one("#table-others", Static)
            box.display = bool(mine)
            box.set_class(bool(waiting), "-waiting")
            star = "*" if self.options.ascii else "\u2605"
            if waiting:
                n = len(waiting)
                line = Text.assemble((f"{star} {n} other table{'s' if n > 1 else ''} waiting: ", "bold"),
                                     ", ".join(waiting), ("   ] next table", "dim"))
            elif mine:
                line = Text.assemble("Also seated at: ", ", ".join(mine), ("   ] next table", "dim"))
            else:
                line = Text("")
            box.update(line)
        return mine

    def _show(self) -> None:
        v = self.view
        # A tournament's stakes are its level's, in chips: on the tournament's line below.
        stakes = f"  {v.stakes}" if v.tournament is None else ""
        title = Text.assemble((v.name, "bold"), f"  {v.game}{stakes}",
                              (f"  hand #{v.hand_id}" if v.hand_id else "", "dim"))
        # My name only where I sit: a railbird's screen is then the same for every railbird of
        # the table, which lets the ssh bridge draw it once for all of them (ssh/mirror.py).
        who = self.device.who()
        if who and v.my_seat is not None:
            title.append(f"   {who}", "bold")
            title.append(f" (seat {v.my_seat})")
        if v.status != "open":
            title.append(f"  [{v.status}]", "bold red")
        if title != self._title:
            self._title = title
            self.query_one("#table-title", Static).update(title, layout=False)   # one fixed line
        self._show_tournament(0.0)
        self.query_one(Felt).show(v)
        me = self.my_seat_state()
        label = ""
        if v.my_cards:
            label = "You"
        elif me is not None and v.sitting_out:
            label = "Sitting out"
        holdable = self.is_draw_game and bool(v.my_cards) and v.phase in ("bet", "draw")
        self.query_one(MyHand).show(tuple(v.my_cards), self.holds if holdable else frozenset(), label, holdable)
        self._show_clock(0.0)
        self._show_prompt()
        items, note = table_keys.action_items(self)
        self.query_one(ActionBar).show(items, note)
        self.query_one(AutoBar).show(v.auto_action, v.my_seat is not None)
        self.query_one(ChatPane).show(v.chat)

    def _show_tournament(self, elapsed: float) -> None:
        """The tournament's line (level, clocks, players left, my rank), `elapsed` seconds after
        the view was read; none at a cash table."""
        t = self.view.tournament
        line = None if t is None else table_line(t, elapsed, self.app.size.width < 120)
        if line != self._tournament_line:
            box = self.query_one("#table-tournament", Static)
            if (line is None) != (self._tournament_line is None):
                box.display = line is not None
            self._tournament_line = line
            box.update(line if line is not None else "", layout=False)

    def _show_clock(self, elapsed: float) -> None:
        """The decision clock, `elapsed` seconds after the view was read."""
        v = self.view
        acting = next((s for s in v.seats if s.number == v.acting_seat), None)
        total = float(v.rules.action_seconds) if v.rules else 23.0
        left = v.seconds_left
        if left is not None and elapsed:
            left = max(0.0, left - elapsed)
        self.query_one(Countdown).show(acting.name if acting else None, left, v.countdown, total)

    def _show_prompt(self) -> None:
        text = table_keys.question(self.view, self.post_missed)
        if text != self._prompt:
            self._prompt = text
            box = self.query_one("#table-prompt", Static)
            box.display = text is not None
            box.update(text if text is not None else "")

    def discard_count(self) -> int:
        return sum(1 for i in range(len(self.view.my_cards)) if i not in self.holds)

    @property
    def seated_elsewhere(self) -> bool:
        """Seated at another table too, as the multi-tabling line last showed."""
        return bool(self._others and self._others[0])

    # ------------------------------------------------------------------ which keys work now
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        return table_keys.key_works(self, action, parameters)

    # ------------------------------------------------------------------ intents
    async def _do(self, fn, *args, **kw) -> bool:
        """Send one intent; a RoomError is shown and changes nothing. True when it went through."""
        try:
            await fn(*args, **kw)
        except RoomError as e:
            self.notify(str(e), title="Not done", severity="error", markup=False)
            return False
        finally:
            self.refresh_from_room()
        return True

    async def action_auto(self, auto: str) -> None:
        await self._do(self.client.set_auto, self.table, auto)

    def action_chat(self, dealer: bool = False) -> None:
        self.query_one(ChatPane).focus_input(dealer)

    async def action_history(self) -> None:
        if not self.device.private_ok():
            return
        await self.app.navigate(OpenHistory())

    async def action_help(self) -> None:
        await self.app.navigate(OpenHelp(self.view.rules, self.view.name))

    async def action_money(self) -> None:
        if not self.device.private_ok():
            return
        await self.app.navigate(OpenMoney())

    def action_lobby(self) -> None:
        """Back to the lobby; my seat here is kept (and the lobby marks this table as mine)."""
        if not self.shared:
            self.app.pop_screen()

    async def action_next_table(self) -> None:
        """Multi-tabling: the next of my tables, those waiting for my decision first."""
        if self.shared or self.app.screen is not self:
            return
        name = self.app.next_table(self.table)
        if name is None:
            self.notify("You are not seated at another table", severity="warning")
            return
        await self.app.open_table(name, replace=True)

    def action_options(self) -> None:
        v = self.view
        seated = v.my_seat is not None
        dialog = OptionsDialog(self.options, seated=seated, auto_blind=v.auto_blind,
                               post_blinds=(self.post_missed is not False) if v.missed_blinds else None)

        async def answer(values: dict | None) -> None:
            if values is None:
                return
            self.app.keep(self.options.change(values))
            self.restyle()
            if seated and values.get("auto_blind") is not None and values["auto_blind"] != v.auto_blind:
                await self._do(self.client.set_auto_blind, self.table, values["auto_blind"])
            if seated and "post_blinds" in values:
                if await self._do(self.client.post_or_wait, self.table, values["post_blinds"]):
                    self.post_missed = values["post_blinds"]
            if values.get("stake"):
                await self.action_buy_in()
        self.app.push_screen(dialog, answer)

    def restyle(self) -> None:
        self.query_one(Felt).restyle()
        self.query_one(MyHand).restyle()
        self.query_one(Countdown).restyle()
        self._show()

    # ------------------------------------------------------------------ messages up
    @on(HandCard.Clicked)
    def _card_clicked(self, event: HandCard.Clicked) -> None:
        self.action_hold(event.index)

    @on(Felt.SeatClicked)
    async def _seat_clicked(self, event: Felt.SeatClicked) -> None:
        state = next((s for s in self.view.seats if s.number == event.number), None)
        if state is not None and state.status == "empty" and self.view.my_seat is None \
                and not self.shared:
            await self.action_join(event.number)

    @on(Chip.Pressed)
    async def _chip(self, event: Chip.Pressed) -> None:
        await self.run_action(event.action)

    @on(ChatPane.Send)
    async def _send(self, event: ChatPane.Send) -> None:
        if not self.device.private_ok():
            return
        try:
            await self.client.chat(self.table, event.text, dealer=event.dealer)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
        self.refresh_from_room()
