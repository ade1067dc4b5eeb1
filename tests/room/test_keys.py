"""A player adds and removes the SSH keys that may log in as him."""

import asyncssh
import pytest

from cardroom.room.api import RoomError
from cardroom.room.room import key_fingerprint


def test_fingerprint_matches_what_ssh_keygen_and_asyncssh_print():
    key = asyncssh.generate_private_key("ssh-ed25519")
    line = key.export_public_key().decode()
    assert key_fingerprint(line) == key.get_fingerprint("sha256")


@pytest.mark.parametrize("bad", ["", "hello", "ssh-ed25519", "ssh-ed25519 !!!notbase64", "ssh-dss AAAA",
                                 "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIB"])
def test_garbage_keys_are_refused_with_a_clear_message(bad):
    with pytest.raises(RoomError):
        key_fingerprint(bad)


async def test_a_player_adds_a_second_key_and_removes_the_first_but_never_the_last(make_room):
    room, clock = make_room()
    first = asyncssh.generate_private_key("ssh-ed25519")
    second = asyncssh.generate_private_key("ssh-ed25519")
    client = room.connect("alice", first.get_fingerprint("sha256"))
    fp2 = await client.add_key(second.export_public_key().decode())
    assert set(client.keys()) == {first.get_fingerprint("sha256"), fp2}
    assert room.store.account_for_key(fp2).name == "alice"
    await client.remove_key(first.get_fingerprint("sha256"))
    assert client.keys() == (fp2,)
    with pytest.raises(RoomError, match="only key"):
        await client.remove_key(fp2)
    with pytest.raises(RoomError, match="not one of yours"):
        await client.remove_key("SHA256:nope")
    bob = room.connect("bob", asyncssh.generate_private_key("ssh-ed25519").get_fingerprint("sha256"))
    with pytest.raises(RoomError):
        await bob.add_key(second.export_public_key().decode())   # already alice's
