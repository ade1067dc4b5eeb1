"""A one-line footer of the keys that work now (dim: not now). One widget, one repaint: Textual's
own Footer mounts a widget per key on every change, which is too dear with many sessions per
process and a table whose keys change with every decision."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class KeyFooter(Widget):
    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: auto; max-height: 3; background: $panel; color: $text; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    _built: tuple[int, Text] | None = None     # (width, text) _changed built for the next render

    def _changed(self, screen) -> None:
        # A layout pass only when the footer's height changes (the keys change with every
        # decision; a layout of the whole screen each time was the dearest part of a repaint).
        text = self._build()
        self._built = (self.size.width, text)
        lines = min(3, len(text.plain.split("\n")))
        self.refresh(layout=lines != self.size.height)

    def render(self) -> Text:
        built, self._built = self._built, None
        if built is not None and built[0] == self.size.width:
            return built[1]
        return self._build()

    def _build(self) -> Text:
        groups: dict = {}
        entries: list = []
        for key, active in self.screen.active_bindings.items():
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
                shown, desc = sep.join(keys), item.description
            else:
                shown, desc, enabled = item
            pieces.append(Text.assemble((f" {shown}", "bold" if enabled else "dim"),
                                        (f" {desc}", "" if enabled else "dim")))
        pieces.append(Text.assemble((" ^p", "bold"), " palette"))
        # Pack whole "key description" pairs into lines as wide as the terminal (80 columns: two).
        width = max(10, self.size.width or 80)
        lines, line = [], Text(no_wrap=True, overflow="ellipsis")
        for piece in pieces:
            if line.cell_len and line.cell_len + piece.cell_len > width:
                lines.append(line)
                line = Text(no_wrap=True, overflow="ellipsis")
            line.append_text(piece)
        lines.append(line)
        return Text("\n").join(lines)

    def on_resize(self) -> None:
        self.refresh(layout=True)
