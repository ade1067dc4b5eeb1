"""The chat pane: the table's chat and the dealer's words, and a line to talk to the players or
to ask the dealer (the Player/Dealer toggle of seed 000). Everything is plain text, never markup.

The line is there only while the box is open (t or d opens it, Esc closes it): a closed box left
its line on screen saying "esc: back", and a player pressed Esc again, which then answered the
table's question instead (issue 35)."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.events import MouseScrollDown, MouseScrollUp
from textual.strip import Strip
from textual.widgets import Input, Static

from cardroom.tui.widgets.lines import TextLines, text_strip

KIND_STYLE = {"dealer": "italic", "system": "dim italic", "player": ""}
MAX_LINES = 300
# The house's lines (the dealer's, the table's, the room's) begin with this, which no player's can:
# a player's line begins with his name (letters, digits, spaces, . _ -), and a line's wrapped
# rest is indented. Without colour or italics (NO_COLOR, ASCII terminals) it is what tells
# "Room: The room closes" from a player's chat (issue 34).
HOUSE_MARK = "* "
WRAP_INDENT = "  "


class ChatLog(TextLines):
    """The chat lines, newest at the bottom; the mouse wheel scrolls back.

    Not a RichLog: a RichLog grows its virtual size with every line, so each line asked every
    screen at the table for a layout pass and a scrollbar repaint (the ssh benchmark measured
    10-100 ms per action per screen). This widget has a fixed size and repaints only itself, and
    draws through the line API: each entry is wrapped and cut into strips once per width and style
    (see widgets/lines.py; through `render()` a new line cost 5.3 ms a screen, rewrapping all)."""

    DEFAULT_CSS = """
    ChatLog { height: 1fr; background: $surface; }
    """
    # Focusable like the RichLog it replaces: the table's keys reach the screen through it.
    can_focus = True
    BINDINGS = [Binding("up", "back(1)", show=False), Binding("down", "back(-1)", show=False),
                Binding("pageup", "back(5)", show=False), Binding("pagedown", "back(-5)", show=False),
                Binding("end", "back(-1000000)", show=False)]

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.entries: list[tuple[Text, dict]] = []   # (text, {(width, style): strips})
        self.back = 0                                # entries scrolled back from the newest

    def write(self, text: Text) -> None:
        self.entries.append((text, {}))
        if len(self.entries) > MAX_LINES:
            del self.entries[: len(self.entries) - MAX_LINES]
        if self.back:
            self.back = min(self.back + 1, len(self.entries) - 1)
        self.redraw()

    def clear(self) -> None:
        self.entries.clear()
        self.back = 0
        self.redraw()

    @property
    def lines(self) -> list[str]:
        """The plain text of every entry (tests)."""
        return [t.plain for t, _ in self.entries]

    def _entry_strips(self, entry: tuple[Text, dict], width: int, base: Style) -> list[Strip]:
        text, cache = entry
        strips = cache.get((width, base))
        if strips is None:
            console = self.app.console
            cache.clear()
            # The wrapped rest of a line is indented: only an entry's own start is at the margin,
            # so a chat line cannot wrap a "* Dealer: ..." of its own to the start of a row.
            indent = len(WRAP_INDENT) if width > 2 * len(WRAP_INDENT) else 0
            lines = text.wrap(console, width - indent, overflow="fold")
            strips = cache[(width, base)] = [
                text_strip(line if i == 0 else Text.assemble(WRAP_INDENT[:indent], line), width, base, console)
                for i, line in enumerate(lines)]
        return strips

    def build_strips(self, width: int, height: int, base: Style) -> list[Strip]:
        shown: list[Strip] = []
        if width > 0 and height > 0:
            for entry in reversed(self.entries[:len(self.entries) - self.back]):
                shown[:0] = self._entry_strips(entry, width, base)
                if len(shown) >= height:
                    break
        return shown[-height:] if height > 0 else []

    def action_back(self, lines: int) -> None:
        back = max(0, min(len(self.entries) - 1, self.back + lines))
        if back != self.back:
            self.back = back
            self.redraw()

    def on_mouse_scroll_up(self, event: MouseScrollUp) -> None:
        event.stop()
        self.action_back(1)

    def on_mouse_scroll_down(self, event: MouseScrollDown) -> None:
        event.stop()
        self.action_back(-1)


class ChatInput(Input):
    BINDINGS = [Binding("ctrl+t", "toggle_mode", "Player/Dealer", show=False),
                Binding("escape", "leave", "Back to the table", show=False)]

    def action_toggle_mode(self) -> None:
        self.post_message(ChatPane.Toggle())

    def action_leave(self) -> None:
        self.screen.set_focus(None)

    def on_blur(self) -> None:
        # However the box lost the keys (Esc, a click elsewhere), it closes: no line is left.
        self.post_message(ChatPane.Closed())


class ChatPane(Vertical):
    DEFAULT_CSS = """
    ChatPane { height: 1fr; }
    ChatPane > #chat-line { height: 1; display: none; }
    ChatPane #chat-mode { width: auto; padding: 0 1; background: $panel; text-style: bold; }
    ChatPane #chat-input { border: none; height: 1; padding: 0 1; width: 1fr; }
    """

    class Send(Message):
        def __init__(self, text: str, dealer: bool) -> None:
            super().__init__()
            self.text = text
            self.dealer = dealer

    class Toggle(Message):
        pass

    class Closed(Message):
        pass

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.dealer = False
        self._last = None        # the last ChatLine written (the table keeps the same objects)

    def compose(self) -> ComposeResult:
        yield ChatLog(id="chat-log")
        with Horizontal(id="chat-line"):
            yield Static("Player", id="chat-mode", markup=False)
            yield ChatInput(id="chat-input")

    def show(self, lines: tuple) -> None:
        """Append what is new since the last call (found by identity); rewrite if lost."""
        if not lines or lines[-1] is self._last:
            return
        log = self.query_one(ChatLog)
        start = None
        for i in range(len(lines) - 1, -1, -1):
            if lines[i] is self._last:
                start = i + 1
                break
        if start is None:
            log.clear()
            start = 0
        for line in lines[start:]:
            log.write(self.format(line))
        self._last = lines[-1]

    @staticmethod
    def format(line) -> Text:
        if line.kind == "player":
            return Text.assemble((line.name, "bold"), ": ", line.text)
        return Text.assemble(HOUSE_MARK, (line.name, "bold " + KIND_STYLE.get(line.kind, "")), ": ",
                             (line.text, KIND_STYLE.get(line.kind, "")))

    def set_mode(self, dealer: bool) -> None:
        self.dealer = dealer
        self.query_one("#chat-mode", Static).update("Dealer" if dealer else "Player")
        self.query_one(ChatInput).placeholder = ("ask the dealer (how many did NAME draw?)  esc: back" if dealer
                                                 else "say something to the table  esc: back")

    def focus_input(self, dealer: bool) -> None:
        self.set_mode(dealer)
        self.query_one("#chat-line").display = True
        self.query_one(ChatInput).focus()

    @on(Closed)
    def _line_closed(self, event: Closed) -> None:      # not `_closed`: MessagePump's flag is that
        event.stop()
        line = self.query_one(ChatInput)
        if not line.has_focus:      # not reopened meanwhile (d right after Esc)
            self.query_one("#chat-line").display = False

    @on(Toggle)
    def _toggle(self, event: Toggle) -> None:
        event.stop()
        self.set_mode(not self.dealer)

    def on_click(self, event) -> None:
        if getattr(event.widget, "id", None) == "chat-mode":
            self.set_mode(not self.dealer)

    @on(Input.Submitted, "#chat-input")
    def _submit(self, event: Input.Submitted) -> None:
        event.stop()
        text = event.value
        event.input.value = ""
        # The box stays open for the next line until Esc: closed after each line, the next line
        # typed went to the table's keys, where its letters open screens or fold.
        if text.strip():
            self.post_message(self.Send(text, self.dealer))
