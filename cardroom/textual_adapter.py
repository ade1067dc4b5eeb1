"""Every use of Textual's private API, and of three other libraries' privates, in one place.

Textual has no public API for what running many apps in one process needs, so the rest of cardroom
calls the functions here and never reads a private name of Textual, asyncio, asyncssh or Rich.
Everything here is written against textual==8.2.8 (pinned in pyproject.toml): importing this module
with another version raises `TextualChanged`, and each guard names the internals it relies on and is
checked as it is installed, so an upgrade that moves one fails naming that guard.

Guards are process-wide patches of Textual's classes, of two kinds:
- fixes (`FIXES`): without them behaviour is wrong. The server installs them all; the hot-seat game
  those about typing (`TYPING_FIXES`).
- speedups (`SPEEDUPS`): the same output, less CPU or memory on a busy server. `[server]
  textual_speedups = false` in config.toml leaves them out (the server then runs Textual's own code).
`install(names)` is idempotent; `uninstall()` puts Textual back as it was (tests say which guards
they run with, through fixtures).

Besides the guards: the helpers the SSH driver and the mirror need (a parser, painting at once, a
full frame, an app's context), and the non-Textual privates, each with why:
- asyncio `loop._ready` (`run_first`): a keypress's callbacks run before the queue of other sessions'.
- asyncssh `chan._process_env_request` (`bound_env_requests`): asyncssh keeps every env request in an
  unbounded dict; a session keeps only the few it reads.
- asyncssh `conn._inpbuf` and `conn._transport` (`meter_connection`): asyncssh keeps what a client
  sends and what it has not read without bound; past a bound the connection is dropped.
- asyncssh `chan._process_x11_req_request`, `_process_auth_agent_req_at_openssh_dot_com_request` (`meter_connection`):
  asyncssh answers them in a task while the channel's next requests wait, unbounded.
- Rich `console._color_system` (`render_in_truecolor`): every app renders in truecolor, and each
  session downgrades its own output (a Rich Style caches its codes process-wide).

Upgrading Textual: change the pin, run tests/ssh and tests/tui; a `GuardBroken` names the guard and
the internal that moved; re-read that guard against the new Textual, then update PINNED.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import importlib
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import textual
from rich.color import ColorSystem
from rich.control import Control
from textual.driver import Driver

PINNED = "8.2.8"


class TextualChanged(RuntimeError):
    """Textual is not the version this module was written against."""


class GuardBroken(TextualChanged):
    """A guard's Textual internal is missing: the message names the guard and the internal."""


def check_version(found: str | None = None) -> None:
    found = textual.__version__ if found is None else found
    if found != PINNED:
        raise TextualChanged(
            f"cardroom's Textual adapter (cardroom/textual_adapter.py) is written for textual=={PINNED}, "
            f"but textual {found} is installed: install textual=={PINNED}, or upgrade the adapter "
            "(its docstring says how)")


check_version()


# -- guards ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Guard:
    name: str
    kind: str                       # "fix" or "speedup"
    # "module:Class.attribute" checked at install. What a guard reads of instances (an app's
    # `_filters`, a widget's `_parent`...) cannot be checked so: the version pin and the guard's
    # test in tests/ssh/test_guards.py cover those.
    relies_on: tuple[str, ...]
    patches: Callable[[], list[tuple[Any, str, Any]]]    # what to set: (owner, attribute, value)


_MISSING = object()
_GUARDS: dict[str, Guard] = {}
_installed: dict[str, list[tuple[Any, str, Any]]] = {}   # name -> (owner, attribute, original)


def _guard(name: str, kind: str, *relies_on: str):
    def register(patches: Callable[[], list[tuple[Any, str, Any]]]):
        _GUARDS[name] = Guard(name, kind, relies_on, patches)
        return patches
    return register


def _resolve(path: str) -> Any:
    module_name, _, attributes = path.partition(":")
    owner: Any = importlib.import_module(module_name)
    for attribute in attributes.split(".") if attributes else ():
        owner = getattr(owner, attribute)
    return owner


def check(name: str) -> None:
    """Raise GuardBroken if an internal the guard relies on is missing."""
    guard = _GUARDS[name]
    for path in guard.relies_on:
        try:
            _resolve(path)
        except (ImportError, AttributeError):
            raise GuardBroken(f"the {guard.kind} guard {name!r} (cardroom/textual_adapter.py) relies on "
                              f"{path}, which textual {textual.__version__} does not have: re-check that "
                              f"guard against this Textual") from None


