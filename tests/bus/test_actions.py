"""Action records through both clients (the room in this process, and a table host over a real
NATS server): an action added is one record and one handler, nothing in the clients or the
codec."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cardroom.room import actions
from cardroom.room.actions import Action
from cardroom.room.api import RoomError
from cardroom.room.table import HANDLERS, handles
from tests.bus.play import TABLE
from tests.bus.test_contract import seat


@pytest.fixture
def knock():
    """An action added the way every one is: a record and its handler, and nothing else."""

    @dataclass(frozen=True)
    class Knock(Action):
        times: int
        words: str = ""

    @handles(Knock)
    def _knock(t, who, a: Knock) -> int:
        if a.times < 1:
            raise RoomError("knock at least once")
        t.say(f"{who.name} knocks {a.times} times{': ' + a.words if a.words else ''}")
        return a.times

    yield Knock
    del actions.ACTIONS[Knock.verb], HANDLERS[Knock]


async def test_an_action_added_is_one_record_and_one_handler(world, knock):
    alice, bob = await seat(world, names=("alice", "bob"))
    assert await alice.send(TABLE, knock(3, "hello")) == 3
    await world.settle()
    assert bob.view(TABLE).chat[-1].text == "alice knocks 3 times: hello"
    with pytest.raises(RoomError, match="knock at least once"):
        await alice.send(TABLE, knock(0))
