"""What hosts an app: the one interface between the TUI and whatever serves it.

    app = build_app(client, hosting=...)      # NoHosting() unless given

An app on its own (hot-seat, tests) repaints whenever the room says something changed and paints
on Textual's schedule: `NoHosting`. An app served with hundreds of others in one process (the
SSH server, cardroom/ssh/hosting.py) is hosted: the host spreads room-driven repaints over the
loop, seated players first, paints a player's own action at once, and lets railbirds who would
see the same screen share one drawing. The app asks its host only what `Hosting` lists and never
learns how it is done; the host asks the app only what `HostedApp` lists (the app describes its
screen, the host decides). The TUI imports nothing of any host.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol


class HostedApp(Protocol):
    """What a host may ask of the app it hosts: public methods of CardroomApp."""

    def my_tables(self) -> list[str]:
        """Tables this session sits at (a seated player's repaints go before a railbird's)."""
        ...

    def waiting_for_me(self) -> list[str]:
        """Tables waiting for this session's decision (its repaint should not wait at all)."""
        ...

    def share_key(self) -> Hashable | None:
        """Equal for two apps exactly when their screens would be drawn the same; None while the
        screen shows anything of this session's own. Reads no widgets and is cheap: a host may
        ask it on every write, from another session's task."""
        ...

    def redraw_all(self) -> None:
        """Read the room again and draw every cell: the terminal showed another app's drawing."""
        ...


class Hosting(Protocol):
    """What an app asks of its host, on the loop it runs on: `room_changed` from the room's
    callback (often in another session's task: it must touch no widgets), the rest from the
    app's own task."""

    def room_changed(self, app: HostedApp, wake: Callable[[], None]) -> None:
        """The room told `app` something changed. Call `wake()` (the app then re-reads the room
        and repaints, in its own task) now or when the host has time, once however often asked
        meanwhile; or not at all while another app draws this one's screen."""
        ...

    def paint_now(self, app: HostedApp) -> None:
        """The app just updated its widgets (its player's own action, a room change it was woken
        for): put that on the terminal now if the host can, not a few loop turns later."""
        ...

    def drawn_elsewhere(self, app: HostedApp) -> bool:
        """Another app draws this app's screen: it need not re-read the room or tick its clocks."""
        ...

    @property
    def busy(self) -> bool:
        """Repaints wait their turn: an optional one (a railbird's clock tick) may be left out."""
        ...


class NoHosting:
    """An app on its own: it repaints on every change, on Textual's schedule; nothing is shared."""

    busy = False

    def room_changed(self, app: HostedApp, wake: Callable[[], None]) -> None:
        wake()

    def paint_now(self, app: HostedApp) -> None:
        pass

    def drawn_elsewhere(self, app: HostedApp) -> bool:
        return False