def install(names: Iterable[str]) -> None:
    """Install the named guards (those already installed stay as they are)."""
    for name in names:
        if name in _installed:
            continue
        check(name)
        done = []
        for owner, attribute, value in _GUARDS[name].patches():
            original = vars(owner).get(attribute, _MISSING)
            setattr(owner, attribute, value)
            done.append((owner, attribute, original))
        _installed[name] = done


def uninstall() -> None:
    """Put back everything the guards replaced, latest first."""
    for name in reversed(list(_installed)):
        for owner, attribute, original in reversed(_installed.pop(name)):
            if original is _MISSING:
                delattr(owner, attribute)
            else:
                setattr(owner, attribute, original)
    _CSS_RULES.clear()


def active(name: str) -> bool:
    return name in _installed


def installed() -> tuple[str, ...]:
    return tuple(_installed)


# -- fixes ----------------------------------------------------------------------------------------

class _NoRedirect(contextlib.AbstractContextManager):
    """Stands in for contextlib.redirect_stdout/stderr inside textual.app."""

    def __init__(self, new_target: Any = None) -> None:
        self._new_target = new_target

    def __exit__(self, *exc_info: object) -> None:
        return None


@_guard("print-redirect", "fix", "textual.app:redirect_stdout", "textual.app:redirect_stderr")
def _print_redirect():
    """App._process_messages wraps the whole app run in `redirect_stdout(self._capture_stdout)` /
    `redirect_stderr(...)`, which assign the process globals sys.stdout/sys.stderr. With
    overlapping sessions they end up pointing at whichever app exited last (a dead app):
    tracebacks vanish and that app stays alive. textual.app imported the two names into its
    module namespace, so replacing them there neutralises exactly that use and nothing else in
    the process. The server never print()s; it logs."""
    import textual.app as textual_app
    return [(textual_app, "redirect_stdout", _NoRedirect), (textual_app, "redirect_stderr", _NoRedirect)]


