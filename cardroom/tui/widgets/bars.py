"""The action bar (what I may do now, with its key) and the auto-action bar (pre-selected
decisions, the active one highlighted). Each entry is a clickable chip that posts its action."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget


class Chip(Widget):
    """A key and a word ("f Fold"); a click asks the screen to run `action`."""

    DEFAULT_CSS = """
    Chip { width: auto; height: 1; padding: 0 1; margin: 0 0 0 0; background: $panel; }
    Chip:hover { background: $accent 40%; }
    Chip.-active { background: $accent; color: $text; text-style: bold; }
    Chip.-off { color: $text-disabled; }
    """

    class Pressed(Message):
        def __init__(self, action: str) -> None:
            super().__init__()
            self.action = action

    def __init__(self, key: str, label: str, action: str, **kw) -> None:
        super().__init__(**kw)
        self.key, self.label, self.action = key, label, action
        self.active = False

    def set(self, key: str, label: str, action: str, active: bool = False) -> None:
        if (key, label, action, active) == (self.key, self.label, self.action, self.active):
            return
        self.key, self.label, self.action, self.active = key, label, action, active
        self.set_class(active, "-active")
        self.refresh(layout=True)

    def render(self) -> Text:
        mark = "*" if self.active else ""
        return Text.assemble((self.key, "bold underline"), " ", self.label, mark)

    def on_click(self) -> None:
        self.post_message(self.Pressed(self.action))


class ActionBar(Horizontal):
    DEFAULT_CSS = """
    ActionBar { height: 1; width: 1fr; }
    ActionBar > #action-note { width: 1fr; height: 1; color: $text-muted; }
    """
    SLOTS = 5

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._items: tuple = ()
        self._note = ""

    def compose(self) -> ComposeResult:
        for i in range(self.SLOTS):
            chip = Chip("", "", "", id=f"act-{i}")
            chip.display = False
            yield chip
        from textual.widgets import Static
        yield Static("", id="action-note", markup=False)

    def show(self, items: tuple, note: str = "") -> None:
        """items: (key, label, action) for what I may do now."""
        if items == self._items and note == self._note:
            return
        self._items, self._note = items, note
        for i, chip in enumerate(self.query(Chip)):
            if i < len(items):
                chip.set(*items[i])
                chip.display = True
            else:
                chip.display = False
        self.query_one("#action-note").update(Text(note), layout=False)   # 1fr x 1: no layout


class AutoBar(Horizontal):
    DEFAULT_CSS = """
    AutoBar { height: 1; width: 1fr; }
    """

    def __init__(self, entries: tuple, **kw) -> None:
        super().__init__(**kw)
        self.entries = entries          # (auto, key, label)
        self._active = None

    def compose(self) -> ComposeResult:
        for auto, key, label in self.entries:
            yield Chip(key, label, f"auto('{auto}')", id="auto-" + auto.replace("/", "-"))

    def show(self, active: str | None, enabled: bool) -> None:
        state = (active, enabled)
        if state == self._active:
            return
        self._active = state
        self.display = enabled
        for (auto, key, label), chip in zip(self.entries, self.query(Chip)):
            chip.set(key, label, chip.action, active == auto)
