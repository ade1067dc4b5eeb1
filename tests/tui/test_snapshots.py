"""How the lobby and the table look, at 80x24 (usable) and 120x40 (comfortable).

Deterministic: a seeded deck, hand numbers from 1001, a FakeClock that only moves when told.
Regenerate after a deliberate change with `pytest tests/tui --snapshot-update`.
"""

from __future__ import annotations

import pytest

from cardroom.tui import UIOptions, build_app

from tests.rooms import table_settings
from .conftest import open_table, others_until

SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]


def app_for(client):
    return build_app(client, options=UIOptions(sound=False))


async def at_table(pilot):
    await open_table(pilot.app, pilot)


@pytest.mark.parametrize("size", SIZES)
def test_lobby(snap_compare, world, size):
    w = world(table_settings("Planet Hold'em $2/$4"), table_settings("Draw Lo $2/$4", game="a5-draw"),
              table_settings("Stud $2/$4", game="stud", seats=8),
              table_settings("Hold'em NL $1/$2", kind="no", small=200, seats=10))
    w.seat("Planet Hold'em $2/$4", ["alice", "bob", "carol"])
    w.room.connect("dave").watch("Planet Hold'em $2/$4")
    me = w.room.connect("erin")
    assert snap_compare(app_for(me), terminal_size=size, press=["enter"])


@pytest.mark.parametrize("size", SIZES)
def test_holdem_mid_flop(snap_compare, world, size):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol", "dave"])
    alice = clients[0]
    others_until(w, clients, alice)
    alice.act("T", "call")
    others_until(w, clients, alice, lambda v: v.street == "flop")
    clients[2].chat("T", "nice flop [bold]really[/]")
    assert snap_compare(app_for(alice), terminal_size=size, run_before=at_table)


@pytest.mark.parametrize("size", SIZES)
def test_draw_two_held(snap_compare, world, size):
    w = world(table_settings(game="a5-draw"))
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.legal.phase == "draw")

    async def hold_two(pilot):
        await open_table(pilot.app, pilot)
        await pilot.press("2", "4")

    assert snap_compare(app_for(alice), terminal_size=size, run_before=hold_two)


@pytest.mark.parametrize("size", SIZES)
def test_stud(snap_compare, world, size):
    w = world(table_settings(game="stud", seats=8))
    clients = w.seat("T", ["alice", "bob", "carol", "dave"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.street == "fifth")
    assert snap_compare(app_for(alice), terminal_size=size, run_before=at_table)


@pytest.mark.parametrize("size", SIZES)
def test_countdown_last_ten_seconds(snap_compare, world, size):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice)
    alice.act("T", "call")
    w.clock.advance(16)            # bob has 7 seconds left
    assert snap_compare(app_for(alice), terminal_size=size, run_before=at_table)


def test_four_colour_letters(snap_compare, world):
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    alice = clients[0]
    others_until(w, clients, alice, lambda v: v.street == "flop")
    app = build_app(alice, options=UIOptions(sound=False, four_colour=True, ascii=True))
    assert snap_compare(app, terminal_size=(80, 24), run_before=at_table)


@pytest.mark.parametrize("size", SIZES)
def test_blind_prompt(snap_compare, world, size):
    """Auto Blind off: the question, its keys (Enter posts, s sits out) on the prompt, the chips
    and the footer; no chat line while the box is closed."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"], auto_blind=False)
    w.clock.advance(0.01)
    me = next(c for c in clients if c.view("T").blind_prompt)
    assert snap_compare(app_for(me), terminal_size=size, run_before=at_table)


@pytest.mark.parametrize("size", SIZES)
def test_toast_above_the_footer(snap_compare, world, size):
    """A toast sits above the key footer, whatever its height, never over its keys."""
    w = world()
    clients = w.seat("T", ["alice", "bob", "carol"])
    w.clock.advance(0.01)
    me = next(c for c in clients if c.view("T").legal is None)

    async def refused(pilot):
        await open_table(pilot.app, pilot)
        await pilot.press("c")                      # not his turn: a toast says so

    assert snap_compare(app_for(me), terminal_size=size, run_before=refused)