@_guard("editing-keys-in-place", "fix", "textual.widgets:Input._on_key", "textual.widgets:TextArea._on_key")
def _editing_keys_in_place():
    """An Input's (or TextArea's) editing keys keep their place among the characters typed
    (Textual issue #6605; textual==8.2.8 has it).

    The widget inserts a printable key as soon as the key reaches it, but its bound keys
    (backspace, delete, the arrows, home/end, ctrl+k, enter...) bubble up through every
    container to the app, one message queue at a time, before the app's binding check runs their
    action. Keys that arrive together, as they do over ssh when one packet carries several, then
    apply out of order: "105", backspace, "0" typed quickly left $105 in a bet box instead of
    $100. Here the widget runs its own binding for the key as it receives it, in order with the
    characters; what the app's binding check would have found first for the key, since the
    focused widget heads the binding chain. Keys it does not bind itself still bubble.
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

        on_key_in_order.textual = on_key         # type: ignore[attr-defined]  # Textual's own, kept on the patch
        return on_key_in_order

    return [(cls, "_on_key", in_order(vars(cls)["_on_key"])) for cls in (Input, TextArea)]


# How long keys typed ahead wait for the screen they open before going wherever they would have.
TYPEAHEAD_WAIT = 2.0


@_guard("keys-wait-for-their-screen", "fix", "textual.message_pump:MessagePump._dispatch_message",
        "textual.app:App._screen_stack", "textual.screen:Screen._mounted_event")
def _keys_wait_for_their_screen():
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
    from weakref import WeakKeyDictionary

    from textual import events
    from textual.app import App
    from textual.message_pump import MessagePump

    if "_dispatch_message" in vars(App):
        raise GuardBroken("the fix guard 'keys-wait-for-their-screen' (cardroom/textual_adapter.py) "
                          "relies on App inheriting MessagePump._dispatch_message, which App now "
                          "defines itself: re-check that guard against this Textual")
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
            except TimeoutError:
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

    dispatch_after_typeahead.textual = dispatch       # type: ignore[attr-defined]  # Textual's own, kept on the patch
    return [(App, "_dispatch_message", dispatch_after_typeahead)]


@_guard("keys-meet-bindings-at-once", "fix", "textual.app:App.on_event", "textual.app:App._check_bindings",
        "textual._dispatch_key:dispatch_key", "textual.screen:Screen._clear_tooltip")
def _keys_meet_bindings_at_once():
    """A key that nothing on its way would handle meets the bindings in the turn it reaches the app.

    Textual forwards a key to the focused widget and lets it bubble up the DOM one message queue
    at a time; only when it is back at the app does the app's key handler check the bindings of
    that same chain. On a table screen that is six loop turns (the app, the chat log, its pane, a
    row, the screen, the app again), and on a busy server each turn waits behind every other
    session's ready work: a player's key took six of those waits to reach its binding. When no
    node on the way would do anything with the key (no key handler of its own, as Input, TextArea
    and Select have; no `key_<name>` method for it; each node would accept the message and pass it
    on), the app does at once what its key handler would do when the key came back: check the
    bindings, else its own key methods. Otherwise the key goes Textual's way. The priority
    bindings, the focus and the tooltip are handled first as in `App.on_event`.

    A fix, not only a speedup: keys-wait-for-their-screen needs it. A key's binding that opens a
    screen must run before the next key of the same packet is dispatched, so that key finds the
    screen not yet mounted and waits for it; by Textual's way the next keys were dispatched while
    the first was still bubbling and reached the screen below ("r10" Enter answered "").
    """
    from textual import events
    from textual._dispatch_key import dispatch_key
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.widget import Widget

    on_event = App.on_event
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
        focused = app.focused or screen
        if not focused.is_attached:
            return False
        names = event.name_aliases
        node: MessagePump | None = focused
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

    on_event_bindings_at_once.textual = on_event       # type: ignore[attr-defined]  # Textual's own, kept on the patch
    return [(App, "on_event", on_event_bindings_at_once)]


TYPING_FIXES = ("editing-keys-in-place", "keys-meet-bindings-at-once", "keys-wait-for-their-screen")
FIXES = ("print-redirect", *TYPING_FIXES)


# -- speedups -------------------------------------------------------------------------------------

@_guard("no-cursor-blink", "speedup", "textual.widgets:Input.cursor_blink", "textual.widgets:TextArea.cursor_blink")
def _no_cursor_blink():
    """A blinking cursor is a 0.5 s timer plus a repaint in every session.

    Input and TextArea declare `cursor_blink = reactive(True)`; flip the descriptor's default so
    every widget created in this process starts steady (a widget may still opt in explicitly).
    """
    from textual.widgets import Input, TextArea

    descriptors = [vars(cls)["cursor_blink"] for cls in (Input, TextArea)]
    if not all("_default" in vars(d) for d in descriptors):
        raise GuardBroken("the speedup guard 'no-cursor-blink' relies on reactive._default: re-check it")
    return [(d, "_default", False) for d in descriptors]


@_guard("uncycled-strips", "speedup", "textual.strip:Strip.crop_extend", "textual.strip:Strip.divide")
def _uncycled_strips():
    """Textual's Strip caches derived strips in itself; when a crop or a divide changes nothing the
    result is the strip itself, so the strip ends up in its own cache: a reference cycle per line
    drawn, which only the cyclic collector can free. In one app that is harmless; here the GC
    policy (ssh/gcpolicy.py) freezes survivors every few seconds, so those cycles were kept until the
    next full collection: the ssh benchmark's server grew 90-190 MB a minute with 150 sessions.
    The two methods below return the strip itself without caching it in those cases (same result).
    """
    from textual.strip import Strip

    crop_extend, divide = Strip.crop_extend, Strip.divide

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

    return [(Strip, "crop_extend", crop_extend_uncycled), (Strip, "divide", divide_uncycled)]


@_guard("repaint-only-what-changed", "speedup", "textual._compositor:Compositor.render_partial_update",
        "textual._compositor:Compositor.render_full_update", "textual._compositor:Compositor.render_strips",
        "textual._compositor:Compositor._get_renders",
        "textual._compositor:Compositor.visible_widgets")
def _repaint_only_what_changed():
    """A partial repaint renders only the widgets that show in a changed region.

    Textual's Compositor.render_partial_update renders every visible widget under the bounding
    box of the changed regions; on a table screen a change to the felt (top left), the chat (right)
    and the footer (bottom) is the whole screen, so every widget was asked for its lines on every
    action, in every session. Only the changed spans are written to the terminal, and every cell of
    a span belongs to some changed region, where the widget drawn is the topmost one there: a
    widget overlapping no changed region never reaches the terminal, and neither does one whose
    part of every changed region is covered by widgets drawn above it (a container under the felt
    and the chat: five of them were rendered for nothing on every action, a quarter of a
    repaint). A full repaint (a new screen, a layout) leaves out the widgets covered everywhere
    in the same way, and so does the drawing of the screen under a dialog (drawn whole, dimmed,
    behind it: a tenth of a player's login, who buys in through one). The output is the same (tests/ssh/test_guards.py compares it with Textual's
    on real screens).
    """
    from textual._compositor import Compositor
    from textual.geometry import Region

    render_partial_update, get_renders = Compositor.render_partial_update, Compositor._get_renders
    render_full_update, render_strips = Compositor.render_full_update, Compositor.render_strips

    # `self: Any` in these three: each sets our mark, _cardroom_changed, which Compositor does not declare.
    def render_partial_update_changed_only(self: Any) -> Any:
        self._cardroom_changed = list(self._dirty_regions)      # read by the filter below
        try:
            return render_partial_update(self)
        finally:
            self._cardroom_changed = None

    def render_full_update_shown_only(self: Any, simplify: bool = False) -> Any:
        self._cardroom_changed = [self.size.region]             # everything changed
        try:
            return render_full_update(self, simplify)
        finally:
            self._cardroom_changed = None

    def render_strips_shown_only(self: Any, size: Any = None) -> Any:
        # The screen under a dialog, drawn dimmed behind it (textual's BackgroundScreen).
        self._cardroom_changed = [(self.size if size is None else size).region]
        try:
            return render_strips(self, size)
        finally:
            self._cardroom_changed = None

    def get_renders_changed_only(self: Compositor, crop: Region | None = None) -> Any:
        changed = getattr(self, "_cardroom_changed", None)
        if not changed or crop is None:
            return get_renders(self, crop)
        keep = {}
        above: list[Region] = []        # what the widgets kept so far show: drawn over the next
        for widget, (region, clip) in self.visible_widgets.items():     # the topmost first
            shown = region.intersection(clip)
            parts = [shown.intersection(r) for r in changed if shown.overlaps(r)]
            if parts and not all(_covered(part, above) for part in parts):
                keep[widget] = (region, clip)
                above.append(shown)
        self._visible_widgets, saved = keep, self._visible_widgets
        try:
            return list(get_renders(self, crop))     # a generator: run it while the filter holds
        finally:
            self._visible_widgets = saved

    render_partial_update_changed_only.textual = render_partial_update  # type: ignore[attr-defined]  # Textual's own, kept on the patch
    render_full_update_shown_only.textual = render_full_update          # type: ignore[attr-defined]  # Textual's own, kept on the patch
    render_strips_shown_only.textual = render_strips                    # type: ignore[attr-defined]  # Textual's own, kept on the patch
    return [(Compositor, "render_partial_update", render_partial_update_changed_only),
            (Compositor, "render_full_update", render_full_update_shown_only),
            (Compositor, "render_strips", render_strips_shown_only),
            (Compositor, "_get_renders", get_renders_changed_only)]


def _covered(part: Any, regions: list[Any]) -> bool:
    """Whether every cell of the region `part` is in one of `regions`."""
    spans = [(r.x, r.right, r.y, r.bottom) for r in regions if r.overlaps(part)]
    right = part.right
    for y in range(part.y, part.bottom):
        reach = part.x
        for x1, x2 in sorted((x1, x2) for x1, x2, top, bottom in spans if top <= y < bottom):
            if x1 > reach:
                return False
            reach = max(reach, x2)
            if reach >= right:
                break
        if reach < right:
            return False
    return True


def compositor_class() -> type:
    """Textual's private Compositor (textual._compositor), handed out here so that the test comparing
    the partial repaint with Textual's own need not import a Textual private module itself."""
    from textual._compositor import Compositor
    return Compositor


