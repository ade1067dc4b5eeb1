"""Railbirds who would see the same screen share one drawing of it.

Most sessions at a busy table are railbirds, and a railbird's table screen depends only on the
table and on how the session shows it (size, theme, options, the admin key): the 1,000-session
ssh benchmark had ~32 of them a table, each re-reading the table and repainting the very same
picture (~10 ms of the one core apiece) after every action. So sessions whose apps say they would
draw the same (`app.share_key()`, equal keys: tui/hosting.py HostedApp) form a group: one app, the
leader, draws as usual, and what it writes goes to every member's terminal too; the members' own
apps stop re-reading the room and ticking (they keep their state for when they leave).

Why sharing bytes is sound: a Textual frame is position-absolute (each run of cells is a cursor
move, a complete SGR and the text, as Textual writes a frame), so the leader's updates apply to any
terminal that shows what the leader's does. A member joins by being sent the leader's whole
screen once; colours are still downgraded per member (the driver renders everything in
truecolor and downgrades in `to_terminal`).

A member leaves as soon as its own screen would differ: a key, a click, a paste or a resize from
its terminal (and it stays out for `quiet` seconds after its last input, so a busy hand on the
keyboard does not rejoin after every key); its share key changing (a page or toast, a dialog, it
sat down somewhere; checked on every write and on every room change); its app ending. It then
reads the room again and draws its whole screen itself. When the leader leaves, another member
takes over and draws its whole screen, which resets every member's terminal to its drawing.

A session's membership is made and ended by its hosting (ssh/hosting.py SessionHosting).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any, Protocol

from cardroom.textual_adapter import full_frame, in_app_context

if TYPE_CHECKING:
    from cardroom.tui.hosting import HostedApp


class Terminal(Protocol):
    """Where a member's drawing goes: its session's driver (ssh/driver.py Terminal), by
    the one method a group calls."""

    def to_terminal(self, data: str, converted: dict[Any, str] | None = None) -> None:
        """Send `data` to this terminal (`converted`: the group's copies per colour depth)."""


class Group:
    __slots__ = ("key", "leader", "followers")

    def __init__(self, key: Hashable, leader: Member) -> None:
        self.key = key
        self.leader = leader
        self.followers: dict[Member, None] = {}    # insertion-ordered set


class Mirrors:
    """The groups of one server. `member(app)` makes an app's membership (not yet in a group)."""

    def __init__(self, *, quiet: float = 5.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.quiet = quiet
        self.clock = clock
        self.groups: dict[Hashable, Group] = {}
        self.joins = 0              # counters for the ssh benchmark
        self.leaves: dict[str, int] = {"input": 0, "changed": 0, "ended": 0}    # by why
        self.shared = 0             # writes sent to a follower's terminal

    def member(self, app: HostedApp) -> Member:
        return Member(self, app)

    @property
    def following(self) -> int:
        return sum(len(g.followers) for g in self.groups.values())


class Member:
    """One session's place in a group (or in none). The session's driver calls `own_write` for
    everything its app writes, `input()` for what its terminal sends, `detach()` when it ends; the
    session's hosting calls `check()` when the room changed while it follows."""

    __slots__ = ("mirrors", "app", "driver", "group", "last_input", "__weakref__")

    def __init__(self, mirrors: Mirrors, app: HostedApp) -> None:
        self.mirrors = mirrors
        self.app = app
        self.driver: Terminal | None = None
        self.group: Group | None = None
        self.last_input = float("-inf")

    @property
    def following(self) -> bool:
        g = self.group
        return g is not None and g.leader is not self

    @property
    def leading(self) -> bool:
        g = self.group
        return g is not None and g.leader is self and bool(g.followers)

    def _key(self) -> Hashable | None:
        # share_key reads only the app's own screen stack and room state: safe from any task.
        try:
            return self.app.share_key()
        except Exception:           # an app half built or torn down shares nothing
            return None

    # -- called by the driver -------------------------------------------------------------------
    def attach(self, driver: Terminal) -> None:
        self.driver = driver

    def own_write(self, data: str) -> bool:
        """The app wrote `data`: True if the driver should send it to this terminal itself."""
        g = self.group
        key = self._key()
        if g is not None:
            if key == g.key:
                if g.leader is self:
                    mirrors = self.mirrors
                    # A copy: a follower whose peer vanished (or stopped reading) leaves the
                    # group from inside its send.
                    converted: dict = {}     # colour depth -> data: downgraded once per depth
                    for f in list(g.followers):
                        driver = f.driver
                        if driver is not None:
                            driver.to_terminal(data, converted)
                            mirrors.shared += 1
                    return True
                return False        # the leader's drawing of the same thing is on this terminal
            self._leave("changed")
            return True
        mirrors = self.mirrors
        if key is None or self.driver is None or mirrors.clock() - self.last_input < mirrors.quiet:
            return True
        g = mirrors.groups.get(key)
        if g is None:
            mirrors.groups[key] = self.group = Group(key, self)
            return True
        frame = full_frame(g.leader.app)
        if frame is None:
            return True             # the leader cannot draw just now; try again on a later write
        send = self.driver.to_terminal
        send(data)                  # this terminal then shows this app's drawing ...
        send(frame)                 # ... and then the leader's whole screen
        g.followers[self] = None
        self.group = g
        mirrors.joins += 1
        return False

    def input(self) -> None:
        """The terminal sent input (or resized): this session's screen is its own again."""
        self.last_input = self.mirrors.clock()
        if self.group is not None:
            self._leave("input")

    def detach(self) -> None:
        """The session ends (or stops drawing): out of any group, for good."""
        if self.group is not None:
            self._leave("ended", redraw=False)
        self.driver = None

    # -- called by the hosting ------------------------------------------------------------------
    def check(self) -> None:
        """Leave the group if this app's screen would no longer be the group's."""
        g = self.group
        if g is not None and self._key() != g.key:
            self._leave("changed")

    # -------------------------------------------------------------------------------------------
    def _leave(self, why: str, redraw: bool = True) -> None:
        g = self.group
        assert g is not None
        self.group = None
        mirrors = self.mirrors
        mirrors.leaves[why] += 1
        if g.leader is self:
            if g.followers:
                # Another member takes over: its app redraws everything, and that drawing (its
                # key is the group's) goes to every member, replacing what this one drew.
                new = next(iter(g.followers))
                del g.followers[new]
                g.leader = new
                _redraw(new.app)
            else:
                del mirrors.groups[g.key]
            return                  # this terminal shows this app's own drawing already
        del g.followers[self]
        if redraw:
            _redraw(self.app)


def _redraw(app: HostedApp) -> None:
    try:
        in_app_context(app, app.redraw_all)     # often called from another session's task
    except Exception:           # an app being torn down: nothing to draw
        pass
