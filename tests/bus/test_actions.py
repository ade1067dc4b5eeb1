"""Action records through both clients (the room in this process, and a table host over a real
NATS server): an action added is one record and one handler, nothing in the clients or the
codec; an answer naming a decision that has passed is refused, changing nothing."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from cardroom.room import actions
from cardroom.room.actions import Action
from cardroom.room.api import NotAllowedNow, RoomError
from cardroom.room.table import HANDLERS, handles
from tests.bus.play import TABLE
from tests.bus.test_contract import actor, deal, seat


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


async def test_an_act_naming_a_decision_that_has_passed_is_refused(world):
    clients = await seat(world)
    await deal(world)
    me = actor(clients)
    first = me.view(TABLE).decision
    assert first and all(c.view(TABLE).decision == "" for c in clients if c is not me)
    await me.act(TABLE, "call", decision=first)
    await world.settle()
    for _ in range(10):
        if (a := actor(clients)) is me:
            break
        await a.act(TABLE, "check" if a.view(TABLE).legal.check else "call", decision=a.view(TABLE).decision)
        await world.settle()
    now = me.view(TABLE)
    assert now.decision not in ("", first)
    before = world.room.tables[TABLE].view_for(None)
    with pytest.raises(NotAllowedNow, match="that was for an earlier decision"):
        await me.act(TABLE, "check", decision=first)
    await world.settle()
    assert world.room.tables[TABLE].view_for(None) == before and me.view(TABLE).decision == now.decision
    await me.act(TABLE, "check", decision=now.decision)
    await world.settle()
    assert me.view(TABLE).legal is None