def compositor_of(screen: Any) -> Any:
    """A screen's private Compositor (`Screen._compositor`), for the same test."""
    return screen._compositor


def filters_of(app: Any) -> list[Any]:
    """The app's output filters (`App._filters`): the truecolor-filter guard shares one per theme."""
    return app._filters


def bind_key(node: Any, key: str, action: str) -> None:
    """Bind `key` on a screen or widget at run time (`DOMNode._bindings`; Textual has no public way)."""
    node._bindings.bind(key, action)


def textuals_own(owner: Any, name: str) -> Any:
    """Textual's own function that a guard replaced on `owner` (kept on the patch as `.textual`):
    the guards' tests put it back to show what goes wrong without the guard."""
    return getattr(owner, name).textual


def mark_dirty(compositor: Any, regions: Iterable[Any]) -> None:
    """Make `regions` the compositor's changed regions (`Compositor._dirty_regions`), as a refresh
    of those widgets would: the same test repaints them with the guard and with Textual's own code."""
    compositor._dirty_regions.clear()
    compositor._dirty_regions.update(regions)


@_guard("one-truecolor-filter-per-theme", "speedup", "textual.app:App._refresh_truecolor_filter",
        "textual.app:App._watch_ansi_color", "textual.filter:ANSIToTruecolor")
