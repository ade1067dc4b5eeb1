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


def install_guards() -> None:
    """Install the process-wide guards once (safe to call again)."""
    global _installed
    if _installed:
        return
    _neutralise_print_redirect()
    _no_cursor_blink_by_default()
    _installed = True
