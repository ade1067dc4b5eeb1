"""Process-wide fixes for running many Textual apps in one server process (textual==8.2.8).

`install_guards()` is idempotent; the server calls it at start-up, tests call it too. If a Textual
upgrade moves what is patched here, it raises instead of silently doing nothing.
"""

from __future__ import annotations

import contextlib
from typing import Any

_installed = False


class _NoRedirect(contextlib.AbstractContextManager):
    """Stands in for contextlib.redirect_stdout/stderr inside textual.app.

    App._process_messages wraps the whole app run in `redirect_stdout(self._capture_stdout)` /
    `redirect_stderr(...)`, which assign the process globals sys.stdout/sys.stderr. With
    overlapping sessions they end up pointing at whichever app exited last (a dead app):
    tracebacks vanish and that app stays alive (pitfall 1). textual.app imported the two names
    into its module namespace, so replacing them there neutralises exactly that use and nothing
    else in the process. The server never print()s; it logs.
    """

    def __init__(self, new_target: Any = None) -> None:
        self._new_target = new_target

    def __exit__(self, *exc_info: object) -> None:
        return None


def _neutralise_print_redirect() -> None:
    import textual.app as textual_app

    for name in ("redirect_stdout", "redirect_stderr"):
        current = getattr(textual_app, name, None)
        if current is None:
            raise RuntimeError(f"textual.app.{name} is gone: re-check the stdout guard (pitfall 1)")
        setattr(textual_app, name, _NoRedirect)


def _no_cursor_blink_by_default() -> None:
    """A blinking cursor is a 0.5 s timer plus a repaint in every session (pitfall 6).

    Input and TextArea declare `cursor_blink = reactive(True)`; flip the descriptor's default so
    every widget created in this process starts steady (a widget may still opt in explicitly).
    """
    from textual.widgets import Input, TextArea

    for widget_class in (Input, TextArea):
        descriptor = widget_class.__dict__.get("cursor_blink")
        if descriptor is None or not hasattr(descriptor, "_default"):
            raise RuntimeError(f"{widget_class.__name__}.cursor_blink moved: re-check the blink guard")
        descriptor._default = False


def _no_self_caching_strips() -> None:
    """Textual's Strip caches derived strips in itself; when a crop or a divide changes nothing the
    result is the strip itself, so the strip ends up in its own cache: a reference cycle per line
    drawn, which only the cyclic collector can free. In one app that is harmless; here the GC
    policy (gcpolicy.py) freezes survivors every few seconds, so those cycles were kept until the
    next full collection: the ssh benchmark's server grew 90-190 MB a minute with 150 sessions.
    The two methods below return the strip itself without caching it in those cases (same result).
    """
    from textual.strip import Strip

    crop_extend, divide = Strip.crop_extend, Strip.divide
    if getattr(crop_extend, "_cardroom_guard", False):
        return

    def crop_extend_uncycled(self: Strip, start: int, end: int, style: Any) -> Strip:
        if start == 0 and end == self.cell_length:
            return self
        return crop_extend(self, start, end, style)

    def divide_uncycled(self: Strip, cuts: Any) -> Any:
        length = self.cell_length
        cuts = [cut for cut in cuts if cut <= length]     # as divide does first
        if cuts == [length]:
            return [self]                                 # what divide gives (and caches) then
        return divide(self, cuts)

    crop_extend_uncycled._cardroom_guard = divide_uncycled._cardroom_guard = True   # type: ignore[attr-defined]
    Strip.crop_extend, Strip.divide = crop_extend_uncycled, divide_uncycled