def _one_truecolor_filter_per_theme():
    """Every app shares one ANSI-to-truecolor line filter per terminal theme (and on/off).

    Each Textual app makes its own filter, and a Strip caches what a filter made of it under the
    (filter, background) pair, four pairs at most: the line-drawn strips shared by every session
    (tui/widgets/lines.py) were filtered again for each session that drew them (py-spy, 300
    sessions: 11.7% of the server in that filtering), and the filter's own lru_cache of 1,024
    styles, keyed by the filter, was shared by hundreds of filters. A filter holds nothing but
    its theme and whether it is on, so apps with the same two share one. Textual switches it on
    or off by setting `enabled` on the app's filter; with shared filters that would switch it for
    every app, so the app gets the shared filter for the new state instead. An app built before
    the guard was installed gets the shared filter from `share_truecolor_filter`.
    """
    from textual.app import App
    from textual.filter import ANSIToTruecolor

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

    return [(App, "_refresh_truecolor_filter", refresh_truecolor_filter_shared),
            (App, "_watch_ansi_color", watch_ansi_color_shared)]


# The one CSS cache: (variables, the _parse_rules arguments) -> parsed rules, for every app.
_CSS_RULES: dict[tuple, list] = {}
_CSS_RULES_MAX = 1024


@_guard("css-parsed-once-per-process", "speedup", "textual.css.stylesheet:Stylesheet._parse_rules")
def _css_parsed_once_per_process():
    """Every app shares the rules parsed from the same CSS under the same CSS variables.

    Each app's Stylesheet parses every widget class's DEFAULT_CSS for itself, and again in each
    fresh Stylesheet that `reparse()` builds (its cache is per instance): a login parsed its 32
    sources afresh, 27-31 ms of a 300-400 ms login. The rules depend only on the CSS text, where it
    was read from, the flags passed here and the variables (the theme), and Textual only reads them
    after parsing, so one process-wide cache keyed on all of those serves every session. Rules with
    errors are not kept: each app reports its own.
    """
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules

    # `self: Any`: a Stylesheet, which does not declare our memo (_cardroom_variables).
    def parse_rules_shared(self: Any, css: str, read_from: Any, is_default_rules: bool = False,
                           tie_breaker: int = 0, scope: str = "") -> list:
        # The variables as a key, made once per variables dict of this stylesheet (168 of them:
        # 11 us a freezing, and a login asks some 195 times).
        variables, memo = self._variables, getattr(self, "_cardroom_variables", None)
        if memo is None or memo[0] is not variables:
            memo = self._cardroom_variables = (variables, frozenset(variables.items()))
        key = (memo[1], css, read_from, is_default_rules, tie_breaker, scope)
        rules = _CSS_RULES.get(key)
        if rules is None:
            rules = parse_rules(self, css, read_from, is_default_rules, tie_breaker, scope)
            if any(rule.errors for rule in rules):
                return rules
            if len(_CSS_RULES) >= _CSS_RULES_MAX:
                _CSS_RULES.clear()
            _CSS_RULES[key] = rules
        return rules

    return [(Stylesheet, "_parse_rules", parse_rules_shared)]


@_guard("no-layout-at-the-same-size", "speedup", "textual.screen:Screen._screen_resized",
        "textual._compositor:Compositor.reflow")
