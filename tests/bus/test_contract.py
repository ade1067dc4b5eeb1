"""The RoomClient contract, run on LocalClient (the room in this process) and on RemoteClient (a
table host serving the same room over a real NATS server, a gateway making the clients): the
same scenarios, the same outcomes."""

from __future__ import annotations

import pytest

from cardroom.room import api
from cardroom.room.api import RoomError
from cardroom.room.client import RoomClient
from tests.bus.conftest import until
from tests.bus.play import TABLE
from tests.rooms import table_settings

STACK = 10_000


@pytest.fixture
def room_tables():
    """The world's tables here: six seats, and two for the wait list."""
    return [table_settings(TABLE, seats=6), table_settings("Two's Company", seats=2)]


async def seat(world, names=("alice", "bob", "carol"), stack=STACK):
    clients = []
    for n in names:
        c = await world.login(n)
        await c.join(TABLE)
        await c.set_auto_blind(TABLE, True)
        await c.buy_in(TABLE, stack)
        clients.append(c)
    await world.settle()
    return clients


async def deal(world):
    """The pause between hands passes: a hand is dealt."""
    await world.advance(3.5)


def actor(clients):
    waiting = [c for c in clients if c.waiting_for_me()]
    assert len(waiting) <= 1
    return waiting[0] if waiting else None


async def test_a_client_is_a_room_client(world):
    c = await world.login("alice")
    assert isinstance(c, RoomClient)
    assert c.name == "alice" and c.account_id > 0 and not c.closed and c.pages == []


async def test_a_table_that_does_not_exist_is_refused(world):
    c = await world.login("alice")
    with pytest.raises(RoomError, match="no table called 'Nowhere'"):
        await c.watch("Nowhere")
    with pytest.raises(RoomError):
        c.view("Nowhere")


async def test_watch_shows_the_table_and_the_railbird_in_it(world):
    rail = await world.login("rail")
    view = await rail.watch(TABLE)
    assert view.name == TABLE and view.my_seat is None and view.my_cards == ()
    await world.settle()
    assert rail.view(TABLE).railbirds == ("rail",)
    assert rail.my_tables() == [] and rail.waiting_for_me() == []
    await until(lambda: [r.railbirds for r in rail.lobby() if r.name == TABLE] == [1], what="the lobby row")
    await rail.unwatch(TABLE)
    other = await world.login("other")
    await other.watch(TABLE)
    await world.settle()
    assert other.view(TABLE).railbirds == ("other",)


async def test_a_railbird_who_comes_wakes_no_other_session_and_is_in_their_views(world):
    """In one process a watch repaints nobody; over the bus every session at the table was woken
    for each railbird that came (1,000 sessions: a third of the gateways' CPU per login). Seated
    players mid-hand (a clock running) and railbirds alike stay asleep, and their views, read
    next, name the newcomer."""
    seated = await seat(world, ("alice", "bob"))
    rail = await world.login("rail")
    await rail.watch(TABLE)
    await deal(world)
    assert rail.view(TABLE).hand_id is not None and rail.view(TABLE).seconds_left is not None
    woken = {c.name: 0 for c in (*seated, rail)}
    for c in (*seated, rail):
        c.on_change(lambda name=c.name: woken.__setitem__(name, woken[name] + 1))
    carol = await world.login("carol")
    await carol.watch(TABLE)
    await world.settle()
    assert rail.view(TABLE).railbirds == ("carol", "rail")
    assert woken == {"alice": 0, "bob": 0, "rail": 0}
    before = seated[0].view(TABLE)
    first = actor(seated)
    await first.act(TABLE, "call" if first.view(TABLE).legal.call else "check")
    await world.settle()
    assert woken["rail"] >= 1 and woken["alice"] >= 1 and seated[0].view(TABLE) != before   # a move wakes them


async def test_join_and_buy_in_are_seen_at_once_and_in_the_money(world):
    c = await world.login("alice")
    before = (await c.my_money()).balance
    number = await c.join(TABLE)
    assert c.view(TABLE).my_seat == number and c.view(TABLE).buy_in is not None
    await c.buy_in(TABLE, STACK)
    seat = c.view(TABLE).seats[number - 1]
    assert seat.name == "alice" and seat.stack == STACK
    money = await c.my_money()
    assert money.balance == before - STACK and money.on_tables[TABLE] == STACK and money.total == before
    assert c.my_tables() == [TABLE]


