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


def test_auto_blind_is_kept_for_the_next_seat_and_login(make_room):
    """Issue 35: every option but Auto Blind was kept between logins. A player's Auto Blind is his
    choice until he changes it: a new seat, after a new login, starts with it (off until he first
    turns it on, seed 000)."""
    from tests.rooms import table_settings
    room, _ = make_room(table_settings("T"), table_settings("U"))
    alice = room.connect("alice")
    alice.join("T")
    assert alice.view("T").auto_blind is False                   # starts off (seed 000)
    alice.set_auto_blind("T", True)
    alice.leave("T")
    alice.close()
    again = room.connect("alice")
    again.join("U")                                               # another table, another login
    assert again.view("U").auto_blind is True
    again.set_auto_blind("U", False)                              # and off is kept too
    again.leave("U")
    again.close()
    third = room.connect("alice")
    third.join("T")
    assert third.view("T").auto_blind is False
    bob = room.connect("bob")                                     # nobody else's choice
    bob.join("U")
    assert bob.view("U").auto_blind is False