def _no_layout_at_the_same_size():
    """A screen told of a resize is laid out again only if its size changed.

    Textual lays a screen out (a reflow of every widget, then a full repaint) each time it is told
    of a resize, and lays out the screens under it too. A new screen's first layout posts the
    screen a Resize of its own, so it is laid out twice at the same size, and the screen under it
    twice more, whose repaint then repaints the whole of the screen on top again: a login (welcome,
    lobby, a table) was 21 full layouts, 14 of them at a size the screen already had. The app
    itself ignores a terminal's resize to the size it has, so every Resize that reaches a screen
    at the size it was laid out at is one of those echoes; a screen that has a layout pending for
    another reason (a widget asked for one) still gets it on its update timer, as always.
    """
    from textual.screen import Screen

    screen_resized = Screen._screen_resized

    def screen_resized_if_changed(self: Screen, size: Any) -> None:
        if self._compositor.size == size:      # laid out at this size already (never: 0x0)
            return
        screen_resized(self, size)

    screen_resized_if_changed.textual = screen_resized     # type: ignore[attr-defined]  # Textual's own, kept on the patch
    return [(Screen, "_screen_resized", screen_resized_if_changed)]


@_guard("style-a-new-screen-once", "speedup", "textual.screen:Screen._on_screen_resume",
        "textual.events:ScreenResume.refresh_styles")
def _style_a_new_screen_once():
    """A screen shown for the first time is not styled again from top to bottom.

    Textual styles each widget as it is mounted, then, when a pushed screen is first shown, styles
    every node of the screen once more (`ScreenResume.refresh_styles`), in case the stylesheet
    changed while the screen was away: 12% of a login's CPU for three screens that had only just
    been styled. A new screen has not been away, and what changes a mounted node's styles (its
    classes, its focus, a child mounted before it, the theme) restyles that node there and then;
    a screen shown again is styled again as Textual does.
    """
    from textual.screen import Screen

    on_screen_resume = Screen._on_screen_resume

    def on_screen_resume_styled_once(self: Any, event: Any) -> None:     # a Screen, with our mark
        if not getattr(self, "_cardroom_shown", False):
            self._cardroom_shown = True
            event.refresh_styles = False        # styled as it was mounted, just now
        on_screen_resume(self, event)

    on_screen_resume_styled_once.textual = on_screen_resume     # type: ignore[attr-defined]  # Textual's own, kept on the patch
    return [(Screen, "_on_screen_resume", on_screen_resume_styled_once)]


@_guard("paint-at-once", "speedup", "textual.screen:Screen._on_timer_update")
def _paint_at_once():
    """No patch: switches `paint_now` on for hosted apps (ssh/hosting.py: a player's own action
    is painted without waiting)."""
    return []


@_guard("key-first", "speedup")
def _key_first():
    """No patch: switches `run_first` on (a keypress's callbacks go to the front of the loop)."""
    return []


SPEEDUPS = ("no-cursor-blink", "uncycled-strips", "repaint-only-what-changed", "one-truecolor-filter-per-theme",
            "css-parsed-once-per-process", "no-layout-at-the-same-size", "style-a-new-screen-once",
            "paint-at-once", "key-first")


def server_guards(speedups: bool) -> tuple[str, ...]:
    """The guards a server installs: every fix, and the speedups unless config.toml turns them off."""
    return FIXES + SPEEDUPS if speedups else FIXES


# -- painting -------------------------------------------------------------------------------------

def paint_now(app: Any) -> None:
    """Paint what changed on the app's screen now, as Textual would a few loop turns later.

    Why: a widget's refresh reaches the terminal through four turns of the loop (the widget's
    Idle, an Update message to the screen, the screen's Idle, its update timer), and on a busy
    server each turn waits behind every other session's ready work: at 1,000 sessions a player's
    own action took ~140 ms from the room to their screen. The table screen has this called
    right after the player's own action (through its hosting, ssh/hosting.py). Widgets waiting
    for a plain repaint (visible; no layout or style change pending, those keep Textual's path)
    are handed to the screen as its Update handler would, and the screen's update runs as its
    timer would."""
    screen = app.screen
    if not screen.is_current or app._batch_count:
        return
    visible = screen._compositor.visible_widgets
    dirty = screen._dirty_widgets
    for widget in screen.walk_children(with_self=False):
        if widget._repaint_required and widget in visible and not widget._layout_required \
                and not widget._refresh_styles_required:
            widget._repaint_required = False
            dirty.add(widget)
    if dirty:
        screen._on_timer_update()