async def test_a_refused_buy_in_says_why_and_changes_nothing(world):
    c = await world.login("alice")
    await c.join(TABLE)
    before_money, before_view = await c.my_money(), c.view(TABLE)
    with pytest.raises(api.BadBuyIn) as refused:
        await c.buy_in(TABLE, before_money.balance + 100)
    assert str(refused.value)          # a message fit to show
    with pytest.raises(RoomError):
        await c.buy_in(TABLE, 1)       # below the minimum
    await world.settle()
    assert await c.my_money() == before_money
    assert c.view(TABLE).seats == before_view.seats


async def test_a_seat_taken_is_refused(world):
    a, b = await world.login("alice"), await world.login("bob")
    n = await a.join(TABLE)
    with pytest.raises(api.SeatTaken):
        await b.join(TABLE, n)
    assert b.view(TABLE).my_seat is None and b.my_tables() == []


async def test_a_whole_hand_is_played_to_the_end_with_every_player_acting(world):
    clients = await seat(world)
    total = sum([(await c.my_money()).total for c in clients])
    await deal(world)
    hand_id = clients[0].view(TABLE).hand_id
    assert hand_id and all(len(c.view(TABLE).my_cards) == 2 for c in clients)
    acted = set()
    while clients[0].view(TABLE).phase != "done":
        c = actor(clients)
        assert c is not None, "a hand in progress waits for someone"
        v = c.view(TABLE)
        assert v.acting_seat == v.my_seat and v.legal is not None
        assert all(o.waiting_for_me() == [] for o in clients if o is not c)
        kind = "check" if v.legal.check else "call"
        await c.act(TABLE, kind)
        assert c.view(TABLE).legal is None or c.view(TABLE).acting_seat != v.my_seat or v.phase != "bet"
        acted.add(c.name)
        await world.settle()
    assert acted == {"alice", "bob", "carol"}
    assert all(c.view(TABLE).hand_id == hand_id for c in clients)
    assert sum([(await c.my_money()).total for c in clients]) == total     # no chip lost or made
    assert all(c.waiting_for_me() == [] and c.my_tables() == [TABLE] for c in clients)


async def test_an_intent_out_of_turn_is_refused_and_changes_nothing(world):
    clients = await seat(world)
    await deal(world)
    other = next(c for c in clients if not c.waiting_for_me())
    before = other.view(TABLE)
    with pytest.raises(api.NotAllowedNow):
        await other.act(TABLE, "fold")
    await world.settle()
    assert other.view(TABLE).seats == before.seats and other.view(TABLE).acting_seat == before.acting_seat


async def test_waiting_for_me_follows_the_action_and_the_blind(world):
    clients = await seat(world, names=("alice", "bob"))
    c = await world.login("carol")
    await c.join(TABLE)
    await c.buy_in(TABLE, STACK)          # Auto Blind off: asked for his blind when it is his
    await deal(world)
    first = actor(clients + [c])
    assert first is not None and first.waiting_for_me() == [TABLE]
    if first is c:
        assert c.view(TABLE).blind_prompt or c.view(TABLE).legal


async def test_chat_is_seen_by_everyone_sanitised(world):
    alice, bob = await seat(world, names=("alice", "bob"))
    rail = await world.login("rail")
    await rail.watch(TABLE)
    assert await alice.chat(TABLE, "hello \x1b[31mthere\x07") is None
    assert alice.view(TABLE).chat[-1].text == "hello [31mthere"
    await world.settle()
    for c in (bob, rail):
        line = c.view(TABLE).chat[-1]
        assert (line.kind, line.name, line.text) == ("player", "alice", "hello [31mthere")
    with pytest.raises(api.ChatRefused):
        await bob.chat(TABLE, "   ")
    answer = await bob.chat(TABLE, "what are the blinds", dealer=True)
    assert isinstance(answer, str) and answer


