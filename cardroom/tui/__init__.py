"""The Textual TUI: an app factory, screens, dialogs, widgets and .tcss styles.

    app = build_app(client)                       # one RoomClient: an SSH session or a test
    app = HotSeatApp(HotSeat(...))                # several local players at one terminal

The TUI imports room and engine only (never store or ssh): it renders the views a RoomClient gives
it and sends intents back; every refusal is a RoomError whose message is shown to the user.
"""

from cardroom.tui.app import CardroomApp, RoomChanged, build_app
from cardroom.tui.hotseat import HotSeat, HotSeatApp
from cardroom.tui.options import UIOptions

__all__ = ["build_app", "CardroomApp", "RoomChanged", "HotSeat", "HotSeatApp", "UIOptions"]