def full_frame(app: Any) -> str | None:
    """Everything the app's screen shows, as the bytes that draw it on a terminal (as Textual's
    display writes a frame), or None when the app cannot draw now. Used to bring a terminal that
    joins a shared drawing (ssh/mirror.py) to what the app's own terminal shows; the screen's
    pending updates are left pending."""
    if not app._running or app._closed or app._batch_count:
        return None
    return in_app_context(app, _full_frame, app)     # called from another session's task


def _full_frame(app: Any) -> str | None:
    screen = app.screen
    if not screen.is_current or screen.outer_size != app.size:
        return None
    compositor = screen._compositor
    pending = set(compositor._dirty_regions)
    update = compositor.render_full_update()
    compositor._dirty_regions.update(pending)
    cursor = screen.outer_size.clamp_offset(app.cursor_position)
    return update.render_segments(app.console) + Control.move_to(*cursor).segment.text


def in_app_context(app: Any, func: Any, *args: Any) -> Any:
    """Run `func(*args)` with `app` as Textual's active app. Widgets find "their" app through a
    context variable, so code of one session that calls into another session's app (a shared
    drawing handed over, ssh/mirror.py) must set it, or `widget.app` is the caller's app."""
    with app._context():
        return func(*args)


def share_truecolor_filter(app: Any) -> None:
    """An app built before the filter guard was installed takes the shared filter now."""
    if active("one-truecolor-filter-per-theme"):
        app._refresh_truecolor_filter(app.ansi_theme)


def render_in_truecolor(app: Any) -> None:
    """Textual renders with app.console's colour system, but a Rich Style caches its SGR string
    process-wide for whichever system rendered it first, so two sessions with different depths
    would poison each other. Every app renders in truecolor (Rich's Console has no setter for it)
    and each session downgrades its own output."""
    app.console._color_system = ColorSystem.TRUECOLOR


def message_backlog(app: Any) -> int:
    """Messages waiting in the app's queue (Textual exposes no count)."""
    queue = getattr(app, "_message_queue", None)
    return queue.qsize() if queue is not None else 0


def toasts(app: Any) -> Iterable[Any]:
    """The notifications the app shows now (Textual exposes no list)."""
    return app._notifications


# -- input ----------------------------------------------------------------------------------------

def new_parser() -> Any:
    """Textual's terminal input parser (a private module). debug=True would make it append every
    key to ./keys.log: never for a server."""
    from textual._xterm_parser import XTermParser
    return XTermParser(False)


def escape_pending(parser: Any) -> bool:
    """Whether the parser holds a lone ESC that only `parser.tick()` will release."""
    return parser._timeout_time is not None


def end_parser(parser: Any) -> None:
    """Free a parser that is done with: its `_parse_extended_key` is lru_cached on `self`, so the
    process-wide cache keeps every parser alive; its suspended generator holds the last Key
    events, whose sender is the App. End of file ends the generator and frees them."""
    if not parser.is_eof:
        contextvars.Context().run(lambda: list(parser.feed("")))


# -- the non-Textual privates ---------------------------------------------------------------------

def run_first(loop: asyncio.AbstractEventLoop | None, func: Callable[[], Any]) -> None:
    """Call `func`, and with the key-first speedup move the callbacks it queued on `loop` ahead of
    those queued before it, in their order.

    A person's keypress is a few callbacks; on a server with a thousand sessions the loop's queue
    holds tens of milliseconds of other sessions' work (the ssh benchmark: p99 key -> own screen
    142 ms at 1,000 sessions, most of it waiting). Only the order changes: the loop runs everything
    it would have run. CPython's event loops keep that queue in `loop._ready`, a deque; a loop
    that keeps it elsewhere simply runs the key in its turn.
    """
    ready = getattr(loop, "_ready", None) if active("key-first") else None
    if not isinstance(ready, deque):
        func()
        return
    since = len(ready)
    func()
    moved = len(ready) - since
    if moved > 0:
        ready.extendleft([ready.pop() for _ in range(moved)])    # popped last-first, laid back first-first


def bound_env_requests(chan: Any, handler: Callable[[Any], bool]) -> None:
    """Let `handler(packet)` answer the channel's env requests instead of asyncssh, which stores
    every one in an unbounded dict. asyncssh dispatches channel requests by
    getattr(chan, "_process_<name>_request") and has no public hook, so an instance attribute
    replaces it."""
    chan._process_env_request = handler


