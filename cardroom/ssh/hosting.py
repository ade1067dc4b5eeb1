"""How the SSH server hosts its sessions' apps: the TUI's `Hosting` (cardroom/tui/hosting.py).

One `ServerHosting` per server holds what its sessions share: the pacer (ssh/pacing.py), which
spreads room-driven repaints over the loop's turns, seated players first, and, with
`shared_screens` on in config.toml, the groups of railbirds who share one drawing
(ssh/mirror.py). Each session gets a `SessionHosting` of its own (SessionInfo.hosting), which the
app factory hands to the app it builds. Then:
- the app asks it when to repaint, to paint at once, and whether another app draws its screen;
- the session's driver attaches to it as the app builds it (a shared drawing goes through the
  driver) and detaches as the app stops drawing;
- the session calls `ended()` once the app has ended, which runs what the factory asked for
  then (closing the session's room client: its seats are marked disconnected).

Painting at once is one of Textual's speedups (textual_adapter's "paint-at-once"): with
`textual_speedups = false` an app paints on Textual's own schedule.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Protocol

from cardroom import textual_adapter as adapter
from cardroom.ssh.mirror import Member, Mirrors, Terminal
from cardroom.ssh.pacing import Pacer
from cardroom.tui.hosting import HostedApp



class HostedDriver(Terminal, Protocol):
    """What the hosting asks of its session's driver (ssh/driver.py SessionDriver): the app it
    drives, and the terminal a shared drawing goes to."""

    @property
    def app(self) -> HostedApp: ...

log = logging.getLogger("cardroom.ssh")


class ServerHosting:
    """What all the sessions of one server share. `session()` makes one session's hosting."""

    def __init__(self, *, shared_screens: bool = True, pacer: Pacer | None = None,
                 mirrors: Mirrors | None = None) -> None:
        self.pacer = pacer if pacer is not None else Pacer()
        self.mirrors = mirrors if mirrors is not None else Mirrors() if shared_screens else None

    def session(self) -> SessionHosting:
        return SessionHosting(self)


class SessionHosting:
    """One session's hosting (tui.hosting.Hosting): what its app asks, what its driver and the
    session tell it."""

    __slots__ = ("server", "member", "_on_ended")

    def __init__(self, server: ServerHosting) -> None:
        self.server = server
        self.member: Member | None = None       # in a shared drawing's group, or ready to join one
        self._on_ended: list[Callable[[], None]] = []

    # -- asked by the app ---------------------------------------------------------------------
    def room_changed(self, app: HostedApp, wake: Callable[[], None]) -> None:
        member = self.member
        if member is not None and member.following:
            member.check()      # leaves (and redraws the app) if its screen would differ now
            return
        # Seated players first: the one whose turn it is must see it (asked of the room now: a
        # player who just sat down has not processed a change yet). An app that draws for other
        # sessions too goes with them.
        mine = app.my_tables()
        self.server.pacer.request(self, wake, high=bool(mine) or (member is not None and member.leading),
                                  urgent=bool(mine) and bool(app.waiting_for_me()))

    def paint_now(self, app: HostedApp) -> None:
        if adapter.active("paint-at-once"):
            adapter.paint_now(app)

    def drawn_elsewhere(self, app: HostedApp) -> bool:
        member = self.member
        return member is not None and member.following

    @property
    def busy(self) -> bool:
        return self.server.pacer.busy

    # -- told by the driver and the session ---------------------------------------------------
    def attach(self, driver: HostedDriver) -> Member | None:
        """The app built its driver: with shared screens on, the session may join a shared
        drawing from now on. Returns the membership the driver reports writes and input to."""
        mirrors = self.server.mirrors
        if mirrors is not None and self.member is None:
            self.member = mirrors.member(driver.app)
            self.member.attach(driver)
        return self.member

    def detach(self) -> None:
        """The app stops drawing (it is stopping, or the peer vanished): out of any group."""
        member, self.member = self.member, None     # and no app <-> member cycle left behind
        if member is not None:
            member.detach()

    def on_ended(self, callback: Callable[[], None]) -> None:
        """Call `callback()` once the session's app has ended."""
        self._on_ended.append(callback)

    def ended(self) -> None:
        """The session's app has ended (or was never built): let go of it, run the callbacks."""
        self.detach()
        self.server.pacer.forget(self)
        callbacks, self._on_ended = self._on_ended, []
        for callback in callbacks:
            try:
                callback()
            except Exception:       # one failing must not keep the others from running
                log.exception("ending a session's app")
