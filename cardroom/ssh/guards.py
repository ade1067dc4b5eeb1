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


def _css_rules_parsed_once_per_process() -> None:
    """Every app shares the rules parsed from the same CSS under the same CSS variables.

    Each app's Stylesheet parses every widget class's DEFAULT_CSS for itself, and again in each
    fresh Stylesheet that `reparse()` builds (its cache is per instance): a login parsed its 32
    sources afresh, 27-31 ms of a 300-400 ms login. The rules depend only on the CSS text, where it
    was read from, the flags passed here and the variables (the theme), and Textual only reads them
    after parsing, so one process-wide cache keyed on all of those serves every session.
    """
    from textual.cache import LRUCache
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    if getattr(parse_rules, "_cardroom_guard", False):
        return
    shared: LRUCache[tuple, list] = LRUCache(1024)

    def parse_rules_shared(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
                           tie_breaker: int = 0, scope: str = "") -> list:
        # The variables as a key, made once per variables dict of this stylesheet (168 of them:
        # 11 us a freezing, and a login asks some 195 times).
        variables, memo = self._variables, getattr(self, "_cardroom_variables", None)
        if memo is None or memo[0] is not variables:
            memo = self._cardroom_variables = (variables, frozenset(variables.items()))
        key = (memo[1], css, read_from, is_default_rules, tie_breaker, scope)
        rules = shared.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            shared[key] = rules
        return rules

    parse_rules_shared._cardroom_guard = True   # type: ignore[attr-defined]
    Stylesheet._parse_rules = parse_rules_shared   # type: ignore[method-assign]


def _keys_meet_bindings_at_once() -> None:
    """A key that nothing on its way would handle meets the bindings in the turn it reaches the app.

    Textual forwards a key to the focused widget and lets it bubble up the DOM one message queue
    at a time; only when it is back at the app does `App._on_key` check the bindings of that same
    chain. On a table screen that is six loop turns (the app, the chat log, its pane, a row, the
    screen, the app again), and on a busy server each turn waits behind every other session's
    ready work: a player's key took six of those waits to reach its binding. When no node on the
    way would do anything with the key (no key handler of its own, as Input, TextArea and Select
    have; no `key_<name>` method for it; each node would accept the message and pass it on), the
    app does at once what `App._on_key` would do when the key came back: check the bindings,
    else its own key methods. Otherwise the key goes Textual's way. The priority bindings, the
    focus and the tooltip are handled first as in `App.on_event`.
    """
    from textual import events
    from textual._dispatch_key import dispatch_key
    from textual.app import App
    from textual.widget import Widget

    on_event = App.on_event
    if getattr(on_event, "_cardroom_guard", False):
        return
    own_handler: dict[type, bool] = {}

    def handles_keys_itself(cls: type) -> bool:
        """Whether a class on the way has a key handler besides Widget's and App's (which only
        dispatch to key_ methods and, for the app, the bindings: what this guard does)."""
        found = own_handler.get(cls)
        if found is None:
            found = any(("on_key" in vars(klass) or "_on_key" in vars(klass) or "handle_key" in vars(klass)
                         or any(issubclass(kind, events.Key) for kind in vars(klass).get("_decorated_handlers", ())))
                        for klass in cls.__mro__ if klass is not Widget and klass is not App)
            own_handler[cls] = found
        return found

    def nothing_on_the_way(app: App, event: events.Key) -> bool:
        if handles_keys_itself(type(app)):
            return False
        screen = app.screen
        if screen.maximized is not None:
            return False                           # App.on_event's escape-to-minimise case
        node = app.focused or screen
        if not node.is_attached:
            return False
        names = event.name_aliases
        while node is not app:
            if (node is None or node._closing or node._closed or not node.check_message_enabled(event)
                    or handles_keys_itself(type(node))
                    or any(hasattr(node, f"key_{name}") or hasattr(node, f"_key_{name}") for name in names)):
                return False
            node = node._parent
        return True

    async def on_event_bindings_at_once(self: App, event: events.Event) -> None:
        if isinstance(event, events.Key) and not event.is_forwarded and nothing_on_the_way(self, event):
            self.app_focus = True
            if self.focused is not None:
                self.screen._clear_tooltip()
            key = event.key
            if not await self._check_bindings(key, priority=True) and not await self._check_bindings(key):
                await dispatch_key(self, event)
            return
        await on_event(self, event)

    on_event_bindings_at_once._cardroom_guard = True   # type: ignore[attr-defined]
    on_event_bindings_at_once.textual = on_event       # type: ignore[attr-defined]
    App.on_event = on_event_bindings_at_once           # type: ignore[method-assign]


def keep_typed_keys_in_order() -> None:
    """Keys typed quickly apply as typed: an input's editing keys keep their place among the
    characters (_editing_keys_in_place), and keys typed ahead of a screen wait for it
    (_keys_wait_for_their_screen). Process-wide and needed wherever people type, so the hot-seat
    game installs it too."""
    _editing_keys_in_place()
    _keys_wait_for_their_screen()