# What the two functions above replace or read, on asyncssh's classes (`check_asyncssh`); a
# connection's `_inpbuf` and `_transport` exist only once it is made (tests/ssh/test_budget.py).
_ASYNCSSH_CONNECTION = ("process_packet", "add_channel", "data_received", "pause_writing")
_ASYNCSSH_CHANNEL = ("_process_env_request", "_process_x11_req_request",
                     "_process_auth_agent_req_at_openssh_dot_com_request")


def check_asyncssh(connection_class: type, channel_class: type) -> None:
    """Raise GuardBroken naming what is missing if asyncssh's server connection or channel no
    longer has a method `bound_env_requests` or `meter_connection` replaces. (The adapter imports
    no asyncssh: the SSH layer hands its classes over as the server starts.)"""
    for cls, names in ((connection_class, _ASYNCSSH_CONNECTION), (channel_class, _ASYNCSSH_CHANNEL)):
        missing = [name for name in names if not callable(getattr(cls, name, None))]
        if missing:
            raise GuardBroken(f"cardroom/textual_adapter.py bounds what asyncssh keeps per connection "
                              f"through {cls.__name__}.{', .'.join(missing)}, which this asyncssh does "
                              "not have: re-check bound_env_requests and meter_connection against it")


def meter_connection(conn: Any, *, spend: Callable[[int], None], max_unparsed: int, max_unsent: int,
                     overflow: Callable[[str], None]) -> None:
    """Bound what one client can make asyncssh hold for its connection (issue 34: a client's
    tcpip-forward requests grew the server by 20 MiB/s). asyncssh has no hook for any of these, so
    instance attributes of the connection (and of each channel, as it is added) replace its methods:

    - `spend(number)` is called with the message number of each message the connection handles
      itself (user-auth requests, global requests, channel opens, ignore, debug and unknown
      messages, re-keying: all but the key exchange's and the channels' own) before it does. It
      raises (a DisconnectError) to refuse: asyncssh then sends the disconnect and closes.
      asyncssh answers tcpip-forward and streamlocal-forward in a task, and the requests arriving
      meanwhile wait in an unbounded list.
    - A channel's x11-req and auth-agent-req are refused at once, each spent as an
      SSH_MSG_CHANNEL_REQUEST (98): asyncssh answers those in a task too (the server never
      forwards either), and the channel's next requests wait in an unbounded list.
    - Bytes received but not parsed yet: asyncssh stops parsing while it checks a login (a task
      for each user-auth request) and appends all that arrives meanwhile to `conn._inpbuf`. Past
      `max_unparsed`, `overflow("input")` and the data is dropped.
    - Output not yet taken by the peer's socket: past `max_unsent` (asyncio's high-water mark on
      the transport, which asyncssh leaves at 64 KiB and ignores), `overflow("output")`.
    """
    process = conn.process_packet

    def metered(pkttype: int, pktid: int, packet: Any) -> Any:
        spend(pkttype)
        return process(pkttype, pktid, packet)

    def refuse(packet: Any) -> bool:
        spend(98)
        return False

    add_channel = conn.add_channel

    def added(chan: Any) -> int:
        chan._process_x11_req_request = refuse
        chan._process_auth_agent_req_at_openssh_dot_com_request = refuse
        return add_channel(chan)

    received = conn.data_received

    def bounded(data: bytes, datatype: Any = None) -> None:
        if len(conn._inpbuf) + len(data) > max_unparsed:
            overflow("input")
            return
        received(data, datatype)

    conn.process_packet = metered
    conn.add_channel = added
    conn.data_received = bounded
    conn.pause_writing = lambda: overflow("output")
    conn._transport.set_write_buffer_limits(high=max_unsent)



# -- a driver base ----------------------------------------------------------------------------------

class HostedDriver(Driver):
    """Textual's Driver with public names for the members a driver of our own uses: Driver keeps
    them private (`_app`, `_mouse`, `_size`), and App.size reads `_size` of its driver."""

    @property
    def app(self) -> Any:
        return self._app

    @property
    def mouse(self) -> bool:
        return self._mouse

    @property
    def size(self) -> tuple[int, int] | None:
        return self._size

    @size.setter
    def size(self, size: tuple[int, int]) -> None:
        self._size = size
