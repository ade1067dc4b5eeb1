"""My keys: the SSH keys that may log in as me (the one this session used is marked); paste a public
key line to add one; remove the selected one after a confirmation. The room refuses what it must
(garbage, another player's key, my only key) and its reason is shown as it said it.

Keys: `a` (or tab) goes to the paste box, Enter there adds; a paste anywhere on the screen goes into
the box too; `delete`/`r` removes the selected key; escape leaves the paste box, then the screen."""

from __future__ import annotations

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Input, Static

from cardroom.room.api import RoomError
from cardroom.tui.dialogs.confirm import Confirm
from cardroom.tui.widgets.keys import KeyFooter

THIS_SESSION = "this session"


class KeysScreen(Screen):
    BINDINGS = [Binding("a", "add", "Add a key"),
                Binding("delete", "remove", "Remove key"),
                Binding("r", "remove", "Remove key", show=False),
                Binding("escape", "back", "Back")]

    def __init__(self, client) -> None:
        super().__init__()
        self.client = client     # the session's RoomClient

    def compose(self) -> ComposeResult:
        yield Static(Text("My keys", "bold"), id="keys-title")
        with Vertical(classes="page", id="keys-page"):
            yield Static(Text("These SSH keys may log in as you.", "italic"), classes="dialog-line")
            yield DataTable(id="keys-table", cursor_type="row")
            yield Static(Text("Add a key: paste a public key line (the one line of your .pub file), "
                              "then Enter"), classes="dialog-line")
            yield Input(placeholder="ssh-ed25519 AAAA... you@host", id="key-input")
            yield Static("", id="keys-status", markup=False)
        yield KeyFooter()

    async def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_column("Fingerprint", key="fp")
        table.add_column("", key="note")
        await self.reload()
        table.focus()

    # ------------------------------------------------------------------ what is shown
    async def keys(self) -> tuple[str, ...]:
        try:
            return tuple(await self.client.keys())
        except RoomError as e:
            self.say(str(e), error=True)
            return ()

    async def reload(self, select: str | None = None) -> None:
        keys = await self.keys()
        table = self.query_one(DataTable)
        mine = self.client.fingerprint
        table.clear()
        for fp in keys:
            table.add_row(Text(fp), Text(THIS_SESSION, "bold") if fp == mine else Text(""), key=fp)
        if select in keys:
            table.move_cursor(row=keys.index(select))
        title = "My keys" if keys else "My keys: you have none (you logged in without a key)"
        self.query_one("#keys-title", Static).update(Text(title, "bold"))
        self.refresh_bindings()

    def selected(self) -> str | None:
        table = self.query_one(DataTable)
        if not table.row_count:
            return None
        return str(table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value)

    def say(self, text: str, error: bool = False) -> None:
        """One status line under the paste box: the room's refusal (red) or what was done."""
        self.query_one("#keys-status", Static).update(Text(text, "bold red" if error else "green"))

    # ------------------------------------------------------------------ keys
    def check_action(self, action: str, parameters: tuple) -> bool | None:
        if action == "remove":
            return bool(self.is_mounted and self.query_one(DataTable).row_count) or None
        return True

    def action_add(self) -> None:
        self.query_one("#key-input", Input).focus()

    def on_paste(self, event: events.Paste) -> None:
        """A paste that reached the screen (the key list has the focus) goes into the paste box, as
        the line above it asks: it did nothing, and people paste before they read the keys."""
        box = self.query_one("#key-input", Input)
        if not box.has_focus:
            event.stop()
            box.focus()
            box.post_message(events.Paste(event.text))

    @on(Input.Submitted, "#key-input")
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        line = event.value.strip()
        if not line:
            self.say("Paste a public key line first: ssh-ed25519 AAAA...", error=True)
            return
        before = set(await self.keys())
        try:
            fp = await self.client.add_key(line)
        except RoomError as e:
            self.say(f"Not added: {e}", error=True)
            return
        event.input.value = ""
        await self.reload(select=fp)
        self.say(f"That key was already yours: {fp}" if fp in before else f"Added {fp}")
        # The paste box keeps the focus: moved to the list, the next key pasted went astray.

    def action_remove(self) -> None:
        fp = self.selected()
        if fp is None:
            return
        question = f"Remove the key {fp}? It will no longer log in as you."
        if fp == self.client.fingerprint:
            question += " It is the key you logged in with this session."

        async def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                await self.client.remove_key(fp)
            except RoomError as e:
                self.say(f"Not removed: {e}", error=True)
                return
            await self.reload()
            self.say(f"Removed {fp}")
        self.app.push_screen(Confirm(question, "Remove"), answer)

    def action_back(self) -> None:
        box = self.query_one("#key-input", Input)
        if box.has_focus:
            self.query_one(DataTable).focus()
            return
        self.app.pop_screen()
