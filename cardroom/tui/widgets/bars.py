"""The action bar (what I may do now, with its key) and the auto-action bar (pre-selected
decisions, the active one highlighted). Each entry is a clickable chip that posts its action."""

from __future__ import annotations

from rich.cells import cell_len
from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.message import Message
from textual.widget import Widget

from cardroom.tui.widgets.lines import TextLines

KEY_STYLE = Style(bold=True, underline=True)     # the key of a chip, as Chip draws it


class Chip(Widget):
    """A key and a word ("f Fold"); a click asks the screen to run `action`. One column of padding,
    on the left: with one on each side the six auto actions took 84 columns, and at 80 the last
    read "f6 Fold in T"."""

    DEFAULT_CSS = """
    Chip { width: auto; height: 1; padding: 0 0 0 1; margin: 0 0 0 0; background: $panel; }
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


class ActionBar(TextLines):
    """What I may do now, each a key chip ("f Fold", "c Call $2"), then a note: one line drawn by
    one widget. It was five Chip widgets shown and hidden as the actions changed, and each of
    those display toggles cost the screen a layout pass (~13 ms at 100x30) on most actions of
    every seated player. A click on a chip posts its action, as a Chip does."""

    DEFAULT_CSS = """
    ActionBar { height: 1; width: 1fr; }
    ActionBar > .action-bar--chip { background: $panel; }
    ActionBar > .action-bar--hover { background: $accent 40%; }
    ActionBar > .action-bar--note { color: $text-muted; }
    """
    COMPONENT_CLASSES = {"action-bar--chip", "action-bar--hover", "action-bar--note"}
    SLOTS = 5

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self._items: tuple = ()
        self._note = ""
        self._hover: int | None = None                   # the chip under the mouse

    @property
    def items(self) -> tuple:
        """The (key, label, action) chips shown now."""
        return self._items

    def show(self, items: tuple, note: str = "") -> None:
        """items: (key, label, action) for what I may do now (at most SLOTS)."""
        items = tuple(items)[:self.SLOTS]
        if items == self._items and note == self._note:
            return
        self._items, self._note = items, note
        self._hover = None
        self.redraw()

    def text_lines(self, width: int, height: int) -> list[Text]:
        chip = self.get_component_rich_style("action-bar--chip")
        hover = self.get_component_rich_style("action-bar--hover")
        line = Text(no_wrap=True)
        for i, (key, label, _) in enumerate(self._items):
            style = chip + hover if i == self._hover else chip
            line.append(" ", style)
            line.append(key, style + KEY_STYLE)
            line.append(f" {label} ", style)
        line.append(self._note, self.get_component_rich_style("action-bar--note"))
        return [line]

    def _chip_at(self, x: int) -> int | None:
        """The chip drawn at column x (each is " key label ", side by side from column 0)."""
        end = 0
        for i, (key, label, _) in enumerate(self._items):
            end += cell_len(f" {key} {label} ")
            if x < end:
                return i
        return None

    def on_click(self, event) -> None:
        i = self._chip_at(event.x)
        if i is not None:
            event.stop()
            self.post_message(Chip.Pressed(self._items[i][2]))

    def on_mouse_move(self, event) -> None:
        i = self._chip_at(event.x)
        if i != self._hover:
            self._hover = i
            self.redraw()

    def on_leave(self, event) -> None:
        if self._hover is not None:
            self._hover = None
            self.redraw()


class AutoBar(Horizontal):
    DEFAULT_CSS = """
    AutoBar { height: 1; width: 1fr; }
    """

    def __init__(self, entries: tuple, **kw) -> None:
        super().__init__(**kw)
        self.entries = entries          # (auto, key, label)
        self._active: tuple[str | None, bool] | None = None

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
