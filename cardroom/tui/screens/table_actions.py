"""The table screen's actions (mixins of TableScreen): `HandActions` play a hand (the betting and
draw keys, a dimmed betting key's answer, the answers to the blind questions); `SeatActions` take,
stake and leave a seat. They send intents through the screen's `_do` and show what follows with
its `_show`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Callable

from cardroom.room.api import RoomError
from cardroom.textual_adapter import toasts
from cardroom.tui.dialogs.amount import buy_in_dialog, wager_dialog
from cardroom.tui.dialogs.confirm import Confirm
from cardroom.tui.render import amount_of, money
from cardroom.tui.screens.table_keys import VERBS, asked_post_or_wait

if TYPE_CHECKING:
    from textual import getters
    from textual.screen import Screen

    from cardroom.engine.legality import Legal
    from cardroom.room.api import SeatState, TableView
    from cardroom.room.client import RoomClient
    from cardroom.tui.device import Device
    from cardroom.tui.shell import Shell

    class TableParts(Screen[Any]):
        """What the actions use of the table screen (table.py's TableScreen has each), for type
        checkers: at run time the mixins' base is `object`."""

        app = getters.app(Shell)
        table: str
        device: Device
        view: TableView
        holds: frozenset[int]
        post_missed: bool | None

        @property
        def client(self) -> RoomClient: ...
        @property
        def shared(self) -> bool: ...
        @property
        def is_draw_game(self) -> bool: ...
        @property
        def legal(self) -> Legal | None: ...     # the view's: the engine's Legal when I decide
        def my_seat_state(self) -> SeatState | None: ...
        def _show(self) -> None: ...
        async def _do(self, fn: Callable[..., Awaitable[Any]], *args: Any, **kw: Any) -> bool: ...
        async def _act(self, kind: str, amount: int = 0, discards: Any = (), decision: str | None = None) -> bool: ...
        async def action_buy_in(self, just_seated: bool = False) -> None: ...
else:
    TableParts = object


class HandActions(TableParts):
    async def _act(self, kind: str, amount: int = 0, discards=(), decision: str | None = None) -> bool:
        """Send my decision, naming the one it answers: the view's now, or the one a dialog was
        opened on (`decision`). A key meant for a decision that has passed (the screen had not
        yet drawn the next) is then refused by the table instead of answering the next one."""
        if decision is None:
            decision = self.view.decision
        ok = await self._do(self.client.act, self.table, kind, amount, discards, decision)
        if ok:
            await self.device.acted()
        self.app.hosting.paint_now(self.app)   # my own action first, not after everyone's repaints
        return ok

    def action_hold(self, i: int) -> None:
        if not (self.is_draw_game and i < len(self.view.my_cards)):
            return
        self.holds = self.holds ^ {i}
        self._show()

    async def action_draw(self) -> None:
        lg = self.legal
        if lg is None or lg.phase != "draw":
            self.notify("It is not your draw", severity="warning")
            return
        discards = tuple(c for i, c in enumerate(self.view.my_cards) if i not in self.holds)
        if len(discards) > lg.max_draw:
            self.notify(f"You may draw at most {lg.max_draw}: hold {len(discards) - lg.max_draw} more",
                        severity="error")
            return
        if not discards:
            decision = self.view.decision

            async def answer(yes: bool | None) -> None:
                if yes:
                    await self._act("stand pat", decision=decision)
            self.app.push_screen(Confirm("Hold all your cards and stand pat?", "Stand pat"), answer)
            return
        await self._act("draw", discards=discards)

    async def action_refused(self, kind: str) -> None:
        """A betting key pressed while its action is dimmed. The pages' buttons are greyed out,
        which a key cannot be, so it says why instead of doing nothing: out of turn the screen
        says so (and nothing is sent, so the key never acts later); on one's own turn the intent
        goes to the room, which refuses it with the rule (a stud bring-in cannot fold, the
        betting is capped, the big blind must be raised) and changes nothing."""
        v = self.view
        if v.legal is not None:
            await self._act(kind)
            return
        why = ("Not now: wait for your turn" if self.shared else   # a redacted view
               "You are watching this table: press j to take a seat" if v.my_seat is None else
               "You are not in this hand" if not v.my_cards else "It is not your turn")
        # Keys pressed again while waiting add no second copy of a toast still on screen.
        if not any(n.message == why for n in toasts(self.app)):
            self.notify(why, severity="warning")

    async def action_fold(self) -> None:
        await self._act("fold")

    async def action_check(self) -> None:
        await self._act("check")

    async def action_call(self) -> None:
        await self._act("call")

    async def action_bring_in(self) -> None:
        await self._act("bring-in")

    async def action_tap(self) -> None:
        """Tapping the table (seed 002): a check in a betting round, pat at the draw."""
        lg = self.legal
        if lg is None:
            return
        if lg.phase == "draw":
            await self._act("stand pat")
        else:
            # Facing a bet the room refuses the check and says what is owed (the screen's own
            # message read "$0 to call" where the must-raise house rule allows no call).
            await self._act("check")

    async def action_wager(self, kind: str = "bet") -> None:
        lg = self.legal
        if lg is None or not lg.min_to:
            return
        if kind == "complete" and lg.bring_in and lg.min_to == lg.max_to:
            self._confirm_wager("complete", lg.min_to)
            return
        if lg.min_to == lg.max_to:
            self._confirm_wager(kind, lg.min_to)
            return
        me = self.my_seat_state()
        pot = sum(self.view.pots)
        structure = self.view.rules.structure if self.view.rules else "fixed"
        dialog = wager_dialog(lg, me.bet if me else 0, pot, structure, chips=self.view.tournament is not None)
        decision = self.view.decision

        async def answer(cents: int | None) -> None:
            if cents is not None:
                await self._act("complete" if kind == "complete" else kind, cents, decision=decision)
        self.app.push_screen(dialog, answer)

    def _confirm_wager(self, kind: str, amount: int) -> None:
        verb = VERBS.get(kind, "Bet")
        me = self.my_seat_state()
        # The only raise left may be the whole stack (a short stack facing a raise): say so, as
        # the dealer will ("and is all-in"), before it is made.
        all_in = " (all-in)" if me is not None and amount >= me.bet + me.stack else ""
        decision = self.view.decision

        async def answer(yes: bool | None) -> None:
            if yes:
                await self._act(kind, amount, decision=decision)
        self.app.push_screen(Confirm(f"{verb} {amount_of(self.view)(amount)}{all_in}?", verb.split()[0]), answer)

    async def action_post_blind(self, post: bool = True) -> None:
        """Answer the blind prompt (Auto Blind off): post, or decline and sit out."""
        v = self.view
        if not v.blind_prompt:
            return
        if await self._do(self.client.post_blind, self.table, post, v.decision):
            self.notify(f"You post the blind of {money(v.blind_prompt)}" if post
                        else "You declined the blind: you are sitting out", markup=False)
            await self.device.acted()

    async def action_post_missed(self, post: bool = True) -> None:
        """Missed blinds (or new here): post as soon as I may (True) or wait for the big blind (False)."""
        v = self.view
        if not asked_post_or_wait(v):
            return
        if await self._do(self.client.post_or_wait, self.table, post):
            if post and v.sitting_out:
                # "Post now" is to play now: it sits the player in as well (he stayed sitting out,
                # and was dealt out, until he also pressed s; found by a play-tester).
                await self._do(self.client.sit_in, self.table)
            self.post_missed = post
            self._show()                 # the prompt and the action line both follow the answer
            what = "your missed blinds" if v.missed_blinds else "a big blind"
            self.notify(f"You will post {what} as soon as you may" if post
                        else "You will wait for the big blind", markup=False)


class SeatActions(TableParts):
    async def action_join(self, seat: int | None = None) -> None:
        if await self._do(self.client.join, self.table, seat):
            await self.action_buy_in(just_seated=True)

    async def action_wait_list(self) -> None:
        try:
            place = await self.client.join_wait_list(self.table)
        except RoomError as e:
            self.notify(str(e), severity="error", markup=False)
            return
        self.notify(f"You are number {place} on the wait list", markup=False)

    async def action_buy_in(self, just_seated: bool = False) -> None:
        """The buy-in (or change of stake) dialog. `just_seated`: opened by the join itself, so
        cancelling it gives the seat back instead of leaving an empty stack in it."""
        v = self.view
        try:
            money_ = await self.client.my_money()
        except RoomError as e:
            self.notify(str(e), title="Not done", severity="error", markup=False)
            return
        # The room's count (the stack the hand began with), not the stack behind the chips in
        # the pot: with the latter the dialog offered a top-up the room then refused.
        have = v.table_chips
        if v.buy_in is not None:
            lo, hi, default = v.buy_in
        elif v.rules is not None:
            lo, hi = v.rules.min_buy_in, v.rules.max_buy_in
            if hi is not None and have >= hi:
                self.notify(f"You have {money(have)} here, the most this table allows is {money(hi)}: "
                            "no chips can be added", severity="warning", markup=False)
                return
            default = min(money_.balance, (hi - have) if hi is not None else money_.balance)
        else:
            return
        dialog = buy_in_dialog(self.table, lo, hi, default, money_.balance, have)

        async def answer(cents: int | None) -> None:
            if cents is None:
                if just_seated and await self._do(self.client.leave, self.table):
                    self.notify(f"You did not buy in: seat given back at {self.table}", markup=False)
                return
            # Not counted here after it: the store refused it, and the page says why.
            if await self._do(self.client.buy_in, self.table, cents) and self.view.table_chips > have:
                self.notify(f"Bought in for {money(cents)}", markup=False)
        self.app.push_screen(dialog, answer)

    async def action_sit(self, which: str = "") -> None:
        if self.view.sitting_out:
            await self._do(self.client.sit_in, self.table)
        else:
            await self._do(self.client.sit_out, self.table)

    async def action_leave(self) -> None:
        me = self.my_seat_state()
        in_hand = me is not None and me.status in ("active", "all-in", "protected") and \
            self.view.phase in ("bet", "draw")

        async def go(yes: bool | None = True) -> None:
            # Still seated after it: the store refused the cash-out, and the page says why.
            if yes and await self._do(self.client.leave, self.table) \
                    and self.table not in self.client.my_tables():
                self.notify(f"You left {self.table}", markup=False)
                if not self.shared:
                    self.app.pop_screen()
        if in_hand and me is not None:
            # An all-in hand cannot be folded: it plays on to the showdown, and the seat goes after.
            question = ("Leave? You are all-in: your hand plays on to the showdown, then you go."
                        if me.status in ("all-in", "protected") else "Leave now? Your hand will be folded.")
            self.app.push_screen(Confirm(question, "Leave"), go)
        else:
            await go()