def _editing_keys_in_place() -> None:
    """An Input's (or TextArea's) editing keys keep their place among the characters typed
    (Textual issue #6605; textual==8.2.8 has it).

    The widget inserts a printable key as soon as the key reaches it, but its bound keys
    (backspace, delete, the arrows, home/end, ctrl+k, enter...) bubble up through every
    container to the app, one message queue at a time, before `App._check_bindings` runs their
    action. Keys that arrive together, as they do over ssh when one packet carries several, then
    apply out of order: "105", backspace, "0" typed quickly left $105 in a bet box instead of
    $100. Here the widget runs its own binding for the key as it receives it, in order with the
    characters; what App._check_bindings would have found first for the key, since the focused
    widget heads the binding chain. Keys it does not bind itself still bubble.
    """
    from textual import events
    from textual.widgets import Input, TextArea

    def in_order(on_key):
        async def on_key_in_order(self, event: events.Key) -> None:
            if not event.is_printable and self.has_focus:
                for binding in self._bindings.key_to_bindings.get(event.key, ()):
                    # Priority bindings were checked before the key was forwarded here.
                    if not binding.priority and await self.app.run_action(binding.action, self):
                        event.stop()             # the app does not run it again
                        event.prevent_default()  # nor do the handlers further down the MRO
                        return
            await on_key(self, event)

        on_key_in_order._cardroom_guard = True   # type: ignore[attr-defined]
        on_key_in_order.textual = on_key         # type: ignore[attr-defined]
        return on_key_in_order

    for widget_class in (Input, TextArea):
        on_key = widget_class.__dict__.get("_on_key")
        if on_key is None:
            raise RuntimeError(f"{widget_class.__name__}._on_key moved: re-check the key-order guard")
        if not getattr(on_key, "_cardroom_guard", False):
            widget_class._on_key = in_order(on_key)   # type: ignore[method-assign]


# How long keys typed ahead wait for the screen they open before going wherever they would have.
TYPEAHEAD_WAIT = 2.0


def _keys_wait_for_their_screen() -> None:
    """Keys typed ahead of a screen go to that screen, as a terminal's type-ahead does.

    A key that opens a dialog ("r" to raise, "j" to join and buy in) only pushes it: the dialog
    composes, mounts and focuses its input in its own task. Keys that came in the same packet
    (a fast typist, a paste, a slow server) reached the app before that and went to the screen
    below, or nowhere: "j100" Enter in one packet at the lobby joined the table, lost the "100",
    and never bought in; at a draw table the digits would have held cards. Here a key that
    finds the app's screen not yet mounted waits, with every key after it, until it is (or
    TYPEAHEAD_WAIT has passed); they are then dispatched in order, in the app's own queue, behind
    what was already in it, and a key among them that opens another screen makes the rest wait
    again. This sits on the app's message dispatch, below every key guard and handler.
    """
    import asyncio
    from weakref import WeakKeyDictionary

    from textual import events
    from textual.app import App

    dispatch = App.__dict__.get("_dispatch_message")
    if dispatch is not None:
        if getattr(dispatch, "_cardroom_guard", False):
            return
        raise RuntimeError("App._dispatch_message appeared: re-check the typeahead guard")
    from textual.message_pump import MessagePump
    dispatch = MessagePump._dispatch_message
    held: WeakKeyDictionary[App, list[events.Key]] = WeakKeyDictionary()
    waiting: set[asyncio.Task] = set()   # the waits in flight (a task nobody holds may be collected)

    def screen_not_up(app: App) -> object | None:
        """The app's screen while it is not mounted yet, else None."""
        stack = app._screen_stack
        if stack and not stack[-1]._is_mounted:
            return stack[-1]
        return None

    def wait_for(app: App, screen) -> None:
        async def wait() -> None:
            try:
                await asyncio.wait_for(screen._mounted_event.wait(), TYPEAHEAD_WAIT)
            except asyncio.TimeoutError:
                pass   # the keys go on without it
            # Through the app's queue, so the keys already in it are held before the release.
            if not app.call_later(release, app, screen):
                held.pop(app, None)   # the app is closing: nothing will read them
        task = asyncio.get_running_loop().create_task(wait())
        waiting.add(task)
        task.add_done_callback(waiting.discard)

    async def release(app: App, waited_for) -> None:
        keys = held.pop(app, [])
        for i, key in enumerate(keys):
            screen = screen_not_up(app)
            if screen is not None and screen is not waited_for:
                held[app] = keys[i:]   # a key before this one opened another screen
                wait_for(app, screen)
                return
            await dispatch(app, key)

    async def dispatch_after_typeahead(self: App, message) -> None:
        if isinstance(message, events.Key) and not message.is_forwarded:
            keys = held.get(self)
            if keys is not None:
                keys.append(message)
                return
            screen = screen_not_up(self)
            if screen is not None:
                held[self] = [message]
                wait_for(self, screen)
                return
        await dispatch(self, message)

    dispatch_after_typeahead._cardroom_guard = True   # type: ignore[attr-defined]
    dispatch_after_typeahead.textual = dispatch       # type: ignore[attr-defined]
    App._dispatch_message = dispatch_after_typeahead   # type: ignore[method-assign]


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
    _css_rules_parsed_once_per_process()
    _keys_meet_bindings_at_once()
    keep_typed_keys_in_order()
    _installed = True
