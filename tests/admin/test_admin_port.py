"""The admin commands' port (`RoomAdmin`, cardroom/room/admin.py) has one signature: a method is a
coroutine in the protocol exactly when it is one in the room of this process (`LocalRoomAdmin`)
and in the room across the bus (`RemoteRoomAdmin`), so the commands await an act the same way
over either, with no check of what came back. And every command runs the same way: a coroutine."""

import inspect

from cardroom.admin.commands import COMMANDS
from cardroom.bus.admin import RemoteRoomAdmin
from cardroom.room.admin import LocalRoomAdmin, RoomAdmin

PORT = [name for name, _ in inspect.getmembers(RoomAdmin, inspect.isfunction) if not name.startswith("_")]


def test_the_port_names_the_acts_of_both_rooms():
    assert {"kick", "leave_wait_list", "set_status", "set_muted", "write", "tables"} <= set(PORT)
    for room in (LocalRoomAdmin, RemoteRoomAdmin):
        assert not [name for name in PORT if not callable(getattr(room, name, None))], room


def test_every_method_of_the_port_is_a_coroutine_in_both_rooms_or_in_neither():
    differ = [f"{room.__name__}.{name}" for name in PORT for room in (LocalRoomAdmin, RemoteRoomAdmin)
              if inspect.iscoroutinefunction(getattr(room, name))
              != inspect.iscoroutinefunction(getattr(RoomAdmin, name))]
    assert not differ, f"not as the protocol says (async or not): {differ}"


def test_the_acts_on_a_table_are_coroutines():
    """An act on a table across the bus is a request to its host: it waits, so it is awaited."""
    assert all(inspect.iscoroutinefunction(getattr(RoomAdmin, name))
               for name in ("kick", "leave_wait_list", "set_status"))


def test_every_command_is_a_coroutine():
    assert not [name for name, command in COMMANDS.items() if not inspect.iscoroutinefunction(command.run)]


def test_the_commands_never_ask_whether_they_got_an_awaitable():
    source = inspect.getsource(inspect.getmodule(COMMANDS["kick"].run))
    assert "isawaitable" not in source
