"""A player's preferences through the room's client API, kept in the real store."""

import pytest

from cardroom.room.api import RoomError
from cardroom.room.room import PREFERENCES_MAX


def test_preferences_are_kept_per_account_across_logins(make_room):
    room, _ = make_room()
    alice = room.connect("alice")
    assert alice.preferences() == {}
    alice.save_preferences({"ascii": "1", "theme": "nord"})
    alice.save_preferences({"ascii": "0"})                  # replaces one, keeps the other
    alice.close()
    assert room.connect("alice").preferences() == {"ascii": "0", "theme": "nord"}
    assert room.connect("bob").preferences() == {}


@pytest.mark.parametrize("values", [
    {"": "1"}, {"Theme": "x"}, {"the me": "x"}, {"x" * 33: "1"}, {"théme": "x"}, {1: "1"},
    {"theme": 1}, {"theme": "x" * 65}, {"theme": "\x1b[31m"}, {"theme": "a\nb"},
    {"ok": "1", "bad name": "1"}, ["theme", "nord"],
])
def test_bad_preferences_are_refused_and_change_nothing(make_room, values):
    room, _ = make_room()
    alice = room.connect("alice")
    alice.save_preferences({"theme": "nord"})
    with pytest.raises(RoomError):
        alice.save_preferences(values)
    assert alice.preferences() == {"theme": "nord"}


def test_an_account_keeps_a_bounded_number_of_preferences(make_room):
    room, _ = make_room()
    alice = room.connect("alice")
    alice.save_preferences({f"p{i}": "1" for i in range(PREFERENCES_MAX)})
    with pytest.raises(RoomError, match="too many"):
        alice.save_preferences({"one_more": "1"})
    alice.save_preferences({"p0": "0"})                     # changing a kept one is fine
    assert len(alice.preferences()) == PREFERENCES_MAX


def test_a_closed_store_reads_as_no_preferences_and_refuses_to_keep(make_room):
    room, _ = make_room()
    alice = room.connect("alice")
    room.store.close()
    assert alice.preferences() == {}
    with pytest.raises(RoomError, match="could not be kept"):
        alice.save_preferences({"ascii": "1"})
