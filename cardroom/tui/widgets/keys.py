"""A one-line footer of the keys that work now (dim: not now). One widget, one repaint: Textual's
own Footer mounts a widget per key on every change, which is too dear with many sessions per
process and a table whose keys change with every decision."""

from __future__ import annotations

from functools import lru_cache

from rich.text import Text

from cardroom.tui.widgets.lines import TextLines


class KeyFooter(TextLines):
    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: auto; max-height: 3; background: $panel; color: $text; }
    """

    _lines: tuple[Text, ...] = ()
    _width = 0

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, screen) -> None:
        # The screen says its keys may have changed (it says so on every decision, on every
        # screen at a table): repaint only if the footer reads differently, and ask for a layout
        # pass only when its height changes (a layout of the whole screen was the dearest part
        # of a repaint).
        lines = self._build(self.size.width)
        if lines == self._lines:
            return
        relayout = min(3, len(lines)) != min(3, len(self._lines))
        self._lines, self._width = lines, self.size.width
        self.redraw()
        if relayout:
            self.refresh(layout=True)

    def _lines_for(self, width: int) -> tuple[Text, ...]:
        if width != self._width:
            self._lines, self._width = self._build(width), width
        return self._lines

    def text_lines(self, width: int, height: int) -> list[Text]:
        return list(self._lines_for(width))

    def get_content_height(self, container, viewport, width: int) -> int:
        return min(3, len(self._lines_for(width)))

    def _build(self, width: int) -> tuple[Text, ...]:
        groups: dict = {}
        entries: list = []
        for active in self.screen.active_bindings.values():
            b = active.binding
            if not b.show or b.system:
                continue
            shown = self.app.get_key_display(b)
            if b.group is not None:
                if b.group not in groups:
                    groups[b.group] = [[], active.enabled]
                    entries.append(("group", b.group))
                groups[b.group][0].append(shown)
                groups[b.group][1] = groups[b.group][1] or active.enabled
                continue
            entries.append(("key", (shown, b.description, active.enabled)))
        pieces = []
        for kind, item in entries:
            if kind == "group":
                keys, enabled = groups[item]
                sep = "" if item.compact else " "
                pieces.append((sep.join(keys), item.description, enabled))
            else:
                pieces.append(item)
        return _lines(tuple(pieces), max(10, width or 80))

    def on_resize(self) -> None:
        self.refresh(layout=True)
        # Toasts sit above the footer, never over its keys: Textual's rack keeps one line free
        # for a one-line footer, and at 80 columns this one is two or three (issue 35).
        height = self.size.height
        for rack in self.screen.query("ToastRack"):
            if rack.styles.margin.bottom != height:
                rack.styles.margin = (0, 0, height, 0)


@lru_cache(maxsize=1024)
def _lines(pieces: tuple, width: int) -> tuple[Text, ...]:
    """The footer's lines for these (key, description, enabled) pieces at this width: the same
    for every session on the same screen (made once; shared, never changed)."""
    texts = [Text.assemble((f" {shown}", "bold" if enabled else "dim"), (f" {desc}", "" if enabled else "dim"))
             for shown, desc, enabled in pieces]
    texts.append(Text.assemble((" ^p", "bold"), " palette"))
    texts.append(Text.assemble((" ^q", "bold"), " quit"))    # ctrl+q works everywhere: say so
    # Pack whole "key description" pairs into lines as wide as the terminal (80 columns: two).
    lines, line = [], Text(no_wrap=True, overflow="ellipsis")
    for piece in texts:
        if line.cell_len and line.cell_len + piece.cell_len > width:
            lines.append(line)
            line = Text(no_wrap=True, overflow="ellipsis")
        line.append_text(piece)
    lines.append(line)
    return tuple(lines)
