"""A one-line footer of the keys that work now (dim: not now). One widget, one repaint: Textual's
own Footer mounts a widget per key on every change, which is too dear with many sessions per
process and a table whose keys change with every decision."""

from __future__ import annotations

from rich.text import Text
from textual.widget import Widget


class KeyFooter(Widget):
    DEFAULT_CSS = """
    KeyFooter { dock: bottom; height: 1; background: $panel; color: $text; }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def _changed(self, screen) -> None:
        self.refresh()

    def render(self) -> Text:
        out = Text(no_wrap=True, overflow="ellipsis")
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
        for kind, item in entries:
            if kind == "group":
                keys, enabled = groups[item]
                sep = "" if item.compact else " "
                shown, desc = sep.join(keys), item.description
            else:
                shown, desc, enabled = item
            out.append(f" {shown}", "bold" if enabled else "dim")
            out.append(f" {desc} ", "" if enabled else "dim")
        out.append(" ^p", "bold")
        out.append(" palette ")
        return out