async def test_on_change_fires_when_another_player_acts(world):
    alice, bob = await seat(world, names=("alice", "bob"))
    heard = []
    bob.on_change(lambda: heard.append(1))
    await alice.chat(TABLE, "hi")
    await until(lambda: heard, what="bob hears alice's chat")
    await world.settle()
    assert bob.view(TABLE).chat[-1].text == "hi"


async def test_the_wait_list_pages_the_next_player_when_a_seat_opens(world):
    t2 = "Two's Company"
    a, b, c = [await world.login(n) for n in ("alice", "bob", "carol")]
    for p in (a, b):
        await p.join(t2)
        await p.buy_in(t2, STACK)
    with pytest.raises(RoomError):
        await c.join(t2)                  # full
    assert await c.join_wait_list(t2) == 1
    await world.settle()
    heard = []
    c.on_change(lambda: heard.append(1))
    await b.leave(t2)
    await until(lambda: any("seat is open" in p for p in c.pages), what="carol is paged")
    assert heard
    assert b.my_tables() == [] and (await b.my_money()).on_tables.get(t2, 0) == 0
    await c.join(t2)
    assert t2 in c.my_tables()


async def test_leave_between_hands_gives_the_chips_back(world):
    alice, bob = await seat(world, names=("alice", "bob"))
    total = (await alice.my_money()).total
    await alice.leave(TABLE)
    assert alice.view(TABLE).my_seat is None and alice.my_tables() == []
    money = await alice.my_money()
    assert money.on_tables.get(TABLE, 0) == 0 and money.balance == total
    await world.settle()
    assert [s.name for s in bob.view(TABLE).seats if s.name] == ["bob"]


async def test_a_seat_left_during_a_hand_is_no_longer_one_of_my_tables(world):
    clients = await seat(world)
    await deal(world)
    c = next(c for c in clients if not c.waiting_for_me())
    await c.leave(TABLE)
    assert c.view(TABLE).leaving and c.my_tables() == []
    while clients[0].view(TABLE).phase != "done" and (p := actor(clients)) is not None:
        v = p.view(TABLE)
        await p.act(TABLE, "check" if v.legal.check else "call")
        await world.settle()
    await world.settle()
    assert c.view(TABLE).my_seat is None


async def test_pages_reach_the_client(world):
    c = await world.login("alice")
    await c.join(TABLE)
    heard = []
    c.on_change(lambda: heard.append(1))
    world.room.page(c.account_id, "a word from the admin")
    await until(lambda: c.pages[-1:] == ["a word from the admin"], what="the page")
    assert heard


async def test_close_marks_the_seat_disconnected_and_ends_the_client(world):
    alice, bob = await seat(world, names=("alice", "bob"))
    number = alice.view(TABLE).my_seat
    alice.close()
    assert alice.closed
    await until(lambda: not world.room.tables[TABLE].seat_of(alice.account_id).connected,
                what="the host marks alice disconnected")
    await world.settle()
    assert bob.view(TABLE).seats[number - 1].connected is False
    with pytest.raises(RoomError):
        await alice.chat(TABLE, "still here?")
    again = await world.login("alice")
    await again.watch(TABLE)
    await until(lambda: world.room.tables[TABLE].seat_of(again.account_id).connected, what="reconnected")
    await world.settle()
    assert again.my_tables() == [TABLE]


async def test_a_newer_login_takes_over_the_older_session(world):
    old = await world.login("alice")
    ended = []
    old.on_end(ended.append)
    await old.watch(TABLE)
    new = await world.login("alice")
    assert old.closed and old.taken_over and ended and not new.closed
    await new.watch(TABLE)


async def test_store_reads_keys_preferences_and_hands(world):
    c = await world.login("alice", "SHA256:abc")
    assert await c.keys() == ("SHA256:abc",)
    await c.save_preferences({"theme": "dark"})
    assert (await c.preferences())["theme"] == "dark"
    with pytest.raises(RoomError):
        await c.save_preferences({"Bad Name": "x"})
    with pytest.raises(RoomError):
        await c.remove_key("SHA256:abc")          # the only key
    assert await c.hands() == []
