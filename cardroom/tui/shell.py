"""What the screens ask of the app: `Shell`, the base of CardroomApp (tui/app.py) that declares the
members a screen may use through `self.app`. The app imports the screens, so they cannot import it;
they name this instead, for type checkers only (`if TYPE_CHECKING: app = getters.app(Shell)`, as
Textual types its own `self.app`): nothing changes at run time.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Awaitable, Hashable

from textual.app import App
from textual.message import Message

from cardroom.tui.device import Device
from cardroom.tui.hosting import Hosting
from cardroom.tui.options import UIOptions


class Shell(App[Any]):
    # Set by CardroomApp.__init__.
    device: Device                 # who holds this terminal (tui/device.py)
    options: UIOptions
    hosting: Hosting
    # table -> (the hand the holds were for, the held cards' places): kept across switches.
    table_memory: dict[str, tuple[Any, frozenset[int]]]

    if TYPE_CHECKING:
        # CardroomApp's (tui/app.py), which says what each does.
        @property
        def following(self) -> bool: ...
        def navigate(self, message: Message) -> Awaitable[None]: ...
        def my_tables(self) -> list[str]: ...
        def waiting_for_me(self) -> list[str]: ...
        def next_table(self, current: str | None = None) -> str | None: ...
        def open_table(self, name: str, *, replace: bool = False) -> Awaitable[Any]: ...
        def keep(self, values: dict[str, str]) -> None: ...
        def send(self, call: Awaitable[Any]) -> None: ...
        # What its hosting asks of it too (tui/hosting.py HostedApp).
        def share_key(self) -> Hashable | None: ...
        def redraw_all(self) -> None: ...