def _repaint_only_what_changed() -> None:
    """A partial repaint renders only the widgets that overlap a changed region.

    Textual's Compositor.render_partial_update renders every visible widget under the bounding
    box of the changed regions; on a table screen a change to the felt (top left), the chat (right)
    and the footer (bottom) is the whole screen, so every widget was asked for its lines on every
    action, in every session. Only the changed spans are written to the terminal, and every cell of
    a span belongs to some changed region, so the widget drawn at that cell overlaps that region:
    a widget overlapping none of them never reaches the terminal. The output is the same
    (tests/ssh/test_guards.py compares it with Textual's on real screens).
    """
    from textual._compositor import Compositor
    from textual.geometry import Region

    render_partial_update, get_renders = Compositor.render_partial_update, Compositor._get_renders
    if getattr(render_partial_update, "_cardroom_guard", False):
        return

    def render_partial_update_changed_only(self: Compositor) -> Any:
        self._cardroom_changed = list(self._dirty_regions)      # read by the filter below
        try:
            return render_partial_update(self)
        finally:
            self._cardroom_changed = None

    def get_renders_changed_only(self: Compositor, crop: Region | None = None) -> Any:
        changed = getattr(self, "_cardroom_changed", None)
        if not changed or crop is None:
            return get_renders(self, crop)
        visible = self.visible_widgets
        keep = {}
        for widget, (region, clip) in visible.items():
            shown = region.intersection(clip)
            if any(shown.overlaps(r) for r in changed):
                keep[widget] = (region, clip)
        self._visible_widgets, saved = keep, self._visible_widgets
        try:
            return list(get_renders(self, crop))     # a generator: run it while the filter holds
        finally:
            self._visible_widgets = saved

    render_partial_update_changed_only._cardroom_guard = True   # type: ignore[attr-defined]
    render_partial_update_changed_only.textual = render_partial_update  # type: ignore[attr-defined]
    Compositor.render_partial_update = render_partial_update_changed_only    # type: ignore[method-assign]
    Compositor._get_renders = get_renders_changed_only                        # type: ignore[method-assign]


def _one_truecolor_filter_per_theme() -> None:
    """Every app shares one ANSI-to-truecolor line filter per terminal theme (and on/off).

    Each Textual app makes its own filter, and a Strip caches what a filter made of it under the
    (filter, background) pair, four pairs at most: the line-drawn strips shared by every session
    (tui/widgets/lines.py) were filtered again for each session that drew them (py-spy, 300
    sessions: 11.7% of the server in that filtering), and the filter's own lru_cache of 1,024
    styles, keyed by the filter, was shared by hundreds of filters. A filter holds nothing but
    its theme and whether it is on, so apps with the same two share one. Textual switches it on
    or off by setting `enabled` on the app's filter; with shared filters that would switch it for
    every app, so the app gets the shared filter for the new state instead.
    """
    from textual.app import App
    from textual.filter import ANSIToTruecolor

    refresh = App._refresh_truecolor_filter
    if getattr(refresh, "_cardroom_guard", False):
        return
    shared: dict[tuple[int, bool], tuple[Any, ANSIToTruecolor]] = {}

    def refresh_truecolor_filter_shared(self: App, theme: Any) -> None:
        enabled = not self.native_ansi_color
        key = (id(theme), enabled)
        entry = shared.get(key)
        if entry is None:                  # the theme is kept with it: its id stays unique
            entry = shared[key] = (theme, ANSIToTruecolor(theme, enabled=enabled))
        filters = self._filters
        for index, line_filter in enumerate(filters):
            if isinstance(line_filter, ANSIToTruecolor):
                filters[index] = entry[1]
                return

    def watch_ansi_color_shared(self: App, ansi_color: Any) -> None:
        self._refresh_truecolor_filter(self.ansi_theme)

    refresh_truecolor_filter_shared._cardroom_guard = True   # type: ignore[attr-defined]
    App._refresh_truecolor_filter = refresh_truecolor_filter_shared      # type: ignore[method-assign]
    App._watch_ansi_color = watch_ansi_color_shared                       # type: ignore[method-assign]


def install_guards() -> None:
    """Install the process-wide guards once (safe to call again)."""
    global _installed
    if _installed:
        return
    _neutralise_print_redirect()
    _no_cursor_blink_by_default()
    _no_self_caching_strips()
    _repaint_only_what_changed()
    _one_truecolor_filter_per_theme()
    _installed = True
